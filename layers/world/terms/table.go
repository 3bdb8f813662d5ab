package terms

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
)

// table maps byte strings of 1 to 255 bytes to int32 values for one
// file's vector: keys are copied into one arena and slots are
// open-addressed, so looking up a token or adding a new one allocates
// nothing once the builder has grown (a map[string]int32 allocates a
// string for every key it keeps, and the content pass of Of adds every
// distinct token of every file).
type table struct {
	arena     []byte
	slots     []tslot  // len is a power of two, or 0; cap may be more
	offs      []uint32 // where the key of slot i starts in arena (read for keys over eight bytes)
	n         int      // keys held
	moved     []tslot  // grow's scratch
	movedOffs []uint32
}

// tslot is one key: its first eight bytes (headOf), 24 bits of its hash
// with its length, and its value; 16 bytes, four slots a cache line. The
// hash bits place the key (slotOf) and tell most keys apart, the head
// the rest without reading the arena, unless the key is longer than
// eight bytes (most words are not).
type tslot struct {
	head uint64
	meta uint32 // hash>>8<<8 | length; 0 when empty (no key is empty)
	val  int32
}

// tmeta is the meta of a key of hash h and length n (at most 255).
func tmeta(h uint32, n int) uint32 { return h&^0xff | uint32(n) }

// slotOf is the first slot a key of meta m is looked for in.
func slotOf(m, mask uint32) uint32 { return m >> 8 & mask }

// hashSeed varies between processes, so no file is made to collide on
// purpose; what a table holds never depends on it.
var hashSeed = rand.Uint64()

const hm1, hm2, hm3 = 0xa0761d6478bd642f, 0xe7037ed1a0b428db, 0x8ebc6af09c88c6e3

// hashBytes hashes a key (a word, most often under 16 bytes) eight bytes
// at a time, folding each through a 64×64→128-bit multiply: every whole
// eight bytes (hashStep), then the last 0 to 7 bytes zero-padded with the
// length (hashEnd). nextHashed hashes a word the same way as it finds it,
// and hashShort a key of at most eight bytes from its headOf.
func hashBytes(k []byte) uint32 {
	n := len(k)
	if n <= 8 {
		return hashShort(headOf(k), n)
	}
	h := hashSeed
	i := 0
	for ; i+8 <= n; i += 8 {
		h = hashStep(h, binary.LittleEndian.Uint64(k[i:]))
	}
	return hashEnd(h, binary.LittleEndian.Uint64(k[n-8:])>>(64-8*(n-i)), n)
}

// hashShort is hashBytes of a key of n <= 8 bytes whose headOf is x.
func hashShort(x uint64, n int) uint32 {
	h := hashSeed
	if n == 8 {
		h, x = hashStep(h, x), 0
	}
	return hashEnd(h, x, n)
}

// hashHead returns hashBytes(k) and headOf(k).
func hashHead(k []byte) (uint32, uint64) {
	head := headOf(k)
	if len(k) <= 8 {
		return hashShort(head, len(k)), head
	}
	return hashBytes(k), head
}

func hashStep(h, x uint64) uint64 { return mix(x^hm2, h^hm3) }

func hashEnd(h, x uint64, n int) uint32 {
	h = mix(x^hm2, h^uint64(n)*hm1)
	return uint32(h ^ h>>32)
}

// tailOf returns the last m < 8 bytes of key as a number, little-endian
// and zero-padded.
func tailOf(key []byte, m int) uint64 {
	if n := len(key); n >= 8 {
		return binary.LittleEndian.Uint64(key[n-8:]) >> (64 - 8*m)
	}
	return headOf(key)
}

// headOf returns the first eight bytes of k as a number, little-endian
// and zero-padded.
func headOf(k []byte) uint64 {
	switch n := len(k); {
	case n >= 8:
		return binary.LittleEndian.Uint64(k)
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(k)) | uint64(binary.LittleEndian.Uint32(k[n-4:]))>>(64-8*n)<<32
	case n > 0:
		return uint64(k[0]) | uint64(k[n>>1])<<(8*(n>>1)) | uint64(k[n-1])<<(8*(n-1))
	}
	return 0
}

