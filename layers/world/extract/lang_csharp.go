package extract

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	csharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"

	"github.com/git-speed/git-speed/layers/world"
)

// C#: usings (static, aliases), namespaces (block and file-scoped, as
// Facts.Package and a module definition), classes, structs, interfaces,
// records, enums, delegates, methods, constructors, properties, indexers,
// fields, constants and events, and references from bodies with
// parameters, locals, pattern, catch, foreach and lambda variables left out.
// Member qualified names do not include the namespace (as in Java).

func init() {
	register(world.LangCSharp, sitter.NewLanguage(csharp.Language()), "//", walkCSharp)
}

type csWalker struct {
	f    *file
	loc  locals
	docs map[uintptr]string
}

func walkCSharp(f *file) {
	w := &csWalker{f: f}
	w.docs = f.scanComments(func(k string) bool { return k == "comment" }, nil, w.docText, w.cutComment)
	w.members(f.root, "", 0, false, "")
	finishMore(f.facts)
}

var csTypeKinds = map[string]string{
	"class_declaration": world.KindClass, "struct_declaration": world.KindStruct, "interface_declaration": world.KindInterface,
	"record_declaration": "record", "record_struct_declaration": "record", "enum_declaration": world.KindEnum,
}

func (w *csWalker) visibility(n *sitter.Node, def bool) bool {
	pub := def
	for _, c := range w.f.named(n) {
		if w.f.kind(c) != "modifier" {
			continue
		}
		switch w.f.text(c) {
		case "public", "protected":
			pub = true
		case "private", "internal":
			pub = false
		}
	}
	return pub
}

// docText is the doc line of a comment block: the first line that says
// something beyond XML tags.
func (w *csWalker) docText(block []*sitter.Node) string {
	for _, c := range block {
		if s := strings.TrimSpace(stripTags(docLine(w.f.text(c)))); s != "" {
			return s
		}
	}
	return ""
}

