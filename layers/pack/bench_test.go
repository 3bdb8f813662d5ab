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
	for i := 0; i < b.N; i++ {
		w, err := build.Open(repo, tree, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := pack.Build(w, pack.Request{Query: query, Counter: cnt}); err != nil {
			b.Fatal(err)
		}
		w.Close()
	}
}

func counterB(b *testing.B) tokens.Counter {
	c, err := tokens.New(config.Default().Tokens.Tokenizer)
	if err != nil {
		b.Fatal(err)
	}
	return c
}
