package terms

import (
	"bytes"
	"encoding/binary"
	"github.com/git-speed/git-speed/internal/lex"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
)

// Of's content pass, which splits each distinct token once, gives the
// vector a plain word-by-word pass gives.
func TestOfCountsLikeWordByWord(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "strings", "*.go"))
	if len(files) == 0 {
		t.Skip("no GOROOT sources")
	}
	for _, f := range files[:min(8, len(files))] {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := acc{}
		Words(src, func(tok string) { want.addWord(tok, Content) })
		var w []world.Term
		for _, e := range want {
			w = append(w, *e)
		}
		got := Of(nil, src)
		if len(got) != len(w) {
			t.Fatalf("%s: %d terms, want %d", f, len(got), len(w))
		}
		byText := map[string]world.Term{}
		for _, e := range w {
			byText[e.Text] = e
		}
		for _, e := range got {
			if !reflect.DeepEqual(e, byText[e.Text]) {
				t.Fatalf("%s: term %+v, want %+v", f, e, byText[e.Text])
			}
		}
	}
}

// ofByAcc is Of written plainly: every token added to an acc, each
// content token split and stemmed at every occurrence, the vector sorted
// with sort.Slice. Of must give exactly its vector.
func ofByAcc(f *world.Facts, content []byte) []world.Term {
	a := acc{}
	if f != nil && SecretValues(f.Lang) {
		content = []byte(f.Skeleton)
	}
	Words(content, func(tok string) { a.addWord(tok, Content) })
	if f != nil {
		for _, d := range f.Defs {
			a.addWord(d.Name, Def)
			if d.Doc != "" {
				forWords(d.Doc, func(w string) { a.addWord(w, DocLine) })
			}
		}
		for _, im := range f.Imports {
			forWords(im.Path, func(w string) { a.addWord(w, Import) })
			for _, n := range im.Names {
				a.addWord(n, Import)
			}
		}
		if f.Lang == "markdown" {
			for _, h := range headings(content) {
				forWords(h, func(w string) { a.addWord(w, Heading) })
			}
		}
	}
	out := make([]world.Term, 0, len(a))
	for _, t := range a {
		out = append(out, *t)
	}
	if len(out) > MaxTerms {
		sort.Slice(out, func(i, j int) bool {
			ni, nj := out[i].Fields&^(Content|Ident) != 0, out[j].Fields&^(Content|Ident) != 0
			if ni != nj {
				return ni
			}
			if out[i].Count != out[j].Count {
				return out[i].Count > out[j].Count
			}
			return out[i].Text < out[j].Text
		})
		out = out[:MaxTerms]
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	if len(out) == 0 {
		return nil // as Of
	}
	return out
}

// factsOf makes facts for a test from a text: its long words as
// definitions with the line after as their doc, its lines with a slash as
// imports.
func factsOf(lang string, src []byte) *world.Facts {
	f := &world.Facts{Lang: lang, Skeleton: string(src)}
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		if strings.Contains(l, "/") && len(f.Imports) < 50 {
			f.Imports = append(f.Imports, world.Import{Path: l, Names: strings.Fields(l)})
		}
		for _, w := range strings.Fields(l) {
			if len(w) > 12 && len(f.Defs) < 200 {
				d := world.Def{Name: w}
				if i+1 < len(lines) {
					d.Doc = lines[i+1]
				}
				f.Defs = append(f.Defs, d)
			}
		}
	}
	return f
}

// Of gives ofByAcc's vector on real sources of several kinds, with and
// without facts, including files over MaxTerms.
func TestOfIsOfByAcc(t *testing.T) {
	var files []string
	for _, g := range []string{"strings/*.go", "unicode/*.go", "net/http/*.go", "go/types/*.go", "html/template/*.go", "encoding/json/testdata/*"} {
		m, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", g))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no GOROOT sources")
	}
	over := 0
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range []string{"go", "markdown", "env"} {
			for _, f := range []*world.Facts{nil, factsOf(lang, src)} {
				got, want := Of(f, src), ofByAcc(f, src)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s (%s, facts %v): Of differs from ofByAcc (%d terms, want %d)", p, lang, f != nil, len(got), len(want))
				}
				checkHashes(t, f, src)
				if len(want) == MaxTerms {
					over++
				}
			}
		}
	}
	if over == 0 {
		t.Error("no file reached MaxTerms: the trimming went untested")
	}
}

// FuzzOfIsOfByAcc: Of gives ofByAcc's vector on any bytes (non-ASCII
// letters, bad UTF-8, digits, underscores).
func FuzzOfIsOfByAcc(f *testing.F) {
	f.Add([]byte("func parseHTTPRequest_v2() { return x } // caches entries ÄÖüß _x__ X9y 123"), "markdown")
	f.Add([]byte("# Ünïcode Heading\n\xff\xfe bad utf8 \x00 classes passes buses"), "go")
	f.Add([]byte("KEY=value\nOTHER_KEY=secret"), "env")
	f.Add([]byte("ÜberCache_Straße2 naïveEntries ΣΊΣΥΦΟΣ_Ies x\xffYZ_ab9 İstanbulCities ǅungla_\xc3"), "python")
	f.Fuzz(func(t *testing.T, b []byte, lang string) {
		fa := factsOf(lang, b)
		if got, want := Of(fa, b), ofByAcc(fa, b); !reflect.DeepEqual(got, want) {
			t.Fatalf("Of %v\nofByAcc %v", got, want)
		}
		if got, want := Of(nil, b), ofByAcc(nil, b); !reflect.DeepEqual(got, want) {
			t.Fatalf("Of %v\nofByAcc %v", got, want)
		}
		checkHashes(t, fa, b)
	})
}

