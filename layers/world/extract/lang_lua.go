package extract

import (
	"strings"

	lua "github.com/tree-sitter-grammars/tree-sitter-lua/bindings/go"
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/git-speed/git-speed/layers/world"
)

// Lua: functions (global, local, in tables as T.f and methods as T:m),
// top-level variables and table fields (T.x = …), require imports with the
// local name they bind, and references (calls, T.f selections, m:method
// member calls) with parameters, locals and loop variables left out.
// A function body is elided to "-- … lines a-b"; "end" stays.

func init() {
	register(world.LangLua, sitter.NewLanguage(lua.Language()), "--", walkLua)
}

type luaWalker struct {
	f    *file
	loc  locals
	docs map[uintptr]string

	fLocal, fName, fTable, fField, fMethod, fBody, fParams, fValue uint16
}

func walkLua(f *file) {
	w := &luaWalker{f: f,
		fLocal: f.fieldID("local_declaration"), fName: f.fieldID("name"), fTable: f.fieldID("table"),
		fField: f.fieldID("field"), fMethod: f.fieldID("method"), fBody: f.fieldID("body"),
		fParams: f.fieldID("parameters"), fValue: f.fieldID("value")}
	w.docs = f.scanComments(func(k string) bool { return k == "comment" }, func(k string) bool { return k == "local" }, nil, f.cutInlineComment)
	mark := len(f.stack)
	ks := f.kids(f.root)
	for i := range ks {
		k := &ks[i]
		local := k.field == w.fLocal && k.field != 0
		switch k.kind {
		case "comment", "local", "hash_bang_line":
		case "function_declaration":
			w.function(k.n, local)
		case "variable_declaration":
			w.assignment(f.childOfKind(k.n, "assignment_statement"), k.n, true)
		case "assignment_statement":
			w.assignment(k.n, k.n, false)
		default:
			w.loc.push()
			w.bindAll(k.n)
			w.refs(k.n, 0)
			w.loc.pop()
		}
	}
	f.release(mark)
	finishMore(f.facts)
}

// luaName splits a function's name node: f, T.f, T.a.f or T:m.
func (w *luaWalker) luaName(n *sitter.Node) (name, parent string, method bool) {
	f := w.f
	if n == nil {
		return "", "", false
	}
	switch f.kind(n) {
	case "dot_index_expression":
		return f.text(f.field(n, "field")), f.text(f.field(n, "table")), false
	case "method_index_expression":
		return f.text(f.field(n, "method")), f.text(f.field(n, "table")), true
	}
	return f.text(n), "", false
}

// function records a function declaration and walks its body for refs.
func (w *luaWalker) function(c *sitter.Node, local bool) {
	f := w.f
	name, parent, method := w.luaName(f.field(c, "name"))
	body := f.field(c, "body")
	sig := f.signature(c, body)
	if body == nil {
		sig = strings.TrimSuffix(sig, " end")
	}
	kind := world.KindFunction
	if method {
		kind = world.KindMethod
	}
	idx := f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: kind,
		Start: line(c), End: f.endLine(c), Exported: !local, Signature: sig, Doc: w.docs[c.Id()]})
	f.elideLines(body)
	w.loc.push()
	if method {
		w.loc.add("self")
	}
	w.bindAll(c)
	w.refs(body, idx)
	w.loc.pop()
}

// assignment records the top-level variables and table fields assigned by
// a (local) assignment; require calls become imports. decl is the node
// whose lines the definitions span.
func (w *luaWalker) assignment(a, decl *sitter.Node, local bool) {
	f := w.f
	if a == nil {
		return
	}
	var targets, values []*sitter.Node
	for _, c := range f.named(a) {
		switch f.kind(c) {
		case "variable_list":
			for _, t := range f.named(c) {
				if f.kind(t) != "attribute" {
					targets = append(targets, t)
				}
			}
		case "expression_list":
			values = f.named(c)
		}
	}
	for i, t := range targets {
		var v *sitter.Node
		if i < len(values) {
			v = values[i]
		}
		if path, ok := w.require(v); ok {
			imp := world.Import{Path: path, Line: line(decl)}
			if f.kind(t) == "identifier" {
				imp.Alias = f.text(t)
			}
			f.imp(imp)
			continue
		}
		name, parent := f.text(t), ""
		kind := world.KindVar
		switch f.kind(t) {
		case "identifier":
			if len(name) > 1 && upperName(name) && (v == nil || f.kind(v) != "table_constructor") {
				kind = world.KindConst
			}
		case "dot_index_expression":
			tbl := f.field(t, "table")
			if !dotted(f.text(tbl)) {
				w.refs(t, 0)
				w.refs(v, 0)
				continue
			}
			name, parent, kind = f.text(f.field(t, "field")), f.text(tbl), world.KindField
		default:
			w.refs(t, 0)
			w.refs(v, 0)
			continue
		}
		d := world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: kind,
			Start: line(decl), End: f.endLine(decl), Exported: !local, Doc: w.docs[decl.Id()]}
		if v != nil && f.kind(v) == "function_definition" {
			d.Kind = world.KindFunction
			if parent != "" {
				d.Kind = world.KindMethod
			}
			body := f.field(v, "body")
			d.Signature = foldSpace(string(f.src[startByte(decl):startByte(v)])) + " " + f.signature(v, body)
			idx := f.def(d)
			f.elideLines(body)
			w.loc.push()
			w.bindAll(v)
			w.refs(body, idx)
			w.loc.pop()
			continue
		}
		d.Signature = foldSpace(f.text(t))
		if local {
			d.Signature = "local " + d.Signature
		}
		idx := f.def(d)
		f.elideValue(v)
		w.loc.push()
		w.bindAll(v)
		w.refs(v, idx)
		w.loc.pop()
	}
}

