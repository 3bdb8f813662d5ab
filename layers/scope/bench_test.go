package scope

import (
	"fmt"
	"math/rand"
	"sync"
	"testing"

	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/world"
)

var (
	bigOnce  sync.Once
	bigWorld *fakeWorld
)

// goroot is a world the size of $(go env GOROOT)/src: 10,000 files of about
// 8 KB in 400 folders, with about 12 edges per file, most within a folder
// and some to a few hub files.
func goroot() *fakeWorld {
	bigOnce.Do(func() {
		rng := rand.New(rand.NewSource(1))
		const n, dirs = 10000, 400
		var files []fileSpec
		for i := 0; i < n; i++ {
			files = append(files, fileSpec{fmt.Sprintf("pkg%03d/file%05d.go", i%dirs, i), 4 + rng.Intn(12), 10 + rng.Intn(30)})
		}
		w := newFake("goroot", files, nil)
		byDir := map[string][]int{}
		for i, fe := range w.g.Files {
			d := fe.Path[:6]
			byDir[d] = append(byDir[d], i)
		}
		seen := map[[2]int]bool{}
		add := func(a, b int) {
			if a != b && !seen[[2]int{a, b}] {
				seen[[2]int{a, b}] = true
				r := 1 + rng.Intn(20)
				w.g.Edges = append(w.g.Edges, world.Edge{From: a, To: b, Refs: r, Weight: float64(r)})
			}
		}
		for i, fe := range w.g.Files {
			peers := byDir[fe.Path[:6]]
			for k := 0; k < 8; k++ {
				add(i, peers[rng.Intn(len(peers))])
			}
			for k := 0; k < 3; k++ {
				add(i, rng.Intn(n))
			}
			if rng.Intn(4) == 0 {
				add(i, rng.Intn(20)) // hubs
			}
		}
		sortEdges(w.g)
		bigWorld = w
	})
	return bigWorld
}

func sortEdges(g *world.Graph) {
	es := g.Edges
	sortSlice(es)
}

// gorootFeature is a feature of goroot() whose task t touches two files.
func gorootFeature(tb testing.TB) *feature.Feature {
	f, err := testFeature("big", "## REQ-1: Files\nFile01000 does things.\n", map[string]string{
		"t": "id = \"t\"\ntitle = \"change file 1000\"\nfiles_touched = [\"pkg200/file01000.go\", \"pkg201/file05001.go\"]\nrequirements = [\"REQ-1\"]\n",
	})
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

func BenchmarkScopeGOROOT(b *testing.B) {
	w := goroot()
	f := gorootFeature(b)
	var err error
	c := o200k(b)
	b.ResetTimer()
	for _, mode := range []string{"cold", "warm"} {
		b.Run(mode, func(b *testing.B) {
			var r *Result
			counts := NewCounts()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if mode == "cold" {
					counts = NewCounts()
				}
				r, err = Scope(w, f, "t", Options{Counter: c, Counts: counts})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(r.Manifest.Files)), "candidates")
			b.ReportMetric(float64(r.Budget.Dimensions.Code.Used), "code_tokens")
		})
	}
}

// BenchmarkAdjacencyGOROOT is the per-graph index Scope builds once per
// tree: edge lists both ways and test files by subject.
func BenchmarkAdjacencyGOROOT(b *testing.B) {
	w := goroot()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		adjMu.Lock()
		adjCache = nil
		adjMu.Unlock()
		adjacencyOf(w.g)
	}
}
