package extract

import (
	"iter"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"

	"github.com/git-speed/git-speed/layers/world"
)

// C and C++ share one walker (the C++ grammar extends the C one): includes,
// macros, functions and prototypes, structs, unions, enums and their
// constants, typedefs and aliases, file-scope variables, and for C++
// namespaces, classes, methods (in-class and out-of-line Class::method),
// templates and access sections. Qualified names use dots: ns::C::m is
// "ns.C.m".

func init() {
	register(world.LangC, sitter.NewLanguage(tsc.Language()), "//", walkCFamily)
	register(world.LangCPP, sitter.NewLanguage(tscpp.Language()), "//", walkCFamily)
	walkedMarking(world.LangC, "comment")
	walkedMarking(world.LangCPP, "comment")
}

type cWalker struct {
	f      *file
	loc    locals
	hidden int // depth of anonymous namespaces: nothing in them is exported
	docs   map[uintptr]string
}

func walkCFamily(f *file) {
	w := &cWalker{f: f}
	w.docs = f.scanComments(func(k string) bool { return k == "comment" }, nil, nil, nil)
	w.items(f.root, "", 0, "")
	finishMore(f.facts)
}

// items walks declarations. access is "" outside classes, else the current
// access ("public", "private", "protected").
func (w *cWalker) items(n *sitter.Node, parent string, in int, access string) {
	for _, c := range w.f.named(n) {
		access = w.item(c, parent, in, access)
	}
}

// item handles one declaration and returns the access in force after it.
func (w *cWalker) item(c *sitter.Node, parent string, in int, access string) string {
	f := w.f
	exported := access == "" || access == "public"
	switch w.f.kind(c) {
	case "comment":
	case "access_specifier":
		return strings.TrimSuffix(strings.TrimSpace(f.text(c)), ":")
	case "preproc_include":
		p := w.f.field(c, "path")
		if p == nil {
			break
		}
		s := f.text(p)
		imp := world.Import{Line: line(c)}
		switch {
		case strings.HasPrefix(s, "<"):
			imp.Path, imp.Kind = strings.Trim(s, "<>"), "system"
		case strings.HasPrefix(s, `"`):
			imp.Path, imp.Kind = strings.Trim(s, `"`), "local"
		default:
			imp.Path = s // a macro naming the header
		}
		f.imp(imp)
	case "preproc_def", "preproc_function_def":
		name := f.text(w.f.field(c, "name"))
		end := w.f.field(c, "name")
		if p := w.f.field(c, "parameters"); p != nil {
			end = p
		}
		d := world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: world.KindMacro,
			Start: line(c), End: w.f.endLine(c), Exported: true, Doc: w.docs[c.Id()]}
		if end != nil {
			d.Signature = foldSpace(string(f.src[startByte(c):w.f.endByte(end)]))
		}
		idx := f.def(d)
		if v := w.f.field(c, "value"); v != nil {
			f.elideInit(v)
			w.refs(v, idx)
		}
	case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
		for _, ch := range w.f.named(c) {
			switch w.f.kind(ch) {
			case "identifier", "preproc_defined", "binary_expression", "unary_expression", "call_expression", "parenthesized_expression", "number_literal":
				continue // the condition
			}
			access = w.item(ch, parent, in, access)
		}
	case "namespace_definition":
		name := f.text(w.f.field(c, "name"))
		name = strings.ReplaceAll(name, "::", ".")
		body := w.f.field(c, "body")
		d := world.Def{Name: lastSegment(name, "."), Qualified: qualify(parent, name), Parent: parent, Kind: world.KindModule,
			Start: line(c), End: w.f.endLine(c), Exported: name != "", Signature: f.signature(c, body), Doc: w.docs[c.Id()]}
		if name == "" {
			d.Name, d.Qualified = "(anonymous)", qualify(parent, "(anonymous)")
		}
		idx := f.def(d)
		if name == "" {
			w.hidden++
			w.items(body, parent, idx, "")
			w.hidden--
		} else {
			w.items(body, d.Qualified, idx, "")
		}
	case "linkage_specification":
		if b := w.f.field(c, "body"); b != nil {
			if w.f.kind(b) == "declaration_list" {
				w.items(b, parent, in, access)
			} else {
				w.item(b, parent, in, access)
			}
		}
	case "template_declaration":
		w.loc.push()
		for _, p := range w.f.named(w.f.field(c, "parameters")) {
			if id := w.f.childOfKind(p, "type_identifier", "identifier"); id != nil {
				w.loc.add(f.text(id))
			}
			if dd := w.f.field(p, "declarator"); dd != nil {
				w.loc.add(f.text(dd))
			}
			if nm := w.f.field(p, "name"); nm != nil {
				w.loc.add(f.text(nm))
			}
		}
		for _, ch := range w.f.named(c) {
			if w.f.kind(ch) != "template_parameter_list" {
				access = w.item(ch, parent, in, access)
			}
		}
		w.loc.pop()
	case "function_definition":
		w.function(c, parent, in, access, w.f.field(c, "body"))
	case "declaration", "field_declaration":
		w.declaration(c, parent, in, access)
	case "class_specifier", "struct_specifier", "union_specifier", "enum_specifier":
		w.record(c, parent, in, exported, c)
	case "type_definition":
		typ := w.f.field(c, "type")
		var idx int
		if typ != nil && w.f.field(typ, "body") != nil {
			idx = w.record(typ, parent, in, exported, nil)
		}
		for ch := range w.declarators(c) {
			name, _ := w.declName(ch)
			if name == "" {
				w.refs(ch, in)
				continue
			}
			d := world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: world.KindType,
				Start: line(c), End: w.f.endLine(c), Exported: exported, Doc: w.docs[c.Id()]}
			if body := w.f.field(typ, "body"); body != nil {
				d.Signature = foldSpace(string(f.src[startByte(c):startByte(body)]) + "{…} " + f.text(ch))
			} else {
				d.Signature = strings.TrimSuffix(f.signature(c, nil), ";")
			}
			ti := f.def(d)
			if idx == 0 {
				w.refs(typ, ti)
			}
			w.paramTypes(ch, ti)
		}
	case "alias_declaration":
		name := f.text(w.f.field(c, "name"))
		idx := f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: world.KindType,
			Start: line(c), End: w.f.endLine(c), Exported: exported, Signature: strings.TrimSuffix(f.signature(c, nil), ";"), Doc: w.docs[c.Id()]})
		w.refs(w.f.field(c, "type"), idx)
	case "friend_declaration", "static_assert_declaration", "using_declaration", "namespace_alias_definition":
		w.refs(c, in)
	case ";", "{", "}":
	default:
		w.refs(c, in)
	}
	return access
}

