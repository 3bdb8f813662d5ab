package extract

import (
	"iter"
	"slices"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/git-speed/git-speed/layers/world"
)

// shared.go holds helpers shared by the extractors of lang_rust.go,
// lang_java.go, lang_cfamily.go, lang_csharp.go, lang_php.go and
// lang_ruby.go: a flow-insensitive local-name set for reference filtering,
// and small node helpers.

// locals is a stack of name sets: the parameters and local bindings of the
// functions being walked. It is flow-insensitive: every binding anywhere in
// a function hides that name in the whole function.
type locals struct{ frames []map[string]bool }

func (l *locals) push() { l.frames = append(l.frames, map[string]bool{}) }
func (l *locals) pop() {
	if len(l.frames) > 0 {
		l.frames = l.frames[:len(l.frames)-1]
	}
}

// add binds name in the innermost frame (no-op outside any function).
func (l *locals) add(name string) {
	if len(l.frames) > 0 && name != "" {
		l.frames[len(l.frames)-1][name] = true
	}
}

func (l *locals) has(name string) bool {
	for i := len(l.frames) - 1; i >= 0; i-- {
		if l.frames[i][name] {
			return true
		}
	}
	return false
}

// heldLocals is locals with what each holds where the code says it: its
// declared type (Java) or a receiver chain (Rust), "" when not said.
type heldLocals struct {
	locals
	vars []map[string]string // per frame
}

func (l *heldLocals) push() {
	l.locals.push()
	l.vars = append(l.vars, nil)
}

func (l *heldLocals) pop() {
	l.locals.pop()
	if len(l.vars) > 0 {
		l.vars = l.vars[:len(l.vars)-1]
	}
}

// hold records in the innermost frame that local name holds v.
func (l *heldLocals) hold(name, v string) {
	if len(l.vars) == 0 || name == "" || v == "" {
		return
	}
	k := len(l.vars) - 1
	if l.vars[k] == nil {
		l.vars[k] = map[string]string{}
	}
	l.vars[k][name] = v
}

// held returns what local name holds, "" when not known.
func (l *heldLocals) held(name string) string {
	for i := len(l.vars) - 1; i >= 0; i-- {
		if v, ok := l.vars[i][name]; ok {
			return v
		}
	}
	return ""
}

