package extract

import (
	"bytes"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tree_sitter_go "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"github.com/git-speed/git-speed/layers/world"
)

func init() {
	register(world.LangGo, sitter.NewLanguage(tree_sitter_go.Language()), "//", walkGo)
	// The walker reads a string literal's text, never its parts (quotes,
	// contents, escapes): a tenth of the nodes of a typical Go file.
	walkedAsLeaves(world.LangGo, "interpreted_string_literal", "raw_string_literal")
	// Closing brackets, commas, dots, colons and the commonest statement
	// keywords are a quarter of a Go tree's nodes, and no rule reads them.
	// "(" and "{" stay: a comment on the line of an opening bracket is a
	// trailing one (file.commentAt); so do ":=" (goWalker.hasToken) and
	// the operators, which have fields anyway.
	walkedWithout(world.LangGo, ")", "}", "[", "]", ",", ".", ":",
		"func", "return", "if", "else", "for", "range", "defer")
}

// goBuiltins are Go's predeclared identifiers: never references.
var goBuiltins = map[string]bool{
	"bool": true, "byte": true, "complex64": true, "complex128": true, "error": true,
	"float32": true, "float64": true, "int": true, "int8": true, "int16": true,
	"int32": true, "int64": true, "rune": true, "string": true, "uint": true,
	"uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"any": true, "comparable": true,
	"true": true, "false": true, "iota": true, "nil": true,
	"append": true, "cap": true, "clear": true, "close": true, "complex": true,
	"copy": true, "delete": true, "imag": true, "len": true, "make": true,
	"max": true, "min": true, "new": true, "panic": true, "print": true,
	"println": true, "real": true, "recover": true,
}

// goWalker extracts one Go file. Scope analysis is by name: scope counts
// the local bindings of each name currently visible (parameters, results,
// receivers, type parameters, := and var/const/type inside bodies, range
// and select variables), bound lists them in order so a block can undo its
// own on exit.
type goWalker struct {
	f     *file
	pkgs  map[string]bool // names bound by imports in this file
	scope map[string]int
	bound []string
	in    int // Ref.In for refs being recorded
	// vtype is the type the code says a local name has (see goTypeOf);
	// prev keeps, per entry of bound, the type it hid, for undo.
	vtype map[string]string
	prev  []string
}

func walkGo(f *file) {
	w := &goWalker{f: f, pkgs: map[string]bool{}, scope: map[string]int{}, vtype: map[string]string{}}
	root := f.root
	mark := len(f.stack)
	defer f.release(mark)
	ks := f.kids(root)
	for i := range ks {
		k := &ks[i]
		n := k.n
		w.in = 0
		switch k.kind {
		case "comment":
			w.topComment(ks, i)
		case "package_clause":
			for i := uint(0); i < f.namedCount(n); i++ {
				if c := f.namedChild(n, i); f.kind(c) == "package_identifier" {
					f.facts.Package = f.text(c)
				}
			}
		case "import_declaration":
			w.imports(n)
		case "function_declaration", "method_declaration":
			w.function(n, k.kind == "method_declaration", f.docAt(ks, i))
		case "type_declaration":
			w.typeDecl(n, true, f.docAt(ks, i))
		case "const_declaration", "var_declaration":
			w.valueDecl(n, true, f.docAt(ks, i))
		default:
			w.node(n, k.kind)
		}
	}
}

// topComment keeps build constraints whole and treats other comments as
// doc or noise.
func (w *goWalker) topComment(ks []kid, i int) {
	t := w.f.bytes(ks[i].n)
	if bytes.HasPrefix(t, []byte("//go:build")) || bytes.HasPrefix(t, []byte("// +build")) {
		return
	}
	w.f.commentAt(ks, i)
}

// imports records the specs of one import declaration.
func (w *goWalker) imports(n *sitter.Node) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	for _, k := range f.kids(n) {
		switch k.kind {
		case "import_spec":
			w.importSpec(k.n)
		case "import_spec_list":
			m := len(f.stack)
			ss := f.kids(k.n)
			for j := range ss {
				switch ss[j].kind {
				case "import_spec":
					w.importSpec(ss[j].n)
				case "comment":
					f.commentAt(ss, j)
				}
			}
			f.release(m)
		}
	}
}

func (w *goWalker) importSpec(n *sitter.Node) {
	f := w.f
	p := f.field(n, "path")
	if p == nil {
		return
	}
	imp := world.Import{Path: unquoteGo(f.text(p)), Line: line(n)}
	if a := f.field(n, "name"); a != nil {
		imp.Alias = f.text(a)
	}
	f.imp(imp)
	switch imp.Alias {
	case "_", ".":
	case "":
		for _, name := range goImportNames(imp.Path) {
			w.pkgs[name] = true
		}
	default:
		w.pkgs[imp.Alias] = true
	}
}

// unquoteGo unquotes a Go string literal, or returns it without its quotes
// when it is malformed.
func unquoteGo(s string) string {
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return strings.Trim(s, "\"`")
}

// goImportNames guesses the names an import path binds without an alias:
// the last element, and the forms it usually takes as a package name
// ("yaml" for gopkg.in/yaml.v3, "foo" for go-foo or foo-go, the element
// before a /vN major-version suffix).
func goImportNames(p string) []string {
	base := path.Base(p)
	if len(base) > 1 && base[0] == 'v' && isDigits(base[1:]) && path.Dir(p) != "." {
		base = path.Base(path.Dir(p))
	}
	names := []string{base}
	b := base
	if i := strings.Index(b, ".v"); i > 0 && isDigits(b[i+2:]) {
		b = b[:i]
	}
	b = strings.TrimPrefix(b, "go-")
	b = strings.TrimSuffix(b, "-go")
	b = strings.TrimSuffix(b, ".go")
	if b != base {
		names = append(names, b)
	}
	if c := dashesDots.Replace(b); c != b {
		names = append(names, c)
	}
	return names
}

