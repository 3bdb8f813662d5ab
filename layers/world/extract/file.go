package extract

import (
	"bytes"
	"fmt"
	"iter"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/formats"
)

// file is one extraction in progress: the walkers of lang_*.go read the
// syntax tree through it and record facts and skeleton cuts with it.
//
// Extract reads the whole tree into recs in one cgo call before the walker
// runs (tree); kids, kind, field, walk and walkParent answer from recs in
// Go. Visiting a node costs a cache miss or two inside tree-sitter
// whichever way it is read, so the tree is visited once per file, and the
// per-question cgo calls the binding would make (tens of millions on a big
// repository) are not made at all.
type file struct {
	lang  *language
	src   []byte
	root  *sitter.Node
	facts *world.Facts

	cuts []cut // byte ranges left out of the skeleton

	stack []kid // children read by kids, LIFO
	// nodes is the arena the slices named and all return are cut from:
	// append only, handed back by close.
	nodes []*sitter.Node
	tbuf  cBuf   // C memory of recs; handed back by close
	recs  []cRec // the whole tree in document order, read once by tree
	// recsBase is the address of recs and recsSize their length in
	// bytes (for at, rec and kind).
	recsBase, recsSize uintptr
	// marks are the indexes in recs of the nodes of the kinds the
	// language marks (language.marked), in document order; nil when it
	// marks none. In the C heap with recs.
	marks []uint32
	idx   nodeIndex // node id → index in recs
	nl    []uint    // offsets of the source's newlines, for lineOfByte
	// nlDone says nl is filled (it may come from a pool, empty).
	nlDone bool
	// fieldSlots remember the ids of field names asked for (fieldID), by
	// the address of the name's bytes: cheaper than the map's hash.
	fieldSlots [64]struct {
		name string
		id   uint16
	}
}

// cut replaces src[start:end] in the skeleton by marker ("" drops it).
type cut struct {
	start, end uint
	marker     string
}

// text returns the source text of n.
func (f *file) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(f.bytes(n))
}

// line returns n's first line, 1-based.
func line(n *sitter.Node) int { return int(startRow(n)) + 1 }

// endLine returns n's last line, 1-based
// (a node that ends just after a newline ends on that newline's line).
func (f *file) endLine(n *sitter.Node) int { return f.lastLine(n, f.endByte(n)) }

// lastLine is endLine for node n ending at byte end.
func (f *file) lastLine(n *sitter.Node, end uint) int {
	if end > startByte(n) {
		return f.lineOfByte(end - 1)
	}
	return line(n)
}

// endByte returns the offset just after n, read from the file's tree.
func (f *file) endByte(n *sitter.Node) uint { return uint(f.rec(n).end) }

// def records a definition and returns its 1-based index, for Ref.In.
func (f *file) def(d world.Def) int {
	f.facts.Defs = append(f.facts.Defs, d)
	return len(f.facts.Defs)
}

// ref records a reference.
func (f *file) ref(r world.Ref) {
	if f.facts.Refs == nil {
		f.facts.Refs = takeRefs()
	}
	f.facts.Refs = append(f.facts.Refs, r)
}

// refsPool holds reference slices given back by Release: a file's
// references are the largest thing an extraction allocates, and growing
// them anew for every file of a large tree was a tenth of an index run's
// garbage.
var refsPool sync.Pool

// maxPooledRefs bounds the slices kept (72 bytes a reference).
const maxPooledRefs = 8192

func takeRefs() []world.Ref {
	if p, ok := refsPool.Get().(*[]world.Ref); ok {
		return (*p)[:0]
	}
	return nil
}

// Release hands back the memory of facts.Refs for the next extraction. The
// caller must be done with facts.Refs, which Release sets to nil; an index
// run encodes and links each file's facts, then releases them. Calling it
// is optional.
func Release(facts *world.Facts) {
	if facts == nil || cap(facts.Refs) == 0 || cap(facts.Refs) > maxPooledRefs {
		return
	}
	r := facts.Refs[:cap(facts.Refs)]
	clear(r) // keep no strings of this file alive
	r = r[:0]
	facts.Refs = nil
	refsPool.Put(&r)
}

// imp records an import.
func (f *file) imp(i world.Import) { f.facts.Imports = append(f.facts.Imports, i) }

