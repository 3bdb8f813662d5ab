package extract

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	ruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"

	"github.com/git-speed/git-speed/layers/world"
)

// Ruby: modules, classes (A::B names as "A.B"), def and def self. methods
// (also inside class << self), attr_accessor/reader/writer properties,
// constants, require/require_relative/load imports, and references (calls,
// constants, members) with parameters, block parameters and assigned
// locals left out. Methods after a bare private/protected are not exported.
// Ruby bodies have no braces: the skeleton keeps "end" and writes
// "# … lines a-b" as the body.

func init() {
	register(world.LangRuby, sitter.NewLanguage(ruby.Language()), "#", walkRuby)
}

type rubyWalker struct {
	f    *file
	loc  locals
	docs map[uintptr]string
}

func walkRuby(f *file) {
	w := &rubyWalker{f: f}
	w.docs = f.scanComments(func(k string) bool { return k == "comment" }, nil, nil, nil)
	w.loc.push()
	w.bindAll(f.root)
	w.body(f.root, "", 0, false, false)
	finishMore(f.facts)
}

// elideRuby replaces a body by "# … lines a-b", keeping the "end" line.
func (w *rubyWalker) elideRuby(body *sitter.Node) {
	if body == nil {
		return
	}
	start, end := line(body), w.f.endLine(body)
	if start == end && w.f.endByte(body)-startByte(body) <= maxInit {
		return
	}
	w.f.elide(startByte(body), w.f.endByte(body), w.f.pointerMarker(w.f.endByte(body), start, end))
}

// body walks the statements of a program, module, class or block body.
// singleton is true inside class << self.
func (w *rubyWalker) body(n *sitter.Node, parent string, in int, inType, singleton bool) {
	w.bodyVis(n, parent, in, inType, singleton, true)
}

// bodyVis is body with the visibility in force at its start.
func (w *rubyWalker) bodyVis(n *sitter.Node, parent string, in int, inType, singleton, exported bool) {
	f := w.f
	for _, c := range w.f.named(n) {
		switch w.f.kind(c) {
		case "body_statement":
			w.bodyVis(c, parent, in, inType, singleton, exported)
		case "module", "class":
			nameNode := w.f.field(c, "name")
			name := strings.ReplaceAll(strings.TrimPrefix(f.text(nameNode), "::"), "::", ".")
			kind := world.KindModule
			if w.f.kind(c) == "class" {
				kind = world.KindClass
			}
			b := w.f.field(c, "body")
			sigEnd := nameNode
			if sc := w.f.field(c, "superclass"); sc != nil {
				sigEnd = sc
			}
			sig := ""
			if sigEnd != nil {
				sig = strings.TrimSuffix(foldSpace(string(f.src[startByte(c):w.f.endByte(sigEnd)])), ";")
			}
			d := world.Def{Name: lastSegment(name, "."), Qualified: qualify(parent, name), Parent: parent, Kind: kind,
				Start: line(c), End: w.f.endLine(c), Exported: true, Signature: sig, Doc: w.docs[c.Id()]}
			idx := f.def(d)
			if sc := w.f.field(c, "superclass"); sc != nil {
				w.refs(sc, idx, true)
			}
			if nameNode != nil && w.f.kind(nameNode) == "scope_resolution" {
				w.refs(w.f.field(nameNode, "scope"), idx, true)
			}
			w.body(b, d.Qualified, idx, true, false)
		case "singleton_class":
			w.body(w.f.field(c, "body"), parent, in, inType, true)
		case "method", "singleton_method":
			name := f.text(w.f.field(c, "name"))
			b := w.f.field(c, "body")
			kind := world.KindFunction
			if inType || w.f.kind(c) == "singleton_method" {
				kind = world.KindMethod
			}
			sigEnd := b
			if b == nil {
				sigEnd = lastChild(c) // "end"
			}
			sig := f.signature(c, sigEnd)
			sig = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(sig), "=")), ";")
			if singleton && w.f.kind(c) == "method" {
				sig = strings.Replace(sig, "def ", "def self.", 1)
			}
			d := world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: kind, Start: line(c), End: w.f.endLine(c),
				Exported: exported, Signature: sig, Doc: w.docs[c.Id()]}
			idx := f.def(d)
			w.elideRuby(b)
			w.loc.push()
			w.bindAll(c)
			w.refs(w.f.field(c, "parameters"), idx, false)
			w.refs(b, idx, false)
			w.loc.pop()
		case "identifier":
			switch f.text(c) {
			case "private", "protected":
				exported = false
				continue
			case "public":
				exported = true
				continue
			}
			w.refs(c, in, false)
		case "assignment":
			left := w.f.field(c, "left")
			if left != nil && (w.f.kind(left) == "constant" || w.f.kind(left) == "scope_resolution") {
				name := strings.ReplaceAll(f.text(left), "::", ".")
				v := w.f.field(c, "right")
				d := world.Def{Name: lastSegment(name, "."), Qualified: qualify(parent, name), Parent: parent, Kind: world.KindConst,
					Start: line(c), End: w.f.endLine(c), Exported: true, Signature: foldSpace(f.text(left)), Doc: w.docs[c.Id()]}
				idx := f.def(d)
				f.elideInit(v)
				w.refs(v, idx, false)
				continue
			}
			w.refs(c, in, false)
		case "call":
			if w.call(c, parent, in, inType, &exported) {
				continue
			}
			w.refs(c, in, false)
		case "comment":
		default:
			w.refs(c, in, false)
		}
	}
}

