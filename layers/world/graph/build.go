package graph

import (
	"fmt"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/git-speed/git-speed/layers/world"
)

// Input is everything Build needs to resolve one tree.
type Input struct {
	Tree  string
	Files []world.FileEntry // sorted by path
	Links []*world.Link     // parallel to Files; nil where the file has no facts
	// Read returns the contents of a small config file of the tree (go.mod,
	// go.work, tsconfig.json, jsconfig.json, package.json, Cargo.toml,
	// composer.json). It may be nil; a failed read counts as absent.
	Read func(path string) ([]byte, error)
	// Warn, when set, is told in one sentence about a config file that
	// resolution could not use (a malformed package.json or tsconfig);
	// resolution goes on without it. Calls come in file order.
	Warn func(msg string)
	// Only, when set, names the files whose references are resolved; the
	// others give no edges. A file's edges do not depend on other files'
	// resolution, so those of an Only file are the ones a whole Build
	// gives it (an in-place update resolves just the edited files).
	Only map[string]bool
}

// Fallback limits: a name defined in more than maxFallbackDefs files of a
// language is not linked by name alone, nor is a name shorter than
// minFallbackName or in commonNames.
const (
	maxFallbackDefs = 5
	minFallbackName = 3
)

// commonNames are names so widely used for unrelated things that a match
// by name alone says nothing.
var commonNames = map[string]bool{
	"get": true, "set": true, "new": true, "init": true, "run": true, "main": true,
	"close": true, "open": true, "read": true, "write": true, "string": true, "len": true,
	"test": true, "value": true, "name": true, "data": true, "type": true, "call": true,
	"apply": true, "push": true, "pop": true, "add": true, "map": true, "filter": true,
	"reduce": true, "keys": true, "values": true, "items": true, "update": true, "delete": true,
	"remove": true, "append": true, "extend": true, "insert": true, "size": true, "length": true,
	"start": true, "stop": true, "reset": true, "clear": true, "copy": true, "equals": true,
	"hash": true, "next": true, "error": true, "format": true, "parse": true, "load": true,
	"save": true, "render": true, "handle": true, "process": true, "execute": true,
	"__init__": true, "__str__": true, "__repr__": true, "__eq__": true, "__call__": true,
	"self": true, "this": true, "super": true, "cls": true, "constructor": true,
	"toString": true, "ToString": true, "hashCode": true, "Equals": true, "GetHashCode": true,
	"String": true, "Error": true, "Close": true, "Read": true, "Write": true, "Len": true,
	"New": true, "Get": true, "Set": true, "Run": true, "Init": true, "Main": true, "Add": true,
	"log": true, "debug": true, "info": true, "warn": true, "print": true, "println": true,
	"printf": true, "require": true, "include": true, "import": true, "export": true,
	"default": true, "module": true, "exports": true, "define": true, "then": true,
	"catch": true, "resolve": true, "reject": true, "emit": true, "on": true, "off": true,
	"use": true, "config": true, "setup": true, "create": true, "build": true, "make": true,
	"from": true, "to": true, "of": true, "is": true, "has": true, "can": true,
	"id": true, "key": true, "val": true, "obj": true, "args": true, "kwargs": true,
	"self_": true, "err": true, "ctx": true, "req": true, "res": true, "resp": true,
}

// group folds languages that resolve against each other.
func group(lang string) string {
	switch lang {
	case world.LangTypeScript, world.LangTSX, world.LangJavaScript:
		return "js"
	case world.LangC, world.LangCPP:
		return "c"
	}
	return lang
}

// builder holds the indexes shared by the language resolvers. Resolvers
// prepare their indexes one after another, then register a per-file
// function; Build runs those on all cores. Everything a per-file function
// reads is immutable by then.
type builder struct {
	in     Input
	files  []world.FileEntry
	links  []*world.Link
	index  map[string]int              // path → file
	dirs   map[string][]int            // directory → files directly in it, sorted
	byName map[string]map[string][]int // group → defined name → files, sorted, unique (groups that use the fallback)
	work   []func(a *acc, i int)       // per file: its resolver, nil when none
}

