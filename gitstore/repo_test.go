package gitstore

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
)

// open opens dir with the test repo's isolated environment applied to the
// process (Open honours GIT_DIR, so the test clears it).
func open(t *testing.T, dir string) *Repo {
	t.Helper()
	t.Setenv("GIT_DIR", "")
	os.Unsetenv("GIT_DIR")
	os.Unsetenv("GIT_WORK_TREE")
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func sample(t *testing.T) *gittest.Repo {
	g := gittest.New(t)
	g.Write("README.md", "hello\n")
	g.Write("pkg/a.go", "package pkg\n")
	g.Write("pkg/sub/b.go", "package sub\n")
	g.Commit("one")
	return g
}

func TestOpenFromSubdirAndWorktree(t *testing.T) {
	g := sample(t)
	r := open(t, filepath.Join(g.Dir, "pkg", "sub"))
	if r.WorkTree() != g.Dir {
		t.Errorf("WorkTree = %q, want %q", r.WorkTree(), g.Dir)
	}
	if r.GitDir() != filepath.Join(g.Dir, ".git") || r.CommonDir() != r.GitDir() {
		t.Errorf("GitDir = %q CommonDir = %q", r.GitDir(), r.CommonDir())
	}

	wt := filepath.Join(t.TempDir(), "wt")
	g.Git("worktree", "add", "-q", "-b", "side", wt)
	w := g.At(wt)
	w.Write("pkg/c.go", "package pkg\n")
	side := w.Commit("side")
	rw := open(t, filepath.Join(wt, "pkg"))
	if rw.WorkTree() != wt {
		t.Errorf("worktree WorkTree = %q, want %q", rw.WorkTree(), wt)
	}
	if rw.CommonDir() != filepath.Join(g.Dir, ".git") {
		t.Errorf("worktree CommonDir = %q", rw.CommonDir())
	}
	if c, _, err := rw.Head(); err != nil || c != side {
		t.Errorf("worktree Head = %q, %v; want %q", c, err, side)
	}
	if c, _, err := r.Head(); err != nil || c == side {
		t.Errorf("main Head = %q, %v; should differ from the worktree", c, err)
	}
}

func TestOpenGitDirEnv(t *testing.T) {
	g := sample(t)
	other := t.TempDir()
	t.Setenv("GIT_DIR", filepath.Join(g.Dir, ".git"))
	t.Setenv("GIT_WORK_TREE", g.Dir)
	r, err := Open(other)
	if err != nil {
		t.Fatal(err)
	}
	if r.GitDir() != filepath.Join(g.Dir, ".git") || r.WorkTree() != g.Dir {
		t.Errorf("GitDir %q WorkTree %q", r.GitDir(), r.WorkTree())
	}
}

func TestOpenBare(t *testing.T) {
	g := sample(t)
	bare := filepath.Join(t.TempDir(), "bare.git")
	g.Git("clone", "-q", "--bare", g.Dir, bare)
	r := open(t, bare)
	if r.WorkTree() != "" || r.GitDir() != bare {
		t.Errorf("bare: WorkTree %q GitDir %q", r.WorkTree(), r.GitDir())
	}
	if _, _, err := r.Head(); err != nil {
		t.Error(err)
	}
}

func TestOpenNotRepo(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	os.Unsetenv("GIT_DIR")
	_, err := Open(dir)
	if !errors.Is(err, ErrNotRepo) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("Open(non-repo) = %v, want ErrNotRepo naming %s", err, dir)
	}
}

func TestEmptyRepo(t *testing.T) {
	g := gittest.New(t)
	r := open(t, g.Dir)
	if _, _, err := r.Head(); !errors.Is(err, ErrNoCommits) {
		t.Fatalf("Head on empty repo = %v, want ErrNoCommits", err)
	}
	if _, _, err := r.Resolve("HEAD~1"); !errors.Is(err, ErrNoCommits) {
		t.Fatalf("Resolve(HEAD~1) on empty repo = %v, want ErrNoCommits", err)
	}
	if _, _, err := r.Resolve("nope"); !errors.Is(err, ErrBadRevision) || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("Resolve(nope) = %v", err)
	}
	tips, err := r.RefTips()
	if err != nil || len(tips) != 0 {
		t.Fatalf("RefTips = %v, %v", tips, err)
	}
}