// call handles a statement-level call: imports, attr_* properties,
// include/extend, visibility with arguments, and calls with blocks (DSLs:
// the block is walked as a body when it holds definitions or other blocks,
// else elided). It reports whether it handled c.
func (w *rubyWalker) call(c *sitter.Node, parent string, in int, inType bool, exported *bool) bool {
	f := w.f
	if w.f.field(c, "receiver") != nil {
		return w.blockCall(c, parent, in, inType)
	}
	method := f.text(w.f.field(c, "method"))
	args := w.f.named(w.f.field(c, "arguments"))
	switch method {
	case "require", "require_relative", "load":
		if len(args) == 1 && w.f.kind(args[0]) == "string" && !w.f.hasKind(args[0], "interpolation") {
			kind := map[string]string{"require": "", "require_relative": "relative", "load": "load"}[method]
			f.imp(world.Import{Path: strings.Trim(f.text(args[0]), `'"`), Line: line(c), Kind: kind})
			return true
		}
	case "attr_accessor", "attr_reader", "attr_writer":
		for _, a := range args {
			if w.f.kind(a) == "simple_symbol" || w.f.kind(a) == "string" {
				name := strings.Trim(strings.TrimPrefix(f.text(a), ":"), `'"`)
				f.def(world.Def{Name: name, Qualified: qualify(parent, name), Parent: parent, Kind: world.KindProperty,
					Start: line(c), End: w.f.endLine(c), Exported: *exported, Signature: method + " :" + name, Doc: w.docs[c.Id()]})
			}
		}
		return true
	case "include", "extend", "prepend":
		for _, a := range args {
			w.refs(a, in, true)
		}
		return true
	case "private", "protected", "public", "private_class_method", "module_function":
		if len(args) == 0 {
			return false
		}
		for _, a := range args {
			switch w.f.kind(a) {
			case "method", "singleton_method":
				w.bodyVis(w.f.field(c, "arguments"), parent, in, inType, false, method == "public")
				return true
			case "simple_symbol":
				name := strings.TrimPrefix(f.text(a), ":")
				for i := len(f.facts.Defs) - 1; i >= 0; i-- {
					if d := &f.facts.Defs[i]; d.Parent == parent && d.Name == name {
						d.Exported = method == "public"
						break
					}
				}
			}
		}
		return true
	}
	return w.blockCall(c, parent, in, inType)
}

// blockCall handles a call with a do/brace block at statement level.
func (w *rubyWalker) blockCall(c *sitter.Node, parent string, in int, inType bool) bool {
	blk := w.f.field(c, "block")
	if blk == nil {
		return false
	}
	for i, ch := range w.f.all(c) {
		if fn := c.FieldNameForChild(uint32(i)); fn != "block" && ch.IsNamed() {
			w.refs(ch, in, false)
		}
	}
	b := w.f.field(blk, "body")
	w.loc.push()
	w.bindAll(blk)
	if b != nil && w.f.hasKind(b, "method", "singleton_method", "class", "module", "do_block", "block") {
		w.body(b, parent, in, inType, false)
	} else {
		w.elideRuby(b)
		w.refs(b, in, false)
	}
	w.loc.pop()
	return true
}

