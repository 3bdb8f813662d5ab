package build

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/extract"
	"github.com/git-speed/git-speed/layers/world/terms"
	"github.com/git-speed/git-speed/layers/world/worldtest"
)

// checkFactsRoundTrip extracts src as lang, gives it its term vector as a
// build does, and checks that the facts decode as they were encoded.
func checkFactsRoundTrip(t *testing.T, name, lang string, src []byte) {
	t.Helper()
	facts, err := extract.Extract(lang, src, extract.Options{Path: name})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	terms.With(facts, src, func(vec []world.Term, _ []uint32) {
		facts.Terms = vec
		b, err := encodeFacts(facts)
		if err != nil {
			t.Fatalf("%s: encode: %v", name, err)
		}
		got, err := decodeFacts(b)
		if err != nil {
			t.Fatalf("%s: decode: %v", name, err)
		}
		if !reflect.DeepEqual(got, withoutEmptyLists(facts)) {
			t.Errorf("%s (%s): facts differ after a round trip\n got %+v\nwant %+v", name, lang, got, facts)
		}
		facts.Terms = nil
	})
}

// withoutEmptyLists is a copy of f whose empty lists are nil: facts store
// an empty list and none alike (format 3 did too), and decode both as nil.
func withoutEmptyLists(f *world.Facts) *world.Facts {
	g := *f
	if len(g.Defs) == 0 {
		g.Defs = nil
	}
	if len(g.Refs) == 0 {
		g.Refs = nil
	}
	if len(g.Terms) == 0 {
		g.Terms = nil
	}
	if len(g.Imports) == 0 {
		g.Imports = nil
	} else {
		g.Imports = append([]world.Import(nil), g.Imports...)
		for i := range g.Imports {
			if len(g.Imports[i].Names) == 0 {
				g.Imports[i].Names = nil
			}
		}
	}
	return &g
}

