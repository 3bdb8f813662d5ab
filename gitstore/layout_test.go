package gitstore

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// TestStoreLayoutGolden pins the store's tree layout: a change here changes
// what older and newer git-speed versions read, so it needs a FormatVersion
// bump (and -update to rewrite testdata/layout.golden).
func TestStoreLayoutGolden(t *testing.T) {
	g := sample(t)
	r := open(t, g.Dir)
	tree := g.Git("rev-parse", "HEAD^{tree}")
	tx := r.Store().Begin()
	tx.now = func() time.Time { return time.Unix(1700000000, 0) }
	tx.PutFacts("ab01", []byte("facts for ab01\n"))
	tx.PutFacts("cd0102", []byte("facts for cd0102\n"))
	tx.PutTree(tree, "c0", "csg", map[string][]byte{
		"":        []byte("root shard\n"),
		"pkg":     []byte("pkg shard\n"),
		"pkg/sub": []byte("sub shard\n"),
		".github": []byte("dot shard\n"),
		"a b":     []byte("space shard\n"),
	})
	tx.PutTree(tree, "c0", "map", map[string][]byte{"": []byte("map\n")})
	if err := tx.Commit("golden"); err != nil {
		t.Fatal(err)
	}
	got := g.Git("ls-tree", "-r", "--full-tree", IndexRef) + "\n"
	golden := filepath.Join("testdata", "layout.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./gitstore -run Golden -update)", err)
	}
	if got != string(want) {
		t.Errorf("store layout changed; bump FormatVersion if intended and run with -update.\ngot:\n%s\nwant:\n%s", got, want)
	}
}