// hasKind reports whether n or a node below it has one of the kinds.
func (f *file) hasKind(n *sitter.Node, kinds ...string) bool {
	found := false
	f.walk(n, func(x *sitter.Node) bool {
		if found {
			return false
		}
		for _, k := range kinds {
			if f.kind(x) == k && x.Id() != n.Id() {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

func lastChild(n *sitter.Node) *sitter.Node {
	if n.ChildCount() == 0 {
		return nil
	}
	return n.Child(n.ChildCount() - 1)
}

// bindAll adds parameters, block parameters and assigned locals under n
// to the current frame, not looking into nested defs or classes.
func (w *rubyWalker) bindAll(n *sitter.Node) {
	f := w.f
	f.walk(n, func(x *sitter.Node) bool {
		switch w.f.kind(x) {
		case "method_parameters", "block_parameters", "lambda_parameters", "destructured_parameter":
			for _, p := range w.f.named(x) {
				if w.f.kind(p) == "identifier" {
					w.loc.add(f.text(p))
				} else if nm := w.f.field(p, "name"); nm != nil {
					w.loc.add(f.text(nm))
				}
			}
		case "assignment", "operator_assignment":
			if l := w.f.field(x, "left"); l != nil && w.f.kind(l) == "identifier" {
				w.loc.add(f.text(l))
			}
		case "left_assignment_list", "destructured_left_assignment", "rest_assignment":
			for _, p := range w.f.named(x) {
				if w.f.kind(p) == "identifier" {
					w.loc.add(f.text(p))
				}
			}
		case "for":
			if p := w.f.field(x, "pattern"); p != nil {
				f.walk(p, func(y *sitter.Node) bool {
					if w.f.kind(y) == "identifier" {
						w.loc.add(f.text(y))
					}
					return true
				})
			}
		case "exception_variable":
			for _, p := range w.f.named(x) {
				w.loc.add(f.text(p))
			}
		case "method", "singleton_method", "class", "module":
			return x.Id() == n.Id()
		}
		return true
	})
}

// refs records the references under n; typ marks a type position
// (superclass, include).
func (w *rubyWalker) refs(n *sitter.Node, in int, typ bool) {
	if n == nil {
		return
	}
	f := w.f
	kindOf := func() string {
		if typ {
			return world.RefType
		}
		return world.RefValue
	}
	f.walk(n, func(x *sitter.Node) bool {
		switch w.f.kind(x) {
		case "identifier":
			if s := f.text(x); !w.loc.has(s) {
				f.ref(world.Ref{Name: s, Line: line(x), In: in, Kind: world.RefCall})
			}
			return false
		case "constant":
			f.ref(world.Ref{Name: f.text(x), Line: line(x), In: in, Kind: kindOf()})
			return false
		case "scope_resolution":
			q := strings.TrimPrefix(f.text(w.f.field(x, "scope")), "::")
			f.ref(world.Ref{Name: f.text(w.f.field(x, "name")), Qual: q, Line: line(x), In: in, Kind: kindOf()})
			return false
		case "call":
			recv := w.f.field(x, "receiver")
			m := w.f.field(x, "method")
			if m != nil && w.f.kind(m) == "identifier" || m != nil && w.f.kind(m) == "constant" {
				r := world.Ref{Name: f.text(m), Line: line(m), In: in, Kind: world.RefCall}
				if recv != nil {
					switch w.f.kind(recv) {
					case "constant":
						r.Qual = f.text(recv)
					case "scope_resolution":
						r.Qual = strings.TrimPrefix(f.text(recv), "::")
					case "identifier", "self", "instance_variable":
						r.Qual, r.Kind = f.text(recv), world.RefMember
					default:
						r.Kind = world.RefMember
					}
				}
				if recv == nil && w.loc.has(r.Name) {
					r.Name = ""
				}
				f.ref(r)
			}
			w.refs(recv, in, false)
			w.refs(w.f.field(x, "arguments"), in, false)
			if b := w.f.field(x, "block"); b != nil {
				w.loc.push()
				w.bindAll(b)
				w.refs(b, in, false)
				w.loc.pop()
			}
			return false
		case "block", "do_block", "lambda":
			w.loc.push()
			w.bindAll(x)
			for _, ch := range w.f.named(x) {
				w.refs(ch, in, false)
			}
			w.loc.pop()
			return false
		case "string_content", "simple_symbol", "instance_variable", "class_variable", "global_variable",
			"comment", "integer", "float", "heredoc_content", "escape_sequence", "hash_key_symbol", "self", "nil", "true", "false":
			return false
		case "method", "singleton_method":
			return false
		}
		return true
	})
}
