package terms

import (
	"encoding/binary"
	"fmt"
	"github.com/git-speed/git-speed/internal/lex"
	"reflect"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
)

func TestOf(t *testing.T) {
	facts := &world.Facts{Lang: "go",
		Defs:    []world.Def{{Name: "EvictOldest", Doc: "EvictOldest drops the oldest entry."}},
		Imports: []world.Import{{Path: "container/list"}}}
	src := []byte("package lru\n\nimport \"container/list\"\n\n// EvictOldest drops the oldest entry.\nfunc EvictOldest() { evictOldest(); list.New() }\n")
	vec := Of(facts, src)
	got := map[string]uint8{}
	for i, tm := range vec {
		got[tm.Text] = tm.Fields
		if i > 0 && vec[i-1].Text >= tm.Text {
			t.Fatalf("vector not sorted: %q before %q", vec[i-1].Text, tm.Text)
		}
	}
	if got["evictoldest"] != Content|Ident|Def|DocLine {
		t.Errorf("evictoldest fields %v", Names(got["evictoldest"]))
	}
	if got[lex.Stem("oldest")]&(Def|DocLine|Content) != Def|DocLine|Content {
		t.Errorf("oldest fields %v", Names(got[lex.Stem("oldest")]))
	}
	if got[lex.Stem("container")]&Import == 0 || got["list"]&Import == 0 {
		t.Errorf("import fields: %v %v", Names(got[lex.Stem("container")]), Names(got["list"]))
	}
	if _, ok := got["the"]; ok {
		t.Error("stop word kept")
	}
	md := Of(&world.Facts{Lang: "markdown"}, []byte("# Install guide\n\ntext\n"))
	for _, tm := range md {
		if tm.Text == "install" && tm.Fields&Heading == 0 {
			t.Errorf("heading not marked: %v", Names(tm.Fields))
		}
	}
}

func TestOfCapsTerms(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 2*MaxTerms; i++ {
		b.WriteString("w")
		for n := i; n > 0; n /= 26 {
			b.WriteByte(byte('a' + n%26))
		}
		b.WriteString("x ")
	}
	if n := len(Of(nil, []byte(b.String()))); n != MaxTerms {
		t.Errorf("%d terms, want the cap %d", n, MaxTerms)
	}
}

func TestIndexRoundTrip(t *testing.T) {
	paths := []string{"a/b.go", "a/c.go", "z.py"}
	vecs := [][]world.Term{
		{{Text: "alpha", Fields: Content, Count: 3}, {Text: "beta", Fields: Def}},
		nil,
		{{Text: "alpha", Fields: Content | Ident, Count: 1}},
	}
	shards := Encode(paths, vecs)
	gp, gv := mustDecode(t, shards)
	if !reflect.DeepEqual(gp, paths) || !reflect.DeepEqual(gv, vecs) {
		t.Fatalf("round trip:\n%v %v\n%v %v", gp, gv, paths, vecs)
	}
	docs, err := DecodeDocs(shards)
	if err != nil || docs[0].Len != 3 || docs[2].Path != "z.py" {
		t.Fatalf("docs %+v %v", docs, err)
	}
	post, err := DecodeBucket(shards[Bucket("alpha")], len(docs), func(s string) bool { return s == "alpha" })
	if err != nil || len(post["alpha"]) != 2 || post["alpha"][1].Doc != 2 {
		t.Fatalf("postings %+v %v", post, err)
	}
	for k, b := range shards {
		if k == DocsShard || k == LensShard {
			continue
		}
		if _, _, err := Decode(map[string][]byte{DocsShard: shards[DocsShard], LensShard: shards[LensShard], k: b[:len(b)-1]}); err == nil {
			t.Errorf("truncated bucket %s accepted", k)
		}
	}
}

func mustDecode(t *testing.T, shards map[string][]byte) ([]string, [][]world.Term) {
	t.Helper()
	p, v, err := Decode(shards)
	if err != nil {
		t.Fatal(err)
	}
	return p, v
}

