package graph

import (
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/git-speed/git-speed/layers/world"
)

// goPkg is one Go package of the tree: the files of one directory with one
// package name. Test files (_test.go) are kept apart: only tests of the
// package itself see them.
//
// Names are numbered per package (ids); a name's package-level defining
// files and its member definitions are slices indexed by that number, so a
// lookup is one map access and the set of types a file names is a stamp
// array over base+id.
type goPkg struct {
	dir, name string
	files     []int // non-test files
	tests     []int // _test.go files
	num       int32 // position in goIndex.list
	base      int32 // first global id of this package's names
	ids       map[string]int32
	// By id k, in compressed rows: the package-level defining files are
	// topFiles[topStart[k]:topSplit[k]] (non-test) and
	// topFiles[topStart[k]:topStart[k+1]] (non-test then test); the same
	// for member definitions.
	topStart, topSplit   []int32
	topFiles             []int
	membStart, membSplit []int32
	membDefs             []goMembDef
}

// goMembDef is a method or field definition: its file and the id (in the
// same package) of the type it belongs to, -1 when it has none.
type goMembDef struct {
	file   int
	parent int32
}

func isGoTest(p string) bool { return strings.HasSuffix(p, "_test.go") }

// goBaseName is the name of a type written "T" or "pkg.T".
func goBaseName(t string) string { return t[strings.LastIndexByte(t, '.')+1:] }

func isGoType(kind string) bool {
	return kind == world.KindType || kind == world.KindStruct || kind == world.KindInterface
}

// goIndex is the Go view of the tree.
type goIndex struct {
	pkgs     map[[2]string]*goPkg // (dir, package name)
	list     []*goPkg             // sorted by (dir, name); a package's number is its position
	primary  map[string]*goPkg    // dir → the package other packages import
	byImport map[string]string    // import path → dir
	suffix   map[string][]string  // trailing path elements (≥2) → dirs
	hasMod   bool
	mods     map[string]string // go.mod folder → module path
	filePkg  []*goPkg          // by file: its package
	ownIDs   [][]int32         // by file: global ids of its parent-less definitions
	nids     int               // global ids in all
}

// index builds p's name tables from its files' definitions.
func (p *goPkg) index(b *builder, x *goIndex) {
	n := 0
	for _, i := range p.files {
		n += len(b.links[i].Defs)
	}
	for _, i := range p.tests {
		n += len(b.links[i].Defs)
	}
	p.ids = make(map[string]int32, n/2)
	id := func(name string) int32 {
		k, ok := p.ids[name]
		if !ok {
			k = int32(len(p.ids))
			p.ids[name] = k
		}
		return k
	}
	type top struct {
		id   int32
		file int
	}
	type memb struct {
		id int32
		d  goMembDef
	}

	tops := make([]top, 0, n)
	var membs []memb
	var testTop, testMemb int // entries before these are non-test
	own := make([]int32, 0, n)
	add := func(i int) {
		l := b.links[i]
		k0 := len(own)
		for _, d := range l.Defs {
			k := id(d.Name)
			if d.Parent == "" {
				own = append(own, k)
			}
			if d.Parent != "" || d.Kind == world.KindMethod || d.Kind == world.KindField {
				par := int32(-1)
				if d.Parent != "" {
					par = id(d.Parent)
				}
				membs = append(membs, memb{k, goMembDef{i, par}})
				continue
			}
			tops = append(tops, top{k, i})
		}
		x.ownIDs[i] = own[k0:len(own):len(own)] // local for now; made global once bases are known
	}
	for _, i := range p.files {
		add(i)
	}
	testTop, testMemb = len(tops), len(membs)
	for _, i := range p.tests {
		add(i)
	}
	nid := len(p.ids)
	// Counting sort by id keeps file order inside a row, non-test first.
	p.topStart, p.topSplit = make([]int32, nid+1), make([]int32, nid)
	for _, t := range tops {
		p.topStart[t.id+1]++
	}
	for k := 0; k < nid; k++ {
		p.topStart[k+1] += p.topStart[k]
	}
	pos := append([]int32(nil), p.topStart[:nid]...)
	p.topFiles = make([]int, len(tops))
	for e, t := range tops {
		if e == testTop {
			copy(p.topSplit, pos)
		}
		p.topFiles[pos[t.id]] = t.file
		pos[t.id]++
	}
	if testTop == len(tops) {
		copy(p.topSplit, pos)
	}
	p.membStart, p.membSplit = make([]int32, nid+1), make([]int32, nid)
	for _, m := range membs {
		p.membStart[m.id+1]++
	}
	for k := 0; k < nid; k++ {
		p.membStart[k+1] += p.membStart[k]
	}
	copy(pos, p.membStart[:nid])
	p.membDefs = make([]goMembDef, len(membs))
	for e, m := range membs {
		if e == testMemb {
			copy(p.membSplit, pos)
		}
		p.membDefs[pos[m.id]] = m.d
		pos[m.id]++
	}
	if testMemb == len(membs) {
		copy(p.membSplit, pos)
	}
	// A file defining a name twice lists it once per row.
	p.topFiles, p.topStart, p.topSplit = dedupRows(p.topFiles, p.topStart, p.topSplit)
}

