package app

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
)

// A long-lived session's symbols, found through its name index, are what
// asking every file finds.
func TestNameIndexFindsWhatAScanFinds(t *testing.T) {
	r := gittest.New(t)
	r.Write("go.mod", "module example.com/m\n\ngo 1.22\n")
	// Five packages each define Shared and eight F<n>, overlapping by
	// name across packages; p1 to p4 call p0.Shared.
	for p := 0; p < 5; p++ {
		src := fmt.Sprintf("package p%d\n\n", p)
		if p > 0 {
			src += "import \"example.com/m/p0\"\n\nvar _ = p0.Shared()\n\n"
		}
		for i := 0; i < 8; i++ {
			src += fmt.Sprintf("func F%d() int { return %d }\n\n", i+p, i)
		}
		src += "func Shared() int { return 1 }\n"
		r.Write(fmt.Sprintf("p%d/f.go", p), src)
	}
	r.Commit("init")
	s, err := Open(Options{Dir: r.Dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for _, name := range []string{"Shared", "F3", "F11", "p0.Shared", "Nothing"} {
		got, err := s.Symbols(ctx, SymbolsRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		w, release, err := s.world(ctx, "HEAD", true)
		if err != nil {
			t.Fatal(err)
		}
		if s.definers(w) == nil {
			t.Fatal("a long-lived session keeps no name index")
		}
		want, err := findSymbol(w.Graph(), w.Facts, nil, name)
		release()
		if err != nil {
			t.Fatal(err)
		}
		want.Tree = got.Tree
		// The scan finds what the graph resolves; the textual uses come after.
		uses := slices.DeleteFunc(slices.Clone(got.References), func(r SymbolRef) bool { return r.Resolved })
		got.References = slices.DeleteFunc(got.References, func(r SymbolRef) bool { return !r.Resolved })
		got.UsesCut = false
		if name == "p0.Shared" && len(uses) != 4 {
			t.Errorf("p0.Shared: textual uses %+v", uses)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: index gives %+v, a scan %+v", name, got, want)
		}
		if name == "Shared" && (len(got.Definitions) != 5 || len(got.References) < 4) {
			t.Errorf("Shared: %+v", got)
		}
	}
}