// dashesDots drops the dashes and dots of a module's last path element.
var dashesDots = strings.NewReplacer("-", "", ".", "")

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func goExported(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// declare binds name locally until the enclosing scope's undo.
func (w *goWalker) declare(name string) { w.declareTyped(name, "") }

// declareTyped binds name locally with the type the code gives it ("" for
// unknown) until the enclosing scope's undo.
func (w *goWalker) declareTyped(name, typ string) {
	if name == "_" || name == "" {
		return
	}
	w.scope[name]++
	w.bound = append(w.bound, name)
	w.prev = append(w.prev, w.vtype[name])
	if typ == "" {
		delete(w.vtype, name)
	} else {
		w.vtype[name] = typ
	}
}

// undo drops the bindings made since mark (a len(w.bound)).
func (w *goWalker) undo(mark int) {
	for k := len(w.bound) - 1; k >= mark; k-- {
		name := w.bound[k]
		if w.scope[name]--; w.scope[name] == 0 {
			delete(w.scope, name)
		}
		if t := w.prev[k]; t == "" {
			delete(w.vtype, name)
		} else {
			w.vtype[name] = t
		}
	}
	w.bound = w.bound[:mark]
	w.prev = w.prev[:mark]
}

// use records a bare identifier as a reference unless it is bound locally
// or predeclared.
func (w *goWalker) use(n *sitter.Node, kind string) {
	w.useBytes(w.f.bytes(n), line(n), kind)
}

// useBytes records the identifier b, still in the source, as a reference
// unless it is bound locally or predeclared: most identifiers are, and the
// name becomes a string only for a reference (the map lookups of
// string(b) do not allocate).
func (w *goWalker) useBytes(b []byte, ln int, kind string) {
	if string(b) == "_" || w.scope[string(b)] > 0 || goBuiltins[string(b)] {
		return
	}
	w.f.ref(world.Ref{Name: string(b), Line: ln, In: w.in, Kind: kind})
}

// function handles a function or method declaration: its definition, the
// refs of its signature and body, and the elision of its body.
func (w *goWalker) function(n *sitter.Node, method bool, doc string) {
	f := w.f
	nameNode := f.field(n, "name")
	if nameNode == nil {
		w.node(n, f.kind(n))
		return
	}
	name := f.text(nameNode)
	body := f.field(n, "body")
	d := world.Def{Name: name, Kind: world.KindFunction, Qualified: name,
		Start: line(n), End: w.f.endLine(n), Signature: f.signature(n, body),
		Exported: goExported(name), Doc: doc}
	mark := len(w.bound)
	defer w.undo(mark)
	var recv *sitter.Node
	if method {
		d.Kind = world.KindMethod
		recv = f.field(n, "receiver")
		if base, _ := w.receiverType(recv); base != "" {
			d.Parent = base
			d.Qualified = base + "." + name
		}
	}
	w.in = f.def(d)
	if recv != nil {
		w.params(recv, true)
	}
	if tp := f.field(n, "type_parameters"); tp != nil {
		w.typeParams(tp)
	}
	w.f.facts.Defs[w.in-1].Returns = w.resultType(f.field(n, "result"))
	w.params(f.field(n, "parameters"), false)
	w.result(f.field(n, "result"))
	if body != nil {
		f.elideBody(body)
		w.node(body, "block")
	}
}

// resultType is the named type a function's result (its first one) is.
func (w *goWalker) resultType(r *sitter.Node) string {
	f := w.f
	if r == nil {
		return ""
	}
	if f.kind(r) != "parameter_list" {
		return w.typeOf(r)
	}
	for i := uint(0); i < f.namedCount(r); i++ {
		if c := f.namedChild(r, i); f.kind(c) == "parameter_declaration" {
			return w.typeOf(f.field(c, "type"))
		}
	}
	return ""
}

// receiverType returns the base type name of a receiver list ("T" for
// (t *T) or (l *List[K, V])) and the node of its type arguments, which
// declare type parameters.
func (w *goWalker) receiverType(recv *sitter.Node) (string, *sitter.Node) {
	f := w.f
	if recv == nil {
		return "", nil
	}
	var p *sitter.Node
	for i := uint(0); i < f.namedCount(recv); i++ {
		if c := f.namedChild(recv, i); f.kind(c) == "parameter_declaration" {
			p = c
			break
		}
	}
	if p == nil {
		return "", nil
	}
	t := f.field(p, "type")
	for t != nil {
		switch f.kind(t) {
		case "pointer_type", "parenthesized_type":
			t = f.namedChild(t, 0)
		case "generic_type":
			return f.text(f.field(t, "type")), f.field(t, "type_arguments")
		case "type_identifier":
			return f.text(t), nil
		default:
			return "", nil
		}
	}
	return "", nil
}

// params declares the names of a parameter list and records the refs of
// its types. For a receiver, the type arguments of the receiver type
// declare type parameters.
func (w *goWalker) params(list *sitter.Node, receiver bool) {
	f := w.f
	if list == nil {
		return
	}
	mark := len(f.stack)
	defer f.release(mark)
	var names []*sitter.Node
	for _, k := range f.kids(list) {
		switch k.kind {
		case "parameter_declaration", "variadic_parameter_declaration":
			m := len(f.stack)
			names = names[:0]
			typ := ""
			for _, c := range f.kids(k.n) {
				if c.field == f.fieldID("name") {
					c := c
					names = append(names, c.n)
				} else if c.field == f.fieldID("type") {
					if k.kind == "parameter_declaration" {
						typ = w.typeOf(c.n)
					}
					if receiver {
						w.receiverTypeRefs(c.n)
					} else {
						w.typ(c.n)
					}
				}
			}
			f.release(m)
			for _, nm := range names {
				w.declareTyped(f.keyText(nm), typ)
			}
		}
	}
}

// receiverTypeRefs records the receiver's base type as a type ref and
// declares the receiver's type parameters.
func (w *goWalker) receiverTypeRefs(t *sitter.Node) {
	f := w.f
	for t != nil {
		switch f.kind(t) {
		case "pointer_type", "parenthesized_type":
			t = f.namedChild(t, 0)
		case "generic_type":
			if base := f.field(t, "type"); base != nil {
				w.typ(base)
			}
			if args := f.field(t, "type_arguments"); args != nil {
				f.walk(args, func(c *sitter.Node) bool {
					switch f.kind(c) {
					case "type_identifier", "identifier":
						w.declare(f.keyText(c))
						return false
					}
					return true
				})
			}
			return
		default:
			w.typ(t)
			return
		}
	}
}

// result handles a function result: a named or unnamed parameter list or
// a single type.
func (w *goWalker) result(r *sitter.Node) {
	if r == nil {
		return
	}
	if w.f.kind(r) == "parameter_list" {
		w.params(r, false)
		return
	}
	w.typ(r)
}

// typeParams declares type parameters, then records the refs of their
// constraints (which may mention each other).
func (w *goWalker) typeParams(list *sitter.Node) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	ks := f.kids(list)
	for _, k := range ks {
		if k.kind != "type_parameter_declaration" {
			continue
		}
		m := len(f.stack)
		for _, c := range f.kids(k.n) {
			if c.field == f.fieldID("name") {
				w.declare(f.keyText(c.n))
			}
		}
		f.release(m)
	}
	for _, k := range ks {
		if k.kind == "type_parameter_declaration" {
			if t := f.field(k.n, "type"); t != nil {
				w.typ(t)
			}
		}
	}
}