// signature returns the text of n from its start up to (not including)
// body, on one line with runs of white space folded; with a nil body, the
// whole of n.
func (f *file) signature(n, body *sitter.Node) string {
	end := f.endByte(n)
	if body != nil {
		end = startByte(body)
	}
	return foldSpace(string(f.src[startByte(n):end]))
}

// foldSpace folds runs of white space into one space and trims the ends
// (strings.Fields joined by spaces), without allocating when s is folded
// already, as most signatures are, and in one allocation otherwise.
func foldSpace(s string) string {
	// ASCII is tested in the loops themselves (spaceAt is too big to be
	// inlined, and signatures are nearly all ASCII).
	folded, prevSpace := true, true // a leading space needs folding
	for i := 0; i < len(s); {
		c, sp, size := s[i], false, 1
		if c < utf8.RuneSelf {
			sp = asciiSpace[c]
		} else {
			sp, size = spaceAt(s, i)
		}
		if sp && (prevSpace || c != ' ') {
			folded = false
			break
		}
		prevSpace = sp
		i += size
	}
	if folded && (len(s) == 0 || !prevSpace) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	pending := false
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf && asciiSpace[c] {
			pending = b.Len() > 0
			i++
			continue
		} else if c >= utf8.RuneSelf {
			if sp, size := spaceAt(s, i); sp {
				pending = b.Len() > 0
				i += size
				continue
			}
		}
		if pending {
			b.WriteByte(' ')
			pending = false
		}
		// A word is copied whole, not character by character.
		j := i + 1
		for j < len(s) {
			if c := s[j]; c < utf8.RuneSelf {
				if asciiSpace[c] {
					break
				}
				j++
			} else {
				sp, size := spaceAt(s, j)
				if sp {
					break
				}
				j += size
			}
		}
		b.WriteString(s[i:j])
		i = j
	}
	return b.String()
}

// spaceAt reports whether the character at s[i] is white space
// (unicode.IsSpace) and its length in bytes.
func spaceAt(s string, i int) (bool, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiSpace[c], 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	return unicode.IsSpace(r), size
}

// asciiSpace marks the ASCII bytes unicode.IsSpace holds for.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// elideBody leaves body out of the skeleton, replacing it by "{ … }" and a
// comment naming the lines left out.
func (f *file) elideBody(body *sitter.Node) {
	if body == nil {
		return
	}
	start, end := line(body), f.endLine(body)
	var marker string
	if f.lang.comment == "/*" {
		if start == end {
			marker = "{ … } /* line " + itoa(start) + " */"
		} else {
			marker = "{ … } /* lines " + itoa(start) + "-" + itoa(end) + " */"
		}
		if start == end && f.endByte(body)-startByte(body) <= uint(len(marker)) {
			return
		}
	} else if start == end {
		marker = "{ … } " + f.lang.comment + " line " + itoa(start)
		if f.endByte(body)-startByte(body) <= uint(len(marker)) {
			return // a short one-line body says as much as a marker
		}
	} else {
		marker = "{ … } " + f.lang.comment + " lines " + itoa(start) + "-" + itoa(end)
	}
	f.cuts = append(f.cuts, cut{startByte(body), f.endByte(body), marker})
}

// elide leaves src[start:end] out of the skeleton, replacing it by marker.
func (f *file) elide(start, end uint, marker string) {
	if end > start {
		f.cuts = append(f.cuts, cut{start, end, marker})
	}
}

// comment handles a comment node for the skeleton: a comment's first line is
// kept only when it starts a block right above a declaration (doc comment);
// everything else of comments is left out: later lines of the block, blocks
// followed by a blank line or by nothing, and comments trailing code on
// their line.
func (f *file) comment(n *sitter.Node) {
	start, end := startByte(n), f.endByte(n)
	kind := f.kind(n)
	prev := n.PrevSibling()
	if prev != nil && (f.kind(prev) == kind && line(n)-f.endLine(prev) <= 1 || f.endLine(prev) == line(n)) {
		f.cuts = append(f.cuts, cut{start, end, ""}) // not the first of its block, or trailing code
		return
	}
	last := n
	next := n.NextSibling()
	for next != nil && f.kind(next) == kind && line(next)-f.endLine(last) <= 1 {
		last, next = next, next.NextSibling()
	}
	if next == nil || !next.IsNamed() || strings.Contains(f.kind(next), "comment") || line(next)-f.endLine(last) > 1 {
		f.cuts = append(f.cuts, cut{start, end, ""})
		return
	}
	f.keepFirstLine(start, end)
}

