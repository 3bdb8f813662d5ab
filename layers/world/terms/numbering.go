package terms

import "unsafe"

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
	// slots: a string's hash (high half) and its number + 1 (low half, 0
	// when empty); a power of two long, at most half full.
	slots []uint64
}

// Number returns t's number, numbering it when new.
func (m *Numbering) Number(t string) uint32 {
	if 2*(len(m.ends)+1) > len(m.slots) {
		m.grow()
	}
	// The builder's own hash, inlined, on t's bytes (not copied): a
	// build numbers every term of every file, and maphash's call cost
	// more than the rest of a look-up. Numbers never depend on it.
	h := uint64(hashBytes(unsafe.Slice(unsafe.StringData(t), len(t))))
	mask := uint64(len(m.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := m.slots[i]
		if e == 0 {
			m.arena = append(m.arena, t...)
			m.ends = append(m.ends, uint32(len(m.arena)))
			m.slots[i] = h<<32 | uint64(len(m.ends))
			return uint32(len(m.ends) - 1)
		}
		if e>>32 == h {
			if n := uint32(e - 1); string(m.Bytes(n)) == t {
				return n
			}
		}
	}
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

func (m *Numbering) grow() {
	old := m.slots
	m.slots = make([]uint64, max(64, 2*len(old)))
	mask := uint64(len(m.slots) - 1)
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := e >> 32 & mask
		for m.slots[i] != 0 {
			i = (i + 1) & mask
		}
		m.slots[i] = e
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