// stripTags removes <tag> markup from a doc line.
func stripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>' && in:
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// members walks declarations of a compilation unit, namespace or type body.
func (w *csWalker) members(n *sitter.Node, parent string, in int, iface bool, ns string) {
	f := w.f
	for _, c := range w.f.named(n) {
		name := f.text(w.f.field(c, "name"))
		d := world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Start: line(c), End: w.f.endLine(c),
			Exported: w.visibility(c, iface), Doc: w.docs[c.Id()]}
		k := w.f.kind(c)
		switch {
		case k == "using_directive":
			imp := world.Import{Line: line(c)}
			alias := w.f.field(c, "name")
			for _, ch := range w.f.all(c) {
				switch {
				case w.f.kind(ch) == "static":
					imp.Kind = "static"
				case ch.IsNamed() && (alias == nil || ch.Id() != alias.Id()) && w.f.kind(ch) != "comment":
					imp.Path = foldSpace(f.text(ch))
				}
			}
			if alias != nil {
				imp.Alias = f.text(alias)
			}
			f.imp(imp)
		case k == "namespace_declaration" || k == "file_scoped_namespace_declaration":
			full := qualify(ns, name)
			if f.facts.Package == "" {
				f.facts.Package = full
			}
			body := w.f.field(c, "body")
			d.Name, d.Qualified, d.Parent, d.Kind, d.Exported = full, full, "", world.KindModule, true
			d.Signature = strings.TrimSuffix(f.signature(c, body), ";")
			idx := f.def(d)
			if body != nil {
				w.members(body, parent, idx, false, full)
			} else {
				in = idx // file-scoped: the rest of the file is in it
			}
		case csTypeKinds[k] != "":
			body := w.f.field(c, "body")
			d.Kind, d.Signature = csTypeKinds[k], strings.TrimSuffix(f.signature(c, body), ";")
			idx := f.def(d)
			w.loc.push()
			w.typeParams(c)
			for _, ch := range w.f.named(c) {
				switch w.f.kind(ch) {
				case "base_list", "type_parameter_constraints_clause", "attribute_list":
					w.refs(ch, idx, true)
				case "parameter_list":
					for _, p := range w.f.named(ch) {
						w.refs(w.f.field(p, "type"), idx, true)
					}
				}
			}
			if k == "enum_declaration" {
				for _, m := range w.f.named(body) {
					if w.f.kind(m) == "enum_member_declaration" {
						mn := f.text(w.f.field(m, "name"))
						f.def(world.Def{Name: mn, Qualified: qualify(d.Qualified, mn), Parent: d.Qualified, Kind: world.KindConst,
							Start: line(m), End: w.f.endLine(m), Exported: d.Exported, Signature: foldSpace(f.text(m))})
					}
				}
			} else {
				w.members(body, d.Qualified, idx, k == "interface_declaration", ns)
			}
			w.loc.pop()
		case k == "method_declaration" || k == "constructor_declaration" || k == "destructor_declaration" ||
			k == "operator_declaration" || k == "conversion_operator_declaration":
			body := w.f.field(c, "body")
			d.Kind = world.KindMethod
			if k == "destructor_declaration" {
				d.Name, d.Qualified = "~"+name, qualify(parent, "~"+name)
			}
			if k == "operator_declaration" || k == "conversion_operator_declaration" {
				d.Name = "operator " + f.text(w.f.field(c, "operator"))
				if k == "conversion_operator_declaration" {
					d.Name = "operator " + f.text(w.f.field(c, "type"))
				}
				d.Qualified = qualify(parent, d.Name)
			}
			d.Signature = strings.TrimSuffix(f.signature(c, body), ";")
			idx := f.def(d)
			w.elide(body)
			w.function(c, idx)
		case k == "property_declaration" || k == "indexer_declaration" || k == "event_declaration":
			d.Kind = world.KindProperty
			if k == "indexer_declaration" {
				d.Name, d.Qualified = "this[]", qualify(parent, "this[]")
			}
			if k == "event_declaration" {
				d.Kind = "event"
			}
			acc := w.f.field(c, "accessors")
			v := w.f.field(c, "value")
			end := acc
			if end == nil {
				end = v
			}
			d.Signature = f.signature(c, end)
			if acc != nil {
				d.Signature += " " + w.accessors(acc)
			}
			idx := f.def(d)
			for _, a := range w.f.named(acc) {
				w.elide(w.f.field(a, "body"))
			}
			if v != nil && w.f.kind(v) == "arrow_expression_clause" {
				w.elide(v)
			} else {
				f.elideInit(v)
			}
			w.function(c, idx)
		case k == "field_declaration" || k == "event_field_declaration":
			vd := w.f.childOfKind(c, "variable_declaration")
			typ := w.f.field(vd, "type")
			kind := world.KindField
			if k == "event_field_declaration" {
				kind = "event"
			}
			for _, ch := range w.f.named(c) {
				if w.f.kind(ch) == "modifier" && f.text(ch) == "const" {
					kind = world.KindConst
				}
			}
			for _, decl := range w.f.named(vd) {
				if w.f.kind(decl) != "variable_declarator" {
					continue
				}
				dd := d
				dd.Name = f.text(w.f.field(decl, "name"))
				dd.Qualified, dd.Kind = qualify(parent, dd.Name), kind
				var val *sitter.Node
				for _, ch := range w.f.named(decl) {
					if w.f.field(decl, "name") == nil || ch.Id() != w.f.field(decl, "name").Id() {
						val = ch
					}
				}
				dd.Signature = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(f.signature(c, val), ";"), "="))
				idx := f.def(dd)
				f.elideInit(val)
				w.refs(typ, idx, true)
				w.loc.push()
				w.bindAll(val)
				w.refs(val, idx, false)
				w.loc.pop()
			}
		case k == "delegate_declaration":
			d.Kind = world.KindType
			d.Signature = strings.TrimSuffix(f.signature(c, nil), ";")
			idx := f.def(d)
			w.function(c, idx)
		case k == "declaration_list":
			w.members(c, parent, in, iface, ns)
		case k == "comment" || k == "extern_alias_directive":
		case k == "global_statement" || k == "global_attribute":
			w.loc.push()
			w.bindAll(c)
			w.refs(c, in, false)
			w.loc.pop()
		default:
			w.refs(c, in, false)
		}
	}
}