// keepFirstLine leaves out of the skeleton all of the comment src[start:end]
// after its first line that says something; a block comment ("/*") cut so
// gets " … */" to stay closed.
func (f *file) keepFirstLine(start, end uint) {
	c := f.src[start:end]
	pos := 0
	for pos < len(c) {
		i := bytes.IndexByte(c[pos:], '\n')
		if i < 0 {
			return // the content ends on this line
		}
		// The line is only looked at: a string over the source's bytes
		// (which nothing changes during an extraction) instead of a copy.
		if docLine(unsafe.String(unsafe.SliceData(c[pos:]), i)) != "" {
			marker := ""
			if bytes.HasPrefix(c, []byte("/*")) {
				marker = " … */"
			}
			f.cuts = append(f.cuts, cut{start + uint(pos+i), end, marker})
			return
		}
		pos += i + 1
	}
}

// docLine returns the first non-empty line of a comment without its leader.
func docLine(c string) string {
	for more := true; more; {
		var l string
		l, c, more = strings.Cut(c, "\n") // line by line, without a slice of them
		l = strings.TrimSpace(l)
		l = strings.TrimLeft(l, "/*#!-;")
		l = strings.TrimSuffix(strings.TrimSpace(l), "*/")
		l = strings.TrimSpace(strings.TrimPrefix(l, "*"))
		if l != "" && l != `"""` && l != "'''" {
			return l
		}
	}
	return ""
}

// finish orders facts and builds the skeleton from the cuts.
func (f *file) finish() {
	// Walkers record most references in line order already; a stable sort
	// gives the one order whatever its algorithm.
	if byLine := func(a, b world.Ref) int { return a.Line - b.Line }; !slices.IsSortedFunc(f.facts.Refs, byLine) {
		slices.SortStableFunc(f.facts.Refs, byLine)
	}
	f.facts.Skeleton = f.skeleton()
	f.facts.Tokens = tokens.Estimate(f.facts.Lang, int64(len(f.src)))
	f.facts.SkelToks = tokens.Estimate(f.facts.Lang, int64(len(f.facts.Skeleton)))
}

// skeleton applies the cuts to the source, then drops lines left blank by
// them and folds runs of blank lines.
func (f *file) skeleton() string {
	cuts := f.cuts
	sort.Slice(cuts, func(i, j int) bool {
		if cuts[i].start != cuts[j].start {
			return cuts[i].start < cuts[j].start
		}
		return cuts[i].end > cuts[j].end
	})
	sp := skelBufs.Get().(*[2][]byte)
	b := sp[0][:0]
	pos := uint(0)
	// pending is a line pointer ("// lines 4-6") held back from a marker
	// with code after it on its line (ADD("+") { … }, or f(func() { … },
	// x)): it goes at the end of that line, so the code stays out of the
	// comment.
	var pending []byte
	for _, c := range cuts {
		if c.start < pos { // nested in a cut already made
			continue
		}
		if c.marker == "" {
			c = f.wholeLine(c, pos)
		}
		b, pending = appendHeld(b, f.src[pos:c.start], pending)
		head, ptr := f.splitPointer(c.marker)
		switch {
		case ptr == "":
			b = append(b, c.marker...)
		case pending != nil: // a second pointer on the line
			b = append(b, head...)
			pending = append(append(pending, ';'), ptr[len(f.lang.comment):]...)
		case f.codeAfter(c.end):
			b = append(b, head...)
			pending = append(pending, ptr...)
		default:
			b = append(b, c.marker...)
		}
		pos = c.end
	}
	b, pending = appendHeld(b, f.src[pos:], pending)
	if pending != nil {
		b = append(bytes.TrimRight(b, " \t"), ' ')
		b = append(b, pending...)
	}
	out := append(formats.AppendFoldBlankLines(sp[1][:0], b), '\n')
	skel := string(out)
	if cap(b) <= maxPooledSkel && cap(out) <= maxPooledSkel {
		sp[0], sp[1] = b, out
		skelBufs.Put(sp)
	}
	return skel
}

// appendHeld appends seg to b, with the held line pointer, if any, at
// the end of seg's first line; it returns the pointer still held.
func appendHeld(b, seg, pending []byte) ([]byte, []byte) {
	if pending == nil {
		return append(b, seg...), nil
	}
	i := bytes.IndexByte(seg, '\n')
	if i < 0 {
		return append(b, seg...), pending
	}
	b = bytes.TrimRight(append(b, seg[:i]...), " \t\r")
	b = append(append(b, ' '), pending...)
	return append(b, seg[i:]...), nil
}

