package extract

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	rust "github.com/tree-sitter/tree-sitter-rust/bindings/go"

	"github.com/git-speed/git-speed/layers/world"
)

// Rust: items (fn, struct, enum, union, trait, impl, mod, const, static,
// type, macro_rules), use / mod / extern crate imports, and references from
// signatures and bodies with let/param/pattern/closure bindings left out.

func init() {
	register(world.LangRust, sitter.NewLanguage(rust.Language()), "//", walkRust)
}

type rustWalker struct {
	f    *file
	loc  heldLocals // with the receiver chain (rustWalker.chain) a local holds
	docs map[uintptr]string
	// self is the type of self in the impl or trait being walked ("" outside).
	self string
	// inline counts the inline modules (mod tests { … }) around the walk:
	// a use's super:: inside one names the file's own module.
	inline int
}

// rustWrappers are the types whose value a receiver reaches through
// (Result<T, E> and Option<T> through ?, Box, Rc and Arc by deref).
var rustWrappers = map[string]bool{"Result": true, "Option": true, "Box": true, "Rc": true, "Arc": true}

// typeName names the type t denotes as written, without references,
// wrappers and type arguments (Config for &mut Config, Result<Config>
// or Box<Config>; a::Config for a::Config<T>); Self is the impl's type.
// A type parameter, a primitive, a tuple or a trait object give "".
func (w *rustWalker) typeName(t *sitter.Node) string {
	f := w.f
	for depth := 0; t != nil && depth < 8; depth++ {
		switch f.kind(t) {
		case "reference_type", "pointer_type":
			t = f.field(t, "type")
			continue
		case "dynamic_type", "abstract_type": // dyn Trait, impl Trait
			t = f.field(t, "trait")
			continue
		case "generic_type":
			base := f.field(t, "type")
			if n := f.text(base); rustWrappers[lastSegment(n, "::")] {
				t = f.namedChild(f.field(t, "type_arguments"), 0)
				continue
			}
			t = base
			continue
		case "type_identifier":
			n := f.text(t)
			if n == "Self" {
				return w.self
			}
			if w.loc.has(n) {
				return ""
			}
			return n
		case "scoped_type_identifier":
			return w.path(t)
		}
		return ""
	}
	return ""
}

// chain is the receiver n as a chain the resolver evaluates to a type:
// ":T" (self in an impl of T, a parameter or local declared T, T { … }),
// "f()" (what function f returns), and after them ">x" (field x) and
// ">m()" (what method m returns); "" when the code does not say.
func (w *rustWalker) chain(n *sitter.Node, depth int) string {
	f := w.f
	if n == nil || depth > 4 {
		return ""
	}
	switch f.kind(n) {
	case "self":
		if w.self != "" {
			return ":" + w.self
		}
	case "identifier":
		if s := f.text(n); w.loc.has(s) {
			return w.loc.held(s)
		}
	case "field_expression":
		if c := w.chain(f.field(n, "value"), depth+1); c != "" {
			return c + ">" + f.text(f.field(n, "field"))
		}
	case "call_expression":
		fn := f.field(n, "function")
		switch f.kind(fn) {
		case "field_expression":
			if c := w.chain(f.field(fn, "value"), depth+1); c != "" {
				return c + ">" + f.text(f.field(fn, "field")) + "()"
			}
		case "scoped_identifier":
			q := w.path(f.field(fn, "path"))
			if q == "Self" {
				q = w.self
			}
			switch {
			case q != "" && capitalised(lastSegment(q, "::")):
				return ":" + q + ">" + f.text(f.field(fn, "name")) + "()"
			case q != "" && !w.loc.has(rootName(strings.ReplaceAll(q, "::", "."))):
				return q + "::" + f.text(f.field(fn, "name")) + "()" // a module's function
			}
		case "identifier":
			if s := f.text(fn); !w.loc.has(s) {
				return s + "()"
			}
		}
	case "struct_expression":
		if t := f.field(n, "name"); t != nil {
			q := w.path(t)
			if q == "Self" {
				q = w.self
			}
			if q != "" {
				return ":" + q
			}
		}
	case "try_expression", "await_expression", "parenthesized_expression", "reference_expression", "unary_expression":
		return w.chain(f.namedChild(n, 0), depth)
	}
	return ""
}

func walkRust(f *file) {
	w := &rustWalker{f: f}
	w.docs = f.scanComments(func(k string) bool { return k == "line_comment" || k == "block_comment" }, rustIsAttr, nil, nil)
	w.items(f.root, "", 0, false)
	finishMore(f.facts)
}

