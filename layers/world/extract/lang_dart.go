package extract

import (
	"strings"

	dart "github.com/UserNobody14/tree-sitter-dart/bindings/go"
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/git-speed/git-speed/layers/world"
)

// Dart: library name, imports, exports and parts (prefix, show names),
// classes, mixins, enums (with their values), extensions, type aliases,
// functions, methods, getters, setters, operators, constructors (named and
// factory) and fields; names starting with "_" are private. References:
// calls, types (prefixed ones too), member and qualified selections and
// cascades, with parameters, locals, closure parameters and catch
// variables left out.
//
// The grammar lays a declaration out as siblings (a signature, then its
// body; the words and names of a variable declaration up to ";") and a
// selector chain a.b(c).d as a primary followed by selectors; the walker
// groups them.

func init() {
	register(world.LangDart, sitter.NewLanguage(dart.Language()), "//", walkDart)
}

type dartWalker struct {
	f    *file
	loc  locals
	docs map[uintptr]string

	prefixes map[string]bool // import prefixes: "http" of import '…' as http
}

func isDartComment(k string) bool {
	return k == "comment" || k == "documentation_comment"
}

func walkDart(f *file) {
	w := &dartWalker{f: f, prefixes: map[string]bool{}}
	w.docs = f.scanComments(isDartComment, func(k string) bool { return k == "annotation" }, nil, f.cutInlineComment)
	w.members(f.root, "", 0, false)
	finishMore(f.facts)
}

// members walks the declarations of a program or a class, mixin or
// extension body, grouping the siblings of each declaration.
func (w *dartWalker) members(n *sitter.Node, parent string, in int, inType bool) {
	f := w.f
	ks := f.all(n)
	var group []*sitter.Node // siblings of a variable declaration up to ";"
	flush := func() {
		if len(group) > 0 {
			w.variables(group, parent, in, inType)
			group = nil
		}
	}
	for i := 0; i < len(ks); i++ {
		c := ks[i]
		switch k := f.kind(c); k {
		case "comment", "documentation_comment", "{", "}", "enum_constant", ",":
		case "library_name":
			if d := f.childOfKind(c, "dotted_identifier_list"); d != nil {
				f.facts.Package = f.text(d)
			}
		case "import_or_export", "part_directive":
			w.directive(c)
		case "annotation":
			w.refs(c, in)
		case "class_definition", "mixin_declaration", "enum_declaration", "extension_declaration", "extension_type_declaration":
			flush()
			w.typeDecl(c, parent, in)
		case "type_alias":
			flush()
			name := f.childOfKind(c, "type_identifier", "identifier")
			if nm := f.field(c, "name"); nm != nil {
				name = nm
			}
			d := world.Def{Name: f.text(name), Kind: world.KindType, Parent: parent, Start: line(c), End: f.endLine(c),
				Signature: strings.TrimSuffix(foldSpace(f.text(c)), ";"), Doc: w.docs[c.Id()]}
			d.Qualified, d.Exported = qualify(parent, d.Name), !strings.HasPrefix(d.Name, "_")
			idx := f.def(d)
			w.loc.push()
			w.bindTypeParams(c)
			for _, k := range f.named(c) {
				if name == nil || k.Id() != name.Id() {
					w.refs(k, idx)
				}
			}
			w.loc.pop()
		case "function_signature", "getter_signature", "setter_signature", "method_signature", "declaration":
			flush()
			var body *sitter.Node
			if i+1 < len(ks) && f.kind(ks[i+1]) == "function_body" {
				body = ks[i+1]
				i++
			}
			w.function(c, body, parent, in, inType)
		case ";":
			if len(group) > 0 {
				group = append(group, c)
			}
			flush()
		default:
			if c.IsNamed() || len(group) > 0 {
				group = append(group, c)
			}
		}
	}
	flush()
}