func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// find returns the slot of k, whose meta is m and head head: the one
// holding k, or the empty one where k goes.
func (t *table) find(k []byte, m uint32, head uint64) int {
	mask := uint32(len(t.slots) - 1)
	for i := slotOf(m, mask); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.meta == 0 || s.meta == m && s.head == head && (len(k) <= 8 || string(t.arena[t.offs[i]+8:t.offs[i]+uint32(len(k))]) == string(k[8:])) {
			return int(i)
		}
	}
}

// lookupHashed returns the value of k (1 to 255 bytes), whose hashBytes
// and headOf are h and head; false when the table does not hold it.
func (t *table) lookupHashed(k []byte, h uint32, head uint64) (int32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	s := &t.slots[t.find(k, tmeta(h, len(k)), head)]
	return s.val, s.meta != 0
}

// shortAt returns where the value of a key of at most eight bytes, whose
// meta is m and head head, is kept when the key is in the slot it is
// looked for first, nil otherwise (the key may be further on, or not
// held): a look-up small enough to be inlined, for the content pass's
// repeats of short tokens, most of its look-ups. The table has slots.
func (t *table) shortAt(m uint32, head uint64) *int32 {
	s := &t.slots[slotOf(m, uint32(len(t.slots)-1))]
	if s.meta == m && s.head == head {
		return &s.val
	}
	return nil
}

// upsert returns where the value of k (1 to 255 bytes) is kept, adding k
// with value 0 when it is new (found false). The pointer is valid until
// the next upsert or reset.
func (t *table) upsert(k []byte) (val *int32, found bool) {
	h, head := hashHead(k)
	return t.upsertHashed(k, h, head)
}

// upsertHashed is upsert given k's hashBytes and headOf.
func (t *table) upsertHashed(k []byte, h uint32, head uint64) (val *int32, found bool) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	m := tmeta(h, len(k))
	i := t.find(k, m, head)
	s := &t.slots[i]
	if s.meta != 0 {
		return &s.val, true
	}
	*s = tslot{head: head, meta: m}
	if len(k) > 8 {
		// (only such a key's start is read: writing it for every key
		// would miss the cache at most new keys, offs being apart)
		t.offs[i] = uint32(len(t.arena))
	}
	t.arena = append(t.arena, k...)
	t.n++
	return &s.val, false
}

// grow doubles the slots (at least minSlots), within their capacity when
// it allows, and places the keys again.
func (t *table) grow() {
	size := max(minSlots, 2*len(t.slots))
	old, oldOffs := t.slots, t.offs
	if size <= cap(t.slots) {
		t.moved = append(t.moved[:0], old...)
		t.movedOffs = append(t.movedOffs[:0], oldOffs...)
		old, oldOffs = t.moved, t.movedOffs
		t.slots, t.offs = t.slots[:size], t.offs[:size]
		clear(t.slots)
	} else {
		t.slots, t.offs = make([]tslot, size), make([]uint32, size)
	}
	mask := uint32(size - 1)
	for j, s := range old {
		if s.meta == 0 {
			continue
		}
		i := slotOf(s.meta, mask)
		for t.slots[i].meta != 0 {
			i = (i + 1) & mask
		}
		t.slots[i], t.offs[i] = s, oldOffs[j]
	}
}

// reserve gives an empty table the slots n keys need, so that adding
// them does not grow it step by step (each step places every key
// again): within their capacity when it allows.
func (t *table) reserve(n int) {
	size := minSlots
	for size < 2*(n+1) {
		size *= 2
	}
	switch {
	case size <= len(t.slots):
	case size <= cap(t.slots):
		t.slots, t.offs = t.slots[:size], t.offs[:size]
		clear(t.slots) // (past len, slots of an earlier file)
	default:
		t.slots, t.offs = make([]tslot, size), make([]uint32, size)
	}
}

// minSlots is the fewest slots a table has.
const minSlots = 256

// reset empties the table, keeping its memory unless it grew past keep
// keys. The slots it goes on with are as many as the keys it held needed
// (a small file's keys are not spread over a large file's slots).
func (t *table) reset(keep int) {
	if t.n > keep {
		*t = table{}
		return
	}
	size := minSlots
	for size < 2*(t.n+1) {
		size *= 2
	}
	t.slots = t.slots[:min(size, len(t.slots))]
	t.offs = t.offs[:len(t.slots)]
	clear(t.slots)
	t.arena, t.n = t.arena[:0], 0
}