// typ records the refs of a type expression.
func (w *goWalker) typ(n *sitter.Node) { w.node(n, w.f.kind(n)) }

// typeDecl handles a type declaration; top level ones are definitions
// (with their fields and interface methods), local ones only bind a name.
func (w *goWalker) typeDecl(n *sitter.Node, top bool, declDoc string) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	ks := f.kids(n)
	specs := countKinds(ks, "type_spec", "type_alias")
	for i := range ks {
		k := &ks[i]
		switch k.kind {
		case "comment":
			if top {
				f.commentAt(ks, i)
			}
		case "type_spec", "type_alias":
			spec := k.n
			nameNode := f.field(spec, "name")
			if nameNode == nil {
				continue
			}
			name := f.text(nameNode)
			if !top {
				w.declare(name)
				m := len(w.bound)
				if tp := f.field(spec, "type_parameters"); tp != nil {
					w.typeParams(tp)
				}
				if t := f.field(spec, "type"); t != nil {
					w.typ(t)
				}
				w.undo(m)
				continue
			}
			doc := f.docAt(ks, i)
			if doc == "" && specs == 1 {
				doc = declDoc
			}
			w.typeSpec(n, spec, name, specs == 1, k.kind == "type_alias", doc)
		}
	}
}

func (w *goWalker) typeSpec(decl, spec *sitter.Node, name string, single, alias bool, doc string) {
	f := w.f
	t := f.field(spec, "type")
	d := world.Def{Name: name, Kind: world.KindType, Qualified: name,
		Start: line(spec), End: w.f.endLine(spec), Exported: goExported(name), Doc: doc}
	if single {
		d.Start = line(decl)
	}
	tk := ""
	if t != nil {
		tk = f.kind(t)
	}
	switch {
	case alias:
		d.Signature = "type " + foldSpace(f.text(spec))
		d.Returns = w.typeOf(t) // the type it names
	case tk == "struct_type":
		d.Kind = world.KindStruct
		d.Signature = "type " + foldSpace(f.textRange(startByte(spec), startByte(t))) + " struct"
	case tk == "interface_type":
		d.Kind = world.KindInterface
		d.Signature = "type " + foldSpace(f.textRange(startByte(spec), startByte(t))) + " interface"
	default:
		d.Signature = "type " + foldSpace(f.text(spec))
		// The fields of a defined type are its underlying type's.
		d.Returns = w.typeOf(t)
	}
	if len(d.Signature) > 200 {
		d.Signature = d.Signature[:200] + "…"
	}
	idx := f.def(d)
	mark := len(w.bound)
	defer w.undo(mark)
	w.in = idx
	if tp := f.field(spec, "type_parameters"); tp != nil {
		w.typeParams(tp)
	}
	switch tk {
	case "struct_type":
		w.structFields(t, name, idx)
	case "interface_type":
		w.interfaceElems(t, name, idx)
	case "":
	default:
		w.typ(t)
	}
}

