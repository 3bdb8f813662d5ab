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

// UsesOf returns links parallel to Graph().Files in which those of users
// hold their references' names and counts and those of used their
// definitions' names and parents (graph.Uses: what the repo map counts
// uses with), reading only the shards of their folders and decoding
// nothing else; every link, whole, once LoadLinks has run. It leaves
// Graph().Links as it is.
func (w *World) UsesOf(users, used []int) ([]*world.Link, error) {
	g := w.Graph()
	if w.linksLoaded() {
		return g.Links, nil
	}
	roles := map[string]byte{}
	seen := map[string]bool{}
	var dirs []string
	for k, files := range [][]int{users, used} {
		for _, i := range files {
			if i < 0 || i >= len(g.Files) {
				return nil, fmt.Errorf("links of file %d: the tree has %d files", i, len(g.Files))
			}
			p := g.Files[i].Path
			roles[p] |= 1 << k
			if d := shardOf(p); !seen[d] {
				seen[d] = true
				dirs = append(dirs, d)
			}
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
	role := func(p string) (bool, bool) { r := roles[p]; return r&1 != 0, r&2 != 0 }
	decode := func(b []byte) ([]linkRecord, error) { return decodeLinkUses(b, role) }
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

// defsGraph is Graph() with links holding only the definitions want
// keeps, their names and kinds, from the defs artifact (defs.go): all the
// spec alignment reads of links (align.Align with align.Wants). A file
// left without one has no link. Graph().Links, when loaded, serve as they
// are. The definitions are read before the map, so that on an opened
// World another goroutine can read the map meanwhile (a scope does).
func (w *World) defsGraph(want func(name string) bool) (*world.Graph, error) {
	if w.linksLoaded() {
		return w.Graph(), nil
	}
	shards, err := w.st.Tree(w.tree, w.digest, artifactDefs)
	if err != nil {
		return nil, err
	}
	decode := func(b []byte) ([]linkRecord, error) { return decodeDefShardWanted(b, want) }
	recs, err := decodeAll(artifactDefs, shards, decode, func(r *linkRecord) string { return r.Path })
	if err != nil {
		return nil, err
	}
	g := w.Graph()
	if err := w.MapErr(); err != nil {
		return nil, err // an alignment over no files is no alignment
	}
	// A scope may be loading every link meanwhile (LoadLinks sets
	// g.Links under w.mu): copy the graph under the same lock.
	w.mu.Lock()
	dg := *g
	w.mu.Unlock()
	dg.Links = make([]*world.Link, len(g.Files))
	for _, r := range recs {
		if i := g.Index(r.Path); i >= 0 {
			dg.Links[i] = r.Link
		}
	}
	return &dg, nil
}

// linksLoaded reports whether LoadLinks has run.
func (w *World) linksLoaded() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.links != nil
}
