package extract

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	java "github.com/tree-sitter/tree-sitter-java/bindings/go"

	"github.com/git-speed/git-speed/layers/world"
)

// Java: package clause, imports (static and on-demand), classes,
// interfaces, enums, records, annotation types, methods, constructors and
// fields, and references from bodies with parameters, locals, catch, for,
// lambda and pattern variables left out.

func init() {
	register(world.LangJava, sitter.NewLanguage(java.Language()), "//", walkJava)
}

type javaWalker struct {
	f    *file
	loc  heldLocals // with each local's declared type
	docs map[uintptr]string
}

// local binds name in the innermost frame with the type typ declares (nil:
// not said, as for a lambda's parameter or var x = f()).
func (w *javaWalker) local(name string, typ *sitter.Node) {
	w.loc.add(name)
	w.loc.hold(name, w.typeName(typ))
}

// typeName returns the name of the class a type denotes, as written and
// without type arguments (Map for Map<K, V>, a.b.C for a.b.C<T>), or ""
// for a primitive, an array, var or a type variable.
func (w *javaWalker) typeName(t *sitter.Node) string {
	f := w.f
	for t != nil {
		switch f.kind(t) {
		case "type_identifier":
			s := f.text(t)
			if s == "var" || w.loc.has(s) {
				return ""
			}
			return s
		case "scoped_type_identifier":
			var b strings.Builder
			for _, p := range f.named(t) {
				switch f.kind(p) {
				case "type_identifier", "scoped_type_identifier", "generic_type":
					if b.Len() > 0 {
						b.WriteByte('.')
					}
					b.WriteString(w.typeName(p))
				}
			}
			return b.String()
		case "generic_type":
			t = f.namedChild(t, 0)
			continue
		case "annotated_type":
			var last *sitter.Node
			for _, p := range f.named(t) {
				last = p
			}
			t = last
			continue
		}
		return ""
	}
	return ""
}

// bases lists the types a class, interface, enum or record extends and
// implements, comma-separated (Def.Returns of a type).
func (w *javaWalker) bases(c *sitter.Node) string {
	f := w.f
	var out []string
	for _, ch := range f.named(c) {
		switch f.kind(ch) {
		case "superclass", "super_interfaces", "extends_interfaces":
			f.walk(ch, func(x *sitter.Node) bool {
				switch f.kind(x) {
				case "type_identifier", "scoped_type_identifier", "generic_type":
					if n := w.typeName(x); n != "" {
						out = append(out, n)
					}
					return false
				}
				return true
			})
		}
	}
	return strings.Join(out, ",")
}

func walkJava(f *file) {
	w := &javaWalker{f: f}
	w.docs = f.scanComments(func(k string) bool { return k == "line_comment" || k == "block_comment" }, nil, nil, nil)
	for _, c := range f.named(f.root) {
		switch f.kind(c) {
		case "package_declaration":
			for _, p := range f.named(c) {
				if f.kind(p) == "scoped_identifier" || f.kind(p) == "identifier" {
					f.facts.Package = f.text(p)
				}
			}
		case "import_declaration":
			imp := world.Import{Line: line(c)}
			for _, p := range f.all(c) {
				switch f.kind(p) {
				case "scoped_identifier", "identifier":
					imp.Path = f.text(p)
				case "asterisk":
					imp.Alias = "*"
				case "static":
					imp.Kind = "static"
				}
			}
			f.imp(imp)
		default:
			w.member(c, "", 0, false)
		}
	}
	finishMore(f.facts)
}

// javaModifiers reports the visibility words of a declaration.
func (w *javaWalker) modifiers(n *sitter.Node) (public, private bool) {
	m := w.f.childOfKind(n, "modifiers")
	if m == nil {
		return false, false
	}
	for _, c := range w.f.all(m) {
		switch w.f.text(c) {
		case "public", "protected":
			public = true
		case "private":
			private = true
		}
	}
	return
}

