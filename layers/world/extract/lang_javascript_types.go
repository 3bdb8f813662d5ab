package extract

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/git-speed/git-speed/layers/world"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Type expressions of TypeScript and JavaScript, as the graph resolves
// members through them. A type expression is a name followed by member
// names, dot-separated: "Foo" (what the name Foo denotes: an instance of
// class, interface or type alias Foo, or the type of value Foo),
// "ky.get" (the type of member get of what ky holds). Calling a value is
// not written: the type of a function or method is what it returns, the
// type of a property its declared type (the return type when that is a
// function type), so "createInstance" stands for createInstance()'s
// result. Promise<T>, Partial<T>, T | undefined and the like give T;
// arrays, literals, object types and other unions give "" (unknown).

// jsTypeWrappers are generic types whose members are, for lookup, those of
// their first type argument.
var jsTypeWrappers = toSet(`Promise PromiseLike Partial Readonly Required NonNullable Awaited`)

// maxJSTypeDepth bounds the nesting followed in a type or expression.
const maxJSTypeDepth = 12

// jsTypeExpr is the type expression of type node t ("" when unknown).
func jsTypeExpr(f *file, t *sitter.Node) string {
	for depth := 0; t != nil && depth < maxJSTypeDepth; depth++ {
		switch f.kind(t) {
		case "type_annotation", "parenthesized_type", "readonly_type":
			if f.namedCount(t) != 1 {
				return ""
			}
			t = f.namedChild(t, 0)
		case "type_identifier", "identifier":
			return f.text(t)
		case "nested_type_identifier": // ns.Type
			if s := strings.ReplaceAll(f.text(t), " ", ""); isJSPath(s) {
				return s
			}
			return ""
		case "generic_type":
			name, args := f.field(t, "name"), f.field(t, "type_arguments")
			if name == nil || f.kind(name) != "type_identifier" {
				return ""
			}
			n := f.text(name)
			if (n == "ReturnType" || n == "InstanceType") && args != nil && f.namedCount(args) == 1 {
				// ReturnType<typeof f>: what calling f gives;
				// InstanceType<typeof C>: an instance of C.
				q := f.namedChild(args, 0)
				if f.kind(q) != "type_query" || f.namedCount(q) != 1 || f.kind(f.namedChild(q, 0)) != "identifier" {
					return ""
				}
				if n == "ReturnType" {
					return f.text(f.namedChild(q, 0)) + "()"
				}
				return f.text(f.namedChild(q, 0))
			}
			if !jsTypeWrappers[n] || args == nil || f.namedCount(args) == 0 {
				return n
			}
			t = f.namedChild(args, 0)
		case "union_type":
			var parts []*sitter.Node
			jsUnionParts(f, t, &parts, 0)
			if len(parts) != 1 {
				return ""
			}
			t = parts[0]
		case "function_type":
			t = f.field(t, "return_type")
		case "array_type":
			// T[]: written "[]T", which names no type; a callback in
			// an array literal takes its parameters from T.
			if f.namedCount(t) != 1 {
				return ""
			}
			if e := jsTypeExpr(f, f.namedChild(t, 0)); e != "" && !strings.HasPrefix(e, "[]") && !strings.HasSuffix(e, "()") {
				return "[]" + e
			}
			return ""
		case "type_query":
			if f.namedCount(t) != 1 {
				return ""
			}
			if c := f.namedChild(t, 0); f.kind(c) == "identifier" {
				return f.text(c)
			}
			return ""
		default:
			return ""
		}
	}
	return ""
}

// jsUnionParts collects the members of union t that are not null,
// undefined or void.
func jsUnionParts(f *file, t *sitter.Node, out *[]*sitter.Node, depth int) {
	if depth > maxJSTypeDepth {
		*out = append(*out, nil, nil) // too deep: unknown
		return
	}
	for i := uint(0); i < f.namedCount(t); i++ {
		c := f.namedChild(t, i)
		switch f.kind(c) {
		case "union_type":
			jsUnionParts(f, c, out, depth+1)
		case "literal_type", "predefined_type":
			if s := f.text(c); s == "null" || s == "undefined" || s == "void" {
				continue
			}
			*out = append(*out, c)
		default:
			*out = append(*out, c)
		}
	}
}

