package gitstore

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
)

// newObjectBytes sums the sizes (uncompressed) and counts the objects
// reachable from rev but not from base.
func newObjectBytes(t *testing.T, g *gittest.Repo, rev, base string) (int, int64) {
	t.Helper()
	ids := g.Git("rev-list", "--objects", "--no-object-names", rev, "--not", base)
	if ids == "" {
		return 0, 0
	}
	out, err := g.GitInput([]byte(ids+"\n"), "cat-file", "--batch-check=%(objectsize)")
	if err != nil {
		t.Fatal(err)
	}
	var n int
	var total int64
	for _, line := range strings.Split(out, "\n") {
		v, err := strconv.ParseInt(line, 10, 64)
		if err != nil {
			t.Fatalf("cat-file: %q", line)
		}
		n++
		total += v
	}
	return n, total
}

// TestStoreGrowth indexes a 200-file repository, then makes 50 one-file
// commits, each adding one facts entry and one per-tree artifact sharded by
// folder, and checks the store grows by a small fraction of the artifact
// per commit.
func TestStoreGrowth(t *testing.T) {
	g := gittest.New(t)
	const dirs, perDir = 20, 10
	content := func(d, f, v int) string {
		return fmt.Sprintf("package d%d\n\n// File %d version %d.\nfunc F%d() int { return %d }\n%s", d, f, v, f, v, strings.Repeat("// padding\n", 20))
	}
	version := map[[2]int]int{}
	for d := 0; d < dirs; d++ {
		for f := 0; f < perDir; f++ {
			g.Write(fmt.Sprintf("d%02d/f%02d.go", d, f), content(d, f, 0))
		}
	}
	g.Commit("initial")
	r := open(t, g.Dir)
	s := r.Store()

	// The artifact: per folder, a few hundred bytes per file (a stand-in
	// for symbols and skeletons).
	artifact := func() map[string][]byte {
		shards := map[string][]byte{}
		for d := 0; d < dirs; d++ {
			var b strings.Builder
			for f := 0; f < perDir; f++ {
				fmt.Fprintf(&b, "d%02d/f%02d.go F%d v%d %s\n", d, f, f, version[[2]int{d, f}], strings.Repeat("sym ", 60))
			}
			shards[fmt.Sprintf("d%02d", d)] = []byte(b.String())
		}
		return shards
	}
	factsOf := func(d, f int) (string, []byte) {
		blob := g.Git("rev-parse", fmt.Sprintf("HEAD:d%02d/f%02d.go", d, f))
		return blob + "01", []byte(fmt.Sprintf("facts for %s %s", blob, strings.Repeat("x", 400)))
	}
	var artifactBytes int
	tx := s.Begin()
	for d := 0; d < dirs; d++ {
		for f := 0; f < perDir; f++ {
			k, v := factsOf(d, f)
			tx.PutFacts(k, v)
		}
	}
	tree := g.Git("rev-parse", "HEAD^{tree}")
	full := artifact()
	for _, v := range full {
		artifactBytes += len(v)
	}
	tx.PutTree(tree, "c0", "symbols", full)
	if err := tx.Commit("index initial"); err != nil {
		t.Fatal(err)
	}
	first := g.Git("rev-parse", IndexRef)
	n0, b0 := allObjectBytes(t, g, first)
	g.Git("gc", "-q")
	pack0 := sizePack(t, g)

	const commits = 50
	var maxBytes int64
	for i := 0; i < commits; i++ {
		d, f := (i*7)%dirs, (i*3)%perDir
		version[[2]int{d, f}]++
		g.Write(fmt.Sprintf("d%02d/f%02d.go", d, f), content(d, f, version[[2]int{d, f}]))
		g.Commit(fmt.Sprint("change ", i))
		before := g.Git("rev-parse", IndexRef)
		tx := s.Begin()
		k, v := factsOf(d, f)
		tx.PutFacts(k, v)
		tx.PutTree(g.Git("rev-parse", "HEAD^{tree}"), "c0", "symbols", artifact())
		if err := tx.Commit(fmt.Sprint("index ", i)); err != nil {
			t.Fatal(err)
		}
		_, nb := newObjectBytes(t, g, IndexRef, before)
		if nb > maxBytes {
			maxBytes = nb
		}
	}
	nAll, bAll := newObjectBytes(t, g, IndexRef, first)
	perCommit := bAll / commits
	t.Logf("initial store: %d objects, %d bytes uncompressed (artifact %d bytes in %d shards, %d facts)", n0, b0, artifactBytes, dirs, dirs*perDir)
	t.Logf("%d one-file commits added %d objects, %d bytes uncompressed: %d bytes/commit on average, %d max",
		commits, nAll, bAll, perCommit, maxBytes)
	if perCommit > int64(artifactBytes)/3 {
		t.Errorf("store grows %d bytes per one-file commit, more than a third of the %d-byte artifact", perCommit, artifactBytes)
	}
	// On disk after git's own gc, deltas make it smaller still.
	g.Git("gc", "-q")
	pack1 := sizePack(t, g)
	t.Logf("git gc'd pack: %d KiB before the 50 commits (repo + store), %d KiB after: %.1f KiB per commit including the source commit itself",
		pack0, pack1, float64(pack1-pack0)/commits)
	infos, err := s.Trees()
	if err != nil || len(infos) != commits+1 || infos[len(infos)-1].Seq != commits+1 {
		t.Fatalf("Trees = %d entries, %v", len(infos), err)
	}
}

func allObjectBytes(t *testing.T, g *gittest.Repo, rev string) (int, int64) {
	t.Helper()
	ids := g.Git("rev-list", "--objects", "--no-object-names", rev)
	out, err := g.GitInput([]byte(ids+"\n"), "cat-file", "--batch-check=%(objectsize)")
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	lines := strings.Split(out, "\n")
	for _, line := range lines {
		v, _ := strconv.ParseInt(line, 10, 64)
		total += v
	}
	return len(lines), total
}

// sizePack is count-objects' size-pack in KiB.
func sizePack(t *testing.T, g *gittest.Repo) int64 {
	for _, line := range strings.Split(g.Git("count-objects", "-v"), "\n") {
		if v, ok := strings.CutPrefix(line, "size-pack: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	t.Fatal("no size-pack in count-objects output")
	return 0
}
