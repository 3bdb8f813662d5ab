package build

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"
	"sync"
	"unsafe"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/terms"
)

// encodeLinkOf is the encoding of f.Link() (encodeLink's bytes, so
// decode gives what f.Link() gives), made without the link: a build
// encodes the link of every file it parses, and making each as structs of
// strings, counting references in a map keyed by three strings, sorting
// by comparing strings and then numbering every string in the run's
// table (a cache miss each, under the table's lock) took about as long as
// encoding the facts. Here the file's strings are numbered in a small
// table of the file's own, sorted once, and compared by rank; references
// are counted by sorting their ranks packed in one word; and each
// distinct string is looked up in the run's table once.
func (t *linkTable) encodeLinkOf(f *world.Facts) []byte {
	c := borrowLinkCoder(nil)
	defer c.release()
	num := func(s string) uint32 {
		if s == "" {
			return 0 // many a parent, qualifier and kind
		}
		return c.loc.Number(s)
	}
	c.loc.Number("") // 0
	for i := range f.Defs {
		d := &f.Defs[i]
		c.rawDefs = append(c.rawDefs, linkDefKey{name: num(d.Name), kind: num(d.Kind), parent: num(d.Parent), returns: num(d.Returns), exported: d.Exported})
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		c.rawRefs = append(c.rawRefs, refKeyOf(num(r.Name), num(r.Qual), num(r.Kind)))
	}
	return t.encodeNumbered(c, f)
}

// refKeyOf is a reference's strings' numbers (or ranks) in one word.
func refKeyOf(name, qual, kind uint32) uint64 {
	return uint64(name)<<(2*refRankBits) | uint64(qual)<<refRankBits | uint64(kind)
}

// encodeNumbered is the encoding of f.Link() from c.rawDefs and
// c.rawRefs, f's definitions and references as the numbers of their
// strings in c.loc.
func (t *linkTable) encodeNumbered(c *linkCoder, f *world.Facts) []byte {
	if c.loc.Len() >= 1<<refRankBits {
		return t.encodeLink(f.Link()) // numbers do not fit a word
	}
	// The definitions, each once, and the references, counted: in the
	// order they first occur, found again through open-addressed slots
	// holding their place + 1 (the file's numbers hash without a call).
	slots, shift := c.slotsFor(len(c.rawDefs))
	slotMask := uint64(len(slots) - 1)
	for _, k := range c.rawDefs {
		x := uint64(k.name)<<32 | uint64(k.kind) ^ (uint64(k.parent)<<32|uint64(k.returns))*0xBF58476D1CE4E5B9
		if k.exported {
			x ^= 1 << 63
		}
		for i := x * 0x9E3779B97F4A7C15 >> shift; ; i = (i + 1) & slotMask {
			at := slots[i]
			if at == 0 {
				c.defs = append(c.defs, k)
				slots[i] = int32(len(c.defs))
				break
			}
			if c.defs[at-1] == k {
				break
			}
		}
	}
	slots, shift = c.slotsFor(len(c.rawRefs))
	slotMask = uint64(len(slots) - 1)
	for _, k := range c.rawRefs {
		for i := k * 0x9E3779B97F4A7C15 >> shift; ; i = (i + 1) & slotMask {
			at := slots[i]
			if at == 0 {
				c.refs = append(c.refs, refCount{k, 1})
				slots[i] = int32(len(c.refs))
				break
			}
			if c.refs[at-1].key == k {
				c.refs[at-1].n++
				break
			}
		}
	}
	c.rankStrings()
	rank := c.rank
	// The definitions, in the order Facts.Link sorts them: the same
	// sort (pdqsort) on the same list with comparisons of the same sign
	// leaves definitions equal but for Exported as it leaves them.
	slices.SortFunc(c.defs, func(a, b linkDefKey) int {
		if a.name != b.name {
			return cmpRank(rank[a.name], rank[b.name])
		}
		if a.kind != b.kind {
			return cmpRank(rank[a.kind], rank[b.kind])
		}
		if a.parent != b.parent {
			return cmpRank(rank[a.parent], rank[b.parent])
		}
		if a.returns != b.returns {
			return cmpRank(rank[a.returns], rank[b.returns])
		}
		return 0
	})
	// The references in Link's order: each (name, qual, kind) as its
	// ranks in one word, sorted.
	const mask = 1<<refRankBits - 1
	for i := range c.refs {
		k := c.refs[i].key
		c.refs[i].key = uint64(rank[k>>(2*refRankBits)])<<(2*refRankBits) | uint64(rank[k>>refRankBits&mask])<<refRankBits | uint64(rank[k&mask])
	}
	slices.SortFunc(c.refs, func(a, b refCount) int { return cmp.Compare(a.key, b.key) })

	// The strings named, looked up in t all at once (its slots are read
	// together rather than one miss of the caches after another), their
	// hashes made before t is locked.
	c.texts, c.named = c.texts[:0], c.named[:0]
	for _, i := range c.order {
		if s := c.loc.Bytes(i); len(s) > 0 {
			c.texts, c.named = append(c.texts, s), append(c.named, i)
		} else {
			c.glob[i] = 1
		}
	}
	c.hashes = terms.HashAll(c.texts, c.hashes[:0])
	t.mu.Lock()
	defer t.mu.Unlock()
	c.ids = t.strs.NumberAll(c.texts, c.hashes, c.ids[:0])
	for k, i := range c.named {
		c.glob[i] = c.ids[k] + 2
	}
	dst := c.out[:0]
	var flags byte
	if len(f.Defs) > 0 {
		flags |= encDefs
	}
	if f.Imports != nil {
		flags |= encImports
	}
	if len(f.Refs) > 0 {
		flags |= encRefs
	}
	dst = append(dst, flags)
	dst = t.appendStrs(dst, f.Lang, f.Package)
	dst = binary.AppendUvarint(dst, uint64(len(c.defs)))
	for _, d := range c.defs {
		dst = c.appendNum(t, dst, d.name)
		dst = c.appendNum(t, dst, d.kind)
		dst = c.appendNum(t, dst, d.parent)
		dst = c.appendNum(t, dst, d.returns)
		exported := byte(0)
		if d.exported {
			exported = 1
		}
		dst = append(dst, exported)
	}
	dst = t.appendImports(dst, f.Imports)
	dst = binary.AppendUvarint(dst, uint64(len(c.refs)))
	for _, r := range c.refs {
		dst = c.appendNum(t, dst, c.order[r.key>>(2*refRankBits)])
		dst = c.appendNum(t, dst, c.order[r.key>>refRankBits&mask])
		dst = c.appendNum(t, dst, c.order[r.key&mask])
		dst = binary.AppendVarint(dst, int64(r.n))
	}
	c.out = dst
	return bytes.Clone(dst)
}

