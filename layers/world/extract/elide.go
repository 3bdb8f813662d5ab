package extract

import (
	"bytes"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/git-speed/git-speed/layers/world"
)

// elide.go holds the skeleton and naming helpers shared by the walkers of
// languages whose bodies are not braces (Lua, Elixir, Haskell, Scala 3's
// indented blocks) and by the walkers of lang_kotlin.go, lang_swift.go,
// lang_scala.go, lang_zig.go and lang_dart.go.

// elideLines leaves body out of the skeleton; a short one-line body
// stays. The body's place gets "<comment> … lines a-b" when nothing but
// white space follows it on its last line (the closing keyword or brace
// on a line of its own), else "…" with the pointer at the end of the
// line (file.skeleton), so no marker comments out code.
func (f *file) elideLines(body *sitter.Node) {
	if body == nil {
		return
	}
	s, e := startByte(body), f.trimEnd(body)
	start, end := line(body), f.lastLine(body, e)
	if start == end && e-s <= maxInit {
		return
	}
	f.elide(s, e, f.pointerMarker(e, start, end))
}

// pointerMarker is what an elided run of lines start..end ending at byte
// e is replaced by: "<comment> … lines a-b", or "… <comment> lines a-b"
// when code follows on its last line (file.skeleton then moves the
// pointer to the line's end).
func (f *file) pointerMarker(e uint, start, end int) string {
	what := "lines " + itoa(start) + "-" + itoa(end)
	if start == end {
		what = "line " + itoa(start)
	}
	if f.codeAfter(e) {
		return "… " + f.lang.comment + " " + what
	}
	return f.lang.comment + " … " + what
}

// upperName reports whether s is written in capitals (a constant by
// convention: MAX_STACK).
func upperName(s string) bool {
	hasUpper := false
	for _, c := range s {
		switch {
		case c >= 'A' && c <= 'Z':
			hasUpper = true
		case c >= '0' && c <= '9', c == '_':
		default:
			return false
		}
	}
	return hasUpper
}

// capitalised reports whether s starts with a capital letter (a type or
// module by convention in Kotlin, Swift, Scala, Dart, Haskell, Elixir).
func capitalised(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

// dotted reports whether s is a chain of names joined by dots (a.b.c),
// the shape of a qualifier worth recording.
func dotted(s string) bool {
	if s == "" {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i, c := range part {
			if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
				return false
			}
		}
	}
	return true
}

// rootName returns the first segment of a dotted qualifier.
func rootName(s string) string {
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return s[:i]
	}
	return s
}

// trimEnd returns the offset just after n's last byte that is not white
// space: some grammars (Scala's indented blocks) end a node after the
// blank lines that follow it.
func (f *file) trimEnd(n *sitter.Node) uint {
	s, e := startByte(n), f.endByte(n)
	for e > s && (f.src[e-1] == ' ' || f.src[e-1] == '\t' || f.src[e-1] == '\n' || f.src[e-1] == '\r') {
		e--
	}
	return e
}

// trimmedEndLine is endLine without the white space n ends with.
func (f *file) trimmedEndLine(n *sitter.Node) int { return f.lastLine(n, f.trimEnd(n)) }

// cutInlineComment is scanComments' cutter for the grammars of elide.go:
// a comment with code after it on its line (f(a, /* b */ c)) stays, so every skeleton line is a source line (or its start); others
// follow file.cutCommentAt.
func (f *file) cutInlineComment(kids []*sitter.Node, kinds []string, i int) {
	n := kids[i]
	if e := f.endByte(n); e < uint(len(f.src)) && f.src[e-1] != '\n' {
		rest := f.src[e:]
		if j := bytes.IndexByte(rest, '\n'); j >= 0 {
			rest = rest[:j]
		}
		if strings.TrimSpace(string(rest)) != "" {
			return
		}
	}
	f.cutCommentAt(kids, kinds, i)
}

// elideValue is elideInit for grammars whose expressions may end after the
// white space that follows them: a long or multi-line value becomes "…".
func (f *file) elideValue(v *sitter.Node) {
	if v == nil {
		return
	}
	s, e := startByte(v), f.trimEnd(v)
	if e > s && (e-s > maxInit || f.lineOfByte(s) != f.lineOfByte(e-1)) {
		f.elide(s, e, "…")
	}
}

// selectionRef is the reference to member name selected from a receiver
// whose source text is q: a this/self/super receiver (self) qualifies a
// member use; a dotted receiver is the qualifier, of a qualified use (a
// call when call is set) when static (it names a type, module or package),
// else of a member use; any other receiver makes an unqualified member use.
func selectionRef(q, name string, ln, in int, self, static, call bool) world.Ref {
	r := world.Ref{Name: name, Line: ln, In: in, Kind: world.RefMember}
	switch {
	case self:
		r.Qual = q
	case dotted(q):
		r.Qual = q
		if static {
			r.Kind = world.RefValue
			if call {
				r.Kind = world.RefCall
			}
		}
	}
	return r
}

// typeQual reports whether the dotted qualifier q names a type or module
// by convention: its last segment is capitalised and its root is no local.
func typeQual(q string, loc *locals) bool {
	return dotted(q) && capitalised(q[strings.LastIndexByte(q, '.')+1:]) && !loc.has(rootName(q))
}

// callee records the callee of a call whose named children are ks: a bare
// name (kind idKind) is a call unless it is a local, a selection (kind
// navKind) goes to nav, anything else to refs; the other children go to
// refs.
func (f *file) callee(ks []*sitter.Node, idKind, navKind string, loc *locals, in int, nav, refs func(n *sitter.Node)) {
	if len(ks) == 0 {
		return
	}
	switch f.kind(ks[0]) {
	case idKind:
		if s := f.text(ks[0]); !loc.has(s) {
			f.ref(world.Ref{Name: s, Line: line(ks[0]), In: in, Kind: world.RefCall})
		}
	case navKind:
		nav(ks[0])
	default:
		refs(ks[0])
	}
	for _, k := range ks[1:] {
		refs(k)
	}
}
