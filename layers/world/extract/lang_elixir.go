package extract

import (
	"bytes"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	elixir "github.com/tree-sitter/tree-sitter-elixir/bindings/go"

	"github.com/git-speed/git-speed/layers/world"
)

// Elixir: modules (nested ones qualified by their parent), protocols (kind
// interface), implementations, functions and macros (def, defp, defmacro,
// defguard, defdelegate; consecutive clauses of one name make one
// definition; defp and defmacrop are not exported), struct fields, types
// and callbacks, module attributes; alias, import, require and use as
// imports (alias A.{B, C} as one import per module); @doc and @moduledoc
// as docs. References: local and remote calls (Repo.all), module names,
// structs (%Job{}), member selections on values (job.id), with parameters
// and variables bound by =, <-, -> and function heads left out. A do … end
// body is elided to "# … lines a-b".
//
// The module is github.com/elixir-lang/tree-sitter-elixir, whose go.mod
// names it github.com/tree-sitter/tree-sitter-elixir: go.mod replaces the
// one by the other.

func init() {
	register(world.LangElixir, sitter.NewLanguage(elixir.Language()), "#", walkElixir)
}

type elixirWalker struct {
	f    *file
	loc  locals
	docs map[uintptr]string

	fTarget, fLeft, fRight, fOperand, fKey, fValue uint16
}

func walkElixir(f *file) {
	w := &elixirWalker{f: f, fTarget: f.fieldID("target"), fLeft: f.fieldID("left"), fRight: f.fieldID("right"),
		fOperand: f.fieldID("operand"), fKey: f.fieldID("key"), fValue: f.fieldID("value")}
	w.docs = f.scanComments(func(k string) bool { return k == "comment" }, nil, nil, f.cutInlineComment)
	w.body(f.root, "", 0)
	finishMore(f.facts)
}

// callName returns the identifier a call is made with ("def", "alias").
func (w *elixirWalker) callName(c *sitter.Node) string {
	if w.f.kind(c) != "call" {
		return ""
	}
	t := w.f.field(c, "target")
	if t == nil || w.f.kind(t) != "identifier" {
		return ""
	}
	return w.f.text(t)
}

// args returns a call's arguments (named children of its arguments node).
func (w *elixirWalker) args(c *sitter.Node) []*sitter.Node {
	return w.f.named(w.f.childOfKind(c, "arguments"))
}

// attribute returns the name and value of a module attribute (@doc "…").
func (w *elixirWalker) attribute(c *sitter.Node) (string, *sitter.Node, bool) {
	f := w.f
	if f.kind(c) != "unary_operator" || !strings.HasPrefix(f.text(c), "@") {
		return "", nil, false
	}
	op := f.field(c, "operand")
	if op == nil {
		return "", nil, false
	}
	if f.kind(op) == "identifier" {
		return f.text(op), nil, true
	}
	name := w.callName(op)
	if name == "" {
		return "", nil, false
	}
	var v *sitter.Node
	if a := w.args(op); len(a) > 0 {
		v = a[0]
	}
	return name, v, true
}

// stringDoc returns the first line of a string or heredoc; "" for false
// and other values.
func (w *elixirWalker) stringDoc(v *sitter.Node) string {
	if v == nil || w.f.kind(v) != "string" {
		return ""
	}
	for _, l := range strings.Split(w.f.text(v), "\n") {
		l = strings.TrimSpace(strings.Trim(strings.TrimSpace(l), `"`))
		if l != "" {
			return l
		}
	}
	return ""
}

// body walks the statements of a file or a do block of a module.
func (w *elixirWalker) body(n *sitter.Node, parent string, in int) {
	f := w.f
	doc := ""
	last := -1 // index in Defs of the previous function, extended by its next clauses
	for _, c := range f.named(n) {
		if name, v, ok := w.attribute(c); ok {
			switch name {
			case "doc", "moduledoc", "typedoc":
				w.elideHeredoc(v)
				if d := w.stringDoc(v); d != "" && name != "typedoc" {
					if name == "moduledoc" && in > 0 && f.facts.Defs[in-1].Doc == "" {
						f.facts.Defs[in-1].Doc = d
					} else if name == "doc" {
						doc = d
					}
				}
			case "type", "typep", "opaque", "callback", "macrocallback":
				w.typeAttr(c, name, v, parent, in)
			case "spec", "impl", "behaviour", "derive", "dialyzer", "compile", "deprecated", "since":
				w.refs(v, in)
			default:
				if in > 0 && v != nil {
					attr := "@" + name
					idx := f.def(world.Def{Name: attr, Qualified: qualify(parent, attr), Parent: parent, Kind: world.KindConst,
						Start: line(c), End: f.endLine(c), Signature: strings.TrimSpace(f.signature(c, v)), Doc: w.docs[c.Id()]})
					f.elideValue(v)
					w.refs(v, idx)
				}
			}
			continue
		}
		switch name := w.callName(c); name {
		case "defmodule", "defprotocol", "defimpl":
			last = -1
			w.module(c, name, parent, in)
		case "def", "defp", "defmacro", "defmacrop", "defguard", "defguardp", "defdelegate", "defn", "defnp":
			if d := w.function(c, name, parent, doc, last); d >= 0 {
				last = d
			}
			doc = ""
		case "alias", "import", "require", "use":
			w.importCall(c, name)
		case "defstruct":
			for _, a := range w.args(c) {
				w.structFields(a, parent)
			}
		case "defexception":
			for _, a := range w.args(c) {
				w.structFields(a, parent)
			}
		default:
			if f.kind(c) != "comment" {
				w.statement(c, parent, in)
			}
		}
	}
}