// record handles a class, struct, union or enum specifier; with a body it
// is a definition (returned index), without one only a type reference.
func (w *cWalker) record(c *sitter.Node, parent string, in int, exported bool, stmt *sitter.Node) int {
	f := w.f
	body := w.f.field(c, "body")
	nameNode := w.f.field(c, "name")
	if body == nil {
		w.refs(nameNode, in)
		return 0
	}
	name := f.text(nameNode)
	if nameNode != nil && w.f.kind(nameNode) == "qualified_identifier" {
		name = strings.ReplaceAll(name, "::", ".")
	}
	if name == "" {
		name = "(anonymous)"
	}
	var kind string
	switch w.f.kind(c) {
	case "class_specifier":
		kind = world.KindClass
	case "struct_specifier", "union_specifier":
		kind = world.KindStruct
	case "enum_specifier":
		kind = world.KindEnum
	}
	at := c
	if stmt != nil {
		at = stmt
	}
	if p := w.f.parent(c); p != nil && w.f.kind(p) == "template_declaration" {
		at = p
	}
	d := world.Def{Name: lastSegment(name, "."), Qualified: qualify(parent, name), Parent: parent, Kind: kind,
		Start: line(c), End: w.f.endLine(c), Exported: exported, Signature: f.signature(c, body), Doc: w.docs[at.Id()]}
	idx := f.def(d)
	for _, ch := range w.f.named(c) {
		if w.f.kind(ch) == "base_class_clause" {
			w.refs(ch, idx)
		}
	}
	if kind == world.KindEnum {
		for _, e := range w.f.named(body) {
			if w.f.kind(e) != "enumerator" {
				continue
			}
			en := f.text(w.f.field(e, "name"))
			ei := f.def(world.Def{Name: en, Qualified: qualify(d.Qualified, en), Parent: d.Qualified, Kind: world.KindConst,
				Start: line(e), End: w.f.endLine(e), Exported: exported, Signature: foldSpace(f.text(e))})
			w.refs(w.f.field(e, "value"), ei)
		}
		return idx
	}
	access := "public"
	if w.f.kind(c) == "class_specifier" {
		access = "private"
	}
	if !exported {
		access = "private"
	}
	w.items(body, d.Qualified, idx, access)
	return idx
}