// structFields records the fields of a top-level struct type as
// definitions (embedded fields by their type's name) and the refs of their
// types.
func (w *goWalker) structFields(t *sitter.Node, parent string, idx int) {
	f := w.f
	var list *sitter.Node
	for i := uint(0); i < f.namedCount(t); i++ {
		if c := f.namedChild(t, i); f.kind(c) == "field_declaration_list" {
			list = c
		}
	}
	if list == nil {
		return
	}
	mark := len(f.stack)
	defer f.release(mark)
	fks := f.kids(list)
	for i := range fks {
		k := &fks[i]
		switch k.kind {
		case "comment":
			f.commentAt(fks, i)
		case "field_declaration":
			fd := k.n
			m := len(f.stack)
			var names []string
			var typ *sitter.Node
			sigEnd := w.f.endByte(fd)
			for _, c := range f.kids(fd) {
				switch c.field {
				case f.fieldID("name"):
					names = append(names, f.text(c.n))
				case f.fieldID("type"):
					c := c
					typ = c.n
				case f.fieldID("tag"):
					sigEnd = startByte(c.n)
				}
			}
			f.release(m)
			embedded := false
			ftype := ""
			if typ != nil {
				ftype = w.typeOf(typ)
			}
			if len(names) == 0 && typ != nil {
				names = []string{goTypeBaseName(f, typ)}
				embedded = true
			}
			doc := f.docAt(fks, i)
			first := 0
			for _, nm := range names {
				if nm == "" {
					continue
				}
				i := f.def(world.Def{Name: nm, Kind: world.KindField, Qualified: parent + "." + nm,
					Parent: parent, Start: line(fd), End: w.f.endLine(fd),
					Signature: foldSpace(f.textRange(startByte(fd), sigEnd)),
					Exported:  goExported(nm), Doc: doc, Returns: ftype})
				if first == 0 {
					first = i
				}
			}
			_ = embedded
			if typ != nil {
				if first != 0 {
					w.in = first
				}
				w.typ(typ)
				w.in = idx
			}
		}
	}
}

// goTypeBaseName is the name an embedded field takes from its type: "T"
// for T, *T, pkg.T and T[int].
func goTypeBaseName(f *file, t *sitter.Node) string {
	for t != nil {
		switch f.kind(t) {
		case "pointer_type", "parenthesized_type":
			t = f.namedChild(t, 0)
		case "generic_type":
			t = f.field(t, "type")
		case "qualified_type":
			t = f.field(t, "name")
		case "type_identifier":
			return f.text(t)
		default:
			return ""
		}
	}
	return ""
}

// interfaceElems records the methods of a top-level interface type as
// definitions, and the refs of their signatures and of embedded types.
func (w *goWalker) interfaceElems(t *sitter.Node, parent string, idx int) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	iks := f.kids(t)
	var embeds []string
	for i := range iks {
		k := &iks[i]
		switch k.kind {
		case "comment":
			f.commentAt(iks, i)
		case "method_elem":
			me := k.n
			nm := f.field(me, "name")
			if nm == nil {
				continue
			}
			name := f.text(nm)
			w.in = f.def(world.Def{Name: name, Kind: world.KindMethod, Qualified: parent + "." + name,
				Parent: parent, Start: line(me), End: w.f.endLine(me), Signature: foldSpace(f.text(me)),
				Exported: goExported(name), Doc: f.docAt(iks, i), Returns: w.resultType(f.field(me, "result"))})
			m := len(w.bound)
			w.params(f.field(me, "parameters"), false)
			w.result(f.field(me, "result"))
			w.undo(m)
			w.in = idx
		case "type_elem":
			w.typ(k.n)
			if f.namedCount(k.n) == 1 {
				if t := w.typeOf(f.namedChild(k.n, 0)); t != "" {
					embeds = append(embeds, t)
				}
			}
		}
	}
	// An interface's Returns lists the interfaces it embeds.
	if len(embeds) > 0 && idx > 0 {
		f.facts.Defs[idx-1].Returns = strings.Join(embeds, ",")
	}
}

// valueDecl handles a const or var declaration. At top level each name is
// a definition and long initialisers are elided from the skeleton; inside
// a body the names are bound after their values are read.
func (w *goWalker) valueDecl(n *sitter.Node, top bool, declDoc string) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	kind := world.KindVar
	if f.kind(n) == "const_declaration" {
		kind = world.KindConst
	}
	ks := f.kids(n)
	specs := countKinds(ks, "const_spec", "var_spec")
	for i := range ks {
		k := &ks[i]
		switch k.kind {
		case "comment":
			if top {
				f.commentAt(ks, i)
			}
		case "const_spec", "var_spec":
			doc := ""
			if top {
				if doc = f.docAt(ks, i); doc == "" && specs == 1 {
					doc = declDoc
				}
			}
			w.valueSpec(n, k.n, kind, top, specs == 1, doc)
		case "var_spec_list":
			m := len(f.stack)
			ss := f.kids(k.n)
			for j := range ss {
				switch ss[j].kind {
				case "comment":
					if top {
						f.commentAt(ss, j)
					}
				case "var_spec":
					doc := ""
					if top {
						doc = f.docAt(ss, j)
					}
					w.valueSpec(n, ss[j].n, kind, top, false, doc)
				}
			}
			f.release(m)
		}
	}
}

