package build

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/git-speed/git-speed/layers/world"
)

// Links come back from the table as they went in, nil lists apart from
// empty ones, and those that name the same things share one copy of each
// string.
func TestLinkTableRoundTrip(t *testing.T) {
	mk := func() *world.Link {
		// Each string its own allocation, as the extractor makes them.
		s := func(v string) string { return strings.Clone(v) }
		return &world.Link{
			Lang: s("go"), Package: s("cache"),
			Defs: []world.LinkDef{{Name: s("Get"), Kind: s("method"), Parent: s("Cache"), Exported: true, Returns: s("*Item")},
				{Name: s("item"), Kind: s("type")}},
			Imports: []world.Import{
				{Path: s("k8s.io/client-go/tools/cache"), Alias: s("c"), Names: []string{s("Store"), s("Get")}, Line: 3, Kind: s("")},
				{Path: s("fmt"), Line: -1},
				{Path: s("os"), Names: []string{}, Line: 1 << 40},
				{Path: s("io"), Names: []string{s("Reader")}, Kind: s("system")},
			},
			Refs: []world.LinkRef{{Name: s("Store"), Qual: s("c"), Kind: s("type"), Count: 2}, {Name: s("x"), Count: 1 << 33}},
		}
	}
	links := []*world.Link{
		mk(), mk(),
		{},
		{Lang: "python", Defs: []world.LinkDef{}, Imports: []world.Import{}, Refs: []world.LinkRef{}},
		{Lang: "js", Refs: []world.LinkRef{{Name: strings.Repeat("x", 1<<16) + "Name"}}},
		nil,
	}
	tab := new(linkTable)
	files := make([]*file, len(links))
	for i, l := range links {
		files[i] = &file{linkEnc: tab.encodeLink(l)}
	}
	want := append([]*world.Link{mk(), mk()}, links[2:]...)
	tab.decodeFiles(files)
	for i, f := range files {
		if !reflect.DeepEqual(f.link, want[i]) {
			t.Errorf("link %d came back as\n%#v\nwant %#v", i, f.link, want[i])
		}
		if f.linkEnc != nil {
			t.Errorf("link %d: its encoding is still held", i)
		}
	}
	a, b := files[0].link, files[1].link
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
	// An import's names have no room past them: appending to one does
	// not write over the next import's.
	_ = append(a.Imports[0].Names, "z")
	if a.Imports[3].Names[0] != "Reader" {
		t.Errorf("names of one import overlap the next's: %q", a.Imports[3].Names)
	}
}

// The table grows past its first size, keeps each string once, and many
// random links still come back as they were.
func TestLinkTableGrows(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	str := func() string {
		if rnd.IntN(5) == 0 {
			return ""
		}
		return "n" + strconv.Itoa(rnd.IntN(20000))
	}
	tab := new(linkTable)
	var links []*world.Link
	var files []*file
	for range 5000 { // past decodeFiles' two-core threshold
		l := &world.Link{Lang: str(), Package: str()}
		for range rnd.IntN(8) {
			l.Defs = append(l.Defs, world.LinkDef{Name: str(), Kind: str(), Parent: str(), Exported: rnd.IntN(2) == 0, Returns: str()})
		}
		for range rnd.IntN(4) {
			im := world.Import{Path: str(), Alias: str(), Line: rnd.IntN(1000), Kind: str()}
			for range rnd.IntN(3) {
				im.Names = append(im.Names, str())
			}
			l.Imports = append(l.Imports, im)
		}
		for range rnd.IntN(30) {
			l.Refs = append(l.Refs, world.LinkRef{Name: str(), Qual: str(), Kind: str(), Count: rnd.IntN(100)})
		}
		links = append(links, l)
		files = append(files, &file{linkEnc: tab.encodeLink(l)})
	}
	distinct := tab.strs.Len()
	if distinct < 1024 {
		t.Fatalf("table holds %d strings, want more than a first table's size (the table grew)", distinct)
	}
	seen := map[string]bool{}
	for n := range distinct {
		s := tab.strs.Text(uint32(n))
		if seen[s] || s == "" {
			t.Fatalf("string %q is in the table twice or empty", s)
		}
		seen[s] = true
	}
	tab.decodeFiles(files)
	for i, f := range files {
		if !reflect.DeepEqual(f.link, links[i]) {
			t.Fatalf("link %d came back as\n%#v\nwant %#v", i, f.link, links[i])
		}
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
	setTerms(f, []world.Term{{Text: "kubelet-unheld-term", Fields: 1, Count: 2}}, nil)
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
