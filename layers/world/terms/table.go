package terms

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
)

// table maps byte strings to int32 values for one file's vector: keys are
// copied into one arena and slots are open-addressed, so looking up a
// token or adding a new one allocates nothing once the builder has grown
// (a map[string]int32 allocates a string for every key it keeps, and the
// content pass of Of adds every distinct token of every file).
type table struct {
	arena []byte
	slots []tslot // len is a power of two, or 0
	n     int     // keys held
	gen   uint32  // slots of another generation are empty
}

// tslot is one key: arena[off:off+size], its hash and its value; a slot
// whose gen is not the table's is empty, so emptying a table costs
// nothing. The hash places the key again when the table grows.
type tslot struct {
	hash uint32
	off  uint32
	size uint32
	val  int32
	gen  uint32
}

// hashSeed varies between processes, so no file is made to collide on
// purpose; what a table holds never depends on it.
var hashSeed = rand.Uint64()

// hashBytes hashes a short key (a word, most often under 16 bytes) eight
// bytes at a time, folding each through a 64×64→128-bit multiply.
func hashBytes(k []byte) uint32 {
	const m1, m2, m3 = 0xa0761d6478bd642f, 0xe7037ed1a0b428db, 0x8ebc6af09c88c6e3
	h := hashSeed ^ uint64(len(k))*m1
	for len(k) > 8 {
		h = mix(binary.LittleEndian.Uint64(k)^m2, h^m3)
		k = k[8:]
	}
	var x uint64
	switch n := len(k); {
	case n >= 4:
		x = uint64(binary.LittleEndian.Uint32(k))<<32 | uint64(binary.LittleEndian.Uint32(k[n-4:]))
	case n > 0:
		x = uint64(k[0])<<16 | uint64(k[n>>1])<<8 | uint64(k[n-1])
	}
	h = mix(x^m2, h^m1)
	return uint32(h ^ h>>32)
}

func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// find returns the slot of k, whose hash is h: the one holding k, or the
// empty one where k goes.
func (t *table) find(k []byte, h uint32) int {
	mask := uint32(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.gen != t.gen || s.hash == h && int(s.size) == len(k) && string(t.arena[s.off:s.off+s.size]) == string(k) {
			return int(i)
		}
	}
}

// upsert returns where the value of k (not empty) is kept, adding k with
// value 0 when it is new (found false). The pointer is valid until the
// next upsert or reset.
func (t *table) upsert(k []byte) (val *int32, found bool) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	h := hashBytes(k)
	s := &t.slots[t.find(k, h)]
	if s.gen == t.gen {
		return &s.val, true
	}
	s.hash, s.off, s.size, s.val, s.gen = h, uint32(len(t.arena)), uint32(len(k)), 0, t.gen
	t.arena = append(t.arena, k...)
	t.n++
	return &s.val, false
}

// grow doubles the slots (at least 256) and places the keys again.
func (t *table) grow() {
	old := t.slots
	t.slots = make([]tslot, max(256, 2*len(old)))
	mask := uint32(len(t.slots) - 1)
	if t.gen == 0 { // new slots are of generation 0, empty while gen > 0
		t.gen = 1 // old held nothing: a table of generation 0 has no slots
	}
	for _, s := range old {
		if s.gen != t.gen {
			continue
		}
		i := s.hash & mask
		for t.slots[i].gen == t.gen {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// reset empties the table, keeping its memory unless it grew past keep
// keys.
func (t *table) reset(keep int) {
	if t.n > keep {
		*t = table{}
		return
	}
	t.gen++
	if t.gen == 0 { // wrapped: clear for real
		clear(t.slots)
		t.gen = 1
	}
	t.arena, t.n = t.arena[:0], 0
}