// The shard decoders read stored bytes: they must refuse damage, never
// panic or allocate without bound.
func FuzzDecodeShards(f *testing.F) {
	shards := Encode([]string{"a/b.go", "a/c.go"}, [][]world.Term{{{Text: "alpha", Fields: 1, Count: 2}}, {{Text: "alpha", Fields: 3, Count: 1}}})
	f.Add(shards[DocsShard], shards[LensShard])
	f.Add(shards[Bucket("alpha")], []byte{})
	f.Add([]byte{'B', IndexFormat, 0xff, 0xff, 0xff, 0xff, 0x0f}, []byte{'L', IndexFormat, 1, 1})
	f.Fuzz(func(t *testing.T, b, lens []byte) {
		docs, derr := DecodeDocs(map[string][]byte{DocsShard: b, LensShard: lens})
		DecodeBucket(b, 2, nil)
		// FindDocs and SetLens agree with DecodeDocs where it reads.
		n, at, ferr := FindDocs(b, []string{"a/b.go"})
		set, serr := SetLens(lens, map[int]uint32{0: 7})
		if derr != nil {
			return
		}
		if ferr != nil || serr != nil || n != len(docs) {
			t.Fatalf("DecodeDocs reads %d docs, FindDocs %d (%v), SetLens %v", len(docs), n, ferr, serr)
		}
		if (at[0] >= 0) != (len(docs) > 0 && slicesIndex(docs, "a/b.go") >= 0) {
			t.Fatalf("FindDocs places a/b.go at %d in %v", at[0], docs)
		}
		if len(docs) > 0 {
			docs[0].Len = 7
			if want := EncodeDocs(docs)[LensShard]; string(set) != string(want) {
				t.Fatalf("SetLens = %x, EncodeDocs %x", set, want)
			}
		}
	})
}

func slicesIndex(docs []Doc, p string) int {
	for i, d := range docs {
		if d.Path == p {
			return i
		}
	}
	return -1
}

// TestFindDocsSetLens: an in-place update's lookups in the docs shard and
// its new lens shard are what decoding, changing and encoding every doc
// gives.
func TestFindDocsSetLens(t *testing.T) {
	paths := []string{"a/b.go", "a/c.go", "a/cd/e.go", "z.md"}
	vecs := [][]world.Term{{{Text: "x", Count: 2}}, {{Text: "y", Count: 300}}, {{Text: "x", Count: 1}}, {{Text: "z", Count: 5}}}
	shards := Encode(paths, vecs)
	n, at, err := FindDocs(shards[DocsShard], []string{"a/cd/e.go", "missing", "a/b.go", "z.md"})
	if err != nil || n != 4 || !reflect.DeepEqual(at, []int{2, -1, 0, 3}) {
		t.Fatalf("FindDocs = %d, %v, %v", n, at, err)
	}
	docs, err := DecodeDocs(shards)
	if err != nil {
		t.Fatal(err)
	}
	docs[1].Len, docs[3].Len = 100000, 0
	got, err := SetLens(shards[LensShard], map[int]uint32{1: 100000, 3: 0})
	if want := EncodeDocs(docs)[LensShard]; err != nil || string(got) != string(want) {
		t.Fatalf("SetLens = %x, %v; want %x", got, err, want)
	}
	if _, _, err := FindDocs(shards[LensShard], nil); err == nil {
		t.Error("FindDocs read a lens shard")
	}
}

// Of reads any file's bytes.
func FuzzOf(f *testing.F) {
	f.Add([]byte("func parseHTTPRequest_v2() { return x }"), "go")
	f.Add([]byte("# Heading\n\xff\xfe bad utf8 \x00"), "markdown")
	f.Fuzz(func(t *testing.T, b []byte, lang string) {
		vec := Of(&world.Facts{Lang: lang, Defs: []world.Def{{Name: string(b)}}}, b)
		if len(vec) > MaxTerms {
			t.Fatalf("%d terms", len(vec))
		}
		for _, tm := range vec {
			if len(tm.Text) < MinLen || len(tm.Text) > MaxLen {
				t.Fatalf("term %q out of bounds", tm.Text)
			}
		}
	})
}