// declName returns the name a declarator declares and the scope path of a
// qualified name (ns::C::m gives "m", "ns.C").
func (w *cWalker) declName(n *sitter.Node) (name, scope string) {
	for n != nil {
		switch w.f.kind(n) {
		case "identifier", "field_identifier", "type_identifier", "primitive_type":
			return w.f.text(n), ""
		case "destructor_name", "operator_name", "operator_cast":
			return foldSpace(w.f.text(n)), ""
		case "template_function", "template_type":
			return w.declName(w.f.field(n, "name"))
		case "qualified_identifier":
			var segs []string
			for n != nil && w.f.kind(n) == "qualified_identifier" {
				if s := w.f.field(n, "scope"); s != nil {
					sn, _ := w.declName(s)
					if w.f.kind(s) == "namespace_identifier" {
						sn = w.f.text(s)
					}
					segs = append(segs, sn)
				}
				n = w.f.field(n, "name")
			}
			last, _ := w.declName(n)
			return last, strings.Join(segs, ".")
		case "structured_binding_declarator":
			return "", ""
		}
		d := w.f.field(n, "declarator")
		if d == nil {
			for _, ch := range w.f.named(n) {
				if strings.HasSuffix(w.f.kind(ch), "declarator") || w.f.kind(ch) == "identifier" || w.f.kind(ch) == "field_identifier" {
					d = ch
					break
				}
			}
		}
		n = d
	}
	return "", ""
}

// funcDeclarator finds the function declarator in a declarator chain.
func (f *file) funcDeclarator(n *sitter.Node) *sitter.Node {
	for n != nil {
		if f.kind(n) == "function_declarator" {
			return n
		}
		n = f.field(n, "declarator")
	}
	return nil
}

func (w *cWalker) isStatic(c *sitter.Node) bool {
	for r := range w.f.childRecs(c) {
		if w.f.recKind(r) == "storage_class_specifier" && w.f.textIs(&r.node, "static") {
			return true
		}
	}
	return false
}

// declarators yields n's children in the field "declarator".
func (w *cWalker) declarators(n *sitter.Node) iter.Seq[*sitter.Node] {
	return func(yield func(*sitter.Node) bool) {
		id := w.f.fieldID("declarator")
		if id == 0 {
			return
		}
		for r := range w.f.childRecs(n) {
			if r.field == id && !yield(&r.node) {
				return
			}
		}
	}
}

// function records a function or method definition (body non-nil) or
// prototype, with its references.
func (w *cWalker) function(c *sitter.Node, parent string, in int, access string, body *sitter.Node) {
	f := w.f
	decl := w.f.field(c, "declarator")
	fd := w.f.funcDeclarator(decl)
	name, scope := w.declName(decl)
	if name == "" {
		w.refs(c, in)
		return
	}
	qual := parent
	if scope != "" {
		qual = qualify(parent, scope)
	}
	kind := world.KindFunction
	if access != "" || scope != "" && f.lang.name == world.LangCPP {
		kind = world.KindMethod
	}
	exported := (!w.isStatic(c) || access != "") && w.hidden == 0
	if access != "" && access != "public" {
		exported = false
	}
	at := c
	if p := w.f.parent(c); p != nil && w.f.kind(p) == "template_declaration" {
		at = p
	}
	sig := f.signature(c, body)
	if body == nil {
		sig = strings.TrimSuffix(sig, ";")
	}
	d := world.Def{Name: name, Qualified: qualify(qual, name), Parent: qual, Kind: kind, Start: line(c), End: w.f.endLine(c),
		Exported: exported, Signature: sig, Doc: w.docs[at.Id()]}
	idx := f.def(d)
	f.elideBlock(body)
	w.loc.push()
	defer w.loc.pop()
	if fd != nil {
		w.bindParams(w.f.field(fd, "parameters"))
	}
	w.bindAll(body)
	w.refs(w.f.field(c, "type"), idx)
	if fd != nil {
		w.refs(w.f.field(fd, "parameters"), idx)
	}
	if fi := w.f.childOfKind(c, "field_initializer_list"); fi != nil {
		w.refs(fi, idx)
	}
	w.refs(body, idx)
}

// declaration handles a declaration or field declaration: prototypes,
// variables and fields, and any struct/enum defined in its type.
func (w *cWalker) declaration(c *sitter.Node, parent string, in int, access string) {
	f := w.f
	typ := w.f.field(c, "type")
	exported := !w.isStatic(c) && (access == "" || access == "public") && w.hidden == 0
	if typ != nil && w.f.field(typ, "body") != nil {
		w.record(typ, parent, in, exported, c)
	}
	decls := 0
	for ch := range w.declarators(c) {
		decls++
		if fd := w.f.funcDeclarator(ch); fd != nil && w.f.kind(ch) != "init_declarator" {
			w.function(c, parent, in, access, nil)
			return
		}
		name, scope := w.declName(ch)
		if name == "" {
			continue
		}
		parent := parent
		if scope != "" {
			parent = qualify(parent, scope)
		}
		kind := world.KindVar
		if access != "" {
			kind = world.KindField
		}
		var value *sitter.Node
		if w.f.kind(ch) == "init_declarator" {
			value = w.f.field(ch, "value")
		}
		if v := w.f.field(c, "default_value"); v != nil {
			value = v
		}
		sig := f.signature(c, value)
		if value == nil {
			sig = strings.TrimSuffix(sig, ";")
		} else {
			sig = strings.TrimSpace(strings.TrimSuffix(sig, "="))
		}
		if body := w.f.field(typ, "body"); body != nil {
			sig = foldSpace(string(f.src[startByte(c):startByte(body)]) + "{…} " + name)
		}
		idx := f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: kind, Start: line(c), End: w.f.endLine(c),
			Exported: exported, Signature: sig, Doc: w.docs[c.Id()]})
		f.elideInit(value)
		if w.f.field(typ, "body") == nil {
			w.refs(typ, idx)
		}
		w.refs(value, idx)
	}
	if decls == 0 && (typ == nil || w.f.field(typ, "body") == nil) {
		w.refs(c, in)
	}
}

