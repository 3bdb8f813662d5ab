package extract

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tree_sitter_javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tree_sitter_typescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/git-speed/git-speed/layers/world"
)

// One walker serves JavaScript, TypeScript and TSX: the TypeScript
// grammars extend the JavaScript one, so the walker knows the node kinds
// of all three (class names are identifier in JavaScript, type_identifier
// in TypeScript; fields are field_definition or public_field_definition).
func init() {
	// Markers are block comments: an elided arrow body may be followed
	// by ";" or ")" on its line.
	register(world.LangJavaScript, sitter.NewLanguage(tree_sitter_javascript.Language()), "/*", walkJS)
	register(world.LangTypeScript, sitter.NewLanguage(tree_sitter_typescript.LanguageTypescript()), "/*", walkJS)
	register(world.LangTSX, sitter.NewLanguage(tree_sitter_typescript.LanguageTSX()), "/*", walkJS)
}

// jsGlobals are names every JavaScript environment (browser or Node) and
// TypeScript's standard library provide: never references.
var jsGlobals = toSet(`undefined NaN Infinity globalThis window document self console process require
module exports __dirname __filename arguments Object Array String Number Boolean Symbol BigInt Math
JSON Date RegExp Error TypeError RangeError SyntaxError ReferenceError EvalError URIError AggregateError
Promise Map Set WeakMap WeakSet WeakRef Proxy Reflect Intl ArrayBuffer SharedArrayBuffer DataView
Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array Float32Array
Float64Array BigInt64Array BigUint64Array Function Iterator AsyncIterator Generator
parseInt parseFloat isNaN isFinite encodeURI encodeURIComponent decodeURI decodeURIComponent escape
unescape eval setTimeout clearTimeout setInterval clearInterval setImmediate clearImmediate
queueMicrotask structuredClone fetch Buffer URL URLSearchParams TextEncoder TextDecoder AbortController
Event EventTarget HTMLElement Element Node navigator location localStorage sessionStorage alert
Record Partial Required Readonly Pick Omit Exclude Extract NonNullable ReturnType Parameters
InstanceType ConstructorParameters Awaited ReadonlyArray ArrayLike PromiseLike Iterable
IterableIterator AsyncIterable AsyncIterableIterator ThisType Uppercase Lowercase Capitalize
Uncapitalize PropertyKey PropertyDescriptor TemplateStringsArray NoInfer`)

type jsWalker struct {
	f  *file
	ns map[string]bool // namespace imports: import * as ns
	// cls is the class whose members are being walked ("this" is one of
	// its instances); "" elsewhere.
	cls string
	// vtypes are the classes locals were constructed as or annotated
	// with (const a = new Foo(), a: Foo), with the frame binding them.
	vtypes   map[string]jsVarType
	frames   []map[string]bool
	in       int
	exported map[string]bool // names exported by export { a, b as c }
	// exportAs maps a local name to the names it is exported under
	// (export {a as b}, exports.b = a, module.exports = {a}); whole is the
	// name module.exports is set to. Imported names among them are
	// re-exports.
	exportAs map[string][]string
	whole    string
	// wholeDef is the name of the function or class expression
	// module.exports was set to (module.exports = function …, = class …):
	// properties assigned to module.exports after it are that value's
	// members, not the module's exports, as the TypeScript compiler binds
	// them (it does export them after module.exports = f, f declared).
	wholeDef string
	// docs holds the doc lines of the children of the bodies being walked,
	// by start byte, read from their sibling lists (cheaper than asking
	// tree-sitter for each node's previous sibling).
	docs map[uint]string
	// jsdoc holds the types a /** … */ comment right above a node gives
	// (@param, @returns, @type), by the node's start byte; params is what
	// the function being entered takes from it.
	jsdoc     map[uint]*jsDoc
	docParams map[string]string
	// requireAlias is the name a top-level const x = require("m") binds,
	// while its declarator is walked; requireNames the names
	// const {a, b: c} = require("m") or const c = require("m").b binds
	// ("a", "b as c").
	requireAlias string
	requireNames []string
	// ctx is the type expression of the callable the function about to
	// be scoped is passed as or returned as (app.get#1 for the second
	// argument of app.get(…)); its untyped parameters take their types
	// from it. rets holds the declared return types of the functions
	// being walked, innermost last.
	ctx  string
	rets []string
	// jsxSource is the module the file's @jsxImportSource pragma names.
	jsxSource string
	// cutShort is set while the members of an interface the parser
	// ended early are walked.
	cutShort bool
}

// jsVarType is the class a variable holds and the frame that binds it.
type jsVarType struct {
	class string
	frame map[string]bool
}

func walkJS(f *file) {
	w := &jsWalker{f: f, ns: map[string]bool{}, exported: map[string]bool{}, docs: map[uint]string{}, exportAs: map[string][]string{}}
	w.statements(f.root, "", 0, false)
	w.reexports()
	w.exportAliases()
	if len(w.exported) > 0 {
		for i := range f.facts.Defs {
			d := &f.facts.Defs[i]
			if d.Parent == "" && w.exported[d.Name] {
				d.Exported = true
			}
		}
	}
}

// statements handles the statements of a module or namespace body. prefix
// qualifies the names defined there ("NS." inside namespace NS).
func (w *jsWalker) statements(n *sitter.Node, prefix string, parentIdx int, exported bool) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	ks := f.kids(n)
	w.noteDocs(ks)
	for i := 0; i < len(ks); i++ {
		w.in = parentIdx
		if prefix == "" && w.importAlias(ks, i) {
			i++ // export import x = require("m") parses as two statements
			continue
		}
		if ks[i].kind == "comment" || ks[i].kind == "html_comment" {
			f.commentAt(ks, i)
			w.typedefImports(ks[i].n)
			if w.jsxSource == "" && prefix == "" {
				w.jsxSource = jsxPragma(f.text(ks[i].n))
			}
			continue
		}
		w.statement(ks[i].n, ks[i].kind, prefix, parentIdx, exported, ks[i].n)
	}
}

// noteDocs records the doc lines of a body's children for docOf.
func (w *jsWalker) noteDocs(ks []kid) {
	for i := range ks {
		if ks[i].named && !isCommentKind(ks[i].kind) {
			if d := w.f.docAt(ks, i); d != "" {
				w.docs[startByte(ks[i].n)] = d
			}
			if i > 0 && isCommentKind(ks[i-1].kind) {
				w.noteJSDoc(ks, i)
			}
		}
	}
}

// statement handles one top-level (or namespace-level) statement; outer is
// the node whose leading comment is the doc (the export statement around a
// declaration).
func (w *jsWalker) statement(n *sitter.Node, k, prefix string, parentIdx int, exported bool, outer *sitter.Node) {
	f := w.f
	switch k {
	case "comment", "html_comment":
		f.comment(n)
	case "hash_bang_line", "{", "}", ";":
	case "import_statement":
		w.importStmt(n)
	case "export_statement":
		w.exportStmt(n, prefix, parentIdx)
	case "function_declaration", "generator_function_declaration", "function_signature":
		w.function(n, outer, prefix, parentIdx, exported)
	case "class_declaration", "abstract_class_declaration", "class":
		w.class(n, outer, prefix, parentIdx, exported)
	case "interface_declaration":
		w.iface(n, outer, prefix, parentIdx, exported)
	case "type_alias_declaration":
		w.typeAlias(n, outer, prefix, parentIdx, exported)
	case "enum_declaration":
		w.enum(n, outer, prefix, parentIdx, exported)
	case "lexical_declaration", "variable_declaration":
		w.variables(n, outer, prefix, parentIdx, exported)
	case "internal_module", "module":
		w.namespace(n, outer, prefix, parentIdx, exported)
	case "ambient_declaration":
		m := len(f.stack)
		for _, c := range f.kids(n) {
			if c.named {
				w.statement(c.n, c.kind, prefix, parentIdx, exported, outer)
			}
		}
		f.release(m)
	case "expression_statement":
		if c := f.namedChild(n, 0); c != nil && f.kind(c) == "internal_module" {
			w.namespace(c, outer, prefix, parentIdx, exported)
			return
		}
		if w.commonJS(f.namedChild(n, 0), outer, prefix, parentIdx) {
			return
		}
		w.uses(n)
		w.elideBulk(n)
	default:
		w.uses(n)
		w.elideBulk(n)
	}
}

// docOf returns the first line of the comment above n.
func (w *jsWalker) docOf(n *sitter.Node) string { return w.docs[startByte(n)] }

func (w *jsWalker) qual(prefix, name string) string { return prefix + name }

func (w *jsWalker) parentOf(prefix string) string { return strings.TrimSuffix(prefix, ".") }

// function handles a function declaration or an overload signature.
func (w *jsWalker) function(n, outer *sitter.Node, prefix string, parentIdx int, exported bool) {
	f := w.f
	name := "default"
	if nm := f.field(n, "name"); nm != nil {
		name = f.text(nm)
	}
	body := f.field(n, "body")
	idx := f.def(world.Def{Name: name, Kind: world.KindFunction, Qualified: w.qual(prefix, name),
		Parent: w.parentOf(prefix), Start: line(outer), End: w.f.endLine(outer),
		Signature: strings.TrimSuffix(f.signature(n, body), ";"), Exported: exported, Doc: w.docOf(outer),
		Returns: w.withParams(w.docReturns(outer, w.jsReturnType(n)), n)})
	w.in = idx
	w.docParams = w.paramsDoc(outer)
	w.functionScope(n, body)
	w.in = parentIdx
}