// directive records an import, export or part.
func (w *dartWalker) directive(c *sitter.Node) {
	f := w.f
	imp := world.Import{Line: line(c)}
	f.walk(c, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "library_export":
			imp.Kind = "export"
		case "part_directive":
			imp.Kind = "part"
		case "uri":
			if imp.Path == "" {
				imp.Path = strings.Trim(f.text(x), `'"`)
			}
			return false
		case "identifier":
			if imp.Alias == "" {
				imp.Alias = f.text(x)
			}
		case "combinator":
			for _, id := range f.named(x) {
				if f.kind(id) == "identifier" {
					imp.Names = append(imp.Names, f.text(id))
				}
			}
			return false
		}
		return true
	})
	if imp.Path != "" {
		f.imp(imp)
		if imp.Alias != "" {
			w.prefixes[imp.Alias] = true
		}
	}
}

// typeDecl records a class, mixin, enum or extension and walks its body.
func (w *dartWalker) typeDecl(c *sitter.Node, parent string, in int) {
	f := w.f
	body := f.field(c, "body")
	if body == nil {
		body = f.childOfKind(c, "class_body", "enum_body", "extension_body")
	}
	nameNode := f.field(c, "name")
	if nameNode == nil {
		nameNode = f.childOfKind(c, "identifier")
	}
	d := world.Def{Name: f.text(nameNode), Parent: parent, Start: line(c), End: f.endLine(c),
		Signature: f.signature(c, body), Doc: w.docs[c.Id()]}
	switch f.kind(c) {
	case "mixin_declaration":
		d.Kind = "mixin"
	case "enum_declaration":
		d.Kind = world.KindEnum
	case "extension_declaration", "extension_type_declaration":
		d.Kind = "extension"
	default:
		d.Kind = world.KindClass
		if strings.HasPrefix(d.Signature, "abstract ") || strings.Contains(d.Signature, " interface class ") {
			d.Kind = world.KindClass
		}
	}
	if d.Name == "" {
		d.Name = "extension"
	}
	d.Qualified, d.Exported = qualify(parent, d.Name), !strings.HasPrefix(d.Name, "_")
	idx := f.def(d)
	w.loc.push()
	w.bindTypeParams(c)
	for _, k := range f.named(c) {
		if (nameNode == nil || k.Id() != nameNode.Id()) && (body == nil || k.Id() != body.Id()) {
			w.refs(k, idx)
		}
	}
	if f.kind(c) == "enum_declaration" {
		for _, k := range f.named(body) {
			if f.kind(k) == "enum_constant" {
				nm := f.field(k, "name")
				if nm == nil {
					nm = f.childOfKind(k, "identifier")
				}
				name := f.text(nm)
				f.def(world.Def{Name: name, Qualified: qualify(d.Qualified, name), Parent: d.Qualified, Kind: world.KindConst,
					Start: line(k), End: f.endLine(k), Exported: d.Exported, Signature: foldSpace(f.text(k)), Doc: w.docs[k.Id()]})
				for _, x := range f.named(k) {
					if nm == nil || x.Id() != nm.Id() {
						w.refs(x, idx)
					}
				}
			}
		}
		w.members(body, d.Qualified, idx, true)
	} else {
		w.members(body, d.Qualified, idx, true)
	}
	w.loc.pop()
}

func (w *dartWalker) bindTypeParams(c *sitter.Node) {
	f := w.f
	for _, tp := range f.named(f.childOfKind(c, "type_parameters")) {
		if id := f.childOfKind(tp, "type_identifier", "identifier"); id != nil {
			w.loc.add(f.text(id))
		}
	}
}

