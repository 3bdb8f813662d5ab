package graph

import (
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// TypeScript and JavaScript members reached through a class. The
// extractor writes the qualifier of a member whose receiver is an
// instance of a known class as "receiver:Class" (this:Client, a:Foo for
// const a = new Foo() or a: Foo). The member is looked up in that class,
// then up the classes it extends across files. Only other files'
// definitions and imports are read, as for every other rule.

// maxJSBases bounds a walk up a class hierarchy (and ends cycles).
const maxJSBases = 12

// jsTyped resolves a member ref whose qualifier names a class. It
// reports false when the class is not one of the tree's; the ref then
// goes the usual way with the receiver as written.
func (a *acc) jsTyped(x *jsIndex, s *scope, i int, r world.LinkRef) bool {
	_, cls, _ := strings.Cut(r.Qual, ":")
	f, n := -1, ""
	if a.jsClassIn(i, cls) {
		f, n = i, cls
	} else if fs := a.bare(s, cls); len(fs) == 1 && a.jsClassIn(fs[0], cls) {
		f, n = fs[0], cls
	} else {
		return false
	}
	if d := a.jsMember(x, f, n, r.Name, maxJSBases); d >= 0 {
		a.edge(i, d, r.Count, 1)
	}
	return true
}

// jsClassIn reports whether file f declares top-level class name.
func (b *builder) jsClassIn(f int, name string) bool {
	for _, d := range b.links[f].Defs {
		if d.Name == name && d.Parent == "" && d.Kind == world.KindClass {
			return true
		}
	}
	return false
}

// jsMember finds the file declaring member name of top-level class cls
// of file f, walking up what it extends; -1 when none in the tree does.
func (b *builder) jsMember(x *jsIndex, f int, cls, name string, depth int) int {
	if depth <= 0 {
		return -1
	}
	base := ""
	for _, d := range b.links[f].Defs {
		if d.Name == name && d.Parent == cls {
			return f
		}
		if d.Name == cls && d.Parent == "" && d.Kind == world.KindClass {
			base = d.Returns
		}
	}
	if base == "" {
		return -1
	}
	g, n := b.jsNameIn(x, f, base)
	if g < 0 || !b.jsClassIn(g, n) {
		return -1
	}
	return b.jsMember(x, g, n, name, depth-1)
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