// functionScope records the refs of a function-like node: its type
// parameters, parameters and return type, and its body in its own scope.
// A statement block body is elided from the skeleton.
func (w *jsWalker) functionScope(n, body *sitter.Node) {
	f := w.f
	ctx := w.ctx
	w.ctx = ""
	locals := map[string]bool{}
	if tp := f.field(n, "type_parameters"); tp != nil {
		w.typeParams(tp, locals)
	}
	w.frames = append(w.frames, locals)
	defer func() { w.frames = w.frames[:len(w.frames)-1] }()
	doc := w.docParams
	w.docParams = nil
	if p := f.field(n, "parameters"); p != nil {
		w.docParams = doc
		w.params(p, locals, ctx)
		w.docParams = nil
	}
	if p := f.field(n, "parameter"); p != nil { // x => …
		locals[f.text(p)] = true
		if ctx != "" && f.kind(p) == "identifier" {
			w.setType(f.text(p), ctx+"#0", locals)
		}
	}
	ret := ""
	if rt := f.field(n, "return_type"); rt != nil {
		w.types(rt)
		if fnTypeOf(f, rt) == nil {
			ret = jsTypeExpr(f, rt)
		}
	}
	if ret == "" && ctx != "" {
		ret = ctx + "()" // what the callable it is passed as returns
	}
	w.rets = append(w.rets, ret)
	defer func() { w.rets = w.rets[:len(w.rets)-1] }()
	if body == nil {
		return
	}
	if f.kind(body) == "statement_block" {
		w.collect(body, locals)
		f.elideBody(body)
	} else {
		if w.f.endLine(body)-line(body) >= 2 {
			f.elide(startByte(body), w.f.endByte(body), fmt.Sprintf("… /* lines %d-%d */", line(body), w.f.endLine(body)))
		}
		if isFunctionValue(f.kind(body)) {
			w.ctx = ret // (): Handler => (c) => …
		}
	}
	w.uses(body)
}

func (w *jsWalker) typeParams(tp *sitter.Node, locals map[string]bool) {
	f := w.f
	for i := uint(0); i < f.namedCount(tp); i++ {
		p := f.namedChild(tp, i)
		if nm := f.field(p, "name"); nm != nil {
			locals[f.text(nm)] = true
		}
	}
	w.frames = append(w.frames, locals)
	for i := uint(0); i < f.namedCount(tp); i++ {
		p := f.namedChild(tp, i)
		if c := f.field(p, "constraint"); c != nil {
			w.types(c)
		}
		if v := f.field(p, "value"); v != nil {
			w.types(v)
		}
	}
	w.frames = w.frames[:len(w.frames)-1]
}

// params binds parameter names and records the refs of their types,
// defaults and decorators.
func (w *jsWalker) params(ps *sitter.Node, locals map[string]bool, ctx string) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	pos := -1
	for _, c := range f.kids(ps) {
		p := c.n
		if c.named && c.kind != "comment" {
			pos++
		}
		// What the callable the function is passed as says of the
		// parameter at pos.
		byCtx := ""
		if ctx != "" && c.named { // (the cases below that read it are named kinds)
			byCtx = ctx + "#" + strconv.Itoa(pos)
		}
		switch c.kind {
		case "required_parameter", "optional_parameter":
			if pat := f.field(p, "pattern"); pat != nil {
				w.bind(pat, locals)
				if f.kind(pat) == "this" {
					pos-- // this: T is not an argument
				}
			} else if nm := f.field(p, "name"); nm != nil {
				w.bind(nm, locals)
			}
			if t := f.field(p, "type"); t != nil {
				w.types(t)
				if nm := f.field(p, "pattern"); nm != nil && f.kind(nm) == "identifier" {
					w.setType(f.text(nm), jsTypeExpr(f, t), locals)
				} else {
					w.typePattern(nm, jsTypeExpr(f, t), locals, 0)
				}
			} else if nm := f.field(p, "pattern"); nm != nil && f.kind(nm) == "identifier" && w.docParams[f.text(nm)] != "" {
				w.setType(f.text(nm), w.docParams[f.text(nm)], locals)
			} else if nm != nil && byCtx != "" {
				if f.kind(nm) == "identifier" {
					w.setType(f.text(nm), byCtx, locals)
				} else {
					w.typePattern(nm, byCtx, locals, 0)
				}
			}
			if v := f.field(p, "value"); v != nil {
				w.uses(v)
			}
			m := len(f.stack)
			for _, d := range f.kids(p) {
				if d.kind == "decorator" {
					w.uses(d.n)
				}
			}
			f.release(m)
		case "identifier", "assignment_pattern":
			w.bind(p, locals)
			nm := p
			if c.kind == "assignment_pattern" {
				nm = f.field(p, "left")
			}
			if nm != nil && f.kind(nm) == "identifier" && w.docParams[f.text(nm)] != "" {
				w.setType(f.text(nm), w.docParams[f.text(nm)], locals)
			} else if nm != nil && f.kind(nm) == "identifier" && byCtx != "" {
				w.setType(f.text(nm), byCtx, locals)
			}
		case "object_pattern":
			w.bind(p, locals)
			w.typePattern(p, byCtx, locals, 0)
		default:
			if c.named && c.kind != "comment" {
				w.bind(p, locals)
			}
		}
	}
}

// bind binds the names of a binding pattern and records the uses in its
// defaults.
func (w *jsWalker) bind(p *sitter.Node, locals map[string]bool) { w.bindPattern(p, locals, true) }

// bindNames is bind without recording uses (for collection passes).
func (w *jsWalker) bindNames(p *sitter.Node, locals map[string]bool) { w.bindPattern(p, locals, false) }

// bindPattern adds the names a binding pattern declares to locals; with
// uses set, it also records the references in its default values.
func (w *jsWalker) bindPattern(p *sitter.Node, locals map[string]bool, uses bool) {
	f := w.f
	switch f.kind(p) {
	case "identifier", "shorthand_property_identifier_pattern":
		locals[f.text(p)] = true
	case "object_pattern", "array_pattern", "rest_pattern":
		for i := uint(0); i < f.namedCount(p); i++ {
			w.bindPattern(f.namedChild(p, i), locals, uses)
		}
	case "pair_pattern":
		if v := f.field(p, "value"); v != nil {
			w.bindPattern(v, locals, uses)
		}
	case "assignment_pattern", "object_assignment_pattern":
		if l := f.field(p, "left"); l != nil {
			w.bindPattern(l, locals, uses)
		}
		if r := f.field(p, "right"); uses && r != nil {
			w.uses(r)
		}
	}
}

// collect gathers the names declared in a function body (let, const,
// var, function and class declarations, catch and for bindings), without
// entering nested functions or classes. Block scoping is folded into the
// function: a name declared in any block of it is local to all of it.
func (w *jsWalker) collect(n *sitter.Node, locals map[string]bool) {
	f := w.f
	for r := range f.childRecs(n) {
		if !f.recNamed(r) {
			continue
		}
		ch := &r.node
		switch f.recKind(r) {
		case "function_declaration", "generator_function_declaration", "class_declaration",
			"abstract_class_declaration", "enum_declaration", "interface_declaration", "type_alias_declaration":
			if nm := f.field(ch, "name"); nm != nil {
				locals[f.text(nm)] = true
			}
			continue
		case "function_expression", "arrow_function", "generator_function", "class", "method_definition",
			"string", "template_string", "comment", "number":
			continue
		case "variable_declarator":
			if nm := f.field(ch, "name"); nm != nil {
				w.bindNames(nm, locals)
			}
		case "catch_clause":
			if p := f.field(ch, "parameter"); p != nil {
				w.bindNames(p, locals)
			}
		case "for_in_statement":
			if l := f.field(ch, "left"); l != nil && f.field(ch, "kind") != nil {
				w.bindNames(l, locals)
			}
		case "import_statement":
			continue
		}
		w.collect(ch, locals)
	}
}

func (w *jsWalker) bound(name string) bool {
	for i := len(w.frames) - 1; i >= 0; i-- {
		if w.frames[i][name] {
			return true
		}
	}
	return false
}

// name records a bare identifier use unless local or global.
func (w *jsWalker) name(n *sitter.Node, kind string) {
	f := w.f
	if name := f.keyText(n); w.bound(name) || jsGlobals[name] {
		return // (looked up without a copy of the name)
	}
	f.ref(world.Ref{Name: f.text(n), Line: line(n), In: w.in, Kind: kind})
}

