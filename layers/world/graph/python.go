package graph

import (
	"path"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// pyIndex maps dotted module names to files.
type pyIndex struct {
	mods  map[string]int  // "a.b.c" → a/b/c.py or a/b/c/__init__.py
	names map[int]string  // file → its module name
	stubs map[int]int     // module → the .pyi stub beside it
	pkgs  map[string]bool // folders with an __init__.py
}

// pyModule returns the dotted module name of p relative to root ("" for
// the tree root), or "".
func pyModule(p, root string) string {
	if root != "" {
		if !strings.HasPrefix(p, root+"/") {
			return ""
		}
		p = p[len(root)+1:]
	}
	ext := path.Ext(p)
	if ext != ".py" && ext != ".pyi" {
		return ""
	}
	p = strings.TrimSuffix(p, ext)
	p = strings.TrimSuffix(p, "/__init__")
	if p == "__init__" {
		return ""
	}
	return strings.ReplaceAll(p, "/", ".")
}

func (b *builder) resolvePython() {
	inits := map[string]bool{} // directories with __init__.py
	x := &pyIndex{mods: map[string]int{}, names: map[int]string{}, stubs: map[int]int{}, pkgs: inits}
	var files []int
	b.filesOf(world.LangPython, func(i int, l *world.Link) {
		files = append(files, i)
		if base := path.Base(b.files[i].Path); base == "__init__.py" || base == "__init__.pyi" {
			inits[path.Dir(b.files[i].Path)] = true
		}
	})
	if len(files) == 0 {
		return
	}
	// Source roots, most specific first: common layouts, then the parent of
	// every top-level package, then the tree root.
	rootSet := map[string]bool{}
	for d := range inits {
		top := d
		for top != "." && inits[path.Dir(top)] {
			top = path.Dir(top) // "." has an __init__.py when the tree is a package
		}
		if p := path.Dir(top); p != "." {
			rootSet[p] = true
		}
	}
	for _, r := range []string{"src", "lib", "python"} {
		if _, ok := b.dirs[r]; ok {
			rootSet[r] = true
		}
	}
	roots := make([]string, 0, len(rootSet)+1)
	for r := range rootSet {
		roots = append(roots, r)
	}
	sort.Strings(roots)
	roots = append(roots, "")
	for _, root := range roots {
		for _, i := range files {
			if m := pyModule(b.files[i].Path, root); m != "" {
				if _, dup := x.mods[m]; !dup {
					x.mods[m] = i
				}
			}
		}
	}
	for m, i := range x.mods {
		// the shortest name, the one below the most specific root
		if n, ok := x.names[i]; !ok || len(m) < len(n) || len(m) == len(n) && m < n {
			x.names[i] = m
		}
	}
	for _, i := range files {
		if p := b.files[i].Path; isStub(p) {
			if j := b.lookupPath(strings.TrimSuffix(p, ".pyi") + ".py"); j >= 0 {
				x.stubs[j] = i
			}
		}
	}
	b.pyWarnCycles(x, files)
	fn := func(a *acc, i int) {
		l := b.links[i]
		s := newScope()
		s.follow = func(f int, name string, depth int) []int { return b.pyFollow(x, f, name, 4) }
		s.pkgQual = func(q, name string) ([]int, bool) { return b.pyDotted(x, s, q, name) }
		s.noFallback = true // Python names come from imports, star imports or builtins
		s.noMemberGuess = true
		for _, im := range l.Imports {
			b.pyImport(a, x, i, im, s)
		}
		if typed := a.pyFixtures(x, i, l); len(typed) > 0 {
			// Members of fixture parameters are resolved through the type
			// the fixture returns; the rest goes the usual way.
			rest := *l
			rest.Refs = nil
			for _, r := range l.Refs {
				if c, ok := typed[r.Qual]; ok && r.Kind == world.RefMember && c >= 0 && a.definesMember(c, r.Name) {
					a.edge(i, c, r.Count, 1)
					continue
				}
				rest.Refs = append(rest.Refs, r)
			}
			l = &rest
		}
		if hasModuleMember(l, s) {
			// m.__file__, m.__name__…: attributes every module has, so
			// uses of the module's file; m.sub, sub a submodule m does
			// not bind: the submodule's file
			rest := *l
			rest.Refs = nil
			for _, r := range l.Refs {
				fs := s.alias[r.Qual]
				if len(fs) == 1 && pyModuleDunders[r.Name] {
					a.edge(i, fs[0], r.Count, 1)
					continue
				}
				if len(fs) == 1 && !b.pyBinds(fs[0], r.Name) && !b.pyStubBinds(x, fs[0], r.Name) {
					if t, ok := x.mods[x.names[fs[0]]+"."+r.Name]; ok && x.names[fs[0]] != "" {
						a.edge(i, t, r.Count, 1)
						continue
					}
				}
				rest.Refs = append(rest.Refs, r)
			}
			l = &rest
		}
		if hasTyped(l) {
			rest := *l
			rest.Refs = nil
			for _, r := range l.Refs {
				if k := strings.IndexByte(r.Qual, ':'); k >= 0 {
					if a.pyTyped(x, i, r) {
						continue
					}
					r.Qual = qualHead(r.Qual[:k])
				}
				rest.Refs = append(rest.Refs, r)
			}
			l = &rest
		}
		a.resolveScoped(i, l, s)
	}
	for _, i := range files {
		b.register(i, fn)
	}
}

// pyFile finds the file of dotted module m, trying it as written and, for
// relative imports resolved from the tree root, below each source root.
func (x *pyIndex) pyFile(m string) (int, bool) {
	if f, ok := x.mods[m]; ok {
		return f, true
	}
	return -1, false
}

func (b *builder) pyModFile(x *pyIndex, i int, p string) (int, bool) {
	if strings.HasPrefix(p, ".") {
		// A relative import names a file by its path from file i's folder.
		return b.pyRelFile(i, p)
	}
	if f, ok := x.pyFile(p); ok {
		return f, true
	}
	if dir := path.Dir(b.files[i].Path); dir != "." && !x.pkgs[dir] {
		// a script's own folder comes first on its sys.path: import
		// helper finds helper.py beside a script outside any package
		return b.pyRelFile(i, "."+p)
	}
	return -1, false
}

// pyRelFile finds the module a relative import (".x", "..a.b", ".")
// names from file i: a .py or .pyi file or a package's __init__.
func (b *builder) pyRelFile(i int, p string) (int, bool) {
	dots := len(p) - len(strings.TrimLeft(p, "."))
	dir := path.Dir(b.files[i].Path)
	for k := 1; k < dots; k++ {
		if dir == "." {
			return -1, false // above the tree
		}
		dir = path.Dir(dir)
	}
	rel := strings.ReplaceAll(p[dots:], ".", "/")
	base := rel
	if dir != "." {
		base = dir + "/" + rel
		if rel == "" {
			base = dir
		}
	}
	cands := []string{base + ".py", base + "/__init__.py", base + ".pyi", base + "/__init__.pyi"}
	if rel == "" {
		cands = []string{base + "/__init__.py", base + "/__init__.pyi"}
		if dir == "." {
			cands = []string{"__init__.py", "__init__.pyi"}
		}
	}
	for _, c := range cands {
		if f := b.lookupPath(c); f >= 0 {
			return f, true
		}
	}
	return -1, false
}

// pyImport brings what im imports into s and links the import statement
// itself: the module it names and every name it imports are uses.
func (b *builder) pyImport(a *acc, x *pyIndex, i int, im world.Import, s *scope) {
	p := im.Path
	if len(im.Names) == 0 && im.Alias != "*" {
		// import a.b.c [as d]
		f, ok := b.pyModFile(x, i, p)
		if !ok {
			s.external(im.Alias, qualHead(p))
			return
		}
		if !isPyPackage(b.files[f].Path) || im.Alias != "" {
			// import pkg as p binds p to the package's __init__
			a.edge(i, f, 1, 1)
		}
		if im.Alias != "" {
			s.bind(im.Alias, f)
			return
		}
		s.bind(p, f)
		if h := qualHead(p); h != p {
			if hf, ok := b.pyModFile(x, i, h); ok {
				s.bind(h, hf)
			}
		}
		return
	}
	base, okBase := b.pyModFile(x, i, p)
	if okBase && !isPyPackage(b.files[base].Path) {
		a.edge(i, base, 1, 1) // the module named in from m import …
	}
	if im.Alias == "*" {
		if okBase {
			s.glob(base)
		}
	}
	for _, n := range im.Names {
		n, local := importName(im, n)
		if n == "*" {
			if okBase {
				s.glob(base)
			}
			continue
		}
		if okBase {
			if st, ok := x.stubs[base]; ok {
				// a package with a stub: the name as the stub binds it
				if d := b.pyStubFollow(x, st, n, 4); len(d) > 0 {
					if isPyModule(b.files[d[0]].Path, n) {
						s.bind(local, d...)
					}
					s.name(local, d...)
					a.spread(i, d, 1, 1)
					continue
				}
			}
		}
		if okBase && base != i && b.definesTop(base, n) {
			// the package's own definition shadows a submodule of that name
			s.name(local, base)
			a.edge(i, base, 1, 1)
			continue
		}
		sub := pySub(p, n)
		if f, ok := b.pyModFile(x, i, sub); ok {
			s.bind(local, f)
			if !isPyPackage(b.files[f].Path) || local != n {
				// naming a package is no use of its __init__ (but for
				// binding it to another name); naming a module is
				s.name(local, f)
				a.edge(i, f, 1, 1)
			}
			continue
		}
		if !okBase {
			s.external(local)
			continue
		}
		d := b.definers(s, []int{base}, n)
		if len(d) == 0 && b.pyImportsFromOutside(x, base, n, 4) {
			// the package hands on a name from outside the tree
			// (from marshmallow import validate): no file declares it
			s.external(local)
			continue
		}
		if len(d) == 0 {
			d = []int{base}
		}
		s.name(local, d...)
		a.spread(i, d, 1, 1)
	}
}

// importsOf is file f's imports; none for a file listed without facts
// (generated, too large), whose link is nil.
func (b *builder) importsOf(f int) []world.Import {
	if l := b.links[f]; l != nil {
		return l.Imports
	}
	return nil
}

// pyImportsFromOutside reports whether module f binds name only by
// imports that lead outside the tree (through modules of the tree that
// import it in turn, depth levels deep).
func (b *builder) pyImportsFromOutside(x *pyIndex, f int, name string, depth int) bool {
	if depth <= 0 || b.definesTop(f, name) {
		return false
	}
	found := false
	for _, im := range b.importsOf(f) {
		for _, n := range im.Names {
			orig, local := importName(im, n)
			if local != name {
				continue
			}
			if _, ok := b.pyModFile(x, f, pySub(im.Path, orig)); ok {
				return false // a submodule
			}
			if t, ok := b.pyModFile(x, f, im.Path); ok && (t == f || !b.pyImportsFromOutside(x, t, orig, depth-1)) {
				return false
			}
			found = true
		}
	}
	return found
}

// pyFollow finds name through the imports of file f (re-exports of an
// __init__.py and similar, star imports included), depth levels deep.
func (b *builder) pyFollow(x *pyIndex, f int, name string, depth int) []int {
	return b.pyFollowIn(x, f, name, depth, true)
}

// pyFollowIn is pyFollow; without viaStubs it reads modules, never their
// stubs, to find where a class is really declared.
func (b *builder) pyFollowIn(x *pyIndex, f int, name string, depth int, viaStubs bool) []int {
	if depth <= 0 {
		return nil
	}
	l := b.links[f]
	if l == nil {
		return nil
	}
	if st, ok := x.stubs[f]; ok && viaStubs {
		// A module with a stub is read through the stub, as type checkers
		// and jedi do: a name the stub declares is declared by the module
		// beside it, a name the stub imports is followed from there.
		if r := b.pyStubFollow(x, st, name, depth); len(r) > 0 {
			return r
		}
		if t, ok := b.pySubmodule(x, f, name); ok {
			return []int{t}
		}
		if b.pyBinds(f, name) {
			return []int{f}
		}
		return nil
	}
	// Every import binding name counts (try: from a import X / except
	// ImportError: from b import X); a star import only when none does.
	var out []int
	for _, im := range l.Imports {
		if im.Alias == "*" && len(im.Names) == 0 {
			if len(out) > 0 || strings.HasPrefix(name, "_") {
				continue // a star import leaves private names out
			}
			t, ok := b.pyModFile(x, f, im.Path)
			if !ok || t == f {
				continue
			}
			if b.definesTop(t, name) {
				return []int{t}
			}
			if r := b.pyFollowIn(x, t, name, depth-1, viaStubs); len(r) > 0 {
				return r
			}
			continue
		}
		for _, n := range im.Names {
			n, local := importName(im, n)
			if local != name && n != "*" {
				continue
			}
			sub := pySub(im.Path, n)
			if t, ok := b.pyModFile(x, f, sub); ok && n != "*" {
				out = append(out, t)
				continue
			}
			t, ok := b.pyModFile(x, f, im.Path)
			if !ok || t == f {
				continue
			}
			if n == "*" {
				if len(out) > 0 {
					continue
				}
				n = name
			}
			if b.definesTop(t, n) {
				out = append(out, t)
			} else {
				out = append(out, b.pyFollowIn(x, t, n, depth-1, viaStubs)...)
			}
		}
	}
	sort.Ints(out)
	return uniq(out)
}

// pyStubFollow finds name as stub file st declares it: st's own
// definition stands for the module beside st; an imported name is looked
// up in the module it comes from, through that module's stub when it has
// one.
func (b *builder) pyStubFollow(x *pyIndex, st int, name string, depth int) []int {
	if depth <= 0 {
		return nil
	}
	mod := func(f int) int {
		// the module a stub stands for, when there is one
		if p := b.files[f].Path; isStub(p) {
			if g := b.lookupPath(strings.TrimSuffix(p, "i")); g >= 0 {
				return g
			}
		}
		return f
	}
	if b.definesTop(st, name) {
		return []int{mod(st)}
	}
	// from m import * in the stub: m's public names, through m's stub
	from := func(t int, orig string) []int {
		t = mod(t)
		if tst, ok := x.stubs[t]; ok {
			return b.pyStubFollow(x, tst, orig, depth-1)
		}
		if b.definesTop(t, orig) {
			return []int{t}
		}
		return b.pyFollow(x, t, orig, depth-1)
	}
	for _, im := range b.importsOf(st) {
		if im.Alias == "*" && len(im.Names) == 0 && !strings.HasPrefix(name, "_") {
			if t, ok := b.pyModFile(x, st, im.Path); ok && t != st {
				if r := from(t, name); len(r) > 0 {
					return r
				}
			}
			continue
		}
		for _, n := range im.Names {
			orig, local := importName(im, n)
			if local != name {
				continue
			}
			if t, ok := b.pySubmodule(x, st, name); ok {
				return []int{mod(t)} // from . import sub as sub
			}
			t, ok := b.pyModFile(x, st, im.Path)
			if !ok || t == st {
				return nil
			}
			return from(t, orig)
		}
	}
	return nil
}

// isPyPackage reports whether p is a package's __init__ file: naming a
// package in an import statement is not a use of its __init__.py.
func isPyPackage(p string) bool {
	base := path.Base(p)
	return base == "__init__.py" || base == "__init__.pyi"
}

// pySub is the import path of submodule name of the module imported as
// p ("a.b" and "c" give "a.b.c", "." and "c" give ".c").
func pySub(p, name string) string {
	if strings.HasSuffix(p, ".") {
		return p + name
	}
	return p + "." + name
}

// isPyModule reports whether p is the file of a module called name.
func isPyModule(p, name string) bool {
	if isPyPackage(p) {
		p = path.Dir(p)
	}
	return strings.TrimSuffix(strings.TrimSuffix(path.Base(p), ".pyi"), ".py") == name
}

// isStub reports whether p is a type stub (.pyi).
func isStub(p string) bool { return strings.HasSuffix(p, ".pyi") }

// pyBinds reports whether module f binds name at top level: defines it or
// imports it by that name.
func (b *builder) pyBinds(f int, name string) bool {
	if b.definesTop(f, name) {
		return true
	}
	for _, im := range b.importsOf(f) {
		for _, n := range im.Names {
			if _, local := importName(im, n); local == name {
				return true
			}
		}
	}
	return false
}

// pyDotted resolves a qualifier written a.b… (a bound to a module): the
// longest run of submodules, then, when names are left, a class of that
// module (Outer.Inner too) whose member name is looked up up its bases;
// a member of anything else is no edge.
func (b *builder) pyDotted(x *pyIndex, s *scope, q, name string) ([]int, bool) {
	head, rest, ok := strings.Cut(q, ".")
	if !ok {
		return nil, false
	}
	fs := s.alias[head]
	if len(fs) != 1 {
		return nil, false
	}
	m, ok := x.names[fs[0]]
	if !ok {
		return nil, false
	}
	cur, parts := fs[0], strings.Split(rest, ".")
	for len(parts) > 0 {
		if st, ok := x.stubs[cur]; ok && b.pyBinds(st, parts[0]) {
			// the module's stub binds the name: a module it imports
			// as that name, else no module
			t := b.pyStubFollow(x, st, parts[0], 4)
			n, isMod := x.names[firstOr(t, -1)]
			if len(t) != 1 || !isMod {
				break
			}
			cur, m, parts = t[0], n, parts[1:]
			continue
		}
		t, ok := x.mods[m+"."+parts[0]]
		if !ok {
			break
		}
		cur, m, parts = t, m+"."+parts[0], parts[1:]
	}
	if len(parts) == 0 {
		if d := b.definers(s, []int{cur}, name); len(d) > 0 {
			return d, true
		}
		return []int{cur}, true
	}
	g, cls, ok := b.pyClassNamed(x, cur, parts[0])
	for _, p := range parts[1:] {
		if !ok {
			break
		}
		g, cls, ok = b.pyClassNamed(x, g, cls+"."+p)
	}
	if !ok {
		return nil, true
	}
	if d := b.pyMember(x, g, cls, name, maxPyBases); d >= 0 {
		return []int{d}, true
	}
	return nil, true
}

// pySubmodule returns the module file that module f imports as name
// (from . import name, from .name import … leaves it out).
func (b *builder) pySubmodule(x *pyIndex, f int, name string) (int, bool) {
	for _, im := range b.importsOf(f) {
		for _, n := range im.Names {
			n, local := importName(im, n)
			if local != name {
				continue
			}
			sub := pySub(im.Path, n)
			if t, ok := b.pyModFile(x, f, sub); ok {
				return t, true
			}
		}
	}
	return -1, false
}

// pyFixtures links the fixture parameters of a test module or conftest.py
// to the fixture they name: the module's own, else the one in the nearest
// conftest.py upwards. It returns, per parameter whose fixture says what
// it returns, the file declaring that class (-1 when not in the tree).
func (a *acc) pyFixtures(x *pyIndex, i int, l *world.Link) map[string]int {
	p := a.files[i].Path
	base := path.Base(p)
	if !(strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") || base == "conftest.py") {
		return nil
	}
	var typed map[string]int
	for _, r := range l.Refs {
		if r.Kind != world.RefFixture {
			continue
		}
		f := -1
		if a.definesTop(i, r.Name) {
			f = i
		} else {
			for d := path.Dir(p); ; d = path.Dir(d) {
				c := "conftest.py"
				if d != "." {
					c = d + "/conftest.py"
				}
				if g := a.lookupPath(c); g >= 0 && g != i && a.definesTop(g, r.Name) {
					f = g
					a.edge(i, f, r.Count, 1)
					break
				}
				if d == "." || d == "/" {
					break
				}
			}
		}
		if f < 0 {
			continue
		}
		if t := a.pyReturns(f, r.Name); t != "" {
			if typed == nil {
				typed = map[string]int{}
			}
			typed[r.Name] = a.pyResolveIn(x, f, t)
		}
	}
	return typed
}

// pyReturns is what top-level function name of file f returns, "" when
// not known.
func (b *builder) pyReturns(f int, name string) string {
	for _, d := range b.links[f].DefsNamed(name) {
		if d.Parent == "" && d.Returns != "" && d.Kind != world.KindClass {
			return d.Returns
		}
	}
	return ""
}

// pyResolveIn finds the file declaring type name t ("X" or "m.X") as
// module f sees it: its own definition, or what its imports bind; -1
// when not in the tree.
func (b *builder) pyResolveIn(x *pyIndex, f int, t string) int {
	t = strings.TrimSuffix(t, "!") // the class itself (type[T])
	head, rest, dotted := strings.Cut(t, ".")
	if dotted && strings.Contains(rest, ".") {
		return -1
	}
	if !dotted && b.definesTop(f, t) {
		return f
	}
	for _, im := range b.importsOf(f) {
		if dotted {
			// import m [as a], then m.X
			if len(im.Names) == 0 && (im.Alias == head || im.Alias == "" && im.Path == head) {
				if m, ok := b.pyModFile(x, f, im.Path); ok {
					return b.pyDeclaring(x, m, rest)
				}
			}
			continue
		}
		for _, n := range im.Names {
			orig, local := importName(im, n)
			if local != t {
				continue
			}
			if m, ok := b.pyModFile(x, f, im.Path); ok {
				return b.pyDeclaring(x, m, orig)
			}
			return -1
		}
	}
	return -1
}

// pyDeclaring is the file declaring name as module m exports it, -1 when
// none in the tree does.
func (b *builder) pyDeclaring(x *pyIndex, m int, name string) int {
	if b.definesTop(m, name) {
		return m
	}
	if d := b.pyFollowIn(x, m, name, 4, false); len(d) > 0 {
		return d[0]
	}
	return -1
}

// hasTyped reports whether some reference of l carries a type hint in its
// qualifier ("v:T").
func hasTyped(l *world.Link) bool {
	for _, r := range l.Refs {
		if strings.IndexByte(r.Qual, ':') >= 0 {
			return true
		}
	}
	return false
}

// pyStubBinds reports whether the .pyi stub of module f binds name.
func (b *builder) pyStubBinds(x *pyIndex, f int, name string) bool {
	st, ok := x.stubs[f]
	return ok && b.pyBinds(st, name)
}

// pyModuleDunders are the attributes every module has, as jedi knows
// them (a package's __path__ is not among them).
var pyModuleDunders = map[string]bool{"__file__": true, "__name__": true, "__package__": true, "__doc__": true}

// hasModuleMember reports whether some reference of l selects a member
// of a module s binds whole.
func hasModuleMember(l *world.Link, s *scope) bool {
	for _, r := range l.Refs {
		if r.Qual != "" && len(s.alias[r.Qual]) == 1 {
			return true
		}
	}
	return false
}

// firstOr is the first of s, else def.
func firstOr(s []int, def int) int {
	if len(s) > 0 {
		return s[0]
	}
	return def
}
