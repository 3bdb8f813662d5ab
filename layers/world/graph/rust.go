package graph

import (
	"path"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// rustIndex maps module paths ("crate::a::b", per crate) to files.
type rustIndex struct {
	crateOf map[int]string    // file → crate source folder
	modOf   map[int]string    // file → module path within its crate ("" for the root)
	mods    map[[2]string]int // (crate folder, module path) → file
	names   map[string]string // crate name (from Cargo.toml, '-' → '_') → crate folder
	roots   map[string][]int  // crate folder → root files
	scopes  map[int]*scope    // file → what it sees
	globs   map[int][][]int   // file → the modules its own use …::* statements open
	impls   map[string][]int  // type name → files with an impl block of it, sorted
	traits  map[string][]int  // trait name → files implementing it for a type, sorted
	uses    map[int][]rustUse // file → what its mod and use statements name
}

// rustUse is what one mod or use statement names: an item of a module
// file, or the module itself (name "").
type rustUse struct {
	file int
	name string
}

func (b *builder) resolveRust() {
	var files []int
	b.filesOf(world.LangRust, func(i int, l *world.Link) { files = append(files, i) })
	if len(files) == 0 {
		return
	}
	x := &rustIndex{crateOf: map[int]string{}, modOf: map[int]string{}, mods: map[[2]string]int{}, names: map[string]string{}, roots: map[string][]int{},
		scopes: map[int]*scope{}, globs: map[int][][]int{}, impls: map[string][]int{}, traits: map[string][]int{}, uses: map[int][]rustUse{}}
	// Crate source folders: <dir of Cargo.toml>/src, and any folder holding
	// a lib.rs or main.rs when there is no Cargo.toml above it.
	srcs := map[string]bool{}
	for _, f := range b.files {
		if path.Base(f.Path) == "Cargo.toml" {
			d := path.Dir(f.Path)
			src := cleanJoin(d, "src")
			srcs[src] = true
			for _, n := range cargoNames(b.read(f.Path)) {
				x.names[strings.ReplaceAll(n, "-", "_")] = src
			}
		}
	}
	for _, i := range files {
		base := path.Base(b.files[i].Path)
		if base == "lib.rs" || base == "main.rs" {
			d := path.Dir(b.files[i].Path)
			if !srcs[d] && b.rustCrate(srcs, b.files[i].Path) == "" {
				srcs[d] = true
			}
		}
	}
	for _, i := range files {
		p := b.files[i].Path
		c := b.rustCrate(srcs, p)
		if c == "" {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, c), "/")
		if c == "." {
			rel = p
		}
		rel = strings.TrimSuffix(rel, ".rs")
		switch {
		case rel == "lib" || rel == "main":
			rel = ""
			x.roots[c] = append(x.roots[c], i)
		case strings.HasPrefix(rel, "bin/"):
			continue
		case strings.HasSuffix(rel, "/mod"):
			rel = strings.TrimSuffix(rel, "/mod")
		}
		m := strings.ReplaceAll(rel, "/", "::")
		x.crateOf[i], x.modOf[i] = c, m
		k := [2]string{c, m}
		if _, dup := x.mods[k]; !dup || m == "" && path.Base(p) == "lib.rs" {
			x.mods[k] = i
		}
	}
	for _, i := range files {
		for _, d := range b.links[i].Defs {
			if d.Kind != world.KindModule || !strings.HasPrefix(d.Returns, "impl") {
				continue
			}
			x.impls[d.Name] = appendUniq(x.impls[d.Name], i)
			if tr, ok := strings.CutPrefix(d.Returns, "impl:"); ok {
				tr = tr[strings.LastIndex(tr, ":")+1:]
				x.traits[tr] = appendUniq(x.traits[tr], i)
			}
		}
	}
	for _, i := range files {
		x.scopes[i] = b.rustScope(x, i)
	}
	var follow func(f int, name string, depth int) []int
	follow = func(f int, name string, depth int) []int {
		sc := x.scopes[f]
		if sc == nil || depth > 4 {
			return nil
		}
		var out []int
		from := func(t int) {
			switch {
			case t == f:
			case b.defines(t, name):
				out = append(out, t)
			default:
				out = append(out, follow(t, name, depth+1)...)
			}
		}
		for _, t := range sc.named[name] {
			from(t)
		}
		if len(out) == 0 {
			for _, g := range x.globs[f] {
				for _, t := range g {
					from(t)
				}
			}
		}
		sort.Ints(out)
		return uniq(out)
	}
	for _, sc := range x.scopes {
		sc.follow = func(f int, name string, _ int) []int { return follow(f, name, 0) }
	}
	fn := func(a *acc, i int) {
		s := x.scopes[i]
		for _, u := range x.uses[i] { // mod and use statements are uses
			if u.name == "" {
				a.edge(i, u.file, 1, 1)
			} else if d := a.definers(s, []int{u.file}, u.name); len(d) > 0 {
				a.spread(i, d, 1, 1)
			} else {
				a.edge(i, u.file, 1, 1)
			}
		}
		a.resolveScoped(i, a.rustTyped(x, i, s), s)
	}
	for _, i := range files {
		b.register(i, fn)
	}
}

// appendUniq appends i to a sorted list of files unless it ends it.
func appendUniq(fs []int, i int) []int {
	if len(fs) > 0 && fs[len(fs)-1] == i {
		return fs
	}
	return append(fs, i)
}