// jsReturnType is the type expression of what function-like node n
// returns: its return type annotation, else, for an arrow function whose
// body is an expression, that expression's.
func (w *jsWalker) jsReturnType(n *sitter.Node) string {
	f := w.f
	if rt := f.field(n, "return_type"); rt != nil {
		return jsTypeExpr(f, rt)
	}
	b := f.field(n, "body")
	if b == nil {
		return ""
	}
	if f.kind(b) != "statement_block" {
		return w.exprOf(b, 0)
	}
	return w.constructedReturn(b)
}

// constructedReturn is the class a function body's return statements
// construct (return new C(…), or return c after const c = new C(…)),
// when they construct one class only and return nothing else but bare
// returns; "" otherwise. Nested functions and classes are not looked
// into.
func (w *jsWalker) constructedReturn(body *sitter.Node) string {
	f := w.f
	// Locals the body constructs (const c = new C(…)) stand for their
	// class when returned.
	built := map[string]string{}
	f.walk(body, func(c *sitter.Node) bool {
		switch k := f.kind(c); {
		case isFunctionValue(k), k == "function_declaration", k == "generator_function_declaration",
			k == "class", k == "class_declaration", k == "method_definition":
			return false
		case k == "variable_declarator":
			nm, v := f.field(c, "name"), f.field(c, "value")
			if nm != nil && v != nil && f.kind(nm) == "identifier" && f.kind(v) == "new_expression" {
				if t := w.exprOf(v, 0); t != "" {
					built[f.text(nm)] = t
				}
			}
		}
		return true
	})
	cls, other := "", false
	f.walk(body, func(c *sitter.Node) bool {
		if other {
			return false
		}
		switch k := f.kind(c); {
		case isFunctionValue(k), k == "function_declaration", k == "generator_function_declaration",
			k == "class", k == "class_declaration", k == "method_definition":
			return false
		case k == "return_statement":
			if f.namedCount(c) == 0 {
				return false
			}
			v := f.namedChild(c, 0)
			name := ""
			switch f.kind(v) {
			case "new_expression":
				name = w.exprOf(v, 0)
			case "identifier":
				if name = built[f.text(v)]; name == "" {
					name = w.narrowed(c, f.text(v))
				}
			case "null", "undefined":
				return false // a missing value, as the compiler's strictNullChecks-free union drops it
			}
			if name == "" || cls != "" && cls != name {
				other = true
			}
			cls = name
			return false
		}
		return true
	})
	if other {
		return ""
	}
	return cls
}

// narrowed is the class an if statement around n narrows the name x to
// (if (x instanceof C) { … return x }), or "".
func (w *jsWalker) narrowed(n *sitter.Node, x string) string {
	f := w.f
	for p := f.parent(n); p != nil; p = f.parent(p) {
		switch k := f.kind(p); {
		case isFunctionValue(k), k == "function_declaration", k == "method_definition":
			return ""
		case k == "if_statement":
			cond := f.field(p, "condition")
			if cond != nil && f.kind(cond) == "parenthesized_expression" {
				cond = f.namedChild(cond, 0)
			}
			if cond == nil || f.kind(cond) != "binary_expression" || f.text(f.field(cond, "operator")) != "instanceof" {
				continue
			}
			if l := f.field(cond, "left"); l != nil && f.kind(l) == "identifier" && f.text(l) == x {
				return w.exprOf(f.field(cond, "right"), 0)
			}
		}
	}
	return ""
}

// valueType is the type expression of what a declaration holds: its
// annotation t, else its value v (a function's return type, or the
// expression's type).
func (w *jsWalker) valueType(t, v *sitter.Node) string {
	f := w.f
	if t != nil {
		return jsTypeExpr(f, t)
	}
	if v == nil {
		return ""
	}
	if isFunctionValue(f.kind(v)) {
		return w.jsReturnType(v)
	}
	return w.exprOf(v, 0)
}

