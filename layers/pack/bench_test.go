package pack_test

import (
	"os"
	"testing"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/corpus"
	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/pack"
	"github.com/git-speed/git-speed/layers/world/build"
)

// BenchmarkPackLarge packs a request on an indexed repository named by
// GIT_SPEED_BENCH_REPO (and GIT_SPEED_BENCH_REV, default HEAD), e.g. a
// kubernetes clone indexed at its release tree: the whole of a pack
// (open the index, read the term index, score, snippets, budget) per op.
func BenchmarkPackLarge(b *testing.B) {
	dir := corpus.FromEnv(b, "GIT_SPEED_BENCH_REPO", "an indexed repository")
	rev := os.Getenv("GIT_SPEED_BENCH_REV")
	if rev == "" {
		rev = "HEAD"
	}
	repo, err := gitstore.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	_, tree, err := repo.Resolve(rev)
	if err != nil {
		b.Fatal(err)
	}
	cfg := config.Default()
	query := "kubelet fails to evict pods when the node runs out of disk space"
	if q := os.Getenv("GIT_SPEED_BENCH_QUERY"); q != "" {
		query = q
	}
	cnt := counterB(b)
	bm25 := pack.BM25Weights()
	// The default weights beside BM25 alone (no fields, paths, graph,
	// kinds or structure) in the same run: the baseline of the cost.
	for _, c := range []struct {
		name  string
		query string
		w     *pack.Weights
	}{
		{"default", query, nil},
		{"bm25", query, &bm25},
		{"bug-report", bugReport, nil},
		{"bug-report-bm25", bugReport, &bm25},
	} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				w, err := build.Open(repo, tree, cfg)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := pack.Build(w, pack.Request{Query: c.query, Counter: cnt, Weights: c.w}); err != nil {
					b.Fatal(err)
				}
				w.Close()
			}
		})
	}
}

// bugReport is a bug report as an issue tracker holds it: prose, a
// dotted name and a Go panic's frames.
const bugReport = `kubelet panics when the eviction manager reclaims ephemeral storage

After upgrading, the kubelet crashes with a nil pointer dereference in
eviction.managerImpl.synchronize when a pod's emptyDir has no size limit.

panic: runtime error: invalid memory address or nil pointer dereference
goroutine 412 [running]:
k8s.io/kubernetes/pkg/kubelet/eviction.(*managerImpl).synchronize(...)
	pkg/kubelet/eviction/eviction_manager.go:387 +0x1a4
k8s.io/kubernetes/pkg/kubelet/eviction.(*managerImpl).Start.func1()
	pkg/kubelet/eviction/eviction_manager.go:205 +0x3c

Expected: the pod is evicted and the kubelet keeps running.
`

func counterB(b *testing.B) tokens.Counter {
	c, err := tokens.New(config.Default().Tokens.Tokenizer)
	if err != nil {
		b.Fatal(err)
	}
	return c
}