func TestResolveForms(t *testing.T) {
	g := gittest.New(t)
	var commits, trees []string
	for i, s := range []string{"a", "b", "c"} {
		g.Write("f.txt", s)
		commits = append(commits, g.Commit("c"+s))
		trees = append(trees, g.Git("rev-parse", "HEAD^{tree}"))
		_ = i
	}
	g.Git("tag", "v1", commits[0])
	g.Git("tag", "-a", "-m", "annotated", "v2", commits[1])
	g.Git("tag", "treetag", trees[0])
	g.Git("tag", "-a", "-m", "tree", "atreetag", trees[1])
	g.Git("branch", "topic", commits[1])
	r := open(t, g.Dir)
	cases := []struct{ rev, commit, tree string }{
		{"HEAD", commits[2], trees[2]},
		{"@", commits[2], trees[2]},
		{"main", commits[2], trees[2]},
		{"topic", commits[1], trees[1]},
		{"v1", commits[0], trees[0]},
		{"v2", commits[1], trees[1]},
		{"HEAD~2", commits[0], trees[0]},
		{"HEAD^", commits[1], trees[1]},
		{commits[1][:10], commits[1], trees[1]},
		{"v1^{tree}", "", trees[0]},
		{trees[2], "", trees[2]},
		{"treetag", "", trees[0]},
		{"atreetag", "", trees[1]},
		// Full ids, resolved in this process (resolveID).
		{commits[0], commits[0], trees[0]},
		{g.Git("rev-parse", "v2"), commits[1], trees[1]},
		{g.Git("rev-parse", "atreetag"), "", trees[1]},
	}
	for _, c := range cases {
		commit, tree, err := r.Resolve(c.rev)
		if err != nil || commit != c.commit || tree != c.tree {
			t.Errorf("Resolve(%q) = %q, %q, %v; want %q, %q", c.rev, commit, tree, err, c.commit, c.tree)
		}
	}
	blob := g.Git("rev-parse", "HEAD:f.txt")
	for _, bad := range []string{"nope", "HEAD~9", "-h", "a\nb", blob, "", strings.Repeat("ab", 20)} {
		if _, _, err := r.Resolve(bad); !errors.Is(err, ErrBadRevision) {
			t.Errorf("Resolve(%q) = %v, want ErrBadRevision", bad, err)
		}
	}
	tips, err := r.RefTips()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{commits[0], commits[1], commits[2]}
	if !reflect.DeepEqual(tips, sortedCopy(want)) {
		t.Errorf("RefTips = %v, want %v", tips, sortedCopy(want))
	}
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if c[j] < c[i] {
				c[i], c[j] = c[j], c[i]
			}
		}
	}
	return c
}

func TestWalkModes(t *testing.T) {
	g := gittest.New(t)
	g.Write("a.txt", "12345")
	g.Write("a/b.txt", "x")
	g.Write("a0.txt", "y")
	g.Write("run.sh", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(g.Dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(g.Dir, "link")); err != nil {
		t.Fatal(err)
	}
	g.Write("name with\ttab and \"quote\".txt", "q")
	g.Git("add", "-A")
	sub := "1234567890123456789012345678901234567890"
	g.Git("update-index", "--add", "--cacheinfo", "160000,"+sub+",sub")
	g.Git("commit", "-q", "-m", "modes")
	r := open(t, g.Dir)
	_, tree, err := r.Head()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var entries []Entry
	err = r.Walk(tree, func(e Entry) error {
		got = append(got, e.Path)
		entries = append(entries, e)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.txt", "a/b.txt", "a0.txt", "link", "name with\ttab and \"quote\".txt", "run.sh", "sub"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("paths = %q, want %q", got, want)
	}
	modes := map[string]uint32{}
	for _, e := range entries {
		modes[e.Path] = e.Mode
	}
	if modes["a.txt"] != ModeFile || modes["run.sh"] != ModeExec || modes["link"] != ModeSymlink || modes["sub"] != ModeGitlink {
		t.Errorf("modes = %v", modes)
	}
	if entries[0].Size != 5 || entries[len(entries)-1].Size != -1 || entries[len(entries)-1].Blob != sub {
		t.Errorf("sizes/ids: %+v %+v", entries[0], entries[len(entries)-1])
	}
	// Early stop returns fn's error.
	stop := errors.New("enough")
	n := 0
	if err := r.Walk(tree, func(Entry) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("early stop: %v after %d", err, n)
	}
	if err := r.Walk("nope", func(Entry) error { return nil }); err == nil {
		t.Error("Walk(nope) succeeded")
	}
}

func TestDiffTrees(t *testing.T) {
	g := gittest.New(t)
	g.Write("keep.txt", "k")
	g.Write("mod.txt", "1")
	g.Write("del/x.txt", "x")
	g.Commit("a")
	a := g.Git("rev-parse", "HEAD^{tree}")
	g.Write("mod.txt", "2")
	g.Remove("del")
	g.Write("new/y.txt", "y")
	g.Commit("b")
	b := g.Git("rev-parse", "HEAD^{tree}")
	r := open(t, g.Dir)
	ch, err := r.DiffTrees(a, b)
	if err != nil {
		t.Fatal(err)
	}
	blob := func(rev string) string { return g.Git("rev-parse", rev) }
	want := []Change{
		{Path: "del/x.txt", From: blob(a + ":del/x.txt"), To: "", Mode: ModeFile},
		{Path: "mod.txt", From: blob(a + ":mod.txt"), To: blob(b + ":mod.txt"), Mode: ModeFile},
		{Path: "new/y.txt", From: "", To: blob(b + ":new/y.txt"), Mode: ModeFile},
	}
	if !reflect.DeepEqual(ch, want) {
		t.Fatalf("DiffTrees =\n%+v\nwant\n%+v", ch, want)
	}
	all, err := r.DiffTrees("", b)
	if err != nil || len(all) != 3 {
		t.Fatalf("DiffTrees(empty, b) = %+v, %v", all, err)
	}
	same, err := r.DiffTrees("HEAD", b)
	if err != nil || len(same) != 0 {
		t.Fatalf("DiffTrees(same) = %+v, %v", same, err)
	}
}

func TestBlobs(t *testing.T) {
	g := sample(t)
	r := open(t, g.Dir)
	readme := g.Git("rev-parse", "HEAD:README.md")
	tree := g.Git("rev-parse", "HEAD^{tree}")
	backends := []BlobBackend{CatFile, GoGit, InProcess}
	for k, b := range append(backends, backends...) {
		if k == len(backends) {
			g.Git("gc", "-q") // then from a pack
		}
		t.Run(b.String(), func(t *testing.T) {
			br, err := r.BlobsWith(b)
			if err != nil {
				t.Fatal(err)
			}
			defer br.Close()
			if d, err := br.Read(readme, 0); err != nil || string(d) != "hello\n" {
				t.Errorf("Read = %q, %v", d, err)
			}
			if d, err := br.Read(readme, 3); err != nil || string(d) != "hel" {
				t.Errorf("Read limit 3 = %q, %v", d, err)
			}
			if _, err := br.Read(tree, 0); err == nil || !strings.Contains(err.Error(), "not a blob") {
				t.Errorf("Read(tree) = %v", err)
			}
			if _, err := br.Read(strings.Repeat("1", 40), 0); err == nil || !strings.Contains(err.Error(), "not found") {
				t.Errorf("Read(missing) = %v", err)
			}
			if _, err := br.Read("HEAD", 0); err == nil {
				t.Error("Read(HEAD) accepted a revision")
			}
			// The reader still works after per-object errors, from many goroutines.
			var wg sync.WaitGroup
			for i := 0; i < 8; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for j := 0; j < 20; j++ {
						if d, err := br.Read(readme, 0); err != nil || string(d) != "hello\n" {
							t.Errorf("parallel Read = %q, %v", d, err)
							return
						}
					}
				}()
			}
			wg.Wait()
			br.Close()
			if _, err := br.Read(readme, 0); !errors.Is(err, ErrClosed) {
				t.Errorf("Read after Close = %v", err)
			}
		})
	}
}