// exprOf is the type expression of value expression n where it is
// written: a name of the module (not a local, nor a global), a local
// whose type is known, this in a top-level class, members of those,
// calls, await, new C(…), x as T and x!; "" otherwise.
func (w *jsWalker) exprOf(n *sitter.Node, depth int) string {
	f := w.f
	if n == nil || depth > maxJSTypeDepth {
		return ""
	}
	switch f.kind(n) {
	case "identifier":
		name := f.keyText(n) // looked up without a copy; copied when returned
		if w.bound(name) {
			return w.typeOf(n, name)
		}
		if jsGlobals[name] {
			return ""
		}
		return f.text(n)
	case "this":
		return w.cls
	case "member_expression":
		p := f.field(n, "property")
		if p == nil || f.kind(p) != "property_identifier" {
			return ""
		}
		if base := w.exprOf(f.field(n, "object"), depth+1); base != "" {
			return base + "." + f.keyText(p) // (copied by the concatenation)
		}
		return ""
	case "call_expression":
		if fn := w.exprOf(f.field(n, "function"), depth+1); fn != "" {
			return fn + "()"
		}
		return ""
	case "await_expression", "parenthesized_expression", "non_null_expression":
		if f.namedCount(n) == 0 {
			return ""
		}
		return w.exprOf(f.namedChild(n, 0), depth+1)
	case "as_expression", "satisfies_expression":
		if k := f.namedCount(n); k == 2 {
			return jsTypeExpr(f, f.namedChild(n, 1))
		}
		return ""
	case "new_expression":
		if c := f.field(n, "constructor"); c != nil && (f.kind(c) == "identifier" || f.kind(c) == "member_expression") {
			return w.exprOf(c, depth+1)
		}
	}
	return ""
}

// typeBases is the comma-separated list of the named types an interface's
// extends clause or a type alias's intersection lists.
func (w *jsWalker) typeBases(n *sitter.Node) string {
	f := w.f
	var out []string
	var visit func(c *sitter.Node, depth int)
	visit = func(c *sitter.Node, depth int) {
		if c == nil || depth > maxJSTypeDepth {
			return
		}
		switch f.kind(c) {
		case "extends_type_clause", "intersection_type":
			for i := uint(0); i < f.namedCount(c); i++ {
				visit(f.namedChild(c, i), depth+1)
			}
		default:
			if t := jsTypeExpr(f, c); t != "" {
				out = append(out, t)
			}
		}
	}
	visit(n, 0)
	if len(out) == 0 && f.kind(n) == "union_type" {
		return jsUnionNames(f, n) // a member of it is each one's
	}
	return strings.Join(out, ",")
}

// jsUnionNames is "A|B" for a union of named types (null and undefined
// left out), "" when a member is anything else.
func jsUnionNames(f *file, n *sitter.Node) string {
	var parts []*sitter.Node
	jsUnionParts(f, n, &parts, 0)
	var out []string
	for _, p := range parts {
		t := jsTypeExpr(f, p)
		if t == "" || p == nil {
			return ""
		}
		out = append(out, t)
	}
	return strings.Join(out, "|")
}

// objectParts is the object type v is, or the object types of the
// intersection v is.
func (w *jsWalker) objectParts(v *sitter.Node) []*sitter.Node {
	f := w.f
	var out []*sitter.Node
	var visit func(c *sitter.Node, depth int)
	visit = func(c *sitter.Node, depth int) {
		if c == nil || depth > maxJSTypeDepth {
			return
		}
		switch f.kind(c) {
		case "object_type":
			out = append(out, c)
		case "intersection_type", "parenthesized_type":
			for i := uint(0); i < f.namedCount(c); i++ {
				visit(f.namedChild(c, i), depth+1)
			}
		}
	}
	visit(v, 0)
	return out
}

