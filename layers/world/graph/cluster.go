package graph

import (
	"math"
	"math/bits"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/git-speed/git-speed/layers/world"
)

// clusterIterations bounds label propagation.
const clusterIterations = 30

// How often other files use each name a file defines is counted over the
// graph's edges in two steps: usedEdges picks the edges, countUses counts
// the references along them (the repo map reads the links of the edges'
// ends only, usedOf).

// usedEdges picks the edges whose references countUses counts: into the
// files with want set, from at most maxUsers users of each, the heaviest.
// Both ends are below n (the number of links there are).
func usedEdges(g *world.Graph, n int, want []bool) []world.Edge {
	// A hub (a core types file) has thousands of users; how its names are
	// used is told well enough by its heaviest users, and counting them
	// all made the map of a large tree take a third of a second.
	users := map[int][]world.Edge{}
	for _, e := range g.Edges {
		if e.From >= n || e.To >= n || (want != nil && !want[e.To]) {
			continue
		}
		users[e.To] = append(users[e.To], e)
	}
	var edges []world.Edge
	for _, es := range users {
		if len(es) > maxUsers {
			sort.Slice(es, func(a, b int) bool {
				if es[a].Refs != es[b].Refs {
					return es[a].Refs > es[b].Refs
				}
				return es[a].From < es[b].From
			})
			es = es[:maxUsers]
		}
		edges = append(edges, es...)
	}
	return edges
}

// countUses counts, over edges, the references of each edge's user to the
// names the used file defines; links are parallel to g.Files and need
// only be there for the edges' ends.
func countUses(g *world.Graph, links []*world.Link, edges []world.Edge, topOnly bool) []map[string]int {
	out := make([]map[string]int, len(g.Files))
	sorted := make([]*world.Link, len(links)) // each link sorted by name, checked once
	link := func(i int) *world.Link {
		if sorted[i] == nil && links[i] != nil {
			l := links[i]
			if !refsSorted(l.Refs) || !defsSorted(l.Defs) {
				l = sortedLink(l)
			}
			sorted[i] = l
		}
		return sorted[i]
	}
	for _, e := range edges {
		from, to := link(e.From), link(e.To)
		if from == nil || to == nil {
			continue
		}
		// Walk the shorter of the two lists, both sorted by name, and find
		// each name in the other by binary search.
		refs, defs := from.Refs, to.Defs
		count := func(name string) int {
			c := 0
			for _, r := range from.RefsNamed(name) {
				c += r.Count
			}
			return c
		}
		defined := func(name string) bool {
			for _, d := range to.DefsNamed(name) {
				if !topOnly || d.Parent == "" {
					return true
				}
			}
			return false
		}
		note := func(name string, c int) {
			m := out[e.To]
			if m == nil {
				m = map[string]int{}
				out[e.To] = m
			}
			m[name] += c
		}
		// Lists of like length are merged; a short one against a long one
		// is looked up by binary search.
		if short, long := min(len(defs), len(refs)), max(len(defs), len(refs)); short*bits.Len(uint(long)) > short+long {
			for r, d := 0, 0; r < len(refs) && d < len(defs); {
				switch cmp := strings.Compare(refs[r].Name, defs[d].Name); {
				case cmp < 0:
					r++
				case cmp > 0:
					d++
				default:
					name, c, def := refs[r].Name, 0, false
					for ; r < len(refs) && refs[r].Name == name; r++ {
						c += refs[r].Count
					}
					for ; d < len(defs) && defs[d].Name == name; d++ {
						def = def || !topOnly || defs[d].Parent == ""
					}
					if c > 0 && def {
						note(name, c)
					}
				}
			}
			continue
		}
		if len(defs) < len(refs) {
			for k, d := range defs {
				if k > 0 && defs[k-1].Name == d.Name {
					continue
				}
				if c := count(d.Name); c > 0 && defined(d.Name) {
					note(d.Name, c)
				}
			}
			continue
		}
		for r := 0; r < len(refs); {
			name, c := refs[r].Name, 0
			for ; r < len(refs) && refs[r].Name == name; r++ {
				c += refs[r].Count
			}
			if c > 0 && defined(name) {
				note(name, c)
			}
		}
	}
	return out
}

// maxUsers bounds the users of a file whose references countUses counts.
const maxUsers = 32

// sortedLink returns l with its definitions and references sorted by name.
func sortedLink(l *world.Link) *world.Link {
	c := *l
	c.Defs = append([]world.LinkDef(nil), l.Defs...)
	sort.SliceStable(c.Defs, func(x, y int) bool { return c.Defs[x].Name < c.Defs[y].Name })
	c.Refs = append([]world.LinkRef(nil), l.Refs...)
	sort.SliceStable(c.Refs, func(x, y int) bool { return c.Refs[x].Name < c.Refs[y].Name })
	return &c
}

