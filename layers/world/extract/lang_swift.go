package extract

import (
	"strings"

	swift "github.com/alex-pinkus/tree-sitter-swift/bindings/go"
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/git-speed/git-speed/layers/world"
)

// Swift: imports, classes, structs, enums (with their cases), actors,
// protocols (kind interface) and their requirements, functions, methods,
// initialisers, subscripts, properties and type aliases. The members of an
// extension take the extended type as parent (the extension itself is no
// definition). References: calls, types, member and qualified selections,
// implicit members (.get) and attributes, with parameters, locals, closure
// parameters and optional bindings left out. private and fileprivate
// declarations are not exported.

func init() {
	register(world.LangSwift, sitter.NewLanguage(swift.Language()), "//", walkSwift)
}

type swiftWalker struct {
	f    *file
	loc  locals
	docs map[uintptr]string

	fName, fBound uint16
}

func walkSwift(f *file) {
	w := &swiftWalker{f: f, fName: f.fieldID("name"), fBound: f.fieldID("bound_identifier")}
	w.docs = f.scanComments(func(k string) bool { return k == "comment" || k == "multiline_comment" }, nil, nil, f.cutInlineComment)
	for _, c := range f.named(f.root) {
		if f.kind(c) == "import_declaration" {
			imp := world.Import{Line: line(c)}
			if id := f.childOfKind(c, "identifier"); id != nil {
				imp.Path = f.text(id)
			}
			if m := f.childOfKind(c, "modifiers"); m != nil && strings.Contains(f.text(m), "@testable") {
				imp.Kind = "testable"
			}
			f.imp(imp)
			continue
		}
		w.member(c, "", 0, false)
	}
	finishMore(f.facts)
}

// exported reports whether a declaration is visible outside its file.
func (w *swiftWalker) exported(c *sitter.Node) bool {
	m := w.f.childOfKind(c, "modifiers")
	if m == nil {
		return true
	}
	for _, k := range w.f.named(m) {
		if w.f.kind(k) == "visibility_modifier" {
			if t := w.f.text(k); t == "private" || t == "fileprivate" {
				return false
			}
		}
	}
	return true
}

