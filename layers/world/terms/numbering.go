package terms

import "github.com/git-speed/git-speed/layers/world"

// Numbering gives each distinct string (a term, or any other) a number,
// 0 up in order of first sight. It holds no pointer: the strings' bytes
// are in one arena and the open-addressed slots are numbers, so a
// numbering of a large tree's 170 thousand terms, alive through a build,
// costs the collector nothing to scan, and numbering a new string
// allocates nothing once the arena has grown. The zero Numbering is
// empty; it is not safe for concurrent use.
type Numbering struct {
	arena []byte
	ends  []uint32 // string n is arena[ends[n-1]:ends[n]] (0 for n-1 < 0)
	// slots are a power of two long, at most three quarters full.
	slots []nslot
	// hashes is NumberTerms' scratch, touched the sum of the slots it
	// read first.
	hashes  []uint32
	touched uint64
}

// nslot is one slot of a Numbering. A string of at most 8 bytes is held
// in the slot itself (headOf), so looking it up reads neither the
// arena nor ends: most strings a build numbers (terms, kinds, names) are
// that short. A longer one's slot holds where it starts in the arena, so
// looking it up reads the arena but not ends (in a large numbering, each
// is a miss of the processor's caches).
type nslot struct {
	key  uint64 // headOf a string of at most 8 bytes, else its start in arena
	meta uint64 // tag << 40 | min(length, 255) << 32 | number + 1; 0 when empty
}

// Number returns t's number, numbering it when new.
func (m *Numbering) Number(t string) uint32 {
	// t's bytes, not copied: they are only read, and copied when new.
	return m.number(bytesOf(t), 0)
}

// NumberTerms appends to ids the numbers of vec's texts, numbering the
// new ones in vec's order, as Number on each would. hashes, when not
// nil, are the texts' hashes as With gives them, one for each term:
// they are not computed again.
//
// A build numbers every term of every file in one numbering of the whole
// tree, whose slots are mostly not in the processor's caches: the terms'
// slots are read first, all of them, and then numbered, so that the
// reads, independent of each other, wait for memory together rather than
// one after another.
func (m *Numbering) NumberTerms(vec []world.Term, hashes []uint32, ids []uint32) []uint32 {
	if hashes == nil {
		m.hashes = m.hashes[:0]
		for _, t := range vec {
			m.hashes = append(m.hashes, hashBytes(bytesOf(t.Text)))
		}
		hashes = m.hashes
	}
	m.touch(hashes[:len(vec)])
	for i, t := range vec {
		ids = append(ids, m.number(bytesOf(t.Text), hashes[i]))
	}
	return ids
}

// NumberAll appends to ids the numbers of ts, numbering the new ones in
// their order, as Number on each would, reading their slots first as
// NumberTerms does. hashes are HashAll of ts: computed before a lock
// that guards m is taken, they need not be computed under it.
func (m *Numbering) NumberAll(ts [][]byte, hashes []uint32, ids []uint32) []uint32 {
	m.touch(hashes[:len(ts)])
	for i, t := range ts {
		ids = append(ids, m.number(t, hashes[i]))
	}
	return ids
}

// HashAll appends to out the hashes of ts, for NumberAll.
func HashAll(ts [][]byte, out []uint32) []uint32 {
	for _, t := range ts {
		out = append(out, hashBytes(t))
	}
	return out
}

// touch reserves room for as many strings as hashes holds and reads the
// slot each of them is looked for first: the reads, independent of each
// other, wait for memory together.
func (m *Numbering) touch(hashes []uint32) {
	m.reserve(len(hashes))
	mask := uint32(len(m.slots) - 1)
	var touch uint64
	for _, h := range hashes {
		touch += m.slots[slotAt(h, mask)].meta
	}
	m.touched = touch // (kept, so that the reads are not left out)
}

// reserve grows the slots until n more strings fit.
func (m *Numbering) reserve(n int) {
	if 4*(len(m.ends)+n) > 3*len(m.slots) {
		m.growFor(n)
	}
}

