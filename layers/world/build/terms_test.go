package build

import (
	"github.com/git-speed/git-speed/internal/lex"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
	"github.com/git-speed/git-speed/layers/world/terms"
)

// The term index of an indexed tree answers a query's terms from the
// buckets it needs, with the fields each file uses them in.
func TestWorldTerms(t *testing.T) {
	r := gittest.New(t)
	r.Write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.Write("cache/lru.go", "package cache\n\n// Evict drops the least recently used entry.\nfunc Evict() {}\n")
	r.Write("server/http.go", "package server\n\nimport \"example.com/m/cache\"\n\nfunc Serve() { cache.Evict() }\n")
	r.Commit("one")
	repo, cfg, res := indexHead(t, r.Dir)
	w, err := Load(repo, res.Tree, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ix, err := w.Terms([]string{lex.Stem("evict"), "recent", "nosuchword"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.Docs) != 3 {
		t.Fatalf("docs %+v, want go.mod and the two Go files", ix.Docs)
	}
	got := map[string]uint8{}
	for _, p := range ix.Postings[lex.Stem("evict")] {
		got[ix.Docs[p.Doc].Path] = p.Fields
	}
	if got["cache/lru.go"]&terms.Def == 0 || got["server/http.go"]&terms.Content == 0 || got["server/http.go"]&terms.Def != 0 {
		t.Errorf("postings of evict: %v", got)
	}
	if len(ix.Postings["recent"]) != 1 || len(ix.Postings["nosuchword"]) != 0 {
		t.Errorf("postings %v", ix.Postings)
	}
}