// member handles one declaration at top level or in a type's body.
func (w *swiftWalker) member(c *sitter.Node, parent string, in int, inType bool) {
	f := w.f
	d := world.Def{Parent: parent, Start: line(c), End: f.endLine(c), Exported: w.exported(c), Doc: w.docs[c.Id()]}
	switch f.kind(c) {
	case "class_declaration", "protocol_declaration":
		body := f.field(c, "body")
		nameNode := f.field(c, "name")
		name := typeBase(f.text(nameNode))
		kind := f.text(f.field(c, "declaration_kind"))
		idx := in
		qualified := qualify(parent, name)
		if kind != "extension" {
			d.Name, d.Qualified = name, qualified
			d.Kind = map[string]string{"class": world.KindClass, "struct": world.KindStruct, "enum": world.KindEnum,
				"actor": "actor", "protocol": world.KindInterface}[kind]
			if d.Kind == "" {
				d.Kind = world.KindClass
			}
			d.Signature = f.signature(c, body)
			idx = f.def(d)
		} else {
			qualified = name
		}
		w.loc.push()
		w.bindTypeParams(c)
		for _, k := range f.named(c) {
			if (nameNode == nil || k.Id() != nameNode.Id() || kind == "extension") && (body == nil || k.Id() != body.Id()) {
				w.refs(k, idx)
			}
		}
		w.loc.pop()
		for _, m := range f.named(body) {
			w.member(m, qualified, idx, true)
		}
	case "function_declaration", "init_declaration", "deinit_declaration", "subscript_declaration", "protocol_function_declaration":
		body := f.field(c, "body")
		if body == nil {
			body = f.childOfKind(c, "computed_property")
		}
		switch f.kind(c) {
		case "init_declaration":
			d.Name = "init"
		case "deinit_declaration":
			d.Name = "deinit"
		case "subscript_declaration":
			d.Name = "subscript"
		default:
			d.Name = f.text(f.field(c, "name"))
		}
		d.Kind = world.KindFunction
		if inType {
			d.Kind = world.KindMethod
		}
		d.Qualified = qualify(parent, d.Name)
		d.Signature = f.signature(c, body)
		idx := f.def(d)
		f.elideBlock(body)
		w.loc.push()
		w.bindTypeParams(c)
		w.bindAll(c)
		nameNode := f.field(c, "name")
		for _, k := range f.named(c) {
			if nameNode == nil || k.Id() != nameNode.Id() {
				w.refs(k, idx)
			}
		}
		w.loc.pop()
	case "property_declaration", "protocol_property_declaration":
		mut := f.childOfKind(c, "value_binding_pattern")
		d.Kind = world.KindProperty
		if !inType {
			d.Kind = world.KindVar
			if mut != nil && f.textIs(mut, "let") {
				d.Kind = world.KindConst
			}
		}
		value := f.field(c, "value")
		computed := f.field(c, "computed_value")
		if computed == nil {
			computed = f.childOfKind(c, "protocol_property_requirements", "willset_didset_block")
		}
		sigEnd := value
		if sigEnd == nil || computed != nil && startByte(computed) < startByte(sigEnd) {
			sigEnd = computed
		}
		d.Signature = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f.signature(c, sigEnd)), "="))
		idx := 0
		f.walkParent(c, func(x, p *sitter.Node, field uint16) bool {
			if field == w.fBound && field != 0 && f.kind(x) == "simple_identifier" {
				dd := d
				dd.Name = f.text(x)
				dd.Qualified = qualify(parent, dd.Name)
				if i := f.def(dd); idx == 0 {
					idx = i
				}
			}
			return f.kind(x) == "pattern" || x.Id() == c.Id()
		})
		f.elideValue(value)
		if computed != nil && f.kind(computed) != "protocol_property_requirements" {
			f.elideBlock(computed)
		}
		for _, k := range f.named(c) {
			if f.kind(k) != "pattern" {
				w.loc.push()
				w.bindAll(k)
				w.refs(k, idx)
				w.loc.pop()
			}
		}
	case "typealias_declaration", "associatedtype_declaration":
		nameNode := f.field(c, "name")
		d.Kind = world.KindType
		d.Name = typeBase(f.text(nameNode))
		d.Qualified = qualify(parent, d.Name)
		d.Signature = foldSpace(f.text(c))
		idx := f.def(d)
		for _, k := range f.named(c) {
			if nameNode == nil || k.Id() != nameNode.Id() {
				w.refs(k, idx)
			}
		}
	case "enum_entry":
		f.walkParent(c, func(x, p *sitter.Node, field uint16) bool {
			if x.Id() == c.Id() {
				return true
			}
			if field == w.fName && f.kind(x) == "simple_identifier" {
				name := f.text(x)
				f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: world.KindConst,
					Start: line(c), End: f.endLine(c), Exported: d.Exported, Signature: "case " + name, Doc: d.Doc})
				return false
			}
			w.refs(x, in)
			return false
		})
	case "comment", "multiline_comment":
	default:
		w.loc.push()
		w.bindAll(c)
		w.refs(c, in)
		w.loc.pop()
	}
}

func (w *swiftWalker) bindTypeParams(c *sitter.Node) {
	f := w.f
	for _, tp := range f.named(f.childOfKind(c, "type_parameters")) {
		if id := f.childOfKind(tp, "type_identifier"); id != nil {
			w.loc.add(f.text(id))
		}
	}
}

// bindAll adds the parameters and locals under n (patterns' bound names,
// optional bindings, loop variables, the implicit error of catch) to the
// current frame, not looking into nested types or closures.
func (w *swiftWalker) bindAll(n *sitter.Node) {
	f := w.f
	if n == nil {
		return
	}
	f.walkParent(n, func(x, p *sitter.Node, field uint16) bool {
		switch f.kind(x) {
		case "parameter", "lambda_parameter":
			if nm := f.field(x, "name"); nm != nil && f.kind(nm) == "simple_identifier" {
				w.loc.add(f.text(nm))
			}
			return false
		case "simple_identifier":
			if field == w.fBound && field != 0 {
				w.loc.add(f.text(x))
			}
			return false
		case "catch_block":
			w.loc.add("error")
		case "class_declaration", "protocol_declaration", "lambda_literal":
			return x.Id() == n.Id()
		}
		return true
	})
}

