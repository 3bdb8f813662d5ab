package graph

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
)

// buildGoTree writes files (path → content) under root and builds their
// graph with the real extractor.
func buildGoTree(t *testing.T, root string, files map[string]string) *world.Graph {
	t.Helper()
	var paths []string
	for p, c := range files {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		if p != "go.mod" {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	return Build(buildInput(t, root, paths, extractLink))
}

// TestGoTypedMembers checks that a Go member links to the type the code
// says its receiver has, and nowhere else, with the real extractor.
func TestGoTypedMembers(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a.go": "package a\n\nimport \"example.com/m/b\"\n\ntype T struct {\n\tInner b.U\n\tb.Emb\n}\n\nfunc (t *T) M() {}\n\nfunc New() *T { return &T{} }\n",
		"b/b.go": "package b\n\ntype U struct{}\n\nfunc (u U) Close() {}\n\ntype Emb struct{}\n\nfunc (Emb) Promoted() {}\n",
		// Decoys: the same member names on a type the users also name.
		"c/other.go": "package c\n\ntype X struct{ Inner int }\n\nfunc (X) M() {}\n\nfunc (X) Close() {}\n\nfunc (X) Promoted() {}\n",
		// Through a constructor, a type switch and an external type.
		"c/use.go": "package c\n\nimport (\n\t\"net/http\"\n\n\t\"example.com/m/a\"\n)\n\nfunc f(r *http.Request, v any) {\n\tvar x X\n\t_ = x\n\tt := a.New()\n\tt.M()\n\tt.Inner.Close()\n\tt.Promoted()\n\tr.Close = true\n\tswitch y := v.(type) {\n\tcase *a.T:\n\t\ty.M()\n\t}\n}\n",
		// A field whose type another file of the package imports.
		"d/types.go": "package d\n\nimport \"example.com/m/b\"\n\ntype H struct{ u b.U }\n",
		"d/use.go":   "package d\n\nfunc (h H) g() { h.u.Close() }\n",
		// Ranging over a slice of a type of the tree.
		"e/e.go": "package e\n\nimport \"example.com/m/a\"\n\nfunc g(ts []*a.T) {\n\tfor _, t := range ts {\n\t\tt.M()\n\t}\n}\n",
	}
	g := buildGoTree(t, root, files)
	got := map[[2]string]int{}
	for _, e := range g.Edges {
		got[[2]string{g.Files[e.From].Path, g.Files[e.To].Path}] = e.Refs
	}
	for _, want := range [][2]string{
		{"c/use.go", "a/a.go"},
		{"a/a.go", "b/b.go"},
		{"d/use.go", "d/types.go"},
		{"d/use.go", "b/b.go"},
		{"e/e.go", "a/a.go"},
	} {
		if got[want] == 0 {
			t.Errorf("no edge %s -> %s", want[0], want[1])
		}
	}
	// use.go names X once (var x X); none of the members it uses is X's.
	if n := got[[2]string{"c/use.go", "c/other.go"}]; n != 1 {
		t.Errorf("c/use.go -> c/other.go has %d refs, want 1 (the type X only)", n)
	}
	if n := got[[2]string{"e/e.go", "c/other.go"}]; n != 0 {
		t.Errorf("e/e.go -> c/other.go has %d refs, want none", n)
	}
}

// TestGoTypedCycles: types that embed each other, variables defined by
// each other and wide embedding end, with no edge guessed.
func TestGoTypedCycles(t *testing.T) {
	root := t.TempDir()
	var wide strings.Builder
	wide.WriteString("package w\n\n")
	for k := 0; k < 12; k++ {
		fmt.Fprintf(&wide, "type E%d struct {\n", k)
		for j := 0; j < 12; j++ {
			fmt.Fprintf(&wide, "\tE%d\n", (k+j+1)%12)
		}
		wide.WriteString("}\n\n")
	}
	wide.WriteString("func f(e E0) { e.Missing() }\n\nvar a = b\nvar b = a\n\nfunc g() { a.Missing() }\n")
	files := map[string]string{
		"go.mod":   "module example.com/m\n\ngo 1.22\n",
		"w/w.go":   wide.String(),
		"w/o.go":   "package w\n\ntype O struct{}\n\nfunc (O) Missing() {}\n",
		"w/use.go": "package w\n\ntype A struct{ B }\ntype B struct{ A }\n\nfunc h(x A) { x.Missing() }\n",
	}
	g := buildGoTree(t, root, files)
	for _, e := range g.Edges {
		if g.Files[e.To].Path == "w/o.go" {
			t.Errorf("edge %s -> w/o.go: no receiver there has type O", g.Files[e.From].Path)
		}
	}
}