// accessors summarises an accessor list as "{ get; set; }".
func (w *csWalker) accessors(acc *sitter.Node) string {
	var parts []string
	for _, a := range w.f.named(acc) {
		if w.f.kind(a) == "accessor_declaration" {
			s := ""
			for _, m := range w.f.named(a) {
				if w.f.kind(m) == "modifier" {
					s += w.f.text(m) + " "
				}
			}
			parts = append(parts, s+w.f.text(w.f.field(a, "name"))+";")
		}
	}
	return "{ " + strings.Join(parts, " ") + " }"
}

// elide leaves a block or expression body out of the skeleton.
func (w *csWalker) elide(body *sitter.Node) {
	if body == nil {
		return
	}
	if w.f.kind(body) == "arrow_expression_clause" {
		if w.f.endByte(body)-startByte(body) > maxInit || line(body) != w.f.endLine(body) {
			w.f.elide(startByte(body), w.f.endByte(body), "=> …")
		}
		return
	}
	w.f.elideBlock(body)
}

func (w *csWalker) typeParams(c *sitter.Node) {
	for _, tp := range w.f.named(w.f.childOfKind(c, "type_parameter_list")) {
		w.loc.add(w.f.text(w.f.field(tp, "name")))
	}
}

// function records the references of a member with parameters and a body.
func (w *csWalker) function(c *sitter.Node, idx int) {
	w.loc.push()
	defer w.loc.pop()
	w.typeParams(c)
	w.bindAll(c)
	for i, ch := range w.f.all(c) {
		fn := c.FieldNameForChild(uint32(i))
		switch {
		case fn == "name" || w.f.kind(ch) == "modifier" || w.f.kind(ch) == "comment":
		case fn == "type" || fn == "returns":
			w.refs(ch, idx, true)
		case w.f.kind(ch) == "parameter_list" || w.f.kind(ch) == "bracketed_parameter_list":
			for _, p := range w.f.named(ch) {
				w.refs(w.f.field(p, "type"), idx, true)
				w.refs(w.f.field(p, "default_value"), idx, false)
			}
		default:
			w.refs(ch, idx, false)
		}
	}
}

// bindAll adds every name bound under n to the current frame.
func (w *csWalker) bindAll(n *sitter.Node) {
	if n == nil {
		return
	}
	f := w.f
	f.walk(n, func(x *sitter.Node) bool {
		switch w.f.kind(x) {
		case "variable_declarator", "parameter", "catch_declaration", "declaration_pattern", "local_function_statement",
			"declaration_expression", "from_clause", "let_clause", "join_clause", "query_continuation":
			if nm := w.f.field(x, "name"); nm != nil && w.f.kind(nm) == "identifier" {
				w.loc.add(f.text(nm))
			}
			for _, ch := range w.f.named(x) {
				if w.f.kind(ch) == "identifier" && w.f.kind(x) != "parameter" && w.f.kind(x) != "variable_declarator" &&
					(w.f.kind(x) == "from_clause" || w.f.kind(x) == "let_clause" || w.f.kind(x) == "join_clause" || w.f.kind(x) == "query_continuation") {
					w.loc.add(f.text(ch))
				}
			}
		case "foreach_statement":
			if l := w.f.field(x, "left"); l != nil && w.f.kind(l) == "identifier" {
				w.loc.add(f.text(l))
			}
		case "implicit_parameter", "single_variable_designation":
			w.loc.add(f.text(x))
		}
		return true
	})
}