func (w *goWalker) valueSpec(decl, spec *sitter.Node, kind string, top, single bool, doc string) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	var names []*sitter.Node
	var typ, value *sitter.Node
	for _, c := range f.kids(spec) {
		c := c
		switch c.field {
		case f.fieldID("name"):
			if c.kind == "identifier" {
				names = append(names, c.n)
			}
		case f.fieldID("type"):
			typ = c.n
		case f.fieldID("value"):
			value = c.n
		}
	}
	if !top {
		var types []string
		if typ != nil {
			w.typ(typ)
			if t := w.typeOf(typ); t != "" {
				for range names {
					types = append(types, t)
				}
			}
		} else if value != nil {
			types = w.valueTypes(value)
		}
		if value != nil {
			w.node(value, f.kind(value))
		}
		for k, nm := range names {
			t := ""
			if k < len(types) {
				t = types[k]
			}
			w.declareTyped(f.keyText(nm), t)
		}
		return
	}
	keyword := "var "
	if kind == world.KindConst {
		keyword = "const "
	}
	// Up to its value when the whole is long or the value spans lines
	// (checked first: a multi-line value can be a table of many KiB).
	var sig string
	if value == nil || line(value) == w.f.endLine(value) {
		sig = keyword + foldSpace(f.text(spec))
	}
	if value != nil && (sig == "" || len(sig) > 120) {
		sig = keyword + foldSpace(f.textRange(startByte(spec), startByte(value))) + " …"
	}
	start := line(spec)
	if single {
		start = line(decl)
	}
	var types []string
	if typ != nil {
		if t := w.typeOf(typ); t != "" {
			for range names {
				types = append(types, t)
			}
		}
	} else if value != nil && kind == world.KindVar {
		types = w.valueTypes(value)
	}
	first := 0
	for k, nm := range names {
		name := f.text(nm)
		if name == "_" {
			continue
		}
		vt := ""
		if k < len(types) {
			vt = types[k]
		}
		i := f.def(world.Def{Name: name, Kind: kind, Qualified: name, Start: start, End: w.f.endLine(spec),
			Signature: sig, Exported: goExported(name), Doc: doc, Returns: vt})
		if first == 0 {
			first = i
		}
	}
	w.in = first
	if typ != nil {
		w.typ(typ)
	}
	if value != nil {
		w.elideInit(value)
		w.node(value, f.kind(value))
	}
	w.in = 0
}

// elideInit leaves the bulk of a package-level initialiser out of the
// skeleton: function literal bodies, and composite literals of more than
// three lines, each behind a marker naming its lines.
func (w *goWalker) elideInit(value *sitter.Node) {
	f := w.f
	f.walk(value, func(c *sitter.Node) bool {
		switch f.kind(c) {
		case "func_literal":
			f.elideBody(f.field(c, "body"))
			return false
		case "literal_value":
			if w.f.endLine(c)-line(c) >= 3 {
				f.elideBody(c)
				return false
			}
		}
		return true
	})
}

// node records the refs below n (of kind k), keeping track of local
// bindings. It is the one walk over expressions, statements and types.
func (w *goWalker) node(n *sitter.Node, k string) {
	f := w.f
	switch k {
	case "identifier":
		w.use(n, world.RefValue)
		return
	case "type_identifier":
		w.use(n, world.RefType)
		return
	case "field_identifier", "package_identifier", "label_name", "comment", "blank_identifier",
		"interpreted_string_literal", "raw_string_literal", "rune_literal", "int_literal",
		"float_literal", "imaginary_literal", "true", "false", "nil", "iota", "dot":
		return
	case "qualified_type":
		pkg, name := f.field(n, "package"), f.field(n, "name")
		if pkg != nil && name != nil {
			if q := f.bytes(pkg); w.scope[string(q)] == 0 {
				f.ref(world.Ref{Name: f.text(name), Qual: string(q), Line: line(name), In: w.in, Kind: world.RefType})
			}
		}
		return
	case "selector_expression":
		w.selector(n, world.RefValue)
		return
	case "call_expression":
		fn, ta, args := f.fields3(n, f.fieldID("function"), f.fieldID("type_arguments"), f.fieldID("arguments"))
		if fn != nil {
			switch fk := f.recKind(fn); fk {
			case "identifier":
				w.useBytes(f.src[startByte(&fn.node):fn.end], line(&fn.node), world.RefCall)
			case "selector_expression":
				w.selector(&fn.node, world.RefCall)
			case "generic_type", "index_expression", "type_instantiation_expression":
				w.instantiatedCall(&fn.node, fk)
			default:
				w.node(&fn.node, fk)
			}
		}
		if ta != nil {
			w.node(&ta.node, "type_arguments")
		}
		if args != nil {
			w.node(&args.node, "argument_list")
		}
		return
	case "type_conversion_expression":
		// F[int](x) parses as a conversion; a generic function call is the
		// likelier reading, and a conversion is a call-like use anyway.
		if t := f.field(n, "type"); t != nil {
			if tk := f.kind(t); tk == "generic_type" {
				w.instantiatedCall(t, tk)
			} else {
				w.node(t, tk)
			}
		}
		if op := f.field(n, "operand"); op != nil {
			w.node(op, f.kind(op))
		}
		return
	case "composite_literal":
		t := f.field(n, "type")
		if t != nil {
			w.typ(t)
		}
		if body := f.field(n, "body"); body != nil {
			w.literal(body, t)
		}
		return
	case "func_literal":
		mark := len(w.bound)
		w.params(f.field(n, "parameters"), false)
		w.result(f.field(n, "result"))
		if body := f.field(n, "body"); body != nil {
			w.node(body, "block")
		}
		w.undo(mark)
		return
	case "function_type":
		// Parameter names of a function type bind nothing outside it.
		mark := len(w.bound)
		w.params(f.field(n, "parameters"), false)
		w.result(f.field(n, "result"))
		w.undo(mark)
		return
	case "struct_type", "field_declaration_list", "interface_type":
		// Field and method names are not refs; their types are.
		mark := len(f.stack)
		for _, c := range f.kids(n) {
			switch c.kind {
			case "field_declaration":
				if t := f.field(c.n, "type"); t != nil {
					w.typ(t)
				}
			case "method_elem":
				m := len(w.bound)
				w.params(f.field(c.n, "parameters"), false)
				w.result(f.field(c.n, "result"))
				w.undo(m)
			case "field_declaration_list", "type_elem":
				w.node(c.n, c.kind)
			}
		}
		f.release(mark)
		return
	case "short_var_declaration":
		var types []string
		if r := f.field(n, "right"); r != nil {
			types = w.valueTypes(r)
			w.node(r, "expression_list")
		}
		w.declareListTyped(f.field(n, "left"), types)
		return
	case "range_clause", "receive_statement":
		var types []string
		if r := f.field(n, "right"); r != nil {
			if k == "range_clause" {
				// The second variable ranging over a slice or map is an element.
				types = []string{"", goIndexOf(w.valueType(r))}
			}
			w.node(r, f.kind(r))
		}
		left := f.field(n, "left")
		if left == nil {
			return
		}
		if w.hasToken(n, ":=") {
			w.declareListTyped(left, types)
		} else {
			w.node(left, "expression_list")
		}
		return
	case "var_declaration", "const_declaration":
		w.valueDecl(n, false, "")
		return
	case "type_declaration":
		w.typeDecl(n, false, "")
		return
	case "type_switch_statement":
		mark := len(w.bound)
		if init := f.field(n, "initializer"); init != nil {
			w.node(init, f.kind(init))
		}
		if v := f.field(n, "value"); v != nil {
			w.node(v, f.kind(v))
		}
		alias := f.field(n, "alias")
		w.declareList(alias)
		m := len(f.stack)
		for _, c := range f.kids(n) {
			if c.kind == "type_case" || c.kind == "default_case" {
				// In a case naming one type the alias has that type.
				cm := len(w.bound)
				if c.kind == "type_case" && alias != nil {
					a := alias
					if f.kind(a) == "expression_list" && f.namedCount(a) == 1 {
						a = f.namedChild(a, 0)
					}
					if t := w.caseType(c.n); t != "" && f.kind(a) == "identifier" {
						w.declareTyped(f.keyText(a), t)
					}
				}
				w.node(c.n, c.kind)
				w.undo(cm)
			}
		}
		f.release(m)
		w.undo(mark)
		return
	case "labeled_statement":
		m := len(f.stack)
		for _, c := range f.namedKids(n) {
			if c.kind != "label_name" {
				w.node(c.n, c.kind)
			}
		}
		f.release(m)
		return
	}
	// Everything else: the children in order, in a new scope for the
	// statements that open one.
	scoped := false
	switch k {
	case "block", "for_statement", "if_statement", "expression_switch_statement",
		"select_statement", "expression_case", "type_case", "default_case", "communication_case":
		scoped = true
	}
	// The named children straight from the file's tree (namedKids without
	// the copies: this loop sees most nodes of a file).
	mark := len(w.bound)
	recs, kinds, named := f.recs, f.lang.kinds, f.lang.named
	i := f.at(n)
	for j, end := i+1, int(recs[i].after); j < end; j = int(recs[j].after) {
		r := &recs[j]
		var ck string
		if s := int(r.symbol); s < len(kinds) && s < len(named) {
			if !named[s] {
				continue
			}
			ck = kinds[s]
		} else if !r.node.IsNamed() {
			continue
		} else {
			ck = r.node.Kind()
		}
		switch ck {
		case "identifier":
			w.useBytes(f.src[startByte(&r.node):r.end], line(&r.node), world.RefValue)
		case "type_identifier":
			w.useBytes(f.src[startByte(&r.node):r.end], line(&r.node), world.RefType)
		default:
			w.node(&r.node, ck)
		}
	}
	if scoped {
		w.undo(mark)
	}
}