// growFor grows the slots until n more strings fit.
func (m *Numbering) growFor(n int) {
	for 4*(len(m.ends)+n) > 3*len(m.slots) {
		m.grow()
	}
}

// number returns the number of t, numbering it when new; h is t's
// hashBytes, or 0 to have it computed here (a hash that is 0 is
// computed again, to 0).
func (m *Numbering) number(t []byte, h uint32) uint32 {
	m.reserve(1)
	// The builder's own hash: a build numbers every term of every file,
	// and maphash's call cost more than the rest of a look-up. Numbers
	// never depend on it.
	short := len(t) <= 8
	var key uint64
	if short {
		key = headOf(t)
		if h == 0 {
			h = hashShort(key, len(t))
		}
	} else if h == 0 {
		h = hashBytes(t)
	}
	want := slotMeta(h, len(t))
	mask := uint32(len(m.slots) - 1)
	for i := slotAt(h, mask); ; i = (i + 1) & mask {
		s := &m.slots[i]
		if s.meta == 0 {
			if !short {
				key = uint64(len(m.arena))
			}
			m.arena = append(m.arena, t...)
			m.ends = append(m.ends, uint32(len(m.arena)))
			*s = nslot{key: key, meta: want | uint64(len(m.ends))}
			return uint32(len(m.ends) - 1)
		}
		if s.meta&^0xffffffff == want {
			n := uint32(s.meta) - 1
			if short {
				if s.key == key {
					return n
				}
			} else if len(t) < 255 {
				// (its length is in the meta: 255 is any longer one's)
				if string(m.arena[s.key:s.key+uint64(len(t))]) == string(t) {
					return n
				}
			} else if string(m.Bytes(n)) == string(t) {
				return n
			}
		}
	}
}

// slotAt is the first slot a string of hash h is looked for in: from
// the 24 bits of the hash its slot's meta keeps (h>>8), so that grow
// places the strings again without hashing them again. (Strings of one
// first slot are then told apart by the meta's hash bits above the
// slot's, and their lengths. A numbering of over 2^24 slots, twelve
// million strings, places them in its first 2^24 first: correct, and
// slower.)
func slotAt(h, mask uint32) uint32 { return h >> 8 & mask }

// slotMeta is the high half of a slot's meta for a string of hash h and
// length n: 24 bits of the hash (a tag most other strings fail) and the
// length up to 255 (a string of at most 8 bytes is its key and length).
func slotMeta(h uint32, n int) uint64 {
	return uint64(h>>8)<<40 | uint64(min(n, 255))<<32
}

// Len is how many strings are numbered.
func (m *Numbering) Len() int { return len(m.ends) }

// Bytes returns the bytes of the string numbered n, valid until the next
// Number or Reset.
func (m *Numbering) Bytes(n uint32) []byte {
	lo := uint32(0)
	if n > 0 {
		lo = m.ends[n-1]
	}
	return m.arena[lo:m.ends[n]]
}

// Texts returns the strings by number, all in one string.
func (m *Numbering) Texts() []string {
	all := string(m.arena)
	out := make([]string, len(m.ends))
	lo := uint32(0)
	for n, hi := range m.ends {
		out[n] = all[lo:hi]
		lo = hi
	}
	return out
}

// grow doubles the slots and places the strings again, from the hash
// bits their slots keep (slotAt).
func (m *Numbering) grow() {
	old := m.slots
	m.slots = make([]nslot, max(64, 2*len(m.slots)))
	mask := uint32(len(m.slots) - 1)
	for _, s := range old {
		if s.meta == 0 {
			continue
		}
		i := slotAt(uint32(s.meta>>40)<<8, mask)
		for m.slots[i].meta != 0 {
			i = (i + 1) & mask
		}
		m.slots[i] = s
	}
}

// Text returns the string numbered n.
func (m *Numbering) Text(n uint32) string { return string(m.Bytes(n)) }

// Reset empties m, keeping its memory.
func (m *Numbering) Reset() {
	clear(m.slots)
	m.arena, m.ends = m.arena[:0], m.ends[:0]
}

// Size is how many bytes the numbered strings hold together.
func (m *Numbering) Size() int { return len(m.arena) }