func (w *cWalker) bindParams(p *sitter.Node) {
	for _, pd := range w.f.named(p) {
		if d := w.f.field(pd, "declarator"); d != nil {
			n, _ := w.declName(d)
			w.loc.add(n)
		}
	}
}

// bindAll adds the names declared anywhere in a body to the current frame.
func (w *cWalker) bindAll(body *sitter.Node) {
	if body == nil {
		return
	}
	w.f.walk(body, func(x *sitter.Node) bool {
		switch w.f.kind(x) {
		case "declaration", "for_range_loop", "condition_clause", "catch_clause":
			for ch := range w.declarators(x) {
				n, _ := w.declName(ch)
				w.loc.add(n)
				if w.f.kind(ch) == "structured_binding_declarator" {
					for _, id := range w.f.named(ch) {
						w.loc.add(w.f.text(id))
					}
				}
			}
		case "parameter_list":
			w.bindParams(x)
		case "lambda_capture_specifier":
			for _, id := range w.f.named(x) {
				if w.f.kind(id) == "identifier" {
					w.loc.add(w.f.text(id))
				}
			}
		}
		return true
	})
}

// refs records the references under n.
func (w *cWalker) refs(n *sitter.Node, in int) {
	if n == nil {
		return
	}
	f := w.f
	fid := f.fieldID("type")
	f.walkParent(n, func(x, p *sitter.Node, fld uint16) bool {
		switch w.f.kind(x) {
		case "identifier":
			if s := f.text(x); !w.loc.has(s) {
				kind := world.RefValue
				if p != nil && w.f.kind(p) == "call_expression" {
					kind = world.RefCall
				}
				f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: kind})
			}
			return false
		case "type_identifier":
			if s := f.text(x); !w.loc.has(s) {
				f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: world.RefType})
			}
			return false
		case "qualified_identifier":
			name, scope := w.declName(x)
			kind := world.RefValue
			if p != nil && w.f.kind(p) == "call_expression" {
				kind = world.RefCall
			} else if p == nil || w.f.kind(p) == "type_descriptor" || fld == fid || (strings.HasSuffix(w.f.kind(p), "declaration") || w.f.kind(p) == "template_argument_list") {
				kind = world.RefType
			}
			if name != "" {
				f.ref(world.Ref{Name: name, Qual: strings.ReplaceAll(scope, ".", "::"), Line: line(x), In: in, Kind: kind})
			}
			f.walk(x, func(y *sitter.Node) bool {
				if w.f.kind(y) == "template_argument_list" {
					w.refs(y, in)
					return false
				}
				return true
			})
			return false
		case "field_expression":
			fld := w.f.field(x, "field")
			arg := w.f.field(x, "argument")
			if fld != nil {
				r := world.Ref{Name: f.text(fld), Line: line(fld), In: in, Kind: world.RefMember}
				if arg != nil && (w.f.kind(arg) == "identifier" || w.f.kind(arg) == "this") {
					r.Qual = f.text(arg)
				}
				f.ref(r)
			}
			w.refs(arg, in)
			return false
		case "lambda_expression":
			w.loc.push()
			w.bindParams(w.f.field(w.f.field(x, "declarator"), "parameters"))
			w.bindAll(w.f.field(x, "body"))
			w.refs(w.f.field(x, "body"), in)
			w.loc.pop()
			return false
		case "string_literal", "raw_string_literal", "char_literal", "comment", "field_identifier", "primitive_type",
			"system_lib_string", "number_literal", "concatenated_string":
			return false
		}
		return true
	})
}

// paramTypes records the type references of the parameters in a
// declarator (function pointer typedefs), leaving parameter names out.
func (w *cWalker) paramTypes(decl *sitter.Node, in int) {
	if decl == nil {
		return
	}
	w.f.walk(decl, func(x *sitter.Node) bool {
		if w.f.kind(x) == "parameter_declaration" {
			w.refs(w.f.field(x, "type"), in)
			return false
		}
		return true
	})
}
