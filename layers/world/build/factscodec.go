package build

import (
	"encoding/binary"
	"strconv"
	"strings"
	"unsafe"

	"github.com/git-speed/git-speed/layers/world"
)

// Facts are stored in the same compact binary form as shards: a string
// table, then the fields in a fixed order, reference lines delta-encoded.
// On a large tree this is several times smaller than JSON and keeps the
// memory of a full index in bounds.
//
//	1: first binary facts.
//	2: a definition's Returns after its Doc.
//	3: the term vector (Facts.Terms) follows the warning.
//	4: what the facts repeat is stored once (factsFormat4 below).
const factsFormat = 4

// factsFormat4: a kubernetes build wrote 125 MB of facts, and compressing
// them cost CPU in proportion to their size, though most of it repeated
// itself. Format 4 stores each thing once:
//
//   - a definition's Qualified is its Name, Parent+"."+Name or
//     Parent+" > "+Name (markdown) when it is one of those, and its Parent
//     the Qualified of an earlier definition (maybe with an index suffix
//     such as "[0]"): a shape byte says which, with Exported;
//   - a definition's Start is a delta from the previous one, its End from
//     its Start;
//   - the skeleton is literal text between pieces that name what they
//     repeat: a definition's doc, signature, name, type, the "lines S-E"
//     its elided body names, an import's alias or path (see "Skeleton
//     pieces" below);
//   - a reference's line delta, kind and whether its enclosing definition
//     changed share one number;
//   - a signature that holds the definition's name is stored as the text
//     before and after it;
//   - terms, sorted, keep only what differs from the previous term's text
//     (the length of the common prefix and of the rest share one number),
//     and a count and where the term occurs share another.
//
// Decoding gives exactly the Facts encoded.

// Def shape bits.
const (
	shapeExported = 1 << 0
	// Qualified (bits 1-2).
	qualShift     = 1
	qualExplicit  = 0
	qualName      = 1 // Name
	qualDotted    = 2 // Parent + "." + Name
	qualSection   = 3 // Parent + " > " + Name (markdown headings)
	parentShift   = 3 // Parent (bits 3-4)
	parentNone    = 0
	parentDef     = 1 // the Qualified of an earlier definition
	parentString  = 2
	parentIndexed = 3 // the Qualified of an earlier definition and a suffix ("[0]")
	// shapeSigName: the Signature is a head, the Name and a tail.
	shapeSigName = 1 << 5
	shapeUnused  = 0xC0
)

// Reference kinds by code; refKindOther is followed by the kind's string.
var refKinds = [...]string{"", world.RefCall, world.RefType, world.RefMember, world.RefValue, world.RefFixture}

const refKindOther = 7

// A term's Count and Fields share one number when Fields < 63 (all of a
// kubernetes build's do); termFieldsOther says a byte of Fields follows.
const termFieldsOther = 63

// Skeleton piece fields of a definition (fieldImport* of an import).
const (
	fieldDoc = iota
	fieldSignature
	fieldName    // a field's name, when its line is not its signature (aligned)
	fieldReturns // and its type
	fieldLines
	fieldImportAlias = 0
	fieldImportPath  = 1
)

// factsCodec is the encoder's scratch, reused through shardWriter.
type factsCodec struct {
	quals  map[string]int // Qualified → index of its latest definition
	pieces []byte         // the skeleton's pieces
	lit    []byte         // the skeleton's literal text
	num    []byte
	skip   [32]uint64 // index's table of 256 bytes, set eight at a time
}

func encodeFacts(f *world.Facts) ([]byte, error) {
	b, _ := encodeFactsLink(f, nil)
	return b, nil
}

