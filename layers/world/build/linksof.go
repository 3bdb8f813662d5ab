package build

import (
	"fmt"

	"github.com/git-speed/git-speed/layers/world"
)

// Defs is, per file of Graph(), the number of definitions of its link, -1
// for a file without a link, as the rows artifact stores them: what the
// repo map ranks and picks files by before it reads any link
// (graph.RankOf, graph.RepoMapOf).
func (w *World) Defs() []int {
	w.loadMap()
	return w.defs
}

// LinksOf returns links parallel to Graph().Files in which those of the
// given files (indexes into Graph().Files) are present, reading only the
// shards of their folders; every link once LoadLinks has run. It leaves
// Graph().Links as it is.
func (w *World) LinksOf(files []int) ([]*world.Link, error) {
	w.loadMap()
	w.mu.Lock()
	loaded := w.links != nil
	w.mu.Unlock()
	g := w.g
	if loaded {
		return g.Links, nil
	}
	seen := map[string]bool{}
	var dirs []string
	for _, i := range files {
		if i < 0 || i >= len(g.Files) {
			return nil, fmt.Errorf("links of file %d: the tree has %d files", i, len(g.Files))
		}
		if d := shardOf(g.Files[i].Path); !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	out := make([]*world.Link, len(g.Files))
	if len(dirs) == 0 {
		return out, nil
	}
	shards, err := w.st.Shards(w.tree, w.digest, artifactLinks, dirs)
	if err != nil {
		return nil, err
	}
	want := make(map[string]bool, len(files))
	for _, i := range files {
		want[g.Files[i].Path] = true
	}
	keep := func(p string) bool { return want[p] }
	decode := func(b []byte) ([]linkRecord, error) { return decodeLinkShardOf(b, keep, false) }
	recs, err := decodeAll(artifactLinks, shards, decode, func(r *linkRecord) string { return r.Path })
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if i := g.Index(r.Path); i >= 0 {
			out[i] = r.Link
		}
	}
	return out, nil
}

// lazyShard reads a shard (shardcodec.go) making the strings of its table
// only when a record asks for them: a links shard is mostly the
// references of files LinksOf was not asked for.
type lazyShard struct {
	shardReader
	offs []int // start and end of each table string in tab
	tab  []byte
	strs []string
	made []bool
}

func newLazyShard(b []byte, format byte) *lazyShard {
	r := &lazyShard{shardReader: shardReader{b: b}}
	if len(b) < 2 || b[0] != shardMagic || b[1] != format {
		r.err = errShard
		return r
	}
	r.b = b[2:]
	n := r.count()
	r.tab = r.b
	r.offs = make([]int, 0, 2*n)
	pos := len(b) - len(r.b)
	for i := 0; i < n && r.err == nil; i++ {
		l := r.count()
		start := len(b) - len(r.b)
		r.offs = append(r.offs, start-pos, start-pos+l)
		r.b = r.b[l:]
	}
	r.strs = make([]string, n)
	r.made = make([]bool, n)
	return r
}

// ref reads a string index without making the string.
func (r *lazyShard) ref() int {
	i := r.uint()
	if r.err == nil && i >= uint64(len(r.strs)) {
		r.err = errShard
	}
	if r.err != nil {
		return -1
	}
	return int(i)
}

func (r *lazyShard) str() string {
	i := r.ref()
	if i < 0 {
		return ""
	}
	if !r.made[i] {
		r.strs[i] = string(r.tab[r.offs[2*i]:r.offs[2*i+1]])
		r.made[i] = true
	}
	return r.strs[i]
}

// skip reads n string indexes.
func (r *lazyShard) skip(n int) {
	for k := 0; k < n && r.err == nil; k++ {
		r.ref()
	}
}

// decodeLinkShardOf decodes the records of a links shard (as
// decodeLinkShard) whose paths keep says, and steps over the rest. With
// defsOnly the records kept hold their definitions' names and kinds only.
func decodeLinkShardOf(b []byte, keep func(path string) bool, defsOnly bool) ([]linkRecord, error) {
	r := newLazyShard(b, shardFormatLink)
	n := r.count()
	var recs []linkRecord
	skipRest := func() { // imports and references
		for ni := r.count(); ni > 0 && r.err == nil; ni-- {
			r.skip(2)
			r.skip(r.count())
			r.uint()
			r.skip(1)
		}
		for nr := r.count(); nr > 0 && r.err == nil; nr-- {
			r.skip(3)
			r.uint()
		}
	}
	for i := 0; i < n && r.err == nil; i++ {
		p := r.str()
		if !keep(p) {
			r.skip(2)
			for nd := r.count(); nd > 0 && r.err == nil; nd-- {
				r.skip(3)
				r.bool()
				r.skip(1)
			}
			skipRest()
			continue
		}
		if defsOnly {
			l := &world.Link{Lang: r.str(), Package: r.str()}
			if nd := r.count(); nd > 0 {
				l.Defs = make([]world.LinkDef, nd)
				for j := range l.Defs {
					l.Defs[j] = world.LinkDef{Name: r.str(), Kind: r.str()}
					r.skip(1)
					r.bool()
					r.skip(1)
				}
			}
			skipRest()
			recs = append(recs, linkRecord{Path: p, Link: l})
			continue
		}
		l := &world.Link{Lang: r.str(), Package: r.str()}
		if nd := r.count(); nd > 0 {
			l.Defs = make([]world.LinkDef, nd)
			for j := range l.Defs {
				l.Defs[j] = world.LinkDef{Name: r.str(), Kind: r.str(), Parent: r.str(), Exported: r.bool(), Returns: r.str()}
			}
		}
		if ni := r.count(); ni > 0 {
			l.Imports = make([]world.Import, ni)
			for j := range l.Imports {
				im := world.Import{Path: r.str(), Alias: r.str()}
				if nn := r.count(); nn > 0 {
					im.Names = make([]string, nn)
					for k := range im.Names {
						im.Names[k] = r.str()
					}
				}
				im.Line = int(r.uint())
				im.Kind = r.str()
				l.Imports[j] = im
			}
		}
		if nr := r.count(); nr > 0 {
			l.Refs = make([]world.LinkRef, nr)
			for j := range l.Refs {
				l.Refs[j] = world.LinkRef{Name: r.str(), Qual: r.str(), Kind: r.str(), Count: int(r.uint())}
			}
		}
		recs = append(recs, linkRecord{Path: p, Link: l})
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errShard
	}
	return recs, r.err
}

// defsGraph is Graph() with links holding only their definitions' names
// and kinds, read without the references and imports that make most of
// the links artifact: all the spec alignment reads of links (align.Align).
// Graph().Links, when loaded, serve as they are.
func (w *World) defsGraph() (*world.Graph, error) {
	w.loadMap()
	w.mu.Lock()
	loaded := w.links != nil
	w.mu.Unlock()
	g := w.g
	if loaded {
		return g, nil
	}
	shards, err := w.st.Tree(w.tree, w.digest, artifactLinks)
	if err != nil {
		return nil, err
	}
	all := func(string) bool { return true }
	decode := func(b []byte) ([]linkRecord, error) { return decodeLinkShardOf(b, all, true) }
	recs, err := decodeAll(artifactLinks, shards, decode, func(r *linkRecord) string { return r.Path })
	if err != nil {
		return nil, err
	}
	dg := *g
	dg.Links = make([]*world.Link, len(g.Files))
	for _, r := range recs {
		if i := g.Index(r.Path); i >= 0 {
			dg.Links[i] = r.Link
		}
	}
	return &dg, nil
}