// refs records the references under n; typ is true in a type position.
func (w *csWalker) refs(n *sitter.Node, in int, typ bool) {
	if n == nil {
		return
	}
	f := w.f
	switch w.f.kind(n) {
	case "identifier":
		s := f.text(n)
		if typ {
			if !w.loc.has(s) {
				f.ref(world.Ref{Name: s, Line: line(n), In: in, Kind: world.RefType})
			}
		} else if !w.loc.has(s) {
			f.ref(world.Ref{Name: s, Line: line(n), In: in, Kind: world.RefValue})
		}
		return
	case "qualified_name":
		name := w.f.field(n, "name")
		nm := name
		if nm != nil && w.f.kind(nm) == "generic_name" {
			nm = w.f.childOfKind(nm, "identifier")
			w.refs(w.f.childOfKind(name, "type_argument_list"), in, true)
		}
		f.ref(world.Ref{Name: f.text(nm), Qual: foldSpace(f.text(w.f.field(n, "qualifier"))), Line: line(n), In: in, Kind: world.RefType})
		return
	case "generic_name":
		w.refs(w.f.childOfKind(n, "identifier"), in, typ)
		w.refs(w.f.childOfKind(n, "type_argument_list"), in, true)
		return
	case "invocation_expression":
		fn := w.f.field(n, "function")
		if fn != nil && w.f.kind(fn) == "identifier" {
			if s := f.text(fn); !w.loc.has(s) {
				f.ref(world.Ref{Name: s, Line: line(fn), In: in, Kind: world.RefCall})
			}
		} else if fn != nil && w.f.kind(fn) == "member_access_expression" {
			w.member(fn, in, true)
		} else if fn != nil && w.f.kind(fn) == "generic_name" {
			if id := w.f.childOfKind(fn, "identifier"); id != nil && !w.loc.has(f.text(id)) {
				f.ref(world.Ref{Name: f.text(id), Line: line(fn), In: in, Kind: world.RefCall})
			}
			w.refs(w.f.childOfKind(fn, "type_argument_list"), in, true)
		} else {
			w.refs(fn, in, false)
		}
		w.refs(w.f.field(n, "arguments"), in, false)
		return
	case "member_access_expression":
		w.member(n, in, false)
		return
	case "member_binding_expression":
		if nm := w.f.field(n, "name"); nm != nil {
			f.ref(world.Ref{Name: f.text(nm), Line: line(nm), In: in, Kind: world.RefMember})
		}
		return
	case "object_creation_expression", "array_creation_expression", "cast_expression", "typeof_expression",
		"default_expression", "sizeof_expression", "is_expression", "as_expression", "declaration_pattern",
		"type_pattern", "variable_declaration", "catch_declaration", "foreach_statement", "local_function_statement",
		"attribute", "declaration_expression", "recursive_pattern":
		for i, ch := range w.f.all(n) {
			fn := n.FieldNameForChild(uint32(i))
			switch {
			case fn == "type" || w.f.kind(n) == "attribute" && fn == "name" || w.f.kind(n) == "cast_expression" && fn == "type":
				w.refs(ch, in, true)
			case fn == "name" || fn == "left" && w.f.kind(n) == "foreach_statement":
			default:
				if ch.IsNamed() {
					w.refs(ch, in, w.f.kind(n) == "as_expression" && fn == "right" || w.f.kind(n) == "is_expression" && fn == "right")
				}
			}
		}
		return
	case "lambda_expression", "anonymous_method_expression":
		w.loc.push()
		w.bindAll(n)
		for _, ch := range w.f.named(n) {
			if w.f.kind(ch) == "parameter_list" {
				for _, p := range w.f.named(ch) {
					w.refs(w.f.field(p, "type"), in, true)
				}
				continue
			}
			w.refs(ch, in, false)
		}
		w.loc.pop()
		return
	case "base_list", "type_argument_list", "type_parameter_constraints_clause", "type_parameter_constraint",
		"array_type", "nullable_type", "pointer_type", "tuple_type", "ref_type", "type_constraint":
		typ = true
	case "string_literal", "verbatim_string_literal", "raw_string_literal", "comment", "character_literal",
		"predefined_type", "implicit_type", "modifier", "interpolated_string_expression":
		if w.f.kind(n) != "interpolated_string_expression" {
			return
		}
	case "parameter":
		w.refs(w.f.field(n, "type"), in, true)
		for _, ch := range w.f.named(n) {
			if w.f.kind(ch) == "equals_value_clause" {
				w.refs(ch, in, false)
			}
		}
		return
	case "tuple_element":
		w.refs(w.f.field(n, "type"), in, true)
		return
	}
	for _, ch := range w.f.named(n) {
		w.refs(ch, in, typ)
	}
}

