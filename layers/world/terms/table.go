package terms

import "hash/maphash"

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

// tslot is one key: arena[off:off+size], and its value; a slot whose gen
// is not the table's is empty, so emptying a table costs nothing.
type tslot struct {
	hash uint32
	off  uint32
	size uint32
	val  int32
	gen  uint32
}

var tableSeed = maphash.MakeSeed()

// find returns the slot of k: the one holding k, or the empty one where
// k goes, with k's hash.
func (t *table) find(k []byte) (int, uint32) {
	h := maphash.Bytes(tableSeed, k)
	h32 := uint32(h)
	mask := len(t.slots) - 1
	for i := int(h>>32) & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.gen != t.gen || s.hash == h32 && int(s.size) == len(k) && string(t.arena[s.off:s.off+s.size]) == string(k) {
			return i, h32
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
	i, h := t.find(k)
	s := &t.slots[i]
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
	mask := len(t.slots) - 1
	if t.gen == 0 { // new slots are of generation 0, empty while gen > 0
		t.gen = 1 // old held nothing: a table of generation 0 has no slots
	}
	for _, s := range old {
		if s.gen != t.gen {
			continue
		}
		h := maphash.Bytes(tableSeed, t.arena[s.off:s.off+s.size])
		i := int(h>>32) & mask
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