// splitPointer splits a marker ending in a line pointer written as a
// line comment ("{ … } // lines 4-6", "...  # lines 2-3", "# … lines
// 2-5") into what goes in the body's place and the pointer. A marker
// without one (or with a block comment, which closes) gives ptr "".
func (f *file) splitPointer(marker string) (head, ptr string) {
	lead := f.lang.comment
	if lead == "" || lead == "/*" {
		return marker, ""
	}
	k := strings.LastIndex(marker, lead)
	if k < 0 {
		return marker, ""
	}
	rest := strings.TrimPrefix(marker[k+len(lead):], " …")
	if !strings.HasPrefix(rest, " line") {
		return marker, ""
	}
	return strings.TrimRight(marker[:k], " "), marker[k:]
}

// codeAfter reports whether anything but white space follows src[end] on
// its line.
func (f *file) codeAfter(end uint) bool {
	for i := end; i < uint(len(f.src)); i++ {
		switch f.src[i] {
		case '\n':
			return false
		case ' ', '\t', '\r':
		default:
			return true
		}
	}
	return false
}

// skelBufs keep the two buffers a skeleton is built in between files:
// the source with its cuts made, and that folded.
var skelBufs = sync.Pool{New: func() any { return new([2][]byte) }}

const maxPooledSkel = 4 << 20

// wholeLine widens a cut that leaves nothing but white space on its lines
// to take those lines whole, newline included, so it leaves no blank line;
// it never reaches back before pos.
func (f *file) wholeLine(c cut, pos uint) cut {
	s := c.start
	for s > pos && (f.src[s-1] == ' ' || f.src[s-1] == '\t') {
		s--
	}
	if s > 0 && f.src[s-1] != '\n' {
		return c // code (or a marker) before it on its line
	}
	e := c.end
	for e < uint(len(f.src)) && (f.src[e] == ' ' || f.src[e] == '\t' || f.src[e] == '\r') {
		e++
	}
	if e < uint(len(f.src)) && f.src[e] != '\n' {
		return c // code after it on its line
	}
	if e < uint(len(f.src)) {
		e++
	}
	return cut{s, e, ""}
}

// tree returns every node of the file's syntax tree in document order,
// read in one cgo call the first time and kept until close: passes over the
// whole file share it.
//
// From then on f.root is the tree's first record: the nodes walkers pass
// around (the root, kids, field, walk, namedChild) all point into recs, so
// at finds them by address.
func (f *file) tree() []cRec {
	if f.recs == nil {
		f.tbuf = takeBuf()
		f.recs = f.tbuf.dump(f.root, f.lang.opaque)
		f.recsBase, f.recsSize = uintptr(unsafe.Pointer(unsafe.SliceData(f.recs))), uintptr(len(f.recs))*recBytes
		if f.lang.opaque.marks {
			f.marks = f.tbuf.marked()
		}
		f.root = &f.recs[0].node
	}
	return f.recs
}

const recBytes = unsafe.Sizeof(cRec{})

// at returns n's index in the file's tree. Every node a walker can reach
// is in it; one that is not is a bug, and Extract turns the panic into a
// warning and no facts.
func (f *file) at(n *sitter.Node) int {
	// A node in recs is found by its address (cRec starts with the node).
	// Kept small enough to be inlined: walkers ask it for every node. Only
	// &recs[i].node is ever handed out, so an address in recs is a
	// record's start.
	if off := uintptr(unsafe.Pointer(n)) - f.recsBase; off < f.recsSize {
		return int(off / recBytes)
	}
	return f.atCopy(n)
}

// rec returns n's record in the file's tree: n itself, for a node in
// recs (a record starts with its node).
func (f *file) rec(n *sitter.Node) *cRec {
	if uintptr(unsafe.Pointer(n))-f.recsBase < f.recsSize {
		return (*cRec)(unsafe.Pointer(n))
	}
	return f.recCopy(n)
}

// recCopy is rec for a node that is not in recs (atCopy); not inlined,
// so that rec and endByte are.
//
//go:noinline
func (f *file) recCopy(n *sitter.Node) *cRec { return &f.recs[f.atCopy(n)] }

