package extract

import (
	"strings"

	kotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/git-speed/git-speed/layers/world"
)

// Kotlin: package header, imports (aliases and wildcards), classes,
// interfaces, enum classes (with their entries), objects and companion
// objects, functions (extension functions take their receiver type as
// parent), properties (constructor val/var too), secondary constructors and
// type aliases; references (calls, types, member and qualified selections,
// annotations) with parameters, locals, lambda parameters and "it" left out.
// private declarations are not exported.

func init() {
	register(world.LangKotlin, sitter.NewLanguage(kotlin.Language()), "//", walkKotlin)
}

type kotlinWalker struct {
	f    *file
	loc  locals
	docs map[uintptr]string
}

func walkKotlin(f *file) {
	w := &kotlinWalker{f: f}
	w.docs = f.scanComments(func(k string) bool { return k == "line_comment" || k == "block_comment" }, nil, nil, f.cutInlineComment)
	for _, c := range f.named(f.root) {
		switch f.kind(c) {
		case "package_header":
			if q := f.childOfKind(c, "qualified_identifier", "identifier"); q != nil {
				f.facts.Package = f.text(q)
			}
		case "import":
			w.importDecl(c)
		default:
			w.member(c, "", 0, w.docs[c.Id()])
		}
	}
	finishMore(f.facts)
}

func (w *kotlinWalker) importDecl(c *sitter.Node) {
	f := w.f
	imp := world.Import{Line: line(c)}
	afterAs := false
	for _, k := range f.all(c) {
		switch f.kind(k) {
		case "qualified_identifier":
			imp.Path = f.text(k)
		case "as":
			afterAs = true
		case "identifier":
			if afterAs {
				imp.Alias = f.text(k)
			} else if imp.Path == "" {
				imp.Path = f.text(k)
			}
		case "*":
			imp.Alias = "*"
		}
	}
	f.imp(imp)
}

// modifiers returns the words of n's modifiers ("private", "enum", "data" …).
func (w *kotlinWalker) modifiers(n *sitter.Node) map[string]bool {
	m := w.f.childOfKind(n, "modifiers")
	out := map[string]bool{}
	if m == nil {
		return out
	}
	w.f.walk(m, func(x *sitter.Node) bool {
		if x.ChildCount() == 0 {
			out[w.f.text(x)] = true
		}
		return true
	})
	return out
}