// exportAliases defines the names a top-level definition is exported
// under besides its own (export {Hono as HonoBase}, export default ky),
// each with the definition's kind and lines and Returns naming it, so
// that what imports the alias reaches the definition and its type.
func (w *jsWalker) exportAliases() {
	f := w.f
	n := len(f.facts.Defs)
	for k := 0; k < n; k++ {
		d := f.facts.Defs[k]
		if d.Parent != "" {
			continue
		}
		for _, as := range w.exportAs[d.Name] {
			if as == d.Name || w.definedTop(as) {
				continue
			}
			f.def(world.Def{Name: as, Kind: d.Kind, Qualified: as, Start: d.Start, End: d.End,
				Signature: "export { " + d.Name + " as " + as + " }", Exported: true, Returns: d.Name})
		}
		delete(w.exportAs, d.Name) // a name defined twice (overloads) is aliased once
	}
}

// definedTop reports whether the module defines name at top level.
func (w *jsWalker) definedTop(name string) bool {
	for _, d := range w.f.facts.Defs {
		if d.Name == name && d.Parent == "" {
			return true
		}
	}
	return false
}

// definesFunc reports whether the module has defined name at top level,
// so far, as a function or class.
func (w *jsWalker) definesFunc(name string) bool {
	for _, d := range w.f.facts.Defs {
		if d.Name == name && d.Parent == "" && (d.Kind == world.KindFunction || d.Kind == world.KindClass) {
			return true
		}
	}
	return false
}

// jsDoc is what a /** … */ comment says of types: @param {T} name,
// @returns {T}, @type {T}, each as a type expression.
type jsDoc struct {
	params  map[string]string
	returns string
	typ     string
}

// noteJSDoc records the JSDoc types of the comment right above ks[i].
func (w *jsWalker) noteJSDoc(ks []kid, i int) {
	c := &ks[i-1]
	t := string(w.f.src[startByte(c.n):c.end])
	if !strings.HasPrefix(t, "/**") || !strings.Contains(t, "@") {
		return
	}
	d := parseJSDoc(t)
	if d == nil {
		return
	}
	if w.jsdoc == nil {
		w.jsdoc = map[uint]*jsDoc{}
	}
	w.jsdoc[startByte(ks[i].n)] = d
}

// parseJSDoc reads the @param, @returns and @type tags of comment t
// whose type is a plain name; nil when it has none.
func parseJSDoc(t string) *jsDoc {
	var d jsDoc
	found := false
	for _, ln := range strings.Split(t, "\n") {
		ln = strings.TrimLeft(strings.TrimSpace(ln), "/* ")
		tag, rest, ok := strings.Cut(ln, " ")
		if !ok || !strings.HasPrefix(tag, "@") {
			continue
		}
		rest = strings.TrimSpace(rest)
		if !strings.HasPrefix(rest, "{") {
			continue
		}
		end := strings.IndexByte(rest, '}')
		if end < 0 {
			continue
		}
		typ := jsDocType(rest[1:end])
		if typ == "" {
			continue
		}
		switch tag {
		case "@param", "@arg", "@argument":
			name, _, _ := strings.Cut(strings.TrimSpace(rest[end+1:]), " ")
			name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
			name, _, _ = strings.Cut(name, "=")
			if !isJSIdent(name) {
				continue
			}
			if d.params == nil {
				d.params = map[string]string{}
			}
			d.params[name] = typ
		case "@returns", "@return":
			d.returns = typ
		case "@type":
			d.typ = typ
		default:
			continue
		}
		found = true
	}
	if !found {
		return nil
	}
	return &d
}

// jsDocType is the type expression of a JSDoc type: a name, ?Name,
// Name|null|undefined, Promise<Name>; "" for anything else.
func jsDocType(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "?!")
	var keep []string
	for _, p := range strings.Split(s, "|") {
		p = strings.TrimSpace(p)
		if p != "null" && p != "undefined" && p != "void" {
			keep = append(keep, p)
		}
	}
	if len(keep) != 1 {
		return ""
	}
	s = keep[0]
	for depth := 0; depth < 4; depth++ {
		open := strings.IndexByte(s, '<')
		if open < 0 || !strings.HasSuffix(s, ">") {
			break
		}
		if !jsTypeWrappers[s[:open]] {
			s = s[:open]
			break
		}
		s = strings.TrimSpace(s[open+1 : len(s)-1])
	}
	if !isJSIdent(s) || jsDocBuiltins[s] {
		return ""
	}
	return s
}

