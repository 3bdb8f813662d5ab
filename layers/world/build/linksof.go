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
	recs, err := decodeAll(artifactLinks, shards, decodeLinkShard, func(r *linkRecord) string { return r.Path })
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