// TestFactsRoundTripGoldens: the first file of every extractor and format
// golden.
func TestFactsRoundTripGoldens(t *testing.T) {
	n := 0
	for _, dir := range []string{"../extract/testdata", "../formats/testdata"} {
		paths, err := filepath.Glob(filepath.Join(dir, "*", "*.txtar"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			lang := filepath.Base(filepath.Dir(p))
			if !extract.Supported(lang) {
				continue
			}
			ar, err := txtar.ParseFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if len(ar.Files) == 0 {
				continue
			}
			checkFactsRoundTrip(t, p, lang, ar.Files[0].Data)
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d goldens found", n)
	}
}

// TestFactsRoundTripCorpus: every file of a real tree, this repository's
// own or those under the directories GIT_SPEED_FACTS_CORPUS lists
// (kubernetes, say).
func TestFactsRoundTripCorpus(t *testing.T) {
	if os.Getenv("GIT_SPEED_FACTS_CORPUS") == "" {
		if testing.Short() {
			t.Skip("a whole tree's facts")
		}
		t.Setenv("GIT_SPEED_FACTS_CORPUS", "../../..")
	}
	paths, langs, srcs := worldtest.DirFiles(t, "GIT_SPEED_FACTS_CORPUS", extract.Supported)
	for j := range paths {
		checkFactsRoundTrip(t, paths[j], langs[j], srcs[j])
	}
	t.Logf("%d files", len(paths))
	if len(paths) < 100 {
		t.Fatalf("only %d files", len(paths))
	}
}

// Facts the extractors do not make today round-trip too: a skeleton that
// repeats nothing, qualified names and parents of no known shape, kinds
// outside the list, far and backward lines, long terms.
func TestFactsRoundTripOdd(t *testing.T) {
	long := strings.Repeat("x", 300)
	cases := []*world.Facts{
		{},
		{Lang: "go", Skeleton: "no pieces at all"},
		{Lang: "yaml", Defs: []world.Def{
			{Name: "a", Qualified: "a", Start: 10, End: 4, Signature: "a: {…}"},
			{Name: "b", Qualified: "a[3].b", Parent: "a[3]", Start: 1 << 40, End: 1<<40 + 2, Signature: "b: 1"},
			{Name: "c", Qualified: "zz", Parent: "a[3]", Start: 0, End: 0, Signature: "c"},
			{Name: "", Qualified: "", Parent: "nowhere", Doc: "doc of nothing", Returns: "T"},
			{Name: "d", Qualified: "a > d", Parent: "a", Exported: true, Signature: "d d d"},
		},
			Skeleton: "a: {…}  # lines 10-4\n  b: 1  # lines 1099511627776-1099511627778\n// doc of nothing\n# line 0\n" + long},
		{Lang: "x", Refs: []world.Ref{
			{Name: "n", Line: 5, In: 0, Kind: "call"},
			{Name: "n", Qual: "q", Line: 2, In: 0, Kind: "strange"},
			{Name: long, Line: 1 << 50, Kind: world.RefFixture},
		}},
		{Lang: "x", Terms: []world.Term{{Text: long, Fields: 200, Count: 1 << 31}, {Text: long + "y", Fields: 63}, {Text: "", Fields: 62, Count: 1}, {Text: "a"}}},
		{Lang: "go", Imports: []world.Import{{Path: "fmt", Alias: "format", Line: 3}, {Path: "os", Line: 4}},
			Skeleton: "import (\n\tformat \"fmt\"\n\t\"os\"\n)\n"},
	}
	for i, f := range cases {
		b, err := encodeFacts(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeFacts(b)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, f) {
			t.Errorf("case %d: got %+v\nwant %+v", i, got, f)
		}
	}
}

// The facts format removes what repeats: a Go file's skeleton costs a
// fraction of its text.
func TestFactsSkeletonPieces(t *testing.T) {
	src := []byte(`package p

import (
	"context"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Informer provides access to a shared informer and lister.
type Informer interface {
	// Lister lists what the informer holds.
	Lister() metav1.ListOptions
}

// NewInformer constructs a new informer for the type.
func NewInformer(ctx context.Context, options metav1.ListOptions) Informer {
	return nil
}
`)
	facts, err := extract.Extract(world.LangGo, src, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := &factsCodec{}
	c.skeleton(facts)
	if len(facts.Skeleton) < 200 || len(c.lit)+len(c.pieces) > len(facts.Skeleton)/3 {
		t.Fatalf("skeleton of %d bytes stored as %d literal and %d of pieces:\n%s", len(facts.Skeleton), len(c.lit), len(c.pieces), c.lit)
	}
}

// factsCodec.index and indexWindow find what strings.Index finds (the
// window cut at skipFrom bytes: a text before, across and after it).
func FuzzFactsCodecIndex(f *testing.F) {
	long := strings.Repeat("lines 1-2 self.x = y\n", 40)
	for _, at := range []int{0, skipFrom - 20, skipFrom - 3, skipFrom, skipFrom + 1, skipFrom + 7, len(long)} {
		f.Add(long[:at]+"def find_me_here(a, b):"+long[at:], "def find_me_here(a, b):")
	}
	f.Add(long, "self.x = y\nlines 1-3")
	f.Add("def get(self, key): lines 3-9\n    self.path = path", "self.path = path")
	f.Add("abcabcabdabcabd", "abd")
	f.Add("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxy", "xxxxxxxxxxxxxxxxy")
	f.Add("aab", "ab")
	f.Fuzz(func(t *testing.T, s, p string) {
		if len(p) < 2 || len(p) > 255 {
			return
		}
		var c factsCodec
		want := strings.Index(s, p)
		if got := c.index(s, p); got != want {
			t.Fatalf("index(%q, %q) = %d, strings.Index %d", s, p, got, want)
		}
		if got := c.indexWindow(s, p); got != want {
			t.Fatalf("indexWindow(%q, %q) = %d, strings.Index %d", s, p, got, want)
		}
	})
}

// Names nested thousands deep round-trip (the encoder stores them once
// their joins grow large), and a damaged blob that asks for more than its
// budget of joined names fails rather than allocating it.
func TestFactsDeepNames(t *testing.T) {
	const depth = 6000
	deep := &world.Facts{Lang: "json", Defs: make([]world.Def, depth)}
	q := ""
	for i := range deep.Defs {
		d := world.Def{Name: "a", Kind: "key", Qualified: "a", Signature: "a: {…}"}
		if i > 0 {
			d.Parent, d.Qualified = q, q+".a"
		}
		deep.Defs[i], q = d, d.Qualified
	}
	b, err := encodeFacts(deep)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := decodeFacts(b); err != nil || !reflect.DeepEqual(got, deep) {
		t.Fatalf("deep names do not round-trip: %v", err)
	}
	// The same, each name joined from its parent's: a few nested names
	// decode, 6000 (36 MB joined from 50 KB) do not.
	if f, err := decodeFacts(chainedNames(10)); err != nil || len(f.Defs) != 10 || f.Defs[9].Qualified != "a.a.a.a.a.a.a.a.a.a" {
		t.Fatalf("10 nested names: %v", err)
	}
	if _, err := decodeFacts(chainedNames(depth)); err == nil {
		t.Fatal("a blob joining 36 MB of names from 50 KB decoded")
	}
}

// chainedNames encodes facts of n definitions "a", each the child of the
// one before, whatever the encoder's limits.
func chainedNames(n int) []byte {
	w := borrowWriter()
	defer w.release()
	w.str("json")
	w.str("")
	w.uint(uint64(n))
	for i := 0; i < n; i++ {
		if i == 0 {
			w.body = append(w.body, qualName<<qualShift)
		} else {
			w.body = append(w.body, qualDotted<<qualShift|parentDef<<parentShift)
		}
		w.str("a")
		w.str("key")
		if i > 0 {
			w.uint(1)
		}
		w.uint(0)
		w.uint(0)
		w.str("")
		w.str("")
		w.str("")
	}
	w.body = append(w.body, make([]byte, 9)...) // imports, refs, skeleton (3), lines, tokens, skeleton tokens, partial
	w.str("")                                   // warning
	w.uint(0)                                   // terms
	return w.bytes(factsFormat)
}

func FuzzFactsDecode(f *testing.F) {
	add := func(facts *world.Facts) {
		b, err := encodeFacts(facts)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, lang := range []string{world.LangGo, world.LangPython, "yaml", "markdown"} {
		paths, _ := filepath.Glob(filepath.Join("../extract/testdata", lang, "*.txtar"))
		more, _ := filepath.Glob(filepath.Join("../formats/testdata", lang, "*.txtar"))
		for _, p := range append(paths, more...)[:1] {
			ar, err := txtar.ParseFile(p)
			if err != nil {
				f.Fatal(err)
			}
			facts, err := extract.Extract(lang, ar.Files[0].Data, extract.Options{})
			if err != nil {
				f.Fatal(err)
			}
			terms.With(facts, ar.Files[0].Data, func(vec []world.Term, _ []uint32) { facts.Terms = vec; add(facts); facts.Terms = nil })
		}
	}
	add(&world.Facts{Lang: "x", Terms: []world.Term{{Text: "abc", Fields: 70, Count: 3}, {Text: "abd", Fields: 1}}})
	f.Fuzz(func(t *testing.T, b []byte) {
		facts, err := decodeFacts(b)
		if err != nil {
			return
		}
		for _, r := range facts.Refs {
			if r.In < 0 || r.In > len(facts.Defs) {
				t.Fatalf("reference in definition %d of %d", r.In, len(facts.Defs))
			}
		}
		again, err := encodeFacts(facts)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := decodeFacts(again); err != nil || !reflect.DeepEqual(got, facts) {
			t.Fatalf("decoded facts do not round-trip: %v", err)
		}
	})
}