// checkHashes checks that With gives the hash of each term of the
// vector.
func checkHashes(t *testing.T, f *world.Facts, content []byte) {
	t.Helper()
	With(f, content, func(vec []world.Term, hashes []uint32) {
		if len(hashes) != len(vec) {
			t.Fatalf("%d hashes for %d terms", len(hashes), len(vec))
		}
		for i, term := range vec {
			if hashes[i] != hashBytes([]byte(term.Text)) {
				t.Fatalf("term %q: hash %x, want %x", term.Text, hashes[i], hashBytes([]byte(term.Text)))
			}
		}
	})
}

// BenchmarkOf makes the vectors of net/http's sources.
func BenchmarkOf(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	if len(files) == 0 {
		b.Skip("no GOROOT sources")
	}
	var srcs [][]byte
	size := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		size += len(src)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range srcs {
			Of(nil, src)
		}
	}
}

// The vector's ASCII split is Split and Whole: the same parts, lower
// case, and the parts together make the whole.
func FuzzSplitIsSplit(f *testing.F) {
	for _, w := range []string{"parseHTTPRequest_v2", "__x__", "ABCdef9", "a.b-c", "X9y", "HTTP2Server", "k8sIO", "_", ""} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		if !lowerASCII([]byte(tok)) {
			return
		}
		var v vector
		v.split([]byte(tok))
		var got []string
		for _, p := range v.parts {
			got = append(got, string(v.buf[p.lo:p.hi]))
		}
		if want := lex.Split(tok); !reflect.DeepEqual(got, want) {
			t.Fatalf("split(%q) = %q, Split = %q", tok, got, want)
		}
		if len(got) > 1 && string(v.buf) != lex.Whole(tok) {
			t.Fatalf("split(%q) holds %q, Whole = %q", tok, v.buf, lex.Whole(tok))
		}
	})
}

// sortKeys sorts as slices.Sort does, short and long, with runs of one
// first byte and keys spread over all of them.
func FuzzSortKeys(f *testing.F) {
	f.Add([]byte("the quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs"), uint8(3))
	f.Add(bytes.Repeat([]byte("abcdefgh"), 40), uint8(0))
	f.Fuzz(func(t *testing.T, b []byte, spread uint8) {
		var keys []uint64
		for i := 0; i+8 <= len(b); i += 1 + int(spread%8) {
			keys = append(keys, binary.LittleEndian.Uint64(b[i:]))
		}
		want := slices.Sorted(slices.Values(keys))
		got := sortKeys(slices.Clone(keys), nil)
		if !slices.Equal(got, want) {
			t.Fatalf("sortKeys(%x) = %x, want %x", keys, got, want)
		}
	})
}

// headings returns the text of the Markdown ATX headings of content,
// plainly (eachHeading without the copies).
func headings(content []byte) []string {
	var out []string
	for _, line := range strings.Split(string(content), "\n") {
		if strings.HasPrefix(line, "#") {
			out = append(out, strings.TrimLeft(line, "# "))
		}
	}
	return out
}

// isStopHead is the stop map: for every stop word, each with a byte
// changed, added or cut, and any other string.
func FuzzIsStopHead(f *testing.F) {
	for w := range stop {
		f.Add(w)
	}
	f.Add("protect")
	f.Add("protecte")
	f.Add("\x00a")
	f.Fuzz(func(t *testing.T, w string) {
		check := func(w string) {
			if len(w) == 0 {
				return
			}
			if got, want := isStopHead([]byte(w), headOf([]byte(w))), stop[w]; got != want {
				t.Fatalf("isStopHead(%q) = %v, the map says %v", w, got, want)
			}
		}
		if w == "" {
			return
		}
		check(w)
		check(w + "s")
		check(w[:len(w)-1])
		check(w[1:])
		check(strings.ToUpper(w[:1]) + w[1:])
	})
}

// Over MaxTerms, Of keeps what ofByAcc keeps: named terms first, then by
// count, then by text, with many terms alike in both at the cut, and
// more named terms than the cap.
func TestOfCapsLikeAcc(t *testing.T) {
	word := func(i int) string {
		var b strings.Builder
		b.WriteString("w")
		for n := i; n > 0; n /= 26 {
			b.WriteByte(byte('a' + n%26))
		}
		return b.String() + "x"
	}
	for _, c := range []struct{ words, named, spread int }{
		{MaxTerms + 100, 0, 1}, {2 * MaxTerms, 10, 3}, {3 * MaxTerms, 500, 7}, {2 * MaxTerms, MaxTerms + 200, 2},
	} {
		var b strings.Builder
		f := &world.Facts{Lang: "go"}
		for i := 0; i < c.words; i++ {
			for range 1 + (i*7919)%c.spread {
				b.WriteString(word(i) + " ")
			}
			if i%3 == 0 && len(f.Defs) < c.named {
				f.Defs = append(f.Defs, world.Def{Name: word(i)})
			}
		}
		src := []byte(b.String())
		f.Skeleton = string(src)
		for _, fa := range []*world.Facts{nil, f} {
			got, want := Of(fa, src), ofByAcc(fa, src)
			if len(want) != MaxTerms || !reflect.DeepEqual(got, want) {
				t.Fatalf("%+v: Of keeps %d terms, ofByAcc %d, or others", c, len(got), len(want))
			}
			checkHashes(t, fa, src)
		}
	}
}