// slotsFor returns c.slots emptied, a power of two at least twice n
// long, and the shift that takes a word's high bits as a slot's number.
func (c *linkCoder) slotsFor(n int) ([]int32, uint) {
	size, bits := 16, uint(4)
	for size < 2*n {
		size, bits = size*2, bits+1
	}
	if cap(c.slots) < size {
		c.slots = make([]int32, size)
	} else {
		c.slots = c.slots[:size]
		clear(c.slots)
	}
	return c.slots, 64 - bits
}

// refRankBits is the bits of a string's rank in a reference's word.
const refRankBits = 21

func cmpRank(a, b uint32) int {
	if a < b {
		return -1
	}
	return 1
}

// refCount is a reference of a link: its strings' numbers (ranks, once
// ranked) in one word and how often it occurs.
type refCount struct {
	key uint64
	n   int
}

// linkDefKey is a definition of a link as the numbers of its strings in
// its file's own numbering.
type linkDefKey struct {
	name, kind, parent, returns uint32
	exported                    bool
}

// linkCoder is the scratch of encodeLinkOf and encodeFactsLink, reused
// between files.
type linkCoder struct {
	loc *terms.Numbering // the file's strings: own, or its facts' table
	own terms.Numbering
	// rawDefs and rawRefs are the file's definitions and references, as
	// the numbers of their strings.
	rawDefs []linkDefKey
	rawRefs []uint64
	refNums [][3]uint32 // encodeLinkOf's: name, qualifier, kind code
	glob    []uint32    // by number: what encode writes for it + 1, 0 until looked up
	rank    []uint32    // by number: its place among the strings named, sorted
	order   []uint32    // by rank: the number
	byHead  []uint64    // rankStrings' scratch
	defs    []linkDefKey
	refs    []refCount
	slots   []int32 // encodeNumbered's: place + 1 in defs or refs, 0 for none
	out     []byte
	// encodeNumbered's: the strings named (not ""), their numbers in loc,
	// hashes and numbers in the run's table.
	texts  [][]byte
	named  []uint32
	hashes []uint32
	ids    []uint32
}

