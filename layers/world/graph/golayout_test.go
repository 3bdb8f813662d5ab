package graph

import (
	"fmt"
	"path"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
)

// TestNeedsResolvesAsTheWholeTree resolves every Go file of a tree with
// modules, a nested module, a vendor folder, a standard-library layout and
// import paths only trailing elements can place, once in the whole tree's
// graph and once over just the folders Needs names (with the go.mod
// files, as an incremental index does), and requires the same out-edges.
//
// Reads, the inverse, must name a folder for a file exactly when Needs
// names it.
func TestNeedsResolvesAsTheWholeTree(t *testing.T) {
	imp := func(p string) world.Import { return world.Import{Path: p} }
	files := []fx{
		{path: "go.mod", content: "module example.com/m\n\ngo 1.22\n"},
		{path: "a/a.go", lang: "go", pkg: "a", defs: []string{"A", "M/T", "T#type"}},
		{path: "a/a_test.go", lang: "go", pkg: "a", defs: []string{"helper"}, refs: []string{"A"}},
		{path: "a/x_test.go", lang: "go", pkg: "a_test", imps: []world.Import{imp("example.com/m/a")}, refs: []string{"a:A", "a:helper"}},
		{path: "b/b.go", lang: "go", pkg: "b", imps: []world.Import{imp("example.com/m/a"), imp("example.com/m/sub/c"), imp("fmt")}, refs: []string{"a:A", "~t:M", "c:C", "fmt:Println", "B2"}},
		{path: "b/b2.go", lang: "go", pkg: "b", defs: []string{"B2"}},
		{path: "sub/go.mod", content: "module example.com/sub\n"},
		{path: "sub/c/c.go", lang: "go", pkg: "c", defs: []string{"C"}, imps: []world.Import{imp("example.com/m/a"), imp("example.com/sub/d")}, refs: []string{"a:A", "d:D"}},
		{path: "sub/d/d.go", lang: "go", pkg: "d", defs: []string{"D"}},
		{path: "vendor/golang.org/x/y/y.go", lang: "go", pkg: "y", defs: []string{"Y"}},
		{path: "e/e.go", lang: "go", pkg: "e", imps: []world.Import{imp("golang.org/x/y"), imp("sub/d"), imp("x/y")}, refs: []string{"y:Y", "d:D"}},
		{path: "f/main.go", lang: "go", pkg: "main", imps: []world.Import{imp("example.com/m")}, refs: []string{"m:Root", "a:A"}},
		{path: "root.go", lang: "go", pkg: "m", defs: []string{"Root"}, refs: []string{"Root"}},
		{path: "std/go.mod", content: "module std\n"},
		{path: "std/net/http/h.go", lang: "go", pkg: "http", defs: []string{"Get"}, imps: []world.Import{imp("net/url"), imp("io")}, refs: []string{"url:Parse", "io:EOF"}},
		{path: "std/net/url/u.go", lang: "go", pkg: "url", defs: []string{"Parse"}},
		{path: "std/io/io.go", lang: "go", pkg: "io", defs: []string{"EOF#var"}},
		{path: "tools/gen/g.go", lang: "go", pkg: "main", imps: []world.Import{imp("unknown.org/net/url")}, refs: []string{"url:Parse"}},
	}
	in := fixture(files)
	whole := Build(in)
	lay := NewGoLayout(in)
	for i, f := range in.Files {
		if in.Links[i] == nil {
			continue
		}
		folders := map[string]bool{}
		for _, d := range lay.Needs(f.Path, in.Links[i].Imports) {
			folders[d] = true
		}
		var sub []fx
		for _, x := range files {
			if folders[path.Dir(x.path)] || path.Base(x.path) == "go.mod" {
				sub = append(sub, x)
			}
		}
		part := fixture(sub)
		part.Only = map[string]bool{f.Path: true}
		if got, want := outEdges(Build(part), f.Path), outEdges(whole, f.Path); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: over %v the out-edges are %v, over the whole tree %v", f.Path, lay.Needs(f.Path, in.Links[i].Imports), got, want)
		}
	}
	// Reads is the inverse of Needs, folder by folder.
	for _, d := range lay.Dirs {
		reads := lay.Reads([]string{d})
		for i, f := range in.Files {
			if in.Links[i] == nil {
				continue
			}
			needs := lay.Needs(f.Path, in.Links[i].Imports)
			if want := slices.Contains(needs, d); reads(f.Path, in.Links[i].Imports) != want {
				t.Errorf("Reads([%s])(%s) = %v, but Needs names %v", d, f.Path, !want, needs)
			}
		}
	}
	// The fixture reaches every way a folder can answer for an import.
	if got := outEdges(whole, "e/e.go"); len(got) != 2 {
		t.Errorf("e/e.go: out-edges %v, want the vendor/ and trailing-elements targets", got)
	}
}

// outEdges lists p's out-edges as "target refs weight", by target.
func outEdges(g *world.Graph, p string) []string {
	from := g.Index(p)
	var out []string
	for _, e := range g.Edges {
		if e.From == from {
			out = append(out, fmt.Sprintf("%s %d %g", g.Files[e.To].Path, e.Refs, e.Weight))
		}
	}
	sort.Strings(out)
	return out
}