// module records defmodule, defprotocol or defimpl and walks its body.
func (w *elixirWalker) module(c *sitter.Node, how, parent string, in int) {
	f := w.f
	args := w.args(c)
	name := ""
	if len(args) > 0 {
		name = f.text(args[0])
	}
	kind := world.KindModule
	switch how {
	case "defprotocol":
		kind = world.KindInterface
	case "defimpl":
		kind = "impl"
		for _, a := range args[1:] {
			f.walk(a, func(x *sitter.Node) bool {
				if f.kind(x) == "pair" && strings.HasPrefix(f.text(f.field(x, "key")), "for") {
					name += ".for." + f.text(f.field(x, "value"))
					return false
				}
				return true
			})
		}
	}
	block := f.childOfKind(c, "do_block")
	d := world.Def{Name: lastSegment(name, "."), Qualified: qualify(parent, name), Parent: parent, Kind: kind,
		Start: line(c), End: f.endLine(c), Exported: true, Signature: f.signature(c, block), Doc: w.docs[c.Id()]}
	d.Signature = strings.TrimSpace(strings.TrimSuffix(d.Signature, "do"))
	if kind == "impl" {
		d.Name = name
	} else if strings.Contains(name, ".") && parent == "" {
		d.Parent = name[:strings.LastIndexByte(name, '.')]
	}
	idx := f.def(d)
	for i, a := range args {
		if i > 0 || kind == "impl" {
			w.refs(a, idx)
		}
	}
	if block != nil {
		w.body(block, d.Qualified, idx)
	}
}

// function records a def (or extends Defs[last] when it is the next
// clause of the same function) and returns its index in Defs, or -1.
func (w *elixirWalker) function(c *sitter.Node, how, parent, doc string, last int) int {
	f := w.f
	args := w.args(c)
	if len(args) == 0 {
		return -1
	}
	head := args[0]
	if f.kind(head) == "binary_operator" && startNode(f.field(head, "left")) != 0 { // name(args) when guard
		head = f.field(head, "left")
	}
	name := f.text(head)
	if f.kind(head) == "call" {
		name = w.callName(head)
	}
	if name == "" {
		return -1
	}
	block := f.childOfKind(c, "do_block")
	kind := world.KindFunction
	if strings.HasPrefix(how, "defmacro") {
		kind = world.KindMacro
	}
	sig := f.signature(c, block)
	var inline *sitter.Node // the value of ", do: expr"
	if block == nil {
		for _, a := range args[1:] {
			f.walk(a, func(x *sitter.Node) bool {
				if f.kind(x) == "pair" && strings.HasPrefix(f.text(f.field(x, "key")), "do") {
					inline = f.field(x, "value")
					return false
				}
				return true
			})
		}
		if inline != nil {
			sig = foldSpace(f.textRange(startByte(c), startByte(inline)))
		}
	}
	sig = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(sig), "do"))
	sig = strings.TrimSpace(strings.TrimSuffix(sig, ", do:"))
	var idx int
	if l := last; l >= 0 && f.facts.Defs[l].Name == name && f.facts.Defs[l].Parent == parent && f.facts.Defs[l].Kind == kind {
		f.facts.Defs[l].End = f.endLine(c)
		idx = l + 1
	} else {
		if doc == "" {
			doc = w.docs[c.Id()]
		}
		idx = f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: kind, Start: line(c),
			End: f.endLine(c), Exported: !strings.HasSuffix(how, "p") || how == "defdelegate", Signature: sig, Doc: doc})
	}
	w.elideDo(block)
	f.elideValue(inline)
	w.loc.push()
	w.bindPattern(args[0])
	if block != nil {
		w.bindAll(block)
	}
	if f.kind(args[0]) == "binary_operator" {
		w.refs(f.field(args[0], "right"), idx) // the guard
	}
	if f.kind(head) == "call" {
		for _, a := range w.args(head) { // default values refer
			w.defaults(a, idx)
		}
	}
	for _, a := range args[1:] {
		w.refs(a, idx)
	}
	w.refs(block, idx)
	w.loc.pop()
	return idx - 1
}