// dedupRows removes adjacent duplicate files inside each row.
func dedupRows(fs []int, start, split []int32) ([]int, []int32, []int32) {
	w := int32(0)
	for k := 0; k+1 < len(start); k++ {
		lo, sp, hi := start[k], split[k], start[k+1]
		start[k] = w
		for e := lo; e < hi; e++ {
			if e == sp {
				split[k] = w
			}
			if e > lo && fs[e] == fs[e-1] {
				continue
			}
			fs[w] = fs[e]
			w++
		}
		if sp == hi {
			split[k] = w
		}
	}
	if len(start) > 0 {
		start[len(start)-1] = w
	}
	return fs[:w], start, split
}

func (b *builder) resolveGo() {
	x := &goIndex{pkgs: map[[2]string]*goPkg{}, primary: map[string]*goPkg{}, byImport: map[string]string{}, suffix: map[string][]string{}}
	x.filePkg = make([]*goPkg, len(b.files))
	x.ownIDs = make([][]int32, len(b.files))
	var files []int
	b.filesOf(world.LangGo, func(i int, l *world.Link) {
		files = append(files, i)
		dir := path.Dir(b.files[i].Path)
		key := [2]string{dir, l.Package}
		p := x.pkgs[key]
		if p == nil {
			p = &goPkg{dir: dir, name: l.Package}
			x.pkgs[key] = p
		}
		if isGoTest(b.files[i].Path) {
			p.tests = append(p.tests, i)
		} else {
			p.files = append(p.files, i)
		}
		x.filePkg[i] = p
	})
	if len(files) == 0 {
		return
	}
	keys := make([][2]string, 0, len(x.pkgs))
	for k := range x.pkgs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	pkgs := make([]*goPkg, len(keys))
	for k, key := range keys {
		pkgs[k] = x.pkgs[key]
	}
	parallel(len(pkgs), func(k int) { pkgs[k].index(b, x) })
	x.list = pkgs
	for k, p := range pkgs {
		p.num = int32(k)
		p.base = int32(x.nids)
		x.nids += len(p.ids)
	}
	parallel(len(pkgs), func(k int) {
		p := pkgs[k]
		for _, fs := range [][]int{p.files, p.tests} {
			for _, i := range fs {
				for j := range x.ownIDs[i] {
					x.ownIDs[i][j] += p.base
				}
			}
		}
	})
	// The package other packages import from a directory: not an external
	// test package, most non-test files, "main" last, then by name.
	for _, p := range pkgs {
		if strings.HasSuffix(p.name, "_test") && len(p.files) == 0 {
			continue
		}
		cur := x.primary[p.dir]
		if cur == nil || better(p, cur) {
			x.primary[p.dir] = p
		}
	}
	b.goModules(x)
	fn := func(a *acc, i int) { a.resolveGoFile(x, i, b.links[i]) }
	for _, i := range files {
		b.register(i, fn)
	}
}

// parallel calls fn(0) … fn(n-1) on runtime.NumCPU goroutines.
func parallel(n int, fn func(k int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	workers := runtime.NumCPU()
	if workers > n {
		workers = n
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1)) - 1
				if k >= n {
					return
				}
				fn(k)
			}
		}()
	}
	wg.Wait()
}

func better(p, cur *goPkg) bool {
	if (p.name == "main") != (cur.name == "main") {
		return cur.name == "main"
	}
	if len(p.files) != len(cur.files) {
		return len(p.files) > len(cur.files)
	}
	return p.name < cur.name
}