// member handles one declaration of a program or class body. inInterface
// makes members public by default.
func (w *javaWalker) member(c *sitter.Node, parent string, in int, inInterface bool) {
	f := w.f
	name := f.text(w.f.field(c, "name"))
	pub, priv := w.modifiers(c)
	d := world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Start: line(c), End: w.f.endLine(c),
		Exported: pub || inInterface && !priv, Doc: w.docs[c.Id()]}
	switch w.f.kind(c) {
	case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration":
		body := w.f.field(c, "body")
		d.Kind = map[string]string{"class_declaration": world.KindClass, "interface_declaration": world.KindInterface,
			"enum_declaration": world.KindEnum, "record_declaration": "record", "annotation_type_declaration": world.KindInterface}[w.f.kind(c)]
		d.Signature = f.signature(c, body)
		w.loc.push()
		w.typeParams(w.f.field(c, "type_parameters"))
		d.Returns = w.bases(c)
		idx := f.def(d)
		for i, ch := range w.f.all(c) {
			if c.FieldNameForChild(uint32(i)) == "name" {
				continue
			}
			if body == nil || ch.Id() != body.Id() {
				if w.f.kind(ch) == "formal_parameters" { // record components
					for _, p := range w.f.named(ch) {
						w.refs(w.f.field(p, "type"), idx)
					}
					continue
				}
				w.refs(ch, idx)
			}
		}
		iface := w.f.kind(c) == "interface_declaration" || w.f.kind(c) == "annotation_type_declaration"
		for _, m := range w.f.named(body) {
			if w.f.kind(m) == "enum_body_declarations" {
				for _, mm := range w.f.named(m) {
					w.member(mm, d.Qualified, idx, iface)
				}
				continue
			}
			if w.f.kind(m) == "enum_constant" {
				cn := f.text(w.f.field(m, "name"))
				f.def(world.Def{Name: cn, Qualified: qualify(d.Qualified, cn), Parent: d.Qualified, Kind: world.KindConst,
					Start: line(m), End: w.f.endLine(m), Exported: true, Signature: cn, Returns: d.Name, Doc: w.docs[m.Id()]})
				w.refs(w.f.field(m, "arguments"), idx)
				if b := w.f.field(m, "body"); b != nil {
					f.elideBlock(b)
					w.refs(b, idx)
				}
				continue
			}
			w.member(m, d.Qualified, idx, iface)
		}
		w.loc.pop()
	case "method_declaration", "constructor_declaration", "compact_constructor_declaration", "annotation_type_element_declaration":
		body := w.f.field(c, "body")
		d.Kind = world.KindMethod
		if w.f.kind(c) == "compact_constructor_declaration" {
			d.Name, d.Qualified = lastSegment(parent, "."), qualify(parent, lastSegment(parent, "."))
		}
		d.Signature = strings.TrimSuffix(f.signature(c, body), ";")
		w.loc.push()
		w.typeParams(w.f.field(c, "type_parameters"))
		d.Returns = w.typeName(w.f.field(c, "type"))
		idx := f.def(d)
		f.elideBlock(body)
		w.bindAll(c)
		for _, ch := range w.f.all(c) {
			if w.f.kind(ch) != "modifiers" && w.f.kind(ch) != "identifier" {
				w.refs(ch, idx)
			}
		}
		w.refs(w.f.childOfKind(c, "modifiers"), idx)
		w.loc.pop()
	case "field_declaration", "constant_declaration":
		for _, decl := range w.f.all(c) {
			if w.f.kind(decl) != "variable_declarator" {
				continue
			}
			dd := d
			dd.Name = f.text(w.f.field(decl, "name"))
			dd.Qualified = qualify(parent, dd.Name)
			dd.Kind = world.KindField
			if w.f.kind(c) == "constant_declaration" {
				dd.Kind = world.KindConst
			}
			dd.Returns = w.typeName(w.f.field(c, "type"))
			v := w.f.field(decl, "value")
			dd.Signature = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(f.signature(c, v), ";")), "=")
			dd.Signature = strings.TrimSpace(dd.Signature)
			idx := f.def(dd)
			f.elideInit(v)
			w.refs(w.f.field(c, "type"), idx)
			w.refs(w.f.childOfKind(c, "modifiers"), idx)
			w.loc.push()
			w.bindAll(v)
			w.refs(v, idx)
			w.loc.pop()
		}
	case "static_initializer", "block":
		f.elideBlock(w.f.childOfKind(c, "block"))
		if w.f.kind(c) == "block" {
			f.elideBlock(c)
		}
		w.loc.push()
		w.bindAll(c)
		w.refs(c, in)
		w.loc.pop()
	case "line_comment", "block_comment", ";":
	default:
		w.refs(c, in)
	}
}

func (w *javaWalker) typeParams(tp *sitter.Node) {
	for _, p := range w.f.named(tp) {
		if w.f.kind(p) == "type_parameter" {
			if id := w.f.childOfKind(p, "type_identifier", "identifier"); id != nil {
				w.loc.add(w.f.text(id))
			}
		}
	}
}

