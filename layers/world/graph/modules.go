package graph

import (
	"path"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// modules.go resolves the languages whose imports name files or modules
// directly: Lua (require "a.b"), Zig (@import("x.zig")), Dart (relative
// and package: URIs) and Haskell (modules named by their header). Each file sees the files it imports, bound to
// the name it imports them as; the rest goes to the name fallback.

// resolveLua: require("a.b") is a/b.lua or a/b/init.lua under the tree
// root, lua/ (Neovim plugins) or src/; the local it is assigned to
// qualifies its uses.
func (b *builder) resolveLua() {
	fn := func(a *acc, i int) {
		l := b.links[i]
		s := newScope()
		for _, im := range l.Imports {
			p := strings.ReplaceAll(im.Path, ".", "/")
			f := -1
			for _, root := range []string{".", "lua", "src", "lib"} {
				for _, c := range []string{p + ".lua", p + "/init.lua"} {
					if f = b.lookupPath(cleanJoin(root, c)); f >= 0 {
						break
					}
				}
				if f >= 0 {
					break
				}
			}
			if f < 0 {
				continue
			}
			if im.Alias != "" {
				s.bind(im.Alias, f)
			} else {
				s.glob(f)
			}
		}
		a.resolveScoped(i, l, s)
	}
	b.filesOf(world.LangLua, func(i int, l *world.Link) { b.register(i, fn) })
}

// resolveZig: @import("x.zig") is relative to the importing file; the
// constant it is bound to qualifies its uses.
func (b *builder) resolveZig() {
	fn := func(a *acc, i int) {
		l := b.links[i]
		s := newScope()
		dir := path.Dir(b.files[i].Path)
		for _, im := range l.Imports {
			if !strings.HasSuffix(im.Path, ".zig") {
				continue // std, builtin and build.zig modules
			}
			if f := b.lookupPath(cleanJoin(dir, im.Path)); f >= 0 {
				if im.Alias != "" {
					s.bind(im.Alias, f)
				} else {
					s.glob(f)
				}
			}
		}
		a.resolveScoped(i, l, s)
	}
	b.filesOf(world.LangZig, func(i int, l *world.Link) { b.register(i, fn) })
}

// resolveDart: relative URIs against the file's folder, package:p/x.dart
// as lib/x.dart of a package in the tree (the shortest such path); a
// prefix (as http) qualifies, show names are visible bare, the rest of an
// import is visible bare.
func (b *builder) resolveDart() {
	var libs []int // files under a lib/ folder
	b.filesOf(world.LangDart, func(i int, l *world.Link) {
		if p := b.files[i].Path; strings.HasPrefix(p, "lib/") || strings.Contains(p, "/lib/") {
			libs = append(libs, i)
		}
	})
	pkgFile := func(rest string) int {
		best := -1
		for _, f := range libs {
			p := b.files[f].Path
			if p == "lib/"+rest || strings.HasSuffix(p, "/lib/"+rest) {
				if best < 0 || len(p) < len(b.files[best].Path) {
					best = f
				}
			}
		}
		return best
	}
	fn := func(a *acc, i int) {
		l := b.links[i]
		s := newScope()
		dir := path.Dir(b.files[i].Path)
		for _, im := range l.Imports {
			f := -1
			switch {
			case strings.HasPrefix(im.Path, "dart:"):
			case strings.HasPrefix(im.Path, "package:"):
				if _, rest, ok := strings.Cut(strings.TrimPrefix(im.Path, "package:"), "/"); ok {
					f = pkgFile(rest)
				}
			default:
				f = b.lookupPath(cleanJoin(dir, im.Path))
			}
			if f < 0 {
				continue
			}
			switch {
			case im.Alias != "":
				s.bind(im.Alias, f)
			case len(im.Names) > 0:
				for _, n := range im.Names {
					s.name(n, f)
				}
			default:
				s.glob(f)
			}
		}
		a.resolveScoped(i, l, s)
	}
	b.filesOf(world.LangDart, func(i int, l *world.Link) { b.register(i, fn) })
}

// resolveHaskell: a module is the file whose header names it; an
// unqualified import opens it (or only its import list), a qualified one
// binds its alias (or full name).
func (b *builder) resolveHaskell() {
	modules := map[string][]int{}
	b.filesOf(world.LangHaskell, func(i int, l *world.Link) {
		if l.Package != "" {
			modules[l.Package] = append(modules[l.Package], i)
		}
	})
	for m := range modules {
		sort.Ints(modules[m])
	}
	fn := func(a *acc, i int) {
		l := b.links[i]
		s := newScope()
		for _, im := range l.Imports {
			fs := modules[im.Path]
			if len(fs) == 0 {
				continue
			}
			q := im.Alias
			if q == "" {
				q = im.Path
			}
			s.bind(q, fs...)
			switch {
			case strings.HasPrefix(im.Kind, "qualified"):
			case len(im.Names) > 0 && !strings.Contains(im.Kind, "hiding"):
				for _, n := range im.Names {
					if w := strings.Fields(n); len(w) > 0 {
						s.name(w[0], fs...)
					}
				}
			default:
				s.glob(fs...)
			}
		}
		a.resolveScoped(i, l, s)
	}
	b.filesOf(world.LangHaskell, func(i int, l *world.Link) { b.register(i, fn) })
}