// goModules maps directories to import paths from the tree's go.mod files
// (nested modules; module "std" maps directories to themselves; vendor/
// directories also answer for the path after "vendor/").
func (b *builder) goModules(x *goIndex) {
	mods := goMods(b.files, b.read)
	x.mods = mods
	x.hasMod = len(mods) > 0
	dirs := make([]string, 0, len(x.primary))
	for d := range x.primary {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		for _, ip := range goImportPaths(d, mods) {
			if _, dup := x.byImport[ip]; !dup {
				x.byImport[ip] = d
			}
		}
		for _, s := range goSuffixes(d) {
			x.suffix[s] = append(x.suffix[s], d)
		}
	}
}

// goMods returns the module path of every go.mod of files that declares
// one, by the go.mod's folder.
func goMods(files []world.FileEntry, read func(string) []byte) map[string]string {
	mods := map[string]string{}
	for _, f := range files {
		if path.Base(f.Path) != "go.mod" {
			continue
		}
		if mp := modulePath(read(f.Path)); mp != "" {
			mods[path.Dir(f.Path)] = mp
		}
	}
	return mods
}

// goImportPaths returns the import paths folder d answers for: through
// its nearest enclosing module, and through a vendor/ folder above it.
func goImportPaths(d string, mods map[string]string) []string {
	var ips []string
	for m := d; ; m = path.Dir(m) {
		if mp, ok := mods[m]; ok {
			rel := strings.TrimPrefix(strings.TrimPrefix(d, m), "/")
			if m == "." {
				rel = d
				if d == "." {
					rel = ""
				}
			}
			ip := mp
			if mp == "std" {
				ip = rel
			} else if rel != "" {
				ip = mp + "/" + rel
			}
			if ip != "" {
				ips = append(ips, ip)
			}
			break
		}
		if m == "." || m == "/" {
			break
		}
	}
	if k := strings.LastIndex("/"+d, "/vendor/"); k >= 0 {
		if v := ("/" + d)[k+len("/vendor/"):]; v != "" {
			ips = append(ips, v)
		}
	}
	return ips
}

// goSuffixes returns the trailing path elements (two or more) of folder d.
func goSuffixes(d string) []string {
	el := strings.Split(d, "/")
	out := make([]string, 0, len(el))
	for k := len(el) - 2; k >= 0; k-- {
		out = append(out, strings.Join(el[k:], "/"))
	}
	return out
}

// modulePath returns the module path declared by a go.mod file, or "".
func modulePath(data []byte) string {
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = rest[:i]
			}
			return strings.Trim(strings.TrimSpace(rest), `"`+"`")
		}
	}
	return ""
}

// dirOf returns the tree directory of import path ip, or "".
func (x *goIndex) dirOf(ip string) string {
	if d, ok := x.byImport[ip]; ok {
		return d
	}
	// Without a module that owns it, match trailing path elements (at least
	// two) when exactly one directory has them.
	if strings.Count(ip, "/") >= 1 {
		el := strings.Split(ip, "/")
		for k := 0; k+1 < len(el); k++ {
			if ds := x.suffix[strings.Join(el[k:], "/")]; len(ds) == 1 {
				if k == 0 || !x.hasMod {
					return ds[0]
				}
				break
			} else if len(ds) > 1 {
				break
			}
		}
	}
	return ""
}

// goScope is a package whose names a file can see, with or without the
// package's test files.
type goScope struct {
	p     *goPkg
	tests bool
}

// top returns the files defining name at package level, and name's id.
func (s goScope) top(name string) ([]int, int32, bool) {
	k, ok := s.p.ids[name]
	if !ok {
		return nil, 0, false
	}
	if s.tests {
		return s.p.topFiles[s.p.topStart[k]:s.p.topStart[k+1]], k, true
	}
	return s.p.topFiles[s.p.topStart[k]:s.p.topSplit[k]], k, true
}

func (s goScope) memb(name string) []goMembDef {
	k, ok := s.p.ids[name]
	if !ok {
		return nil
	}
	if s.tests {
		return s.p.membDefs[s.p.membStart[k]:s.p.membStart[k+1]]
	}
	return s.p.membDefs[s.p.membStart[k]:s.p.membSplit[k]]
}

// goBind is an import name bound to a package.
type goBind struct {
	name string
	s    goScope
}