// member records obj.a.b: with obj a namespace import, a qualified ref
// for a and members for the rest; otherwise a use of obj and member refs
// qualified by the chain's root ("this" for this.x).
func (w *jsWalker) member(n *sitter.Node, kind string) {
	f := w.f
	var chain []*sitter.Node
	obj := n
	for {
		k := f.kind(obj)
		if k != "member_expression" && k != "nested_identifier" {
			break
		}
		if p := f.field(obj, "property"); p != nil {
			chain = append(chain, p)
		}
		o := f.field(obj, "object")
		if o == nil {
			return
		}
		obj = o
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	root := ""
	nsRoot := false
	switch f.kind(obj) {
	case "identifier":
		root = f.text(obj)
		if jsGlobals[root] && !w.bound(root) {
			return // console.log, Math.max, JSON.parse: nothing of this project
		}
		if w.ns[root] && !w.bound(root) && len(chain) > 0 {
			nsRoot = true
			k := world.RefValue
			if len(chain) == 1 {
				k = kind
			}
			f.ref(world.Ref{Name: f.text(chain[0]), Qual: root, Line: line(chain[0]), In: w.in, Kind: k})
			chain = chain[1:]
		} else {
			w.name(obj, world.RefValue)
		}
	case "this", "super":
		root = f.text(obj)
	default:
		w.uses(obj)
	}
	hint := ""
	if !nsRoot {
		hint = w.exprOf(obj, 0)
	}
	for i, a := range chain {
		if f.kind(a) == "private_property_identifier" {
			hint = ""
			continue
		}
		q, name := root, f.text(a)
		if hint != "" {
			q = root + ":" + hint // the member is looked up in that type
			if i < len(chain)-1 {
				hint += "." + name // (for the members after it)
			}
		}
		f.ref(world.Ref{Name: name, Qual: q, Line: line(a), In: w.in, Kind: world.RefMember})
	}
}

// uses records the refs of any expression or statement, and the
// require() and import() calls it makes.
func (w *jsWalker) uses(n *sitter.Node) { w.usesK(n, w.f.kind(n)) }

// usesK is uses for a node whose kind is known.
func (w *jsWalker) usesK(n *sitter.Node, k string) {
	f := w.f
	switch k {
	case "identifier":
		w.name(n, world.RefValue)
		return
	case "shorthand_property_identifier":
		w.name(n, world.RefValue)
		return
	case "type_identifier":
		w.name(n, world.RefType)
		return
	case "member_expression":
		w.member(n, world.RefValue)
		return
	case "call_expression", "new_expression":
		field := "function"
		if k == "new_expression" {
			field = "constructor"
		}
		fn := f.field(n, field)
		args := f.field(n, "arguments")
		if fn != nil {
			switch fk := f.kind(fn); fk {
			case "identifier":
				if k == "call_expression" && f.textIs(fn, "require") && !w.bound("require") {
					w.dynamicImport(n, args, "require")
				}
				w.name(fn, world.RefCall)
			case "import":
				w.dynamicImport(n, args, "dynamic")
			case "member_expression":
				w.member(fn, world.RefCall)
			default:
				w.uses(fn)
			}
		}
		if ta := f.field(n, "type_arguments"); ta != nil {
			w.types(ta)
		}
		if args != nil && k == "call_expression" && fn != nil && f.kind(fn) != "import" {
			callee := ""
			if w.hasArgs(args) { // (what the callee is matters to its arguments alone)
				callee = w.exprOf(fn, 0)
			}
			w.args(args, callee)
		} else if args != nil {
			w.uses(args)
		}
		return
	case "property_identifier", "private_property_identifier", "string", "template_string_fragment",
		"string_fragment", "number", "regex", "true", "false", "null", "undefined", "this", "super",
		"comment", "html_comment", "statement_identifier", "predefined_type", "hash_bang_line",
		"jsx_text", "html_character_reference", "escape_sequence", "meta_property":
		if k == "template_string" {
			break
		}
		return
	case "assignment_expression":
		l, r := f.field(n, "left"), f.field(n, "right")
		if l != nil && r != nil && f.kind(l) == "member_expression" && isFunctionValue(f.kind(r)) {
			w.uses(l)
			w.ctx = w.exprOf(l, 0) // x.onInit = (store) => …: the property's type
			w.uses(r)
			return
		}
	case "return_statement":
		if c := f.namedChild(n, 0); c != nil && len(w.rets) > 0 && isFunctionValue(f.kind(c)) {
			w.ctx = w.rets[len(w.rets)-1] // return (c) => … in a function returning Handler
		}
	case "pair":
		if key := f.field(n, "key"); key != nil && f.kind(key) == "computed_property_name" {
			w.uses(key)
		}
		if v := f.field(n, "value"); v != nil {
			w.uses(v)
		}
		return
	case "function_expression", "arrow_function", "generator_function", "function_declaration",
		"generator_function_declaration":
		w.functionScope(n, f.field(n, "body"))
		return
	case "method_definition":
		if nm := f.field(n, "name"); nm != nil && f.kind(nm) == "computed_property_name" {
			w.uses(nm)
		}
		w.functionScope(n, f.field(n, "body"))
		return
	case "class", "class_declaration", "abstract_class_declaration":
		w.classRefs(n)
		return
	case "variable_declarator":
		if t := f.field(n, "type"); t != nil {
			w.types(t)
		}
		if nm := f.field(n, "name"); nm != nil && f.kind(nm) == "identifier" && len(w.frames) > 0 {
			w.setType(f.text(nm), w.declType(n), w.frames[len(w.frames)-1])
		}
		if nm := f.field(n, "name"); nm != nil && f.kind(nm) != "identifier" {
			w.bind(nm, map[string]bool{}) // defaults inside patterns
			if len(w.frames) > 0 {
				w.typePattern(nm, w.declType(n), w.frames[len(w.frames)-1], 0)
			}
		}
		if v := f.field(n, "value"); v != nil {
			if t := f.field(n, "type"); t != nil {
				w.objectKeys(v, jsTypeExpr(f, t))
				if isFunctionValue(f.kind(v)) && fnTypeOf(f, t) == nil {
					w.ctx = jsTypeExpr(f, t) // const h: Handler = (c) => …
				}
			}
			// const x = require("m"), const {a} = require("m") in a
			// block or a function: the declaration is a use of the
			// module or of the names it takes.
			w.requireBinding(f.field(n, "name"), v)
			if t := f.field(n, "type"); t != nil && f.kind(v) == "object" {
				w.objectValues(v, jsTypeExpr(f, t), 0) // const r: Rule = {handler: (m) => …}
			} else {
				w.uses(v)
			}
			w.requireAlias, w.requireNames = "", nil
		}
		return
	case "catch_clause":
		if t := f.field(n, "type"); t != nil {
			w.types(t)
		}
		if b := f.field(n, "body"); b != nil {
			w.uses(b)
		}
		return
	case "for_in_statement":
		if l := f.field(n, "left"); l != nil && f.field(n, "kind") == nil {
			w.uses(l)
		}
		if r := f.field(n, "right"); r != nil {
			w.uses(r)
		}
		if b := f.field(n, "body"); b != nil {
			w.uses(b)
		}
		return
	case "labeled_statement", "break_statement", "continue_statement":
		if b := f.field(n, "body"); b != nil {
			w.uses(b)
		}
		return
	case "import_statement":
		w.importStmt(n)
		return
	case "type_annotation", "type_arguments", "generic_type", "nested_type_identifier", "union_type",
		"intersection_type", "object_type", "function_type", "array_type", "tuple_type", "type_query",
		"conditional_type", "lookup_type", "index_type_query", "parenthesized_type", "literal_type",
		"readonly_type", "constructor_type", "infer_type", "mapped_type_clause", "template_literal_type",
		"opting_type_annotation", "omitting_type_annotation", "adding_type_annotation":
		w.types(n)
		return
	case "as_expression", "satisfies_expression", "type_assertion":
		if k != "type_assertion" && f.namedCount(n) == 2 {
			w.objectKeys(f.namedChild(n, 0), jsTypeExpr(f, f.namedChild(n, 1)))
		}
		w.children(n)
		return
	case "interface_declaration", "type_alias_declaration", "enum_declaration":
		w.types(n)
		return
	case "jsx_opening_element", "jsx_self_closing_element", "jsx_closing_element":
		if k != "jsx_closing_element" {
			if nm := f.field(n, "name"); nm != nil {
				w.jsxName(nm)
			}
		}
		mark := len(f.stack)
		for _, c := range f.kids(n) {
			if c.named && c.field != f.fieldID("name") {
				w.uses(c.n)
			}
		}
		f.release(mark)
		return
	case "jsx_attribute":
		for i := uint(0); i < f.namedCount(n); i++ {
			c := f.namedChild(n, i)
			if ck := f.kind(c); ck != "property_identifier" && ck != "jsx_namespace_name" {
				w.uses(c)
			}
		}
		return
	}
	w.children(n)
}

// jsxName records a component used as a JSX element (<Foo />, <ns.Foo />);
// lower-case names are HTML elements.
func (w *jsWalker) jsxName(nm *sitter.Node) {
	f := w.f
	switch f.kind(nm) {
	case "identifier":
		t := f.text(nm)
		if t != "" && t[0] >= 'A' && t[0] <= 'Z' {
			w.name(nm, world.RefCall)
		} else if t != "" && t[0] >= 'a' && t[0] <= 'z' && !w.bound(t) {
			// An HTML element: a member of JSX.IntrinsicElements of the
			// file's JSX import source.
			f.ref(world.Ref{Name: t, Qual: "jsx:" + w.jsxSource, Line: line(nm), In: w.in, Kind: world.RefMember})
		}
	case "member_expression":
		w.member(nm, world.RefCall)
	}
}

func (w *jsWalker) children(n *sitter.Node) {
	f := w.f
	for r := range f.childRecs(n) {
		if f.recNamed(r) {
			w.usesK(&r.node, f.recKind(r))
		}
	}
}

// types records the refs of a type expression.
func (w *jsWalker) types(n *sitter.Node) {
	f := w.f
	switch f.kind(n) {
	case "type_identifier":
		w.name(n, world.RefType)
		return
	case "identifier":
		w.name(n, world.RefValue)
		return
	case "nested_type_identifier":
		mod, nm := f.field(n, "module"), f.field(n, "name")
		if mod != nil && nm != nil {
			root := f.text(mod)
			if i := strings.IndexByte(root, '.'); i >= 0 {
				root = root[:i]
			}
			if !w.bound(root) {
				f.ref(world.Ref{Name: f.text(nm), Qual: f.text(mod), Line: line(nm), In: w.in, Kind: world.RefType})
			}
		}
		return
	case "property_identifier", "predefined_type", "string", "number", "comment", "this_type",
		"literal_type", "existential_type":
		return
	case "type_query":
		w.children(n)
		return
	case "member_expression":
		w.member(n, world.RefValue)
		return
	case "function_type", "constructor_type", "method_signature", "call_signature", "construct_signature":
		locals := map[string]bool{}
		if tp := f.field(n, "type_parameters"); tp != nil {
			w.typeParams(tp, locals)
		}
		w.frames = append(w.frames, locals)
		if p := f.field(n, "parameters"); p != nil {
			w.params(p, map[string]bool{}, "")
		}
		for _, fl := range []string{"return_type", "type"} {
			if rt := f.field(n, fl); rt != nil {
				w.types(rt)
			}
		}
		w.frames = w.frames[:len(w.frames)-1]
		return
	case "conditional_type", "mapped_type_clause":
		// infer X and [K in …] bind type names within the type.
		locals := map[string]bool{}
		f.walk(n, func(c *sitter.Node) bool {
			switch f.kind(c) {
			case "infer_type":
				if f.namedCount(c) > 0 {
					locals[f.text(f.namedChild(c, 0))] = true
				}
			case "mapped_type_clause":
				if nm := f.field(c, "name"); nm != nil {
					locals[f.text(nm)] = true
				}
			}
			return true
		})
		w.frames = append(w.frames, locals)
		w.typeChildren(n)
		w.frames = w.frames[:len(w.frames)-1]
		return
	case "property_signature", "index_signature":
		if nm := f.field(n, "name"); nm != nil && f.kind(nm) == "computed_property_name" {
			w.uses(nm)
		}
		for _, fl := range []string{"type", "index_type"} {
			if t := f.field(n, fl); t != nil {
				w.types(t)
			}
		}
		if m := f.field(n, "name"); m != nil && f.kind(n) == "index_signature" {
			// [key: string]: T binds key
			_ = m
		}
		return
	case "interface_declaration", "type_alias_declaration":
		locals := map[string]bool{}
		if tp := f.field(n, "type_parameters"); tp != nil {
			w.typeParams(tp, locals)
		}
		w.frames = append(w.frames, locals)
		mark := len(f.stack)
		for _, c := range f.kids(n) {
			if c.named && c.field != f.fieldID("name") && c.field != f.fieldID("type_parameters") {
				w.types(c.n)
			}
		}
		f.release(mark)
		w.frames = w.frames[:len(w.frames)-1]
		return
	case "enum_declaration":
		if b := f.field(n, "body"); b != nil {
			f.walk(b, func(c *sitter.Node) bool {
				if f.kind(c) == "enum_assignment" {
					if v := f.field(c, "value"); v != nil {
						w.uses(v)
					}
					return false
				}
				return true
			})
		}
		return
	}
	w.typeChildren(n)
}

func (w *jsWalker) typeChildren(n *sitter.Node) {
	f := w.f
	for r := range f.childRecs(n) {
		if f.recNamed(r) {
			w.types(&r.node)
		}
	}
}

// class handles a class declaration: the class and its members are
// definitions.
func (w *jsWalker) class(n, outer *sitter.Node, prefix string, parentIdx int, exported bool) {
	f := w.f
	name := "default"
	if nm := f.field(n, "name"); nm != nil {
		name = f.text(nm)
	}
	body := f.field(n, "body")
	qual := w.qual(prefix, name)
	sigEnd := w.f.endByte(n)
	if body != nil {
		sigEnd = startByte(body)
	}
	sigStart := startByte(n)
	// Decorators belong to the class, not its signature.
	m := len(f.stack)
	for _, c := range f.kids(n) {
		if c.kind == "decorator" && w.f.endByte(c.n) > sigStart {
			sigStart = w.f.endByte(c.n)
		}
	}
	f.release(m)
	idx := f.def(world.Def{Name: name, Kind: world.KindClass, Qualified: qual, Parent: w.parentOf(prefix),
		Start: line(outer), End: w.f.endLine(outer), Signature: foldSpace(f.textRange(sigStart, sigEnd)),
		Exported: exported, Doc: w.docOf(outer), Returns: w.extends(n)})
	w.in = idx
	locals := map[string]bool{}
	if tp := f.field(n, "type_parameters"); tp != nil {
		w.typeParams(tp, locals)
	}
	w.frames = append(w.frames, locals)
	w.classRefs(n)
	if body != nil {
		outerCls := w.cls
		w.cls = ""
		if prefix == "" {
			w.cls = name // a top-level class: what resolution can look up
		}
		w.classMembers(body, qual, idx)
		w.cls = outerCls
	}
	w.frames = w.frames[:len(w.frames)-1]
	w.in = parentIdx
}

// classRefs records the refs of a class's decorators, heritage and type
// parameters (members are handled by classMembers or, for class
// expressions, right here).
func (w *jsWalker) classRefs(n *sitter.Node) {
	f := w.f
	if f.kind(n) == "class" { // a class expression: its own type parameters
		locals := map[string]bool{}
		if tp := f.field(n, "type_parameters"); tp != nil {
			w.typeParams(tp, locals)
		}
		w.frames = append(w.frames, locals)
		defer func() { w.frames = w.frames[:len(w.frames)-1] }()
	}
	mark := len(f.stack)
	defer f.release(mark)
	for _, c := range f.kids(n) {
		switch c.kind {
		case "decorator":
			w.uses(c.n)
		case "class_heritage":
			f.walk(c.n, func(h *sitter.Node) bool {
				switch f.kind(h) {
				case "extends_clause":
					if v := f.field(h, "value"); v != nil {
						switch f.kind(v) {
						case "identifier":
							w.name(v, world.RefType)
						case "member_expression":
							w.member(v, world.RefType)
						default:
							w.uses(v)
						}
					}
					if ta := f.field(h, "type_arguments"); ta != nil {
						w.types(ta)
					}
					return false
				case "implements_clause":
					w.types(h)
					return false
				case "identifier": // JavaScript: class_heritage holds the expression
					w.name(h, world.RefType)
					return false
				case "member_expression":
					w.member(h, world.RefType)
					return false
				case "call_expression":
					w.uses(h)
					return false
				}
				return true
			})
		case "class_body":
			if f.kind(n) == "class" {
				outerCls := w.cls
				w.cls = "" // an anonymous class
				w.classMembersRefs(c.n)
				w.cls = outerCls
			}
		}
	}
}

// classMembersRefs records the refs of an anonymous class's members.
func (w *jsWalker) classMembersRefs(body *sitter.Node) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	for _, c := range f.kids(body) {
		if c.named {
			w.member1(c.n, c.kind)
		}
	}
}