func rustPub(f *file, n *sitter.Node) bool {
	v := f.childOfKind(n, "visibility_modifier")
	return v != nil && strings.HasPrefix(f.text(v), "pub")
}

func rustIsAttr(k string) bool {
	return k == "attribute_item" || k == "inner_attribute_item"
}

// items walks the items of a source file, module, impl or trait body.
// inImpl is true inside impl and trait bodies (functions are methods).
func (w *rustWalker) items(n *sitter.Node, parent string, in int, inImpl bool) {
	f := w.f
	for _, c := range w.f.named(n) {
		name := f.text(w.f.field(c, "name"))
		d := world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent,
			Start: line(c), End: w.f.endLine(c), Exported: rustPub(f, c)}
		doc := func() string { return w.docs[c.Id()] }
		switch w.f.kind(c) {
		case "use_declaration":
			from := len(f.facts.Imports)
			w.use(w.f.field(c, "argument"), "", line(c))
			if w.inline > 0 {
				for k := from; k < len(f.facts.Imports); k++ {
					f.facts.Imports[k].Path = rustInlineSuper(f.facts.Imports[k].Path, w.inline)
				}
			}
		case "extern_crate_declaration":
			imp := world.Import{Path: name, Line: line(c), Kind: "extern crate"}
			if a := w.f.field(c, "alias"); a != nil {
				imp.Alias = f.text(a)
			}
			f.imp(imp)
		case "mod_item":
			body := w.f.field(c, "body")
			if body == nil {
				f.imp(world.Import{Path: name, Line: line(c), Kind: "mod", Alias: w.pathAttr(n, c)})
				continue
			}
			d.Kind, d.Signature, d.Doc = world.KindModule, f.signature(c, body), doc()
			idx := f.def(d)
			w.inline++
			w.items(body, d.Qualified, idx, false)
			w.inline--
		case "function_item", "function_signature_item":
			body := w.f.field(c, "body")
			d.Kind = world.KindFunction
			if inImpl {
				d.Kind = world.KindMethod
				d.Exported = d.Exported || rustTraitContext(f, n)
			}
			d.Signature, d.Doc = f.signature(c, body), doc()
			d.Returns = w.typeName(w.f.field(c, "return_type"))
			idx := f.def(d)
			f.elideBlock(body)
			w.fn(c, idx)
		case "struct_item", "union_item", "enum_item":
			d.Kind = world.KindStruct
			if w.f.kind(c) == "enum_item" {
				d.Kind = world.KindEnum
			}
			body := w.f.field(c, "body")
			d.Signature, d.Doc = f.signature(c, body), doc()
			idx := f.def(d)
			w.loc.push()
			w.typeParams(w.f.field(c, "type_parameters"))
			w.fields(body, d.Qualified)
			w.refs(w.f.field(c, "type_parameters"), idx)
			w.refs(body, idx)
			w.refs(w.f.childOfKind(c, "where_clause"), idx)
			w.loc.pop()
		case "trait_item":
			body := w.f.field(c, "body")
			d.Kind, d.Signature, d.Doc = world.KindTrait, f.signature(c, body), doc()
			idx := f.def(d)
			w.loc.push()
			w.typeParams(w.f.field(c, "type_parameters"))
			w.refs(w.f.field(c, "bounds"), idx)
			outer := w.self
			w.self = name
			w.items(body, d.Qualified, idx, true)
			w.self = outer
			w.loc.pop()
		case "impl_item":
			typ := w.f.field(c, "type")
			name = rustTypeName(f, typ)
			body := w.f.field(c, "body")
			d.Name, d.Qualified, d.Kind = name, qualify(parent, name), world.KindModule
			d.Signature, d.Doc = f.signature(c, body), doc()
			d.Exported = false
			d.Returns = "impl"
			if tr := rustTypeName(f, w.f.field(c, "trait")); tr != "" {
				d.Returns = "impl:" + tr
			}
			idx := f.def(d)
			w.loc.push()
			w.typeParams(w.f.field(c, "type_parameters"))
			w.refs(w.f.field(c, "trait"), idx)
			w.refs(typ, idx)
			w.refs(w.f.childOfKind(c, "where_clause"), idx)
			outer := w.self
			w.self = name
			w.items(body, d.Qualified, idx, true)
			w.self = outer
			w.loc.pop()
		case "const_item", "static_item":
			d.Kind = world.KindConst
			if w.f.kind(c) == "static_item" {
				d.Kind = world.KindVar
			}
			v := w.f.field(c, "value")
			d.Signature, d.Doc = f.signature(c, v), doc()
			d.Signature = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(d.Signature, "=")), ";")
			idx := f.def(d)
			f.elideInit(v)
			w.refs(w.f.field(c, "type"), idx)
			w.refs(v, idx)
		case "type_item", "associated_type":
			d.Kind, d.Signature, d.Doc = world.KindType, strings.TrimSuffix(f.signature(c, nil), ";"), doc()
			idx := f.def(d)
			w.loc.push()
			w.typeParams(w.f.field(c, "type_parameters"))
			w.refs(w.f.field(c, "type"), idx)
			w.loc.pop()
		case "macro_definition":
			d.Kind, d.Doc = world.KindMacro, doc()
			nm := w.f.field(c, "name")
			if nm != nil {
				d.Signature = foldSpace(string(f.src[startByte(c):w.f.endByte(nm)]))
				f.elide(w.f.endByte(nm), w.f.endByte(c), " { … } // lines "+itoa(line(c))+"-"+itoa(w.f.endLine(c)))
			}
			f.def(d)
		case "attribute_item", "inner_attribute_item", "line_comment", "block_comment":
		case "declaration_list":
			w.items(c, parent, in, inImpl)
		default:
			w.refs(c, in)
		}
	}
}

