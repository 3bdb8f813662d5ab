package extract

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	php "github.com/tree-sitter/tree-sitter-php/bindings/go"

	"github.com/git-speed/git-speed/layers/world"
)

// PHP: namespace (Facts.Package and a module definition), use imports
// (grouped, aliased, function/const), require/include with a string path,
// classes, interfaces, traits, enums and their cases, functions, methods,
// properties and constants; references are names (functions, classes,
// constants, members): $variables are never references, so no scope
// analysis is needed beyond that. Qualified names leave the namespace out.

func init() {
	register(world.LangPHP, sitter.NewLanguage(php.LanguagePHP()), "//", walkPHP)
	walkedMarking(world.LangPHP, "comment", "require_expression", "require_once_expression", "include_expression", "include_once_expression")
}

// isPHPRequire reports whether a kind is a require or include expression.
func isPHPRequire(k string) bool {
	return k == "require_expression" || k == "require_once_expression" || k == "include_expression" || k == "include_once_expression"
}

type phpWalker struct {
	f    *file
	docs map[uintptr]string
}

func walkPHP(f *file) {
	w := &phpWalker{f: f}
	w.docs = f.scanComments(func(k string) bool { return k == "comment" }, nil, nil, nil)
	w.members(f.root, "", 0)
	w.requires()
	finishMore(f.facts)
}

// exported reports whether a member is public (the default).
func (w *phpWalker) exported(n *sitter.Node) bool {
	for _, c := range w.f.named(n) {
		if w.f.kind(c) == "visibility_modifier" {
			return strings.TrimSpace(w.f.text(c)) == "public"
		}
	}
	return true
}

var phpTypeKinds = map[string]string{"class_declaration": world.KindClass, "interface_declaration": world.KindInterface,
	"trait_declaration": world.KindTrait, "enum_declaration": world.KindEnum}

// members walks the statements of a program, namespace or type body.
func (w *phpWalker) members(n *sitter.Node, parent string, in int) {
	f := w.f
	for _, c := range w.f.named(n) {
		name := f.text(w.f.field(c, "name"))
		d := world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Start: line(c), End: w.f.endLine(c),
			Exported: w.exported(c), Doc: w.docs[c.Id()]}
		k := w.f.kind(c)
		switch {
		case k == "namespace_definition":
			body := w.f.field(c, "body")
			if f.facts.Package == "" {
				f.facts.Package = name
			}
			d.Kind, d.Signature, d.Exported, d.Parent, d.Qualified = world.KindModule, strings.TrimSuffix(f.signature(c, body), ";"), true, "", name
			idx := f.def(d)
			if body != nil {
				w.members(body, parent, idx)
			} else {
				in = idx
			}
		case k == "namespace_use_declaration":
			w.use(c)
		case phpTypeKinds[k] != "":
			body := w.f.field(c, "body")
			d.Kind, d.Signature = phpTypeKinds[k], f.signature(c, body)
			idx := f.def(d)
			nameID, bodyID := f.fieldID("name"), f.fieldID("body")
			mark := len(f.stack)
			for _, ch := range f.kids(c) {
				if ch.named && ch.field != nameID && ch.field != bodyID {
					w.refs(ch.n, idx, true)
				}
			}
			f.release(mark)
			w.members(body, d.Qualified, idx)
		case k == "method_declaration" || k == "function_definition":
			body := w.f.field(c, "body")
			d.Kind = world.KindFunction
			if k == "method_declaration" {
				d.Kind = world.KindMethod
			}
			d.Signature = strings.TrimSuffix(f.signature(c, body), ";")
			idx := f.def(d)
			f.elideBlock(body)
			nameID, returnID := f.fieldID("name"), f.fieldID("return_type")
			mark := len(f.stack)
			for _, ch := range f.kids(c) {
				if ch.named && ch.field != nameID {
					w.refs(ch.n, idx, ch.field == returnID && returnID != 0)
				}
			}
			f.release(mark)
			// promoted constructor parameters are properties
			for _, p := range w.f.named(w.f.field(c, "parameters")) {
				if w.f.kind(p) == "property_promotion_parameter" {
					pn := strings.TrimPrefix(f.text(w.f.field(p, "name")), "$")
					f.def(world.Def{Name: pn, Qualified: qualify(parent, pn), Parent: parent, Kind: world.KindProperty,
						Start: line(p), End: w.f.endLine(p), Exported: w.exported(p) || strings.Contains(f.text(w.f.field(p, "visibility")), "public"),
						Signature: foldSpace(f.text(p))})
				}
			}
		case k == "property_declaration":
			for _, el := range w.f.named(c) {
				if w.f.kind(el) != "property_element" {
					continue
				}
				dd := d
				dd.Name = strings.TrimPrefix(f.text(w.f.field(el, "name")), "$")
				dd.Qualified, dd.Kind = qualify(parent, dd.Name), world.KindProperty
				v := w.f.field(el, "default_value")
				dd.Signature = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(f.signature(c, v), ";"), "="))
				idx := f.def(dd)
				f.elideInit(v)
				w.refs(w.f.field(c, "type"), idx, true)
				w.refs(v, idx, false)
			}
		case k == "const_declaration":
			for _, el := range w.f.named(c) {
				if w.f.kind(el) != "const_element" {
					continue
				}
				dd := d
				nm := w.f.childOfKind(el, "name")
				dd.Name = f.text(nm)
				dd.Qualified, dd.Kind = qualify(parent, dd.Name), world.KindConst
				var v *sitter.Node
				for _, ch := range w.f.named(el) {
					if nm == nil || ch.Id() != nm.Id() {
						v = ch
					}
				}
				dd.Signature = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(f.signature(c, v), ";"), "="))
				idx := f.def(dd)
				f.elideInit(v)
				w.refs(v, idx, false)
			}
		case k == "enum_case":
			d.Kind, d.Signature = world.KindConst, strings.TrimSuffix(foldSpace(f.text(c)), ";")
			d.Exported = true
			f.def(d)
		case k == "use_declaration": // traits used by a class
			w.refs(c, in, true)
		case k == "declaration_list" || k == "enum_declaration_list" || k == "compound_statement":
			w.members(c, parent, in)
		case k == "comment" || k == "php_tag" || k == "text" || k == "text_interpolation":
		default:
			w.refs(c, in, false)
		}
	}
}

