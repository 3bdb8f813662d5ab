package extract

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	scala "github.com/tree-sitter/tree-sitter-scala/bindings/go"

	"github.com/git-speed/git-speed/layers/world"
)

// Scala (2 and 3): package clauses, imports (selectors, renames, wildcards),
// classes, case classes (their parameters are properties), traits, objects,
// enums and their cases, givens, extension methods, defs, vals, vars and
// type definitions; references (calls, types, member and qualified
// selections, new) with parameters, locals, lambda parameters and pattern
// bindings left out. private and protected members are not exported.
// Brace bodies are elided like Java's; indented (Scala 3) and expression
// bodies to "// … lines a-b".

func init() {
	register(world.LangScala, sitter.NewLanguage(scala.Language()), "//", walkScala)
}

type scalaWalker struct {
	f    *file
	loc  locals
	docs map[uintptr]string
}

func walkScala(f *file) {
	w := &scalaWalker{f: f}
	w.docs = f.scanComments(func(k string) bool { return k == "comment" || k == "block_comment" }, nil, nil, f.cutInlineComment)
	w.body(f.root, "", 0, false)
	finishMore(f.facts)
}

// body walks the statements of a compilation unit, package or template body.
func (w *scalaWalker) body(n *sitter.Node, parent string, in int, inType bool) {
	f := w.f
	for _, c := range f.named(n) {
		switch f.kind(c) {
		case "package_clause":
			name := f.text(f.field(c, "name"))
			f.facts.Package = qualify(f.facts.Package, name)
			if b := f.field(c, "body"); b != nil {
				w.body(b, parent, in, inType)
			}
		case "import_declaration", "export_declaration":
			w.importDecl(c)
		case "comment", "block_comment":
		default:
			w.member(c, parent, in, inType)
		}
	}
}

func (w *scalaWalker) importDecl(c *sitter.Node) {
	f := w.f
	var path []string
	imp := world.Import{Line: line(c)}
	if f.kind(c) == "export_declaration" {
		imp.Kind = "export"
	}
	for _, k := range f.named(c) {
		switch f.kind(k) {
		case "identifier":
			path = append(path, f.text(k))
		case "namespace_wildcard":
			imp.Alias = "*"
		case "as_renamed_identifier":
			path = append(path, f.text(f.field(k, "name")))
			imp.Alias = f.text(f.field(k, "alias"))
		case "namespace_selectors":
			for _, s := range f.named(k) {
				switch f.kind(s) {
				case "identifier":
					imp.Names = append(imp.Names, f.text(s))
				case "as_renamed_identifier":
					imp.Names = append(imp.Names, f.text(f.field(s, "name")))
				case "namespace_wildcard":
					imp.Alias = "*"
				}
			}
		}
	}
	imp.Path = strings.Join(path, ".")
	f.imp(imp)
}

// exported reports whether a definition has no private or protected modifier.
func (w *scalaWalker) exported(c *sitter.Node) bool {
	m := w.f.childOfKind(c, "modifiers")
	if m == nil {
		return true
	}
	return w.f.childOfKind(m, "access_modifier") == nil
}

