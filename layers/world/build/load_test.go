package build

import (
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