// member handles one declaration at top level or in a class body.
func (w *kotlinWalker) member(c *sitter.Node, parent string, in int, doc string) {
	f := w.f
	switch f.kind(c) {
	case "statement", "declaration", "class_member_declaration":
		for _, k := range f.named(c) {
			w.member(k, parent, in, doc)
		}
		return
	case "line_comment", "block_comment":
		return
	}
	if d, ok := w.docs[c.Id()]; ok {
		doc = d
	}
	mods := w.modifiers(c)
	d := world.Def{Parent: parent, Start: line(c), End: f.endLine(c), Exported: !mods["private"], Doc: doc}
	switch f.kind(c) {
	case "class_declaration", "object_declaration", "companion_object":
		body := f.childOfKind(c, "class_body", "enum_class_body")
		d.Name = f.text(f.field(c, "name"))
		switch {
		case f.kind(c) == "companion_object":
			d.Kind = "object"
			if d.Name == "" {
				d.Name = "Companion"
			}
		case f.kind(c) == "object_declaration":
			d.Kind = "object"
		case f.childOfKind(c, "interface") != nil:
			d.Kind = world.KindInterface
		case mods["enum"]:
			d.Kind = world.KindEnum
		default:
			d.Kind = world.KindClass
		}
		d.Qualified = qualify(parent, d.Name)
		d.Signature = f.signature(c, body)
		idx := f.def(d)
		w.loc.push()
		w.bindTypeParams(c)
		nameNode := f.field(c, "name")
		for _, k := range f.named(c) {
			if nameNode != nil && k.Id() == nameNode.Id() {
				continue
			}
			switch f.kind(k) {
			case "primary_constructor":
				w.constructorParams(k, d.Qualified, idx)
			case "class_body", "enum_class_body", "modifiers":
				if f.kind(k) == "modifiers" {
					w.refs(k, idx)
				}
			default:
				w.refs(k, idx)
			}
		}
		w.loc.pop()
		for _, m := range f.named(body) {
			if f.kind(m) == "enum_entry" {
				name := f.text(f.childOfKind(m, "identifier"))
				f.def(world.Def{Name: name, Qualified: qualify(d.Qualified, name), Parent: d.Qualified, Kind: world.KindConst,
					Start: line(m), End: f.endLine(m), Exported: true, Signature: name, Doc: w.docs[m.Id()]})
				for _, k := range f.named(m) {
					if f.kind(k) != "identifier" {
						w.refs(k, idx)
					}
				}
				continue
			}
			w.member(m, d.Qualified, idx, "")
		}
	case "function_declaration", "secondary_constructor", "anonymous_initializer":
		body := f.childOfKind(c, "function_body", "block")
		d.Kind = world.KindFunction
		if parent != "" {
			d.Kind = world.KindMethod
		}
		switch f.kind(c) {
		case "function_declaration":
			d.Name = f.text(f.field(c, "name"))
			// An extension function's receiver type comes before its name.
			if nm := f.field(c, "name"); nm != nil && parent == "" {
				for _, k := range f.named(c) {
					if startByte(k) >= startByte(nm) {
						break
					}
					if f.kind(k) == "user_type" || f.kind(k) == "nullable_type" {
						d.Parent, d.Kind = strings.TrimSuffix(typeBase(f.text(k)), "?"), world.KindMethod
					}
				}
			}
		case "secondary_constructor":
			d.Name = "constructor"
		default:
			d.Name = "init"
		}
		d.Qualified = qualify(d.Parent, d.Name)
		d.Signature = f.signature(c, body)
		idx := f.def(d)
		w.elideFunctionBody(body)
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
	case "property_declaration":
		vd := f.childOfKind(c, "variable_declaration", "multi_variable_declaration")
		var names []string
		f.walk(vd, func(x *sitter.Node) bool {
			if f.kind(x) == "identifier" {
				names = append(names, f.text(x))
				return false
			}
			return f.kind(x) != "user_type"
		})
		d.Kind = world.KindProperty
		if mods["const"] {
			d.Kind = world.KindConst
		}
		value, sigEnd := w.propertyValue(c)
		d.Signature = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f.signature(c, sigEnd)), "="))
		idx := 0
		for _, n := range names {
			dd := d
			dd.Name, dd.Qualified = n, qualify(parent, n)
			if i := f.def(dd); idx == 0 {
				idx = i
			}
		}
		f.elideValue(value)
		for _, k := range f.named(c) {
			switch f.kind(k) {
			case "getter", "setter":
				w.elideFunctionBody(f.childOfKind(k, "function_body"))
			}
			if f.kind(k) != "variable_declaration" && f.kind(k) != "multi_variable_declaration" {
				w.loc.push()
				w.bindAll(k)
				w.refs(k, idx)
				w.loc.pop()
			} else {
				w.typeRefs(k, idx)
			}
		}
	case "type_alias":
		d.Kind = world.KindType
		d.Name = f.text(f.field(c, "type"))
		d.Qualified = qualify(parent, d.Name)
		d.Signature = f.text(c)
		if len(d.Signature) > 200 || strings.Contains(d.Signature, "\n") {
			d.Signature = foldSpace(d.Signature)
		}
		idx := f.def(d)
		for _, k := range f.named(c) {
			if startByte(k) != startByte(f.field(c, "type")) {
				w.refs(k, idx)
			}
		}
	default:
		w.loc.push()
		w.bindAll(c)
		w.refs(c, in)
		w.loc.pop()
	}
}

// typeBase drops the type arguments of a type's text: Map<K, V> → Map.
func typeBase(s string) string {
	if i := strings.IndexByte(s, '<'); i >= 0 {
		return s[:i]
	}
	return s
}

// propertyValue returns a property's initialiser or delegate and the node
// its signature stops at (the initialiser, getter or setter).
func (w *kotlinWalker) propertyValue(c *sitter.Node) (value, sigEnd *sitter.Node) {
	f := w.f
	seenEq := false
	for _, k := range f.all(c) {
		switch {
		case f.kind(k) == "=":
			seenEq = true
		case seenEq && k.IsNamed() && value == nil:
			value = k
		case f.kind(k) == "property_delegate" || f.kind(k) == "getter" || f.kind(k) == "setter":
			if sigEnd == nil {
				sigEnd = k
			}
			if f.kind(k) == "property_delegate" && value == nil {
				value = k
			}
		}
	}
	if value != nil && (sigEnd == nil || startByte(value) < startByte(sigEnd)) {
		sigEnd = value
	}
	return value, sigEnd
}

// elideFunctionBody elides a block body, or a long expression body
// ("= expr") to "= …".
func (w *kotlinWalker) elideFunctionBody(body *sitter.Node) {
	f := w.f
	if body == nil {
		return
	}
	if b := f.childOfKind(body, "block"); b != nil {
		f.elideBlock(b)
		return
	}
	if f.kind(body) == "block" {
		f.elideBlock(body)
		return
	}
	for _, k := range f.named(body) {
		f.elideValue(k)
	}
}