// member handles one definition.
func (w *scalaWalker) member(c *sitter.Node, parent string, in int, inType bool) {
	f := w.f
	d := world.Def{Parent: parent, Start: line(c), End: f.trimmedEndLine(c), Exported: w.exported(c), Doc: w.docs[c.Id()]}
	nameNode := f.field(c, "name")
	d.Name = f.text(nameNode)
	d.Qualified = qualify(parent, d.Name)
	skip := func(k *sitter.Node) bool { return nameNode != nil && k.Id() == nameNode.Id() }
	switch f.kind(c) {
	case "class_definition", "trait_definition", "object_definition", "enum_definition", "given_definition", "extension_definition":
		body := f.field(c, "body")
		switch f.kind(c) {
		case "trait_definition":
			d.Kind = world.KindTrait
		case "object_definition":
			d.Kind = "object"
		case "enum_definition":
			d.Kind = world.KindEnum
		case "given_definition":
			d.Kind = "given"
		case "extension_definition":
			d.Kind = "extension"
		default:
			d.Kind = world.KindClass
		}
		if d.Name == "" && f.kind(c) == "extension_definition" {
			d.Name, d.Qualified = "extension", qualify(parent, "extension")
		}
		d.Signature = strings.TrimSuffix(strings.TrimSpace(f.signature(c, body)), ":")
		idx := 0
		if d.Name != "" {
			idx = f.def(d)
		}
		caseClass := strings.HasPrefix(d.Signature, "case ") || strings.Contains(d.Signature, " case class ")
		w.loc.push()
		w.bindTypeParams(c)
		for _, k := range f.named(c) {
			switch {
			case skip(k) || body != nil && k.Id() == body.Id():
			case f.kind(k) == "class_parameters":
				w.classParams(k, d.Qualified, idx, caseClass)
			case f.kind(k) == "parameters" && f.kind(c) == "extension_definition":
				w.bindAll(k)
				w.refs(k, idx)
			default:
				w.refs(k, idx)
			}
		}
		if body != nil {
			w.body(body, d.Qualified, idx, true)
		}
		w.loc.pop()
	case "enum_case_definitions":
		for _, k := range f.named(c) {
			if nm := f.field(k, "name"); nm != nil {
				name := f.text(nm)
				f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: world.KindConst,
					Start: line(k), End: f.endLine(k), Exported: true, Signature: "case " + foldSpace(f.text(k)), Doc: d.Doc})
				for _, x := range f.named(k) {
					if x.Id() != nm.Id() {
						w.refs(x, in)
					}
				}
			}
		}
	case "function_definition", "function_declaration":
		body := f.field(c, "body")
		d.Kind = world.KindFunction
		if inType {
			d.Kind = world.KindMethod
		}
		d.Signature = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f.signature(c, body)), "="))
		idx := f.def(d)
		w.elideScala(body)
		w.loc.push()
		w.bindTypeParams(c)
		w.bindAll(c)
		for _, k := range f.named(c) {
			if !skip(k) {
				w.refs(k, idx)
			}
		}
		w.loc.pop()
	case "val_definition", "val_declaration", "var_definition", "var_declaration":
		pattern := f.field(c, "pattern")
		value := f.field(c, "value")
		d.Kind = world.KindProperty
		if !inType {
			d.Kind = world.KindVar
			if strings.HasPrefix(f.kind(c), "val") {
				d.Kind = world.KindConst
			}
		}
		d.Signature = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f.signature(c, value)), "="))
		var names []*sitter.Node
		if pattern != nil {
			f.walk(pattern, func(x *sitter.Node) bool {
				if f.kind(x) == "identifier" {
					names = append(names, x)
				}
				return f.kind(x) != "type_identifier"
			})
		} else if nameNode != nil {
			names = append(names, nameNode)
		}
		idx := 0
		for _, nm := range names {
			dd := d
			dd.Name = f.text(nm)
			dd.Qualified = qualify(parent, dd.Name)
			if i := f.def(dd); idx == 0 {
				idx = i
			}
		}
		f.elideValue(value)
		w.loc.push()
		w.bindAll(value)
		for _, k := range f.named(c) {
			if pattern == nil || k.Id() != pattern.Id() {
				if !skip(k) {
					w.refs(k, idx)
				}
			}
		}
		w.loc.pop()
	case "type_definition":
		d.Kind = world.KindType
		d.Signature = foldSpace(f.text(c))
		idx := f.def(d)
		w.loc.push()
		w.bindTypeParams(c)
		for _, k := range f.named(c) {
			if !skip(k) {
				w.refs(k, idx)
			}
		}
		w.loc.pop()
	default:
		w.loc.push()
		w.bindAll(c)
		w.refs(c, in)
		w.loc.pop()
		w.elideStatementBlocks(c)
	}
}

// elideStatementBlocks elides the multi-line blocks of a statement in a
// template or at top level (test("…") { … }, property(…) { … }): only
// definitions are a skeleton's business.
func (w *scalaWalker) elideStatementBlocks(c *sitter.Node) {
	f := w.f
	f.walk(c, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "block", "indented_block", "case_block":
			if line(x) != f.trimmedEndLine(x) {
				w.elideScala(x)
			}
			return false
		case "template_body", "string", "interpolated_string_expression":
			return false
		}
		return true
	})
}

// elideScala elides a def's body: braces like Java, an indented block or a
// multi-line expression to "// … lines a-b".
func (w *scalaWalker) elideScala(body *sitter.Node) {
	if body == nil {
		return
	}
	if w.f.kind(body) == "block" || w.f.kind(body) == "template_body" {
		w.f.elideBlock(body)
		return
	}
	w.f.elideLines(body)
}

// classParams records the val/var parameters of a class (all of a case
// class's) as properties and walks their types for references.
func (w *scalaWalker) classParams(ps *sitter.Node, parent string, in int, caseClass bool) {
	f := w.f
	for _, p := range f.named(ps) {
		if f.kind(p) != "class_parameter" {
			continue
		}
		nm := f.field(p, "name")
		prop := caseClass
		for _, k := range f.all(p) {
			if f.kind(k) == "val" || f.kind(k) == "var" {
				prop = true
			}
		}
		if nm != nil && prop {
			name := f.text(nm)
			f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: world.KindProperty,
				Start: line(p), End: f.endLine(p), Exported: w.exported(p), Signature: foldSpace(f.text(p))})
		}
		for _, k := range f.named(p) {
			if nm == nil || k.Id() != nm.Id() {
				w.refs(k, in)
			}
		}
	}
}

