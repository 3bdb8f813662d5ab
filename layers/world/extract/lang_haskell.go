package extract

import (
	"bytes"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	haskell "github.com/tree-sitter/tree-sitter-haskell/bindings/go"

	"github.com/git-speed/git-speed/layers/world"
)

// Haskell: the module header (the package), imports (qualified, as,
// import lists), data types and newtypes with their constructors and
// record fields, type synonyms and families, type classes (kind interface)
// with their method signatures, instances with their methods, and
// functions: a signature and the equations after it make one definition.
// A module with an export list exports what it lists. References: calls,
// values, constructors, types and qualified names (Map.lookup), with
// pattern variables, lambda, let, where and do bindings, and type
// variables left out. Equations keep their heads in the skeleton; the
// rest is elided to "-- … lines a-b".

// Literate Haskell (.lhs) is read as the Haskell it holds, the way GHC's
// unlit reads it: in the bird style the lines that start with '>' are
// code (the '>' read as a space, so the layout keeps its columns); in the
// LaTeX style the lines between \begin{code} and \end{code} are. Every
// other line is read as an empty one, so line numbers are the file's.

func init() {
	register(world.LangHaskell, sitter.NewLanguage(haskell.Language()), "--", walkHaskell)
}

type haskellWalker struct {
	f       *file
	loc     locals
	docAt   map[int]string  // doc line of the comment block ending the line before
	exports map[string]bool // nil when the module exports everything

	fPatterns, fPattern, fName, fBind uint16
}

func walkHaskell(f *file) {
	w := &haskellWalker{f: f, docAt: map[int]string{},
		fPatterns: f.fieldID("patterns"), fPattern: f.fieldID("pattern"), fName: f.fieldID("name"), fBind: f.fieldID("bind")}
	isComment := func(k string) bool { return k == "comment" || k == "haddock" }
	f.scanComments(isComment, nil, nil, f.cutInlineComment) // skeleton cuts; docs are read by line below
	w.readDocs(isComment)
	for _, c := range f.named(f.root) {
		switch f.kind(c) {
		case "header":
			w.header(c)
		case "imports":
			for _, imp := range f.named(c) {
				if f.kind(imp) == "import" {
					w.importDecl(imp)
				}
			}
		case "declarations":
			w.declarations(c, "", 0)
		}
	}
	finishMore(f.facts)
}

// readDocs maps the line after each comment block to the block's first
// line: a Haskell declaration's haddock may sit in another node (the
// import list before the first declaration).
func (w *haskellWalker) readDocs(isComment func(string) bool) {
	f := w.f
	blockStart, blockEnd := "", -10
	for i := range f.tree() {
		r := &f.recs[i]
		if !isComment(f.recKind(r)) {
			continue
		}
		n := &r.node
		start := line(n)
		if start-blockEnd > 1 || f.trailing(n) {
			blockStart = haddockLine(f.text(n))
		}
		blockEnd = f.endLine(n)
		if !f.trailing(n) {
			w.docAt[blockEnd+1] = blockStart
		}
	}
}

// haddockLine is docLine without a haddock marker ("-- |", "-- ^", "{-|").
func haddockLine(c string) string {
	c = strings.TrimPrefix(strings.TrimSpace(c), "{-")
	c = strings.TrimSuffix(c, "-}")
	l := docLine(c)
	l = strings.TrimLeft(l, "|^ ")
	return strings.TrimSpace(l)
}

func (w *haskellWalker) header(c *sitter.Node) {
	f := w.f
	f.facts.Package = f.text(f.field(c, "module"))
	if ex := f.field(c, "exports"); ex != nil {
		w.exports = map[string]bool{}
		f.walk(ex, func(x *sitter.Node) bool {
			switch f.kind(x) {
			case "variable", "name", "constructor", "operator":
				w.exports[f.text(x)] = true
				return false
			case "module_export":
				return false
			}
			return true
		})
	}
}