// interned numbers the terms of sliceVectors, as an index run does.
type interned struct {
	sliceVectors
	ids   map[string]uint32
	texts []string
}

func newInterned(paths []string, vecs [][]world.Term) interned {
	v := interned{sliceVectors: sliceVectors{paths, vecs}, ids: map[string]uint32{}}
	// Numbered in an order unlike the terms' own, so nothing leans on it.
	for i := len(vecs) - 1; i >= 0; i-- {
		for _, t := range vecs[i] {
			if _, ok := v.ids[t.Text]; !ok {
				v.ids[t.Text] = uint32(len(v.texts))
				v.texts = append(v.texts, t.Text)
			}
		}
	}
	return v
}

func (v interned) IDs() int { return len(v.texts) }
func (v interned) Row(i int, out []uint64) []uint64 {
	for _, t := range v.vecs[i] {
		out = append(out, uint64(v.ids[t.Text])<<32|uint64(t.Fields)<<24|uint64(min(t.Count, MaxRowCount)))
	}
	return out
}
func (v interned) Text(id uint32) string { return v.texts[id] }

// Numbered terms give the shards that terms keyed by text give.
func TestEncodeInternedIsEncode(t *testing.T) {
	var paths []string
	var vecs [][]world.Term
	for i, src := range []string{
		"func parseHTTPRequest(r *Request) error { return nil } // parses requests",
		"package cache\n// Cache caches entries recently used.\ntype Cache struct{ entries map[string]int }",
		"# Caching\nThe cache evicts entries. Parsing requests is done by parseHTTPRequest.",
		"",
	} {
		paths = append(paths, fmt.Sprintf("d%d/f.go", i))
		vecs = append(vecs, Of(&world.Facts{Lang: "go", Defs: []world.Def{{Name: "ParseThing"}}}, []byte(src)))
	}
	want := Encode(paths, vecs)
	got := EncodeFrom(newInterned(paths, vecs))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("interned encoding differs: %d shards, want %d", len(got), len(want))
	}
}

// wordBits judges every byte value as wordByte does, in every place of
// the eight and beside any other byte.
func TestWordBits(t *testing.T) {
	for c := 0; c < 256; c++ {
		for o := 0; o < 256; o += 7 {
			for place := 0; place < 8; place++ {
				var b [8]byte
				for i := range b {
					b[i] = byte(o)
				}
				b[place] = byte(c)
				got := wordBits(binary.LittleEndian.Uint64(b[:]))
				for i, x := range b {
					if want := wordByte[x]; (got>>(8*i+7))&1 == 1 != want {
						t.Fatalf("byte %#x at %d of %x: word %v, want %v", x, i, b, !want, want)
					}
				}
			}
		}
	}
}

// nextWordPlain is nextWord a byte at a time by the table.
func nextWordPlain(b []byte) (word, rest []byte) {
	i := 0
	for i < len(b) && !wordByte[b[i]] {
		i++
	}
	j := i
	for j < len(b) && wordByte[b[j]] {
		j++
	}
	return b[i:j], b[j:]
}

// nextWord, eight bytes at a time, finds the words nextWordPlain does.
func FuzzNextWord(f *testing.F) {
	f.Add([]byte("func parseHTTPRequest_v2() { return x } // caches entries ÄÖüß _x__ X9y 123"))
	f.Add([]byte("a@b[c`d{e/f:g_h\x7f\x80\xff  \t\n0123456789abcdefghijklmnopqrstuvwxyz"))
	f.Add([]byte("@@@@@@@@@@@@@@@@@@@@@@@@@x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for rest, plain := b, b; len(rest) > 0 || len(plain) > 0; {
			var w, pw []byte
			w, rest = nextWord(rest)
			pw, plain = nextWordPlain(plain)
			if string(w) != string(pw) || len(rest) != len(plain) {
				t.Fatalf("nextWord gives %q with %d bytes left, nextWordPlain %q with %d", w, len(rest), pw, len(plain))
			}
		}
	})
}