// jsDocBuiltins are JSDoc type names that are not the project's.
var jsDocBuiltins = toSet(`string number boolean object any unknown never symbol bigint function Function Object
String Number Boolean Array Promise Error Date RegExp Map Set Buffer this`)

// isJSIdent reports whether s is a plain identifier.
func isJSIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return true
}

// paramsDoc is the parameter types the JSDoc above outer gives.
func (w *jsWalker) paramsDoc(outer *sitter.Node) map[string]string {
	if d := w.jsdoc[startByte(outer)]; d != nil {
		return d.params
	}
	return nil
}

// docReturns is the type expression declared, else what the JSDoc above
// outer gives (@returns, or @type for a value).
func (w *jsWalker) docReturns(outer *sitter.Node, declared string) string {
	if declared != "" {
		return declared
	}
	if d := w.jsdoc[startByte(outer)]; d != nil {
		if d.returns != "" {
			return d.returns
		}
		return d.typ
	}
	return ""
}

// jsTypedefImport matches a JSDoc import of a type:
// @typedef {import("./command.js").Command} Command.
var jsTypedefImport = regexp.MustCompile(`@typedef\s*\{\s*import\(\s*["']([^"']+)["']\s*\)\.([A-Za-z_$][\w$]*)\s*\}\s*([A-Za-z_$][\w$]*)`)

// typedefImports records the JSDoc type imports of a module-level
// comment as type imports, which is what they are to the compiler.
func (w *jsWalker) typedefImports(c *sitter.Node) {
	f := w.f
	t := f.text(c)
	if !strings.Contains(t, "@typedef") || !strings.Contains(t, "import(") {
		return
	}
	base := line(c)
	for _, m := range jsTypedefImport.FindAllStringSubmatchIndex(t, -1) {
		spec, name, alias := t[m[2]:m[3]], t[m[4]:m[5]], t[m[6]:m[7]]
		n := name
		if alias != name {
			n = name + " as " + alias
		}
		f.imp(world.Import{Path: spec, Names: []string{n}, Line: base + strings.Count(t[:m[0]], "\n"), Kind: "type"})
	}
}

// typePattern gives the names an object pattern binds the types of the
// members they take from a value of type base: const {a, b: c} = x gives
// a the type "X.a" and c "X.b" when x is of type X.
func (w *jsWalker) typePattern(p *sitter.Node, base string, frame map[string]bool, depth int) {
	f := w.f
	if base == "" || p == nil || depth > maxJSTypeDepth || f.kind(p) != "object_pattern" {
		return
	}
	for i := uint(0); i < f.namedCount(p); i++ {
		c := f.namedChild(p, i)
		switch f.kind(c) {
		case "shorthand_property_identifier_pattern":
			w.setType(f.text(c), base+"."+f.text(c), frame)
		case "object_assignment_pattern":
			if l := f.field(c, "left"); l != nil && f.kind(l) == "shorthand_property_identifier_pattern" {
				w.setType(f.text(l), base+"."+f.text(l), frame)
			}
		case "pair_pattern":
			k, v := f.field(c, "key"), f.field(c, "value")
			if k == nil || v == nil || f.kind(k) != "property_identifier" {
				continue
			}
			if f.kind(v) == "assignment_pattern" {
				v = f.field(v, "left")
			}
			switch {
			case v == nil:
			case f.kind(v) == "identifier":
				w.setType(f.text(v), base+"."+f.text(k), frame)
			case f.kind(v) == "object_pattern":
				w.typePattern(v, base+"."+f.text(k), frame, depth+1)
			}
		}
	}
}