// qualify joins a parent's qualified name and a name with a dot.
func qualify(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// scanComments makes one pass over the tree: it cuts every comment out of
// the skeleton except the first line of doc blocks (file.comment's rules)
// and returns the doc line of every node that has a comment block right
// above it (looking through sibling kinds for which skip is true, such as
// attributes), keyed by node id. docText, when not nil, turns a comment
// block into its doc line (default: docLine of its first comment).
//
// It reads siblings from one child list per node: Node.PrevSibling and
// NextSibling cost a descent from the root and a scan of the parent's
// children each, which is quadratic on wide files.
func (f *file) scanComments(isComment, skip func(kind string) bool, docText func(block []*sitter.Node) string,
	cutter func(kids []*sitter.Node, kinds []string, i int)) map[uintptr]string {
	if cutter == nil {
		cutter = f.cutCommentAt
	}
	docs := map[uintptr]string{}
	if docText == nil {
		docText = func(block []*sitter.Node) string { return docLine(f.text(block[0])) }
	}
	// Only nodes with a comment among their children need their child list.
	var parents []*sitter.Node
	recs := f.tree()
	seen := make([]uint64, len(recs)/64+1)              // parents found, by index in recs
	for i := range f.outermost("comments", isComment) { // nothing below a comment
		if p := recs[i].parent; p >= 0 && seen[p/64]&(1<<(p%64)) == 0 {
			seen[p/64] |= 1 << (p % 64)
			parents = append(parents, &recs[p].node)
		}
	}
	var kids []*sitter.Node // the children of one parent at a time
	var kinds []string
	for _, n := range parents {
		kids, kinds = kids[:0], kinds[:0]
		for r := range f.childRecs(n) {
			kids, kinds = append(kids, &r.node), append(kinds, f.recKind(r))
		}
		for i, k := range kids {
			if isComment(kinds[i]) {
				cutter(kids, kinds, i)
				continue
			}
			j := i - 1
			for j >= 0 && skip != nil && skip(kinds[j]) {
				j--
			}
			if j < 0 || !isComment(kinds[j]) || line(kids[j+1])-f.endLine(kids[j]) > 1 {
				continue
			}
			first := j
			for first > 0 && kinds[first-1] == kinds[j] && line(kids[first])-f.endLine(kids[first-1]) <= 1 {
				first--
			}
			doc := docText(kids[first : j+1])
			if doc == "" {
				continue
			}
			docs[k.Id()] = doc
			if kinds[i] == "body_statement" { // Ruby: the comment sits before the body, the doc is its first statement's
				if c := f.namedChild(k, 0); c != nil {
					docs[c.Id()] = doc
				}
			}
		}
	}
	return docs
}

// outermost yields the index in the file's tree of every node whose kind
// ask holds for and that is not below another such node, in document
// order. When the language marks every such kind (walkedMarking), they
// are read from the dump's list of marked nodes instead of a pass over
// every record. name names the question for marksCover.
func (f *file) outermost(name string, ask func(kind string) bool) iter.Seq[int] {
	return func(yield func(int) bool) {
		recs := f.tree()
		m := f.kindMemo(ask)
		if f.marks != nil && f.lang.marksCover(name, ask) {
			next := 0 // the first index not below a node yielded
			for _, i := range f.marks {
				if r := &recs[i]; int(i) >= next && !m.not(r) && m.is(r) {
					if !yield(int(i)) {
						return
					}
					next = int(r.after)
				}
			}
			return
		}
		for i := 0; i < len(recs); i++ {
			if r := &recs[i]; !m.not(r) && m.is(r) {
				if !yield(i) {
					return
				}
				i = int(r.after) - 1
			}
		}
	}
}

// kindMemo is a question about node kinds asked once per kind (symbol)
// of a file's grammar, for loops over every record of a tree.
type kindMemo struct {
	f    *file
	ask  func(kind string) bool
	memo []uint8 // by symbol: 0 not asked yet, 1 yes, 2 no
}

// kindMemo returns ask, remembered by symbol for this file.
func (f *file) kindMemo(ask func(kind string) bool) kindMemo {
	return kindMemo{f, ask, make([]uint8, len(f.lang.kinds))}
}

// not reports whether the answer for r is known to be no: the test a
// loop over every record makes first, inlined.
func (m *kindMemo) not(r *cRec) bool {
	return int(r.symbol) < len(m.memo) && m.memo[r.symbol] == 2
}

// is answers the question for a record of the file's tree.
func (m *kindMemo) is(r *cRec) bool {
	var a uint8
	if int(r.symbol) < len(m.memo) {
		a = m.memo[r.symbol]
	}
	if a == 0 {
		return m.first(r)
	}
	return a == 1
}

// first asks the question for r's symbol and remembers the answer.
func (m *kindMemo) first(r *cRec) bool {
	s := int(r.symbol)
	if s >= len(m.memo) {
		return m.ask(m.f.recKind(r))
	}
	yes := m.ask(m.f.lang.kinds[s])
	m.memo[s] = 2
	if yes {
		m.memo[s] = 1
	}
	return yes
}

// cutCommentAt applies file.comment's rules to the comment kids[i], reading
// its neighbours from kids.
func (f *file) cutCommentAt(kids []*sitter.Node, kinds []string, i int) {
	n := kids[i]
	from := len(f.cuts)
	start, end := startByte(n), f.endByte(n)
	whole := false
	if i > 0 {
		prev := kids[i-1]
		whole = kinds[i-1] == kinds[i] && line(n)-f.endLine(prev) <= 1 || f.endLine(prev) == line(n)
	}
	if !whole {
		last, k := n, i+1
		for k < len(kids) && kinds[k] == kinds[i] && line(kids[k])-f.endLine(last) <= 1 {
			last, k = kids[k], k+1
		}
		whole = k >= len(kids) || !f.isNamed(kids[k]) || strings.Contains(kinds[k], "comment") || line(kids[k])-f.endLine(last) > 1
	}
	if whole {
		f.cuts = append(f.cuts, cut{start, end, ""})
	} else {
		f.keepFirstLine(start, end)
	}
	f.fixNL(from, n)
}

// fixNL adjusts the cuts made from index from for comment n in grammars
// whose line comments include their newline (Rust): the newline stays so
// the next line is not joined to it, and a dropped comment takes its
// indentation with it.
func (f *file) fixNL(from int, n *sitter.Node) {
	end := f.endByte(n)
	if end == 0 || f.src[end-1] != '\n' {
		return
	}
	kept := f.cuts[:from]
	for _, c := range f.cuts[from:] {
		if c.marker == "" && c.end == end {
			if c.start == end-1 {
				continue // only the newline: keep the comment's one line
			}
			if c.start == startByte(n) {
				s := c.start
				for s > 0 && (f.src[s-1] == ' ' || f.src[s-1] == '\t') {
					s--
				}
				if s == 0 || f.src[s-1] == '\n' {
					c.start = s
				} else {
					c.end = end - 1
				}
			} else {
				c.end = end - 1
			}
		}
		kept = append(kept, c)
	}
	f.cuts = kept
}

// maxInit is the longest initialiser kept in a skeleton, in bytes.
const maxInit = 60

// elideInit leaves a long or multi-line initialiser value out of the
// skeleton, replacing it by "…".
func (f *file) elideInit(value *sitter.Node) {
	if value == nil {
		return
	}
	if f.endByte(value)-startByte(value) > maxInit || line(value) != f.endLine(value) {
		f.elide(startByte(value), f.endByte(value), "…")
	}
}

// dedupeRefs drops repeated references (same name, qualifier, line,
// enclosing definition and kind), keeping the first, and references
// without a name. It leaves them in line order (file.finish's stable
// order): repeats share a line, so each is looked for only among the kept
// references of its line, without hashing every reference of the file.
func dedupeRefs(facts *world.Facts) {
	refs := facts.Refs
	if byLine := func(a, b world.Ref) int { return a.Line - b.Line }; !slices.IsSortedFunc(refs, byLine) {
		slices.SortStableFunc(refs, byLine)
	}
	out := refs[:0]
	run := 0                    // index in out of the first kept reference of the current line
	var seen map[world.Ref]bool // the current line's, once it has many
	for _, r := range refs {
		if r.Name == "" {
			continue
		}
		if run < len(out) && out[run].Line != r.Line {
			run, seen = len(out), nil
		}
		if seen != nil {
			if seen[r] {
				continue
			}
			seen[r] = true
		} else if slices.Contains(out[run:], r) {
			continue
		} else if len(out)-run >= maxScan {
			seen = make(map[world.Ref]bool, 2*maxScan)
			for _, k := range out[run:] {
				seen[k] = true
			}
			seen[r] = true
		}
		out = append(out, r)
	}
	facts.Refs = out
}

// maxScan is the number of kept references of one line dedupeRefs
// compares a reference with before it hashes them (a minified file's
// line holds thousands).
const maxScan = 16

// lastSegment returns the part of a qualified path after the last separator.
func lastSegment(s string, seps ...string) string {
	for _, sep := range seps {
		if i := strings.LastIndex(s, sep); i >= 0 {
			s = s[i+len(sep):]
		}
	}
	return s
}

func itoa(i int) string { return strconv.Itoa(i) }

// elideBlock is elideBody for bodies that may have code after them on
// their last line (C# accessors, one-line members): then the marker gets no
// trailing line comment, which would swallow that code.
func (f *file) elideBlock(body *sitter.Node) {
	if body == nil {
		return
	}
	f.elideBody(body)
}

// cutLine leaves the comment n out of the skeleton together with its
// indentation and line break when it is alone on its line.
func (f *file) cutLine(n *sitter.Node) {
	start, end := startByte(n), f.endByte(n)
	s := start
	for s > 0 && (f.src[s-1] == ' ' || f.src[s-1] == '\t') {
		s--
	}
	e := end
	for e < uint(len(f.src)) && (f.src[e] == ' ' || f.src[e] == '\t' || f.src[e] == '\r') {
		e++
	}
	if (s == 0 || f.src[s-1] == '\n') && (e == uint(len(f.src)) || f.src[e] == '\n') {
		if e < uint(len(f.src)) {
			e++
		}
		f.elide(s, e, "")
		return
	}
	f.elide(start, end, "")
}

// finishMore is the last step of this file's walkers: repeated references
// are dropped and a definition whose name could not be read (macro-wrapped
// declarators, syntax errors) is named "(anonymous)" rather than "".
func finishMore(facts *world.Facts) {
	dedupeRefs(facts)
	for i := range facts.Defs {
		d := &facts.Defs[i]
		if d.Name == "" {
			d.Name = "(anonymous)"
			d.Qualified = qualify(d.Parent, d.Name)
		}
	}
}

// walkParent is walk with each node's parent (nil for n itself) and the
// id of the field it has in its parent (0 for none; compare with
// f.fieldID), read from the file's tree: Node.Parent costs a descent from
// the root in tree-sitter, which makes per-node use quadratic on deep
// trees. Visitors must not keep the nodes.
func (f *file) walkParent(n *sitter.Node, visit func(x, parent *sitter.Node, field uint16) bool) {
	top := f.at(n)
	recs := f.recs
	for i, end := top, int(recs[top].after); i < end; {
		r := &recs[i]
		var p *sitter.Node
		if i != top {
			p = &recs[r.parent].node
		}
		if visit(&r.node, p, r.field) {
			i++
		} else {
			i = int(r.after)
		}
	}
}

// named returns n's named children, read from the file's tree. The slice
// is the caller's until close (its capacity ends at its length, so an
// append copies it); it is cut from the file's node arena (file.nodes),
// not allocated.
func (f *file) named(n *sitter.Node) []*sitter.Node {
	if n == nil {
		return nil
	}
	recs, named, nodes := f.recs, f.lang.named, f.arena()
	start := len(nodes)
	i := f.at(n)
	for j, end := i+1, int(recs[i].after); j < end; j = int(recs[j].after) {
		r := &recs[j]
		if s := int(r.symbol); s < len(named) && named[s] || s >= len(named) && r.node.IsNamed() {
			nodes = append(nodes, &r.node)
		}
	}
	f.nodes = nodes
	return nodes[start:len(nodes):len(nodes)]
}

// arena is the file's node arena to cut named's and all's next slice
// from. A walker that asks for the same node's children again and again
// would make an append-only arena grow with the square of a long list;
// past twice the tree's records a new arena is begun, and the slices
// handed out keep the old one alive only while they are held.
func (f *file) arena() []*sitter.Node {
	if len(f.nodes) > 2*len(f.recs)+1024 {
		f.nodes = make([]*sitter.Node, 0, len(f.recs)+1024)
	}
	return f.nodes
}

// all returns all of n's children, anonymous ones included (as named
// does, from the file's node arena).
func (f *file) all(n *sitter.Node) []*sitter.Node {
	if n == nil {
		return nil
	}
	recs, nodes := f.recs, f.arena()
	start := len(nodes)
	i := f.at(n)
	for j, end := i+1, int(recs[i].after); j < end; j = int(recs[j].after) {
		nodes = append(nodes, &recs[j].node)
	}
	f.nodes = nodes
	return nodes[start:len(nodes):len(nodes)]
}

// childOfKind returns n's first child (named or not) of one of the kinds.
func (f *file) childOfKind(n *sitter.Node, kinds ...string) *sitter.Node {
	if n == nil {
		return nil
	}
	for r := range f.childRecs(n) {
		if slices.Contains(kinds, f.recKind(r)) {
			return &r.node
		}
	}
	return nil
}
