package extract

import (
	"strings"

	zig "github.com/tree-sitter-grammars/tree-sitter-zig/bindings/go"
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/git-speed/git-speed/layers/world"
)

// Zig: @import imports (with the constant they bind), functions, methods
// of containers, structs, enums, unions and opaques bound to constants,
// container fields, top-level constants and variables, tests, and the
// members of the struct a type function returns (fn List(T) type { return
// struct {…} }). pub declarations are exported. References: calls, type
// and value uses, member and qualified selections (std.mem.copy) with
// parameters, locals and captures (|x|) left out.

func init() {
	register(world.LangZig, sitter.NewLanguage(zig.Language()), "//", walkZig)
}

type zigWalker struct {
	f    *file
	loc  locals
	docs map[uintptr]string

	fType uint16
}

func walkZig(f *file) {
	w := &zigWalker{f: f, fType: f.fieldID("type")}
	w.docs = f.scanComments(func(k string) bool { return k == "comment" }, nil, nil, f.cutInlineComment)
	w.container(f.root, "", 0)
	finishMore(f.facts)
}

// container walks the declarations of a file or a container body.
func (w *zigWalker) container(n *sitter.Node, parent string, in int) {
	f := w.f
	for _, c := range f.named(n) {
		switch f.kind(c) {
		case "variable_declaration":
			w.variable(c, parent, in)
		case "function_declaration":
			w.function(c, parent)
		case "container_field":
			nm := f.field(c, "name")
			kind := world.KindField
			if nm == nil { // an enum's value (or a union's tag): a bare name
				nm = f.childOfKind(c, "identifier")
				kind = world.KindConst
			}
			if nm == nil {
				w.refs(c, in)
				continue
			}
			name := f.text(nm)
			d := world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: kind,
				Start: line(c), End: f.endLine(c), Exported: true, Signature: foldSpace(f.text(c)), Doc: w.docs[c.Id()]}
			if len(d.Signature) > maxInit {
				d.Signature = foldSpace(f.textRange(startByte(c), startByte(c)+uint(strings.IndexByte(f.text(c)+"=", '='))))
			}
			idx := f.def(d)
			for _, k := range f.named(c) {
				if k.Id() != nm.Id() {
					w.refs(k, idx)
				}
			}
		case "test_declaration":
			body := f.childOfKind(c, "block")
			name := "test"
			if s := f.childOfKind(c, "string", "identifier"); s != nil {
				name = strings.Trim(f.text(s), `"`)
			}
			idx := f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: "test",
				Start: line(c), End: f.endLine(c), Signature: f.signature(c, body), Doc: w.docs[c.Id()]})
			f.elideBlock(body)
			w.loc.push()
			w.bindAll(body)
			w.refs(body, idx)
			w.loc.pop()
		case "comment":
		default:
			w.loc.push()
			w.bindAll(c)
			w.refs(c, in)
			w.loc.pop()
		}
	}
}

// hasWord reports whether n has the anonymous child word (pub, const, var).
func (w *zigWalker) hasWord(n *sitter.Node, word string) bool {
	for _, k := range w.f.all(n) {
		if !k.IsNamed() && w.f.kind(k) == word {
			return true
		}
	}
	return false
}

// variable handles a top-level or container const/var declaration.
func (w *zigWalker) variable(c *sitter.Node, parent string, in int) {
	f := w.f
	ks := f.named(c)
	if len(ks) == 0 || f.kind(ks[0]) != "identifier" {
		w.refs(c, in)
		return
	}
	nameNode := ks[0]
	name := f.text(nameNode)
	var value, typ *sitter.Node
	for _, k := range ks[1:] {
		if typ == nil && f.field(c, "type") != nil && k.Id() == f.field(c, "type").Id() {
			typ = k
			continue
		}
		value = k
	}
	if value != nil && f.kind(value) == "builtin_function" {
		if b := f.childOfKind(value, "builtin_identifier"); b != nil && f.textIs(b, "@import") {
			if s := f.childOfKind(f.childOfKind(value, "arguments"), "string"); s != nil {
				f.imp(world.Import{Path: strings.Trim(f.text(s), `"`), Alias: name, Line: line(c)})
				return
			}
		}
	}
	d := world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Start: line(c), End: f.endLine(c),
		Exported: w.hasWord(c, "pub"), Doc: w.docs[c.Id()]}
	d.Kind = world.KindConst
	if w.hasWord(c, "var") {
		d.Kind = world.KindVar
	}
	if value != nil {
		switch f.kind(value) {
		case "struct_declaration", "union_declaration", "opaque_declaration":
			d.Kind = world.KindStruct
			if f.kind(value) == "union_declaration" {
				d.Kind = "union"
			}
		case "enum_declaration":
			d.Kind = world.KindEnum
		case "error_set_declaration":
			d.Kind = world.KindType
		}
	}
	container := d.Kind == world.KindStruct || d.Kind == world.KindEnum || d.Kind == "union"
	if container {
		d.Signature = foldSpace(f.textRange(startByte(c), startByte(value)) + w.containerHead(value))
	} else {
		d.Signature = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f.signature(c, value)), "="))
	}
	idx := f.def(d)
	w.refs(typ, idx)
	if container {
		w.container(value, d.Qualified, idx)
		return
	}
	f.elideValue(value)
	w.loc.push()
	w.bindAll(value)
	w.refs(value, idx)
	w.loc.pop()
}

// containerHead returns a container's text up to its opening brace:
// "struct", "enum(u8)", "union(enum)".
func (w *zigWalker) containerHead(v *sitter.Node) string {
	t := w.f.text(v)
	if i := strings.IndexByte(t, '{'); i >= 0 {
		return strings.TrimSpace(t[:i])
	}
	return t
}