// defaults records the references of a parameter's default value (a \\ 1).
func (w *elixirWalker) defaults(a *sitter.Node, in int) {
	f := w.f
	if f.kind(a) == "binary_operator" && strings.Contains(f.text(a), `\\`) {
		w.refs(f.field(a, "right"), in)
		return
	}
	w.typesIn(a, in)
}

// typesIn records the module and struct names in a pattern (%Job{} = job).
func (w *elixirWalker) typesIn(p *sitter.Node, in int) {
	f := w.f
	f.walk(p, func(x *sitter.Node) bool {
		if f.kind(x) == "alias" {
			w.aliasRef(x, in, world.RefType)
			return false
		}
		return true
	})
}

// elideDo elides the statements of a do … end block.
func (w *elixirWalker) elideDo(block *sitter.Node) {
	f := w.f
	if block == nil {
		return
	}
	ks := f.all(block)
	if len(ks) < 2 || f.kind(ks[0]) != "do" || f.kind(ks[len(ks)-1]) != "end" {
		return
	}
	s, e := f.endByte(ks[0]), startByte(ks[len(ks)-1])
	for s < e && strings.ContainsRune(" \t\r\n", rune(f.src[s])) {
		s++
	}
	for e > s && strings.ContainsRune(" \t\r\n", rune(f.src[e-1])) {
		e--
	}
	if e <= s {
		return
	}
	a, b := f.lineOfByte(s), f.lineOfByte(e-1)
	if a == b && e-s <= maxInit {
		return
	}
	f.elide(s, e, f.pointerMarker(e, a, b))
}

// importCall records alias, import, require or use.
func (w *elixirWalker) importCall(c *sitter.Node, how string) {
	f := w.f
	args := w.args(c)
	if len(args) == 0 {
		return
	}
	kind := how
	first := args[0]
	if f.kind(first) == "dot" { // alias A.{B, C}
		base := f.text(f.field(first, "left"))
		if t := f.field(first, "right"); t != nil && f.kind(t) == "tuple" {
			for _, a := range f.named(t) {
				f.imp(world.Import{Path: base + "." + f.text(a), Alias: lastSegment(f.text(a), "."), Line: line(c), Kind: kind})
			}
			return
		}
	}
	imp := world.Import{Path: f.text(first), Line: line(c), Kind: kind}
	if how == "alias" {
		imp.Alias = lastSegment(imp.Path, ".")
	}
	for _, a := range args[1:] {
		f.walk(a, func(x *sitter.Node) bool {
			if f.kind(x) != "pair" {
				return true
			}
			key := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f.text(f.field(x, "key"))), ":"))
			v := f.field(x, "value")
			switch key {
			case "as":
				imp.Alias = f.text(v)
			case "only":
				f.walk(v, func(y *sitter.Node) bool {
					if f.kind(y) == "pair" {
						imp.Names = append(imp.Names, strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f.text(f.field(y, "key"))), ":")))
						return false
					}
					return true
				})
			}
			return false
		})
	}
	f.imp(imp)
}

// structFields records the fields of defstruct [:a, b: 1].
func (w *elixirWalker) structFields(a *sitter.Node, parent string) {
	f := w.f
	add := func(name string, n *sitter.Node) {
		f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: world.KindField,
			Start: line(n), End: f.endLine(n), Exported: true, Signature: foldSpace(f.text(n))})
	}
	f.walk(a, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "atom":
			add(strings.TrimPrefix(f.text(x), ":"), x)
			return false
		case "pair":
			add(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f.text(f.field(x, "key"))), ":")), x)
			return false
		}
		return true
	})
}