// instantiatedCall records the callee of a call to an instantiated generic
// function (F[int](x), pkg.F[int](x)) as a call, and the refs of its type
// arguments.
func (w *goWalker) instantiatedCall(fn *sitter.Node, k string) {
	f := w.f
	var base *sitter.Node
	switch k {
	case "generic_type", "type_instantiation_expression":
		base = f.field(fn, "type")
	case "index_expression":
		base = f.field(fn, "operand")
	}
	if base != nil {
		switch f.kind(base) {
		case "identifier", "type_identifier":
			w.use(base, world.RefCall)
		case "selector_expression":
			w.selector(base, world.RefCall)
		case "qualified_type":
			pkg, name := f.field(base, "package"), f.field(base, "name")
			if pkg != nil && name != nil && w.scope[string(f.bytes(pkg))] == 0 {
				f.ref(world.Ref{Name: f.text(name), Qual: f.text(pkg), Line: line(name), In: w.in, Kind: world.RefCall})
			}
		default:
			w.node(base, f.kind(base))
		}
	}
	m := len(f.stack)
	defer f.release(m)
	for _, c := range f.kids(fn) {
		if c.named && (base == nil || c.n.Id() != base.Id()) {
			w.node(c.n, c.kind)
		}
	}
}

// hasToken reports whether n has an anonymous child token tok.
func (w *goWalker) hasToken(n *sitter.Node, tok string) bool {
	f := w.f
	m := len(f.stack)
	defer f.release(m)
	for _, c := range f.kids(n) {
		if !c.named && c.kind == tok {
			return true
		}
	}
	return false
}

// declareList binds the identifiers of an expression list (the left of :=).
func (w *goWalker) declareList(list *sitter.Node) { w.declareListTyped(list, nil) }

// declareListTyped binds the identifiers of an expression list, the k-th
// with type types[k] when there is one.
func (w *goWalker) declareListTyped(list *sitter.Node, types []string) {
	f := w.f
	if list == nil {
		return
	}
	typeAt := func(k int) string {
		if k < len(types) {
			return types[k]
		}
		return ""
	}
	if f.kind(list) == "identifier" {
		w.declareTyped(f.keyText(list), typeAt(0))
		return
	}
	m := len(f.stack)
	defer f.release(m)
	k := 0
	for _, c := range f.namedKids(list) {
		if c.kind == "identifier" {
			w.declareTyped(f.keyText(c.n), typeAt(k))
		} else {
			w.node(c.n, c.kind)
		}
		k++
	}
}