// atCopy is at for a node that is not in recs: one the binding made
// (Parent, NextSibling…) or a copy. The index by id is built on the first
// such question of a file; most files never ask one.
func (f *file) atCopy(n *sitter.Node) int {
	recs := f.tree()
	if f.idx.slots == nil {
		f.idx.build(recs)
	}
	i := f.idx.find(recs, words(n).id)
	if i < 0 {
		panic(fmt.Sprintf("node %s at byte %d is not in the file's tree", n.Kind(), startByte(n)))
	}
	return i
}

// nodeIndex finds a node's record in a tree dump by its id (the address
// of its subtree, unique in a tree): an open-addressing hash table of
// record indexes, cheaper to fill than a map for every node of a file.
type nodeIndex struct {
	slots []int32 // record index + 1; 0 is empty
	shift uint
}

func hashID(id uintptr, shift uint) uint {
	return uint((uint64(id) >> 3) * 0x9E3779B97F4A7C15 >> shift)
}

// spareSlots keeps index tables between files.
var spareSlots sync.Pool

func (x *nodeIndex) build(recs []cRec) {
	bits := uint(4)
	for 1<<bits < 2*len(recs) {
		bits++
	}
	if p, ok := spareSlots.Get().(*[]int32); ok && cap(*p) >= 1<<bits {
		x.slots = (*p)[:1<<bits]
		clear(x.slots)
	} else {
		x.slots = make([]int32, 1<<bits)
	}
	x.shift = 64 - bits
	mask := uint(len(x.slots) - 1)
	for i := range recs {
		h := hashID(words(&recs[i].node).id, x.shift)
		for x.slots[h] != 0 {
			h = (h + 1) & mask
		}
		x.slots[h] = int32(i + 1)
	}
}

// release hands the table back for another file.
func (x *nodeIndex) release() {
	if x.slots != nil {
		s := x.slots[:0]
		spareSlots.Put(&s)
		x.slots = nil
	}
}

// find returns the index in recs of the node with id, or -1.
func (x *nodeIndex) find(recs []cRec, id uintptr) int {
	if x.slots == nil {
		return -1
	}
	mask := uint(len(x.slots) - 1)
	for h := hashID(id, x.shift); x.slots[h] != 0; h = (h + 1) & mask {
		if i := int(x.slots[h] - 1); words(&recs[i].node).id == id {
			return i
		}
	}
	return -1
}

// recKind returns the node kind of a record of tree, without a cgo call.
func (f *file) recKind(r *cRec) string {
	if int(r.symbol) < len(f.lang.kinds) {
		return f.lang.kinds[r.symbol]
	}
	return r.node.Kind()
}

// walk calls visit for n and every node below it in document order; when
// visit returns false the node's children are skipped. The nodes passed to
// visit stay valid until close (a visitor may keep them).
func (f *file) walk(n *sitter.Node, visit func(n *sitter.Node) bool) {
	i := f.at(n)
	for j, end := i, int(f.recs[i].after); j < end; {
		if visit(&f.recs[j].node) {
			j++
		} else {
			j = int(f.recs[j].after)
		}
	}
}

// kid is one child of a node, as read by file.kids.
type kid struct {
	n     *sitter.Node // in the file's tree (recs), valid until close
	kind  string       // node kind (type) name
	field uint16       // field id within the parent; 0 for none
	named bool
	end   uint // end byte
}

// kind returns n's node kind (type).
func (f *file) kind(n *sitter.Node) string { return f.recKind(f.rec(n)) }

// fieldID returns the id of a field name of the file's grammar; 0 when the
// grammar has no such field.
func (f *file) fieldID(name string) uint16 {
	// Walkers pass constants: a name's bytes stay where they are, and the
	// slot keeps the string it answered for, so it cannot be freed and its
	// address reused by another name.
	// Open addressing, a few probes: a walker asks for a few dozen names,
	// which must not evict one another on every call.
	h := uintptr(unsafe.Pointer(unsafe.StringData(name))) >> 3
	for p := uintptr(0); p < 8; p++ {
		e := &f.fieldSlots[(h+p)%uintptr(len(f.fieldSlots))]
		if e.name == name {
			return e.id
		}
		if e.name == "" {
			e.name, e.id = name, f.lang.fields[name]
			return e.id
		}
	}
	return f.lang.fields[name]
}