// encodeFactsLink encodes f, and when links is not nil the link of f in
// it as links.encodeLinkOf does: from the numbers the facts' own
// string table gave its strings, most of which the link names too.
func encodeFactsLink(f *world.Facts, links *linkTable) (facts, link []byte) {
	w := borrowWriter()
	defer w.release()
	if w.facts == nil {
		w.facts = &factsCodec{quals: map[string]int{}}
	}
	c := w.facts
	var lc *linkCoder
	if links != nil {
		lc = borrowLinkCoder(&w.strs)
		defer lc.release()
	}
	if len(c.quals) != 0 { // left by an encode that did not finish
		clear(c.quals)
	}
	defer c.emptyQuals(f)
	joined := 0 // bytes the decoder joins, within maxJoined
	w.str(f.Lang)
	w.str(f.Package)
	w.uint(uint64(len(f.Defs)))
	prevStart := 0
	for i := range f.Defs {
		d := &f.Defs[i]
		shape := byte(0)
		if d.Exported {
			shape |= shapeExported
		}
		// Joins are what the decoder allocates beyond the blob: past
		// maxJoined (names nested thousands deep) the texts are stored.
		join := joined < maxJoined
		qual := qualExplicit
		switch {
		case d.Qualified == d.Name:
			qual = qualName
		case !join:
		case d.Parent != "" && isJoined(d.Qualified, d.Parent, ".", d.Name):
			qual = qualDotted
		case d.Parent != "" && isJoined(d.Qualified, d.Parent, " > ", d.Name):
			qual = qualSection
		}
		parent, parentAt, suffix := parentNone, 0, ""
		if d.Parent != "" {
			parent = parentString
			if k, ok := c.quals[d.Parent]; ok {
				parent, parentAt = parentDef, k
			} else if b := strings.LastIndexByte(d.Parent, '['); join && b > 0 && d.Parent[len(d.Parent)-1] == ']' {
				if k, ok := c.quals[d.Parent[:b]]; ok {
					parent, parentAt, suffix = parentIndexed, k, d.Parent[b:]
					joined += len(d.Parent)
				}
			}
		}
		if qual == qualDotted || qual == qualSection {
			joined += len(d.Qualified)
		}
		shape |= byte(qual)<<qualShift | byte(parent)<<parentShift
		at := -1
		if join && d.Name != "" {
			at = strings.Index(d.Signature, d.Name)
		}
		if at >= 0 {
			shape |= shapeSigName
			joined += len(d.Signature)
		}
		w.body = append(w.body, shape)
		name := w.strNum(d.Name)
		kind := w.strNum(d.Kind)
		if qual == qualExplicit {
			w.str(d.Qualified)
		}
		parentNum := noNum // numbered once the facts are
		switch parent {
		case parentDef:
			w.uint(uint64(i - parentAt))
		case parentIndexed:
			w.uint(uint64(i - parentAt))
			w.str(suffix)
		case parentString:
			parentNum = w.strNum(d.Parent)
		}
		w.uint(zigzag(d.Start - prevStart))
		prevStart = d.Start
		w.uint(zigzag(d.End - d.Start))
		if at >= 0 {
			w.str(d.Signature[:at])
			w.str(d.Signature[at+len(d.Name):])
		} else {
			w.str(d.Signature)
		}
		w.str(d.Doc)
		returns := w.strNum(d.Returns)
		c.quals[d.Qualified] = i
		if lc != nil {
			lc.rawDefs = append(lc.rawDefs, linkDefKey{name: name, kind: kind, parent: parentNum, returns: returns, exported: d.Exported})
		}
	}
	w.imports(f.Imports)
	w.uint(uint64(len(f.Refs)))
	prevLine, prevIn := 0, 0
	for i := range f.Refs {
		r := &f.Refs[i]
		name := w.strNum(r.Name)
		qual := w.strNum(r.Qual)
		kind := refKindOther
		for k, s := range refKinds {
			if r.Kind == s {
				kind = k
				break
			}
		}
		if lc != nil {
			lc.refNums = append(lc.refNums, [3]uint32{name, qual, uint32(kind)})
		}
		head := zigzag(r.Line-prevLine)<<4 | uint64(kind)
		prevLine = r.Line
		if r.In != prevIn {
			head |= 1 << 3
		}
		w.uint(head)
		if r.In != prevIn {
			w.uint(zigzag(r.In - prevIn))
			prevIn = r.In
		}
		if kind == refKindOther {
			w.str(r.Kind)
		}
	}
	c.skeleton(f)
	w.uint(uint64(len(f.Skeleton)))
	w.uint(uint64(len(c.pieces)))
	w.body = append(w.body, c.pieces...)
	w.uint(uint64(len(c.lit)))
	w.body = append(w.body, c.lit...)
	w.uint(uint64(f.Lines))
	w.uint(uint64(f.Tokens))
	w.uint(uint64(f.SkelToks))
	w.bool(f.Partial)
	w.str(f.Warning)
	w.uint(uint64(len(f.Terms)))
	size := 0
	for _, t := range f.Terms {
		size += len(t.Text)
	}
	if len(f.Terms) > 0 {
		w.uint(uint64(size))
	}
	prev := ""
	for _, t := range f.Terms {
		p := commonPrefix(prev, t.Text)
		if l := len(t.Text) - p; l < 15 {
			w.uint(uint64(p)<<4 | uint64(l))
		} else {
			w.uint(uint64(p)<<4 | 15)
			w.uint(uint64(l - 15))
		}
		w.body = append(w.body, t.Text[p:]...)
		if t.Fields < termFieldsOther {
			w.uint(uint64(t.Count)<<6 | uint64(t.Fields))
		} else {
			w.uint(uint64(t.Count)<<6 | termFieldsOther)
			w.body = append(w.body, t.Fields)
		}
		prev = t.Text
	}
	facts = w.bytes(factsFormat)
	if lc == nil {
		return facts, nil
	}
	// The strings the link names that the facts did not, numbered after
	// the facts' table is written.
	for i := range lc.rawDefs {
		if lc.rawDefs[i].parent == noNum {
			lc.rawDefs[i].parent = w.strs.Number(f.Defs[i].Parent)
		}
	}
	var kinds [refKindOther + 1]uint32
	for i, r := range lc.refNums {
		k := r[2]
		if kinds[k] == 0 {
			kinds[k] = w.strs.Number(f.Refs[i].Kind) + 1
		}
		lc.rawRefs = append(lc.rawRefs, refKeyOf(r[0], r[1], kinds[k]-1))
	}
	return facts, links.encodeNumbered(lc, f)
}

