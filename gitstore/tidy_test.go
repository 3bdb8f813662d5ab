package gitstore

import (
	"fmt"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-speed/git-speed/internal/gittest"
)

// TestTidy: one-file updates leave their objects loose; past TidyLoose
// Tidy rolls them into one pack, every store object still reads, git fsck
// is content, and below the thresholds it does nothing.
func TestTidy(t *testing.T) {
	g := gittest.New(t)
	g.Write("a.txt", "a\n")
	g.Commit("init")
	r, err := Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	st := r.Store()
	tree := g.Git("rev-parse", "HEAD^{tree}")
	// Small transactions, as one-file updates make them: a few loose
	// objects each.
	for i := 0; i < 300; i++ {
		if i >= 20 {
			// The rest as loose objects alone: a commit each took a
			// second of git update-ref on a busy machine.
			if _, err := r.writeObject(plumbing.BlobObject, []byte(fmt.Sprintf("object %d\n", i))); err != nil {
				t.Fatal(err)
			}
			if i%2 == 0 {
				continue
			}
			for j := 0; j < 10; j++ {
				if _, err := r.writeObject(plumbing.BlobObject, []byte(fmt.Sprintf("object %d.%d\n", i, j))); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		txn := st.Begin()
		txn.PutFacts(fmt.Sprintf("%040x", i), []byte(fmt.Sprintf("facts %d\n", i)))
		txn.PutTree(tree, "d1", "rows", map[string][]byte{"": []byte(fmt.Sprintf("rows %d\n", i))})
		if err := txn.Commit("update"); err != nil {
			t.Fatal(err)
		}
	}
	before, err := r.Counts()
	if err != nil {
		t.Fatal(err)
	}
	if before.Loose < 2*TidyLoose {
		t.Fatalf("only %d loose objects after 300 updates", before.Loose)
	}
	res, err := r.Tidy(false)
	if err != nil || !res.Ran {
		t.Fatalf("tidy %+v %v", res, err)
	}
	after, _ := r.Counts()
	if after.Loose != 0 || after.Packs > before.Packs+1 {
		t.Fatalf("after tidy: %+v (before %+v)", after, before)
	}
	facts, err := st.Facts([]string{fmt.Sprintf("%040x", 7)})
	if err != nil || string(facts[fmt.Sprintf("%040x", 7)]) != "facts 7\n" {
		t.Fatalf("facts after tidy: %q %v", facts, err)
	}
	rows, err := st.Tree(tree, "d1", "rows")
	if err != nil || string(rows[""]) != "rows 19\n" {
		t.Fatalf("rows after tidy: %q %v", rows, err)
	}
	g.Git("fsck", "--no-progress", "--strict")
	if res, err := r.Tidy(false); err != nil || res.Ran {
		t.Fatalf("a tidy store tidied again: %+v %v", res, err)
	}
}
