package gitstore

import (
	"path/filepath"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
)

func TestDefaultBranchAndMergeBase(t *testing.T) {
	g := gittest.New(t)
	r := open(t, g.Dir)
	if b := r.DefaultBranch(); b != "" {
		t.Errorf("no commits: default branch %q", b)
	}
	base := g.Commit("one")
	if b := r.DefaultBranch(); b != "main" {
		t.Errorf("default branch %q, want main", b)
	}
	g.Git("checkout", "-q", "-b", "topic")
	g.Write("a.txt", "a\n")
	topic := g.Commit("two")
	if mb, err := r.MergeBase("main", topic); err != nil || mb != base {
		t.Errorf("merge-base = %q, %v; want %s", mb, err, base)
	}
	// Unrelated history: no merge-base, no error.
	g.Git("checkout", "-q", "--orphan", "other")
	other := g.Commit("orphan")
	if mb, err := r.MergeBase("main", other); err != nil || mb != "" {
		t.Errorf("unrelated: %q, %v", mb, err)
	}
	if _, err := r.MergeBase("--all", other); err == nil {
		t.Error("an option-like revision was accepted")
	}
	// master when there is no main; origin/HEAD before either.
	g.Git("branch", "-m", "main", "master")
	if b := r.DefaultBranch(); b != "master" {
		t.Errorf("default branch %q, want master", b)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	g.Git("clone", "-q", "-b", "topic", g.Dir, clone)
	if b := open(t, clone).DefaultBranch(); b != "origin/other" {
		t.Errorf("clone: default branch %q, want origin/other (what the origin's HEAD names)", b)
	}
}