// TestDiffTreesAsGitDoes compares the in-process diff of two tree ids with
// git diff-tree's on every kind of change: edits, additions, deletions, a
// mode change, a file becoming a folder and back, a symlink, a submodule
// entry, a non-canonical mode, the empty tree.
func TestDiffTreesAsGitDoes(t *testing.T) {
	g := gittest.New(t)
	g.Write("a.txt", "a")
	g.Write("f", "a file that becomes a folder")
	g.Write("d/g/h.txt", "deep")
	g.Write("d/x.sh", "echo")
	g.Write("gone/1.txt", "1")
	g.Write("gone/2/3.txt", "3")
	g.Commit("a")
	a := g.Git("rev-parse", "HEAD^{tree}")
	g.Write("a.txt", "b")
	g.Remove("f")
	g.Write("f/inside.txt", "now a folder")
	g.Remove("gone")
	g.Write("new/deep/n.txt", "n")
	g.Git("update-index", "--chmod=+x", "d/x.sh")
	g.Git("update-index", "--add", "--cacheinfo", "120000,"+g.Git("hash-object", "-w", "--stdin", "--path=link")+",link")
	g.Git("update-index", "--add", "--cacheinfo", "160000,"+a+",sub")
	b := g.Git("write-tree")
	// Trees with a mode git no longer writes (100664) and the same file
	// as 100644 and as 100755.
	id := g.Git("rev-parse", a+":a.txt")
	mk := func(mode string) string {
		cmd := exec.Command("git", "mktree")
		cmd.Dir, cmd.Env = g.Dir, g.Env
		cmd.Stdin = strings.NewReader(mode + " blob " + id + "\ta.txt\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	odd, plain, exe := mk("100664"), mk("100644"), mk("100755")
	r := open(t, g.Dir)
	pairs := [][2]string{{a, b}, {b, a}, {"", b}, {a, ""}, {a, a}, {EmptyTree, b}, {odd, plain}, {odd, exe}, {exe, a}}
	for _, p := range pairs {
		got, err := r.DiffTrees(p[0], p[1])
		if err != nil {
			t.Fatal(err)
		}
		from, to := p[0], p[1]
		if from == "" {
			from = EmptyTree
		}
		if to == "" {
			to = EmptyTree
		}
		raw := g.Git("diff-tree", "-r", "--raw", "-z", "--no-abbrev", "--no-renames", from, to)
		want, err := parseRawDiff([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("DiffTrees(%.7s, %.7s) =\n%+v\ngit diff-tree gives\n%+v", p[0], p[1], got, want)
		}
	}
}