func (w *scalaWalker) bindTypeParams(c *sitter.Node) {
	f := w.f
	for _, k := range f.named(c) {
		if f.kind(k) == "type_parameters" {
			for _, p := range f.named(k) {
				if f.kind(p) == "identifier" {
					w.loc.add(f.text(p))
				}
			}
		}
	}
}

// bindAll adds the parameters and locals under n to the current frame:
// parameter names, val/var patterns, lambda parameters, case patterns and
// for-comprehension bindings; nested templates are left alone.
func (w *scalaWalker) bindAll(n *sitter.Node) {
	f := w.f
	if n == nil {
		return
	}
	bindPattern := func(p *sitter.Node) {
		f.walk(p, func(x *sitter.Node) bool {
			switch f.kind(x) {
			case "identifier":
				if s := f.text(x); s != "" && !capitalised(s) {
					w.loc.add(s)
				}
				return false
			case "type_identifier", "stable_identifier", "field_expression":
				return false
			}
			return true
		})
	}
	f.walk(n, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "parameter", "class_parameter", "binding":
			if nm := f.field(x, "name"); nm != nil {
				w.loc.add(f.text(nm))
			}
		case "val_definition", "var_definition":
			if x.Id() != n.Id() {
				bindPattern(f.field(x, "pattern"))
			}
		case "lambda_expression":
			if p := f.field(x, "parameters"); p != nil {
				bindPattern(p)
			}
		case "case_clause":
			bindPattern(f.field(x, "pattern"))
		case "enumerator", "generator":
			if ks := f.named(x); len(ks) > 0 {
				bindPattern(ks[0])
			}
		case "template_body":
			return x.Id() == n.Id()
		}
		return true
	})
}

// refs records the references under n.
func (w *scalaWalker) refs(n *sitter.Node, in int) {
	f := w.f
	if n == nil {
		return
	}
	f.walk(n, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "identifier":
			if s := f.text(x); !w.loc.has(s) {
				f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: world.RefValue})
			}
			return false
		case "type_identifier":
			if s := f.text(x); !w.loc.has(s) {
				f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: world.RefType})
			}
			return false
		case "stable_type_identifier":
			s := foldSpace(f.text(x))
			if i := strings.LastIndexByte(s, '.'); i > 0 {
				f.ref(world.Ref{Name: s[i+1:], Qual: s[:i], Line: line(x), In: in, Kind: world.RefType})
			}
			return false
		case "call_expression":
			fn := f.field(x, "function")
			if fn != nil && f.kind(fn) == "generic_function" {
				w.refs(f.field(fn, "type_arguments"), in)
				fn = f.field(fn, "function")
			}
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
				if f.kind(k) != "generic_function" && (fn == nil || k.Id() != fn.Id()) {
					w.refs(k, in)
				}
			}
			return false
		case "field_expression":
			w.selection(x, in, false)
			return false
		case "lambda_expression", "case_clause", "block", "indented_block", "for_expression":
			w.loc.push()
			w.bindAll(x)
			for _, k := range f.named(x) {
				if f.kind(x) == "lambda_expression" && startNode(f.field(x, "parameters")) == k.Id() {
					w.typesOnly(k, in)
					continue
				}
				if f.kind(x) == "case_clause" && startNode(f.field(x, "pattern")) == k.Id() {
					w.typesOnly(k, in)
					continue
				}
				w.refs(k, in)
			}
			w.loc.pop()
			return false
		case "template_body":
			for _, k := range f.named(x) {
				w.loc.push()
				w.bindAll(k)
				w.refs(k, in)
				w.loc.pop()
			}
			return false
		case "string", "comment", "block_comment", "integer_literal", "floating_point_literal", "character_literal",
			"boolean_literal", "wildcard", "operator_identifier", "null_literal":
			return false
		}
		return true
	})
}

// typesOnly records the type references under a pattern or parameter list.
func (w *scalaWalker) typesOnly(n *sitter.Node, in int) {
	w.f.walk(n, func(x *sitter.Node) bool {
		switch w.f.kind(x) {
		case "type_identifier", "stable_type_identifier", "generic_type":
			w.refs(x, in)
			return false
		}
		return true
	})
}

// selection records a.b (a call when call is true).
func (w *scalaWalker) selection(x *sitter.Node, in int, call bool) {
	f := w.f
	value := f.field(x, "value")
	field := f.field(x, "field")
	if field == nil {
		w.refs(value, in)
		return
	}
	q := f.text(value)
	self := q == "this" || q == "super"
	f.ref(selectionRef(q, f.text(field), line(field), in, self, !self && typeQual(q, &w.loc), call))
	w.refs(value, in)
}