// member1 records the refs of one class member.
func (w *jsWalker) member1(n *sitter.Node, k string) {
	f := w.f
	switch k {
	case "method_definition", "method_signature", "abstract_method_signature", "function_signature":
		mark := len(f.stack)
		for _, c := range f.kids(n) {
			if c.kind == "decorator" {
				w.uses(c.n)
			}
		}
		f.release(mark)
		w.functionScope(n, f.field(n, "body"))
	case "public_field_definition", "field_definition":
		mark := len(f.stack)
		for _, c := range f.kids(n) {
			if c.kind == "decorator" {
				w.uses(c.n)
			}
		}
		f.release(mark)
		if t := f.field(n, "type"); t != nil {
			w.types(t)
		}
		if v := f.field(n, "value"); v != nil {
			w.uses(v)
			w.elideValue(v)
		}
	case "class_static_block":
		if b := f.field(n, "body"); b != nil {
			w.functionScope(n, b)
		}
	case "index_signature":
		w.types(n)
	}
}

// classMembers records the members of a class body as definitions.
func (w *jsWalker) classMembers(body *sitter.Node, parent string, parentIdx int) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	cks := f.kids(body)
	w.noteDocs(cks)
	var methods []*sitter.Node // of a JavaScript class: what they assign on this are members
	for i := range cks {
		c := &cks[i]
		n := c.n
		w.in = parentIdx
		switch c.kind {
		case "comment":
			f.commentAt(cks, i)
		case "method_definition", "method_signature", "abstract_method_signature", "function_signature",
			"public_field_definition", "field_definition":
			nm := f.field(n, "name")
			if nm == nil {
				nm = f.field(n, "property")
			}
			if nm == nil {
				w.member1(n, c.kind)
				continue
			}
			name := f.text(nm)
			kind := world.KindMethod
			body := f.field(n, "body")
			sig := ""
			if c.kind == "public_field_definition" || c.kind == "field_definition" {
				kind = world.KindField
				if v := f.field(n, "value"); v != nil {
					if vk := f.kind(v); vk == "arrow_function" || vk == "function_expression" {
						kind = world.KindMethod
					}
					sig = strings.TrimSuffix(foldSpace(f.text(n)), ";")
					if len(sig) > 80 || line(v) != w.f.endLine(v) || kind == world.KindMethod {
						sig = foldSpace(f.textRange(startByte(n), startByte(v))) + " …"
					}
				} else {
					sig = strings.TrimSuffix(foldSpace(f.text(n)), ";")
					if t := f.field(n, "type"); t != nil && f.namedCount(t) == 1 && f.kind(f.namedChild(t, 0)) == "function_type" {
						kind = world.KindMethod // run: () => void is called like a method
					}
				}
			} else {
				sig = strings.TrimSuffix(f.signature(n, body), ";")
				if strings.HasPrefix(sig, "get ") || strings.HasPrefix(sig, "set ") || strings.Contains(sig, " get ") || strings.Contains(sig, " set ") {
					kind = world.KindProperty
				}
			}
			sig = stripDecorators(sig)
			private := f.kind(nm) == "private_property_identifier" || strings.HasPrefix(sig, "private ") || strings.Contains(sig, " private ") || strings.HasPrefix(sig, "protected ")
			returns := ""
			var callable *sitter.Node
			if kind == world.KindField || c.kind == "public_field_definition" || c.kind == "field_definition" {
				returns = w.valueType(f.field(n, "type"), f.field(n, "value"))
				callable = callableOf(f, f.field(n, "type"), f.field(n, "value"))
			} else {
				returns = w.jsReturnType(n)
				callable = n
			}
			returns = w.withParams(w.docReturns(n, returns), callable)
			w.docParams = w.paramsDoc(n)
			idx := f.def(world.Def{Name: name, Kind: kind, Qualified: parent + "." + name, Parent: parent,
				Start: line(n), End: w.f.endLine(n), Signature: sig, Exported: !private, Doc: w.docOf(n), Returns: returns})
			w.in = idx
			w.member1(n, c.kind)
			w.docParams = nil
			if c.kind == "method_definition" && f.facts.Lang == world.LangJavaScript {
				methods = append(methods, n)
			}
		default:
			if c.named {
				w.member1(n, c.kind)
			}
		}
	}
	w.in = parentIdx
	if len(methods) > 0 {
		w.thisFields(methods, parent)
	}
}

// thisFields defines the properties a JavaScript class's methods assign
// on this (this.version = v), which the compiler binds as the class's
// members, unless the class declares a member of that name.
func (w *jsWalker) thisFields(methods []*sitter.Node, parent string) {
	f := w.f
	seen := map[string]bool{}
	for _, d := range f.facts.Defs {
		if d.Parent == parent {
			seen[d.Name] = true
		}
	}
	for _, m := range methods {
		w.thisFieldsOf(m, parent, seen)
	}
}

