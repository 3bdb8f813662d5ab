package graph

import (
	"path"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// goPkg is one Go package of the tree: the files of one directory with one
// package name. Test files (_test.go) are kept apart: only tests of the
// package itself see them.
// goMembDef is a method or field definition: its file and the type it
// belongs to.
type goMembDef struct {
	file   int
	parent string
}

type goPkg struct {
	dir, name   string
	files       []int                  // non-test files
	tests       []int                  // _test.go files
	top, topT   map[string][]int       // package-level name → defining files (non-test, test)
	memb, membT map[string][]goMembDef // method or field name → definitions (non-test, test)
}

func isGoTest(p string) bool { return strings.HasSuffix(p, "_test.go") }

// goIndex is the Go view of the tree.
type goIndex struct {
	pkgs     map[[2]string]*goPkg // (dir, package name)
	primary  map[string]*goPkg    // dir → the package other packages import
	byImport map[string]string    // import path → dir
	suffix   map[string][]string  // trailing path elements (≥2) → dirs
	hasMod   bool
}

func (b *builder) resolveGo() {
	x := &goIndex{pkgs: map[[2]string]*goPkg{}, primary: map[string]*goPkg{}, byImport: map[string]string{}, suffix: map[string][]string{}}
	any := false
	b.filesOf(world.LangGo, func(i int, l *world.Link) {
		any = true
		dir := path.Dir(b.files[i].Path)
		name := l.Package
		key := [2]string{dir, name}
		p := x.pkgs[key]
		if p == nil {
			p = &goPkg{dir: dir, name: name, top: map[string][]int{}, topT: map[string][]int{}, memb: map[string][]goMembDef{}, membT: map[string][]goMembDef{}}
			x.pkgs[key] = p
		}
		test := isGoTest(b.files[i].Path)
		top, memb := p.top, p.memb
		if test {
			p.tests = append(p.tests, i)
			top, memb = p.topT, p.membT
		} else {
			p.files = append(p.files, i)
		}
		for _, d := range l.Defs {
			if d.Parent != "" || d.Kind == world.KindMethod || d.Kind == world.KindField {
				memb[d.Name] = append(memb[d.Name], goMembDef{i, d.Parent})
				continue
			}
			if fs := top[d.Name]; len(fs) == 0 || fs[len(fs)-1] != i {
				top[d.Name] = append(fs, i)
			}
		}
	})
	if !any {
		return
	}
	// The package other packages import from a directory: not an external
	// test package, most non-test files, "main" last, then by name.
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
	for _, k := range keys {
		p := x.pkgs[k]
		if strings.HasSuffix(p.name, "_test") && len(p.files) == 0 {
			continue
		}
		cur := x.primary[p.dir]
		if cur == nil || better(p, cur) {
			x.primary[p.dir] = p
		}
	}
	b.goModules(x)

	for i, l := range b.links {
		if l == nil || l.Lang != world.LangGo {
			continue
		}
		b.resolveGoFile(x, i, l)
	}
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
	mods := map[string]string{} // dir of go.mod → module path
	for _, f := range b.files {
		if path.Base(f.Path) != "go.mod" {
			continue
		}
		if mp := modulePath(b.read(f.Path)); mp != "" {
			mods[path.Dir(f.Path)] = mp
			x.hasMod = true
		}
	}
	dirs := make([]string, 0, len(x.primary))
	for d := range x.primary {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		// nearest enclosing module
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
					if _, dup := x.byImport[ip]; !dup {
						x.byImport[ip] = d
					}
				}
				break
			}
			if m == "." || m == "/" {
				break
			}
		}
		if k := strings.LastIndex("/"+d, "/vendor/"); k >= 0 {
			v := ("/" + d)[k+len("/vendor/"):]
			if _, dup := x.byImport[v]; !dup && v != "" {
				x.byImport[v] = d
			}
		}
		el := strings.Split(d, "/")
		for k := len(el) - 2; k >= 0; k-- {
			s := strings.Join(el[k:], "/")
			x.suffix[s] = append(x.suffix[s], d)
		}
	}
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

func (s goScope) top(name string) []int {
	fs := s.p.top[name]
	if s.tests {
		if t := s.p.topT[name]; len(t) > 0 {
			fs = append(append([]int(nil), fs...), t...)
		}
	}
	return fs
}

func (s goScope) memb(name string) []goMembDef {
	fs := s.p.memb[name]
	if s.tests {
		if t := s.p.membT[name]; len(t) > 0 {
			fs = append(append([]goMembDef(nil), fs...), t...)
		}
	}
	return fs
}

func (b *builder) resolveGoFile(x *goIndex, i int, l *world.Link) {
	fp := b.files[i].Path
	dir := path.Dir(fp)
	test := isGoTest(fp)
	own := goScope{x.pkgs[[2]string{dir, l.Package}], test}
	if own.p == nil {
		return
	}
	bind := map[string]goScope{}
	var dots []goScope
	scopes := []goScope{own}
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
			bind[p.name] = s
		default:
			bind[im.Alias] = s
		}
	}
	// The types a file names: a method or field is linked only to types the
	// file itself mentions (or defines), the way go/types would find x.Name
	// through x's type.
	known := map[goTypeKey]bool{}
	for _, d := range l.Defs {
		if d.Parent == "" && own.p != nil {
			known[goTypeKey{own.p, d.Name}] = true
		}
	}
	var members []world.LinkRef
	for _, r := range l.Refs {
		q := r.Qual
		if q != "" {
			if s, ok := bind[q]; ok {
				b.spread(i, s.top(r.Name), r.Count, 1)
				known[goTypeKey{s.p, r.Name}] = true
				continue
			}
			members = append(members, r)
			continue
		}
		if r.Kind == world.RefMember {
			members = append(members, r)
			continue
		}
		if own.p != nil {
			if fs := own.top(r.Name); len(fs) > 0 {
				b.spread(i, fs, r.Count, 1)
				known[goTypeKey{own.p, r.Name}] = true
				continue
			}
		}
		for _, s := range dots {
			if fs := s.top(r.Name); len(fs) > 0 {
				b.spread(i, fs, r.Count, 1)
				known[goTypeKey{s.p, r.Name}] = true
				break
			}
		}
	}
	for _, r := range members {
		b.goMember(i, scopes, known, r)
	}
}

type goTypeKey struct {
	p    *goPkg
	name string
}

// maxGoMember bounds the files a method or field reference is linked to.
const maxGoMember = 4

// goMember links a selector x.Name (x not a package) to the files defining
// a method or field Name of a type the file names, in the file's own
// package or a package it imports, sharing confidence among them.
func (b *builder) goMember(i int, scopes []goScope, known map[goTypeKey]bool, r world.LinkRef) {
	var cands []int
	for _, s := range scopes {
		if s.p == nil {
			continue
		}
		for _, d := range s.memb(r.Name) {
			if known[goTypeKey{s.p, d.parent}] {
				cands = append(cands, d.file)
			}
		}
	}
	if len(cands) == 0 {
		return
	}
	sort.Ints(cands)
	cands = uniq(cands)
	if len(cands) > maxGoMember {
		return
	}
	b.spread(i, cands, r.Count, 1)
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