// rustInlineSuper rewrites a use path written inside depth inline
// modules to the file's module: each super:: that leaves an inline
// module stays in the file (self::).
func rustInlineSuper(p string, depth int) string {
	n := 0
	for strings.HasPrefix(p, "super") && n < depth {
		rest := strings.TrimPrefix(p, "super")
		if rest != "" && !strings.HasPrefix(rest, "::") {
			break
		}
		p = strings.TrimPrefix(rest, "::")
		n++
	}
	if n == 0 || strings.HasPrefix(p, "super") {
		return p
	}
	if p == "" {
		return "self"
	}
	return "self::" + p
}

// rustTraitContext reports whether a body belongs to a trait or a trait impl,
// whose methods are as visible as the trait.
func rustTraitContext(f *file, body *sitter.Node) bool {
	p := body.Parent()
	if p == nil {
		return false
	}
	return f.kind(p) == "trait_item" && rustPub(f, p) || f.kind(p) == "impl_item" && f.field(p, "trait") != nil
}

// rustTypeName names the type of an impl: its base name without path or
// generic arguments.
func rustTypeName(f *file, n *sitter.Node) string {
	for n != nil {
		switch f.kind(n) {
		case "generic_type":
			n = f.field(n, "type")
			continue
		case "scoped_type_identifier":
			n = f.field(n, "name")
			continue
		case "reference_type", "pointer_type":
			n = f.field(n, "type")
			continue
		}
		return f.text(n)
	}
	return ""
}

func (w *rustWalker) typeParams(tp *sitter.Node) {
	for _, p := range w.f.named(tp) {
		switch w.f.kind(p) {
		case "type_parameter", "const_parameter":
			w.loc.add(w.f.text(w.f.field(p, "name")))
		case "type_identifier", "identifier":
			w.loc.add(w.f.text(p))
		case "constrained_type_parameter", "optional_type_parameter":
			if l := w.f.field(p, "left"); l != nil {
				w.loc.add(w.f.text(l))
			} else if l := w.f.field(p, "name"); l != nil {
				w.loc.add(w.f.text(l))
			}
		}
	}
}

// fn records the references of a function: its signature types and body,
// with parameters, generic parameters and local bindings left out.
func (w *rustWalker) fn(c *sitter.Node, idx int) {
	w.loc.push()
	defer w.loc.pop()
	w.typeParams(w.f.field(c, "type_parameters"))
	w.f.walk(c, func(n *sitter.Node) bool {
		switch w.f.kind(n) {
		case "parameter":
			p := w.f.field(n, "pattern")
			w.bind(p)
			if t := w.typeName(w.f.field(n, "type")); t != "" && w.f.kind(p) == "identifier" {
				w.loc.hold(w.f.text(p), ":"+t)
			}
		case "let_declaration":
			p := w.f.field(n, "pattern")
			w.bind(p)
			if w.f.kind(p) == "identifier" {
				if t := w.typeName(w.f.field(n, "type")); t != "" {
					w.loc.hold(w.f.text(p), ":"+t)
				} else {
					w.loc.hold(w.f.text(p), w.chain(w.f.field(n, "value"), 0))
				}
			}
		case "for_expression", "let_condition", "match_arm", "let_chain":
			w.bind(w.f.field(n, "pattern"))
		case "closure_parameters":
			for _, p := range w.f.named(n) {
				if w.f.kind(p) == "parameter" {
					w.bind(w.f.field(p, "pattern"))
				} else {
					w.bind(p)
				}
			}
		case "function_item":
			if n.Id() != c.Id() {
				w.loc.add(w.f.text(w.f.field(n, "name")))
			}
		}
		return true
	})
	w.refs(w.f.field(c, "parameters"), idx)
	w.refs(w.f.field(c, "return_type"), idx)
	w.refs(w.f.childOfKind(c, "where_clause"), idx)
	w.refs(w.f.field(c, "body"), idx)
}