// refs records the references under n.
func (w *swiftWalker) refs(n *sitter.Node, in int) {
	f := w.f
	if n == nil {
		return
	}
	f.walk(n, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "simple_identifier":
			if s := f.text(x); !w.loc.has(s) && !strings.HasPrefix(s, "$") {
				f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: world.RefValue})
			}
			return false
		case "user_type":
			var parts []string
			for _, k := range f.named(x) {
				if f.kind(k) == "type_identifier" {
					parts = append(parts, f.text(k))
				} else {
					w.refs(k, in)
				}
			}
			if len(parts) > 0 && !w.loc.has(parts[0]) && parts[0] != "Self" {
				f.ref(world.Ref{Name: parts[len(parts)-1], Qual: strings.Join(parts[:len(parts)-1], "."), Line: line(x), In: in, Kind: world.RefType})
			}
			return false
		case "type_identifier":
			if s := f.text(x); !w.loc.has(s) && s != "Self" {
				f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: world.RefType})
			}
			return false
		case "call_expression":
			f.callee(f.named(x), "simple_identifier", "navigation_expression", &w.loc, in,
				func(n *sitter.Node) { w.navigation(n, in, true) }, func(n *sitter.Node) { w.refs(n, in) })
			return false
		case "navigation_expression":
			w.navigation(x, in, false)
			return false
		case "prefix_expression": // .member: an implicit member of the expected type
			ks := f.all(x)
			if len(ks) == 2 && f.kind(ks[0]) == "." && f.kind(ks[1]) == "simple_identifier" {
				f.ref(world.Ref{Name: f.text(ks[1]), Line: line(x), In: in, Kind: world.RefMember})
				return false
			}
			return true
		case "value_argument_label", "navigation_suffix":
			return false
		case "parameter": // names are bound; only the type and default refer
			for _, k := range f.named(x) {
				if f.kind(k) != "simple_identifier" {
					w.refs(k, in)
				}
			}
			return false
		case "lambda_literal":
			w.loc.push()
			w.bindAll(x)
			f.walk(x, func(y *sitter.Node) bool {
				if f.kind(y) == "lambda_parameter" {
					if nm := f.field(y, "name"); nm != nil {
						w.loc.add(f.text(nm))
					}
					return false
				}
				return y.Id() == x.Id() || f.kind(y) == "lambda_function_type" || f.kind(y) == "lambda_function_type_parameters"
			})
			for _, k := range f.named(x) {
				w.refs(k, in)
			}
			w.loc.pop()
			return false
		case "class_declaration", "protocol_declaration", "function_declaration":
			w.loc.push()
			w.bindAll(x)
			for _, k := range f.named(x) {
				if k.Id() != startNode(f.field(x, "name")) {
					w.refs(k, in)
				}
			}
			w.loc.pop()
			return false
		case "line_str_text", "multi_line_str_text", "comment", "multiline_comment", "integer_literal", "real_literal",
			"boolean_literal", "str_escaped_char", "self_expression", "super_expression":
			return false
		}
		return true
	})
}

// startNode returns n's id, 0 for nil.
func startNode(n *sitter.Node) uintptr {
	if n == nil {
		return 0
	}
	return n.Id()
}

// navigation records a.b (a call when call is true).
func (w *swiftWalker) navigation(x *sitter.Node, in int, call bool) {
	f := w.f
	target := f.field(x, "target")
	suffix := f.field(x, "suffix")
	var member *sitter.Node
	if suffix != nil {
		member = f.field(suffix, "suffix")
	}
	if target == nil || member == nil || f.kind(member) != "simple_identifier" {
		for _, k := range f.named(x) {
			w.refs(k, in)
		}
		return
	}
	q := f.text(target)
	self := f.kind(target) == "self_expression" || f.kind(target) == "super_expression"
	f.ref(selectionRef(q, f.text(member), line(member), in, self, typeQual(q, &w.loc), call))
	w.refs(target, in)
}
