package graph

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/world"
)

// synthetic makes a deterministic graph of n files in n/20 folders: files
// use others of their folder often and a few hubs everywhere.
func synthetic(n, perFile int) *world.Graph {
	g := &world.Graph{}
	for i := 0; i < n; i++ {
		p := fmt.Sprintf("d%03d/f%05d.go", i/20, i)
		g.Files = append(g.Files, world.FileEntry{Path: p, Lang: "go"})
		g.Links = append(g.Links, &world.Link{Lang: "go", Defs: []world.LinkDef{{Name: fmt.Sprintf("F%d", i), Kind: "function", Exported: true}}})
	}
	sort.Slice(g.Files, func(i, j int) bool { return g.Files[i].Path < g.Files[j].Path })
	seed := uint32(1)
	rnd := func(k int) int { seed = seed*1664525 + 1013904223; return int(seed>>8) % k }
	seen := map[[2]int]bool{}
	for i := 0; i < n; i++ {
		for k := 0; k < perFile; k++ {
			var j int
			switch rnd(10) {
			case 0:
				j = rnd(n/100 + 1) // hubs
			case 1, 2:
				j = rnd(n)
			default:
				j = i/20*20 + rnd(20)
			}
			if j >= n || j == i || seen[[2]int{i, j}] {
				continue
			}
			seen[[2]int{i, j}] = true
			g.Edges = append(g.Edges, world.Edge{From: i, To: j, Refs: 1 + rnd(5), Weight: 1})
		}
	}
	sort.Slice(g.Edges, func(a, b int) bool {
		if g.Edges[a].From != g.Edges[b].From {
			return g.Edges[a].From < g.Edges[b].From
		}
		return g.Edges[a].To < g.Edges[b].To
	})
	for i := range g.Links {
		for _, e := range g.Edges {
			if e.From == i {
				g.Links[i].Refs = append(g.Links[i].Refs, world.LinkRef{Name: fmt.Sprintf("F%d", e.To), Count: e.Refs})
			}
		}
		sort.Slice(g.Links[i].Refs, func(a, b int) bool { return g.Links[i].Refs[a].Name < g.Links[i].Refs[b].Name })
	}
	return g
}

func TestRankDeterministicAndPersonalised(t *testing.T) {
	g := synthetic(400, 8)
	a, b := Rank(g, nil, nil), Rank(g, nil, nil)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("Rank is not deterministic")
	}
	sum := 0.0
	for _, r := range a {
		sum += r
	}
	if sum < 0.999 || sum > 1.001 {
		t.Errorf("ranks sum to %f, want 1", sum)
	}
	// A hub (used by many) outranks a leaf.
	in := make([]int, len(g.Files))
	for _, e := range g.Edges {
		in[e.To]++
	}
	hub, leaf := 0, 0
	for i := range in {
		if in[i] > in[hub] {
			hub = i
		}
		if in[i] < in[leaf] {
			leaf = i
		}
	}
	if a[hub] <= a[leaf] {
		t.Errorf("hub rank %g ≤ leaf rank %g", a[hub], a[leaf])
	}
	// Focus and mentions move mass.
	focus := g.Files[leaf].Path
	f := Rank(g, []string{focus}, nil)
	if f[leaf] <= a[leaf]*5 {
		t.Errorf("focus did not raise %s: %g → %g", focus, a[leaf], f[leaf])
	}
	m := Rank(g, nil, []string{g.Links[leaf].Defs[0].Name})
	if m[leaf] <= a[leaf]*5 {
		t.Errorf("mention did not raise %s: %g → %g", focus, a[leaf], m[leaf])
	}
	p := Rank(g, nil, []string{"d007"})
	if p[g.Index("d007/f00140.go")] <= a[g.Index("d007/f00140.go")] {
		t.Error("path mention did not raise files of d007")
	}
}

func TestClustersDeterministic(t *testing.T) {
	g := synthetic(400, 8)
	a, b := Clusters(g), Clusters(g)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("Clusters is not deterministic")
	}
	seen := map[string]bool{}
	for k, c := range a {
		if c.ID != k+1 || c.Name == "" || len(c.Files) == 0 {
			t.Errorf("cluster %d: %+v", k, c)
		}
		if !sort.StringsAreSorted(c.Files) {
			t.Errorf("cluster %d files not sorted", c.ID)
		}
		for _, f := range c.Files {
			if seen[f] {
				t.Errorf("%s in two clusters", f)
			}
			seen[f] = true
		}
	}
	if len(seen) != len(g.Files) {
		t.Errorf("%d files clustered, want %d", len(seen), len(g.Files))
	}
	if len(a) < 5 {
		t.Errorf("only %d clusters for 20 folders of dense files", len(a))
	}
	// Folders dominate: most files share a cluster with their folder-mates.
	same := 0
	at := map[string]int{}
	for _, c := range a {
		for _, f := range c.Files {
			at[f] = c.ID
		}
	}
	for i := 1; i < len(g.Files); i++ {
		if i%20 != 0 && at[g.Files[i].Path] == at[g.Files[i-1].Path] {
			same++
		}
	}
	if same < len(g.Files)*3/4 {
		t.Errorf("only %d of %d neighbours share a cluster", same, len(g.Files))
	}
	t.Logf("%d clusters; first: %q", len(a), a[0].Name)
}

