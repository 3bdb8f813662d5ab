package gitstore

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
)

// TestSnapshotIsAddAll changes a work tree in every way a snapshot must
// capture, step by step, and requires each snapshot to be the tree that
// git add -A and git write-tree give on a copy of the index, with the
// user's index file and git status the same before and after.
func TestSnapshotIsAddAll(t *testing.T) {
	g := gittest.New(t)
	g.Write(".gitignore", "*.log\nbuild/\n")
	g.Write("a.go", "package a\n")
	g.Write("dir/b.go", "package dir\n")
	g.Write("dir/c.txt", "c\n")
	g.Write("file-to-dir", "f\n")
	g.Write("dir-to-file/x", "x\n")
	g.Write("tracked.log", "tracked although ignored\n")
	g.Write("sub/inner.go", "package sub\n")
	g.Git("add", "-A")
	g.Git("add", "-f", "tracked.log")
	g.Commit("init")
	inner := gittest.New(t)
	inner.Write("i.txt", "i\n")
	inner.Commit("inner")
	r, err := Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	path := func(p string) string { return filepath.Join(g.Dir, filepath.FromSlash(p)) }
	steps := []struct {
		name string
		edit func()
	}{
		{"clean", func() {}},
		{"an edit", func() { g.Write("a.go", "package a\n\nfunc A() {}\n") }},
		{"a deletion", func() { g.Remove("dir/c.txt") }},
		{"untracked files, one in a new folder, ignored ones left out", func() {
			g.Write("new.go", "package a\n")
			g.Write("newdir/deep/n.go", "package deep\n")
			g.Write("debug.log", "ignored\n")
			g.Write("build/out.bin", "ignored\n")
		}},
		{"a tracked ignored file edited", func() { g.Write("tracked.log", "edited\n") }},
		{"a file becomes a folder", func() {
			g.Remove("file-to-dir")
			g.Write("file-to-dir/y", "y\n")
		}},
		{"a folder becomes a file", func() {
			g.Remove("dir-to-file/x")
			if err := os.Remove(path("dir-to-file")); err != nil {
				t.Fatal(err)
			}
			g.Write("dir-to-file", "now a file\n")
		}},
		{"an executable bit and a symbolic link", func() {
			if err := os.Chmod(path("dir/b.go"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("a.go", path("link")); err != nil {
				t.Fatal(err)
			}
		}},
		{"a folder deleted whole", func() { g.Remove("sub/inner.go") }},
		{"an embedded repository", func() { g.Git("clone", "-q", inner.Dir, path("embedded")) }},
		{"a file with an odd name", func() { g.Write("sp ace/quo\"te\tx.go", "package q\n") }},
	}
	for _, s := range steps {
		s.edit()
		index, err := os.ReadFile(path(".git/index"))
		if err != nil {
			t.Fatal(err)
		}
		status := g.Git("status", "--porcelain=v2", "-z", "--untracked-files=all")
		snap, err := r.SnapshotWorktree(SnapshotOptions{})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if after, _ := os.ReadFile(path(".git/index")); !bytes.Equal(after, index) {
			t.Errorf("%s: the snapshot changed the user's index file", s.name)
		}
		if after := g.Git("status", "--porcelain=v2", "-z", "--untracked-files=all"); after != status {
			t.Errorf("%s: git status changed:\n%q\n%q", s.name, status, after)
		}
		if want := addAllTree(t, g); snap.Tree != want {
			t.Errorf("%s: snapshot %s, git add -A gives %s:\n%s", s.name, snap.Tree, want, g.Git("diff-tree", "-r", want, snap.Tree))
		}
		if snap.Dirty != (s.name != "clean") {
			t.Errorf("%s: dirty %v", s.name, snap.Dirty)
		}
	}
	leftovers, _ := filepath.Glob(path(".git/speed/worktree-*"))
	if len(leftovers) > 0 {
		t.Errorf("private index files left behind: %v", leftovers)
	}
}

// addAllTree is the tree git add -A writes from a copy of g's index.
func addAllTree(t *testing.T, g *gittest.Repo) string {
	t.Helper()
	idx := filepath.Join(t.TempDir(), "index")
	b, err := os.ReadFile(filepath.Join(g.Dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(idx, b, 0o644); err != nil {
		t.Fatal(err)
	}
	alt := g.At(g.Dir)
	alt.Env = append(append([]string(nil), g.Env...), "GIT_INDEX_FILE="+idx)
	alt.Git("add", "-A")
	return strings.TrimSpace(alt.Git("write-tree"))
}