func (w *haskellWalker) importDecl(c *sitter.Node) {
	f := w.f
	imp := world.Import{Line: line(c), Path: f.text(f.field(c, "module"))}
	if a := f.field(c, "alias"); a != nil {
		imp.Alias = f.text(a)
	}
	for _, k := range f.all(c) {
		if f.kind(k) == "qualified" {
			imp.Kind = "qualified"
		}
	}
	if names := f.field(c, "names"); names != nil {
		for _, n := range f.named(names) {
			if f.kind(n) == "import_name" {
				imp.Names = append(imp.Names, foldSpace(f.text(n)))
			}
		}
		for _, k := range f.all(c) {
			if f.kind(k) == "hiding" {
				imp.Kind = strings.TrimSpace(imp.Kind + " hiding")
			}
		}
	}
	f.imp(imp)
}

func (w *haskellWalker) exported(name string) bool { return w.exports == nil || w.exports[name] }

// declarations walks top-level (or class/instance) declarations; a
// signature and the equations that follow it with the same name make one
// definition.
func (w *haskellWalker) declarations(n *sitter.Node, parent string, in int) {
	f := w.f
	ks := f.named(n)
	for i := 0; i < len(ks); i++ {
		c := ks[i]
		switch f.kind(c) {
		case "signature", "function", "bind":
			names := w.declNames(c)
			if len(names) == 0 {
				w.loc.push()
				w.bindAll(c)
				w.refs(c, in, false)
				w.loc.pop()
				continue
			}
			// The run of declarations of these names: signature, equations.
			j := i + 1
			for j < len(ks) && (f.kind(ks[j]) == "function" || f.kind(ks[j]) == "bind") && sameNames(w.declNames(ks[j]), names[:1]) {
				j++
			}
			group := ks[i:j]
			i = j - 1
			w.function(group, names, parent)
		case "data_type", "newtype", "type_synomym", "type_family", "data_family", "type_instance", "data_instance":
			w.dataType(c, parent)
		case "class":
			name := f.text(f.field(c, "name"))
			body := f.field(c, "declarations")
			idx := f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: world.KindInterface,
				Start: line(c), End: f.trimmedEndLine(c), Exported: w.exported(name), Signature: w.head(c, body), Doc: w.docAt[line(c)]})
			for _, k := range f.named(c) {
				if k.Id() != startNode(body) && k.Id() != startNode(f.field(c, "name")) {
					w.refs(k, idx, true)
				}
			}
			if body != nil {
				w.declarations(body, qualify(parent, name), idx)
			}
		case "instance":
			body := f.field(c, "declarations")
			name := foldSpace(f.text(f.field(c, "name")) + " " + f.text(f.field(c, "patterns")))
			idx := f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: "instance",
				Start: line(c), End: f.trimmedEndLine(c), Exported: true, Signature: w.head(c, body), Doc: w.docAt[line(c)]})
			for _, k := range f.named(c) {
				if k.Id() != startNode(body) {
					w.refs(k, idx, true)
				}
			}
			if body != nil {
				w.declarations(body, qualify(parent, name), idx)
			}
		case "comment", "haddock", "pragma":
		default:
			w.loc.push()
			w.bindAll(c)
			w.refs(c, in, false)
			w.loc.pop()
		}
	}
}

// head returns n's text up to body (or all of it), on one line, without a
// trailing "where".
func (w *haskellWalker) head(n, body *sitter.Node) string {
	return strings.TrimSpace(strings.TrimSuffix(w.f.signature(n, body), "where"))
}

func sameNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// declNames returns the names a signature, equation or binding defines.
func (w *haskellWalker) declNames(c *sitter.Node) []string {
	f := w.f
	var out []string
	if f.kind(c) == "signature" {
		if nm := f.field(c, "names"); nm != nil {
			for _, v := range f.named(nm) {
				out = append(out, f.text(v))
			}
			return out
		}
	}
	if nm := f.field(c, "name"); nm != nil {
		return append(out, strings.Trim(f.text(nm), "()"))
	}
	return nil
}