func mapFacts(g *world.Graph) func(string) (*world.Facts, error) {
	return func(p string) (*world.Facts, error) {
		i := g.Index(p)
		if i < 0 {
			return nil, fmt.Errorf("%s: no such file", p)
		}
		f := &world.Facts{Lang: "go", Imports: []world.Import{{Path: "context", Line: 3}, {Path: "example.com/m/p" + strconv.Itoa(i%5), Line: 4}}}
		for k := 0; k < 6; k++ {
			f.Defs = append(f.Defs, world.Def{Name: fmt.Sprintf("F%d_%d", i, k), Kind: "function", Exported: k%2 == 0,
				Start: k + 1, Signature: fmt.Sprintf("func F%d_%d(ctx context.Context, n int) (string, error)", i, k)})
		}
		return f, nil
	}
}

func TestRepoMapBudget(t *testing.T) {
	g := synthetic(300, 6)
	r := Rank(g, nil, nil)
	count := func(s string) int { return tokens.Estimate("markdown", int64(len(s))) }
	for _, budget := range []int{1, 50, 400, 1000, 4000} {
		out, err := RepoMap(g, r, mapFacts(g), budget, count)
		if err != nil {
			t.Fatal(err)
		}
		if n := count(out); n > budget || (budget >= 400 && n < budget*9/10) {
			t.Errorf("budget %d: map has %d tokens", budget, n)
		}
		again, _ := RepoMap(g, r, mapFacts(g), budget, count)
		if again != out {
			t.Errorf("budget %d: not deterministic", budget)
		}
	}
	out, _ := RepoMap(g, r, mapFacts(g), 300, count)
	if !strings.HasPrefix(out, "# Repository map\n\n## ") {
		t.Errorf("map starts %q", out[:40])
	}
	// Each file lists its imports, then its symbols (Umbra's repo map).
	if _, rest, _ := strings.Cut(out, "\n## "); !regexp.MustCompile(`^\S+\n    imports: context, example\.com/m/p[0-4]\n    func `).MatchString(rest) {
		t.Errorf("first file of the map has no imports line:\n%s", out)
	}
	if _, err := RepoMap(g, r, mapFacts(g), 0, count); err == nil {
		t.Error("budget 0: want an error")
	}
}

func FuzzRepoMapBudget(f *testing.F) {
	f.Add(uint16(100), uint8(30), uint8(3))
	f.Add(uint16(5000), uint8(200), uint8(7))
	f.Add(uint16(7), uint8(2), uint8(1))
	f.Fuzz(func(t *testing.T, budget uint16, files, per uint8) {
		n := int(files)%250 + 2
		g := synthetic(n, int(per)%10+1)
		r := Rank(g, nil, nil)
		// A counter that is not additive: words plus punctuation.
		count := func(s string) int { return len(strings.Fields(s)) + strings.Count(s, "(") }
		b := int(budget)%6000 + 1
		out, err := RepoMap(g, r, mapFacts(g), b, count)
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		all, _ := RepoMap(g, r, mapFacts(g), 1<<30, count)
		total = count(all)
		if c := count(out); c > b {
			t.Fatalf("budget %d: %d tokens", b, c)
		} else if total >= b && b >= 200 && c < b*9/10 {
			t.Fatalf("budget %d of %d available: used only %d", b, total, c)
		}
	})
}

var (
	gorootOnce sync.Once
	gorootIn   Input
)

// gorootInput builds an Input of $(go env GOROOT)/src with the go/ast
// reference extractor (fast and cgo-free); files are read once.
func gorootInput(b *testing.B) Input {
	gorootOnce.Do(func() {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return
		}
		root := filepath.Join(strings.TrimSpace(string(out)), "src")
		var files []string
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && (d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".go") || d.Name() == "go.mod") {
				r, _ := filepath.Rel(root, p)
				files = append(files, filepath.ToSlash(r))
			}
			return nil
		})
		sort.Strings(files)
		in := Input{Tree: "goroot", Read: func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, p)) }}
		for _, p := range files {
			in.Files = append(in.Files, world.FileEntry{Path: p, Lang: world.DetectLang(p, nil)})
			var l *world.Link
			if strings.HasSuffix(p, ".go") {
				if src, err := os.ReadFile(filepath.Join(root, p)); err == nil {
					l = astLink(src)
				}
			}
			in.Links = append(in.Links, l)
		}
		gorootIn = in
	})
	if len(gorootIn.Files) == 0 {
		b.Skip("no GOROOT")
	}
	return gorootIn
}

func BenchmarkBuildGOROOT(b *testing.B) {
	in := gorootInput(b)
	b.ResetTimer()
	var g *world.Graph
	for i := 0; i < b.N; i++ {
		g = Build(in)
	}
	b.ReportMetric(float64(len(g.Files)), "files")
	b.ReportMetric(float64(len(g.Edges)), "edges")
}

func BenchmarkRankGOROOT(b *testing.B) {
	g := Build(gorootInput(b))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Rank(g, []string{"net/http/server.go"}, []string{"Handler"})
	}
}

func BenchmarkClustersGOROOT(b *testing.B) {
	g := Build(gorootInput(b))
	b.ResetTimer()
	var cs []world.Cluster
	for i := 0; i < b.N; i++ {
		cs = Clusters(g)
	}
	b.ReportMetric(float64(len(cs)), "clusters")
}

func BenchmarkRankSynthetic10k(b *testing.B) {
	g := synthetic(10000, 10)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Rank(g, nil, []string{"F42"})
	}
}