func (w *jsWalker) thisFieldsOf(m *sitter.Node, parent string, seen map[string]bool) {
	f := w.f
	f.walk(f.field(m, "body"), func(c *sitter.Node) bool {
		switch k := f.kind(c); {
		case isFunctionValue(k) && k != "arrow_function", k == "class", k == "class_declaration":
			return false
		case k == "assignment_expression":
			l := f.field(c, "left")
			if l == nil || f.kind(l) != "member_expression" {
				return true
			}
			o, p := f.field(l, "object"), f.field(l, "property")
			if o == nil || p == nil || f.kind(o) != "this" || f.kind(p) != "property_identifier" {
				return true
			}
			name := f.text(p)
			if seen[name] {
				return true
			}
			seen[name] = true
			f.def(world.Def{Name: name, Kind: world.KindField, Qualified: parent + "." + name, Parent: parent,
				Start: line(c), End: f.endLine(c), Signature: "this." + name, Exported: !strings.HasPrefix(name, "_"),
				Returns: w.valueType(nil, f.field(c, "right"))})
		}
		return true
	})
}

// stripDecorators drops leading "@dec(…)" words from a signature.
func stripDecorators(sig string) string {
	for strings.HasPrefix(sig, "@") {
		depth, i := 0, 0
		for i = 0; i < len(sig); i++ {
			switch sig[i] {
			case '(':
				depth++
			case ')':
				depth--
			case ' ':
				if depth == 0 {
					goto done
				}
			}
		}
	done:
		if i >= len(sig) {
			return sig
		}
		sig = strings.TrimSpace(sig[i:])
	}
	return sig
}

// iface handles an interface declaration and its members.
func (w *jsWalker) iface(n, outer *sitter.Node, prefix string, parentIdx int, exported bool) {
	f := w.f
	nm := f.field(n, "name")
	if nm == nil {
		w.types(n)
		return
	}
	name := f.text(nm)
	qual := w.qual(prefix, name)
	body := f.field(n, "body")
	bases := ""
	for i := uint(0); i < f.namedCount(n); i++ {
		if c := f.namedChild(n, i); f.kind(c) == "extends_type_clause" {
			bases = w.typeBases(c)
		}
	}
	idx := f.def(world.Def{Name: name, Kind: world.KindInterface, Qualified: qual, Parent: w.parentOf(prefix),
		Start: line(outer), End: w.f.endLine(outer), Signature: f.signature(n, body), Exported: exported, Doc: w.docOf(outer),
		Returns: bases})
	w.in = idx
	if body != nil {
		// An interface the parser ended early (tree-sitter stops at a
		// call signature that opens with type parameters on a new
		// line): the overloads after the first are lost, and those
		// read as repeating their last parameter (hono's handlers).
		end := f.endByte(n)
		w.cutShort = n.HasError() || end == 0 || f.src[end-1] != '}'
		w.typeMembers(body, qual, exported)
		w.cutShort = false
	}
	w.in = idx
	w.types(n)
	w.in = parentIdx
}

// typeMembers defines the property and method signatures of an interface
// body or object type as members of qual, each with its type.
func (w *jsWalker) typeMembers(body *sitter.Node, qual string, exported bool) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	iks := f.kids(body)
	w.noteDocs(iks)
	for i := range iks {
		c := &iks[i]
		switch c.kind {
		case "comment":
			f.commentAt(iks, i)
		case "call_signature":
			// What calling a value of this type gives: a member "()".
			f.def(world.Def{Name: "()", Kind: world.KindMethod, Qualified: qual + "()", Parent: qual,
				Start: line(c.n), End: w.f.endLine(c.n), Signature: strings.TrimRight(foldSpace(f.text(c.n)), ";,"),
				Exported: exported, Doc: w.docOf(c.n), Returns: w.cutParams(w.withParams(w.jsReturnType(c.n), c.n))})
		case "property_signature", "method_signature":
			if mn := f.field(c.n, "name"); mn != nil {
				kind := world.KindField
				returns := ""
				if c.kind == "method_signature" {
					kind = world.KindMethod
					returns = w.withParams(w.jsReturnType(c.n), c.n)
				} else if t := f.field(c.n, "type"); t != nil {
					returns = jsTypeExpr(f, t)
					if f.namedCount(t) == 1 && f.kind(f.namedChild(t, 0)) == "function_type" {
						kind = world.KindMethod // get: (url) => R is called like a method
					}
					returns = w.withParams(returns, fnTypeOf(f, t))
				}
				mname := jsString(f.text(mn))
				f.def(world.Def{Name: mname, Kind: kind, Qualified: qual + "." + mname, Parent: qual,
					Start: line(c.n), End: w.f.endLine(c.n), Signature: strings.TrimRight(foldSpace(f.text(c.n)), ";,"),
					Exported: exported, Doc: w.docOf(c.n), Returns: returns})
			}
		}
	}
}

func (w *jsWalker) typeAlias(n, outer *sitter.Node, prefix string, parentIdx int, exported bool) {
	f := w.f
	nm := f.field(n, "name")
	if nm == nil {
		w.types(n)
		return
	}
	name := f.text(nm)
	sig := strings.TrimSuffix(foldSpace(f.text(n)), ";")
	if v := f.field(n, "value"); v != nil && (len(sig) > 160 || w.f.endLine(v)-line(v) >= 1) {
		sig = foldSpace(f.textRange(startByte(n), startByte(v))) + " …"
	}
	v := f.field(n, "value")
	bases := ""
	if v != nil {
		bases = w.withParams(w.typeBases(v), fnTypeOf(f, v))
	}
	w.in = f.def(world.Def{Name: name, Kind: world.KindType, Qualified: w.qual(prefix, name), Parent: w.parentOf(prefix),
		Start: line(outer), End: w.f.endLine(outer), Signature: sig, Exported: exported, Doc: w.docOf(outer), Returns: bases})
	idx := w.in
	// The members of an object type (or of the object types of an
	// intersection) are the alias's members.
	for _, o := range w.objectParts(v) {
		w.typeMembers(o, w.qual(prefix, name), exported)
		w.in = idx
	}
	w.types(n)
	w.in = parentIdx
}

func (w *jsWalker) enum(n, outer *sitter.Node, prefix string, parentIdx int, exported bool) {
	f := w.f
	nm := f.field(n, "name")
	if nm == nil {
		return
	}
	name := f.text(nm)
	qual := w.qual(prefix, name)
	body := f.field(n, "body")
	idx := f.def(world.Def{Name: name, Kind: world.KindEnum, Qualified: qual, Parent: w.parentOf(prefix),
		Start: line(outer), End: w.f.endLine(outer), Signature: f.signature(n, body), Exported: exported, Doc: w.docOf(outer)})
	w.in = idx
	if body != nil {
		mark := len(f.stack)
		eks := f.kids(body)
		w.noteDocs(eks)
		for i := range eks {
			c := &eks[i]
			member := c.n
			switch c.kind {
			case "comment":
				f.commentAt(eks, i)
				continue
			case "enum_assignment":
				member = f.field(c.n, "name")
				if v := f.field(c.n, "value"); v != nil {
					w.uses(v)
				}
			case "property_identifier", "string", "number":
			default:
				continue
			}
			if member == nil {
				continue
			}
			mname := strings.Trim(f.text(member), `"'`)
			f.def(world.Def{Name: mname, Kind: world.KindConst, Qualified: qual + "." + mname, Parent: qual,
				Start: line(c.n), End: w.f.endLine(c.n), Signature: foldSpace(f.text(c.n)), Exported: exported,
				Doc: w.docOf(c.n)})
		}
		f.release(mark)
	}
	w.in = parentIdx
}

// variables handles a top-level let/const/var declaration: each bound
// name is a definition (a function when its value is one).
func (w *jsWalker) variables(n, outer *sitter.Node, prefix string, parentIdx int, exported bool) {
	f := w.f
	kind := world.KindVar
	if k := f.field(n, "kind"); k != nil && f.textIs(k, "const") {
		kind = world.KindConst
	}
	mark := len(f.stack)
	defer f.release(mark)
	for _, c := range f.kids(n) {
		if c.kind != "variable_declarator" {
			continue
		}
		d := c.n
		nm, val := f.field(d, "name"), f.field(d, "value")
		if nm == nil {
			continue
		}
		if val != nil && f.kind(val) == "assignment_expression" && f.kind(nm) == "identifier" {
			if l := f.field(val, "left"); l != nil && f.textIs(l, "module.exports") {
				// proto = module.exports = {…}: proto is the module's export.
				name := f.text(nm)
				sig := foldSpace(f.textRange(startByte(n), startByte(val))) + " module.exports = …"
				f.def(world.Def{Name: name, Kind: kind, Qualified: w.qual(prefix, name), Parent: w.parentOf(prefix),
					Start: line(outer), End: w.f.endLine(outer), Signature: sig, Exported: true, Doc: w.docOf(outer)})
				w.commonJS(val, outer, prefix, parentIdx)
				continue
			}
		}
		if w.requireBinding(nm, val) {
			w.uses(d)
			w.requireAlias, w.requireNames = "", nil
			continue
		}
		names := map[string]bool{}
		w.bindNames(nm, names)
		var list []string
		for s := range names {
			list = append(list, s)
		}
		sortStrings(list)
		k := kind
		sig := strings.TrimSuffix(foldSpace(f.text(n)), ";")
		var fn *sitter.Node
		if val != nil {
			switch f.kind(val) {
			case "arrow_function", "function_expression", "generator_function":
				k = world.KindFunction
				fn = val
				body := f.field(val, "body")
				sig = foldSpace(strings.TrimSuffix(strings.TrimSpace(f.textRange(startByte(n), f.bodyStart(val, body))), "=>"))
				if f.kind(val) == "arrow_function" {
					sig += " =>"
				}
			case "class":
				k = world.KindClass
			default:
				if len(sig) > 120 || line(val) != w.f.endLine(val) {
					sig = foldSpace(f.textRange(startByte(n), startByte(val))) + " …"
				}
			}
			if f.namedCount(n) > 1 && fn == nil {
				sig = foldSpace(f.textRange(startByte(n), startByte(nm))) + " " + foldSpace(f.text(d))
				if len(sig) > 120 {
					sig = sig[:120] + " …"
				}
			}
		}
		first := 0
		returns := ""
		if f.kind(nm) == "identifier" {
			returns = w.withParams(w.docReturns(outer, w.valueType(f.field(d, "type"), val)), callableOf(f, f.field(d, "type"), val))
		}
		for _, name := range list {
			i := f.def(world.Def{Name: name, Kind: k, Qualified: w.qual(prefix, name), Parent: w.parentOf(prefix),
				Start: line(outer), End: w.f.endLine(outer), Signature: sig, Exported: exported, Doc: w.docOf(outer),
				Returns: returns})
			if first == 0 {
				first = i
			}
		}
		if first != 0 {
			w.in = first
		}
		if fn != nil {
			w.docParams = w.paramsDoc(outer)
		}
		w.uses(d)
		w.docParams = nil
		if val != nil && fn == nil {
			w.elideValue(val)
		}
		w.in = parentIdx
	}
}

