package graph

import (
	"strconv"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// TypeScript and JavaScript members reached through a type. The extractor
// writes the qualifier of a member ref as "receiver:EXPR" when it knows
// the receiver's type expression (lang_javascript_types.go in extract):
// "this:Client", "a:Foo" for const a = new Foo() or a: Foo,
// "ky:ky.get" for ky.get(…).text(). Resolution evaluates EXPR in the
// file: its first name through the file's definitions and imports
// (barrels followed), a value through the type its definition Returns, a
// member through the class, interface or type alias declaring it, up the
// types they extend, file after file. Only other files' definitions and
// imports are read, as for every other rule.

// maxJSBases bounds a walk up a type hierarchy and the names followed in
// one evaluation (and ends cycles).
const maxJSBases = 12

// maxJSSteps bounds the definitions one member lookup visits.
const maxJSSteps = 256

// jsType is a class, interface, type alias or enum of the tree.
type jsType struct {
	file int
	name string
}

// jsEval evaluates type expressions for the file being resolved.
type jsEval struct {
	b     *builder
	x     *jsIndex
	steps int
}

// jsTyped resolves a member ref whose qualifier carries a type
// expression. It reports false when the expression does not lead to a
// type of the tree; the ref then goes the usual way with the receiver as
// written. A type of the tree that has no such member, its own or
// inherited from the tree, gives no edge.
func (a *acc) jsTyped(ev *jsEval, i int, r world.LinkRef) bool {
	_, expr, _ := strings.Cut(r.Qual, ":")
	ev.steps = 0
	t, ok := ev.eval(i, expr, maxJSBases)
	if !ok {
		return false
	}
	f, _, known := ev.member(t, r.Name, maxJSBases)
	if f >= 0 {
		a.edge(i, f, r.Count, 1)
		// A member of a union: every member type declaring it.
		for _, g := range ev.union(t, r.Name) {
			if g != f {
				a.edge(i, g, r.Count, 1)
			}
		}
		return true
	}
	return known
}

// eval is the type expression expr denotes in file f.
func (ev *jsEval) eval(f int, expr string, budget int) (jsType, bool) {
	if expr == "" || budget <= 0 {
		return jsType{}, false
	}
	parts := strings.Split(expr, ".")
	name, calls, sels := jsStep(parts[0])
	g, n := ev.b.jsNameIn(ev.x, f, name)
	if g < 0 && len(sels) == 0 {
		// A module bound whole (import * as m, const m = require(…)):
		// m.x is its top-level name x; m alone what it exports whole
		// (module.exports = C), and m() what calling that gives
		// (module.exports = parse).
		if m := ev.module(f, name); m >= 0 {
			if len(parts) > 1 && calls == 0 {
				name, calls, sels = jsStep(parts[1])
				if g, n = ev.b.jsNameIn(ev.x, m, name); g >= 0 {
					parts = parts[1:]
				} else {
					calls, sels = 0, nil
				}
			}
			if g < 0 && ev.b.definesTop(m, "default") {
				g, n = m, "default"
			}
		}
	}
	if g < 0 {
		return jsType{}, false
	}
	var t jsType
	var ok bool
	if len(sels) > 0 {
		t, ok = ev.selectIn(g, ev.topDefs(g, n), sels, jsNext(parts, 1), budget-1)
	} else {
		var fn bool
		t, fn, ok = ev.typeOfName(g, n, budget-1)
		if ok {
			t = ev.call(t, fn, calls, budget-1)
		}
	}
	for i, p := range parts[1:] {
		if !ok {
			return jsType{}, false
		}
		name, calls, sels := jsStep(p)
		mf, md, _ := ev.member(t, name, budget-1)
		if mf < 0 {
			return jsType{}, false
		}
		if len(sels) > 0 {
			t, ok = ev.selectIn(mf, ev.overloads(mf, md), sels, jsNext(parts, i+2), budget-1)
			continue
		}
		t, ok = ev.typeOfDef(mf, md, budget-1)
		if ok {
			t = ev.call(t, md.Kind == world.KindFunction || md.Kind == world.KindMethod, calls, budget-1)
		}
	}
	return t, ok
}

// jsStep splits an expression step into its name and the calls made on
// it ("get()" → "get", 1). A step that selects parameters gives instead
// its operations in order, a call as -1, an element of an array as -2
// and a selection of parameter k as k ("get#1#0" → "get", 0, [1 0];
// "handler()#0" → [-1 0]; "hooks[]#0" → [-2 0]).
func jsStep(p string) (string, int, []int) {
	i := strings.IndexAny(p, "(#[")
	if i < 0 {
		return p, 0, nil
	}
	name, rest := p[:i], p[i:]
	if !strings.Contains(rest, "#") {
		if strings.Contains(rest, "[") {
			return "", 0, nil
		}
		return name, strings.Count(rest, "()"), nil
	}
	var ops []int
	for rest != "" {
		if strings.HasPrefix(rest, "()") {
			ops = append(ops, -1)
			rest = rest[2:]
			continue
		}
		if strings.HasPrefix(rest, "[]") {
			ops = append(ops, -2)
			rest = rest[2:]
			continue
		}
		if rest[0] != '#' {
			return "", 0, nil
		}
		end := strings.IndexAny(rest[1:], "(#[") + 1
		if end == 0 {
			end = len(rest)
		}
		k, err := strconv.Atoi(rest[1:end])
		if err != nil || k < 0 {
			return "", 0, nil
		}
		ops = append(ops, k)
		rest = rest[end:]
	}
	return name, 0, ops
}

// jsNext is the name of member step i of parts, "" past the end.
func jsNext(parts []string, i int) string {
	if i >= len(parts) {
		return ""
	}
	name, _, _ := jsStep(parts[i])
	return name
}

// jsRet is the type part of a definition's Returns, without the types of
// its parameters ("R;P0;P1" → "R").
func jsRet(returns string) string {
	if i := strings.IndexByte(returns, ';'); i >= 0 {
		return returns[:i]
	}
	return returns
}

// call is the type calling a value of type t gives, calls times. t of a
// function or method is already what calling it returns (fn), so its
// first call is not applied again; a call of an instance goes through
// the call signature of its type ("()" member) when it has one, else
// leaves the type as it is (a property typed by a function type is
// recorded with its return type).
func (ev *jsEval) call(t jsType, fn bool, calls, budget int) jsType {
	if fn && calls > 0 {
		calls--
	}
	for ; calls > 0; calls-- {
		mf, md, _ := ev.member(t, "()", budget)
		if mf < 0 {
			// type F = (…) => R: calling an F gives an R.
			if r, ok := ev.aliasReturns(t, budget); ok {
				t = r
				continue
			}
			return t
		}
		nt, ok := ev.typeOfDef(mf, md, budget)
		if !ok {
			return t
		}
		t = nt
	}
	return t
}

// typeOfName is the type top-level name of file g denotes: the type it
// declares, else the type of the value it holds or returns.
func (ev *jsEval) typeOfName(g int, name string, budget int) (t jsType, fn, ok bool) {
	var val *world.LinkDef
	for _, d := range ev.topDefs(g, name) {
		if jsTypeKind(d.Kind) {
			return jsType{g, name}, false, true
		}
		if val == nil && jsRet(d.Returns) != "" {
			val = d
		}
	}
	if val == nil {
		return jsType{}, false, false
	}
	t, ok = ev.eval(g, jsRet(val.Returns), budget-1)
	return t, val.Kind == world.KindFunction || val.Kind == world.KindMethod, ok
}

// typeOfDef is the type of member definition d of file g.
func (ev *jsEval) typeOfDef(g int, d *world.LinkDef, budget int) (jsType, bool) {
	if jsRet(d.Returns) == "" || jsTypeKind(d.Kind) {
		return jsType{}, false
	}
	return ev.eval(g, jsRet(d.Returns), budget-1)
}

// jsTypeKind reports whether a definition of kind k declares a type.
func jsTypeKind(k string) bool {
	return k == world.KindClass || k == world.KindInterface || k == world.KindType || k == world.KindEnum
}

// topDefs returns the top-level definitions named name of file g.
func (ev *jsEval) topDefs(g int, name string) []*world.LinkDef {
	var out []*world.LinkDef
	for _, d := range ev.namedDefs(g, name) {
		if d.Parent == "" {
			out = append(out, d)
		}
	}
	return out
}

// member finds the definition of member name of type t, walking up what
// t extends: its file and definition, or -1. known reports whether t is a
// type whose members the tree declares (a class, or a type with members
// or bases of the tree), so that a miss means the member is not the
// tree's.
func (ev *jsEval) member(t jsType, name string, budget int) (int, *world.LinkDef, bool) {
	ev.steps++
	if budget <= 0 || ev.steps > maxJSSteps {
		return -1, nil, false
	}
	idx := ev.memberIndex(t.file)
	if k, ok := idx[t.name+"."+name]; ok {
		return t.file, &ev.b.links[t.file].Defs[k], true
	}
	_, known := idx[t.name]
	var bases string
	for _, d := range ev.topDefs(t.file, t.name) {
		if jsTypeKind(d.Kind) {
			bases = jsRet(d.Returns)
			if d.Kind == world.KindClass {
				known = true
			}
			break
		}
	}
	for _, base := range strings.FieldsFunc(bases, func(r rune) bool { return r == ',' || r == '|' }) {
		bt, ok := ev.eval(t.file, base, budget-1)
		if !ok || bt == t {
			continue
		}
		if f, d, k := ev.member(bt, name, budget-1); f >= 0 {
			return f, d, true
		} else if k {
			known = true
		}
	}
	return -1, nil, known
}

// memberIndex maps "Parent.name" to the index of that member definition
// in file g's definitions, and each parent to -1.
func (ev *jsEval) memberIndex(g int) map[string]int {
	if m, ok := ev.x.members.Load(g); ok {
		return m.(map[string]int)
	}
	m := map[string]int{}
	if l := ev.b.links[g]; l != nil {
		for k, d := range l.Defs {
			if d.Parent == "" || strings.Contains(d.Parent, ".") {
				continue
			}
			key := d.Parent + "." + d.Name
			if _, dup := m[key]; !dup {
				m[key] = k
			}
			m[d.Parent] = -1
		}
	}
	ev.x.members.Store(g, m)
	return m
}

// jsNameIn finds the file declaring what name designates in file f and
// its name there: f's own top-level definition, else what an import of f
// binds, through barrels.
func (b *builder) jsNameIn(x *jsIndex, f int, name string) (int, string) {
	if b.definesTop(f, name) {
		return f, name
	}
	for _, im := range b.links[f].Imports {
		if strings.Contains(im.Kind, "reexport") {
			continue
		}
		for _, n := range im.Names {
			orig, local := importName(im, n)
			if local != name {
				continue
			}
			t := b.jsModule(x, f, im.Path)
			if t < 0 {
				return -1, ""
			}
			if b.definesTop(t, orig) {
				return t, orig
			}
			if ds := x.exports[t][orig]; len(ds) == 1 {
				return ds[0], orig
			}
			return -1, ""
		}
	}
	return -1, ""
}

// module is the file of the tree that alias, bound whole to a module by an
// import of file f, stands for; -1 when none.
func (ev *jsEval) module(f int, alias string) int {
	for _, im := range ev.b.links[f].Imports {
		if im.Alias != alias || len(im.Names) > 0 || strings.Contains(im.Kind, "reexport") {
			continue
		}
		if t := ev.b.jsModule(ev.x, f, im.Path); t >= 0 {
			return ev.b.jsWhole(ev.x, t)
		}
		return -1
	}
	return -1
}

// union returns, when t is a type alias of a union (Returns "A|B"), the
// files declaring member name in each member type that has it.
func (ev *jsEval) union(t jsType, name string) []int {
	var out []int
	for _, d := range ev.topDefs(t.file, t.name) {
		if d.Kind != world.KindType || !strings.Contains(jsRet(d.Returns), "|") {
			continue
		}
		for _, part := range strings.Split(jsRet(d.Returns), "|") {
			if bt, ok := ev.eval(t.file, part, maxJSBases-1); ok {
				if f, _, _ := ev.member(bt, name, maxJSBases-1); f >= 0 {
					out = append(out, f)
				}
			}
		}
		break
	}
	return out
}

// aliasReturns is what calling a value of type t gives when t is an alias
// of a function type.
func (ev *jsEval) aliasReturns(t jsType, budget int) (jsType, bool) {
	for _, d := range ev.topDefs(t.file, t.name) {
		if d.Kind == world.KindType && strings.Contains(d.Returns, ";") {
			return ev.eval(t.file, jsRet(d.Returns), budget-1)
		}
	}
	return jsType{}, false
}