// function records a signature and the equations of its first name.
func (w *haskellWalker) function(group []*sitter.Node, names []string, parent string) {
	f := w.f
	first, last := group[0], group[len(group)-1]
	kind := world.KindFunction
	if parent != "" {
		kind = world.KindMethod
	}
	sig := ""
	if f.kind(first) == "signature" {
		sig = foldSpace(f.text(first))
	} else if m := f.field(first, "match"); m != nil {
		sig = foldSpace(f.textRange(startByte(first), startByte(m)))
	} else {
		sig = foldSpace(f.text(first))
	}
	start := line(first)
	doc := w.docAt[start]
	idx := 0
	for _, name := range names {
		i := f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: kind, Start: start,
			End: f.trimmedEndLine(last), Exported: w.exported(name), Signature: sig, Doc: doc})
		if idx == 0 {
			idx = i
		}
	}
	for _, c := range group {
		if f.kind(c) == "signature" {
			w.refs(f.field(c, "type"), idx, true)
			continue
		}
		w.elideEquation(c)
		w.loc.push()
		w.bindAll(c)
		for _, k := range f.named(c) {
			if k.Id() != startNode(f.field(c, "name")) {
				w.refs(k, idx, false)
			}
		}
		w.loc.pop()
	}
}

// elideEquation elides an equation after its head (patterns): its match
// or guards and its where clause, when they span lines or are long.
func (w *haskellWalker) elideEquation(c *sitter.Node) {
	f := w.f
	var from *sitter.Node
	for _, k := range f.named(c) {
		if k.Id() == startNode(f.field(c, "name")) || k.Id() == startNode(f.field(c, "patterns")) || f.kind(k) == "patterns" {
			continue
		}
		from = k
		break
	}
	if from == nil {
		return
	}
	s, e := startByte(from), f.trimEnd(c)
	if e <= s {
		return
	}
	startLine, endLine := f.lineOfByte(s), f.lineOfByte(e-1)
	if startLine == endLine && e-s <= maxInit {
		return
	}
	if startLine == endLine {
		f.elide(s, e, "= … -- line "+itoa(startLine))
		return
	}
	f.elide(s, e, f.pointerMarker(e, startLine, endLine))
}

// dataType records a data type, newtype, synonym or family with its
// constructors and record fields.
func (w *haskellWalker) dataType(c *sitter.Node, parent string) {
	f := w.f
	nameNode := f.field(c, "name")
	name := f.text(nameNode)
	cons := f.field(c, "constructors")
	if cons == nil {
		cons = f.field(c, "constructor")
	}
	sig := foldSpace(f.text(c))
	if cons != nil {
		sig = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f.signature(c, cons)), "="))
	}
	d := world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: world.KindType,
		Start: line(c), End: f.trimmedEndLine(c), Exported: w.exported(name), Signature: sig, Doc: w.docAt[line(c)]}
	idx := f.def(d)
	w.loc.push()
	w.bindAll(f.field(c, "patterns"))
	for _, k := range f.named(c) {
		if k.Id() != startNode(nameNode) && k.Id() != startNode(f.field(c, "patterns")) && k.Id() != startNode(cons) {
			w.refs(k, idx, true)
		}
	}
	// Constructors and record fields.
	if cons == nil {
		w.loc.pop()
		return
	}
	f.walk(cons, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "data_constructor", "newtype_constructor", "record", "prefix", "infix", "gadt_constructor":
			if nm := f.field(x, "name"); nm != nil && f.kind(x) != "data_constructor" {
				cname := f.text(nm)
				f.def(world.Def{Name: cname, Qualified: qualify(d.Qualified, cname), Parent: d.Qualified, Kind: "constructor",
					Start: line(x), End: f.endLine(x), Exported: w.exported(cname) || w.exports != nil && w.exports[name],
					Signature: foldSpace(firstLine(f.text(x))), Doc: w.ownDoc(x, c)})
			}
			return true
		case "field":
			if nm := f.field(x, "name"); nm != nil && f.kind(nm) == "field_name" {
				fname := f.text(nm)
				f.def(world.Def{Name: fname, Qualified: qualify(d.Qualified, fname), Parent: d.Qualified, Kind: world.KindField,
					Start: line(x), End: f.endLine(x), Exported: w.exported(fname) || w.exports != nil && w.exports[name],
					Signature: foldSpace(f.text(x)), Doc: w.ownDoc(x, c)})
				for _, k := range f.named(x) {
					if k.Id() != nm.Id() {
						w.refs(k, idx, true)
					}
				}
				return false
			}
			w.refs(x, idx, true)
			return false
		case "name", "qualified", "apply", "tuple", "list", "function", "strict_field", "parens":
			w.refs(x, idx, true)
			return false
		}
		return true
	})
	w.loc.pop()
}