// use records the imports of a namespace use declaration.
func (w *phpWalker) use(c *sitter.Node) {
	f := w.f
	kind := ""
	if t := w.f.childOfKind(c, "function", "const"); t != nil {
		kind = w.f.kind(t)
	}
	prefix := ""
	if ns := w.f.childOfKind(c, "namespace_name"); ns != nil {
		prefix = f.text(ns)
	}
	group := w.f.field(c, "body")
	clauses := w.f.named(c)
	if group != nil {
		clauses = w.f.named(group)
	}
	grouped := world.Import{Path: prefix, Line: line(c), Kind: kind}
	for _, cl := range clauses {
		if w.f.kind(cl) != "namespace_use_clause" {
			continue
		}
		ck := kind
		if t := w.f.field(cl, "type"); t != nil {
			ck = f.text(t)
		}
		alias := w.f.field(cl, "alias")
		var path string
		for _, ch := range w.f.named(cl) {
			if (alias == nil || ch.Id() != alias.Id()) && (w.f.kind(ch) == "qualified_name" || w.f.kind(ch) == "name" || w.f.kind(ch) == "namespace_name") {
				path = f.text(ch)
			}
		}
		path = strings.TrimPrefix(path, `\`)
		if group != nil && alias == nil && !strings.Contains(path, `\`) && ck == kind {
			grouped.Names = append(grouped.Names, path)
			continue
		}
		if prefix != "" {
			path = prefix + `\` + path
		}
		imp := world.Import{Path: path, Line: line(cl), Kind: ck}
		if alias != nil {
			imp.Alias = f.text(alias)
		}
		f.imp(imp)
	}
	if len(grouped.Names) > 0 {
		f.imp(grouped)
	}
}

// requires records require/include expressions whose path has a string
// literal in it (the literal parts, joined).
func (w *phpWalker) requires() {
	f := w.f
	recs := f.tree()
	for i := range f.outermost("requires", isPHPRequire) {
		var parts []string
		for j := i + 1; j < int(recs[i].after); j++ {
			if k := f.recKind(&recs[j]); k == "string_content" || k == "string_value" {
				parts = append(parts, f.text(&recs[j].node))
				j = int(recs[j].after) - 1
			}
		}
		if len(parts) > 0 {
			f.imp(world.Import{Path: strings.Join(parts, ""), Line: line(&recs[i].node), Kind: "require"})
		}
	}
}

// qualName returns the last segment of a possibly qualified name and its
// qualifier as written.
func (w *phpWalker) qualName(n *sitter.Node) (name, qual string) {
	s := strings.TrimPrefix(w.f.text(n), `\`)
	if i := strings.LastIndex(s, `\`); i >= 0 {
		return s[i+1:], s[:i]
	}
	return s, ""
}

// refs records the references under n; typ is true in a type position.
func (w *phpWalker) refs(n *sitter.Node, in int, typ bool) {
	if n == nil {
		return
	}
	f := w.f
	add := func(x *sitter.Node, kind string, qual string) {
		name, q := w.qualName(x)
		if qual == "" {
			qual = q
		}
		switch strings.ToLower(name) {
		case "self", "static", "parent", "true", "false", "null", "":
			if qual == "" {
				return
			}
		}
		f.ref(world.Ref{Name: name, Qual: qual, Line: line(x), In: in, Kind: kind})
	}
	switch w.f.kind(n) {
	case "name", "qualified_name":
		if typ {
			add(n, world.RefType, "")
		} else {
			add(n, world.RefValue, "")
		}
		return
	case "variable_name", "string", "encapsed_string", "heredoc", "nowdoc", "comment", "primitive_type", "integer", "float", "boolean", "null":
		if w.f.kind(n) != "encapsed_string" && w.f.kind(n) != "heredoc" {
			return
		}
	case "named_type", "base_clause", "class_interface_clause", "use_declaration", "attribute", "type_list":
		typ = true
	case "function_call_expression":
		fn := w.f.field(n, "function")
		if fn != nil && (w.f.kind(fn) == "name" || w.f.kind(fn) == "qualified_name") {
			add(fn, world.RefCall, "")
		} else {
			w.refs(fn, in, false)
		}
		w.refs(w.f.field(n, "arguments"), in, false)
		return
	case "scoped_call_expression", "class_constant_access_expression", "scoped_property_access_expression":
		scope := w.f.field(n, "scope")
		nm := w.f.field(n, "name")
		kids := w.f.named(n)
		if scope == nil && len(kids) > 0 {
			scope = kids[0]
		}
		if nm == nil && len(kids) > 1 {
			nm = kids[1]
		}
		qual := ""
		if scope != nil {
			switch w.f.kind(scope) {
			case "name", "qualified_name", "relative_scope":
				qual = strings.TrimPrefix(f.text(scope), `\`)
				if w.f.kind(scope) != "relative_scope" {
					add(scope, world.RefType, "")
				}
			default:
				w.refs(scope, in, false)
			}
		}
		if nm != nil {
			kind := world.RefValue
			if w.f.kind(n) == "scoped_call_expression" {
				kind = world.RefCall
			}
			name := strings.TrimPrefix(f.text(nm), "$")
			if name != "" && name != "class" {
				f.ref(world.Ref{Name: name, Qual: qual, Line: line(nm), In: in, Kind: kind})
			}
		}
		w.refs(w.f.field(n, "arguments"), in, false)
		return
	case "member_call_expression", "nullsafe_member_call_expression", "member_access_expression", "nullsafe_member_access_expression":
		obj := w.f.field(n, "object")
		nm := w.f.field(n, "name")
		if nm != nil && w.f.kind(nm) == "name" {
			r := world.Ref{Name: f.text(nm), Line: line(nm), In: in, Kind: world.RefMember}
			if obj != nil && w.f.kind(obj) == "variable_name" {
				r.Qual = strings.TrimPrefix(f.text(obj), "$")
			}
			f.ref(r)
		}
		w.refs(obj, in, false)
		w.refs(w.f.field(n, "arguments"), in, false)
		return
	case "object_creation_expression", "instanceof_expression", "catch_clause":
		rightID, typeID := f.fieldID("right"), f.fieldID("type")
		mark := len(f.stack)
		for _, ch := range f.kids(n) {
			isType := ch.kind == "name" || ch.kind == "qualified_name" || ch.kind == "type_list" ||
				ch.field != 0 && (ch.field == rightID || ch.field == typeID)
			if ch.named {
				w.refs(ch.n, in, isType)
			}
		}
		f.release(mark)
		return
	case "argument":
		nm := w.f.field(n, "name")
		for _, ch := range w.f.named(n) {
			if nm == nil || ch.Id() != nm.Id() {
				w.refs(ch, in, typ)
			}
		}
		return
	case "binary_expression":
		if op := w.f.field(n, "operator"); op != nil && f.text(op) == "instanceof" {
			w.refs(w.f.field(n, "left"), in, false)
			w.refs(w.f.field(n, "right"), in, true)
			return
		}
	}
	// (read straight from the tree dump: every node the switch does not
	// know comes here)
	for r := range f.childRecs(n) {
		if f.recNamed(r) {
			w.refs(&r.node, in, typ)
		}
	}
}