// noNum stands for a number not given yet.
const noNum = ^uint32(0)

// emptyQuals empties c.quals after encoding f. Clearing a map costs its
// room, which a large file grew, so a small file's names are deleted one
// by one (clearing was a twentieth of encoding facts).
func (c *factsCodec) emptyQuals(f *world.Facts) {
	if len(f.Defs) > 256 {
		clear(c.quals)
		return
	}
	for i := range f.Defs {
		delete(c.quals, f.Defs[i].Qualified)
	}
}

// isJoined reports whether s is a+sep+b.
func isJoined(s, a, sep, b string) bool {
	return len(s) == len(a)+len(sep)+len(b) && strings.HasPrefix(s, a) && s[len(a):len(a)+len(sep)] == sep && strings.HasSuffix(s, b)
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// Skeleton pieces. The skeleton is read in order and cut into literal text
// and pieces, each a text the facts already hold: item i (the imports,
// then the definitions) and one of its fields. A piece is two uvarints,
// gap<<3|field (gap: the literal bytes before it) and the item's distance
// from the previous piece's item; an item's fields come in the order of
// their numbers, each once, so a skeleton is never more than its literal
// text and the texts of its items. The encoder looks for each item's fields
// a little way ahead of where it is, in the order a skeleton shows them;
// what it does not find stays literal, so any skeleton round-trips.
const (
	pieceMin    = 4    // shorter texts stay literal: a piece costs two bytes
	docWindow   = 4096 // how far ahead a doc or signature is looked for (a long doc comment before it)
	shortWindow = 256  // how far ahead the others are
)

// linesText is the "line S" or "lines S-E" a skeleton says of an elided
// body, appended to b.
func linesText(b []byte, d *world.Def) []byte {
	if d.Start == d.End {
		b = append(b, "line "...)
		return strconv.AppendInt(b, int64(d.Start), 10)
	}
	b = append(b, "lines "...)
	b = strconv.AppendInt(b, int64(d.Start), 10)
	b = append(b, '-')
	return strconv.AppendInt(b, int64(d.End), 10)
}

// skeleton cuts f.Skeleton into c.pieces and c.lit.
func (c *factsCodec) skeleton(f *world.Facts) {
	c.pieces, c.lit = c.pieces[:0], c.lit[:0]
	s := f.Skeleton
	if s == "" {
		return
	}
	pos, last := 0, 0
	find := func(item, field int, text string, window int) bool {
		if len(text) < pieceMin {
			return false
		}
		end := min(len(s), pos+window+len(text))
		j := c.indexWindow(s[pos:end], text)
		if j < 0 {
			return false
		}
		c.lit = append(c.lit, s[pos:pos+j]...)
		c.pieces = binary.AppendUvarint(c.pieces, uint64(j)<<3|uint64(field))
		c.pieces = binary.AppendUvarint(c.pieces, uint64(item-last))
		pos += j + len(text)
		last = item
		return true
	}
	for i := range f.Imports {
		im := &f.Imports[i]
		find(i, fieldImportAlias, im.Alias, shortWindow)
		find(i, fieldImportPath, im.Path, shortWindow)
	}
	n := len(f.Imports)
	for i := range f.Defs {
		d := &f.Defs[i]
		find(n+i, fieldDoc, d.Doc, docWindow)
		if !find(n+i, fieldSignature, d.Signature, docWindow) && find(n+i, fieldName, d.Name, shortWindow) {
			find(n+i, fieldReturns, d.Returns, shortWindow)
		}
		c.num = linesText(c.num[:0], d)
		find(n+i, fieldLines, string(c.num), shortWindow)
	}
	c.lit = append(c.lit, s[pos:]...)
}

// Texts of skipMin bytes or more are looked for in windows over skipFrom
// bytes by factsCodec.index: most such texts (signatures, docs) that
// are not found within a few bytes are not in the window at all (a
// field set in an elided body, a signature the skeleton writes
// otherwise), and strings.Index reads every byte of the window for them,
// stopping at each byte like the text's first.
const (
	skipMin  = 16
	skipFrom = 256
)

// indexWindow is strings.Index(w, text), for a window of the skeleton.
func (c *factsCodec) indexWindow(w, text string) int {
	near := skipFrom + len(text)
	if len(w) <= near || len(text) < skipMin || len(text) > 255 {
		return strings.Index(w, text)
	}
	// Most texts found are found within a few bytes: the rest of a long
	// window is read by index, from where a text not in the first
	// skipFrom bytes can start.
	if j := strings.Index(w[:near], text); j >= 0 {
		return j
	}
	if j := c.index(w[skipFrom+1:], text); j >= 0 {
		return j + skipFrom + 1
	}
	return -1
}

// index is strings.Index(s, p) for p of 2 to 255 bytes, by Horspool's
// method: at each place it reads the byte under p's last and moves on by
// how far back in p that byte last occurs (all of p's length when it
// does not), which never steps over a place p occurs. On a window where
// p is not, it reads about len(s)/len(p) bytes.
func (c *factsCodec) index(s, p string) int {
	m := len(p)
	fill := uint64(m) * 0x0101010101010101
	for i := range c.skip {
		c.skip[i] = fill
	}
	skip := (*[256]uint8)(unsafe.Pointer(&c.skip))
	for i := 0; i < m-1; i++ {
		skip[p[i]] = uint8(m - 1 - i)
	}
	first, last := p[0], p[m-1]
	for i := 0; i+m <= len(s); {
		b := s[i+m-1]
		if b == last && s[i] == first && s[i:i+m] == p {
			return i
		}
		i += int(skip[b])
	}
	return -1
}

// factsReader is a shard reader of facts with a budget: the bytes of the
// strings it joins (qualified names, signatures, the skeleton, terms). A
// damaged blob could otherwise ask for far more than a real file's facts,
// a chain of parents a name longer at each step.
type factsReader struct {
	*shardReader
	budget int
}

// maxFactsGrowth: the facts' joined strings may be this many times the
// blob, or factsFloor bytes for a small blob. The encoder joins names and
// signatures within maxJoined, and a skeleton or term vector is about
// the size of its file (index.max_file_bytes, 1 MiB by default), so real
// facts stay far below either.
const (
	maxFactsGrowth = 64
	factsFloor     = 32 << 20
	maxJoined      = 16 << 20
)

// spend takes n bytes from the budget and reports whether there were.
func (r *factsReader) spend(n int) bool {
	if r.budget -= n; r.budget < 0 || n < 0 {
		r.err = errShard
		return false
	}
	return true
}

// join is a+b+c within the budget.
func (r *factsReader) join(a, b, c string) string {
	if r.err != nil || !r.spend(len(a)+len(b)+len(c)) {
		return ""
	}
	return a + b + c
}

func decodeFacts(b []byte) (*world.Facts, error) {
	r := &factsReader{shardReader: newOwnShardReader(b, factsFormat), budget: max(factsFloor, maxFactsGrowth*len(b))}
	f := &world.Facts{Lang: r.str(), Package: r.str()}
	if n := r.count(); n > 0 {
		f.Defs = make([]world.Def, n)
		prevStart := 0
		for i := range f.Defs {
			shape := r.byte()
			if shape&shapeUnused != 0 {
				r.err = errShard
				break
			}
			d := world.Def{Exported: shape&shapeExported != 0, Name: r.str(), Kind: r.str()}
			qual := int(shape>>qualShift) & 3
			if qual == qualExplicit {
				d.Qualified = r.str()
			}
			switch int(shape>>parentShift) & 3 {
			case parentDef:
				if k := r.uint(); k >= 1 && k <= uint64(i) {
					d.Parent = f.Defs[i-int(k)].Qualified
				} else {
					r.err = errShard
				}
			case parentIndexed:
				if k := r.uint(); k >= 1 && k <= uint64(i) {
					d.Parent = r.join(f.Defs[i-int(k)].Qualified, r.str(), "")
				} else {
					r.err = errShard
				}
			case parentString:
				d.Parent = r.str()
			}
			switch qual {
			case qualName:
				d.Qualified = d.Name
			case qualDotted:
				d.Qualified = r.join(d.Parent, ".", d.Name)
			case qualSection:
				d.Qualified = r.join(d.Parent, " > ", d.Name)
			}
			d.Start = prevStart + unzigzag(r.uint())
			prevStart = d.Start
			d.End = d.Start + unzigzag(r.uint())
			if d.Signature = r.str(); shape&shapeSigName != 0 {
				d.Signature = r.join(d.Signature, d.Name, r.str())
			}
			d.Doc, d.Returns = r.str(), r.str()
			f.Defs[i] = d
			if r.err != nil {
				break
			}
		}
	}
	f.Imports = r.imports()
	if n := r.count(); n > 0 {
		f.Refs = make([]world.Ref, n)
		prevLine, prevIn := 0, 0
		for i := range f.Refs {
			ref := world.Ref{Name: r.str(), Qual: r.str()}
			head := r.uint()
			prevLine += unzigzag(head >> 4)
			ref.Line = prevLine
			if head&(1<<3) != 0 {
				prevIn += unzigzag(r.uint())
				if prevIn < 0 || prevIn > len(f.Defs) {
					r.err = errShard
				}
			}
			ref.In = prevIn
			if kind := int(head & 7); kind == refKindOther {
				ref.Kind = r.str()
			} else if kind < len(refKinds) {
				ref.Kind = refKinds[kind]
			} else {
				r.err = errShard
			}
			f.Refs[i] = ref
			if r.err != nil {
				break
			}
		}
	}
	f.Skeleton = r.skeleton(f)
	f.Lines = int(r.uint())
	f.Tokens = int(r.uint())
	f.SkelToks = int(r.uint())
	f.Partial = r.bool()
	f.Warning = r.str()
	if n := r.count(); n > 0 {
		f.Terms = make([]world.Term, n)
		// The terms' texts share one allocation, of the size given first
		// (verified at the end). Should a damaged size make it grow, the
		// texts made before keep the old array, which nothing writes again.
		size := r.uint()
		text := make([]byte, 0, min(size, uint64(len(r.b))*8))
		var prev []byte
		for i := range f.Terms {
			head := r.uint()
			p, l := head>>4, head&15
			if l == 15 {
				l += r.uint()
			}
			if r.err != nil || p > uint64(len(prev)) || l > uint64(len(r.b)) {
				r.err = errShard
				break
			}
			if !r.spend(int(p + l)) {
				break
			}
			start := len(text)
			text = append(text, prev[:p]...)
			text = append(text, r.b[:l]...)
			r.b = r.b[l:]
			prev = text[start:]
			tm := world.Term{Text: unsafe.String(unsafe.SliceData(prev), len(prev))}
			v := r.uint()
			if tm.Fields = uint8(v & termFieldsOther); tm.Fields == termFieldsOther {
				tm.Fields = r.byte()
			}
			if tm.Count = uint32(v >> 6); uint64(tm.Count) != v>>6 {
				r.err = errShard
			}
			f.Terms[i] = tm
		}
		if r.err == nil && uint64(len(text)) != size {
			r.err = errShard
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errShard
	}
	if r.err != nil {
		return nil, r.err
	}
	return f, nil
}

// skeleton reads the skeleton's pieces and literal text and puts it
// together from them and f's imports and definitions, read before.
func (r *factsReader) skeleton(f *world.Facts) string {
	size := r.uint()
	pieces := r.raw(r.count())
	lit := r.raw(r.count())
	if r.err != nil {
		return ""
	}
	// First the pieces are checked and their texts measured, so that a
	// damaged blob asks for no more than it holds.
	total := uint64(len(lit))
	var num [48]byte
	err := walkPieces(pieces, f, uint64(len(lit)), func(gap uint64, text string, lines *world.Def) {
		if lines != nil {
			total += uint64(len(linesText(num[:0], lines)))
		} else {
			total += uint64(len(text))
		}
	})
	if err != nil || total != size {
		r.err = errShard
		return ""
	}
	if size == 0 || !r.spend(int(size)) {
		return ""
	}
	var out strings.Builder
	out.Grow(int(size))
	walkPieces(pieces, f, uint64(len(lit)), func(gap uint64, text string, lines *world.Def) {
		out.Write(lit[:gap])
		lit = lit[gap:]
		if lines != nil {
			out.Write(linesText(num[:0], lines))
		} else {
			out.WriteString(text)
		}
	})
	out.Write(lit)
	return out.String()
}

// walkPieces calls fn with each piece's gap (the literal bytes before it)
// and its text, or the definition whose lines it names, after checking it:
// an item and field that exist, fields of an item in increasing order,
// gaps within the literal text's lit bytes.
func walkPieces(pieces []byte, f *world.Facts, lit uint64, fn func(gap uint64, text string, lines *world.Def)) error {
	item, field := 0, -1
	items := len(f.Imports) + len(f.Defs)
	for len(pieces) > 0 {
		head, n := binary.Uvarint(pieces)
		if n <= 0 {
			return errShard
		}
		delta, m := binary.Uvarint(pieces[n:])
		if m <= 0 {
			return errShard
		}
		pieces = pieces[n+m:]
		gap, next := head>>3, int(head&7)
		if gap > lit || delta >= uint64(items-item+1) || delta == 0 && next <= field {
			return errShard
		}
		lit -= gap
		item += int(delta)
		field = next
		if item >= items {
			return errShard
		}
		if item < len(f.Imports) {
			switch im := &f.Imports[item]; field {
			case fieldImportAlias:
				fn(gap, im.Alias, nil)
			case fieldImportPath:
				fn(gap, im.Path, nil)
			default:
				return errShard
			}
			continue
		}
		switch d := &f.Defs[item-len(f.Imports)]; field {
		case fieldDoc:
			fn(gap, d.Doc, nil)
		case fieldSignature:
			fn(gap, d.Signature, nil)
		case fieldName:
			fn(gap, d.Name, nil)
		case fieldReturns:
			fn(gap, d.Returns, nil)
		case fieldLines:
			fn(gap, "", d)
		default:
			return errShard
		}
	}
	return nil
}

// raw reads n bytes as they are.
func (r *shardReader) raw(n int) []byte {
	if r.err != nil || n > len(r.b) {
		r.err = errShard
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}

func zigzag(v int) uint64   { return uint64((v << 1) ^ (v >> 63)) }
func unzigzag(u uint64) int { return int(u>>1) ^ -int(u&1) }