// bindAll adds every name bound inside n (parameters, locals, catch and
// for variables, lambda parameters, patterns) to the current frame; nested
// class bodies are left alone.
func (w *javaWalker) bindAll(n *sitter.Node) {
	if n == nil {
		return
	}
	f := w.f
	f.walk(n, func(x *sitter.Node) bool {
		switch w.f.kind(x) {
		case "formal_parameter", "enhanced_for_statement", "resource":
			if nm := w.f.field(x, "name"); nm != nil && w.f.kind(nm) == "identifier" {
				w.local(f.text(nm), w.f.field(x, "type"))
			}
		case "catch_formal_parameter":
			if nm := w.f.field(x, "name"); nm != nil && w.f.kind(nm) == "identifier" {
				var typ *sitter.Node
				if ct := w.f.childOfKind(x, "catch_type"); ct != nil && w.f.namedCount(ct) == 1 {
					typ = w.f.namedChild(ct, 0)
				}
				w.local(f.text(nm), typ)
			}
		case "type_pattern", "record_pattern_component", "instanceof_expression":
			if nm := w.f.field(x, "name"); nm != nil && w.f.kind(nm) == "identifier" {
				typ := w.f.field(x, "right")
				if typ == nil {
					typ = w.f.field(x, "type")
				}
				w.local(f.text(nm), typ)
			}
		case "spread_parameter", "type_pattern_component":
			if vd := w.f.childOfKind(x, "variable_declarator"); vd != nil {
				w.local(f.text(w.f.field(vd, "name")), nil)
			}
			if id := w.f.childOfKind(x, "identifier"); id != nil {
				w.local(f.text(id), nil)
			}
		case "local_variable_declaration":
			typ := w.f.field(x, "type")
			for _, vd := range w.f.named(x) {
				if w.f.kind(vd) == "variable_declarator" {
					t := typ
					if w.typeName(t) == "" { // var x = new T(…)
						if v := w.f.field(vd, "value"); v != nil && w.f.kind(v) == "object_creation_expression" {
							t = w.f.field(v, "type")
						}
					}
					w.local(f.text(w.f.field(vd, "name")), t)
				}
			}
		case "lambda_expression":
			p := w.f.field(x, "parameters")
			if p != nil && w.f.kind(p) == "identifier" {
				w.local(f.text(p), nil)
			} else {
				for _, id := range w.f.named(p) {
					switch w.f.kind(id) {
					case "identifier":
						w.local(f.text(id), nil)
					case "formal_parameter":
						w.local(f.text(w.f.field(id, "name")), w.f.field(id, "type"))
					}
				}
			}
		case "class_body":
			return false
		}
		return true
	})
}

func javaTypeLike(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

// refs records the references under n.
func (w *javaWalker) refs(n *sitter.Node, in int) {
	if n == nil {
		return
	}
	f := w.f
	f.walk(n, func(x *sitter.Node) bool {
		switch w.f.kind(x) {
		case "identifier":
			s := f.text(x)
			if !w.loc.has(s) {
				f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: world.RefValue})
			}
			return false
		case "type_identifier":
			if s := f.text(x); !w.loc.has(s) && s != "var" {
				f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: world.RefType})
			}
			return false
		case "scoped_type_identifier":
			parts := w.f.named(x)
			if len(parts) > 0 {
				last := parts[len(parts)-1]
				f.ref(world.Ref{Name: f.text(last), Qual: foldSpace(string(f.src[startByte(x):startByte(last)])), Line: line(x), In: in, Kind: world.RefType})
				if q := strings.TrimSuffix(foldSpace(string(f.src[startByte(x):startByte(last)])), "."); q != "" {
					f.facts.Refs[len(f.facts.Refs)-1].Qual = q
				}
			}
			return false
		case "method_invocation":
			name := f.text(w.f.field(x, "name"))
			obj := w.f.field(x, "object")
			r := world.Ref{Name: name, Line: line(w.f.field(x, "name")), In: in, Kind: world.RefCall}
			if obj != nil {
				r.Kind, r.Qual = w.qual(obj)
				if r.Kind == world.RefValue {
					r.Kind = world.RefCall
				}
				w.refs(obj, in)
			}
			f.ref(r)
			w.refs(w.f.field(x, "type_arguments"), in)
			w.refs(w.f.field(x, "arguments"), in)
			return false
		case "field_access":
			obj := w.f.field(x, "object")
			fld := w.f.field(x, "field")
			r := world.Ref{Name: f.text(fld), Line: line(fld), In: in}
			r.Kind, r.Qual = w.qual(obj)
			f.ref(r)
			w.refs(obj, in)
			return false
		case "scoped_identifier":
			f.ref(world.Ref{Name: f.text(w.f.field(x, "name")), Qual: f.text(w.f.field(x, "scope")), Line: line(x), In: in, Kind: world.RefValue})
			return false
		case "marker_annotation", "annotation":
			f.ref(world.Ref{Name: f.text(w.f.field(x, "name")), Line: line(x), In: in, Kind: world.RefType})
			w.refs(w.f.field(x, "arguments"), in)
			return false
		case "method_reference":
			parts := w.f.named(x)
			if len(parts) >= 2 {
				last := parts[len(parts)-1]
				_, q := w.qual(parts[0])
				f.ref(world.Ref{Name: f.text(last), Qual: q, Line: line(last), In: in, Kind: world.RefMember})
				w.refs(parts[0], in)
			}
			return false
		case "class_body": // anonymous class: its members are walked for refs only
			for _, m := range w.f.named(x) {
				w.loc.push()
				w.bindAll(m)
				if w.f.kind(m) == "method_declaration" {
					for _, ch := range w.f.all(m) {
						if w.f.kind(ch) != "identifier" {
							w.refs(ch, in)
						}
					}
				} else {
					w.refs(m, in)
				}
				w.loc.pop()
			}
			return false
		case "string_literal", "line_comment", "block_comment", "character_literal":
			return false
		}
		return true
	})
}