// bodyStart is where a function's body starts (its end without one).
func (f *file) bodyStart(fn, body *sitter.Node) uint {
	if body == nil {
		return f.endByte(fn)
	}
	return startByte(body)
}

// elideValue leaves the bulk of an initialiser out of the skeleton:
// function bodies (already elided when their scope is walked) and object,
// array and template literals of three lines or more.
func (w *jsWalker) elideValue(v *sitter.Node) {
	f := w.f
	f.walk(v, func(c *sitter.Node) bool {
		switch f.kind(c) {
		case "function_expression", "arrow_function", "generator_function", "class", "method_definition":
			return false // their bodies are elided by functionScope
		case "object", "array", "template_string", "jsx_element":
			if w.f.endLine(c)-line(c) < 2 {
				return false
			}
			if f.kind(c) == "object" && w.hasMethods(c) {
				return true
			}
			f.elide(startByte(c), w.f.endByte(c), bulkMarker(f.kind(c), line(c), w.f.endLine(c)))
			return false
		}
		return true
	})
}

func bulkMarker(kind string, start, end int) string {
	switch kind {
	case "object":
		return fmt.Sprintf("{ … } /* lines %d-%d */", start, end)
	case "array":
		return fmt.Sprintf("[ … ] /* lines %d-%d */", start, end)
	}
	return fmt.Sprintf("… /* lines %d-%d */", start, end)
}

// hasMethods reports whether an object literal holds functions, whose
// signatures the skeleton keeps.
func (w *jsWalker) hasMethods(obj *sitter.Node) bool {
	f := w.f
	for i := uint(0); i < f.namedCount(obj); i++ {
		c := f.namedChild(obj, i)
		switch f.kind(c) {
		case "method_definition":
			return true
		case "pair":
			if v := f.field(c, "value"); v != nil {
				if k := f.kind(v); k == "arrow_function" || k == "function_expression" {
					return true
				}
			}
		}
	}
	return false
}

// elideBulk elides long literals in a top-level statement.
func (w *jsWalker) elideBulk(n *sitter.Node) {
	if w.f.endLine(n)-line(n) >= 2 {
		w.elideValue(n)
	}
}

// namespace handles namespace N { … } / module "m" { … }.
func (w *jsWalker) namespace(n, outer *sitter.Node, prefix string, parentIdx int, exported bool) {
	f := w.f
	nm, body := f.field(n, "name"), f.field(n, "body")
	if nm == nil {
		return
	}
	name := strings.Trim(f.text(nm), `"'`)
	qual := w.qual(prefix, name)
	idx := f.def(world.Def{Name: name, Kind: world.KindModule, Qualified: qual, Parent: w.parentOf(prefix),
		Start: line(outer), End: w.f.endLine(outer), Signature: f.signature(n, body), Exported: exported, Doc: w.docOf(outer)})
	if body != nil {
		if f.kind(nm) == "string" && prefix == "" {
			w.augments(name, body)
		}
		w.statements(body, qual+".", idx, false)
	}
	w.in = parentIdx
}

// augments records the interfaces a module augmentation (declare module
// "../.." { interface Vars {…} }) merges into module spec as type imports
// of them: their declarations merge with the module's own, which the
// compiler counts as the interface's declaration.
func (w *jsWalker) augments(spec string, body *sitter.Node) {
	f := w.f
	for i := uint(0); i < f.namedCount(body); i++ {
		c := f.namedChild(body, i)
		if f.kind(c) == "export_statement" {
			if d := f.field(c, "declaration"); d != nil {
				c = d
			}
		}
		if k := f.kind(c); k != "interface_declaration" && k != "class_declaration" {
			continue
		}
		if nm := f.field(c, "name"); nm != nil {
			f.imp(world.Import{Path: spec, Names: []string{f.text(nm)}, Line: line(nm), Kind: "type"})
		}
	}
}

// importStmt records an import declaration and its bindings.
func (w *jsWalker) importStmt(n *sitter.Node) {
	f := w.f
	src := f.field(n, "source")
	ln := line(n)
	kind := ""
	mark := len(f.stack)
	defer f.release(mark)
	ks := f.kids(n)
	for _, c := range ks {
		if !c.named && c.kind == "type" {
			kind = "type"
		}
	}
	if src == nil {
		// import x = require("m") / import x = ns.y
		for _, c := range ks {
			if c.kind == "import_require_clause" {
				id, s := f.namedChild(c.n, 0), f.field(c.n, "source")
				if s != nil {
					imp := world.Import{Path: jsString(f.text(s)), Line: ln, Kind: "require"}
					if id != nil && f.kind(id) == "identifier" {
						imp.Alias = f.text(id)
						w.ns[imp.Alias] = true
					}
					f.imp(imp)
				}
			}
		}
		return
	}
	path := jsString(f.text(src))
	any := false
	for _, c := range ks {
		if c.kind != "import_clause" {
			continue
		}
		plain := world.Import{Path: path, Line: ln, Kind: kind}
		var more []world.Import
		m := len(f.stack)
		for _, cc := range f.kids(c.n) {
			switch cc.kind {
			case "identifier": // default import
				more = append(more, world.Import{Path: path, Names: []string{"default"}, Alias: f.text(cc.n), Line: ln, Kind: kind})
			case "namespace_import":
				if id := f.namedChild(cc.n, 0); id != nil {
					more = append(more, world.Import{Path: path, Alias: f.text(id), Line: ln, Kind: joinKind(kind, "namespace")})
					w.ns[f.text(id)] = true
				}
			case "named_imports":
				for i := uint(0); i < f.namedCount(cc.n); i++ {
					sp := f.namedChild(cc.n, i)
					if f.kind(sp) != "import_specifier" {
						continue
					}
					name, alias := f.field(sp, "name"), f.field(sp, "alias")
					if name == nil {
						continue
					}
					spKind := kind
					if strings.HasPrefix(f.text(sp), "type ") {
						spKind = "type"
					}
					if alias != nil {
						more = append(more, world.Import{Path: path, Names: []string{jsString(f.text(name))}, Alias: f.text(alias), Line: ln, Kind: spKind})
					} else if spKind != kind {
						more = append(more, world.Import{Path: path, Names: []string{f.text(name)}, Line: ln, Kind: spKind})
					} else {
						plain.Names = append(plain.Names, f.text(name))
					}
				}
			}
		}
		f.release(m)
		if len(plain.Names) > 0 {
			f.imp(plain)
		}
		for _, i := range more {
			f.imp(i)
		}
		any = true
	}
	if !any {
		f.imp(world.Import{Path: path, Line: ln, Kind: joinKind(kind, "side-effect")})
	}
}

