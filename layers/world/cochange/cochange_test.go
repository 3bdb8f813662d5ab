package cochange

import (
	"reflect"
	"testing"
)

func TestPartners(t *testing.T) {
	log := [][]string{
		{"a.go", "b.go"},
		{"a.go", "b.go", "c.go"},
		{"a.go", "c.go", "c.go"},
		{"b.go"},
		{"a.go", "d.go"},
	}
	x := Mine(log, Options{HalfLife: 1000, MaxFiles: 10})
	if n := x.Changes("a.go"); n != 4 {
		t.Errorf("Changes(a.go) = %d, want 4", n)
	}
	got := x.Partners("a.go", 2, 0)
	if len(got) != 2 || got[0].Path != "b.go" || got[1].Path != "c.go" || got[0].Commits != 2 || got[1].Commits != 2 {
		t.Fatalf("Partners(a.go) = %+v", got)
	}
	if !(got[0].Score > got[1].Score) || got[0].Score > 1 || got[1].Score <= 0 {
		t.Errorf("scores %+v: want b.go (newer pair) above c.go, within (0, 1]", got)
	}
	if p := x.Partners("a.go", 1, 1); len(p) != 1 || p[0].Path != "b.go" {
		t.Errorf("Partners max 1 = %+v", p)
	}
	if p := x.Partners("nope.go", 1, 0); p != nil {
		t.Errorf("Partners of an unknown path = %+v", p)
	}
	// A commit over MaxFiles is skipped.
	y := Mine([][]string{{"a", "b", "c"}, {"a", "b"}}, Options{MaxFiles: 2})
	if p := y.Partners("a", 1, 0); len(p) != 1 || p[0].Commits != 1 || p[0].Score != 1 {
		t.Errorf("Partners with a sweep = %+v", p)
	}
	// Deterministic.
	if !reflect.DeepEqual(x.Partners("a.go", 1, 0), Mine(log, Options{HalfLife: 1000, MaxFiles: 10}).Partners("a.go", 1, 0)) {
		t.Error("same history, other partners")
	}
	var nilIndex *Index
	if nilIndex.Partners("a", 1, 0) != nil || nilIndex.Changes("a") != 0 {
		t.Error("nil index answers")
	}
}

func FuzzMine(f *testing.F) {
	f.Add("a b\nb c\na c d", "a")
	f.Fuzz(func(t *testing.T, hist, path string) {
		var log [][]string
		for _, l := range splitLines(hist) {
			log = append(log, splitFields(l))
		}
		for _, p := range Mine(log, Options{}).Partners(path, 1, 0) {
			if p.Score < 0 || p.Score > 1+1e-9 || p.Commits < 1 || p.Path == path {
				t.Fatalf("partner %+v", p)
			}
		}
	})
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

func splitFields(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
			}
			start = -1
		} else if start < 0 {
			start = i
		}
	}
	return out
}
