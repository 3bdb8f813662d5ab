package build

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/extract"
	"github.com/git-speed/git-speed/layers/world/terms"
	"github.com/git-speed/git-speed/layers/world/worldtest"
)

// corpusFacts extracts every file of GIT_SPEED_FACTS_CORPUS (this
// repository when unset) with its term vector, as a build does.
func corpusFacts(tb testing.TB) []*world.Facts {
	_, facts := corpusPathFacts(tb)
	return facts
}

// corpusPathFacts is corpusFacts with the files' paths.
func corpusPathFacts(tb testing.TB) ([]string, []*world.Facts) {
	tb.Helper()
	if testingEnvUnset("GIT_SPEED_FACTS_CORPUS") {
		tb.Setenv("GIT_SPEED_FACTS_CORPUS", "../../..")
	}
	paths, langs, srcs := worldtest.DirFiles(tb, "GIT_SPEED_FACTS_CORPUS", extract.Supported)
	var out []*world.Facts
	for j := range paths {
		facts, err := extract.Extract(langs[j], srcs[j], extract.Options{Path: paths[j]})
		if err != nil {
			tb.Fatalf("%s: %v", paths[j], err)
		}
		terms.With(facts, srcs[j], func(vec []world.Term, _ []uint32) {
			facts.Terms = slices.Clone(vec)
			for i := range facts.Terms {
				facts.Terms[i].Text = strings.Clone(facts.Terms[i].Text)
			}
		})
		out = append(out, facts)
	}
	return paths, out
}

// BenchmarkEncodeFacts measures what a build does with each file's facts
// once they are extracted: encode them, and encode their link into the
// run's link table.
func BenchmarkEncodeFacts(b *testing.B) {
	paths, all := corpusPathFacts(b)
	b.Run("facts", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, f := range all {
				if _, err := encodeFacts(f); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("link", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			tab := new(linkTable)
			for _, f := range all {
				tab.encodeLink(f.Link())
			}
		}
	})
	b.Run("factslink", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			tab := new(linkTable)
			for _, f := range all {
				tab.encodeFactsLink(f)
			}
		}
	})
	b.Run("linkshards", func(b *testing.B) {
		tab := new(linkTable)
		files := make([]*file, len(all))
		for i, f := range all {
			files[i] = &file{linkEnc: tab.encodeFactsLink(f)}
		}
		tab.decodeFiles(files)
		recs := make([]linkRecord, len(all))
		for i := range files {
			recs[i] = linkRecord{Path: paths[i], Link: files[i].link}
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			encodeLinkShards(recs)
		}
	})
	b.Run("fused", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			tab := new(linkTable)
			for _, f := range all {
				encodeFactsLink(f, tab)
			}
		}
	})
}

func testingEnvUnset(k string) bool { _, ok := os.LookupEnv(k); return !ok }
