package gitstore

import (
	"reflect"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
)

func TestStatusAndRecentChanges(t *testing.T) {
	g := gittest.New(t)
	g.Write("a.txt", "1\n")
	g.Write("dir/b.txt", "b\n")
	c1 := g.Commit("one\n\nwith a body")
	g.Write("a.txt", "2\n")
	c2 := g.Commit("two")
	g.Write("dir/b.txt", "edited\n")
	g.Write("new file.txt", "x\n")
	r := open(t, g.Dir)

	st, err := r.Status(true)
	if err != nil {
		t.Fatal(err)
	}
	want := []StatusEntry{{Path: "dir/b.txt", Code: " M"}, {Path: "new file.txt", Code: "??"}}
	if !reflect.DeepEqual(st, want) {
		t.Errorf("Status(true) = %+v, want %+v", st, want)
	}
	if st, err = r.Status(false); err != nil || !reflect.DeepEqual(st, want[:1]) {
		t.Errorf("Status(false) = %+v, %v, want %+v", st, err, want[:1])
	}
	if n := r.IndexBytes(); n < 100 {
		t.Errorf("IndexBytes = %d for an index of two files", n)
	}

	log, err := r.RecentChanges("HEAD", 10)
	if err != nil {
		t.Fatal(err)
	}
	wantLog := []CommitChange{
		{Commit: c2, Message: "two", Paths: []string{"a.txt"}},
		{Commit: c1, Message: "one\n\nwith a body", Paths: []string{"a.txt", "dir/b.txt"}},
	}
	if !reflect.DeepEqual(log, wantLog) {
		t.Errorf("RecentChanges = %+v, want %+v", log, wantLog)
	}
	if _, err := r.RecentChanges("-x", 1); err == nil {
		t.Error("an option was taken for a revision")
	}
}
