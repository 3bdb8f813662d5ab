package terms

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
	return m.number(bytesOf(t))
}

func (m *Numbering) number(t []byte) uint32 {
	if 4*(len(m.ends)+1) > 3*len(m.slots) {
		m.grow()
	}
	// The builder's own hash, inlined: a build numbers every term of
	// every file, and maphash's call cost more than the rest of a
	// look-up. Numbers never depend on it.
	short := len(t) <= 8
	var key uint64
	var h uint32
	if short {
		key = headOf(t)
		h = hashShort(key, len(t))
	} else {
		h = hashBytes(t)
	}
	want := slotMeta(h, len(t))
	mask := uint32(len(m.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
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

// grow doubles the slots and places the strings again, hashing them
// again (a slot keeps only part of its string's hash).
func (m *Numbering) grow() {
	m.slots = make([]nslot, max(64, 2*len(m.slots)))
	mask := uint32(len(m.slots) - 1)
	for n := range m.ends {
		t := m.Bytes(uint32(n))
		h := hashBytes(t)
		i := h & mask
		for m.slots[i].meta != 0 {
			i = (i + 1) & mask
		}
		var key uint64 // where t starts in the arena
		if n > 0 {
			key = uint64(m.ends[n-1])
		}
		if len(t) <= 8 {
			key = headOf(t)
		}
		m.slots[i] = nslot{key: key, meta: slotMeta(h, len(t)) | uint64(n+1)}
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