func (a *acc) resolveGoFile(x *goIndex, i int, l *world.Link) {
	fp := a.files[i].Path
	dir := path.Dir(fp)
	test := isGoTest(fp)
	own := goScope{x.filePkg[i], test}
	if own.p == nil {
		return
	}
	var binds []goBind
	var dots []goScope
	scopes := append(a.scopes[:0], own)
	for _, im := range l.Imports {
		d := x.dirOf(im.Path)
		if d == "" {
			continue
		}
		p := x.primary[d]
		if p == nil {
			continue
		}
		// An external test package sees its package's test files too.
		s := goScope{p, test && d == dir && l.Package == p.name+"_test"}
		if s.p == own.p {
			continue
		}
		scopes = append(scopes, s)
		switch im.Alias {
		case "_":
		case ".":
			dots = append(dots, s)
		case "":
			binds = append(binds, goBind{p.name, s})
		default:
			binds = append(binds, goBind{im.Alias, s})
		}
	}
	a.scopes = scopes
	// The types a file names: a method or field is linked only to types the
	// file itself mentions (or defines), the way go/types would find x.Name
	// through x's type. known[id] == mark when the file names id.
	if a.stamp == nil {
		a.stamp = make([]int32, x.nids)
	}
	if a.pkgStamp == nil {
		a.pkgStamp = make([]int32, len(x.list))
	}
	known, pkgKnown, mark := a.stamp, a.pkgStamp, int32(i+1)
	for _, id := range x.ownIDs[i] {
		known[id] = mark
	}
	if len(x.ownIDs[i]) > 0 {
		pkgKnown[own.p.num] = mark
	}
	members := a.members[:0]
	var ty *goTyper
	for _, r := range l.Refs {
		q := r.Qual
		if r.Kind == world.RefMember && strings.IndexByte(q, ':') >= 0 {
			if ty == nil {
				ty = newGoTyper(a, x, i, own, binds, dots)
			}
			if fs, v := ty.member(q, r.Name); v == goFound {
				if len(fs) <= maxGoMember {
					a.spread(i, fs, r.Count, 1)
				}
				continue
			} else if v == goNone {
				continue
			}
			members = append(members, r)
			continue
		}
		if q != "" && r.Kind != world.RefMember {
			if s, ok := lookupBind(binds, q); ok {
				if fs, k, ok := s.top(r.Name); ok {
					a.spread(i, fs, r.Count, 1)
					known[s.p.base+k] = mark
					pkgKnown[s.p.num] = mark
				}
				continue
			}
			continue // a package outside the tree
		}
		if r.Kind == world.RefMember {
			members = append(members, r)
			continue
		}
		if fs, k, _ := own.top(r.Name); len(fs) > 0 {
			a.spread(i, fs, r.Count, 1)
			known[own.p.base+k] = mark
			pkgKnown[own.p.num] = mark
			continue
		}
		for _, s := range dots {
			if fs, k, _ := s.top(r.Name); len(fs) > 0 {
				a.spread(i, fs, r.Count, 1)
				known[s.p.base+k] = mark
				pkgKnown[s.p.num] = mark
				break
			}
		}
	}
	for _, r := range members {
		a.goMember(i, scopes, known, pkgKnown, mark, r)
	}
	a.members = members
}

// lookupBind returns the package bound to name q; a later import wins.
func lookupBind(binds []goBind, q string) (goScope, bool) {
	for k := len(binds) - 1; k >= 0; k-- {
		if binds[k].name == q {
			return binds[k].s, true
		}
	}
	return goScope{}, false
}

// goUniversal are method names that so many types, in the tree and out of
// it (bytes.Buffer, errors, time.Duration …), define that x.Name says
// nothing about x's type: String and Error of fmt.Stringer and error.
var goUniversal = map[string]bool{"String": true, "Error": true}

// maxGoMember bounds the files a method or field reference is linked to.
const maxGoMember = 4

// maxGoGuess bounds the files a member ref whose receiver's type is not
// known is linked to: a guess among several types is more often wrong
// than right.
var maxGoGuess = 1