// objectKeys records the keys of object literal obj, written where the
// code gives it type typ (const x: T = {…}, {…} satisfies T, {…} as T),
// as members of typ: receiver "{}", which resolution drops when typ is
// not a type of the tree.
func (w *jsWalker) objectKeys(obj *sitter.Node, typ string) {
	f := w.f
	if typ == "" || obj == nil || f.kind(obj) != "object" {
		return
	}
	for i := uint(0); i < f.namedCount(obj); i++ {
		c := f.namedChild(obj, i)
		var key *sitter.Node
		switch f.kind(c) {
		case "pair", "method_definition":
			if k := f.field(c, "key"); k != nil {
				key = k
			} else {
				key = f.field(c, "name")
			}
		case "shorthand_property_identifier":
			key = c
		}
		if key == nil || (f.kind(key) != "property_identifier" && f.kind(key) != "shorthand_property_identifier") {
			continue
		}
		f.ref(world.Ref{Name: f.text(key), Qual: "{}:" + typ, Line: line(key), In: w.in, Kind: world.RefMember})
	}
}

// Parameter types. A function-like definition (a function, a method, a
// call signature, a property or variable holding or typed by a function,
// a type alias of a function type) writes, after its Returns, the type
// expressions of its parameters: "R;P0;P1" (";P0" when what it returns
// is not known). A parameter is "" when not known, "...T" for a rest
// parameter of type T[] (it stands for every later argument; a rest tuple
// [A, B] is written as its positions), or "=>A0/A1" for an inline
// function type whose parameters are A0 and A1. A callback passed where
// such a parameter is declared takes its parameters' types from it:
// the extractor writes the type of the callback's parameter j as
// "CALLEE#k#j", parameter j of the function type of parameter k of what
// CALLEE holds (jsSelect in graph).

// jsParamsSuffix is ";P0;P1…" for the parameters of function-like node n,
// "" when it declares none whose type is known.
func (w *jsWalker) jsParamsSuffix(n *sitter.Node) string {
	f := w.f
	ps := f.field(n, "parameters")
	if ps == nil {
		return ""
	}
	bounds := w.typeBounds(n)
	var out []string
	known := false
	for i := uint(0); i < f.namedCount(ps); i++ {
		p := f.namedChild(ps, i)
		k := f.kind(p)
		if k != "required_parameter" && k != "optional_parameter" {
			if k != "comment" {
				out = append(out, "")
			}
			continue
		}
		pat := f.field(p, "pattern")
		if pat != nil && f.kind(pat) == "this" {
			continue // this: T is not an argument
		}
		t := jsUnwrapType(f, f.field(p, "type"))
		if pat != nil && f.kind(pat) == "rest_pattern" && t != nil {
			switch f.kind(t) {
			case "array_type":
				if e := bound(bounds, jsParamType(f, f.namedChild(t, 0), false)); e != "" {
					out = append(out, "..."+e)
					known = true
					continue
				}
			case "tuple_type":
				for j := uint(0); j < f.namedCount(t); j++ {
					e := bound(bounds, jsParamType(f, f.namedChild(t, j), false))
					known = known || e != ""
					out = append(out, e)
				}
				continue
			}
			out = append(out, "")
			continue
		}
		e := bound(bounds, jsParamType(f, t, true))
		known = known || e != ""
		out = append(out, e)
	}
	if !known {
		return ""
	}
	return ";" + strings.Join(out, ";")
}

// typeBounds maps the type parameters of function-like node n that have
// a constraint to the constraint's type expression: a parameter typed by
// one (<H extends Handler>(h: H)) takes, as a callback's context, the
// constraint's type, as the compiler infers it.
func (w *jsWalker) typeBounds(n *sitter.Node) map[string]string {
	f := w.f
	tps := f.field(n, "type_parameters")
	if tps == nil {
		return nil
	}
	var out map[string]string
	for i := uint(0); i < f.namedCount(tps); i++ {
		tp := f.namedChild(tps, i)
		nm, c := f.field(tp, "name"), f.field(tp, "constraint")
		if nm == nil || c == nil || f.namedCount(c) != 1 {
			continue
		}
		if e := jsParamType(f, f.namedChild(c, 0), true); e != "" && e != f.text(nm) {
			if out == nil {
				out = map[string]string{}
			}
			out[f.text(nm)] = e
		}
	}
	return out
}