func joinKind(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

// jsString strips the quotes of a string literal.
func jsString(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'' || s[0] == '`') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// dynamicImport records require("m") and import("m") calls with a literal
// path.
func (w *jsWalker) dynamicImport(call, args *sitter.Node, kind string) {
	f := w.f
	if args == nil || f.namedCount(args) == 0 {
		return
	}
	a := f.namedChild(args, 0)
	if k := f.kind(a); k != "string" && !(k == "template_string" && f.namedCount(a) <= 1) {
		return
	}
	imp := world.Import{Path: jsString(f.text(a)), Line: line(call), Kind: kind}
	if kind == "require" && w.requireAlias != "" {
		imp.Alias = w.requireAlias
		w.ns[imp.Alias] = true
	}
	if kind == "require" && w.requireNames != nil {
		imp.Names = w.requireNames
	}
	w.requireAlias, w.requireNames = "", nil
	f.imp(imp)
}

// exportStmt handles export declarations, export lists and re-exports.
func (w *jsWalker) exportStmt(n *sitter.Node, prefix string, parentIdx int) {
	f := w.f
	src := f.field(n, "source")
	mark := len(f.stack)
	defer f.release(mark)
	ks := f.kids(n)
	isDefault, isType := false, false
	for _, c := range ks {
		if !c.named && c.kind == "default" {
			isDefault = true
		}
		if !c.named && c.kind == "type" {
			isType = true
		}
	}
	if src != nil {
		path := jsString(f.text(src))
		ln := line(n)
		kind := "reexport"
		if isType {
			kind = "type reexport"
		}
		star := true
		for _, c := range ks {
			switch c.kind {
			case "namespace_export":
				star = false
				if id := f.namedChild(c.n, 0); id != nil {
					f.imp(world.Import{Path: path, Alias: jsString(f.text(id)), Line: ln, Kind: kind})
					w.exported[jsString(f.text(id))] = true
				}
			case "export_clause":
				star = false
				plain := world.Import{Path: path, Line: ln, Kind: kind}
				var more []world.Import
				for i := uint(0); i < f.namedCount(c.n); i++ {
					sp := f.namedChild(c.n, i)
					name, alias := f.field(sp, "name"), f.field(sp, "alias")
					if name == nil {
						continue
					}
					if alias != nil {
						more = append(more, world.Import{Path: path, Names: []string{jsString(f.text(name))}, Alias: jsString(f.text(alias)), Line: ln, Kind: kind})
					} else {
						plain.Names = append(plain.Names, jsString(f.text(name)))
					}
				}
				if len(plain.Names) > 0 {
					f.imp(plain)
				}
				for _, i := range more {
					f.imp(i)
				}
			}
		}
		if star {
			f.imp(world.Import{Path: path, Alias: "*", Line: ln, Kind: kind})
		}
		return
	}
	before := len(f.facts.Defs)
	var decorators []*sitter.Node
	defer func() {
		if len(f.facts.Defs) > before {
			w.in = before + 1
		}
		for _, d := range decorators {
			w.uses(d)
		}
		w.in = parentIdx
	}()
	for _, c := range ks {
		switch {
		case c.kind == "decorator":
			c := c
			decorators = append(decorators, c.n)
		case c.field == f.fieldID("declaration"):
			w.statement(c.n, c.kind, prefix, parentIdx, true, n)
		case c.kind == "export_clause":
			for i := uint(0); i < f.namedCount(c.n); i++ {
				sp := f.namedChild(c.n, i)
				if name := f.field(sp, "name"); name != nil {
					w.exported[f.text(name)] = true
					as := f.text(name)
					if alias := f.field(sp, "alias"); alias != nil {
						as = jsString(f.text(alias))
					}
					w.exportName(f.text(name), as)
					w.name(name, world.RefValue)
				}
			}
		case c.field == f.fieldID("value") || isDefault && c.named && c.kind != "comment" && c.kind != "decorator":
			switch c.kind {
			case "function_expression", "function_declaration", "generator_function", "generator_function_declaration", "arrow_function":
				if c.kind == "arrow_function" {
					w.defaultArrow(c.n, n, prefix, parentIdx)
				} else {
					w.function(c.n, n, prefix, parentIdx, true)
				}
			case "class", "class_declaration", "abstract_class_declaration":
				w.class(c.n, n, prefix, parentIdx, true)
			case "identifier":
				w.exported[f.text(c.n)] = true
				w.exportName(f.text(c.n), "default")
				w.name(c.n, world.RefValue)
			default:
				w.uses(c.n)
				w.elideBulk(c.n)
			}
		case c.kind == "identifier" || c.kind == "namespace_export":
			// export = x; export as namespace X
			w.uses(c.n)
		}
	}
}

// defaultArrow handles export default (…) => …: a function named default.
func (w *jsWalker) defaultArrow(fn, outer *sitter.Node, prefix string, parentIdx int) {
	f := w.f
	body := f.field(fn, "body")
	sig := strings.TrimSpace(foldSpace(f.textRange(startByte(outer), f.bodyStart(fn, body))))
	w.in = f.def(world.Def{Name: "default", Kind: world.KindFunction, Qualified: w.qual(prefix, "default"),
		Parent: w.parentOf(prefix), Start: line(outer), End: w.f.endLine(outer), Signature: sig, Exported: true, Doc: w.docOf(outer)})
	w.functionScope(fn, body)
	w.in = parentIdx
}

// commonJS handles a top-level assignment that defines an API the CommonJS
// way: exports.f = …, module.exports.f = …, module.exports = {…} or a
// class or function, X.prototype.m = …, X.prototype = {…} and
// obj.m = function …. It reports whether expr was one (and is done).
func (w *jsWalker) commonJS(expr, outer *sitter.Node, prefix string, parentIdx int) bool {
	f := w.f
	if expr == nil || f.kind(expr) != "assignment_expression" {
		return false
	}
	left, right := f.field(expr, "left"), f.field(expr, "right")
	if left != nil && right != nil && f.textIs(left, "exports") && f.kind(right) == "assignment_expression" {
		return w.commonJS(right, outer, prefix, parentIdx) // exports = module.exports = …
	}
	if left == nil || right == nil || f.kind(left) != "member_expression" {
		return false
	}
	target := f.text(left)
	if target == "module.exports" {
		w.exportsValue(right, outer, prefix, parentIdx)
		return true
	}
	obj, prop := f.field(left, "object"), f.field(left, "property")
	if obj == nil || prop == nil || f.kind(prop) != "property_identifier" {
		return false
	}
	name, owner := f.text(prop), f.text(obj)
	switch {
	case owner == "module.exports" && w.wholeDef != "" && prefix == "":
		// module.exports = fn; module.exports.x = …: a member of fn.
		w.assigned(name, w.wholeDef+".", w.wholeDef, right, outer, parentIdx)
	case owner == "exports" || owner == "module.exports":
		if f.kind(right) == "identifier" {
			w.exported[f.text(right)] = true
			w.exportName(f.text(right), name)
			if f.textIs(right, name) {
				w.name(right, world.RefValue)
				return true
			}
		}
		w.assigned(name, prefix, w.parentOf(prefix), right, outer, parentIdx)
	case name == "prototype" && f.kind(obj) == "identifier" && f.kind(right) == "object":
		w.objectMembers(right, prefix+owner+".", owner, parentIdx, outer)
	case f.kind(obj) == "member_expression" && strings.HasSuffix(owner, ".prototype"):
		base := f.field(obj, "object")
		if base == nil || f.kind(base) != "identifier" {
			return false
		}
		w.assigned(name, prefix+f.text(base)+".", f.text(base), right, outer, parentIdx)
	case f.kind(obj) == "identifier" && !w.bound(owner) && isFunctionValue(f.kind(right)):
		w.assigned(name, prefix+owner+".", owner, right, outer, parentIdx)
	default:
		return false
	}
	return true
}

// isFunctionValue reports whether a node kind is a function written as a
// value.
func isFunctionValue(k string) bool {
	return k == "function_expression" || k == "arrow_function" || k == "generator_function" || k == "function"
}

// exportsValue handles the value given to module.exports: an object's
// members, a class or function (its own name, or default), or another
// assignment (proto = module.exports = {…}).
func (w *jsWalker) exportsValue(v, outer *sitter.Node, prefix string, parentIdx int) {
	f := w.f
	switch k := f.kind(v); {
	case k == "object":
		w.objectMembers(v, prefix, w.parentOf(prefix), parentIdx, outer)
	case k == "identifier":
		w.exported[f.text(v)] = true
		w.whole = f.text(v)
		if w.definesFunc(f.text(v)) {
			// module.exports = f, f a function or class declared here:
			// what requires the module whole gets f (module.exports.x = …
			// still exports x, as the compiler binds them).
			w.exportName(f.text(v), "default")
		}
		w.name(v, world.RefValue)
	case k == "class":
		w.class(v, outer, prefix, parentIdx, true)
		w.wholeDef = "default"
		if nm := f.field(v, "name"); nm != nil {
			w.wholeDef = f.text(nm)
		}
	case isFunctionValue(k):
		name := "default"
		if nm := f.field(v, "name"); nm != nil {
			name = f.text(nm)
		}
		w.assigned(name, prefix, w.parentOf(prefix), v, outer, parentIdx)
		w.wholeDef = name
	case k == "call_expression" && w.requireCall(v) != "":
		// module.exports = require("./lib/x"): the module hands x on whole.
		f.imp(world.Import{Path: w.requireCall(v), Alias: "*", Line: line(v), Kind: "reexport"})
		w.uses(v)
	case k == "assignment_expression":
		if l := f.field(v, "left"); l != nil && f.kind(l) == "identifier" {
			w.exportsValue(f.field(v, "right"), outer, prefix, parentIdx)
			return
		}
		w.uses(v)
		w.elideBulk(v)
	default:
		w.uses(v)
		w.elideBulk(v)
	}
}

// assigned defines name, given value v by an assignment statement outer:
// a method when parent is set, else an exported function, class or
// variable.
func (w *jsWalker) assigned(name, prefix, parent string, v, outer *sitter.Node, parentIdx int) {
	f := w.f
	kind := world.KindVar
	vk := f.kind(v)
	switch {
	case isFunctionValue(vk):
		kind = world.KindFunction
		if parent != "" {
			kind = world.KindMethod
		}
	case vk == "class":
		kind = world.KindClass
	}
	sig := strings.TrimSuffix(foldSpace(f.text(outer)), ";")
	var body *sitter.Node
	if kind == world.KindFunction || kind == world.KindMethod {
		body = f.field(v, "body")
		sig = foldSpace(strings.TrimSuffix(strings.TrimSpace(f.textRange(startByte(outer), f.bodyStart(v, body))), "=>"))
		if vk == "arrow_function" {
			sig += " =>"
		}
	} else if len(sig) > 120 || line(outer) != w.f.endLine(outer) {
		sig = foldSpace(f.textRange(startByte(outer), startByte(v))) + " …"
	}
	w.in = f.def(world.Def{Name: name, Kind: kind, Qualified: prefix + name, Parent: parent,
		Start: line(outer), End: w.f.endLine(outer), Signature: sig, Exported: true, Doc: w.docOf(outer),
		Returns: w.docReturns(outer, w.valueType(nil, v))})
	if body != nil {
		w.docParams = w.paramsDoc(outer)
		w.functionScope(v, body)
	} else {
		w.uses(v)
		w.elideValue(v)
	}
	w.in = parentIdx
}

// objectMembers defines the members of an object literal given to
// module.exports or X.prototype: methods, getters, function-valued pairs
// and values; a shorthand member exports the top-level name it repeats.
func (w *jsWalker) objectMembers(obj *sitter.Node, prefix, parent string, parentIdx int, outer *sitter.Node) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	ks := f.kids(obj)
	w.noteDocs(ks)
	for i := range ks {
		c := &ks[i]
		n := c.n
		w.in = parentIdx
		switch c.kind {
		case "comment":
			f.commentAt(ks, i)
		case "shorthand_property_identifier":
			w.exported[f.text(n)] = true
			if parent == "" {
				w.exportName(f.text(n), f.text(n))
			}
			w.name(n, world.RefValue)
		case "method_definition":
			nm := f.field(n, "name")
			if nm == nil {
				w.uses(n)
				continue
			}
			kind := world.KindFunction
			if parent != "" {
				kind = world.KindMethod
			}
			body := f.field(n, "body")
			sig := f.signature(n, body)
			if strings.HasPrefix(sig, "get ") || strings.HasPrefix(sig, "set ") {
				kind = world.KindProperty
			}
			name := jsString(f.text(nm))
			w.in = f.def(world.Def{Name: name, Kind: kind, Qualified: prefix + name, Parent: parent,
				Start: line(n), End: w.f.endLine(n), Signature: sig, Exported: true, Doc: w.docOf(n),
				Returns: w.withParams(w.docReturns(n, w.jsReturnType(n)), n)})
			w.docParams = w.paramsDoc(n)
			w.functionScope(n, body)
		case "pair":
			key, v := f.field(n, "key"), f.field(n, "value")
			if key == nil || v == nil || (f.kind(key) != "property_identifier" && f.kind(key) != "string") {
				w.uses(n)
				w.elideBulk(n)
				continue
			}
			name := jsString(f.text(key))
			if f.kind(v) == "identifier" && parent == "" {
				w.exported[f.text(v)] = true
				w.exportName(f.text(v), name)
				if f.textIs(v, name) {
					w.name(v, world.RefValue)
					continue
				}
			}
			w.assigned(name, prefix, parent, v, n, parentIdx)
		default:
			if c.named {
				w.uses(n)
			}
		}
	}
	w.in = parentIdx
}