// field returns n's first child in the named field, or nil. Fields are
// the tree cursor's (gs_dump), not ts_node_child_by_field_id's, which in
// tree-sitter 0.25 can answer with the wrong child below hidden nodes (the
// object of a.b.c in a TypeScript type query for its property).
func (f *file) field(n *sitter.Node, name string) *sitter.Node {
	return f.fieldByID(n, f.fieldID(name))
}

// fieldByID is field with the field's id at hand (0: none).
func (f *file) fieldByID(n *sitter.Node, id uint16) *sitter.Node {
	if id == 0 || n == nil {
		return nil
	}
	i := f.at(n)
	for j := i + 1; j < int(f.recs[i].after); j = int(f.recs[j].after) {
		if f.recs[j].field == id {
			return &f.recs[j].node // valid until close, as walk's nodes
		}
	}
	return nil
}

// kids returns n's children (named and anonymous) with their kinds and
// field ids. The slice is only valid until the matching f.release(mark),
// where mark is len(f.stack) before the call; calls may nest (LIFO): a
// nested kids call never overwrites an outer slice.
func (f *file) kids(n *sitter.Node) []kid { return f.kidsOf(n, false) }

// namedKids is kids for the named children alone: the anonymous ones
// (punctuation, keywords, operators) are about a third of a tree's nodes.
func (f *file) namedKids(n *sitter.Node) []kid { return f.kidsOf(n, true) }

func (f *file) kidsOf(n *sitter.Node, namedOnly bool) []kid {
	i := f.at(n)
	// Locals: appending to f.stack in the loop would make the compiler
	// reload every field of f on each child.
	recs, kinds, named, st := f.recs, f.lang.kinds, f.lang.named, f.stack
	mark := len(st)
	for j, end := i+1, int(recs[i].after); j < end; j = int(recs[j].after) {
		r := &recs[j]
		var kind string
		var isNamed bool
		if s := int(r.symbol); s < len(kinds) && s < len(named) {
			kind, isNamed = kinds[s], named[s]
		} else {
			kind, isNamed = r.node.Kind(), r.node.IsNamed()
		}
		if isNamed || !namedOnly {
			// Written field by field in place: a kid appended whole is
			// copied with the write barriers of a bulk move.
			if len(st) == cap(st) {
				st = slices.Grow(st, 1)
			}
			st = st[:len(st)+1]
			k := &st[len(st)-1]
			k.n, k.kind, k.field, k.named, k.end = &r.node, kind, r.field, isNamed, uint(r.end)
		}
	}
	f.stack = st
	return st[mark:len(st):len(st)]
}

// childRecs yields n's children as records of the file's tree, in order.
// A walker's hottest loops read children so, without kids' copies.
func (f *file) childRecs(n *sitter.Node) iter.Seq[*cRec] {
	return func(yield func(*cRec) bool) {
		recs := f.recs
		i := f.at(n)
		for j, end := i+1, int(recs[i].after); j < end; j = int(recs[j].after) {
			if !yield(&recs[j]) {
				return
			}
		}
	}
}

// release drops the children read by kids calls made since mark.
func (f *file) release(mark int) { f.stack = f.stack[:mark] }

// close hands back the memory of the file's tree, its kids stack and its
// line table for the next file.
func (f *file) close() {
	keepBuf(f.tbuf)
	f.tbuf, f.recs, f.recsBase, f.recsSize, f.marks = cBuf{}, nil, 0, 0, nil
	f.idx.release()
	if f.stack != nil && cap(f.stack) <= maxPooledKids {
		s := f.stack[:0]
		spareKids.Put(&s)
	}
	if f.nl != nil && cap(f.nl) <= maxPooledLines {
		nl := f.nl[:0]
		spareLines.Put(&nl)
	}
	if f.nodes != nil && cap(f.nodes) <= maxPooledNodes {
		clear(f.nodes) // pointers into the tree, which is gone
		nodes := f.nodes[:0]
		spareNodes.Put(&nodes)
	}
	f.stack, f.nl, f.nodes = nil, nil, nil
}

// spareKids and spareLines keep kids stacks and newline tables between
// files: growing them afresh for every file was a fifth of the bytes an
// index run allocates.
var spareKids, spareLines, spareNodes sync.Pool

const (
	maxPooledKids  = 1 << 16
	maxPooledLines = 1 << 18
	maxPooledNodes = 1 << 16
)