// bound is the constraint of type parameter e, or e itself.
func bound(bounds map[string]string, e string) string {
	if b, ok := bounds[e]; ok {
		return b
	}
	return e
}

// withParams appends the parameter types of function-like node n to
// returns.
func (w *jsWalker) withParams(returns string, n *sitter.Node) string {
	if n == nil {
		return returns
	}
	return returns + w.jsParamsSuffix(n)
}

// jsUnwrapType strips annotations, parentheses, readonly and the null and
// undefined of a union from type t.
func jsUnwrapType(f *file, t *sitter.Node) *sitter.Node {
	for depth := 0; t != nil && depth < maxJSTypeDepth; depth++ {
		switch f.kind(t) {
		case "type_annotation", "parenthesized_type", "readonly_type", "opting_type_annotation":
			if f.namedCount(t) != 1 {
				return nil
			}
			t = f.namedChild(t, 0)
		case "union_type":
			var parts []*sitter.Node
			jsUnionParts(f, t, &parts, 0)
			if len(parts) != 1 {
				return t
			}
			t = parts[0]
		default:
			return t
		}
	}
	return t
}

// jsParamType is the type expression of a parameter of type t: a named
// type, the first named type of an intersection, a union of named types
// ("A|B"), or (when inline is set) an inline function type written
// "=>A0/A1".
func jsParamType(f *file, t *sitter.Node, inline bool) string {
	t = jsUnwrapType(f, t)
	if t == nil {
		return ""
	}
	switch f.kind(t) {
	case "function_type":
		if !inline {
			return ""
		}
		ps := f.field(t, "parameters")
		if ps == nil {
			return ""
		}
		var out []string
		known := false
		for i := uint(0); i < f.namedCount(ps); i++ {
			p := f.namedChild(ps, i)
			if k := f.kind(p); k != "required_parameter" && k != "optional_parameter" {
				if k != "comment" {
					out = append(out, "")
				}
				continue
			}
			if pat := f.field(p, "pattern"); pat != nil && f.kind(pat) == "this" {
				continue
			}
			e := jsParamType(f, f.field(p, "type"), false)
			known = known || e != ""
			out = append(out, e)
		}
		if !known {
			return ""
		}
		return "=>" + strings.Join(out, "/")
	case "intersection_type":
		for i := uint(0); i < f.namedCount(t); i++ {
			if e := jsParamType(f, f.namedChild(t, i), false); e != "" {
				return e
			}
		}
		return ""
	case "union_type":
		// handler: Middleware | H3: a callback takes its parameters
		// from the members that have call signatures ("A|B").
		return jsUnionNames(f, t)
	}
	return jsTypeExpr(f, t)
}

// fnTypeOf is the function type node a declaration's annotation t is
// (run: () => void), or nil.
func fnTypeOf(f *file, t *sitter.Node) *sitter.Node {
	if t = jsUnwrapType(f, t); t != nil && f.kind(t) == "function_type" {
		return t
	}
	return nil
}

// callableOf is the node whose parameters a declaration with annotation t
// and value v declares: its function value, else its function type.
func callableOf(f *file, t, v *sitter.Node) *sitter.Node {
	if v != nil && isFunctionValue(f.kind(v)) {
		return v
	}
	return fnTypeOf(f, t)
}