// constructorParams records the val/var parameters of a primary
// constructor as properties and walks the types for references.
func (w *kotlinWalker) constructorParams(pc *sitter.Node, parent string, in int) {
	f := w.f
	f.walk(pc, func(x *sitter.Node) bool {
		if f.kind(x) != "class_parameter" {
			return true
		}
		prop := false
		for _, k := range f.all(x) {
			if f.kind(k) == "val" || f.kind(k) == "var" {
				prop = true
			}
		}
		if id := f.childOfKind(x, "identifier"); id != nil && prop {
			mods := w.modifiers(x)
			name := f.text(id)
			f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: world.KindProperty,
				Start: line(x), End: f.endLine(x), Exported: !mods["private"], Signature: f.signature(x, nil)})
		}
		for _, k := range f.named(x) {
			if f.kind(k) != "identifier" {
				w.refs(k, in)
			}
		}
		return false
	})
}

func (w *kotlinWalker) bindTypeParams(c *sitter.Node) {
	f := w.f
	for _, tp := range f.named(f.childOfKind(c, "type_parameters")) {
		if id := f.childOfKind(tp, "identifier"); id != nil {
			w.loc.add(f.text(id))
		}
	}
}

// bindAll adds the parameters and locals under n to the current frame,
// not looking into nested classes or lambdas (refs binds those).
func (w *kotlinWalker) bindAll(n *sitter.Node) {
	f := w.f
	if n == nil {
		return
	}
	f.walk(n, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "parameter", "variable_declaration", "catch_block", "class_parameter":
			if id := f.childOfKind(x, "identifier"); id != nil {
				w.loc.add(f.text(id))
			}
			return f.kind(x) == "catch_block"
		case "class_body", "object_literal", "lambda_literal":
			return x.Id() == n.Id()
		}
		return true
	})
}

// typeRefs records the type references under n (a declaration's type).
func (w *kotlinWalker) typeRefs(n *sitter.Node, in int) {
	w.f.walk(n, func(x *sitter.Node) bool {
		if w.f.kind(x) == "user_type" {
			w.refs(x, in)
			return false
		}
		return true
	})
}

// kotlinWords are identifiers of the grammar that are literals or implicit.
var kotlinWords = map[string]bool{"true": true, "false": true, "null": true, "it": true, "field": true}

// refs records the references under n.
func (w *kotlinWalker) refs(n *sitter.Node, in int) {
	f := w.f
	if n == nil {
		return
	}
	f.walk(n, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "identifier":
			if s := f.text(x); !w.loc.has(s) && !kotlinWords[s] {
				f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: world.RefValue})
			}
			return false
		case "user_type":
			var parts []string
			for _, k := range f.named(x) {
				switch f.kind(k) {
				case "identifier":
					parts = append(parts, f.text(k))
				default:
					w.refs(k, in)
				}
			}
			if len(parts) > 0 && !w.loc.has(parts[0]) {
				f.ref(world.Ref{Name: parts[len(parts)-1], Qual: strings.Join(parts[:len(parts)-1], "."), Line: line(x), In: in, Kind: world.RefType})
			}
			return false
		case "call_expression":
			f.callee(f.named(x), "identifier", "navigation_expression", &w.loc, in,
				func(n *sitter.Node) { w.navigation(n, in, true) }, func(n *sitter.Node) { w.refs(n, in) })
			return false
		case "navigation_expression":
			w.navigation(x, in, false)
			return false
		case "value_argument": // name = value: the name is the parameter's
			ks := f.all(x)
			if len(ks) >= 3 && f.kind(ks[0]) == "identifier" && f.kind(ks[1]) == "=" {
				for _, k := range ks[2:] {
					w.refs(k, in)
				}
				return false
			}
			return true
		case "annotation":
			f.walk(x, func(y *sitter.Node) bool {
				if f.kind(y) == "user_type" || f.kind(y) == "constructor_invocation" {
					w.refs(y, in)
					return false
				}
				return true
			})
			return false
		case "lambda_literal", "anonymous_function", "object_literal", "class_body":
			w.loc.push()
			w.bindAll(x)
			for _, k := range f.named(x) {
				w.refs(k, in)
			}
			w.loc.pop()
			return false
		case "this_expression", "super_expression":
			w.typeRefs(x, in)
			return false
		case "string_content", "line_comment", "block_comment", "number_literal", "character_literal", "label":
			return false
		}
		return true
	})
}

// navigation records a.b (a call when call is true): a qualifier that
// names a type or package makes a qualified use, a value a member use.
func (w *kotlinWalker) navigation(x *sitter.Node, in int, call bool) {
	f := w.f
	ks := f.named(x)
	if len(ks) < 2 {
		w.refs(x, in)
		return
	}
	recv, member := ks[0], ks[len(ks)-1]
	if f.kind(member) != "identifier" {
		for _, k := range ks {
			w.refs(k, in)
		}
		return
	}
	q := f.text(recv)
	self := f.kind(recv) == "this_expression" || f.kind(recv) == "super_expression"
	f.ref(selectionRef(q, f.text(member), line(member), in, self, typeQual(q, &w.loc), call))
	w.refs(recv, in)
}
