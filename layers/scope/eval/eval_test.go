package eval

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/scope"
	"github.com/git-speed/git-speed/layers/world"
)

var update = flag.Bool("update", false, "rewrite testdata goldens")

type memWorld struct {
	g     *world.Graph
	src   map[string]string
	facts map[string]*world.Facts
}

func (w *memWorld) Tree() string                         { return w.g.Tree }
func (w *memWorld) Graph() *world.Graph                  { return w.g }
func (w *memWorld) Facts(p string) (*world.Facts, error) { return w.facts[p], nil }
func (w *memWorld) Content(p string) ([]byte, error) {
	s, ok := w.src[p]
	if !ok {
		return nil, errors.New("no " + p)
	}
	return []byte(s), nil
}

// newWorld makes files of n functions each, with edges "a>b" (a uses b).
func newWorld(tree string, files map[string]int, edges ...string) *memWorld {
	w := &memWorld{g: &world.Graph{Tree: tree}, src: map[string]string{}, facts: map[string]*world.Facts{}}
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		var src, skel strings.Builder
		fmt.Fprintf(&src, "package x\n")
		skel.WriteString("package x\n")
		fc := &world.Facts{Lang: "go"}
		for i := 0; i < files[p]; i++ {
			start := 2 + i*5
			fmt.Fprintf(&src, "func F%d() {\n\ta()\n\tb()\n\tc()\n}\n", i)
			fmt.Fprintf(&skel, "func F%d() { … } // lines %d-%d\n", i, start, start+4)
			fc.Defs = append(fc.Defs, world.Def{Name: fmt.Sprintf("F%d", i), Kind: "function", Start: start, End: start + 4})
		}
		fc.Skeleton, fc.Lines = skel.String(), 1+5*files[p]
		w.src[p], w.facts[p] = src.String(), fc
		w.g.Files = append(w.g.Files, world.FileEntry{Path: p, Lang: "go", Size: int64(src.Len()), Lines: fc.Lines, Tokens: src.Len() / 3, Blob: tree + ":" + p})
		w.g.Links = append(w.g.Links, fc.Link())
	}
	for _, e := range edges {
		a, b, _ := strings.Cut(e, ">")
		w.g.Edges = append(w.g.Edges, world.Edge{From: w.g.Index(a), To: w.g.Index(b), Refs: 2, Weight: 2})
	}
	return w
}

type memHistory struct {
	commits []Commit
	worlds  map[string]*memWorld
}

func (h *memHistory) Commits(n int) ([]Commit, error) { return h.commits, nil }
func (h *memHistory) WorldAt(c string) (scope.World, error) {
	w, ok := h.worlds[c]
	if !ok {
		return nil, errors.New("no world at " + c)
	}
	return w, nil
}

func TestRun(t *testing.T) {
	w := newWorld("tree1", map[string]int{"a.go": 3, "a_test.go": 2, "b.go": 40, "c.go": 2, "d.go": 2, "big.go": 400},
		"a.go>b.go", "b.go>c.go", "a_test.go>a.go", "a.go>big.go")
	h := &memHistory{
		commits: []Commit{
			{ID: "c2", Parent: "c1", Changed: []string{"a.go", "a_test.go", "b.go", "c.go", "d.go", "new.go", "README.md"}, Lines: map[string]int{"a.go": 50, "b.go": 3},
				// b.go and c.go come whole (c.go dropped by seed); d.go is
				// no candidate.
				Hunks: map[string][]Hunk{"b.go": {{Start: 2, Count: 1}, {Start: 4, Count: 2}}, "c.go": {{Start: 3, Count: 0}}, "d.go": {{Start: 1, Count: 1}}}},
			{ID: "c3", Parent: "c1", Changed: []string{"a.go", "README.md"}},
			{ID: "c4", Parent: "c0", Changed: []string{"a.go", "b.go"}},
			{ID: "c5"},
		},
		worlds: map[string]*memWorld{"c1": w},
	}
	c4, _ := tokens.New("chars4")
	rep, err := Run(h, EvalOptions{Budget: 3000, Counter: c4, Cases: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cases != 1 || len(rep.Skipped) != 3 {
		t.Fatalf("cases %d skipped %+v", rep.Cases, rep.Skipped)
	}
	cs := rep.Detail[0]
	if cs.Seed != "a.go" || strings.Join(cs.Truth, ",") != "a_test.go,b.go,c.go,d.go,new.go" {
		t.Errorf("seed %s truth %v", cs.Seed, cs.Truth)
	}
	if got := cs.Results[scope.PolicyValue]["d.go"]; got != "not_candidate@none" {
		t.Errorf("d.go: %s", got)
	}
	if got := cs.Results[scope.PolicyValue]["new.go"]; got != "absent@none" {
		t.Errorf("new.go: %s", got)
	}
	if got := cs.Results[scope.PolicyValue]["a_test.go"]; got != "full@1" {
		t.Errorf("a_test.go: %s", got)
	}
	if got := cs.Lines[scope.PolicyValue]; got["b.go"] != "2/2/2" || got["c.go"] != "1/1/1" || got["d.go"] != "0/0/1" {
		t.Errorf("lines judged (value): %v", got)
	}
	if got := cs.Lines[scope.PolicySeed]; got["c.go"] != "0/0/1" {
		t.Errorf("lines judged (seed): %v", got)
	}
	golden(t, "report.json", rep.JSON())
	golden(t, "report.txt", []byte(rep.Text()))
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs (go test -update rewrites it):\n%s", name, got)
	}
}

func TestIsTest(t *testing.T) {
	for p, want := range map[string]bool{"a_test.go": true, "x/test_a.py": true, "a.spec.ts": true, "FooTest.java": true,
		"tests/x.py": true, "a.go": false, "latest.go": false, "Test.java": false, "contest.py": false} {
		if IsTest(p) != want {
			t.Errorf("IsTest(%s) = %v", p, !want)
		}
	}
}