// function records a function, method, getter, setter, operator or
// constructor from its signature (or a class's declaration node) and body.
func (w *dartWalker) function(sig, body *sitter.Node, parent string, in int, inType bool) {
	f := w.f
	inner := sig
	if f.kind(sig) == "method_signature" || f.kind(sig) == "declaration" {
		for _, k := range f.named(sig) {
			if strings.HasSuffix(f.kind(k), "_signature") {
				inner = k
				break
			}
		}
	}
	if f.kind(inner) == "declaration" { // fields, or a redirecting constructor
		var group []*sitter.Node
		group = append(group, f.all(inner)...)
		w.variables(group, parent, in, inType)
		return
	}
	d := world.Def{Parent: parent, Start: line(sig), End: f.endLine(sig), Doc: w.docs[sig.Id()]}
	if body != nil {
		d.End = f.endLine(body)
	}
	d.Kind = world.KindFunction
	if inType {
		d.Kind = world.KindMethod
	}
	switch f.kind(inner) {
	case "constructor_signature", "factory_constructor_signature", "redirecting_factory_constructor_signature", "constant_constructor_signature":
		var parts []string
		for _, k := range f.named(inner) {
			if f.kind(k) == "identifier" {
				parts = append(parts, f.text(k))
			}
		}
		d.Name = strings.Join(parts, ".")
		if len(parts) > 1 && parts[0] == lastSegment(parent, ".") {
			d.Name = strings.Join(parts[1:], ".")
		}
	case "operator_signature":
		if op := f.childOfKind(inner, "binary_operator", "tilde_operator"); op != nil {
			d.Name = "operator " + f.text(op)
		} else {
			d.Name = "operator"
		}
	default:
		nm := f.field(inner, "name")
		if nm == nil {
			nm = f.childOfKind(inner, "identifier")
		}
		d.Name = f.text(nm)
		if f.kind(inner) == "getter_signature" || f.kind(inner) == "setter_signature" {
			d.Kind = world.KindProperty
		}
	}
	if d.Name == "" {
		d.Name = lastSegment(parent, ".")
	}
	d.Qualified, d.Exported = qualify(parent, d.Name), !strings.HasPrefix(d.Name, "_")
	d.Signature = strings.TrimSuffix(foldSpace(f.text(sig)), ";")
	idx := f.def(d)
	w.elideDartBody(body)
	w.loc.push()
	w.bindTypeParams(inner)
	w.bindAll(sig)
	w.bindAll(body)
	for _, k := range f.named(inner) {
		switch f.kind(k) {
		case "identifier":
		case "formal_parameter_list":
			w.params(k, idx)
		default:
			w.refs(k, idx)
		}
	}
	if inner.Id() != sig.Id() {
		for _, k := range f.named(sig) {
			if k.Id() != inner.Id() {
				w.refs(k, idx)
			}
		}
	}
	w.refs(body, idx)
	w.loc.pop()
}

// elideDartBody elides a block body, or a long "=> expr;" body to "=> …;".
func (w *dartWalker) elideDartBody(body *sitter.Node) {
	f := w.f
	if body == nil {
		return
	}
	if b := f.childOfKind(body, "block"); b != nil {
		f.elideBlock(b)
		return
	}
	s, e := startByte(body), f.endByte(body)
	t := f.text(body)
	if !strings.HasPrefix(t, "=>") {
		return
	}
	s += 2
	for s < e && (f.src[s] == ' ' || f.src[s] == '\n' || f.src[s] == '\t' || f.src[s] == '\r') {
		s++
	}
	if e > s && f.src[e-1] == ';' {
		e--
	}
	if e-s > maxInit || f.lineOfByte(s) != f.lineOfByte(e) {
		f.elide(s, e, "…")
	}
}

// params walks a parameter list: types and default values refer, names
// are bound.
func (w *dartWalker) params(pl *sitter.Node, in int) {
	f := w.f
	f.walk(pl, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "identifier", "constructor_param", "super_formal_parameter":
			return false
		case "type_identifier", "type_arguments", "function_type":
			w.refs(x, in)
			return false
		case "decimal_integer_literal", "string_literal":
			return false
		}
		if x.Id() != pl.Id() && f.kind(x) != "formal_parameter" && f.kind(x) != "optional_formal_parameters" &&
			strings.HasSuffix(f.kind(x), "expression") {
			w.refs(x, in)
			return false
		}
		return true
	})
}