var linkCoders = sync.Pool{New: func() any { return new(linkCoder) }}

// borrowLinkCoder is an empty coder of linkCoders numbering strings in
// loc, or in its own numbering when loc is nil.
func borrowLinkCoder(loc *terms.Numbering) *linkCoder {
	c := linkCoders.Get().(*linkCoder)
	c.loc = loc
	if loc == nil {
		c.loc = &c.own
	}
	return c
}

// release empties c and gives it back; one grown by a large file is
// dropped instead.
func (c *linkCoder) release() {
	if len(c.defs) > 1024 || len(c.refs) > 1024 || c.own.Len() > 4096 || c.own.Size() > 1<<18 || len(c.rank) > 1<<14 || cap(c.out) > 1<<16 {
		return
	}
	c.own.Reset()
	c.loc = nil
	c.rawDefs, c.rawRefs, c.refNums = c.rawDefs[:0], c.rawRefs[:0], c.refNums[:0]
	c.glob, c.rank, c.order = c.glob[:0], c.rank[:0], c.order[:0]
	c.defs, c.refs = c.defs[:0], c.refs[:0]
	clear(c.texts) // (the file's strings are not kept alive)
	c.texts = c.texts[:0]
	linkCoders.Put(c)
}

// rankStrings ranks the strings of c.loc that c.defs and c.refs name by
// their bytes (as strings compare). Each is sorted as one word, its first
// 43 bits and its number (refRankBits), which a sort of words orders
// without a call per comparison; strings alike in those bits are then
// sorted by their bytes.
func (c *linkCoder) rankStrings() {
	n := c.loc.Len()
	c.rank = slices.Grow(c.rank[:0], n)[:n]
	c.glob = slices.Grow(c.glob[:0], n)[:n]
	clear(c.glob)
	loc := c.loc
	keys := c.byHead[:0]
	use := func(i uint32) {
		if c.glob[i] == 0 {
			c.glob[i] = 1
			keys = append(keys, bigHead(loc.Bytes(i))>>refRankBits<<refRankBits|uint64(i))
		}
	}
	for _, d := range c.defs {
		use(d.name)
		use(d.kind)
		use(d.parent)
		use(d.returns)
	}
	const mask = 1<<refRankBits - 1
	for _, r := range c.refs {
		use(uint32(r.key >> (2 * refRankBits)))
		use(uint32(r.key >> refRankBits & mask))
		use(uint32(r.key & mask))
	}
	clear(c.glob)
	slices.Sort(keys)
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j]>>refRankBits == keys[i]>>refRankBits {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(keys[i:j], func(a, b uint64) int {
				return bytes.Compare(loc.Bytes(uint32(a&mask)), loc.Bytes(uint32(b&mask)))
			})
		}
		i = j
	}
	c.byHead = keys
	c.order = slices.Grow(c.order[:0], len(keys))[:len(keys)]
	for r, k := range keys {
		c.order[r] = uint32(k & mask)
		c.rank[k&mask] = uint32(r)
	}
}

// bigHead is the first eight bytes of b (zeros past its end) as a
// big-endian word: words compare as the bytes do, or equal.
func bigHead(b []byte) uint64 {
	if len(b) >= 8 {
		return binary.BigEndian.Uint64(b)
	}
	var w uint64
	for i, c := range b {
		w |= uint64(c) << (56 - 8*i)
	}
	return w
}

// appendNum appends what encode writes for the file's string i, looking
// it up in t once. Caller holds t.mu.
func (c *linkCoder) appendNum(t *linkTable, dst []byte, i uint32) []byte {
	g := c.glob[i]
	if g == 0 {
		if s := c.loc.Bytes(i); len(s) > 0 {
			g = t.strs.Number(unsafe.String(unsafe.SliceData(s), len(s))) + 2
		} else {
			g = 1
		}
		c.glob[i] = g
	}
	return binary.AppendUvarint(dst, uint64(g-1))
}