// fields records the named fields of a struct or union body as
// definitions, each with its type in Returns.
func (w *rustWalker) fields(body *sitter.Node, parent string) {
	f := w.f
	if body == nil || f.kind(body) != "field_declaration_list" {
		return
	}
	for _, fd := range f.named(body) {
		if f.kind(fd) != "field_declaration" {
			continue
		}
		name := f.text(f.field(fd, "name"))
		if name == "" {
			continue
		}
		f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: world.KindField,
			Start: line(fd), End: f.endLine(fd), Exported: rustPub(f, fd), Signature: foldSpace(f.text(fd)),
			Returns: w.typeName(f.field(fd, "type"))})
	}
}

// pathAttr returns the file a #[path = "…"] attribute right before the
// module declaration m (a child of parent) names, or "".
func (w *rustWalker) pathAttr(parent, m *sitter.Node) string {
	f := w.f
	var prev *sitter.Node
	for _, c := range f.named(parent) {
		if c.Id() == m.Id() {
			break
		}
		prev = c
	}
	if prev == nil || f.kind(prev) != "attribute_item" {
		return ""
	}
	a := strings.TrimSpace(f.text(prev))
	a = strings.TrimSuffix(strings.TrimPrefix(a, "#["), "]")
	k, v, ok := strings.Cut(a, "=")
	if !ok || strings.TrimSpace(k) != "path" {
		return ""
	}
	return strings.Trim(strings.TrimSpace(v), `"`)
}

// bind adds the names a pattern binds to the current frame.
func (w *rustWalker) bind(p *sitter.Node) {
	if p == nil {
		return
	}
	switch w.f.kind(p) {
	case "identifier":
		if s := w.f.text(p); s != "" && !(s[0] >= 'A' && s[0] <= 'Z') {
			w.loc.add(s)
		}
		return
	case "shorthand_field_identifier":
		w.loc.add(w.f.text(p))
		return
	case "scoped_identifier", "type_identifier", "scoped_type_identifier":
		return
	}
	for i := uint(0); i < p.ChildCount(); i++ {
		if p.FieldNameForChild(uint32(i)) == "type" {
			continue
		}
		if ch := p.Child(i); ch != nil && ch.IsNamed() {
			if w.f.kind(p) == "field_pattern" && w.f.kind(ch) == "field_identifier" {
				continue
			}
			w.bind(ch)
		}
	}
}