// Build resolves the references of every file of in to the files defining
// what they use and returns the tree's graph: edges sorted by (From, To),
// no self edges, Refs the resolved reference count and Weight the
// confidence-weighted count.
func Build(in Input) *world.Graph {
	b := newBuilder(in)
	b.resolveGo()
	b.resolvePython()
	b.resolveJS()
	b.resolveRust()
	b.resolveJava()
	b.resolveJVM()
	b.resolveC()
	b.resolvePHP()
	b.resolveRuby()
	b.resolveLua()
	b.resolveZig()
	b.resolveDart()
	b.resolveHaskell()
	b.resolveOther()
	g := &world.Graph{Tree: in.Tree, Files: in.Files, Links: b.links}
	for _, l := range b.links {
		if l != nil {
			g.Symbols += len(l.Defs)
		}
	}
	g.Edges, g.Weak = b.run()
	return g
}

// resolveFile runs fn on file i and returns what it panicked with, if it
// did.
func resolveFile(fn func(*acc, int), a *acc, i int) (failed any) {
	defer func() { failed = recover() }()
	fn(a, i)
	return nil
}

// run resolves every file with its registered function, files spread over
// runtime.NumCPU workers in chunks, and returns the certain edges and the
// weak ones. A file's edges all start at the file and are summed in the
// order its resolver emits them, so the result does not depend on
// scheduling. A resolver that panics on one file costs that file its
// edges, with a warning naming it, not the build.
func (b *builder) run() (certain, weak []world.Edge) {
	n := len(b.files)
	per := make([][]world.Edge, n)
	failed := make([]any, n)
	const chunk = 32
	var next atomic.Int64
	workers := runtime.NumCPU()
	if max := (n + chunk - 1) / chunk; workers > max {
		workers = max
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := newAcc(b)
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= n {
					return
				}
				for i := lo; i < lo+chunk && i < n; i++ {
					if fn := b.work[i]; fn != nil && (b.in.Only == nil || b.in.Only[b.files[i].Path]) {
						if failed[i] = resolveFile(fn, a, i); failed[i] == nil {
							per[i] = a.flush(i)
						} else {
							a = newAcc(b) // what the file left half-summed goes with it
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	for i, p := range failed {
		if p != nil {
			b.warnf("%s: resolving its references failed (%v); the file has no edges", b.files[i].Path, p)
		}
	}
	total, nweak := 0, 0
	for _, es := range per {
		total += len(es)
		for _, e := range es {
			if e.Kind == world.EdgeWeak {
				nweak++
			}
		}
	}
	certain = make([]world.Edge, 0, total-nweak)
	if nweak > 0 {
		weak = make([]world.Edge, 0, nweak)
	}
	for _, es := range per {
		for _, e := range es {
			if e.Kind == world.EdgeWeak {
				weak = append(weak, e)
			} else {
				certain = append(certain, e)
			}
		}
	}
	return certain, weak
}

// register sets fn as the resolver of file i.
func (b *builder) register(i int, fn func(a *acc, i int)) {
	b.work[i] = fn
}

// acc is one worker's edge accumulator for the file being resolved: dense
// per-target sums and the targets touched, so resolving a file allocates
// nothing but its edges. It embeds the builder for the read-only indexes.
type acc struct {
	*builder
	refs    []int
	weight  []float64
	weak    []int // weak references per target (weakEdge)
	touched []int
	// scratch reused by resolvers
	stamp    []int32 // per Go name id: file+1 when known in the current file
	pkgStamp []int32 // per Go package: file+1 when the file knows one of its names
	scopes   []goScope
	members  []world.LinkRef
	cands    []int
	goMemo   reused[string, goTypeVerdict] // lent to each file's goTyper
	goCtxs   reused[int, goCtx]
}

func newAcc(b *builder) *acc {
	n := len(b.files)
	return &acc{builder: b, refs: make([]int, n), weight: make([]float64, n), weak: make([]int, n)}
}

// weakWeight is the confidence of one weak reference.
const weakWeight = 0.25

// flush returns file from's edges sorted by target and clears the sums.
// A target with certain references gets a certain edge, whatever weak
// ones it also has; one with weak references alone a weak edge.
func (a *acc) flush(from int) []world.Edge {
	if len(a.touched) == 0 {
		return nil
	}
	sort.Ints(a.touched)
	es := make([]world.Edge, len(a.touched))
	for k, t := range a.touched {
		if a.refs[t] > 0 {
			es[k] = world.Edge{From: from, To: t, Refs: a.refs[t], Weight: round(a.weight[t])}
		} else {
			es[k] = world.Edge{From: from, To: t, Refs: a.weak[t], Weight: round(float64(a.weak[t]) * weakWeight), Kind: world.EdgeWeak}
		}
		a.refs[t], a.weight[t], a.weak[t] = 0, 0, 0
	}
	a.touched = a.touched[:0]
	return es
}

// round keeps weights to 1e-6 so sums taken in different orders print alike.
func round(w float64) float64 {
	return float64(int64(w*1e6+0.5)) / 1e6
}

func newBuilder(in Input) *builder {
	n := len(in.Files)
	links := make([]*world.Link, n)
	copy(links, in.Links)
	b := &builder{
		in: in, files: in.Files, links: links[:n],
		index:  make(map[string]int, n),
		dirs:   map[string][]int{},
		byName: map[string]map[string][]int{},
		work:   make([]func(a *acc, i int), n),
	}
	for i := range in.Files {
		p := in.Files[i].Path
		b.index[p] = i
		d := path.Dir(p)
		b.dirs[d] = append(b.dirs[d], i)
		l := b.links[i]
		if l == nil {
			continue
		}
		if !defsSorted(l.Defs) {
			c := *l
			c.Defs = append([]world.LinkDef(nil), l.Defs...)
			sort.SliceStable(c.Defs, func(x, y int) bool { return c.Defs[x].Name < c.Defs[y].Name })
			l = &c
			b.links[i] = l
		}
		if !refsSorted(l.Refs) {
			c := *l
			c.Refs = append([]world.LinkRef(nil), l.Refs...)
			sort.SliceStable(c.Refs, func(x, y int) bool { return c.Refs[x].Name < c.Refs[y].Name })
			l = &c
			b.links[i] = l
		}
	}
	// The by-name index serves the fallback, which Go never uses.
	for i, l := range b.links {
		if l == nil || l.Lang == world.LangGo {
			continue
		}
		g := group(l.Lang)
		m := b.byName[g]
		if m == nil {
			m = map[string][]int{}
			b.byName[g] = m
		}
		for _, d := range l.Defs {
			fs := m[d.Name]
			if len(fs) == 0 || fs[len(fs)-1] != i {
				m[d.Name] = append(fs, i)
			}
		}
	}
	return b
}

func defsSorted(ds []world.LinkDef) bool {
	for k := 1; k < len(ds); k++ {
		if ds[k].Name < ds[k-1].Name {
			return false
		}
	}
	return true
}

func refsSorted(rs []world.LinkRef) bool {
	for k := 1; k < len(rs); k++ {
		if rs[k].Name < rs[k-1].Name {
			return false
		}
	}
	return true
}

// edge records refs references from → to with confidence w per reference.
func (a *acc) edge(from, to, refs int, w float64) {
	if from == to || from < 0 || to < 0 || refs <= 0 {
		return
	}
	if a.refs[to] == 0 && a.weak[to] == 0 {
		a.touched = append(a.touched, to)
	}
	a.refs[to] += refs
	a.weight[to] += float64(refs) * w
}

// weakEdge records refs references from → to that resolution cannot bind
// to a declaration but a reader follows (world.EdgeWeak). They make an
// edge only where no certain reference goes.
func (a *acc) weakEdge(from, to, refs int) {
	if from == to || from < 0 || to < 0 || refs <= 0 {
		return
	}
	if a.refs[to] == 0 && a.weak[to] == 0 {
		a.touched = append(a.touched, to)
	}
	a.weak[to] += refs
}

// spread links refs references to every file of to, sharing confidence w
// among them.
func (a *acc) spread(from int, to []int, refs int, w float64) {
	n := 0
	for _, t := range to {
		if t != from {
			n++
		}
	}
	if n == 0 {
		return
	}
	for _, t := range to {
		a.edge(from, t, refs, w/float64(n))
	}
}

// fallback links r by name alone to the files of the same language group
// defining it, when few do; it reports whether it linked anything.
func (a *acc) fallback(from int, r world.LinkRef) bool {
	if len(r.Name) < minFallbackName || commonNames[r.Name] {
		return false
	}
	l := a.links[from]
	cands := a.byName[group(l.Lang)][r.Name]
	n := 0
	for _, c := range cands {
		if c != from {
			n++
		}
	}
	if n == 0 || n > maxFallbackDefs {
		return false
	}
	a.spread(from, cands, r.Count, 0.5)
	return true
}

// read returns a config file's content, nil when absent.
func (b *builder) read(p string) []byte {
	if b.in.Read == nil {
		return nil
	}
	if _, ok := b.index[p]; !ok {
		return nil
	}
	data, err := b.in.Read(p)
	if err != nil {
		return nil
	}
	return data
}

// warnf reports a config file resolution could not use.
func (b *builder) warnf(format string, args ...any) {
	if b.in.Warn != nil {
		b.in.Warn(fmt.Sprintf(format, args...))
	}
}

// filesOf calls fn for every file with a Link whose language group is g.
func (b *builder) filesOf(g string, fn func(i int, l *world.Link)) {
	for i, l := range b.links {
		if l != nil && group(l.Lang) == g {
			fn(i, l)
		}
	}
}

// defines reports whether file i defines name (any kind).
func (b *builder) defines(i int, name string) bool {
	return len(b.links[i].DefsNamed(name)) > 0
}

// definesTop reports whether file i defines name outside any parent
// (a module-level definition).
func (b *builder) definesTop(i int, name string) bool {
	for _, d := range b.links[i].DefsNamed(name) {
		if d.Parent == "" {
			return true
		}
	}
	return false
}

// HasResolver reports whether lang has import-aware resolution of its own;
// files of other languages are linked by their references' names alone
// (resolveOther), so a file of theirs without references has no edges.
func HasResolver(lang string) bool {
	switch group(lang) {
	case world.LangGo, world.LangPython, "js", world.LangRust, world.LangJava, world.LangCSharp,
		"c", world.LangPHP, world.LangRuby, world.LangKotlin, world.LangScala, world.LangLua, world.LangZig,
		world.LangDart, world.LangHaskell:
		return true
	}
	return false
}

// resolveOther links files of languages without a resolver by name only.
func (b *builder) resolveOther() {
	for i, l := range b.links {
		if l == nil {
			continue
		}
		if HasResolver(l.Lang) {
			continue
		}
		b.register(i, func(a *acc, i int) {
			for _, r := range a.links[i].Refs {
				if r.Qual == "" && a.definesTop(i, r.Name) {
					continue // the file's own definition
				}
				a.fallback(i, r)
			}
		})
	}
}

// lookupPath returns the file index of p, or -1.
func (b *builder) lookupPath(p string) int {
	if i, ok := b.index[p]; ok {
		return i
	}
	return -1
}

// cleanJoin joins dir and rel and cleans the result; it returns "" when
// the result escapes the tree.
func cleanJoin(dir, rel string) string {
	p := path.Clean(path.Join(dir, rel))
	if p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return ""
	}
	return p
}

// Version is the resolver's version; it is part of every per-tree
// artifact key, so bumping it makes every tree be resolved again. One line
// per bump:
//
//	1: language resolvers, guarded name fallback.
//	2: JavaScript/TypeScript packages of the tree by name, barrel export
//	   tables, import statements as edges, no fallback for names imported
//	   from outside the tree, no name fallback in JavaScript modules;
//	   Python import statements as edges, star re-exports, stubs, pytest
//	   fixtures and the members of what a fixture returns.
//	3: Python members reached through a type: typed receivers resolve in
//	   their class and up its bases across files, a class of the tree that
//	   has no such member links nowhere. TypeScript and JavaScript
//	   members of class instances likewise, up what classes extend.
//	4: edge kinds: weak edges (Graph.Weak) for a required module's member
//	   that is only a property of its export, an import for effects
//	   alone, a namespace binding of a module exporting nothing, a
//	   package root whose built entry point is missing (to its source).
//	5: a Python file importing names from a module listed without facts
//	   (generated, too large) keeps its edges (it lost them all).
//	6: Java resolves like javac (java.go): types through the file's own,
//	   single-type imports, its package and on-demand imports (main code
//	   never sees tests); members through their receiver's type up the
//	   bases across files; no name fallback, no member guessing. Rust:
//	   use and mod statements are uses; re-exports (pub use, globs) are
//	   followed; members through the receiver's type into impl blocks
//	   across files, trait methods to the trait and its impls; mod x;
//	   beside the declaring file and through #[path]; crates of the tree
//	   by [package] and [lib] name in any path. JavaScript: calling a
//	   module bound whole gives what its export returns (parse() for
//	   module.exports = parse).
const Version = 6