// function records a function; a function returning a container (a
// generic type) gets the container's members as its own.
func (w *zigWalker) function(c *sitter.Node, parent string) {
	f := w.f
	body := f.field(c, "body")
	name := f.text(f.field(c, "name"))
	kind := world.KindFunction
	if parent != "" {
		kind = world.KindMethod
	}
	d := world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: kind, Start: line(c), End: f.endLine(c),
		Exported: w.hasWord(c, "pub"), Signature: f.signature(c, body), Doc: w.docs[c.Id()]}
	idx := f.def(d)
	w.loc.push()
	w.bindAll(c)
	for _, k := range f.named(c) {
		if k.Id() != startNode(f.field(c, "name")) && (body == nil || k.Id() != body.Id()) {
			w.refs(k, idx)
		}
	}
	var inner []*sitter.Node
	if body != nil && f.kind(f.field(c, "type")) == "builtin_type" && f.textIs(f.field(c, "type"), "type") {
		f.walk(body, func(x *sitter.Node) bool {
			switch f.kind(x) {
			case "struct_declaration", "union_declaration", "enum_declaration", "opaque_declaration":
				inner = append(inner, x)
				return false
			case "function_declaration":
				return false
			}
			return true
		})
	}
	if len(inner) == 0 {
		f.elideBlock(body)
		w.refs(body, idx)
		w.loc.pop()
		return
	}
	// The type function's own statements refer from it; the returned
	// container's members are definitions below it.
	f.walk(body, func(x *sitter.Node) bool {
		for _, in := range inner {
			if x.Id() == in.Id() {
				return false
			}
		}
		if x.Id() != body.Id() && f.kind(x) != "expression_statement" && f.kind(x) != "return_expression" && f.kind(x) != "block" {
			w.refs(x, idx)
			return false
		}
		return true
	})
	for _, in := range inner { // the function's parameters (T) stay bound
		w.container(in, d.Qualified, idx)
	}
	w.loc.pop()
}

// bindAll adds parameters, locals and captures under n to the current
// frame, not looking into nested functions or containers.
func (w *zigWalker) bindAll(n *sitter.Node) {
	f := w.f
	if n == nil {
		return
	}
	f.walk(n, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "parameter":
			if nm := f.field(x, "name"); nm != nil {
				w.loc.add(f.text(nm))
			}
			return false
		case "variable_declaration":
			if ks := f.named(x); len(ks) > 0 && f.kind(ks[0]) == "identifier" {
				w.loc.add(f.text(ks[0]))
			}
		case "payload":
			for _, k := range f.named(x) {
				if f.kind(k) == "identifier" {
					w.loc.add(f.text(k))
				}
			}
			return false
		case "struct_declaration", "union_declaration", "enum_declaration", "opaque_declaration":
			return x.Id() == n.Id()
		}
		return true
	})
}

// zigTypeKinds are the nodes whose identifiers are used as types.
var zigTypeKinds = map[string]bool{"pointer_type": true, "slice_type": true, "array_type": true, "nullable_type": true,
	"error_union_type": true}

// refs records the references under n.
func (w *zigWalker) refs(n *sitter.Node, in int) {
	f := w.f
	if n == nil {
		return
	}
	f.walkParent(n, func(x, parent *sitter.Node, field uint16) bool {
		switch f.kind(x) {
		case "identifier":
			s := f.text(x)
			if w.loc.has(s) || s == "_" {
				return false
			}
			kind := world.RefValue
			if field == w.fType && field != 0 || parent != nil && zigTypeKinds[f.kind(parent)] {
				kind = world.RefType
			}
			f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: kind})
			return false
		case "call_expression":
			fn := f.field(x, "function")
			switch {
			case fn == nil:
			case f.kind(fn) == "identifier":
				if s := f.text(fn); !w.loc.has(s) {
					f.ref(world.Ref{Name: s, Line: line(fn), In: in, Kind: world.RefCall})
				}
			case f.kind(fn) == "field_expression":
				w.selection(fn, in, true)
			default:
				w.refs(fn, in)
			}
			for _, k := range f.named(x) {
				if fn == nil || k.Id() != fn.Id() {
					w.refs(k, in)
				}
			}
			return false
		case "field_expression":
			w.selection(x, in, false)
			return false
		case "function_declaration", "struct_declaration", "union_declaration", "enum_declaration", "opaque_declaration":
			if x.Id() == n.Id() {
				return true
			}
			w.loc.push()
			w.bindAll(x)
			for _, k := range f.named(x) {
				w.refs(k, in)
			}
			w.loc.pop()
			return false
		case "container_field":
			if nm := f.field(x, "name"); nm != nil {
				for _, k := range f.named(x) {
					if k.Id() != nm.Id() {
						w.refs(k, in)
					}
				}
				return false
			}
			return true
		case "string", "comment", "integer", "float", "builtin_type", "builtin_identifier", "payload", "character",
			"multiline_string", "escape_sequence":
			return false
		}
		return true
	})
}

// selection records a.b (a call when call is true); .b with no object (a
// field named in an initialiser, an enum literal) is a member use.
func (w *zigWalker) selection(x *sitter.Node, in int, call bool) {
	f := w.f
	obj := f.field(x, "object")
	member := f.field(x, "member")
	if member == nil {
		w.refs(obj, in)
		return
	}
	q := ""
	if obj != nil {
		q = f.text(obj)
		w.refs(obj, in)
	}
	// Zig's modules and namespaces are lower-case constants (std.mem):
	// any receiver that is not a local is one.
	f.ref(selectionRef(q, f.text(member), line(member), in, false, !w.loc.has(rootName(q)), call))
}
