package build

import (
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/redact"
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
				tab.encodeLinkOf(f)
			}
		}
	})
	b.Run("linkshards", func(b *testing.B) {
		tab := new(linkTable)
		files := make([]*file, len(all))
		for i, f := range all {
			files[i] = &file{linkEnc: tab.encodeLinkOf(f)}
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

// BenchmarkAfterExtract measures what a full build does with each file of
// GIT_SPEED_FACTS_CORPUS around its parse, the parse left out: redact
// its bytes, make its term vector and number its terms (setTerms), and
// encode its facts and link; a file without an extractor gets its plain
// terms. The files come largest first, as a build reads them, with the
// processor's caches swept between them as a parse sweeps them (the
// sweep is timed too: compare runs of the same corpus).
func BenchmarkAfterExtract(b *testing.B) {
	if testingEnvUnset("GIT_SPEED_FACTS_CORPUS") {
		b.Setenv("GIT_SPEED_FACTS_CORPUS", "../../..")
	}
	paths, _, srcs := worldtest.DirFiles(b, "GIT_SPEED_FACTS_CORPUS", func(string) bool { return true })
	red := redact.Default()
	cfg := config.Default()
	cls := newClassifier(&cfg)
	type one struct {
		path  string
		src   []byte
		clean []byte
		facts *world.Facts
		file  *file
	}
	var all []*one
	for j := range paths {
		e, _ := cls.byPath(paths[j], 0o100644, int64(len(srcs[j])))
		ext := cls.byContent(&e, srcs[j], extract.Supported)
		o := &one{path: paths[j], src: srcs[j], file: &file{rec: mapRecord{FileEntry: e}}}
		if !ext && !wantsPlainTerms(o.file) {
			continue
		}
		o.clean, _ = red.Bytes(paths[j], srcs[j])
		if ext {
			facts, err := extract.Extract(e.Lang, o.clean, extract.Options{Path: paths[j], Redact: red, Redacted: true})
			if err != nil {
				b.Fatalf("%s: %v", paths[j], err)
			}
			o.facts = facts
		}
		all = append(all, o)
	}
	slices.SortStableFunc(all, func(x, y *one) int { return len(y.src) - len(x.src) })
	sweep := make([]uint64, 1<<20/8)
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		release := holdTerms()
		names := new(linkTable)
		for _, o := range all {
			for i := range sweep {
				sweep[i]++
			}
			red.Bytes(o.path, o.src)
			f := o.file
			if o.facts == nil {
				plainTerms(f, o.clean)
				continue
			}
			facts := o.facts
			withTermVector(facts, o.clean, func(hashes []uint32) {
				setTerms(f, facts.Terms, hashes)
				f.facts, f.linkEnc = encodeFactsLink(facts, names)
			})
		}
		release()
	}
	// CPU, less disturbed than wall time by the other work of a shared
	// machine.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
