package graph

import (
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// Parameters typed by their context. A callback's untyped parameter has
// the type the callable it is passed to declares for it: the extractor
// writes "app.get#1#0" for c in app.get("/", (c) => …), parameter 0 of
// the function type of parameter 1 of what app.get holds, and writes the
// parameter types of every function-like definition after its Returns
// ("R;P0;P1", lang_javascript_types.go in extract). Resolution reads the
// signatures of the callable (its own, its overloads', the call
// signatures of its type, up the interfaces that type extends, each
// member of a union alias), takes the first that declares a type at the
// position, and goes on from that type in the file declaring it. Type
// parameters are names no file declares: they give no type.

// jsSig is the parameter types of one signature, as written in file.
type jsSig struct {
	file   int
	params []string
}

// sigOf reads the parameter types written in returns; false when it has
// none.
func sigOf(file int, returns string) (jsSig, bool) {
	i := strings.IndexByte(returns, ';')
	if i < 0 {
		return jsSig{}, false
	}
	return jsSig{file, strings.Split(returns[i+1:], ";")}, true
}

// param is the type expression of argument k of s: the parameter at k,
// else the element type of a rest parameter covering k; "" when unknown.
func (s jsSig) param(k int) string {
	n := len(s.params)
	if k < n && !strings.HasPrefix(s.params[k], "...") {
		return s.params[k]
	}
	if n > 0 && k >= n-1 && strings.HasPrefix(s.params[n-1], "...") {
		return s.params[n-1][3:]
	}
	return ""
}

// selectIn is the type the operations ops give (jsStep) applied to the
// callable or value defs of file g declare: a call gives what the value
// returns, a selection k the type of parameter k of its signatures (of
// the callable itself, then of the parameter's function type, …).
//
// next is the member the expression looks up next ("" when none): of the
// overloads that declare a named type at the last selected position, the
// first whose type has that member is taken (defineHandler({handler: …})
// takes the overload whose parameter has a handler).
func (ev *jsEval) selectIn(g int, defs []*world.LinkDef, ops []int, next string, budget int) (jsType, bool) {
	var t jsType
	var sigs []jsSig
	isType := false
	if ops[0] == -2 {
		// An element of an array the definition holds ("[]T").
		if len(defs) == 0 || jsTypeKind(defs[0].Kind) || !strings.HasPrefix(jsRet(defs[0].Returns), "[]") {
			return jsType{}, false
		}
		var ok bool
		if t, ok = ev.eval(g, jsRet(defs[0].Returns)[2:], budget-1); !ok {
			return jsType{}, false
		}
		isType, ops = true, ops[1:]
		if len(ops) == 0 {
			return t, true
		}
	} else if ops[0] < 0 {
		// A value called: what it returns, as for a step without
		// selections.
		n := 0
		for n < len(ops) && ops[n] == -1 {
			n++
		}
		if len(defs) == 0 {
			return jsType{}, false
		}
		d := defs[0]
		if jsTypeKind(d.Kind) {
			t = ev.call(jsType{g, d.Name}, false, n, budget-1)
		} else {
			var ok bool
			if t, ok = ev.eval(g, jsRet(d.Returns), budget-1); !ok {
				return jsType{}, false
			}
			t = ev.call(t, d.Kind == world.KindFunction || d.Kind == world.KindMethod, n, budget-1)
		}
		isType, ops = true, ops[n:]
	} else {
		sigs = ev.defSigs(g, defs, budget-1)
	}
	for i, k := range ops {
		if k == -2 {
			return jsType{}, false // an element of a parameter's array: not written
		}
		if k < 0 {
			if !isType {
				return jsType{}, false // what an inline function type returns: not written
			}
			t = ev.call(t, false, 1, budget-1)
			continue
		}
		if isType {
			sigs = ev.typeSigs(t, budget-1)
		}
		if i == len(ops)-1 && next != "" {
			if t, ok := ev.withMember(sigs, k, next, budget-1); ok {
				return t, true
			}
		}
		p, pf := "", -1
		for _, s := range sigs {
			if p = s.param(k); p != "" {
				pf = s.file
				break
			}
		}
		if p == "" {
			return jsType{}, false
		}
		if strings.HasPrefix(p, "=>") {
			sigs, isType = []jsSig{{pf, strings.Split(p[2:], "/")}}, false
			continue
		}
		if strings.Contains(p, "|") {
			// A union: what a callback passed there takes comes from the
			// members with call signatures; a value of it is no one type.
			sigs, isType = nil, false
			for _, part := range strings.Split(p, "|") {
				if pt, ok := ev.eval(pf, part, budget-1); ok {
					sigs = append(sigs, ev.typeSigs(pt, budget-1)...)
				}
			}
			continue
		}
		var ok bool
		if t, ok = ev.eval(pf, p, budget-1); !ok {
			return jsType{}, false
		}
		isType = true
	}
	return t, isType
}

// defSigs is the signatures of the callable definitions defs of file g
// declare: their own parameters, else (a property or variable holding a
// value of some type) the call signatures of their type.
func (ev *jsEval) defSigs(g int, defs []*world.LinkDef, budget int) []jsSig {
	var out []jsSig
	for _, d := range defs {
		if jsTypeKind(d.Kind) {
			out = append(out, ev.typeSigs(jsType{g, d.Name}, budget-1)...) // const h: Handler = (c) => …
			continue
		}
		if s, ok := sigOf(g, d.Returns); ok {
			out = append(out, s)
			continue
		}
		if d.Kind == world.KindFunction || d.Kind == world.KindMethod {
			continue
		}
		if t, ok := ev.eval(g, jsRet(d.Returns), budget-1); ok {
			out = append(out, ev.typeSigs(t, budget-1)...)
		}
	}
	return out
}

// typeSigs is the call signatures of type t: an alias of a function type
// gives its own; an interface or object type alias its "()" members and
// its bases'; a union or intersection alias each member type's.
func (ev *jsEval) typeSigs(t jsType, budget int) []jsSig {
	ev.steps++
	if budget <= 0 || ev.steps > maxJSSteps {
		return nil
	}
	for _, d := range ev.topDefs(t.file, t.name) {
		if !jsTypeKind(d.Kind) {
			continue
		}
		if d.Kind == world.KindClass || d.Kind == world.KindEnum {
			return nil
		}
		if s, ok := sigOf(t.file, d.Returns); ok {
			return []jsSig{s} // type F = (a: A) => R
		}
		out := ev.callSigs(t.file, t.name)
		for _, part := range strings.FieldsFunc(d.Returns, func(r rune) bool { return r == ',' || r == '|' }) {
			if bt, ok := ev.eval(t.file, part, budget-1); ok && bt != t {
				out = append(out, ev.typeSigs(bt, budget-1)...)
			}
		}
		return out
	}
	return nil
}

// callSigs is the call signatures ("()" members) type name of file g
// declares itself.
func (ev *jsEval) callSigs(g int, name string) []jsSig {
	var out []jsSig
	for _, d := range ev.namedDefs(g, "()") {
		if d.Parent != name {
			continue
		}
		if s, ok := sigOf(g, d.Returns); ok {
			out = append(out, s)
		}
	}
	return out
}

// overloads is member definition md of file g with its overloads: every
// definition of file g of the same name and parent.
func (ev *jsEval) overloads(g int, md *world.LinkDef) []*world.LinkDef {
	var out []*world.LinkDef
	for _, d := range ev.namedDefs(g, md.Name) {
		if d.Parent == md.Parent {
			out = append(out, d)
		}
	}
	return out
}

// namedDefs is the definitions named name of file g.
func (ev *jsEval) namedDefs(g int, name string) []*world.LinkDef {
	defs := ev.b.links[g].DefsNamed(name)
	var out []*world.LinkDef
	for k := range defs {
		out = append(out, &defs[k])
	}
	return out
}

// jsxIntrinsic resolves a lower-case JSX element (<div>, qualifier
// "jsx:SOURCE"): the member of that name of JSX.IntrinsicElements in the
// JSX namespace that the jsx-runtime of the file's JSX import source
// exports (the @jsxImportSource pragma, else the nearest tsconfig's
// jsxImportSource), up the interfaces it extends. A source outside the
// tree (react) gives no edge.
func (a *acc) jsxIntrinsic(ev *jsEval, i int, r world.LinkRef) {
	_, src, _ := strings.Cut(r.Qual, ":")
	if src == "" {
		if c := ev.x.config(ev.b.files[i].Path); c != nil {
			src = c.jsxImportSource
		}
	}
	if src == "" {
		return
	}
	if src != "/" {
		src = strings.TrimSuffix(src, "/")
	}
	t := ev.b.jsModule(ev.x, i, src+"/jsx-runtime")
	if t < 0 {
		return
	}
	g := t
	if !ev.b.definesTop(t, "JSX") {
		ds := ev.x.exports[t]["JSX"]
		if len(ds) != 1 {
			return
		}
		g = ds[0]
	}
	ev.steps = 0
	if f := ev.nsMember(g, "JSX.IntrinsicElements", r.Name, maxJSBases); f >= 0 {
		a.edge(i, f, r.Count, 1)
	}
}

// nsMember finds the file declaring member name of interface qual
// ("JSX.IntrinsicElements") of file g, or of what it extends; -1 when
// none.
func (ev *jsEval) nsMember(g int, qual, name string, budget int) int {
	ev.steps++
	if budget <= 0 || ev.steps > maxJSSteps {
		return -1
	}
	for _, d := range ev.namedDefs(g, name) {
		if d.Parent == qual {
			return g
		}
	}
	parent, last := "", qual
	if k := strings.LastIndexByte(qual, '.'); k >= 0 {
		parent, last = qual[:k], qual[k+1:]
	}
	for _, d := range ev.namedDefs(g, last) {
		if d.Parent != parent || d.Kind != world.KindInterface {
			continue
		}
		for _, base := range strings.Split(jsRet(d.Returns), ",") {
			root, rest, dotted := strings.Cut(base, ".")
			h, n := ev.b.jsNameIn(ev.x, g, root)
			if h < 0 {
				continue
			}
			if dotted {
				n += "." + rest
			}
			if f := ev.nsMember(h, n, name, budget-1); f >= 0 {
				return f
			}
		}
	}
	return -1
}

// withMember is the first named type declared at position k by one of
// sigs that has member name, its own or inherited.
func (ev *jsEval) withMember(sigs []jsSig, k int, name string, budget int) (jsType, bool) {
	if len(sigs) < 2 {
		return jsType{}, false // one candidate: the usual way
	}
	for _, s := range sigs {
		p := s.param(k)
		if p == "" || strings.HasPrefix(p, "=>") || strings.Contains(p, "|") {
			continue
		}
		if t, ok := ev.eval(s.file, p, budget-1); ok {
			if f, _, _ := ev.member(t, name, budget-1); f >= 0 {
				return t, true
			}
		}
	}
	return jsType{}, false
}
