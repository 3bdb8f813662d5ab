package graph

import (
	"path"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// GoLayout is what mapping Go import paths to folders needs to know of the
// whole tree: the folders holding Go files with facts and the module path
// of each go.mod. An incremental index keeps it per tree, so that it can
// re-resolve one Go file from the few folders that file's resolution reads
// (Needs) instead of from every file of the tree.
type GoLayout struct {
	Dirs []string          `json:"dirs"`           // sorted, unique
	Mods map[string]string `json:"mods,omitempty"` // go.mod folder → module path
}

// NewGoLayout reads the layout of in's tree.
func NewGoLayout(in Input) *GoLayout {
	b := &builder{in: in, index: make(map[string]int, len(in.Files))}
	for i, f := range in.Files {
		b.index[f.Path] = i
	}
	lay := &GoLayout{Mods: goMods(in.Files, b.read)}
	seen := map[string]bool{}
	for i, l := range in.Links {
		if l == nil || l.Lang != world.LangGo {
			continue
		}
		if d := path.Dir(in.Files[i].Path); !seen[d] {
			seen[d] = true
			lay.Dirs = append(lay.Dirs, d)
		}
	}
	sort.Strings(lay.Dirs)
	return lay
}

// IsGoConfig reports whether p is a file Go resolution reads (a go.mod).
func IsGoConfig(p string) bool { return path.Base(p) == "go.mod" }

// Needs returns, sorted, the folders whose files resolving the Go file p
// with imports imps reads: p's own folder and every folder that an import
// path can map to, through a module, a vendor/ folder or trailing path
// elements. Built from those folders' files and the tree's go.mod files,
// the graph gives p the out-edges it has in the whole tree's graph: each
// lookup the resolver makes for p sees the same candidates.
func (lay *GoLayout) Needs(p string, imps []world.Import) []string {
	want := map[string]bool{path.Dir(p): true}
	byIP := map[string][]string{}
	suffix := map[string][]string{}
	for _, d := range lay.Dirs {
		for _, ip := range goImportPaths(d, lay.Mods) {
			byIP[ip] = append(byIP[ip], d)
		}
		for _, s := range goSuffixes(d) {
			suffix[s] = append(suffix[s], d)
		}
	}
	for _, im := range imps {
		for _, d := range byIP[im.Path] {
			want[d] = true
		}
		// Every level of the trailing-elements match, whatever it decides.
		el := strings.Split(im.Path, "/")
		for k := 0; k+1 < len(el); k++ {
			for _, d := range suffix[strings.Join(el[k:], "/")] {
				want[d] = true
			}
		}
	}
	out := make([]string, 0, len(want))
	for d := range want {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}