// member records a member access a.b: a type-like qualifier (Type.m)
// makes a qualified reference, a value makes a member reference.
func (w *csWalker) member(n *sitter.Node, in int, call bool) {
	f := w.f
	expr := w.f.field(n, "expression")
	name := w.f.field(n, "name")
	if name != nil && w.f.kind(name) == "generic_name" {
		w.refs(w.f.childOfKind(name, "type_argument_list"), in, true)
		name = w.f.childOfKind(name, "identifier")
	}
	r := world.Ref{Name: f.text(name), Line: line(n), In: in, Kind: world.RefMember}
	if name != nil {
		r.Line = line(name)
	}
	if expr != nil {
		s := foldSpace(f.text(expr))
		switch w.f.kind(expr) {
		case "this", "base":
			r.Qual = s
		case "identifier", "member_access_expression", "qualified_name":
			if csAllTypeLike(s) && !w.loc.has(strings.Split(s, ".")[0]) {
				r.Qual = s
				r.Kind = world.RefValue
				if call {
					r.Kind = world.RefCall
				}
			} else if w.f.kind(expr) == "identifier" {
				r.Qual = s
			}
		}
		if w.f.kind(expr) == "member_access_expression" {
			w.member(expr, in, false)
		} else {
			w.refs(expr, in, false)
		}
	}
	f.ref(r)
}

func csTypeLike(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

// csAllTypeLike reports whether every segment of a dotted name starts with
// an upper-case letter (Namespace.Type, Type.Nested).
func csAllTypeLike(s string) bool {
	for _, seg := range strings.Split(s, ".") {
		if !csTypeLike(seg) || strings.ContainsAny(seg, "()[]<> ") {
			return false
		}
	}
	return true
}

// cutComment cuts the comment kids[i] out of the skeleton; of a /// doc
// block right above a declaration it keeps the first line that says
// something beyond XML tags.
func (w *csWalker) cutComment(kids []*sitter.Node, kinds []string, i int) {
	f := w.f
	isDoc := func(j int) bool {
		return j >= 0 && j < len(kids) && kinds[j] == "comment" && strings.HasPrefix(f.text(kids[j]), "///")
	}
	if !isDoc(i) {
		f.cutCommentAt(kids, kinds, i)
		return
	}
	if isDoc(i-1) && line(kids[i])-w.f.endLine(kids[i-1]) <= 1 {
		return // cut with the head of its block
	}
	last := i
	for isDoc(last+1) && line(kids[last+1])-w.f.endLine(kids[last]) <= 1 {
		last++
	}
	keep := -1
	if next := last + 1; next < len(kids) && kids[next].IsNamed() && kinds[next] != "comment" && line(kids[next])-w.f.endLine(kids[last]) <= 1 {
		for j := i; j <= last; j++ {
			if strings.TrimSpace(stripTags(docLine(f.text(kids[j])))) != "" {
				keep = j
				break
			}
		}
	}
	for j := i; j <= last; j++ {
		if j != keep {
			f.cutLine(kids[j])
		}
	}
}
