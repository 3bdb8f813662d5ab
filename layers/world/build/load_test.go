package build

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
)

// Contents read after StartContent are those read without it; after
// Close, StartContent starts nothing and Content still answers.
func TestStartContent(t *testing.T) {
	r := gittest.New(t)
	r.Write("a/a.go", "package a\n\nfunc A() {}\n")
	r.Write("b.txt", "bee\n")
	r.Commit("two files")
	repo, cfg, res := indexHead(t, r.Dir)
	w, err := Open(repo, res.Tree, cfg)
	if err != nil {
		t.Fatal(err)
	}
	w.StartContent()
	w.StartContent() // twice: one reader
	for p, want := range map[string]string{"a/a.go": "package a\n\nfunc A() {}\n", "b.txt": "bee\n"} {
		if got, err := w.Content(p); err != nil || string(got) != want {
			t.Errorf("%s: %q, %v", p, got, err)
		}
	}
	w.Close()
	w.StartContent()
	if got, err := w.Content("b.txt"); err != nil || string(got) != "bee\n" {
		t.Errorf("after Close: %q, %v", got, err)
	}
	w.Close()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.blobs != nil {
		t.Error("a reader is left open after Close")
	}
}

// Contents are read in process, loose or packed: no git process is
// started for them (a scope read a few files through a cat-file it had
// to start, a few ms of its run).
func TestContentInProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("no /proc to list child processes")
	}
	r := gittest.New(t)
	r.Write("loose.txt", "loose\n")
	r.Write("p/packed.go", "package p\n")
	r.Commit("two files")
	r.Git("repack", "-a", "-d")
	r.Write("loose.txt", "loose again\n")
	r.Commit("a loose blob")
	repo, cfg, res := indexHead(t, r.Dir)
	w, err := Open(repo, res.Tree, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.StartContent()
	for p, want := range map[string]string{"loose.txt": "loose again\n", "p/packed.go": "package p\n"} {
		if got, err := w.Content(p); err != nil || string(got) != want {
			t.Errorf("%s: %q, %v", p, got, err)
		}
	}
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	for _, f := range tasks {
		pids, _ := os.ReadFile(f)
		for _, pid := range strings.Fields(string(pids)) {
			if cmd, _ := os.ReadFile("/proc/" + pid + "/cmdline"); strings.Contains(string(cmd), "cat-file") {
				t.Errorf("reading contents started %q", strings.ReplaceAll(string(cmd), "\x00", " "))
			}
		}
	}
}
