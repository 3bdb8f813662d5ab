package graph

import (
	"path"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// GoLayout is what mapping Go import paths to folders needs to know of the
// whole tree: the folders holding Go files with facts, the module path of
// each go.mod, and which folders each folder's imports can map to. An
// incremental index keeps it per tree, so that it can re-resolve one Go
// file from the few folders that file's resolution reads (Needs) instead
// of from every file of the tree.
type GoLayout struct {
	Dirs []string          `json:"dirs"`           // sorted, unique
	Mods map[string]string `json:"mods,omitempty"` // go.mod folder → module path
	// Reads lists, by folder, the folders (indexes into Dirs) that the
	// imports of its Go files can map to: resolving a file reads the types
	// its package's other files name through their own imports.
	Reads map[string][]int `json:"reads,omitempty"`
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
	m := lay.importMaps()
	num := make(map[string]int, len(lay.Dirs))
	for k, d := range lay.Dirs {
		num[d] = k
	}
	reads := map[string]map[int]bool{}
	for i, l := range in.Links {
		if l == nil || l.Lang != world.LangGo || len(l.Imports) == 0 {
			continue
		}
		d := path.Dir(in.Files[i].Path)
		set := reads[d]
		if set == nil {
			set = map[int]bool{}
			reads[d] = set
		}
		for _, im := range l.Imports {
			m.folders(im.Path, func(f string) { set[num[f]] = true })
		}
	}
	for d, set := range reads {
		if len(set) == 0 {
			continue
		}
		if lay.Reads == nil {
			lay.Reads = map[string][]int{}
		}
		ks := make([]int, 0, len(set))
		for k := range set {
			ks = append(ks, k)
		}
		sort.Ints(ks)
		lay.Reads[d] = ks
	}
	return lay
}

// IsGoConfig reports whether p is a file Go resolution reads (a go.mod).
func IsGoConfig(p string) bool { return path.Base(p) == "go.mod" }

// goImportMaps maps import paths to the folders of a layout they can name.
type goImportMaps struct {
	byIP, suffix map[string][]string
}

func (lay *GoLayout) importMaps() goImportMaps {
	m := goImportMaps{byIP: map[string][]string{}, suffix: map[string][]string{}}
	for _, d := range lay.Dirs {
		for _, ip := range goImportPaths(d, lay.Mods) {
			m.byIP[ip] = append(m.byIP[ip], d)
		}
		for _, s := range goSuffixes(d) {
			m.suffix[s] = append(m.suffix[s], d)
		}
	}
	return m
}

// folders calls fn with every folder import path ip can map to, through a
// module, a vendor/ folder or every level of the trailing-elements match,
// whatever it decides.
func (m goImportMaps) folders(ip string, fn func(string)) {
	for _, d := range m.byIP[ip] {
		fn(d)
	}
	el := strings.Split(ip, "/")
	for k := 0; k+1 < len(el); k++ {
		for _, d := range m.suffix[strings.Join(el[k:], "/")] {
			fn(d)
		}
	}
}

// Needs returns, sorted, the folders whose files resolving the Go file p
// with imports imps reads: p's own folder, every folder that an import
// path of p can map to, and every folder the imports of p's folder's other
// files can map to (the types of a package's fields and results are named
// through its files' imports). Built from those folders' files and the
// tree's go.mod files, the graph gives p the out-edges it has in the whole
// tree's graph: each lookup the resolver makes for p sees the same
// candidates.
func (lay *GoLayout) Needs(p string, imps []world.Import) []string {
	dir := path.Dir(p)
	want := map[string]bool{dir: true}
	m := lay.importMaps()
	for _, im := range imps {
		m.folders(im.Path, func(d string) { want[d] = true })
	}
	for _, k := range lay.Reads[dir] {
		if k >= 0 && k < len(lay.Dirs) {
			want[lay.Dirs[k]] = true
		}
	}
	out := make([]string, 0, len(want))
	for d := range want {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}