// variables records the fields, top-level variables and constants named in
// one declaration's siblings (final/const words, a type, names and values).
func (w *dartWalker) variables(group []*sitter.Node, parent string, in int, inType bool) {
	f := w.f
	if len(group) == 0 {
		return
	}
	first, last := group[0], group[len(group)-1]
	constant := false
	var typeEnd uint
	for _, g := range group {
		switch f.kind(g) {
		case "const_builtin", "final_builtin":
			constant = true
		case "static_final_declaration_list", "initialized_identifier_list":
			if typeEnd == 0 {
				typeEnd = startByte(g)
			}
		}
	}
	head := ""
	if typeEnd > startByte(first) {
		head = foldSpace(f.textRange(startByte(first), typeEnd))
	}
	kind := world.KindVar
	switch {
	case inType:
		kind = world.KindField
	case constant:
		kind = world.KindConst
	}
	doc := w.docs[first.Id()]
	for _, g := range group {
		switch f.kind(g) {
		case "static_final_declaration_list", "initialized_identifier_list":
			for _, decl := range f.named(g) {
				ks := f.named(decl)
				if len(ks) == 0 || f.kind(ks[0]) != "identifier" {
					continue
				}
				name := f.text(ks[0])
				sig := strings.TrimSpace(head + " " + name)
				idx := f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: kind,
					Start: line(first), End: f.endLine(last), Exported: !strings.HasPrefix(name, "_"), Signature: sig, Doc: doc})
				for _, v := range ks[1:] {
					f.elideValue(v)
					w.loc.push()
					w.bindAll(v)
					w.refs(v, idx)
					w.loc.pop()
				}
				w.typeSeq(group, idx)
			}
		case "type_identifier", "type_arguments", "const_builtin", "final_builtin", "inferred_type", ";":
		default:
			if g.IsNamed() {
				w.refs(g, in)
			}
		}
	}
}

// bindAll adds the parameters and locals under n to the current frame, not
// looking into nested closures (refs binds those) or class bodies.
func (w *dartWalker) bindAll(n *sitter.Node) {
	f := w.f
	if n == nil {
		return
	}
	f.walk(n, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "formal_parameter", "initialized_variable_definition", "for_loop_parts":
			if nm := f.field(x, "name"); nm != nil {
				w.loc.add(f.text(nm))
			} else if ks := f.named(x); len(ks) > 0 && f.kind(ks[len(ks)-1]) == "identifier" && f.kind(x) == "formal_parameter" {
				w.loc.add(f.text(ks[len(ks)-1]))
			}
		case "initialized_identifier":
			if id := f.childOfKind(x, "identifier"); id != nil {
				w.loc.add(f.text(id))
			}
		case "catch_parameters":
			for _, id := range f.named(x) {
				w.loc.add(f.text(id))
			}
			return false
		case "function_expression", "class_body":
			return x.Id() == n.Id()
		}
		return true
	})
}

// refs records the references under n, reading selector chains (a.b(c).d)
// and prefixed types (http.Client) from sibling sequences.
func (w *dartWalker) refs(n *sitter.Node, in int) {
	f := w.f
	if n == nil {
		return
	}
	switch f.kind(n) {
	case "identifier":
		w.chain(n, nil, in)
		return
	case "type_identifier":
		if s := f.text(n); !w.loc.has(s) {
			f.ref(world.Ref{Name: s, Line: line(n), In: in, Kind: world.RefType})
		}
		return
	case "string_literal", "comment", "documentation_comment", "decimal_integer_literal", "decimal_floating_point_literal",
		"hex_integer_literal", "true", "false", "null_literal", "label", "constructor_param":
		return
	case "function_expression":
		w.loc.push()
		w.bindAll(n)
		for _, k := range f.named(n) {
			if f.kind(k) == "formal_parameter_list" {
				w.params(k, in)
			} else {
				w.refs(k, in)
			}
		}
		w.loc.pop()
		return
	case "annotation":
		if nm := f.field(n, "name"); nm != nil {
			f.ref(world.Ref{Name: f.text(nm), Line: line(nm), In: in, Kind: world.RefType})
		}
		for _, k := range f.named(n) {
			if f.kind(k) == "arguments" {
				w.refs(k, in)
			}
		}
		return
	case "named_argument":
		for _, k := range f.named(n) {
			if f.kind(k) != "label" {
				w.refs(k, in)
			}
		}
		return
	}
	ks := f.all(n)
	for i := 0; i < len(ks); i++ {
		k := ks[i]
		switch f.kind(k) {
		case "identifier", "this", "super":
			j := i + 1
			for j < len(ks) && (f.kind(ks[j]) == "selector" || f.kind(ks[j]) == "cascade_section") {
				j++
			}
			w.chain(k, ks[i+1:j], in)
			i = j - 1
		case "type_identifier":
			i = w.typeAt(ks, i, in)
		case "selector", "cascade_section":
			w.chain(nil, ks[i:i+1], in)
		default:
			if k.IsNamed() {
				w.refs(k, in)
			}
		}
	}
}