// rustScope builds what Rust file i sees: the crate root's names, its
// modules and what its use statements bind.
func (b *builder) rustScope(x *rustIndex, i int) *scope {
	{
		l := b.links[i]
		s := newScope()
		c, inCrate := x.crateOf[i]
		mod := x.modOf[i]
		if inCrate {
			// Names of the crate root and the file's own module are visible.
			s.glob(x.roots[c]...)
			s.bind("crate", x.roots[c]...)
		}
		for n, cc := range x.names { // paths through a crate of the tree by name (barcore::Bar)
			s.bind(n, x.roots[cc]...)
		}
		for _, im := range l.Imports {
			if im.Kind == "mod" {
				if t := b.rustModFile(x, i, c, mod, im); t >= 0 {
					s.bind(im.Path, t)
					x.uses[i] = append(x.uses[i], rustUse{t, ""})
				}
				continue
			}
			segs := strings.Split(im.Path, "::")
			crate, base := c, []string(nil)
			switch segs[0] {
			case "crate":
				segs = segs[1:]
			case "self":
				base, segs = splitMod(mod), segs[1:]
			case "super":
				base = splitMod(mod)
				for len(segs) > 0 && segs[0] == "super" {
					if len(base) > 0 {
						base = base[:len(base)-1]
					}
					segs = segs[1:]
				}
			default:
				if cc, ok := x.names[segs[0]]; ok {
					crate, segs = cc, segs[1:]
				} else if _, ok := x.mods[[2]string{c, join2(mod, segs[0])}]; ok && inCrate {
					base = splitMod(mod) // a child module used without self::
				} else if _, ok := x.mods[[2]string{c, segs[0]}]; !ok || !inCrate {
					continue // an external crate
				}
			}
			full := append(append([]string(nil), base...), segs...)
			// Longest prefix that is a module file; the rest is an item.
			k := len(full)
			var t int
			found := false
			for ; k >= 0; k-- {
				if f, ok := x.mods[[2]string{crate, strings.Join(full[:k], "::")}]; ok {
					t, found = f, true
					break
				}
			}
			if !found {
				continue
			}
			item := ""
			if k < len(full) {
				item = full[k]
			}
			if len(im.Names) == 0 {
				x.uses[i] = append(x.uses[i], rustUse{t, item})
			}
			switch {
			case im.Alias == "*":
				s.glob(t)
				x.globs[i] = append(x.globs[i], []int{t})
			case item == "":
				local := im.Alias
				if local == "" && len(full) > 0 {
					local = full[len(full)-1]
				}
				s.bind(local, t)
			default:
				local := im.Alias
				if local == "" {
					local = item
				}
				s.name(local, t)
				s.bind(local, t)
			}
			for _, n := range im.Names {
				if n == "self" {
					if len(full) > 0 {
						s.bind(full[len(full)-1], t)
					}
					continue
				}
				if sub, ok := x.mods[[2]string{crate, join2(strings.Join(full, "::"), n)}]; ok {
					s.bind(n, sub)
					x.uses[i] = append(x.uses[i], rustUse{sub, ""})
					continue
				}
				x.uses[i] = append(x.uses[i], rustUse{t, n})
				s.name(n, t)
				s.bind(n, t)
			}
		}
		return s
	}
}

// rustModFile finds the file of the module a mod x; of file i declares:
// the crate's module of that path, else x.rs or x/mod.rs beside a crate
// root or mod.rs (or a test, example or bench crate's root), x under a
// folder named after any other file, or the file a #[path] names
// (im.Alias, relative to the declaring file's folder).
func (b *builder) rustModFile(x *rustIndex, i int, c, mod string, im world.Import) int {
	p := b.files[i].Path
	dir := path.Dir(p)
	if im.Alias != "" {
		return b.lookupPath(cleanJoin(dir, im.Alias))
	}
	if t, ok := x.mods[[2]string{c, join2(mod, im.Path)}]; ok && c != "" {
		return t
	}
	base := path.Base(p)
	if base != "mod.rs" && base != "lib.rs" && base != "main.rs" && !rustCrateRoot(p) {
		dir = path.Join(dir, strings.TrimSuffix(base, ".rs"))
	}
	for _, cand := range []string{path.Join(dir, im.Path+".rs"), path.Join(dir, im.Path, "mod.rs")} {
		if t := b.lookupPath(cand); t >= 0 {
			return t
		}
	}
	return -1
}

// rustCrateRoot reports whether p is the root of a crate of its own by
// Cargo's layout: a file right in tests/, examples/, benches/ or src/bin/.
func rustCrateRoot(p string) bool {
	d := path.Base(path.Dir(p))
	return d == "tests" || d == "examples" || d == "benches" || d == "bin"
}

func join2(a, b string) string {
	if a == "" {
		return b
	}
	return a + "::" + b
}

func splitMod(m string) []string {
	if m == "" {
		return nil
	}
	return strings.Split(m, "::")
}

// rustCrate returns the crate source folder holding p: the deepest of srcs
// above it.
func (b *builder) rustCrate(srcs map[string]bool, p string) string {
	best := ""
	for d := path.Dir(p); ; d = path.Dir(d) {
		if srcs[d] {
			best = d
			break
		}
		if d == "." || d == "/" {
			break
		}
	}
	return best
}

// cargoNames returns the names code uses for the crate of a Cargo.toml:
// [package] name and [lib] name.
func cargoNames(data []byte) []string {
	var out []string
	table := ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			table = line
			continue
		}
		if table != "[package]" && table != "[lib]" {
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok && strings.TrimSpace(k) == "name" {
			if n := strings.Trim(strings.TrimSpace(v), `"'`); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}
