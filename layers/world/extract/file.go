package extract

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/world"
)

// file is one extraction in progress: the walkers of lang_*.go read the
// syntax tree through it and record facts and skeleton cuts with it.
type file struct {
	lang  *language
	src   []byte
	root  *sitter.Node
	facts *world.Facts

	cuts []cut // byte ranges left out of the skeleton
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
	return string(f.src[n.StartByte():n.EndByte()])
}

// line returns n's first line, 1-based.
func line(n *sitter.Node) int { return int(n.StartPosition().Row) + 1 }

// endLine returns n's last line, 1-based.
func endLine(n *sitter.Node) int {
	p := n.EndPosition()
	if p.Column == 0 && p.Row > n.StartPosition().Row {
		return int(p.Row) // ends just after a newline
	}
	return int(p.Row) + 1
}

// def records a definition and returns its 1-based index, for Ref.In.
func (f *file) def(d world.Def) int {
	f.facts.Defs = append(f.facts.Defs, d)
	return len(f.facts.Defs)
}

// ref records a reference.
func (f *file) ref(r world.Ref) { f.facts.Refs = append(f.facts.Refs, r) }

// imp records an import.
func (f *file) imp(i world.Import) { f.facts.Imports = append(f.facts.Imports, i) }

// signature returns the text of n from its start up to (not including)
// body, on one line with runs of white space folded; with a nil body, the
// whole of n.
func (f *file) signature(n, body *sitter.Node) string {
	end := n.EndByte()
	if body != nil {
		end = body.StartByte()
	}
	return foldSpace(string(f.src[n.StartByte():end]))
}

// foldSpace folds runs of white space into one space and trims the ends.
func foldSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// elideBody leaves body out of the skeleton, replacing it by "{ … }" and a
// comment naming the lines left out.
func (f *file) elideBody(body *sitter.Node) {
	if body == nil {
		return
	}
	start, end := line(body), endLine(body)
	if start == end && body.EndByte()-body.StartByte() <= 2 {
		return // an empty "{}" body says as much as a marker
	}
	f.cuts = append(f.cuts, cut{body.StartByte(), body.EndByte(),
		fmt.Sprintf("{ … } %s lines %d-%d", f.lang.comment, start, end)})
}

// elide leaves src[start:end] out of the skeleton, replacing it by marker.
func (f *file) elide(start, end uint, marker string) {
	if end > start {
		f.cuts = append(f.cuts, cut{start, end, marker})
	}
}

// comment handles a comment node for the skeleton: a comment's first line is
// kept only when it starts a block right above a declaration (doc comment);
// everything else of comments is left out.
func (f *file) comment(n *sitter.Node) {
	start, end := n.StartByte(), n.EndByte()
	if prev := n.PrevSibling(); prev != nil && prev.Kind() == n.Kind() && line(n)-endLine(prev) <= 1 {
		f.cuts = append(f.cuts, cut{start, end, ""}) // not the first of its block
		return
	}
	if next := n.NextNamedSibling(); next == nil || strings.Contains(next.Kind(), "comment") && line(next)-endLine(n) > 1 {
		f.cuts = append(f.cuts, cut{start, end, ""})
		return
	}
	if i := bytes.IndexByte(f.src[start:end], '\n'); i >= 0 {
		f.cuts = append(f.cuts, cut{start + uint(i), end, ""})
	}
}

// docBefore returns the first line of the comment block right above n, with
// the comment leader stripped; "" when there is none.
func (f *file) docBefore(n *sitter.Node) string {
	prev := n.PrevSibling()
	if prev == nil || !strings.Contains(prev.Kind(), "comment") || line(n)-endLine(prev) > 1 {
		return ""
	}
	first := prev
	for p := prev.PrevSibling(); p != nil && p.Kind() == first.Kind() && line(first)-endLine(p) <= 1; p = p.PrevSibling() {
		first = p
	}
	return docLine(f.text(first))
}

// docLine returns the first non-empty line of a comment without its leader.
func docLine(c string) string {
	for _, l := range strings.Split(c, "\n") {
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
	sort.SliceStable(f.facts.Refs, func(i, j int) bool { return f.facts.Refs[i].Line < f.facts.Refs[j].Line })
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
	var b strings.Builder
	pos := uint(0)
	for _, c := range cuts {
		if c.start < pos { // nested in a cut already made
			continue
		}
		b.Write(f.src[pos:c.start])
		b.WriteString(c.marker)
		pos = c.end
	}
	b.Write(f.src[pos:])
	var out strings.Builder
	blank := true
	for _, l := range strings.Split(b.String(), "\n") {
		l = strings.TrimRight(l, " \t\r")
		if l == "" {
			if !blank {
				out.WriteByte('\n')
			}
			blank = true
			continue
		}
		blank = false
		out.WriteString(l)
		out.WriteByte('\n')
	}
	return strings.TrimRight(out.String(), "\n") + "\n"
}

// walk calls visit for every node below n in document order; when visit
// returns false the node's children are skipped.
func walk(n *sitter.Node, visit func(n *sitter.Node) bool) {
	c := n.Walk()
	defer c.Close()
	for {
		if visit(c.Node()) && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return
			}
			if c.Node().Id() == n.Id() {
				return
			}
		}
	}
}
