package gitstore

import (
	"path/filepath"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
)

// TestHeadIDMatchesGit reads HEAD in process in each way git may store
// it and checks the answer against git's own.
func TestHeadIDMatchesGit(t *testing.T) {
	g := gittest.New(t)
	g.Write("f.txt", "a")
	g.Commit("a")
	check := func(what string, r *Repo, dir string) {
		t.Helper()
		id, ok := r.headID()
		want := g.At(dir).Git("rev-parse", "HEAD")
		if !ok || id != want {
			t.Errorf("%s: headID = %q, %v; git says %s", what, id, ok, want)
		}
		commit, _, err := r.Resolve("HEAD")
		if err != nil || commit != want {
			t.Errorf("%s: Resolve(HEAD) = %q, %v; want %s", what, commit, err, want)
		}
	}
	r := open(t, g.Dir)
	check("loose branch", r, g.Dir)
	g.Git("pack-refs", "--all")
	check("packed branch", r, g.Dir)
	g.Write("f.txt", "b")
	g.Commit("b") // the branch is loose again, newer than packed-refs
	check("loose over packed", r, g.Dir)
	g.Git("checkout", "-q", "--detach", "HEAD~1")
	check("detached", r, g.Dir)
	g.Git("checkout", "-q", "main")
	wt := filepath.Join(t.TempDir(), "wt")
	g.Git("worktree", "add", "-q", "-b", "side", wt, "HEAD~1")
	check("worktree", open(t, wt), wt)
	g.Git("checkout", "-q", "--orphan", "unborn")
	if _, ok := r.headID(); ok {
		t.Error("unborn branch: headID reported an id")
	}
}
