package graph

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/extract"
)

// BenchmarkBuildCheckout resolves the tracked files of the git checkout
// named by $GRAPH_BENCH_DIR (skipped without it), extracted once with the
// real extractors: the cost of resolution alone on a real JavaScript,
// TypeScript or Python tree.
func BenchmarkBuildCheckout(b *testing.B) {
	dir := os.Getenv("GRAPH_BENCH_DIR")
	if dir == "" {
		b.Skip("GRAPH_BENCH_DIR not set")
	}
	out, err := exec.Command("git", "-C", dir, "ls-files").Output()
	if err != nil {
		b.Fatal(err)
	}
	paths := strings.Split(strings.TrimSpace(string(out)), "\n")
	sort.Strings(paths)
	in := Input{Tree: "bench", Read: func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, p)) }}
	for _, p := range paths {
		src, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			continue
		}
		lang := world.DetectLang(p, src)
		in.Files = append(in.Files, world.FileEntry{Path: p, Lang: lang})
		var l *world.Link
		if lang != "" && extract.Supported(lang) {
			if facts, err := extract.Extract(lang, src, extract.Options{}); err == nil {
				l = facts.Link()
			}
		}
		in.Links = append(in.Links, l)
	}
	b.ResetTimer()
	var g *world.Graph
	for i := 0; i < b.N; i++ {
		g = Build(in)
	}
	b.ReportMetric(float64(len(g.Files)), "files")
	b.ReportMetric(float64(len(g.Edges)), "edges")
}