// goMember links a selector x.Name (x not a package) to the files defining
// a method or field Name of a type the file names, in the file's own
// package or a package it imports, sharing confidence among them.
func (a *acc) goMember(i int, scopes []goScope, known, pkgKnown []int32, mark int32, r world.LinkRef) {
	if goUniversal[r.Name] {
		return
	}
	cands := a.cands[:0]
	for _, s := range scopes {
		if s.p == nil || pkgKnown[s.p.num] != mark {
			continue // the file names no type of s
		}
		for _, d := range s.memb(r.Name) {
			if d.parent >= 0 && known[s.p.base+d.parent] == mark {
				cands = append(cands, d.file)
			}
		}
	}
	a.cands = cands
	if len(cands) == 0 {
		return
	}
	sort.Ints(cands)
	cands = uniq(cands)
	if len(cands) > maxGoGuess {
		return
	}
	a.spread(i, cands, r.Count, 1)
}

// uniq removes adjacent duplicates of a sorted slice in place.
func uniq(s []int) []int {
	if len(s) < 2 {
		return s
	}
	out := s[:1]
	for _, v := range s[1:] {
		if v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

// goPath is an import path a file imports and the package it maps to (nil
// for a package outside the tree).
type goPath struct {
	path string
	s    goScope
}

// Verdicts of typed member resolution.
const (
	goUnknown = iota // the type could not be worked out: fall back to names
	goNone           // the type is known and has no such member in the tree
	goFound
)

// maxGoTypeDepth bounds the steps of one type's resolution (hops,
// embedded types, variables and functions followed).
const maxGoTypeDepth = 8

// goType is a named type of the tree: a package (as the file sees it) and
// the id of the type's name there.
type goType struct {
	s     goScope
	id    int32
	name  string
	elems int // slices (or maps) of the type: "[]T" has 1
}

// goTyper resolves the member refs of one file whose receiver's type the
// code says (Qual "x:T", "x:pkg.F()>field", ":T" …, see the Go extractor):
// the type is looked up in the file's package and the packages it
// imports, through what functions return, variables and fields are
// declared as, and embedded types. It reads the definitions of those
// packages only, the folders GoLayout.Needs lists.
type goTyper struct {
	a     *acc
	file  int
	x     *goIndex
	own   goScope
	binds []goBind
	dots  []goScope
	paths []goPath
	ctx   map[int]goCtx // by file: what context returned
	memo  map[string]goTypeVerdict
	steps int // lookups left for the current ref (see maxGoSteps)
}

// reused is a map a worker's accumulator lends each file's Go typer in
// turn, emptied: grown anew from nothing for every file, the typers' maps
// were a third of what resolving kubernetes allocated. One grown large is
// dropped rather than emptied (emptying costs its largest size).
type reused[K comparable, V any] struct{ m map[K]V }

func (r *reused[K, V]) take() map[K]V {
	if r.m == nil || len(r.m) > 512 {
		r.m = map[K]V{}
	} else {
		clear(r.m)
	}
	return r.m
}

// maxGoSteps bounds the lookups one member ref costs, however many types
// embed how many others.
const maxGoSteps = 256

type goTypeVerdict struct {
	ty goType
	v  int
}

type goCtx struct {
	own   goScope
	binds []goBind
}

func newGoTyper(a *acc, x *goIndex, i int, own goScope, binds []goBind, dots []goScope) *goTyper {
	t := &goTyper{a: a, file: i, x: x, own: own, binds: binds, dots: dots}
	t.memo, t.ctx = a.goMemo.take(), a.goCtxs.take()
	dir, test := path.Dir(a.files[i].Path), isGoTest(a.files[i].Path)
	for _, im := range a.links[i].Imports {
		var s goScope // nil package: outside the tree
		if d := x.dirOf(im.Path); d != "" && x.primary[d] != nil {
			p := x.primary[d]
			s = goScope{p, test && d == dir && a.links[i].Package == p.name+"_test"}
		}
		t.paths = append(t.paths, goPath{im.Path, s})
	}
	return t
}

// member returns the files defining member name of the type in qual.
func (t *goTyper) member(qual, name string) ([]int, int) {
	expr := qual[strings.IndexByte(qual, ':')+1:]
	t.steps = maxGoSteps
	tv, ok := t.memo[expr]
	if !ok {
		tv.ty, tv.v = t.expr(t.own, t.binds, expr, 0)
		if t.memo == nil {
			t.memo = map[string]goTypeVerdict{}
		}
		t.memo[expr] = tv
	}
	ty, v := tv.ty, tv.v
	if v != goFound {
		return nil, v
	}
	if ty.elems > 0 {
		return nil, goUnknown
	}
	var out []int
	v = t.lookup(ty, name, 0, func(d goMembDef, _ string) { out = append(out, d.file) })
	if v != goFound {
		return nil, v
	}
	sort.Ints(out)
	return uniq(out), goFound
}

// expr resolves a type expression written in a file of package own with
// imports binds: a base ("T", "pkg.T", "F()", "pkg.F()", "v") and member
// hops ("base>a>b").
func (t *goTyper) expr(own goScope, binds []goBind, expr string, depth int) (goType, int) {
	if depth > maxGoTypeDepth || expr == "" {
		return goType{}, goUnknown
	}
	parts := strings.Split(expr, ">")
	ty, v := t.base(own, binds, parts[0], depth)
	for _, m := range parts[1:] {
		if v != goFound {
			break
		}
		switch {
		case m == "[]" && ty.elems > 0:
			ty.elems--
		case m == "[]":
			ty, v = t.index(ty, depth+1)
		case ty.elems > 0:
			return goType{}, goUnknown
		default:
			ty, v = t.hop(ty, m, depth+1)
		}
	}
	return ty, v
}

// base resolves the first element of a type expression.
func (t *goTyper) base(own goScope, binds []goBind, base string, depth int) (goType, int) {
	if t.steps--; t.steps < 0 {
		return goType{}, goUnknown
	}
	if rest, ok := strings.CutPrefix(base, "[]"); ok {
		ty, v := t.base(own, binds, rest, depth+1)
		ty.elems++
		return ty, v
	}
	name := strings.TrimSuffix(base, "()")
	var scopes []goScope
	if k := strings.IndexByte(name, '.'); k >= 0 {
		s, ok := lookupBind(binds, name[:k])
		if !ok || s.p == nil {
			return goType{}, goNone // a package outside the tree
		}
		if s.p == goUnseen {
			// Named through an import this file does not share: the type
			// is not one a guess by name would find.
			return goType{}, goNone
		}
		scopes, name = []goScope{s}, name[k+1:]
	} else {
		scopes = append([]goScope{own}, t.dots...)
	}
	for _, s := range scopes {
		fs, id, ok := s.top(name)
		if !ok || len(fs) == 0 {
			continue
		}
		d, ok := t.def(fs[0], name, "")
		switch {
		case !ok:
			return goType{}, goUnknown
		case isGoType(d.Kind):
			return goType{s: s, id: id, name: name}, goFound
		case d.Returns == "":
			return goType{}, goUnknown
		}
		fown, fbinds := t.context(fs[0])
		return t.expr(fown, fbinds, d.Returns, depth+1)
	}
	return goType{}, goUnknown
}

// def returns the definition of name with parent parent ("" for a
// package-level one) in file f.
func (t *goTyper) def(f int, name, parent string) (world.LinkDef, bool) {
	for _, d := range t.a.links[f].DefsNamed(name) {
		if d.Parent != parent {
			continue
		}
		if parent == "" && (d.Kind == world.KindMethod || d.Kind == world.KindField) {
			continue
		}
		return d, true
	}
	return world.LinkDef{}, false
}

// index returns the type of an element of the named type ty, defined as a
// slice or map ("type Items []Item").
func (t *goTyper) index(ty goType, depth int) (goType, int) {
	fs, _, _ := ty.s.top(ty.name)
	for _, f := range fs {
		if d, ok := t.def(f, ty.name, ""); ok && isGoType(d.Kind) && strings.HasPrefix(d.Returns, "[]") {
			fown, fbinds := t.context(f)
			et, v := t.expr(fown, fbinds, d.Returns, depth+1)
			if v == goFound && et.elems > 0 {
				et.elems--
				return et, goFound
			}
			return goType{}, goUnknown
		}
	}
	return goType{}, goUnknown
}

// hop returns the type of member m of ty.
func (t *goTyper) hop(ty goType, m string, depth int) (goType, int) {
	var ret string
	file := -1
	v := t.lookup(ty, m, depth, func(d goMembDef, parent string) {
		if file < 0 {
			file = d.file
			if def, ok := t.def(d.file, m, parent); ok {
				ret = def.Returns
			}
		}
	})
	if v != goFound {
		return goType{}, v
	}
	if ret == "" {
		return goType{}, goUnknown
	}
	fown, fbinds := t.context(file)
	return t.expr(fown, fbinds, ret, depth+1)
}

// lookup calls fn with the definitions of member name of ty: its own, or
// else those of the types it embeds (first level that has any).
func (t *goTyper) lookup(ty goType, name string, depth int, fn func(d goMembDef, parent string)) int {
	if t.steps--; depth > maxGoTypeDepth || t.steps < 0 {
		return goUnknown
	}
	found := false
	for _, d := range ty.s.memb(name) {
		if d.parent == ty.id {
			fn(d, ty.name)
			found = true
		}
	}
	if found {
		return goFound
	}
	verdict := goNone
	t.embeds(ty, func(e string, file int) {
		if verdict == goFound {
			return
		}
		fown, fbinds := t.context(file)
		et, v := t.expr(fown, fbinds, e, depth+1)
		if v == goFound && et.elems > 0 {
			v = goNone // a defined slice or map type has no fields
		} else if v == goFound {
			v = t.lookup(et, name, depth+1, fn)
		}
		if v == goFound || v == goUnknown && verdict == goNone {
			verdict = v
		}
	})
	return verdict
}

// embeds calls fn with the types ty embeds, as written in file: embedded
// fields, the interfaces an interface embeds, an alias's target.
func (t *goTyper) embeds(ty goType, fn func(typ string, file int)) {
	fs, _, _ := ty.s.top(ty.name)
	for _, f := range fs {
		l := t.a.links[f]
		if l == nil {
			continue
		}
		if d, ok := t.def(f, ty.name, ""); ok && isGoType(d.Kind) && d.Returns != "" {
			for _, e := range strings.Split(d.Returns, ",") {
				fn(e, f)
			}
		}
		// Embedded fields are the fields named after their type, declared
		// with it.
		for _, d := range l.Defs {
			if d.Kind == world.KindField && d.Parent == ty.name && d.Returns != "" && d.Name == goBaseName(d.Returns) {
				fn(d.Returns, f)
			}
		}
	}
}

// context returns the package and the import names of file j, as the
// file being resolved sees them: j's imports count only when that file
// imports the same paths (resolution reads no other folders).
func (t *goTyper) context(j int) (goScope, []goBind) {
	p := t.x.filePkg[j]
	own := goScope{p, isGoTest(t.a.files[j].Path)}
	if p == t.own.p {
		own.tests = t.own.tests
	} else {
		for _, ps := range t.paths {
			if ps.s.p == p {
				own.tests = ps.s.tests
			}
		}
	}
	if j == t.file || t.a.links[j] == nil {
		return own, t.binds
	}
	if c, ok := t.ctx[j]; ok {
		return c.own, c.binds
	}
	var binds []goBind
	for _, im := range t.a.links[j].Imports {
		if im.Alias == "_" || im.Alias == "." {
			continue
		}
		// A path the file being resolved does not import is looked up
		// nowhere (unknown), unless it is outside the tree for sure.
		s, known := goScope{p: goUnseen}, false
		for _, ps := range t.paths {
			if ps.path == im.Path {
				s, known = ps.s, true
				break
			}
		}
		if !known && p.dir == t.own.p.dir {
			// The folders of what the file's package imports are read
			// too (GoLayout.Needs).
			s, known = goScope{}, true
			if d := t.x.dirOf(im.Path); d != "" && t.x.primary[d] != nil {
				s = goScope{p: t.x.primary[d]}
			}
		}
		if !known && t.x.outside(im.Path) {
			s = goScope{}
		}
		switch {
		case im.Alias != "":
			binds = append(binds, goBind{im.Alias, s})
		case s.p != nil && s.p != goUnseen:
			binds = append(binds, goBind{s.p.name, s})
		default:
			binds = append(binds, goBind{path.Base(im.Path), s})
		}
	}
	if t.ctx == nil {
		t.ctx = map[int]goCtx{}
	}
	t.ctx[j] = goCtx{own, binds}
	return own, binds
}

// goUnseen stands for a package that a file imports and the file being
// resolved does not: resolution does not read it.
var goUnseen = &goPkg{}

// outside reports whether import path ip names a package of the standard
// library of a tree that does not hold it: its first element has no dot
// and starts no module path of the tree.
func (x *goIndex) outside(ip string) bool {
	first, _, _ := strings.Cut(ip, "/")
	if strings.Contains(first, ".") || len(x.mods) == 0 {
		return false
	}
	for _, mp := range x.mods {
		if mp == "std" || mp == first || strings.HasPrefix(mp, first+"/") {
			return false
		}
	}
	return true
}
