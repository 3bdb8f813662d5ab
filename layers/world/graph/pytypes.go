package graph

import (
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// Python members reached through a type. The extractor writes the
// qualifier of a member whose receiver's type the code says as
// "receiver:hint" (self:Client, self.pool:Pool(), c:Conn, v:make()):
// "T" is an instance of class T, "T!" the class T itself (type[T]; its
// members are looked up the same way, calling it gives a T), "T()" what
// calling T gives (an instance of class T, or what function T is
// declared to return), "H#m" what member m of H holds or returns. A
// declared container is "T[]" (its elements are T) or "T{}" (its values
// are); "H#@i" is an element of H iterated over, "H#@v" one taken by key
// or index. ":C=" qualifies a keyword argument of a call of class C. The
// member is looked up in that class, then up its bases across files. Only other
// files' definitions (with their Parent and Returns) and imports are
// read, never their references, so a file's resolution changes only when
// what it can see declared changes.

// maxPyBases bounds a walk up a class hierarchy (and ends cycles).
const maxPyBases = 12

// pyTyped resolves a member ref whose qualifier carries a type hint.
// It reports false when the hint names nothing in the tree; the ref then
// goes the usual way with the receiver as written.
func (a *acc) pyTyped(x *pyIndex, i int, r world.LinkRef) bool {
	_, hint, _ := strings.Cut(r.Qual, ":")
	if cls, ok := strings.CutSuffix(hint, "="); ok {
		// a keyword argument of a call of class cls: the __init__ taking
		// it, else (a dataclass) the field of that name
		f, n, ok := a.pyClassNamed(x, i, cls)
		if _, stub := x.stubs[f]; ok && !stub && !a.pyStubbed(x, i, cls) {
			d := a.pyMember(x, f, n, "__init__", maxPyBases)
			if d < 0 {
				d = a.pyMember(x, f, n, r.Name, maxPyBases)
			}
			if d >= 0 {
				a.edge(i, d, r.Count, 1)
			}
		}
		return true
	}
	hint, up := strings.CutSuffix(hint, "^")
	f, cls, ok := a.pyTypeOf(x, i, hint)
	if !ok {
		return false
	}
	if !up {
		if d := a.pyMember(x, f, cls, r.Name, maxPyBases); d >= 0 {
			a.edge(i, d, r.Count, 1)
		}
		return true
	}
	for _, base := range a.pyBases(f, cls) {
		// super().m: the first base declaring m, in order
		if g, n, ok := a.pyBaseAt(x, f, cls, base); ok {
			if d := a.pyMember(x, g, n, r.Name, maxPyBases); d >= 0 {
				a.edge(i, d, r.Count, 1)
				break
			}
		}
	}
	// A class of the tree that neither declares the member nor inherits
	// it from the tree: set at run time or from a base outside; no edge.
	return true
}

// pyTypeOf finds the class a hint names as file i sees it: its file and
// its qualified name there.
func (b *builder) pyTypeOf(x *pyIndex, i int, hint string) (int, string, bool) {
	return b.pyTypeOfD(x, i, hint, 4)
}

// pyTypeOfD is pyTypeOf following variables' hints depth deep.
func (b *builder) pyTypeOfD(x *pyIndex, i int, hint string, depth int) (int, string, bool) {
	if depth <= 0 {
		return -1, "", false
	}
	hint, members, _ := strings.Cut(hint, "#")
	var ops []string
	if members != "" {
		ops = strings.Split(members, "#")
	}
	if isPyContainer(hint) || len(ops) > 0 && isPyElemOp(ops[0]) {
		// an element of a container: of the one written, or of what the
		// variable or function named is declared to hold or return
		g, decl := i, hint
		if !isPyContainer(hint) {
			if g, decl = b.pyDeclared(x, i, hint); g < 0 {
				return -1, "", false
			}
		}
		return b.pyContainerOps(x, g, decl, ops, depth)
	}
	f, cls, ok := b.pyTypeOfIn(x, i, hint, depth)
	if !ok {
		if m, isMod := b.pyModuleNamed(x, i, strings.TrimSuffix(hint, "!")); isMod && len(ops) > 0 && !isPyElemOp(ops[0]) {
			// m#v#…: what module m's v is, as m sees it
			return b.pyTypeOfD(x, m, pyJoinOps(ops[0], ops[1:]), depth-1)
		}
		return -1, "", false
	}
	// T#a#b: the type member a of T is declared to hold or return, then
	// member b of that.
	for k, m := range ops {
		if isPyElemOp(m) {
			return -1, "", false // an instance of a class iterated over
		}
		g, ret := b.pyMemberDef(x, f, cls, m, maxPyBases)
		if g < 0 || ret == "" {
			return -1, "", false
		}
		if isPyContainer(ret) || k+1 < len(ops) && isPyElemOp(ops[k+1]) {
			// what the member holds, then the rest, as seen from its file
			if ret = pyJoinOps(ret, ops[k+1:]); strings.Count(ret, "#") > 8 {
				return -1, "", false
			}
			return b.pyTypeOfD(x, g, ret, depth-1)
		}
		if f, cls, ok = b.pyTypeOfD(x, g, ret, depth-1); !ok {
			return -1, "", false
		}
	}
	return f, cls, true
}

// pyStubbed reports whether file i reaches name ("C", "m.C") through a
// module with a .pyi stub: jedi then reads the stub, not the tree's
// class, for what calling it takes.
func (b *builder) pyStubbed(x *pyIndex, i int, name string) bool {
	head, _, _ := strings.Cut(name, ".")
	stubbed := func(p string) bool {
		m, ok := b.pyModFile(x, i, p)
		_, st := x.stubs[m]
		return ok && st
	}
	for _, im := range b.links[i].Imports {
		if len(im.Names) == 0 {
			if im.Alias == head || im.Alias == "" && qualHead(im.Path) == head {
				return stubbed(im.Path)
			}
			continue
		}
		for _, n := range im.Names {
			if orig, local := importName(im, n); local == head {
				return stubbed(im.Path) || stubbed(pySub(im.Path, orig))
			}
		}
	}
	return false
}

// pyModuleNamed finds the module file i binds name to by an import
// (import m, import a.b as m, from pkg import m).
func (b *builder) pyModuleNamed(x *pyIndex, i int, name string) (int, bool) {
	if name == "" || strings.ContainsAny(name, ".()") {
		return -1, false
	}
	for _, im := range b.links[i].Imports {
		if len(im.Names) == 0 {
			if im.Alias == name || im.Alias == "" && im.Path == name {
				return b.pyModFile(x, i, im.Path)
			}
			continue
		}
		for _, n := range im.Names {
			if orig, local := importName(im, n); local == name {
				return b.pyModFile(x, i, pySub(im.Path, orig))
			}
		}
	}
	return -1, false
}

// isPyContainer reports whether hint is a container the code declares:
// "T[]" (elements T) or "T{}" (values T).
func isPyContainer(hint string) bool {
	return !strings.Contains(hint, "#") && (strings.HasSuffix(hint, "[]") || strings.HasSuffix(hint, "{}"))
}

// isPyElemOp reports whether op takes an element of a container: "@i"
// one iterated over, "@v" one taken by key or index.
func isPyElemOp(op string) bool { return op == "@i" || op == "@v" }

// pyJoinOps appends ops to hint h.
func pyJoinOps(h string, ops []string) string {
	if len(ops) == 0 {
		return h
	}
	return h + "#" + strings.Join(ops, "#")
}

// pyDeclared is what name (a module variable, or "f()", a call of a
// function) is declared to hold or return as file i sees it: the file
// declaring it and the hint there; -1 when the code does not say.
func (b *builder) pyDeclared(x *pyIndex, i int, name string) (int, string) {
	name, call := strings.CutSuffix(strings.TrimSuffix(name, "!"), "()")
	f, n, ok := b.pyClassAt(x, i, name)
	if !ok || strings.Contains(n, ".") {
		return -1, ""
	}
	switch k := b.pyDefKind(f, n); {
	case !call && (k == world.KindVar || k == world.KindConst):
		if g, h := b.pyVarHintAt(x, f, n); h != "" {
			return g, h
		}
	case call && k == world.KindFunction:
		if h := b.pyReturns(f, n); h != "" {
			return f, h
		}
	}
	return -1, ""
}

// pyContainerOps applies ops to decl, a hint in file f: on a container
// the code declares, "@i" and "@v" give its elements ("T[]") or values
// ("T{}"), and so do its methods pop, get and setdefault, and values()
// iterated over; copy() keeps it; anything else on a hint that is no
// container yet is left to pyTypeOfD.
func (b *builder) pyContainerOps(x *pyIndex, f int, decl string, ops []string, depth int) (int, string, bool) {
	for len(ops) > 0 {
		if !isPyContainer(decl) {
			return b.pyTypeOfD(x, f, pyJoinOps(decl, ops), depth-1)
		}
		elem, isMap := decl[:len(decl)-2], strings.HasSuffix(decl, "{}")
		switch op := ops[0]; {
		case op == "@v", op == "pop", isMap && (op == "get" || op == "setdefault"):
			decl, ops = elem, ops[1:]
		case op == "@i" && !isMap:
			decl, ops = elem, ops[1:]
		case op == "values" && isMap && len(ops) > 1 && ops[1] == "@i":
			decl, ops = elem, ops[2:]
		case op == "copy":
			ops = ops[1:]
		default:
			return -1, "", false
		}
	}
	if isPyContainer(decl) {
		return -1, "", false
	}
	return b.pyTypeOfD(x, f, decl, depth-1)
}

// pyVarHint is the type hint module variable name of file f is declared
// with, "" when none.
func (b *builder) pyVarHint(f int, name string) string {
	for _, d := range b.links[f].Defs {
		if d.Name == name && d.Parent == "" && (d.Kind == world.KindVar || d.Kind == world.KindConst) {
			return d.Returns
		}
	}
	return ""
}

// pyVarHintAt is pyVarHint read as type checkers and jedi read it: in
// the module's .pyi stub when the stub gives the variable a type
// (loguru's "logger: Logger", Logger a class of the stub); it returns
// the file the hint is written in.
func (b *builder) pyVarHintAt(x *pyIndex, f int, name string) (int, string) {
	if st, ok := x.stubs[f]; ok {
		if h := b.pyVarHint(st, name); h != "" {
			return st, h
		}
	}
	return f, b.pyVarHint(f, name)
}

// pyClassNamed is pyClassAt when what name designates is a class.
func (b *builder) pyClassNamed(x *pyIndex, f int, name string) (int, string, bool) {
	g, n, ok := b.pyClassAt(x, f, name)
	if !ok || b.pyDefKind(g, n) != world.KindClass {
		return -1, "", false
	}
	return g, n, true
}

// pyTypeOfIn is pyTypeOfD for a hint without members.
func (b *builder) pyTypeOfIn(x *pyIndex, i int, hint string, depth int) (int, string, bool) {
	hint = strings.TrimSuffix(hint, "!") // a class as itself: its members are its instances
	name, call := strings.CutSuffix(hint, "()")
	f, n, ok := b.pyClassAt(x, i, name)
	if !ok {
		return -1, "", false
	}
	k := b.pyDefKind(f, n)
	if k == world.KindClass {
		return f, n, true
	}
	if (k == world.KindVar || k == world.KindConst) && !call && depth > 0 && !strings.Contains(n, ".") {
		// a module variable: the type the code gives it where declared
		if g, h := b.pyVarHintAt(x, f, n); h != "" {
			return b.pyTypeOfD(x, g, h, depth-1)
		}
		return -1, "", false
	}
	if call && (k == world.KindVar || k == world.KindConst) && !strings.Contains(n, ".") {
		// calling a variable that holds a class (type[T], a class
		// assigned, a factory returning type[T]) gives an instance
		if g, h := b.pyVarHintAt(x, f, n); b.pyHoldsClass(x, g, h, depth) {
			return b.pyTypeOfD(x, g, h, depth-1)
		}
		return -1, "", false
	}
	if !call || k != world.KindFunction || strings.Contains(n, ".") {
		return -1, "", false
	}
	ret := b.pyReturns(f, n)
	if ret == "" {
		return -1, "", false
	}
	return b.pyClassNamed(x, f, ret)
}

// pyHoldsClass reports whether hint h of file f designates a class
// itself rather than an instance: "T!", a function declared to return
// type[T] called, a variable holding one (depth levels deep).
func (b *builder) pyHoldsClass(x *pyIndex, f int, h string, depth int) bool {
	if depth <= 0 || h == "" || strings.Contains(h, "#") {
		return false
	}
	if strings.HasSuffix(h, "!") {
		if g, n, ok := b.pyClassAt(x, f, h); ok && b.pyDefKind(g, n) != world.KindClass {
			// a variable named: what it holds
			return b.pyHoldsClass(x, g, b.pyVarHint(g, n), depth-1)
		}
		return true
	}
	if name, call := strings.CutSuffix(h, "()"); call {
		if g, n, ok := b.pyClassAt(x, f, name); ok && b.pyDefKind(g, n) == world.KindFunction {
			return strings.HasSuffix(b.pyReturns(g, n), "!")
		}
	}
	return false
}

// pyClassAt finds what name ("X", "Outer.X" or "m.X") designates in file
// f: a definition of f by qualified name, else what its imports bind.
func (b *builder) pyClassAt(x *pyIndex, f int, name string) (int, string, bool) {
	name = strings.TrimSuffix(name, "!") // the class itself (type[T])
	if b.pyDefKind(f, name) != "" {
		return f, name, true
	}
	head, rest, dotted := strings.Cut(name, ".")
	if dotted && strings.Contains(rest, ".") {
		return -1, "", false
	}
	for _, im := range b.links[f].Imports {
		if dotted && len(im.Names) == 0 && (im.Alias == head || im.Alias == "" && im.Path == head) {
			// import m [as a], then m.X
			if m, ok := b.pyModFile(x, f, im.Path); ok {
				if d := b.pyDeclaring(x, m, rest); d >= 0 {
					return d, rest, true
				}
			}
			return -1, "", false
		}
		for _, n := range im.Names {
			// (an import from outside the tree may be the first of two
			// binding the name: try: from lib import X / except
			// ImportError: from .fallback import X)
			orig, local := importName(im, n)
			switch {
			case !dotted && local == name:
				if m, ok := b.pyModFile(x, f, im.Path); ok {
					if d := b.pyDeclaring(x, m, orig); d >= 0 {
						return d, orig, true
					}
				}
			case dotted && local == head:
				// from pkg import m, then m.X: m a submodule, or a class
				sub := pySub(im.Path, orig)
				if m, ok := b.pyModFile(x, f, sub); ok {
					if d := b.pyDeclaring(x, m, rest); d >= 0 {
						return d, rest, true
					}
				}
			}
		}
	}
	return -1, "", false
}

// pyDefKind is the kind of the definition qualified name q in file f
// ("Outer.X" is X with parent Outer), "" when f has none.
func (b *builder) pyDefKind(f int, q string) string {
	parent, name := "", q
	if k := strings.LastIndexByte(q, '.'); k >= 0 {
		parent, name = q[:k], q[k+1:]
	}
	kind := ""
	for _, d := range b.links[f].DefsNamed(name) {
		if d.Parent == parent && (kind == "" || d.Kind == world.KindClass) {
			kind = d.Kind
		}
	}
	return kind
}

// pyBases are the base classes class q of file f is declared with.
func (b *builder) pyBases(f int, q string) []string {
	parent, name := "", q
	if k := strings.LastIndexByte(q, '.'); k >= 0 {
		parent, name = q[:k], q[k+1:]
	}
	for _, d := range b.links[f].DefsNamed(name) {
		if d.Parent == parent && d.Kind == world.KindClass && d.Returns != "" {
			return strings.Split(d.Returns, ",")
		}
	}
	return nil
}

// pyMember finds the file declaring member name of class cls of file f,
// walking up its bases (depth levels at most); -1 when none in the tree
// does.
func (b *builder) pyMember(x *pyIndex, f int, cls, name string, depth int) int {
	g, _ := b.pyMemberAt(x, f, cls, name, depth)
	return g
}

// pyMemberAt is pyMember that also returns the class declaring the
// member.
func (b *builder) pyMemberAt(x *pyIndex, f int, cls, name string, depth int) (int, string) {
	if depth <= 0 {
		return -1, ""
	}
	for _, d := range b.links[f].Defs {
		if d.Name == name && d.Parent == cls {
			return f, cls
		}
	}
	for _, base := range b.pyBases(f, cls) {
		g, n, ok := b.pyBaseAt(x, f, cls, base)
		if !ok {
			continue
		}
		if d, c := b.pyMemberAt(x, g, n, name, depth-1); d >= 0 {
			return d, c
		}
	}
	return -1, ""
}

// pyBaseAt finds base class base of class cls of file f.
func (b *builder) pyBaseAt(x *pyIndex, f int, cls, base string) (int, string, bool) {
	g, n, ok := b.pyClassAt(x, f, base)
	if !ok && strings.Contains(cls, ".") {
		// a base named from inside an enclosing class's scope
		g, n, ok = b.pyClassAt(x, f, cls[:strings.LastIndexByte(cls, '.')]+"."+base)
	}
	return g, n, ok
}

// pyMemberDef finds member name of class cls of file f as pyMember does
// and returns its file and the type it is declared to hold or return
// (a type hint, see pyTypeOfIn).
func (b *builder) pyMemberDef(x *pyIndex, f int, cls, name string, depth int) (int, string) {
	g, c := b.pyMemberAt(x, f, cls, name, depth)
	if g < 0 {
		return -1, ""
	}
	for _, d := range b.links[g].Defs {
		if d.Name == name && d.Parent == c && d.Returns != "" && d.Kind != world.KindClass {
			return g, d.Returns
		}
	}
	return g, ""
}

// pyWarnCycles warns, in file order, about every class of files whose
// base classes lead back to it: member lookups through it stop after
// maxPyBases classes.
func (b *builder) pyWarnCycles(x *pyIndex, files []int) {
	if b.in.Warn == nil {
		return
	}
	type class struct {
		f   int
		cls string
	}
	for _, f := range files {
		if b.in.Only != nil && !b.in.Only[b.files[f].Path] {
			continue
		}
		for _, d := range b.links[f].Defs {
			if d.Kind != world.KindClass || d.Returns == "" {
				continue
			}
			start := class{f, d.Name}
			if d.Parent != "" {
				start.cls = d.Parent + "." + d.Name
			}
			seen := map[class]bool{}
			var walk func(c class, depth int) bool
			walk = func(c class, depth int) bool {
				if depth > maxPyBases || seen[c] {
					return false
				}
				seen[c] = true
				for _, base := range b.pyBases(c.f, c.cls) {
					g, n, ok := b.pyBaseAt(x, c.f, c.cls, base)
					if !ok {
						continue
					}
					if (class{g, n}) == start || walk(class{g, n}, depth+1) {
						return true
					}
				}
				return false
			}
			if walk(start, 0) {
				b.warnf("%s: class %s: its base classes lead back to it; members are looked up %d classes up at most", b.files[f].Path, start.cls, maxPyBases)
			}
		}
	}
}