// valueTypes returns the types of the values of an expression list, by
// position: one per expression, or, for a single call giving several
// values, the call's type first (a function's Returns is its first result).
func (w *goWalker) valueTypes(list *sitter.Node) []string {
	f := w.f
	if f.kind(list) != "expression_list" {
		return []string{w.valueType(list)}
	}
	var out []string
	m := len(f.stack)
	defer f.release(m)
	for _, c := range f.namedKids(list) {
		if c.kind == "comment" {
			continue
		}
		out = append(out, w.valueType(c.n))
	}
	return out
}

// selector records x.Sel: a qualified ref when x is an imported package
// (kind says call or value), a member ref otherwise, plus the refs of x.
func (w *goWalker) selector(n *sitter.Node, kind string) {
	f := w.f
	op, sel, _ := f.fields3(n, f.fieldID("operand"), f.fieldID("field"), 0)
	if op == nil {
		return
	}
	opKind := f.recKind(op)
	if sel == nil {
		w.node(&op.node, opKind)
		return
	}
	name := string(f.src[startByte(&sel.node):sel.end])
	ln := line(&sel.node)
	if opKind == "identifier" {
		qb := f.src[startByte(&op.node):op.end]
		if w.isPkg(qb) {
			f.ref(world.Ref{Name: name, Qual: string(qb), Line: ln, In: w.in, Kind: kind})
			return
		}
		w.useBytes(qb, line(&op.node), world.RefValue)
		f.ref(world.Ref{Name: name, Qual: memberQual(qb, w.valueType(&op.node)), Line: ln, In: w.in, Kind: world.RefMember})
		return
	}
	q := memberQual(w.root(&op.node), w.valueType(&op.node))
	w.node(&op.node, opKind)
	f.ref(world.Ref{Name: name, Qual: q, Line: ln, In: w.in, Kind: world.RefMember})
}

// memberQual is a member reference's qualifier: the root of its selector
// chain, with the root's type after a colon when it is known.
func memberQual(root []byte, typ string) string {
	if typ == "" {
		return string(root)
	}
	return string(root) + ":" + typ
}

// root returns the identifier a selector chain starts from ("a" for
// a.b.c, a.b().c, a[i].c), or nil, as bytes of the source.
func (w *goWalker) root(n *sitter.Node) []byte {
	f := w.f
	for n != nil {
		switch f.kind(n) {
		case "identifier":
			return f.bytes(n)
		case "selector_expression", "index_expression", "slice_expression", "type_assertion_expression":
			n = f.field(n, "operand")
		case "call_expression":
			n = f.field(n, "function")
		case "parenthesized_expression":
			n = f.namedChild(n, 0)
		default:
			return nil
		}
	}
	return nil
}

// literal records the refs of a composite literal's body. typ is the
// literal's type as written (nil when elided and unknown): keys of struct
// literals are field refs, keys of map, slice and array literals are
// expressions; elided inner literals take the element type.
func (w *goWalker) literal(body, typ *sitter.Node) {
	f := w.f
	structish, elem, key := w.literalShape(typ)
	typeName := ""
	if structish && typ != nil {
		if t := w.typeOf(typ); t != "" {
			typeName = ":" + t // a key is a field of the literal's type
		}
	}
	for c := range f.childRecs(body) {
		switch f.recKind(c) {
		case "keyed_element":
			kv := &c.node
			k, v := f.field(kv, "key"), f.field(kv, "value")
			if k != nil {
				inner := f.namedChild(k, 0)
				switch {
				case inner == nil:
				case f.kind(inner) == "literal_value":
					w.literal(inner, key)
				case f.kind(inner) == "identifier" && (structish || typ == nil && w.scope[string(f.bytes(inner))] == 0):
					f.ref(world.Ref{Name: f.text(inner), Qual: typeName, Line: line(inner), In: w.in, Kind: world.RefMember})
				default:
					w.node(inner, f.kind(inner))
				}
			}
			if v != nil {
				w.element(v, elem)
			}
		case "literal_element":
			w.element(&c.node, elem)
		}
	}
}

func (w *goWalker) element(e, elem *sitter.Node) {
	f := w.f
	inner := f.namedChild(e, 0)
	if inner == nil {
		return
	}
	if f.kind(inner) == "literal_value" {
		w.literal(inner, elem)
		return
	}
	w.node(inner, f.kind(inner))
}

// literalShape tells from a literal's type whether its keys are field
// names, and the types of its elements and keys when they are written.
func (w *goWalker) literalShape(typ *sitter.Node) (structish bool, elem, key *sitter.Node) {
	f := w.f
	for typ != nil {
		switch f.kind(typ) {
		case "pointer_type", "parenthesized_type":
			typ = f.namedChild(typ, 0)
			continue
		case "slice_type", "array_type", "implicit_length_array_type":
			return false, f.field(typ, "element"), nil
		case "map_type":
			return false, f.field(typ, "value"), f.field(typ, "key")
		case "type_identifier":
			// A type parameter or a local name could be anything; a named
			// type is most often a struct.
			return true, nil, nil
		default:
			return true, nil, nil
		}
	}
	return false, nil, nil
}

// countKinds counts the children of one of the given kinds.
func countKinds(ks []kid, kinds ...string) int {
	n := 0
	for _, k := range ks {
		for _, want := range kinds {
			if k.kind == want {
				n++
				break
			}
		}
	}
	return n
}

