package scope

import (
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
)

// A neighbour too large to come whole shows, inside its skeleton, the
// body that calls into the task file and the body the task file calls;
// the other bodies stay elided behind their line pointers.
func TestFocusShowsRelatedBodies(t *testing.T) {
	w := newFake("4b825dc642cb6eb9a060e54bf8d69288fbee4904", []fileSpec{
		{"app/alpha.go", 3, 4},
		{"app/beta.go", 40, 12},
	}, [][3]int{{0, 1, 2}, {1, 0, 1}})
	b := w.facts["app/beta.go"]
	caller := b.Defs[16] // Beta17 calls Alpha2
	b.Refs = append(b.Refs, world.Ref{Name: "Alpha2", Line: caller.Start + 2, In: 17})
	w.facts["app/alpha.go"].Refs = append(w.facts["app/alpha.go"].Refs, world.Ref{Name: "Beta5", Line: 4, In: 1})
	f, err := testFeature("svc", "", map[string]string{"t": `id = "t"
title = "t"
files_touched = ["app/alpha.go"]
`})
	if err != nil {
		t.Fatal(err)
	}
	r, m := runRule(t, w, f, 2200, func(o *Options) { o.NoExtras = false })
	if e := m["app/beta.go"]; e.Tier != TierSkeleton {
		t.Fatalf("app/b.go: %+v, want a skeleton", e)
	}
	var got *File
	for i := range r.Material.Files {
		if r.Material.Files[i].Path == "app/beta.go" {
			got = &r.Material.Files[i]
		}
	}
	src := string(w.content["app/beta.go"])
	cv := CoverageOf(*got, src)
	for _, d := range []world.Def{b.Defs[16], b.Defs[4]} {
		if !Covers(cv.Shown, d.Start, d.End-d.Start+1) {
			t.Errorf("%s (lines %d-%d) not shown:\n%s", d.Name, d.Start, d.End, got.Content)
		}
	}
	if d := b.Defs[30]; Covers(cv.Shown, d.Start+1, 1) || !Covers(cv.Pointed, d.Start+1, 1) {
		t.Errorf("an unrelated body is shown, or not pointed to:\n%s", got.Content)
	}
	if len(r.Budget.Focus) != 2 || r.Budget.Focus[0].Def != "Beta17" || !strings.HasPrefix(r.Budget.Focus[0].Why, "uses the task files' symbols") ||
		r.Budget.Focus[1].Def != "Beta5" || r.Budget.Focus[1].Tokens <= 0 {
		t.Errorf("budget focus %+v", r.Budget.Focus)
	}
	if got.Tokens != r.Manifest.Files[1].Tokens {
		t.Errorf("material tokens %d, manifest %d", got.Tokens, r.Manifest.Files[1].Tokens)
	}
	// With no room beyond the skeleton, nothing is focused and the
	// budget still holds.
	r, _ = runRule(t, w, f, 700, nil)
	if len(r.Budget.Focus) != 0 && r.Budget.Dimensions.Code.Used > r.Budget.Dimensions.Code.Limit {
		t.Errorf("over budget with focus %+v", r.Budget.Focus)
	}
}