// newFile returns a file ready for a walker, with pooled memory.
func newFile(l *language, src []byte, root *sitter.Node, facts *world.Facts) *file {
	l.loadTables()
	f := &file{lang: l, src: src, root: root, facts: facts}
	if p, ok := spareKids.Get().(*[]kid); ok {
		f.stack = *p
	}
	if p, ok := spareLines.Get().(*[]uint); ok {
		f.nl = (*p)[:0]
	}
	if p, ok := spareNodes.Get().(*[]*sitter.Node); ok {
		f.nodes = *p
	} else {
		f.nodes = make([]*sitter.Node, 0, 256) // (named's empty answers are not nil)
	}
	return f
}

// textRange returns src[start:end] as a string.
func (f *file) textRange(start, end uint) string { return string(f.src[start:end]) }

// bytes returns the source text of n without a copy: string(f.bytes(n))
// as a map key, in a comparison or as an operand of + makes no string
// of its own. Not inlined itself, so that text, keyText and textIs are:
// inlined, text's conversion of a string that does not escape needs no
// allocation.
//
//go:noinline
func (f *file) bytes(n *sitter.Node) []byte { return f.src[startByte(n):f.endByte(n)] }

// keyText returns the source text of n without a copy: a string sharing
// the source's bytes, for the keys of a walker's own maps (the names its
// scope binds), which live no longer than the walk. Never for a fact:
// facts outlive the source.
func (f *file) keyText(n *sitter.Node) string {
	b := f.bytes(n)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// textIs reports whether n's text equals s, without allocating.
func (f *file) textIs(n *sitter.Node, s string) bool {
	return string(f.bytes(n)) == s
}

// docComment returns the first line of the comment block right above n,
// skipping compiler directives (lines such as "//go:noinline" or
// "//nolint"), with the leader stripped; "" when there is none. It reads
// the block through kinds from the table, so it is cheap to call on every
// declaration.
func (f *file) docComment(n *sitter.Node) string {
	prev := n.PrevSibling()
	if prev == nil || !strings.Contains(f.kind(prev), "comment") || line(n)-f.endLine(prev) > 1 || f.trailing(prev) {
		return ""
	}
	first := prev
	for p := prev.PrevSibling(); p != nil && strings.Contains(f.kind(p), "comment") && line(first)-f.endLine(p) <= 1; p = p.PrevSibling() {
		first = p
	}
	for c := first; c != nil; c = c.NextSibling() {
		t := f.text(c)
		if !isDirective(t) {
			return docLine(t)
		}
		if c.Id() == prev.Id() {
			break
		}
	}
	return ""
}

// trailing reports whether comment c follows code on its first line.
func (f *file) trailing(c *sitter.Node) bool {
	for i := int(startByte(c)) - 1; i >= 0; i-- {
		switch f.src[i] {
		case ' ', '\t':
			continue
		case '\n':
			return false
		}
		return true
	}
	return false
}

// isDirective reports whether a comment is a tool directive rather than
// prose: "//go:build", "//nolint", "#!/bin/sh", "// +build".
func isDirective(c string) bool {
	if strings.HasPrefix(c, "#!") || strings.HasPrefix(c, "// +build") {
		return true
	}
	if !strings.HasPrefix(c, "//") || len(c) < 3 || c[2] == ' ' {
		return false
	}
	i := strings.IndexAny(c[2:], ": \t")
	return i > 0 && c[2+i] == ':' || strings.HasPrefix(c, "//nolint") || strings.HasPrefix(c, "//export ")
}

// lineOfByte returns the 1-based line holding byte offset b.
func (f *file) lineOfByte(b uint) int {
	if !f.nlDone {
		f.nlDone = true
		if f.nl == nil {
			f.nl = make([]uint, 0, len(f.src)/32)
		}
		for i := 0; ; {
			j := bytes.IndexByte(f.src[i:], '\n')
			if j < 0 {
				break
			}
			f.nl = append(f.nl, uint(i+j))
			i += j + 1
		}
	}
	// Number of newlines before b.
	lo, hi := 0, len(f.nl)
	for lo < hi {
		m := (lo + hi) / 2
		if f.nl[m] < b {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo + 1
}

// kidEndLine is endLine for a child read by kids, without a cgo call.
func (f *file) kidEndLine(k *kid) int { return f.lastLine(k.n, k.end) }

func isCommentKind(k string) bool { return strings.Contains(k, "comment") }

// docAt is docComment for ks[i], reading its siblings from ks (the
// result of one kids call) instead of asking tree-sitter, whose
// prev-sibling step costs a scan of the parent's children.
func (f *file) docAt(ks []kid, i int) string {
	if i <= 0 || i >= len(ks) {
		return ""
	}
	p := i - 1
	if !isCommentKind(ks[p].kind) || line(ks[i].n)-f.kidEndLine(&ks[p]) > 1 || f.trailing(ks[p].n) {
		return ""
	}
	first := p
	for first > 0 && ks[first-1].kind == ks[first].kind && line(ks[first].n)-f.kidEndLine(&ks[first-1]) <= 1 {
		first--
	}
	for j := first; j <= p; j++ {
		t := string(f.src[startByte(ks[j].n):ks[j].end])
		if !isDirective(t) {
			return docLine(t)
		}
	}
	return ""
}

// commentAt is comment for ks[i], reading its siblings from ks.
func (f *file) commentAt(ks []kid, i int) {
	k := &ks[i]
	start, end := startByte(k.n), k.end
	if i > 0 {
		p := &ks[i-1]
		if p.kind == k.kind && line(k.n)-f.kidEndLine(p) <= 1 || f.kidEndLine(p) == line(k.n) {
			f.cuts = append(f.cuts, cut{start, end, ""})
			return
		}
	}
	last := i
	j := i + 1
	for j < len(ks) && ks[j].kind == k.kind && line(ks[j].n)-f.kidEndLine(&ks[last]) <= 1 {
		last, j = j, j+1
	}
	if j >= len(ks) || !ks[j].named || isCommentKind(ks[j].kind) || line(ks[j].n)-f.kidEndLine(&ks[last]) > 1 {
		f.cuts = append(f.cuts, cut{start, end, ""})
		return
	}
	f.keepFirstLine(start, end)
}

// fields3 returns n's first children in the fields a, b and c (nil for a
// field without one, or an id 0), as records of the file's tree, without kids'
// copies of every child.
func (f *file) fields3(n *sitter.Node, a, b, c uint16) (ra, rb, rc *cRec) {
	for r := range f.childRecs(n) {
		switch id := r.field; {
		case id == 0:
		case id == a && ra == nil:
			ra = r
		case id == b && rb == nil:
			rb = r
		case id == c && rc == nil:
			rc = r
		}
	}
	return ra, rb, rc
}

// namedChild returns n's i-th named child, or nil: NamedChild answered
// from the file's tree, without a cgo call. The node stays valid until
// close.
func (f *file) namedChild(n *sitter.Node, i uint) *sitter.Node {
	at := f.at(n)
	for j := at + 1; j < int(f.recs[at].after); j = int(f.recs[j].after) {
		if f.recNamed(&f.recs[j]) {
			if i == 0 {
				return &f.recs[j].node
			}
			i--
		}
	}
	return nil
}

// namedCount returns the number of n's named children (NamedChildCount
// from the file's tree).
func (f *file) namedCount(n *sitter.Node) uint {
	at := f.at(n)
	c := uint(0)
	for j := at + 1; j < int(f.recs[at].after); j = int(f.recs[j].after) {
		if f.recNamed(&f.recs[j]) {
			c++
		}
	}
	return c
}

// parent is n.Parent() answered from the file's tree (nil for the
// root), without the descent from the root tree-sitter makes.
func (f *file) parent(n *sitter.Node) *sitter.Node {
	if p := f.rec(n).parent; p >= 0 {
		return &f.recs[p].node
	}
	return nil
}

// nextNamed returns the named sibling after n, nil when there is none:
// NextNamedSibling answered from the file's tree, without a cgo call.
func (f *file) nextNamed(n *sitter.Node) *sitter.Node {
	recs := f.recs
	i := f.at(n)
	p := recs[i].parent
	if p < 0 {
		return nil
	}
	for j, end := int(recs[i].after), int(recs[p].after); j < end; j = int(recs[j].after) {
		if f.recNamed(&recs[j]) {
			return &recs[j].node
		}
	}
	return nil
}

// isNamed is n.IsNamed() answered from the file's tree, without a cgo
// call.
func (f *file) isNamed(n *sitter.Node) bool { return f.recNamed(f.rec(n)) }

// recNamed reports whether a record of the file's tree is a named node.
func (f *file) recNamed(r *cRec) bool {
	if int(r.symbol) < len(f.lang.named) {
		return f.lang.named[r.symbol]
	}
	return r.node.IsNamed()
}
