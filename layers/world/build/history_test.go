package build

import (
	"reflect"
	"testing"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/gittest"
)

// The stored change lists give what git's log gives, merges included,
// and a second call reads git for the new commits only.
func TestChangeLogStored(t *testing.T) {
	r := gittest.New(t)
	r.Write("a.go", "package a\n")
	r.Write("b.go", "package a\n")
	r.Git("add", "-A")
	r.Commit("one")
	r.Git("checkout", "-q", "-b", "side")
	r.Write("c.go", "package a\n")
	r.Git("add", "-A")
	r.Commit("side")
	r.Git("checkout", "-q", "main")
	r.Write("a.go", "package a\n\nfunc A() {}\n")
	r.Git("add", "-A")
	r.Commit("two")
	r.Git("merge", "-q", "--no-edit", "side")
	r.Git("mv", "b.go", "d.go")
	r.Commit("rename")
	repo, err := gitstore.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := repo.ChangeLog("HEAD", 10)
	if err != nil {
		t.Fatal(err)
	}
	for run := 0; run < 2; run++ {
		got, err := ChangeLog(repo, "HEAD", 10)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("run %d: %q, want %q", run, got, want)
		}
	}
	head := r.Git("rev-parse", "HEAD")
	stored, err := repo.Store().Facts([]string{changeKey(head)})
	if err != nil || len(stored) != 1 {
		t.Fatalf("the change list of HEAD is not stored: %v %v", stored, err)
	}
	r.Write("e.go", "package a\n")
	r.Git("add", "-A")
	r.Commit("three")
	want, _ = repo.ChangeLog("HEAD", 3)
	got, err := ChangeLog(repo, "HEAD", 3)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("after a new commit: %q, want %q (%v)", got, want, err)
	}
}