// chain records a primary (an identifier, this, super; nil when the chain
// starts with an expression) and the selectors that follow it.
func (w *dartWalker) chain(primary *sitter.Node, sels []*sitter.Node, in int) {
	f := w.f
	isCall := func(i int) bool {
		return i < len(sels) && f.kind(sels[i]) == "selector" && f.childOfKind(sels[i], "argument_part") != nil
	}
	qual := ""
	if primary != nil {
		s := f.text(primary)
		switch f.kind(primary) {
		case "this", "super":
			qual = s
		default:
			if !w.loc.has(s) {
				kind := world.RefValue
				if isCall(0) {
					kind = world.RefCall
				}
				f.ref(world.Ref{Name: s, Line: line(primary), In: in, Kind: kind})
			}
			qual = s
		}
	}
	for i, sel := range sels {
		var name *sitter.Node
		if f.kind(sel) == "cascade_section" {
			if cs := f.childOfKind(sel, "cascade_selector"); cs != nil {
				name = f.childOfKind(cs, "identifier")
			}
			for _, k := range f.named(sel) {
				if f.kind(k) != "cascade_selector" {
					w.refs(k, in)
				}
			}
			if name != nil {
				f.ref(world.Ref{Name: f.text(name), Qual: qual, Line: line(name), In: in, Kind: world.RefMember})
			}
			continue
		}
		if a := f.childOfKind(sel, "unconditional_assignable_selector", "conditional_assignable_selector"); a != nil {
			name = f.childOfKind(a, "identifier")
		}
		if name == nil {
			w.refs(sel, in)
			qual = ""
			continue
		}
		r := world.Ref{Name: f.text(name), Line: line(name), In: in, Kind: world.RefMember}
		if dotted(qual) || qual == "this" || qual == "super" {
			r.Qual = qual
			last := qual[strings.LastIndexByte(qual, '.')+1:]
			if (capitalised(last) || w.prefixes[qual]) && !w.loc.has(rootName(qual)) {
				r.Kind = world.RefValue
				if isCall(i + 1) {
					r.Kind = world.RefCall
				}
			}
			qual = qual + "." + r.Name
		} else {
			qual = ""
		}
		f.ref(r)
	}
}

// typeAt records the type named at ks[i], joining a prefixed type
// (http . Client, laid out as siblings) into one reference; it returns the
// index of the type's last sibling.
func (w *dartWalker) typeAt(ks []*sitter.Node, i, in int) int {
	f := w.f
	parts := []string{f.text(ks[i])}
	first := ks[i]
	for i+2 < len(ks) && f.kind(ks[i+1]) == "." && f.kind(ks[i+2]) == "type_identifier" {
		parts = append(parts, f.text(ks[i+2]))
		i += 2
	}
	if !w.loc.has(parts[0]) {
		f.ref(world.Ref{Name: parts[len(parts)-1], Qual: strings.Join(parts[:len(parts)-1], "."), Line: line(first), In: in, Kind: world.RefType})
	}
	return i
}

// typeSeq records the types among a declaration's siblings.
func (w *dartWalker) typeSeq(ks []*sitter.Node, in int) {
	for i := 0; i < len(ks); i++ {
		switch w.f.kind(ks[i]) {
		case "type_identifier":
			i = w.typeAt(ks, i, in)
		case "type_arguments":
			w.refs(ks[i], in)
		}
	}
}