// Clusters finds domain clusters: label propagation on the undirected
// weighted graph of files with facts, nodes visited in path order and ties
// broken by the smaller label, so the result is deterministic. Files left
// alone are folded into one cluster per folder. Each cluster is named from
// its dominant folder and its most used identifiers; clusters are sorted
// by their first path and numbered from 1 in that order.
func Clusters(g *world.Graph) []world.Cluster {
	n := len(g.Files)
	// Names are ranked by how often the whole tree references them
	// (cheap, and close to the per-edge count for top-level names); the
	// counts are taken while labels propagate.
	usedc := make(chan map[string]int, 1)
	go func() {
		nrefs := 0
		for _, l := range g.Links {
			if l != nil {
				nrefs += len(l.Refs)
			}
		}
		used := make(map[string]int, nrefs/2)
		for _, l := range g.Links {
			if l != nil {
				for _, r := range l.Refs {
					used[r.Name] += r.Count
				}
			}
		}
		usedc <- used
	}()
	has := func(i int) bool { return i < len(g.Links) && g.Links[i] != nil }
	// undirected adjacency
	type adj struct {
		to int
		w  float64
	}
	nb := make([][]adj, n)
	for _, e := range g.Edges {
		w := e.Weight
		if w <= 0 {
			w = float64(e.Refs)
		}
		nb[e.From] = append(nb[e.From], adj{e.To, w})
		nb[e.To] = append(nb[e.To], adj{e.From, w})
	}
	// A neighbour's vote is its edge weight over the square root of its
	// strength, so hubs used by everyone do not swallow the graph.
	strength := make([]float64, n)
	for i := range nb {
		for _, a := range nb[i] {
			strength[i] += a.w
		}
	}
	for i := range nb {
		for k := range nb[i] {
			nb[i][k].w /= math.Sqrt(strength[nb[i][k].to])
		}
	}
	label := make([]int, n)
	for i := range label {
		label[i] = i
	}
	score := make([]float64, n) // by label; only touched entries are non-zero
	var touched []int
	for it := 0; it < clusterIterations; it++ {
		changed := false
		for i := 0; i < n; i++ {
			if len(nb[i]) == 0 {
				continue
			}
			touched = touched[:0]
			for _, a := range nb[i] {
				l := label[a.to]
				if score[l] == 0 {
					touched = append(touched, l)
				}
				score[l] += a.w
			}
			best, bw := label[i], score[label[i]]
			for _, l := range touched {
				if w := score[l]; w > bw || (w == bw && l < best) {
					best, bw = l, w
				}
			}
			for _, l := range touched {
				score[l] = 0
			}
			if best != label[i] {
				label[i] = best
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	groups := map[int][]int{}
	for i := 0; i < n; i++ {
		if has(i) || len(nb[i]) > 0 {
			groups[label[i]] = append(groups[label[i]], i)
		}
	}
	// Fold singletons by folder.
	folded := map[string][]int{}
	var sets [][]int
	for _, fs := range groups {
		if len(fs) == 1 {
			d := path.Dir(g.Files[fs[0]].Path)
			folded[d] = append(folded[d], fs[0])
			continue
		}
		sets = append(sets, fs)
	}
	for _, fs := range folded {
		sets = append(sets, fs)
	}
	for _, s := range sets {
		sort.Ints(s)
	}
	sort.Slice(sets, func(i, j int) bool { return sets[i][0] < sets[j][0] })
	used := <-usedc
	out := make([]world.Cluster, len(sets))
	// Clusters are named independently: spread them over the cores, each
	// worker with its own scratch map.
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts := map[string]int{}
			for {
				k := int(next.Add(1)) - 1
				if k >= len(sets) {
					return
				}
				s := sets[k]
				clear(counts)
				c := world.Cluster{ID: k + 1, Name: clusterName(g, s, used, counts), Files: make([]string, len(s))}
				for j, f := range s {
					c.Files[j] = g.Files[f].Path
				}
				out[k] = c
			}
		}()
	}
	wg.Wait()
	return out
}

// clusterName is "folder: A, B, C": the folder holding most of the files
// (the common parent when none holds a majority) and the three top-level
// names other files use most. counts is an empty scratch map.
func clusterName(g *world.Graph, files []int, used map[string]int, counts map[string]int) string {
	dirs := map[string]int{}
	for _, f := range files {
		dirs[path.Dir(g.Files[f].Path)]++
	}
	dir, best := "", -1
	for d, c := range dirs {
		if c > best || (c == best && d < dir) {
			dir, best = d, c
		}
	}
	if best*2 < len(files) {
		dir = commonDir(g, files)
	}
	for _, f := range files {
		l := g.Links[f]
		if l == nil {
			continue
		}
		for _, d := range l.Defs {
			if d.Parent == "" && len(d.Name) > 1 {
				v := used[d.Name]
				if d.Exported {
					v++
				}
				counts[d.Name] = v // the last definition of a name decides
			}
		}
	}
	// The three best by count, then name.
	type nc struct {
		name string
		n    int
	}
	var top [3]nc
	nt := 0
	for k, v := range counts {
		if v <= 0 {
			continue
		}
		x := nc{k, v}
		if nt == 3 && !(x.n > top[2].n || (x.n == top[2].n && x.name < top[2].name)) {
			continue
		}
		if nt < 3 {
			nt++
		}
		j := nt - 1
		for ; j > 0 && (x.n > top[j-1].n || (x.n == top[j-1].n && x.name < top[j-1].name)); j-- {
			top[j] = top[j-1]
		}
		top[j] = x
	}
	names := top[:nt]
	if dir == "." {
		dir = "(root)"
	}
	if len(names) == 0 {
		return dir
	}
	ids := make([]string, len(names))
	for i, x := range names {
		ids[i] = x.name
	}
	return dir + ": " + strings.Join(ids, ", ")
}

func commonDir(g *world.Graph, files []int) string {
	c := path.Dir(g.Files[files[0]].Path)
	for _, f := range files[1:] {
		d := path.Dir(g.Files[f].Path)
		for c != "." && d != c && !strings.HasPrefix(d, c+"/") {
			c = path.Dir(c)
		}
	}
	return c
}
