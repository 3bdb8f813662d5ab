package gitstore

import (
	"reflect"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
)

func TestDiffHunks(t *testing.T) {
	g := gittest.New(t)
	g.Write("a.txt", "1\n2\n3\n4\n5\n")
	g.Write("gone.txt", "x\ny\n")
	g.Write("dash.txt", "-- a\nb\n")
	c1 := g.Commit("one")
	g.Write("a.txt", "1\nchanged\n3\n4\n5\nadded\n")
	g.Remove("gone.txt")
	g.Write("new.txt", "n\n")
	g.Write("dash.txt", "b\n")
	c2 := g.Commit("two")
	r := open(t, g.Dir)
	got, err := r.DiffHunks(c1, c2)
	want := map[string][]Hunk{
		"a.txt":    {{Start: 2, Count: 1}, {Start: 5, Count: 0}},
		"gone.txt": {{Start: 1, Count: 2}},
		"new.txt":  {{Start: 0, Count: 0}},
		"dash.txt": {{Start: 1, Count: 1}},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("DiffHunks = %+v, %v; want %+v", got, err, want)
	}
	if _, err := r.DiffHunks("--output=/tmp/x", c2); err == nil {
		t.Error("DiffHunks accepted an option as a revision")
	}
}

func FuzzParseHunks(f *testing.F) {
	f.Add("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1 @@\n-a\n--- b\n")
	f.Add("@@ -z +1 @@\n")
	f.Add("diff --git a/\"q\" b/\"q\"\n--- \"a/\\tq\"\n+++ /dev/null\n@@ -3 +0,0 @@\n")
	f.Fuzz(func(t *testing.T, s string) {
		hs, err := parseHunks(s)
		if err != nil {
			return
		}
		for p := range hs {
			if p == "" {
				t.Fatalf("hunks under an empty path from %q", s)
			}
		}
	})
}
