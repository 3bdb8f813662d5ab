package build

import (
	"path"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

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

// uncompressed are the artifacts stored as zlib stored blocks
// (gitstore.Txn.Uncompressed): a one-file update reads the links of every
// folder its file imports (2 MB on kubernetes' kubelet.go), and inflating
// them was a sixth of its time. They take 21 MB rather than 9 on disk for
// kubernetes; an in-place update rewrites the few shards it changes. The
// rows are read whole by every map and scope (6.5 MB on kubernetes, 2.5
// compressed): inflating them was a tenth of a computed map's CPU time.
// The defs are read whole by the first scope of a tree (its spec
// alignment; 5.4 MB on kubernetes, 1.6 compressed): inflating them took
// 25 ms of its CPU, a sixth.
var uncompressed = []string{artifactLinks, artifactRows, artifactDefs}

// mapRecord is one file of the map artifact.
type mapRecord struct {
	world.FileEntry
	Key string    `json:"key,omitempty"` // facts key; "" when the file has no facts
	Out []outEdge `json:"out,omitempty"`
}

type outEdge struct {
	To     string         `json:"to"`
	Refs   int            `json:"refs"`
	Weight float64        `json:"w"`
	Kind   world.EdgeKind `json:"kind,omitempty"`
}

// certainEdges counts the out-edges of kind certain: a tree's edge count
// (meta.Edges, as Graph.Edges) leaves weak edges out.
func certainEdges(out []outEdge) int {
	n := 0
	for _, o := range out {
		if o.Kind == world.EdgeCertain {
			n++
		}
	}
	return n
}

// outEdges calls fn with every edge of g, certain then weak, as the
// out-edge its From file's record stores: a full and an incremental
// build list a file's out-edges in the same order.
func outEdges(g *world.Graph, fn func(from int, o outEdge)) {
	for _, es := range [][]world.Edge{g.Edges, g.Weak} {
		for _, e := range es {
			fn(e.From, outEdge{To: g.Files[e.To].Path, Refs: e.Refs, Weight: round(e.Weight), Kind: e.Kind})
		}
	}
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
	// Output are the output roots, OutputFiles the files flagged output
	// (Result.Output).
	Output      []OutputRoot `json:"output,omitempty"`
	OutputFiles int          `json:"output_files,omitempty"`
}

func shardOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// groupShards splits records (sorted by path) by folder, keeping order.
func groupShards[T any](recs []T, pathOf func(*T) string) map[string][]T {
	return groupBy(recs, func(r *T) string { return shardOf(pathOf(r)) })
}

// groupBy splits records by key, keeping their order within a group. The
// groups share one array, sized by a first pass: appending to each group
// copied the records of a large tree twice over.
func groupBy[T any](recs []T, key func(*T) string) map[string][]T {
	keys := make([]string, len(recs))
	count := map[string]int{}
	for i := range recs {
		keys[i] = key(&recs[i])
		count[keys[i]]++
	}
	all := make([]T, len(recs))
	groups := make(map[string][]T, len(count))
	at := 0
	for k, n := range count {
		groups[k] = all[at : at : at+n]
		at += n
	}
	for i := range recs {
		groups[keys[i]] = append(groups[keys[i]], recs[i])
	}
	return groups
}

func encodeMapShards(recs []mapRecord) map[string][]byte {
	return encodeGroups(groupShards(recs, func(r *mapRecord) string { return r.Path }), encodeMapShard)
}

func encodeLinkShards(recs []linkRecord) map[string][]byte {
	return encodeGroups(groupShards(recs, func(r *linkRecord) string { return r.Path }), encodeLinkShard)
}

// encodeGroups encodes every group of records into its shard, on all
// cores: a shard's bytes depend on its records alone, so the shards are
// those of one core. The largest groups go first, so that the cores
// finish together.
func encodeGroups[T any](groups map[string][]T, encode func([]T) []byte) map[string][]byte {
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if a, b := len(groups[keys[i]]), len(groups[keys[j]]); a != b {
			return a > b
		}
		return keys[i] < keys[j]
	})
	enc := make([][]byte, len(keys))
	var next atomic.Int64
	work := func() {
		for i := int(next.Add(1)) - 1; i < len(keys); i = int(next.Add(1)) - 1 {
			enc[i] = encode(groups[keys[i]])
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < min(runtime.NumCPU(), len(keys)); w++ {
		wg.Go(work)
	}
	work()
	wg.Wait()
	out := make(map[string][]byte, len(keys))
	for i, k := range keys {
		out[k] = enc[i]
	}
	return out
}

// decodeAll decodes every shard on all cores and returns the records of
// all shards, sorted by path.
func decodeAll[T any](artifact string, shards map[string][]byte, decode func([]byte) ([]T, error), pathOf func(*T) string) ([]T, error) {
	dirs := make([]string, 0, len(shards))
	for d := range shards {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	parts := make([][]T, len(dirs))
	errs := make([]error, len(dirs))
	var wg sync.WaitGroup
	workers := runtime.NumCPU()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(dirs); i += workers {
				parts[i], errs[i] = decode(shards[dirs[i]])
				if errs[i] != nil {
					errs[i] = shardError(artifact, dirs[i], errs[i])
				}
			}
		}(w)
	}
	wg.Wait()
	n := 0
	for i := range parts {
		if errs[i] != nil {
			return nil, errs[i]
		}
		n += len(parts[i])
	}
	return mergeByPath(parts, n, pathOf), nil
}

