package build

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/git-speed/git-speed/layers/world"
)

// Two links that name the same things share one copy of each string once
// interned, and keep their values.
func TestInternerSharesLinkStrings(t *testing.T) {
	mk := func() *world.Link {
		// Each string its own allocation, as the extractor makes them.
		s := func(v string) string { return strings.Clone(v) }
		return &world.Link{
			Lang: s("go"), Package: s("cache"),
			Defs:    []world.LinkDef{{Name: s("Get"), Kind: s("method"), Parent: s("Cache"), Exported: true, Returns: s("*Item")}},
			Imports: []world.Import{{Path: s("k8s.io/client-go/tools/cache"), Alias: s("c"), Names: []string{s("Store")}, Line: 3, Kind: s("")}},
			Refs:    []world.LinkRef{{Name: s("Store"), Qual: s("c"), Kind: s("type"), Count: 2}},
		}
	}
	a, b := mk(), mk()
	want := mk()
	in := newInterner()
	in.link(a)
	in.link(b)
	if !reflect.DeepEqual(a, want) || !reflect.DeepEqual(b, want) {
		t.Fatalf("interning changed a link:\n%+v\n%+v\nwant %+v", a, b, want)
	}
	same := func(x, y string) bool { return unsafe.StringData(x) == unsafe.StringData(y) }
	for _, p := range [][2]string{
		{a.Lang, b.Lang}, {a.Package, b.Package},
		{a.Defs[0].Name, b.Defs[0].Name}, {a.Defs[0].Parent, b.Defs[0].Parent}, {a.Defs[0].Returns, b.Defs[0].Returns},
		{a.Imports[0].Path, b.Imports[0].Path}, {a.Imports[0].Alias, b.Imports[0].Alias}, {a.Imports[0].Names[0], b.Imports[0].Names[0]},
		{a.Refs[0].Name, b.Refs[0].Name}, {a.Refs[0].Qual, b.Refs[0].Qual}, {a.Refs[0].Kind, b.Refs[0].Kind},
		{a.Refs[0].Name, a.Imports[0].Names[0]},
	} {
		if !same(p[0], p[1]) {
			t.Errorf("%q is held twice", p[0])
		}
	}
	// A name cut from a larger string is kept as a copy of its own, so
	// the larger one can go.
	big := strings.Repeat("x", 1<<16) + "Name"
	l := &world.Link{Refs: []world.LinkRef{{Name: big[1<<16:]}}}
	in.link(l)
	if l.Refs[0].Name != "Name" || same(l.Refs[0].Name, big[1<<16:]) {
		t.Errorf("a substring was kept as it was: %q", l.Refs[0].Name)
	}
	var none *interner
	none.link(l) // a nil table changes nothing
	in.link(nil)
}

// The table grows past its first size and still gives each string its
// one copy.
func TestInternerGrows(t *testing.T) {
	in := newInterner()
	first := map[string]string{}
	for i := range 5000 {
		s := strings.Clone(strconv.Itoa(i))
		first[s] = in.str(s)
	}
	if in.n != 5000 || len(in.slots) < 5000*4/3 {
		t.Fatalf("table holds %d strings in %d slots, want 5000 at most 3/4 full", in.n, len(in.slots))
	}
	for s, kept := range first {
		got := in.str(strings.Clone(s))
		if got != s || unsafe.StringData(got) != unsafe.StringData(kept) {
			t.Fatalf("%q was interned as a second copy after growing", s)
		}
	}
	if in.n != 5000 || in.str("") != "" || in.n != 5000 {
		t.Errorf("looking strings up again added to the table: %d", in.n)
	}
}

// The term table is emptied when the last run holding it lets go, and
// not before.
func TestHoldTermsDropsTableWhenIdle(t *testing.T) {
	size := func() int {
		termTable.Lock()
		defer termTable.Unlock()
		return termTable.num.Len()
	}
	r1, r2 := holdTerms(), holdTerms()
	f := &file{}
	setTerms(f, []world.Term{{Text: "kubelet-unheld-term", Fields: 1, Count: 2}})
	if size() == 0 {
		t.Fatal("setTerms added nothing to the table")
	}
	r1()
	r1() // twice is once
	if got := unpackTerms(f.terms); len(got) != 1 || got[0].Text != "kubelet-unheld-term" {
		t.Fatalf("vector after one release = %+v", got)
	}
	r2()
	if n := size(); n != 0 {
		t.Errorf("table holds %d terms after every run let go", n)
	}
}
