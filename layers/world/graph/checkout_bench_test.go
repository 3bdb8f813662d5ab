package graph

import (
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/corpus"
	"github.com/git-speed/git-speed/layers/world"
)

// BenchmarkBuildCheckout resolves the tracked files of the git checkout
// named by $GRAPH_BENCH_DIR (skipped without it), extracted once with the
// real extractors: the cost of resolution alone on a real JavaScript,
// TypeScript or Python tree.
func BenchmarkBuildCheckout(b *testing.B) {
	dir := corpus.FromEnv(b, "GRAPH_BENCH_DIR", "a git checkout of JavaScript, TypeScript or Python")
	out, err := exec.Command("git", "-C", dir, "ls-files").Output()
	if err != nil {
		b.Fatal(err)
	}
	paths := strings.Split(strings.TrimSpace(string(out)), "\n")
	sort.Strings(paths)
	in, _ := extractTree(dir, paths)
	b.ResetTimer()
	var g *world.Graph
	for i := 0; i < b.N; i++ {
		g = Build(in)
	}
	b.ReportMetric(float64(len(g.Edges)), "edges")
}
