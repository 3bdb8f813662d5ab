package build

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"sort"

	"github.com/git-speed/git-speed/layers/world"
)

// A tree's artifacts are stored as shards, one per folder, so that a new
// tree that differs from an indexed one in a few folders stores only those
// folders' shards again: git keeps identical shards once.
const (
	artifactMap   = "map"     // project map rows and outgoing CSG edges
	artifactLinks = "links"   // resolution summaries (world.Link) per file
	artifactMeta  = "summary" // one shard "meta": counts and format
)

// mapRecord is one file of the map artifact.
type mapRecord struct {
	world.FileEntry
	Key string    `json:"key,omitempty"` // facts key; "" when the file has no facts
	Out []outEdge `json:"out,omitempty"`
}

type outEdge struct {
	To     string  `json:"to"`
	Refs   int     `json:"refs"`
	Weight float64 `json:"w"`
}

type linkRecord struct {
	Path string      `json:"path"`
	Link *world.Link `json:"link"`
}

// meta describes an indexed tree.
type meta struct {
	Format    int    `json:"format"`
	Extractor int    `json:"extractor"`
	Tree      string `json:"tree"`
	Digest    string `json:"digest"`
	Files     int    `json:"files"`
	WithFacts int    `json:"with_facts"`
	Symbols   int    `json:"symbols"`
	Edges     int    `json:"edges"`
}

func shardOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// encodeShards groups records by folder and encodes each group as JSON
// lines in the order given (callers pass records sorted by path).
func encodeShards[T any](recs []T, pathOf func(*T) string) map[string][]byte {
	bufs := map[string]*bytes.Buffer{}
	for i := range recs {
		dir := shardOf(pathOf(&recs[i]))
		b := bufs[dir]
		if b == nil {
			b = &bytes.Buffer{}
			bufs[dir] = b
		}
		_ = json.NewEncoder(b).Encode(&recs[i])
	}
	out := make(map[string][]byte, len(bufs))
	for dir, b := range bufs {
		out[dir] = b.Bytes()
	}
	return out
}

func decodeMapShards(shards map[string][]byte) ([]mapRecord, error) {
	var recs []mapRecord
	for dir, data := range shards {
		dec := json.NewDecoder(bytes.NewReader(data))
		for dec.More() {
			var r mapRecord
			if err := dec.Decode(&r); err != nil {
				return nil, fmt.Errorf("map shard %q: %w", dir, err)
			}
			recs = append(recs, r)
		}
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Path < recs[j].Path })
	return recs, nil
}

func decodeLinkShards(shards map[string][]byte) (map[string]*world.Link, error) {
	links := map[string]*world.Link{}
	for dir, data := range shards {
		dec := json.NewDecoder(bytes.NewReader(data))
		for dec.More() {
			var r linkRecord
			if err := dec.Decode(&r); err != nil {
				return nil, fmt.Errorf("links shard %q: %w", dir, err)
			}
			links[r.Path] = r.Link
		}
	}
	return links, nil
}

// graphFromRecords assembles the CSG of a tree from its map records.
func graphFromRecords(tree string, recs []mapRecord, symbols int) *world.Graph {
	g := &world.Graph{Tree: tree, Files: make([]world.FileEntry, len(recs)), Symbols: symbols}
	idx := make(map[string]int, len(recs))
	for i := range recs {
		g.Files[i] = recs[i].FileEntry
		idx[recs[i].Path] = i
	}
	for i := range recs {
		for _, o := range recs[i].Out {
			if j, ok := idx[o.To]; ok {
				g.Edges = append(g.Edges, world.Edge{From: i, To: j, Refs: o.Refs, Weight: o.Weight})
			}
		}
	}
	sort.Slice(g.Edges, func(a, b int) bool {
		if g.Edges[a].From != g.Edges[b].From {
			return g.Edges[a].From < g.Edges[b].From
		}
		return g.Edges[a].To < g.Edges[b].To
	})
	return g
}
