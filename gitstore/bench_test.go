package gitstore

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// goSrcRepo builds a repository from $(go env GOROOT)/src/<sub> with one
// commit (and, for changed, a second commit changing one file). It takes a
// while for all of src: benchmarks skip it under -short.
func goSrcRepo(b *testing.B, sub string) *gittest.Repo {
	b.Helper()
	goroot := runtime.GOROOT()
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		goroot = strings.TrimSpace(string(out))
	}
	src := filepath.Join(goroot, "src", sub)
	if _, err := os.Stat(src); err != nil {
		b.Skip("no GOROOT source: ", err)
	}
	g := gittest.New(b)
	n := g.CopyTree(src, "")
	g.Commit("import " + sub)
	b.Logf("built a %d-file repository from %s", n, src)
	return g
}

// allBlobs lists the regular-file blobs of HEAD.
func allBlobs(b *testing.B, r *Repo) ([]string, int64) {
	_, tree, err := r.Head()
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	var total int64
	err = r.Walk(tree, func(e Entry) error {
		if e.Mode == ModeFile || e.Mode == ModeExec {
			ids = append(ids, e.Blob)
			total += e.Size
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return ids, total
}

// BenchmarkBlobs reads every blob of a real tree (GOROOT/src/net, or all of
// GOROOT/src without -short) on 2 workers, as the indexer does.
func BenchmarkBlobs(b *testing.B) {
	sub := "net"
	if !testing.Short() {
		sub = ""
	}
	g := goSrcRepo(b, sub)
	g.Git("gc", "-q") // read from a pack, like a real clone
	os.Unsetenv("GIT_DIR")
	r, err := Open(g.Dir)
	if err != nil {
		b.Fatal(err)
	}
	ids, total := allBlobs(b, r)
	b.Logf("%d blobs, %d bytes", len(ids), total)
	for _, backend := range []BlobBackend{GoGit, CatFile} {
		b.Run(backend.String(), func(b *testing.B) {
			br, err := r.BlobsWith(backend)
			if err != nil {
				b.Fatal(err)
			}
			defer br.Close()
			b.SetBytes(total)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				const workers = 2
				var wg sync.WaitGroup
				for w := 0; w < workers; w++ {
					wg.Add(1)
					go func(w int) {
						defer wg.Done()
						for j := w; j < len(ids); j += workers {
							if _, err := br.Read(ids[j], 0); err != nil {
								b.Error(err)
								return
							}
						}
					}(w)
				}
				wg.Wait()
			}
		})
	}
}

// BenchmarkWalk lists a real tree with sizes.
func BenchmarkWalk(b *testing.B) {
	sub := "net"
	if !testing.Short() {
		sub = ""
	}
	g := goSrcRepo(b, sub)
	os.Unsetenv("GIT_DIR")
	r, err := Open(g.Dir)
	if err != nil {
		b.Fatal(err)
	}
	_, tree, _ := r.Head()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 0
		if err := r.Walk(tree, func(Entry) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDiffTrees diffs a one-file change on all of GOROOT/src (about
// 10k files): git diff-tree (what DiffTrees runs) against go-git's
// object.DiffTree.
func BenchmarkDiffTrees(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a GOROOT/src-sized repository")
	}
	g := goSrcRepo(b, "")
	a := g.Git("rev-parse", "HEAD^{tree}")
	g.Write("fmt/print.go", "package fmt // changed\n")
	g.Commit("one file")
	c := g.Git("rev-parse", "HEAD^{tree}")
	os.Unsetenv("GIT_DIR")
	r, err := Open(g.Dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("diff-tree", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			ch, err := r.DiffTrees(a, c)
			if err != nil || len(ch) != 1 {
				b.Fatalf("DiffTrees = %v, %v", ch, err)
			}
		}
	})
	b.Run("gogit", func(b *testing.B) {
		repo, err := git.PlainOpen(g.Dir)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < b.N; i++ {
			ch, err := gogitDiff(repo, a, c)
			if err != nil || len(ch) != 1 {
				b.Fatalf("gogitDiff = %v, %v", ch, err)
			}
		}
	})
}

// gogitDiff is DiffTrees done with go-git, kept for the benchmark.
func gogitDiff(repo *git.Repository, a, b string) ([]Change, error) {
	ta, err := repo.TreeObject(plumbing.NewHash(a))
	if err != nil {
		return nil, err
	}
	tb, err := repo.TreeObject(plumbing.NewHash(b))
	if err != nil {
		return nil, err
	}
	changes, err := object.DiffTree(ta, tb)
	if err != nil {
		return nil, err
	}
	var out []Change
	for _, c := range changes {
		ch := Change{Path: c.To.Name, Mode: uint32(c.To.TreeEntry.Mode)}
		if ch.Path == "" {
			ch.Path, ch.Mode = c.From.Name, uint32(c.From.TreeEntry.Mode)
		}
		if !c.From.TreeEntry.Hash.IsZero() {
			ch.From = c.From.TreeEntry.Hash.String()
		}
		if !c.To.TreeEntry.Hash.IsZero() {
			ch.To = c.To.TreeEntry.Hash.String()
		}
		out = append(out, ch)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// BenchmarkStoreCommit measures one incremental store commit (one facts
// entry, one 20-shard artifact with one shard changed) on a populated store.
func BenchmarkStoreCommit(b *testing.B) {
	g := gittest.New(b)
	g.Write("a.txt", "a")
	g.Commit("a")
	os.Unsetenv("GIT_DIR")
	r, err := Open(g.Dir)
	if err != nil {
		b.Fatal(err)
	}
	s := r.Store()
	tree := g.Git("rev-parse", "HEAD^{tree}")
	tx := s.Begin()
	for i := 0; i < 2000; i++ {
		tx.PutFacts(factKey(i), []byte(fmt.Sprint("facts ", i)))
	}
	if err := tx.Commit("seed"); err != nil {
		b.Fatal(err)
	}
	shards := map[string][]byte{}
	for d := 0; d < 20; d++ {
		shards[fmt.Sprintf("dir%d/sub", d)] = []byte(strings.Repeat(fmt.Sprint(d), 1000))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		shards["dir0/sub"] = []byte(fmt.Sprint("changed ", i))
		tx := s.Begin()
		tx.PutFacts(factKey(100000+i), []byte("new"))
		tx.PutTree(tree, fmt.Sprintf("d%d", i), "csg", shards)
		if err := tx.Commit("bench"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFacts reads 2000 facts entries in one call.
func BenchmarkFacts(b *testing.B) {
	g := gittest.New(b)
	os.Unsetenv("GIT_DIR")
	r, err := Open(g.Dir)
	if err != nil {
		b.Fatal(err)
	}
	s := r.Store()
	tx := s.Begin()
	var keys []string
	for i := 0; i < 2000; i++ {
		keys = append(keys, factKey(i))
		tx.PutFacts(factKey(i), []byte(strings.Repeat("f", 500)))
	}
	if err := tx.Commit("seed"); err != nil {
		b.Fatal(err)
	}
	read := func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			got, err := s.Facts(keys)
			if err != nil || len(got) != len(keys) {
				b.Fatal(len(got), err)
			}
		}
	}
	b.Run("loose", read)
	g.Git("gc", "-q")
	r.mu.Lock()
	r.storage.Reindex()
	r.mu.Unlock()
	b.Run("packed", read)
}

func BenchmarkFactsGoGit(b *testing.B) {
	old := batchThreshold
	batchThreshold = 1 << 30
	defer func() { batchThreshold = old }()
	BenchmarkFacts(b)
}

// BenchmarkStoreInitial measures a first index: one Commit of 10k facts
// entries (1 KiB each) and a 1000-shard artifact, into an empty store.
func BenchmarkStoreInitial(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		g := gittest.New(b)
		os.Unsetenv("GIT_DIR")
		r, err := Open(g.Dir)
		if err != nil {
			b.Fatal(err)
		}
		tx := r.Store().Begin()
		for j := 0; j < 10000; j++ {
			tx.PutFacts(factKey(j), []byte(fmt.Sprintf("%01024d", j)))
		}
		shards := map[string][]byte{}
		for j := 0; j < 1000; j++ {
			shards[fmt.Sprintf("dir%d/sub%d", j/10, j)] = []byte(fmt.Sprintf("%02048d", j))
		}
		tx.PutTree(strings.Repeat("ab", 20), "d", "csg", shards)
		b.StartTimer()
		if err := tx.Commit("initial"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFactsOne reads one facts entry per call (how the indexer asks
// per file) from a 2000-entry store.
func BenchmarkFactsOne(b *testing.B) {
	g := gittest.New(b)
	os.Unsetenv("GIT_DIR")
	r, err := Open(g.Dir)
	if err != nil {
		b.Fatal(err)
	}
	s := r.Store()
	tx := s.Begin()
	for i := 0; i < 2000; i++ {
		tx.PutFacts(factKey(i), []byte(strings.Repeat("f", 500)))
	}
	if err := tx.Commit("seed"); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := factKey(i % 2000)
		got, err := s.Facts([]string{k})
		if err != nil || len(got) != 1 {
			b.Fatal(len(got), err)
		}
	}
}