// args records the refs of the arguments of a call of callee (its type
// expression, "" when unknown). A function passed as argument k takes
// the types of its untyped parameters from callee's parameter k
// ("callee#k"); the functions the keys of an object literal passed there
// hold take their parameters' types from the key's member of that
// parameter's type ("callee#k.key"). The keys themselves are the
// literal's own properties, as the compiler binds them: no refs.
func (w *jsWalker) args(args *sitter.Node, callee string) {
	f := w.f
	pos := -1
	for r := range f.childRecs(args) {
		kind := f.recKind(r)
		if !f.recNamed(r) || kind == "comment" {
			continue
		}
		pos++
		a := &r.node
		if callee == "" {
			w.usesK(a, kind)
			continue
		}
		switch {
		case isFunctionValue(kind):
			w.ctx = callee + "#" + strconv.Itoa(pos)
		case kind == "object":
			w.objectValues(a, callee+"#"+strconv.Itoa(pos), 0)
			continue
		}
		w.usesK(a, kind)
	}
}

// hasArgs reports whether an argument list has an argument (args reads
// its callee for them).
func (w *jsWalker) hasArgs(args *sitter.Node) bool {
	f := w.f
	for r := range f.childRecs(args) {
		if f.recNamed(r) && f.recKind(r) != "comment" {
			return true
		}
	}
	return false
}

// objectValues records the refs of the members of object literal obj of
// type typ (passed as an argument, or the value of a declared variable);
// a function a key holds takes its parameters' types from the key's
// type.
func (w *jsWalker) objectValues(obj *sitter.Node, typ string, depth int) {
	f := w.f
	for r := range f.childRecs(obj) {
		if !f.recNamed(r) {
			continue
		}
		n, kind := &r.node, f.recKind(r)
		var key, fn *sitter.Node
		switch kind {
		case "pair":
			key, fn = f.field(n, "key"), f.field(n, "value")
		case "method_definition":
			key, fn = f.field(n, "name"), n
		}
		if typ != "" && key != nil && fn != nil && f.kind(key) == "property_identifier" {
			// (the key's type is spelled out only where it is used)
			switch fk := f.kind(fn); {
			case fn == n || isFunctionValue(fk):
				w.ctx = typ + "." + f.keyText(key)
			case fk == "object" && depth < maxJSTypeDepth:
				w.objectValues(fn, typ+"."+f.keyText(key), depth+1) // hooks: {…}
				continue
			case fk == "array":
				w.arrayValues(fn, typ+"."+f.keyText(key)+"[]") // beforeRequest: [(state) => …]
				continue
			}
		}
		w.usesK(n, kind)
		w.ctx = ""
	}
}

// isJSPath reports whether s is identifiers joined by dots.
func isJSPath(s string) bool {
	for _, p := range strings.Split(s, ".") {
		if !isJSIdent(p) {
			return false
		}
	}
	return true
}

// jsxPragma is the module a /** @jsxImportSource m */ comment names, ""
// when it names none.
func jsxPragma(c string) string {
	_, rest, ok := strings.Cut(c, "@jsxImportSource")
	if !ok {
		return ""
	}
	fs := strings.Fields(rest)
	if len(fs) == 0 || strings.HasPrefix(fs[0], "*") || strings.ContainsAny(fs[0], ":;#") {
		return ""
	}
	return fs[0]
}

// arrayValues records the refs of the elements of array literal arr
// whose elements are of type elem ("x.hooks[]"); a function among them
// takes its parameters' types from elem.
func (w *jsWalker) arrayValues(arr *sitter.Node, elem string) {
	f := w.f
	for r := range f.childRecs(arr) {
		if !f.recNamed(r) {
			continue
		}
		kind := f.recKind(r)
		if isFunctionValue(kind) {
			w.ctx = elem
		}
		w.usesK(&r.node, kind)
		w.ctx = ""
	}
}

// cutParams makes the last parameter of a call signature of an interface
// the parser ended early a rest parameter ("R;P;H" → "R;P;...H").
func (w *jsWalker) cutParams(returns string) string {
	k := strings.LastIndexByte(returns, ';')
	if !w.cutShort || k < 0 || returns[k+1:] == "" || strings.HasPrefix(returns[k+1:], "...") || strings.HasPrefix(returns[k+1:], "=>") {
		return returns
	}
	return returns[:k+1] + "..." + returns[k+1:]
}