// typeAttr records @type t :: …, @callback f(x) :: ….
func (w *elixirWalker) typeAttr(c *sitter.Node, how string, v *sitter.Node, parent string, in int) {
	f := w.f
	if v == nil {
		return
	}
	head := v
	if f.kind(v) == "binary_operator" {
		head = f.field(v, "left")
	}
	name := f.text(head)
	if head != nil && f.kind(head) == "call" {
		name = w.callName(head)
	}
	kind := world.KindType
	if strings.HasSuffix(how, "callback") {
		kind = world.KindMethod
	}
	sig := foldSpace(f.text(c))
	if len(sig) > 120 {
		sig = sig[:strings.LastIndexByte(sig[:120], ' ')] + " …"
	}
	idx := f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: kind, Start: line(c),
		End: f.endLine(c), Exported: how != "typep", Signature: sig, Doc: w.docs[c.Id()]})
	if in > 0 && idx == in {
		return
	}
	if f.kind(v) == "binary_operator" {
		w.typeRefs(f.field(v, "right"), idx)
	}
	if head != nil && f.kind(head) == "call" {
		for _, a := range w.args(head) {
			w.typeRefs(a, idx)
		}
	}
}

// typeRefs records the types named in a typespec: remote types (String.t)
// and local ones (list(), t).
func (w *elixirWalker) typeRefs(n *sitter.Node, in int) {
	f := w.f
	if n == nil {
		return
	}
	f.walk(n, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "call":
			t := f.field(x, "target")
			if t != nil && f.kind(t) == "dot" {
				r := world.Ref{Name: f.text(f.field(t, "right")), Qual: f.text(f.field(t, "left")), Line: line(x), In: in, Kind: world.RefType}
				f.ref(r)
			} else if t != nil && f.kind(t) == "identifier" {
				f.ref(world.Ref{Name: f.text(t), Line: line(x), In: in, Kind: world.RefType})
			}
			for _, a := range w.args(x) {
				w.typeRefs(a, in)
			}
			return false
		case "identifier":
			if s := f.text(x); !elixirSpecial[s] {
				f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: world.RefType})
			}
			return false
		case "alias":
			w.aliasRef(x, in, world.RefType)
			return false
		case "keyword", "atom", "string", "integer":
			return false
		}
		return true
	})
}

// elixirSpecial are identifiers that are neither variables nor calls to
// resolve.
var elixirSpecial = map[string]bool{"__MODULE__": true, "__ENV__": true, "__CALLER__": true, "__DIR__": true,
	"__STACKTRACE__": true, "_": true, "quote": true, "unquote": true, "unquote_splicing": true, "do": true, "end": true,
	"fn": true, "case": true, "cond": true, "if": true, "unless": true, "with": true, "for": true, "receive": true,
	"try": true, "raise": true, "when": true, "in": true, "not": true, "and": true, "or": true}

// bindPattern adds the variables of a pattern (a function head, the left
// of = or <-, a clause's arguments) to the current frame.
func (w *elixirWalker) bindPattern(p *sitter.Node) {
	f := w.f
	if p == nil {
		return
	}
	f.walkParent(p, func(x, parent *sitter.Node, field uint16) bool {
		switch f.kind(x) {
		case "identifier":
			if parent != nil && f.kind(parent) == "call" && field == w.fTarget {
				return false // the function's name
			}
			w.loc.add(f.text(x))
			return false
		case "unary_operator": // ^pinned is a use
			return !strings.HasPrefix(f.text(x), "^")
		case "binary_operator":
			if strings.Contains(f.textRange(f.endByte(f.field(x, "left")), startByte(f.field(x, "right"))), `\\`) {
				w.bindPattern(f.field(x, "left"))
				return false
			}
		}
		return true
	})
}

// bindAll adds the variables bound anywhere in n (=, <-, -> clauses, fn
// heads) to the current frame: flow-insensitive, as the other walkers.
func (w *elixirWalker) bindAll(n *sitter.Node) {
	f := w.f
	if n == nil {
		return
	}
	f.walk(n, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "binary_operator":
			left, right := f.field(x, "left"), f.field(x, "right")
			if left != nil && right != nil {
				op := strings.TrimSpace(f.textRange(f.endByte(left), startByte(right)))
				if op == "=" || op == "<-" {
					w.bindPattern(left)
				}
			}
		case "stab_clause":
			if l := f.field(x, "left"); l != nil {
				w.bindPattern(l)
			}
		}
		return true
	})
}

// aliasRef records a module name: A.B.C as C qualified by A.B.
func (w *elixirWalker) aliasRef(x *sitter.Node, in int, kind string) {
	s := w.f.text(x)
	r := world.Ref{Name: s, Line: line(x), In: in, Kind: kind}
	if i := strings.LastIndexByte(s, '.'); i > 0 {
		r.Name, r.Qual = s[i+1:], s[:i]
	}
	w.f.ref(r)
}