// require returns the module path of require("a.b") or require "a.b".
func (w *luaWalker) require(v *sitter.Node) (string, bool) {
	f := w.f
	if v == nil || f.kind(v) != "function_call" {
		return "", false
	}
	if n := f.field(v, "name"); n == nil || !f.textIs(n, "require") {
		return "", false
	}
	args := f.named(f.field(v, "arguments"))
	if len(args) != 1 || f.kind(args[0]) != "string" {
		return "", false
	}
	s := f.childOfKind(args[0], "string_content")
	if s == nil {
		return "", false
	}
	return f.text(s), true
}

// bindAll adds the parameters, locals, loop variables and local functions
// of the function (or statement) n to the current frame, not looking into
// nested functions, whose names are bound when refs reaches them.
func (w *luaWalker) bindAll(n *sitter.Node) {
	f := w.f
	if n == nil {
		return
	}
	f.walkParent(n, func(x, parent *sitter.Node, field uint16) bool {
		switch f.kind(x) {
		case "parameters":
			for _, p := range f.named(x) {
				if f.kind(p) == "identifier" {
					w.loc.add(f.text(p))
				}
			}
			return false
		case "variable_declaration", "for_numeric_clause", "for_generic_clause":
			f.walk(x, func(y *sitter.Node) bool {
				switch f.kind(y) {
				case "variable_list":
					for _, p := range f.named(y) {
						if f.kind(p) == "identifier" {
							w.loc.add(f.text(p))
						}
					}
					return false
				case "expression_list", "function_definition":
					return false
				}
				return true
			})
			if nm := f.field(x, "name"); nm != nil && f.kind(x) == "for_numeric_clause" {
				w.loc.add(f.text(nm))
			}
			return f.kind(x) == "variable_declaration"
		case "function_declaration":
			if field == w.fLocal && field != 0 && x.Id() != n.Id() {
				if nm := f.field(x, "name"); nm != nil && f.kind(nm) == "identifier" {
					w.loc.add(f.text(nm))
				}
			}
			return x.Id() == n.Id()
		case "function_definition":
			return x.Id() == n.Id()
		}
		return true
	})
}

// qual returns the dotted text of a selection's table and whether it
// names a value held in a local (then the selection is a member use).
func (w *luaWalker) qual(tbl *sitter.Node) (string, bool) {
	s := w.f.text(tbl)
	if !dotted(s) {
		return "", true
	}
	root := rootName(s)
	return s, w.loc.has(root) || root == "self"
}

// refs records the references under n.
func (w *luaWalker) refs(n *sitter.Node, in int) {
	f := w.f
	if n == nil {
		return
	}
	f.walk(n, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "identifier":
			if s := f.text(x); !w.loc.has(s) && s != "_" && s != "self" {
				f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: world.RefValue})
			}
			return false
		case "function_call":
			nm := f.field(x, "name")
			if nm != nil {
				switch f.kind(nm) {
				case "identifier":
					if s := f.text(nm); !w.loc.has(s) {
						f.ref(world.Ref{Name: s, Line: line(nm), In: in, Kind: world.RefCall})
					}
				case "dot_index_expression", "method_index_expression":
					w.selection(nm, in, true)
				default:
					w.refs(nm, in)
				}
			}
			w.refs(f.field(x, "arguments"), in)
			return false
		case "dot_index_expression", "method_index_expression":
			w.selection(x, in, false)
			return false
		case "field": // table constructor entry: name = value
			if nm := f.field(x, "name"); nm != nil && f.kind(nm) == "identifier" && startByte(nm) == startByte(x) {
				w.refs(f.field(x, "value"), in)
				return false
			}
			return true
		case "function_definition", "function_declaration":
			w.loc.push()
			if nm := f.field(x, "name"); nm != nil && f.kind(nm) == "method_index_expression" {
				w.loc.add("self")
			}
			w.bindAll(x)
			w.refs(f.field(x, "body"), in)
			w.loc.pop()
			return false
		case "string", "comment", "number":
			return false
		}
		return true
	})
}

// selection records t.f or t:m (called when call is true).
func (w *luaWalker) selection(x *sitter.Node, in int, call bool) {
	f := w.f
	tbl := f.field(x, "table")
	member := f.field(x, "field")
	method := f.kind(x) == "method_index_expression"
	if method {
		member = f.field(x, "method")
	}
	q, local := w.qual(tbl)
	r := world.Ref{Name: f.text(member), Qual: q, Line: line(member), In: in, Kind: world.RefValue}
	switch {
	case method || local:
		r.Kind = world.RefMember
	case call:
		r.Kind = world.RefCall
	}
	if member != nil && f.kind(member) == "identifier" {
		f.ref(r)
	} else {
		w.refs(member, in)
	}
	w.refs(tbl, in)
}
