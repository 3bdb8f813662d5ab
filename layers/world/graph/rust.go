package graph

import (
	"path"
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
}

func (b *builder) resolveRust() {
	var files []int
	b.filesOf(world.LangRust, func(i int, l *world.Link) { files = append(files, i) })
	if len(files) == 0 {
		return
	}
	x := &rustIndex{crateOf: map[int]string{}, modOf: map[int]string{}, mods: map[[2]string]int{}, names: map[string]string{}, roots: map[string][]int{}}
	// Crate source folders: <dir of Cargo.toml>/src, and any folder holding
	// a lib.rs or main.rs when there is no Cargo.toml above it.
	srcs := map[string]bool{}
	for _, f := range b.files {
		if path.Base(f.Path) == "Cargo.toml" {
			d := path.Dir(f.Path)
			src := cleanJoin(d, "src")
			srcs[src] = true
			if n := cargoName(b.read(f.Path)); n != "" {
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
	fn := func(a *acc, i int) {
		l := b.links[i]
		s := newScope()
		c, inCrate := x.crateOf[i]
		mod := x.modOf[i]
		if inCrate {
			// Names of the crate root and the file's own module are visible.
			s.glob(x.roots[c]...)
		}
		for _, im := range l.Imports {
			if im.Kind == "mod" {
				if t, ok := x.mods[[2]string{c, join2(mod, im.Path)}]; ok {
					s.bind(im.Path, t)
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
			switch {
			case im.Alias == "*":
				s.glob(t)
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
					continue
				}
				s.name(n, t)
				s.bind(n, t)
			}
		}
		a.resolveScoped(i, l, s)
	}
	for _, i := range files {
		b.register(i, fn)
	}
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

// cargoName returns [package] name from a Cargo.toml, or "".
func cargoName(data []byte) string {
	inPkg := false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			inPkg = line == "[package]"
			continue
		}
		if !inPkg {
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok && strings.TrimSpace(k) == "name" {
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}
