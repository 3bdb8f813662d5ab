package build

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
	"unsafe"

	"github.com/git-speed/git-speed/layers/world"
)

// checkFactsLink checks that the link encodeLinkOf and encodeFactsLink encode for each of
// facts decodes as f.Link(), in one table as a build uses it.
func checkFactsLink(t *testing.T, facts []*world.Facts) {
	t.Helper()
	for _, fused := range []bool{false, true} {
		tab := new(linkTable)
		files := make([]*file, len(facts))
		for i, f := range facts {
			if !fused {
				files[i] = &file{linkEnc: tab.encodeLinkOf(f)}
				continue
			}
			b, link := encodeFactsLink(f, tab)
			if alone, _ := encodeFacts(f); !bytes.Equal(b, alone) {
				t.Fatalf("facts %d: encoded with their link, the facts are not what encodeFacts writes", i)
			}
			files[i] = &file{linkEnc: link}
		}
		tab.decodeFiles(files)
		for i, f := range facts {
			if want := f.Link(); !reflect.DeepEqual(files[i].link, want) {
				t.Fatalf("facts %d (%s, %d definitions, %d references, with the facts %v): link\n%+v\nwant %+v", i, f.Lang, len(f.Defs), len(f.Refs), fused, files[i].link, want)
			}
		}
	}
}

// The links of real files: this repository's, or those under
// GIT_SPEED_FACTS_CORPUS.
func TestFactsLinkCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole tree's facts")
	}
	facts := corpusFacts(t)
	checkFactsLink(t, facts)
	if len(facts) < 100 {
		t.Fatalf("only %d files", len(facts))
	}
}

// Random facts drawn from few strings, so that definitions repeat, some
// equal but for Exported (which Link's sort leaves in an order of its
// own), and references repeat; nil and empty lists; the empty string.
func TestFactsLinkRandom(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	word := func(n int) string {
		switch k := rnd.IntN(n + 1); k {
		case 0:
			return ""
		case 1:
			// Alike in their first bytes: ranked by the rest.
			return "NewSharedInformer"[:6+rnd.IntN(12)] + string(rune('a'+rnd.IntN(3)))
		default:
			return "w" + strconv.Itoa(k%7) + string(rune('a'+k%3))
		}
	}
	kinds := []string{world.RefCall, world.RefType, "", "odd", world.RefValue}
	var all []*world.Facts
	for i := 0; i < 400; i++ {
		f := &world.Facts{Lang: word(3), Package: word(2)}
		n := rnd.IntN(3) * rnd.IntN(60)
		for j := 0; j < n; j++ {
			f.Defs = append(f.Defs, world.Def{Name: word(4), Kind: word(2), Parent: word(3), Returns: word(2), Exported: rnd.IntN(2) == 0, Start: j})
		}
		if rnd.IntN(4) == 0 {
			f.Defs = []world.Def{}
		}
		for j := rnd.IntN(3) * rnd.IntN(200); j > 0; j-- {
			f.Refs = append(f.Refs, world.Ref{Name: word(9), Qual: word(3), Kind: kinds[rnd.IntN(len(kinds))], Line: j})
		}
		switch rnd.IntN(3) {
		case 0:
			f.Imports = []world.Import{}
		case 1:
			f.Imports = []world.Import{{Path: word(5), Alias: word(2), Line: 3, Names: []string{word(3), ""}}, {Path: "p", Names: []string{}}, {Path: word(2), Kind: "system", Line: -1}}
		}
		all = append(all, f)
	}
	checkFactsLink(t, all)
}

// A shard writer knows a string by where its bytes are only within one
// use: memory that held a string of an earlier use may hold another.
func TestShardWriterSeenUses(t *testing.T) {
	buf := []byte("abc")
	s := unsafe.String(&buf[0], len(buf))
	write := func(w *shardWriter, strs ...string) []byte {
		for _, s := range strs {
			w.str(s)
		}
		return w.bytes(shardFormatLink)
	}
	w := new(shardWriter)
	if got, want := write(w, s, "x", s), write(new(shardWriter), "abc", "x", "abc"); !bytes.Equal(got, want) {
		t.Fatalf("first use: %q, want %q", got, want)
	}
	w.release()
	copy(buf, "xyz") // as if s were gone and its memory held "xyz"
	if got, want := write(w, "x", s), write(new(shardWriter), "x", "xyz"); !bytes.Equal(got, want) {
		t.Fatalf("second use: %q, want %q", got, want)
	}
}