// refs records the references under n.
func (w *rustWalker) refs(n *sitter.Node, in int) {
	if n == nil {
		return
	}
	f := w.f
	fid := f.fieldID("function")
	f.walkParent(n, func(x, p *sitter.Node, fld uint16) bool {
		switch w.f.kind(x) {
		case "identifier":
			if s := f.text(x); !w.loc.has(s) {
				kind := world.RefValue
				if p != nil && fld == fid && w.f.kind(p) == "call_expression" {
					kind = world.RefCall
				}
				f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: kind})
			}
			return false
		case "type_identifier":
			if s := f.text(x); !w.loc.has(s) && s != "Self" {
				f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: world.RefType})
			}
			return false
		case "scoped_identifier", "scoped_type_identifier":
			name := f.text(w.f.field(x, "name"))
			qual := w.path(w.f.field(x, "path"))
			kind := world.RefValue
			if w.f.kind(x) == "scoped_type_identifier" {
				kind = world.RefType
			} else if p != nil && (w.f.kind(p) == "call_expression" || w.f.kind(p) == "generic_function") {
				kind = world.RefCall
			}
			if qual == "" || !w.loc.has(strings.Split(qual, "::")[0]) {
				f.ref(world.Ref{Name: name, Qual: qual, Line: line(x), In: in, Kind: kind})
			}
			if p := w.f.field(x, "path"); p != nil && w.f.kind(p) == "generic_type" {
				w.refs(w.f.field(p, "type_arguments"), in)
			}
			return false
		case "field_expression":
			fld := w.f.field(x, "field")
			if fld != nil && w.f.kind(fld) == "field_identifier" {
				r := world.Ref{Name: f.text(fld), Line: line(fld), In: in, Kind: world.RefMember}
				v := w.f.field(x, "value")
				if c := w.chain(v, 0); c != "" {
					r.Qual = c
				} else if v != nil && (w.f.kind(v) == "identifier" || w.f.kind(v) == "self") {
					r.Qual = f.text(v)
				}
				f.ref(r)
			}
			w.refs(w.f.field(x, "value"), in)
			return false
		case "macro_invocation":
			m := w.f.field(x, "macro")
			if m != nil && w.f.kind(m) == "identifier" {
				f.ref(world.Ref{Name: f.text(m) + "!", Line: line(m), In: in, Kind: world.RefCall})
			} else if m != nil {
				f.ref(world.Ref{Name: f.text(w.f.field(m, "name")) + "!", Qual: w.path(w.f.field(m, "path")), Line: line(m), In: in, Kind: world.RefCall})
			}
			for _, ch := range w.f.named(x) {
				if w.f.kind(ch) == "token_tree" {
					w.refs(ch, in)
				}
			}
			return false
		case "field_identifier", "shorthand_field_identifier", "lifetime", "string_literal", "raw_string_literal",
			"char_literal", "line_comment", "block_comment", "primitive_type", "attribute_item":
			return false
		case "closure_expression":
			w.loc.push()
			w.bind(w.f.field(x, "parameters"))
			for _, p := range w.f.named(w.f.field(x, "parameters")) {
				if w.f.kind(p) == "parameter" {
					w.bind(w.f.field(p, "pattern"))
					w.refs(w.f.field(p, "type"), in)
				}
			}
			w.refs(w.f.field(x, "return_type"), in)
			w.refs(w.f.field(x, "body"), in)
			w.loc.pop()
			return false
		case "function_item":
			if x.Id() != n.Id() {
				w.loc.push()
				w.fn(x, in)
				w.loc.pop()
				return false
			}
		}
		return true
	})
}

// path returns a qualifying path as written, with generic arguments left out.
func (w *rustWalker) path(p *sitter.Node) string {
	if p == nil {
		return ""
	}
	if w.f.kind(p) == "generic_type" {
		return w.path(w.f.field(p, "type"))
	}
	if w.f.kind(p) == "scoped_identifier" || w.f.kind(p) == "scoped_type_identifier" {
		q := w.path(w.f.field(p, "path"))
		if q == "" {
			return w.f.text(w.f.field(p, "name"))
		}
		return q + "::" + w.f.text(w.f.field(p, "name"))
	}
	return foldSpace(w.f.text(p))
}

// use records the imports of one use tree under prefix.
func (w *rustWalker) use(n *sitter.Node, prefix string, ln int) {
	if n == nil {
		return
	}
	f := w.f
	join := func(a, b string) string {
		if a == "" {
			return b
		}
		if b == "" {
			return a
		}
		return a + "::" + b
	}
	switch w.f.kind(n) {
	case "use_as_clause":
		f.imp(world.Import{Path: join(prefix, w.path(w.f.field(n, "path"))), Alias: f.text(w.f.field(n, "alias")), Line: ln})
	case "use_wildcard":
		var p string
		for _, c := range w.f.named(n) {
			p = w.path(c)
		}
		f.imp(world.Import{Path: join(prefix, p), Alias: "*", Line: ln})
	case "scoped_use_list":
		w.useList(w.f.field(n, "list"), join(prefix, w.path(w.f.field(n, "path"))), ln)
	case "use_list":
		w.useList(n, prefix, ln)
	default:
		f.imp(world.Import{Path: join(prefix, w.path(n)), Line: ln})
	}
}

// useList records a group import: simple names go to Names of one import,
// aliases, globs and nested paths get imports of their own.
func (w *rustWalker) useList(list *sitter.Node, prefix string, ln int) {
	imp := world.Import{Path: prefix, Line: ln}
	for _, c := range w.f.named(list) {
		switch w.f.kind(c) {
		case "identifier", "self", "crate", "super":
			imp.Names = append(imp.Names, w.f.text(c))
		case "line_comment", "block_comment":
		default:
			w.use(c, prefix, ln)
		}
	}
	if len(imp.Names) > 0 {
		w.f.imp(imp)
	}
}