// requireBinding reports whether a top-level declarator binds what a
// require() gives: const x = require("m") (x names the module),
// const {a, b: c} = require("m") and const c = require("m").b (names
// imported from it). Such names are imports, not definitions of the file;
// it sets what dynamicImport records for the call.
func (w *jsWalker) requireBinding(nm, val *sitter.Node) bool {
	f := w.f
	if nm == nil || val == nil {
		return false
	}
	call, member := val, ""
	if f.kind(val) == "member_expression" {
		call = f.field(val, "object")
		p := f.field(val, "property")
		if call == nil || p == nil || f.kind(p) != "property_identifier" {
			return false
		}
		member = f.text(p)
	}
	if call == nil || f.kind(call) != "call_expression" || w.bound("require") {
		return false
	}
	if fn := f.field(call, "function"); fn == nil || !f.textIs(fn, "require") {
		return false
	}
	if args := f.field(call, "arguments"); args == nil || f.namedCount(args) != 1 || f.kind(f.namedChild(args, 0)) != "string" {
		return false
	}
	switch f.kind(nm) {
	case "identifier":
		local := f.text(nm)
		if member == "" {
			w.requireAlias = local
			return true
		}
		if member == local {
			w.requireNames = []string{member}
		} else {
			w.requireNames = []string{member + " as " + local}
		}
		w.ns[local] = true
		return true
	case "object_pattern":
		if member != "" {
			return false
		}
		names := []string{}
		for i := uint(0); i < f.namedCount(nm); i++ {
			c := f.namedChild(nm, i)
			switch f.kind(c) {
			case "shorthand_property_identifier_pattern":
				names = append(names, f.text(c))
			case "pair_pattern":
				k, v := f.field(c, "key"), f.field(c, "value")
				if k == nil || v == nil || f.kind(v) != "identifier" {
					continue
				}
				if key := jsString(f.text(k)); key == f.text(v) {
					names = append(names, key)
				} else {
					names = append(names, key+" as "+f.text(v))
				}
			}
		}
		w.requireNames = names
		return true
	}
	return false
}

// exportName notes that local name is exported as name.
func (w *jsWalker) exportName(local, name string) {
	for _, n := range w.exportAs[local] {
		if n == name {
			return
		}
	}
	w.exportAs[local] = append(w.exportAs[local], name)
}

// reexports records, as re-export imports, the imported names the module
// exports again: import {a} from "./a"; export {a as b} gives
// export {a as b} from "./a"; const x = require("./x"); module.exports = x
// gives export * from "./x".
func (w *jsWalker) reexports() {
	f := w.f
	if len(w.exportAs) == 0 && w.whole == "" {
		return
	}
	imps := f.facts.Imports
	n := len(imps)
	for k := 0; k < n; k++ {
		im := imps[k]
		if strings.Contains(im.Kind, "reexport") || strings.Contains(im.Kind, "side-effect") {
			continue
		}
		if len(im.Names) == 0 {
			if im.Alias == "" || im.Alias == "*" {
				continue
			}
			if w.whole == im.Alias {
				f.imp(world.Import{Path: im.Path, Alias: "*", Line: im.Line, Kind: "reexport"})
			}
			for _, as := range w.exportAs[im.Alias] {
				f.imp(world.Import{Path: im.Path, Alias: as, Line: im.Line, Kind: "reexport"})
			}
			continue
		}
		for _, name := range im.Names {
			orig, local := name, name
			if i := strings.Index(name, " as "); i > 0 {
				orig, local = name[:i], name[i+4:]
			} else if len(im.Names) == 1 && im.Alias != "" && im.Alias != "*" {
				local = im.Alias
			}
			for _, as := range w.exportAs[local] {
				r := world.Import{Path: im.Path, Names: []string{orig}, Line: im.Line, Kind: "reexport"}
				if as != orig {
					r.Alias = as
				}
				f.imp(r)
			}
		}
	}
}

// requireCall returns the module a call require("m") names, "" when call
// is not one.
func (w *jsWalker) requireCall(call *sitter.Node) string {
	f := w.f
	fn, args := f.field(call, "function"), f.field(call, "arguments")
	if fn == nil || args == nil || !f.textIs(fn, "require") || w.bound("require") || f.namedCount(args) != 1 {
		return ""
	}
	if a := f.namedChild(args, 0); f.kind(a) == "string" {
		return jsString(f.text(a))
	}
	return ""
}

// setType records that local name of frame holds an instance of class
// ("" forgets what it held).
func (w *jsWalker) setType(name, class string, frame map[string]bool) {
	if class == "" {
		if w.vtypes != nil {
			delete(w.vtypes, name)
		}
		return
	}
	if w.vtypes == nil {
		w.vtypes = map[string]jsVarType{}
	}
	w.vtypes[name] = jsVarType{class: class, frame: frame}
}

// declType is the type expression of what a declarator's variable
// holds: its annotation (a: Foo), else its value's (new Foo(…), f(…)).
func (w *jsWalker) declType(n *sitter.Node) string {
	return w.valueType(w.f.field(n, "type"), w.f.field(n, "value"))
}

// typeOf is the class receiver root is an instance of where it is used:
// the enclosing class for this, the class a local was constructed as or
// annotated with while the frame that bound it is the one in scope.
func (w *jsWalker) typeOf(obj *sitter.Node, root string) string {
	if root == "this" {
		return w.cls
	}
	if root == "" || w.f.kind(obj) != "identifier" {
		return ""
	}
	vt, ok := w.vtypes[root]
	if !ok {
		return ""
	}
	for i := len(w.frames) - 1; i >= 0; i-- {
		if w.frames[i][root] {
			if reflect.ValueOf(w.frames[i]).UnsafePointer() == reflect.ValueOf(vt.frame).UnsafePointer() {
				return vt.class
			}
			return ""
		}
	}
	return ""
}

// extends is the class a class declaration extends when written as a
// plain name, "" otherwise.
func (w *jsWalker) extends(n *sitter.Node) string {
	f := w.f
	out := ""
	for i := uint(0); i < f.namedCount(n); i++ {
		h := f.namedChild(n, i)
		if f.kind(h) != "class_heritage" {
			continue
		}
		f.walk(h, func(c *sitter.Node) bool {
			switch f.kind(c) {
			case "extends_clause":
				if v := f.field(c, "value"); v != nil && f.kind(v) == "identifier" {
					out = f.text(v)
				}
				return false
			case "identifier":
				out = f.text(c)
				return false
			case "implements_clause", "member_expression", "call_expression":
				return false
			}
			return true
		})
	}
	return out
}

// importAlias records import A = NS.X and export import A = NS.X, NS a
// module bound whole, as an import of X as A from NS's module, and
// export import x = require("m"), which tree-sitter parses as the export
// of x = require followed by the statement ("m"), as a require of m
// bound to x; exported, the module exports them again. It reports
// whether it took the statement after ks[i] as well.
func (w *jsWalker) importAlias(ks []kid, i int) bool {
	f := w.f
	n := ks[i].n
	exported := false
	if ks[i].kind == "export_statement" {
		if f.namedCount(n) != 1 || f.kind(f.namedChild(n, 0)) != "import_alias" {
			return false
		}
		n, exported = f.namedChild(n, 0), true
	} else if ks[i].kind != "import_alias" {
		return false
	}
	if f.namedCount(n) != 2 || f.kind(f.namedChild(n, 0)) != "identifier" {
		return false
	}
	local, v := f.text(f.namedChild(n, 0)), f.namedChild(n, 1)
	switch f.kind(v) {
	case "identifier":
		if !exported || f.text(v) != "require" || i+1 >= len(ks) || ks[i+1].kind != "expression_statement" {
			return false
		}
		e := f.namedChild(ks[i+1].n, 0)
		if e == nil || f.kind(e) != "parenthesized_expression" || f.namedCount(e) != 1 || f.kind(f.namedChild(e, 0)) != "string" {
			return false
		}
		f.imp(world.Import{Path: jsString(f.text(f.namedChild(e, 0))), Alias: local, Line: line(n), Kind: "require"})
		w.ns[local] = true
		w.exportName(local, local)
		return true
	case "nested_identifier":
		path := strings.Split(f.text(v), ".")
		if len(path) != 2 || !w.ns[path[0]] {
			return false
		}
		for _, im := range f.facts.Imports {
			if im.Alias == path[0] && len(im.Names) == 0 && !strings.Contains(im.Kind, "reexport") {
				name := path[1]
				if name != local {
					name += " as " + local
				}
				f.imp(world.Import{Path: im.Path, Names: []string{name}, Line: line(n)})
				if exported {
					w.exportName(local, local)
				}
				break
			}
		}
	}
	return false
}