// firstLine returns s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// bindAll adds the variables bound under n (patterns, lambda and case
// patterns, let, where and do bindings, generators) to the current frame.
func (w *haskellWalker) bindAll(n *sitter.Node) {
	f := w.f
	if n == nil {
		return
	}
	addVars := func(p *sitter.Node) {
		f.walk(p, func(x *sitter.Node) bool {
			if f.kind(x) == "variable" {
				w.loc.add(f.text(x))
				return false
			}
			return true
		})
	}
	top := n.Id()
	f.walkParent(n, func(x, parent *sitter.Node, field uint16) bool {
		if field != 0 && (field == w.fPatterns || field == w.fPattern || field == w.fBind) {
			addVars(x)
			return false
		}
		if x.Id() != top && field == w.fName && parent != nil && (f.kind(parent) == "function" || f.kind(parent) == "bind") {
			w.loc.add(f.text(x))
			return false
		}
		if f.kind(x) == "patterns" {
			addVars(x)
			return false
		}
		return true
	})
}

// refs records the references under n; in a type (typ) variables are
// type variables and names are types.
func (w *haskellWalker) refs(n *sitter.Node, in int, typ bool) {
	f := w.f
	if n == nil {
		return
	}
	f.walkParent(n, func(x, parent *sitter.Node, field uint16) bool {
		switch f.kind(x) {
		case "variable":
			if typ {
				return false
			}
			s := f.text(x)
			if w.loc.has(s) {
				return false
			}
			kind := world.RefValue
			if parent != nil && f.kind(parent) == "apply" && startNode(f.field(parent, "function")) == x.Id() {
				kind = world.RefCall
			}
			f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: kind})
			return false
		case "name":
			f.ref(world.Ref{Name: f.text(x), Line: line(x), In: in, Kind: world.RefType})
			return false
		case "constructor":
			f.ref(world.Ref{Name: f.text(x), Line: line(x), In: in, Kind: world.RefValue})
			return false
		case "qualified":
			id := f.field(x, "id")
			mod := strings.TrimSuffix(f.text(f.field(x, "module")), ".")
			if id == nil {
				return false
			}
			kind := world.RefValue
			switch {
			case f.kind(id) == "name" && typ:
				kind = world.RefType
			case parent != nil && f.kind(parent) == "apply" && startNode(f.field(parent, "function")) == x.Id():
				kind = world.RefCall
			}
			f.ref(world.Ref{Name: f.text(id), Qual: mod, Line: line(x), In: in, Kind: kind})
			return false
		case "field_name":
			if !typ {
				f.ref(world.Ref{Name: f.text(x), Line: line(x), In: in, Kind: world.RefMember})
			}
			return false
		case "signature": // a local signature: only its type refers
			w.refs(f.field(x, "type"), in, true)
			return false
		case "string", "char", "integer", "float", "comment", "haddock", "operator", "pragma", "quasiquote":
			return false
		}
		return true
	})
}

// ownDoc is the doc of a constructor or field x of type c: none when x is
// on the type's first line (the type's doc is not the constructor's).
func (w *haskellWalker) ownDoc(x, c *sitter.Node) string {
	if line(x) == line(c) {
		return ""
	}
	return w.docAt[line(x)]
}

// unlit returns the code of a literate Haskell file with every line in
// its place and the prose read as empty lines.
func unlit(src []byte) []byte {
	out := make([]byte, 0, len(src))
	inCode := false
	for rest := src; len(rest) > 0; {
		line, more, nl := bytes.Cut(rest, []byte("\n"))
		rest = more
		t := bytes.TrimRight(line, " \t\r")
		switch {
		case inCode && bytes.HasPrefix(bytes.TrimLeft(t, " \t"), []byte(`\end{code}`)):
			inCode = false
		case inCode:
			out = append(out, line...)
		case bytes.HasPrefix(bytes.TrimLeft(t, " \t"), []byte(`\begin{code}`)):
			inCode = true
		case len(line) > 0 && line[0] == '>':
			out = append(out, ' ')
			out = append(out, line[1:]...)
		}
		if nl {
			out = append(out, '\n')
		}
	}
	return out
}