// mergeByPath merges parts, each sorted by path as shards are written,
// into one slice sorted by path. Should a part be out of order (a shard
// git-speed did not write), everything is sorted instead.
func mergeByPath[T any](parts [][]T, n int, pathOf func(*T) string) []T {
	out := make([]T, 0, n)
	pos := make([]int, len(parts))
	var h []int // parts with records left: a min-heap by their next path
	less := func(a, b int) bool {
		return pathOf(&parts[h[a]][pos[h[a]]]) < pathOf(&parts[h[b]][pos[h[b]]])
	}
	down := func(i int) {
		for {
			m := 2*i + 1
			if m >= len(h) {
				return
			}
			if r := m + 1; r < len(h) && less(r, m) {
				m = r
			}
			if !less(m, i) {
				return
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	}
	for p := range parts {
		if len(parts[p]) > 0 {
			h = append(h, p)
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	for len(h) > 0 {
		p := h[0]
		out = append(out, parts[p][pos[p]])
		if pos[p]++; pos[p] == len(parts[p]) {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		down(0)
	}
	for i := 1; i < len(out); i++ {
		if pathOf(&out[i-1]) > pathOf(&out[i]) {
			// Sort an order, not the records: they are large to move.
			order := make([]int32, len(out))
			for k := range order {
				order[k] = int32(k)
			}
			sort.SliceStable(order, func(a, b int) bool { return pathOf(&out[order[a]]) < pathOf(&out[order[b]]) })
			sorted := make([]T, len(out))
			for k, j := range order {
				sorted[k] = out[j]
			}
			return sorted
		}
	}
	return out
}

func decodeMapShards(shards map[string][]byte) ([]mapRecord, error) {
	return decodeAll(artifactMap, shards, decodeMapShard, func(r *mapRecord) string { return r.Path })
}

func decodeLinkShards(shards map[string][]byte) (map[string]*world.Link, error) {
	recs, err := decodeAll(artifactLinks, shards, decodeLinkShard, func(r *linkRecord) string { return r.Path })
	if err != nil {
		return nil, err
	}
	links := make(map[string]*world.Link, len(recs))
	for _, r := range recs {
		links[r.Path] = r.Link
	}
	return links, nil
}

// graphFromRecords assembles the CSG of a tree from its rows.
func graphFromRecords(tree string, recs []rowRecord, symbols int) *world.Graph {
	g := &world.Graph{Tree: tree, Files: make([]world.FileEntry, len(recs)), Symbols: symbols}
	idx := make(map[string]int, len(recs))
	n := 0
	for i := range recs {
		g.Files[i] = recs[i].FileEntry
		idx[recs[i].Path] = i
		n += len(recs[i].Out)
	}
	if n > 0 {
		g.Edges = make([]world.Edge, 0, n)
	}
	for i := range recs {
		for _, o := range recs[i].Out {
			if j, ok := idx[o.To]; ok {
				e := world.Edge{From: i, To: j, Refs: o.Refs, Weight: o.Weight, Kind: o.Kind}
				if o.Kind == world.EdgeWeak {
					g.Weak = append(g.Weak, e)
				} else {
					g.Edges = append(g.Edges, e)
				}
			}
		}
	}
	sortEdges(g.Edges)
	sortEdges(g.Weak)
	return g
}

// sortEdges sorts es by (From, To); stored in order, a check is enough.
func sortEdges(es []world.Edge) {
	less := func(a, b int) bool {
		if es[a].From != es[b].From {
			return es[a].From < es[b].From
		}
		return es[a].To < es[b].To
	}
	if !sort.SliceIsSorted(es, less) {
		sort.Slice(es, less)
	}
}
