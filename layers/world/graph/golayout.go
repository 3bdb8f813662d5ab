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
	// Uses lists, by folder, the folders (indexes into Dirs) that the
	// imports of its Go files can map to: resolving a file reads the types
	// its package's other files name through their own imports.
	Uses map[string][]int `json:"uses,omitempty"`
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
	lay.Uses = lay.uses(in)
	return lay
}

// uses maps each folder to the folders its Go files' imports can map to.
func (lay *GoLayout) uses(in Input) map[string][]int {
	byDir := map[string][][]world.Import{}
	for i, l := range in.Links {
		if l != nil && l.Lang == world.LangGo && len(l.Imports) > 0 {
			d := path.Dir(in.Files[i].Path)
			byDir[d] = append(byDir[d], l.Imports)
		}
	}
	m := lay.importFolders()
	var uses map[string][]int
	for d, imps := range byDir {
		if ks := m.of(imps); len(ks) > 0 {
			if uses == nil {
				uses = map[string][]int{}
			}
			uses[d] = ks
		}
	}
	return uses
}

// Refresh sets what the Go files of folder dir, whose imports are imps,
// use (an in-place update that changes a file's imports), as NewGoLayout
// would.
func (lay *GoLayout) Refresh(dir string, imps [][]world.Import) {
	ks := lay.importFolders().of(imps)
	if len(ks) == 0 {
		delete(lay.Uses, dir)
		if len(lay.Uses) == 0 {
			lay.Uses = nil
		}
		return
	}
	if lay.Uses == nil {
		lay.Uses = map[string][]int{}
	}
	lay.Uses[dir] = ks
}

// goFolders maps import paths to the folders (indexes into Dirs) they can
// name, through a module, a vendor/ folder or trailing path elements.
type goFolders struct {
	byIP, suffix map[string][]int
}

func (lay *GoLayout) importFolders() goFolders {
	m := goFolders{byIP: map[string][]int{}, suffix: map[string][]int{}}
	for k, d := range lay.Dirs {
		for _, ip := range goImportPaths(d, lay.Mods) {
			m.byIP[ip] = append(m.byIP[ip], k)
		}
		for _, s := range goSuffixes(d) {
			m.suffix[s] = append(m.suffix[s], k)
		}
	}
	return m
}

// of returns, sorted, the folders the imports can map to.
func (m goFolders) of(imps [][]world.Import) []int {
	set := map[int]bool{}
	for _, is := range imps {
		for _, im := range is {
			for _, k := range m.byIP[im.Path] {
				set[k] = true
			}
			// Every level of the trailing-elements match, as Needs.
			for s := im.Path; ; {
				j := strings.IndexByte(s, '/')
				if j < 0 {
					break
				}
				for _, k := range m.suffix[s] {
					set[k] = true
				}
				s = s[j+1:]
			}
		}
	}
	ks := make([]int, 0, len(set))
	for k := range set {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// Needs returns, sorted, the folders whose files resolving the Go file p
// with imports imps reads: p's own folder, every folder that an import
// path can map to, through a module, a vendor/ folder or trailing path
// elements, and every folder the imports of p's folder's other files can
// map to (Uses: the types of a package's fields and results are named
// through its files' imports). Built from those folders' files and the
// tree's go.mod files, the graph gives p the out-edges it has in the whole
// tree's graph: each lookup the resolver makes for p sees the same
// candidates.
func (lay *GoLayout) Needs(p string, imps []world.Import) []string {
	want := map[string]bool{path.Dir(p): true}
	for _, k := range lay.Uses[path.Dir(p)] {
		if k >= 0 && k < len(lay.Dirs) {
			want[lay.Dirs[k]] = true
		}
	}
	// A folder answers for an import path, directly or by trailing
	// elements, only if both end in the same element (or the folder is a
	// module's root, which answers for the module path): that filter keeps
	// the scan over the tree's folders free of allocation but for the few
	// candidates, whose import paths and suffixes are then compared.
	ips := map[string]bool{}
	sufs := map[string]bool{}
	last := map[string]bool{}
	for _, im := range imps {
		ips[im.Path] = true
		last[path.Base(im.Path)] = true
		// Every level of the trailing-elements match, whatever it decides.
		for s := im.Path; ; {
			k := strings.IndexByte(s, '/')
			if k < 0 {
				break
			}
			sufs[s] = true
			s = s[k+1:]
		}
	}
	for _, d := range lay.Dirs {
		if _, root := lay.Mods[d]; !root && !last[path.Base(d)] {
			continue
		}
		for _, ip := range goImportPaths(d, lay.Mods) {
			if ips[ip] {
				want[d] = true
			}
		}
		for s := d; ; {
			k := strings.IndexByte(s, '/')
			if k < 0 {
				break
			}
			if sufs[s] {
				want[d] = true
			}
			s = s[k+1:]
		}
	}
	out := make([]string, 0, len(want))
	for d := range want {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// Reads returns a test of whether resolving the Go file p with imports
// imps reads one of the folders dirs, exactly when Needs(p, imps) would
// name it: the files to resolve again when the definitions in dirs change.
func (lay *GoLayout) Reads(dirs []string) func(p string, imps []world.Import) bool {
	own := map[string]bool{}
	ips := map[string]bool{}
	sufs := map[string]bool{}
	in := map[string]bool{}
	for _, d := range lay.Dirs {
		in[d] = true
	}
	for _, d := range dirs {
		own[d] = true
		if !in[d] {
			continue // Needs names only the layout's folders through imports
		}
		for _, ip := range goImportPaths(d, lay.Mods) {
			ips[ip] = true
		}
		for _, s := range goSuffixes(d) {
			sufs[s] = true
		}
	}
	return func(p string, imps []world.Import) bool {
		if own[path.Dir(p)] {
			return true
		}
		for _, k := range lay.Uses[path.Dir(p)] {
			if k >= 0 && k < len(lay.Dirs) && own[lay.Dirs[k]] {
				return true
			}
		}
		for _, im := range imps {
			if ips[im.Path] {
				return true
			}
			for s := im.Path; ; {
				k := strings.IndexByte(s, '/')
				if k < 0 {
					break
				}
				if sufs[s] {
					return true
				}
				s = s[k+1:]
			}
		}
		return false
	}
}