// qual classifies the object of a selection. A type-like name or a
// dotted name ending in one (Type.m, a.b.C.m) is a static qualifier (kind
// value). Any other receiver makes a member use whose qualifier is the
// receiver as a chain the resolver evaluates to a type, or "" when the
// code does not say it:
//
//	this, super        the enclosing class, its bases
//	:T                 an instance of T (a local or parameter declared T,
//	                   new T(…), a cast to T)
//	.x                 field x of the enclosing class or a base
//	m()                what method m of the enclosing class returns
//	C>x, C>m()         field x, or what method m returns, of what C is
func (w *javaWalker) qual(obj *sitter.Node) (kind, qual string) {
	if static, q := w.chain(obj, 0); static {
		return world.RefValue, q
	} else {
		return world.RefMember, q
	}
}

// maxChain is the most selections a receiver chain names.
const maxChain = 4

// chain is qual's receiver chain of obj, static when obj names a type.
func (w *javaWalker) chain(obj *sitter.Node, depth int) (static bool, q string) {
	f := w.f
	if obj == nil || depth > maxChain {
		return false, ""
	}
	switch f.kind(obj) {
	case "this", "super":
		return false, f.text(obj)
	case "identifier":
		s := f.text(obj)
		if w.loc.has(s) {
			if t := w.loc.held(s); t != "" {
				return false, ":" + t
			}
			return false, ""
		}
		if javaTypeLike(s) {
			return true, s
		}
		return false, "." + s
	case "field_access", "scoped_identifier":
		s := f.text(obj)
		if javaTypeLike(lastSegment(s, ".")) && !strings.ContainsAny(s, "()") && !w.loc.has(rootName(s)) {
			return true, foldSpace(s)
		}
		inner, name := f.field(obj, "object"), f.field(obj, "field")
		if f.kind(obj) == "scoped_identifier" {
			inner, name = f.field(obj, "scope"), f.field(obj, "name")
		}
		return false, w.step(inner, f.text(name), depth)
	case "method_invocation":
		name := f.text(f.field(obj, "name"))
		inner := f.field(obj, "object")
		if inner == nil {
			return false, name + "()"
		}
		return false, w.step(inner, name+"()", depth)
	case "object_creation_expression":
		if t := w.typeName(f.field(obj, "type")); t != "" {
			return false, ":" + t
		}
	case "cast_expression":
		if t := w.typeName(f.field(obj, "type")); t != "" {
			return false, ":" + t
		}
	case "parenthesized_expression":
		return w.chain(f.namedChild(obj, 0), depth)
	}
	return false, ""
}

// step is the chain of inner followed by the selection sel ("x" or
// "m()"), or "" when inner's is not known.
func (w *javaWalker) step(inner *sitter.Node, sel string, depth int) string {
	static, q := w.chain(inner, depth+1)
	switch {
	case q == "":
		return ""
	case static:
		return ":" + q + ">" + sel
	}
	return q + ">" + sel
}
