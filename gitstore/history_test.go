package gitstore

import (
	"reflect"
	"sync"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
)

func TestBlobAtLogChangedLines(t *testing.T) {
	g := gittest.New(t)
	g.Write("a.txt", "1\n2\n")
	g.Write("dir/b.txt", "b\n")
	c1 := g.Commit("one")
	g.Write("a.txt", "1\nchanged\n3\n")
	g.Remove("dir")
	c2 := g.Commit("two")
	g.Git("config", "log.showSignature", "true")
	r := open(t, g.Dir)
	t1 := g.Git("rev-parse", c1+"^{tree}")

	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id, ok, err := r.BlobAt(t1, "dir/b.txt")
			if err != nil || !ok || id != g.Git("rev-parse", c1+":dir/b.txt") {
				t.Errorf("BlobAt = %q, %v, %v", id, ok, err)
			}
		}()
	}
	wg.Wait()
	for _, p := range []string{"dir", "nope.txt", "dir/b.txt/x"} {
		if _, ok, err := r.BlobAt(t1, p); ok || err != nil {
			t.Errorf("BlobAt(%q) = %v, %v; want no file", p, ok, err)
		}
	}

	log, err := r.FirstParentLog("HEAD", 10)
	want := []LogEntry{{Commit: c2, Parents: []string{c1}}, {Commit: c1, Parents: []string{}}}
	if err != nil || len(log) != 2 || log[0].Commit != c2 || !reflect.DeepEqual(log[0].Parents, want[0].Parents) || log[1].Commit != c1 || len(log[1].Parents) != 0 {
		t.Errorf("FirstParentLog = %+v, %v", log, err)
	}

	ch, err := r.ChangedLines(c1, c2)
	wantCh := []LineChange{{Path: "a.txt", Lines: 3}, {Path: "dir/b.txt", Lines: 1}}
	if err != nil || !reflect.DeepEqual(ch, wantCh) {
		t.Errorf("ChangedLines = %+v, %v; want %+v", ch, err, wantCh)
	}
	if _, err := r.ChangedLines("--output=/tmp/x", c2); err == nil {
		t.Error("ChangedLines accepted an option as a revision")
	}
}

func TestChangeLog(t *testing.T) {
	g := gittest.New(t)
	g.Write("a.go", "package a\n")
	g.Write("dir/b.go", "package b\n")
	c1 := g.Commit("one")
	g.Write("a.go", "package a // x\n")
	g.Commit("two")
	g.Git("checkout", "-q", "-b", "side")
	g.Write("dir/b.go", "package b // y\n")
	g.Write("dir/c d.go", "package b\n")
	g.Commit("side")
	g.Git("checkout", "-q", "-")
	g.Git("merge", "-q", "--no-ff", "-m", "merge", "side")
	r := open(t, g.Dir)
	log, err := r.ChangeLog("HEAD", 10)
	want := [][]string{{"dir/b.go", "dir/c d.go"}, {"a.go"}, {"a.go", "dir/b.go"}}
	if err != nil || !reflect.DeepEqual(log, want) {
		t.Errorf("ChangeLog = %q, %v; want %q", log, err, want)
	}
	if log, err := r.ChangeLog(c1, 1); err != nil || len(log) != 1 {
		t.Errorf("ChangeLog(c1, 1) = %q, %v", log, err)
	}
	if m, err := r.Message(c1); err != nil || m != "one" {
		t.Errorf("Message = %q, %v", m, err)
	}
	if _, err := r.ChangeLog("--output=/tmp/x", 1); err == nil {
		t.Error("ChangeLog accepted an option as a revision")
	}
}