// refs records the references under n.
func (w *elixirWalker) refs(n *sitter.Node, in int) {
	f := w.f
	if n == nil {
		return
	}
	f.walk(n, func(x *sitter.Node) bool {
		switch f.kind(x) {
		case "identifier":
			if s := f.text(x); !w.loc.has(s) && !elixirSpecial[s] {
				f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: world.RefValue})
			}
			return false
		case "alias":
			w.aliasRef(x, in, world.RefValue)
			return false
		case "struct":
			for _, k := range f.named(x) {
				if f.kind(k) == "alias" {
					w.aliasRef(k, in, world.RefType)
				} else {
					w.refs(k, in)
				}
			}
			return false
		case "call":
			t := f.field(x, "target")
			switch {
			case t == nil:
			case f.kind(t) == "identifier":
				if s := f.text(t); !elixirSpecial[s] {
					f.ref(world.Ref{Name: s, Line: line(t), In: in, Kind: world.RefCall})
				}
			case f.kind(t) == "dot":
				left, right := f.field(t, "left"), f.field(t, "right")
				if right != nil && f.kind(right) == "identifier" {
					r := world.Ref{Name: f.text(right), Line: line(right), In: in, Kind: world.RefCall}
					switch {
					case left != nil && f.kind(left) == "alias":
						r.Qual = f.text(left)
					case left != nil && f.kind(left) == "identifier":
						r.Qual, r.Kind = f.text(left), world.RefMember
						if !w.loc.has(r.Qual) {
							r.Kind = world.RefCall // a module held in an attribute or an erlang atom
						}
					default:
						r.Kind = world.RefMember
					}
					f.ref(r)
				}
				if left != nil && f.kind(left) != "alias" {
					w.refs(left, in)
				}
			default:
				w.refs(t, in)
			}
			for _, k := range f.named(x) {
				if t == nil || k.Id() != t.Id() {
					switch f.kind(k) {
					case "do_block", "arguments":
						w.loc.push()
						w.bindAll(k)
						w.refs(k, in)
						w.loc.pop()
					default:
						w.refs(k, in)
					}
				}
			}
			return false
		case "anonymous_function", "stab_clause":
			w.loc.push()
			w.bindAll(x)
			for _, k := range f.named(x) {
				w.refs(k, in)
			}
			w.loc.pop()
			return false
		case "unary_operator":
			if strings.HasPrefix(f.text(x), "@") { // module attribute use
				return false
			}
			return true
		case "keyword", "atom", "quoted_content", "comment", "integer", "float", "boolean", "nil", "char",
			"escape_sequence", "sigil":
			return false
		}
		return true
	})
}

// statement walks a statement of a module body that defines nothing by
// itself: a call with a do block holding definitions (quote, if
// Code.ensure_loaded?) is walked as a body; any other do block (test "…",
// describe, schema, plug pipelines) is elided.
func (w *elixirWalker) statement(c *sitter.Node, parent string, in int) {
	f := w.f
	block := f.childOfKind(c, "do_block")
	if block != nil && w.hasDefs(block) {
		for _, k := range f.named(c) {
			if k.Id() != block.Id() {
				w.refs(k, in)
			}
		}
		w.body(block, parent, in)
		return
	}
	w.loc.push()
	w.bindAll(c)
	w.refs(c, in)
	w.loc.pop()
	w.elideDo(block)
}

// hasDefs reports whether a def, defmacro or defmodule is called in n.
func (w *elixirWalker) hasDefs(n *sitter.Node) bool {
	found := false
	w.f.walk(n, func(x *sitter.Node) bool {
		if found {
			return false
		}
		switch w.callName(x) {
		case "def", "defp", "defmacro", "defmacrop", "defmodule", "defdelegate", "defguard":
			found = true
			return false
		}
		return true
	})
	return found
}

// elideHeredoc keeps the first line of a doc heredoc's text: the lines
// after it, up to the closing quotes, are left out of the skeleton.
func (w *elixirWalker) elideHeredoc(v *sitter.Node) {
	f := w.f
	if v == nil || f.kind(v) != "string" || line(v) == f.endLine(v) {
		return
	}
	s, e := startByte(v), f.endByte(v)
	body := f.src[s:e]
	// The first line with text after the opening quotes.
	pos := bytes.IndexByte(body, '\n')
	for pos >= 0 && pos+1 < len(body) {
		next := bytes.IndexByte(body[pos+1:], '\n')
		if next < 0 {
			return
		}
		if strings.TrimSpace(string(body[pos+1:pos+1+next])) != "" {
			pos += 1 + next // the newline that ends the first text line
			break
		}
		pos += 1 + next
	}
	last := bytes.LastIndexByte(body, '\n') // the newline before the closing quotes
	if pos < 0 || last <= pos {
		return
	}
	f.elide(s+uint(pos), s+uint(last), "")
}