// typeOf returns a named type as the code writes it, for resolution to
// look members up in: "T" for T, *T and T[int]; "pkg.T" for pkg.T; "" for
// type literals, type parameters and local types (bound in scope).
func (w *goWalker) typeOf(t *sitter.Node) string {
	f := w.f
	for t != nil {
		switch f.kind(t) {
		case "pointer_type", "parenthesized_type":
			t = f.namedChild(t, 0)
		case "generic_type":
			t = f.field(t, "type")
		case "type_identifier", "identifier":
			name := f.bytes(t)
			if w.scope[string(name)] > 0 || goBuiltins[string(name)] {
				return ""
			}
			return string(name)
		case "qualified_type":
			pkg, name := f.field(t, "package"), f.field(t, "name")
			if pkg == nil || name == nil {
				return ""
			}
			p := f.bytes(pkg)
			if w.scope[string(p)] > 0 || !w.pkgs[string(p)] {
				return ""
			}
			return string(p) + "." + string(f.bytes(name))
		case "slice_type", "array_type", "implicit_length_array_type":
			return goElemOf(w.typeOf(f.field(t, "element")))
		case "map_type":
			return goElemOf(w.typeOf(f.field(t, "value")))
		default:
			return ""
		}
	}
	return ""
}

// goElemOf is the type of slices, arrays and maps of t: "[]T" (what
// indexing and ranging give is what follows "[]").
func goElemOf(t string) string {
	if t == "" {
		return ""
	}
	return "[]" + t
}

// goIndexOf is the type of an element of t: "T" for "[]T", "F()>[]"
// (resolution indexes what F returns) otherwise.
func goIndexOf(t string) string {
	if t == "" {
		return ""
	}
	if rest, ok := strings.CutPrefix(t, "[]"); ok {
		return rest
	}
	return t + ">[]"
}

// valueType returns the type of expression e when the code says it, in
// the form a member ref's qualifier carries after the colon: a named type
// ("T", "pkg.T": a composite literal, &T{}, new(T), a conversion written
// as a type assertion), a call of a named function ("F()", "pkg.F()":
// what F returns, or T when F is a type), a local of known type, and any
// of these followed by the members selected or called on it ("F()>a>b":
// the type of member b of the type of member a of what F returns).
func (w *goWalker) valueType(e *sitter.Node) string {
	f := w.f
	for e != nil && f.kind(e) == "parenthesized_expression" {
		e = f.namedChild(e, 0)
	}
	if e == nil {
		return ""
	}
	switch f.kind(e) {
	case "composite_literal":
		return w.typeOf(f.field(e, "type"))
	case "unary_expression":
		// &x and *x have x's members.
		if op := f.field(e, "operator"); op != nil && (f.textIs(op, "&") || f.textIs(op, "*")) {
			return w.valueType(f.field(e, "operand"))
		}
	case "type_assertion_expression":
		return w.typeOf(f.field(e, "type"))
	case "index_expression":
		return goIndexOf(w.valueType(f.field(e, "operand")))
	case "identifier":
		name := f.bytes(e)
		if w.scope[string(name)] > 0 {
			return w.vtype[string(name)]
		}
		if goBuiltins[string(name)] || w.pkgs[string(name)] {
			return ""
		}
		return string(name) // a package-level variable: its declared type
	case "call_expression":
		fn := f.field(e, "function")
		if fn == nil {
			return ""
		}
		switch f.kind(fn) {
		case "index_expression": // F[int](…): what F returns
			fn = f.field(fn, "operand")
		case "generic_type", "type_instantiation_expression":
			fn = f.field(fn, "type")
		}
		if fn == nil {
			return ""
		}
		switch f.kind(fn) {
		case "identifier":
			name := f.bytes(fn)
			if string(name) == "new" && w.scope["new"] == 0 {
				if args := f.field(e, "arguments"); args != nil && f.namedCount(args) == 1 {
					return w.typeOf(f.namedChild(args, 0))
				}
				return ""
			}
			if w.scope[string(name)] > 0 || goBuiltins[string(name)] {
				return ""
			}
			return string(name) + "()"
		case "selector_expression":
			op, sel := f.field(fn, "operand"), f.field(fn, "field")
			if op == nil || sel == nil {
				return ""
			}
			if f.kind(op) == "identifier" && w.isPkg(f.bytes(op)) {
				return string(f.bytes(op)) + "." + string(f.bytes(sel)) + "()"
			}
			if t := w.valueType(op); t != "" {
				return t + ">" + string(f.bytes(sel))
			}
		}
	case "selector_expression":
		op, sel := f.field(e, "operand"), f.field(e, "field")
		if op == nil || sel == nil {
			return ""
		}
		if f.kind(op) == "identifier" && w.isPkg(f.bytes(op)) {
			return string(f.bytes(op)) + "." + string(f.bytes(sel))
		}
		if t := w.valueType(op); t != "" {
			return t + ">" + string(f.bytes(sel))
		}
	}
	return ""
}

// isPkg reports whether name is an imported package's name, not hidden by
// a local binding.
func (w *goWalker) isPkg(name []byte) bool {
	return w.pkgs[string(name)] && w.scope[string(name)] == 0 // pkgs is the smaller map
}

// caseType returns the type a type switch case names when it names one.
func (w *goWalker) caseType(c *sitter.Node) string {
	var typ *sitter.Node
	n := 0
	f := w.f
	id := f.fieldID("type")
	m := len(f.stack)
	ks := f.kids(c)
	for i := range ks {
		if ks[i].named && id != 0 && ks[i].field == id {
			typ = &f.recs[f.at(ks[i].n)].node
			n++
		}
	}
	f.release(m)
	if n != 1 {
		return ""
	}
	return w.typeOf(typ)
}
