package extract

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/world"
)

// grammarLangs are the languages read with the tree-sitter grammars added
// for issue 12; their goldens are in the format of TestGolden.
var grammarLangs = []string{world.LangLua, world.LangKotlin, world.LangSwift, world.LangScala, world.LangZig, world.LangDart, world.LangHaskell}

func TestGoldenGrammars(t *testing.T) { runGolden(t, grammarLangs) }

// FuzzExtractGrammars checks that the extractors of grammarLangs never
// panic, keep the invariants and are deterministic.
func FuzzExtractGrammars(f *testing.F) {
	for i, lang := range grammarLangs {
		for _, src := range goldenInputs(f, lang) {
			f.Add(uint8(i), src)
			f.Add(uint8(i), src[:len(src)/2]) // cut mid-body: syntax errors
		}
		f.Add(uint8(i), []byte("{\n}\n)(\"'\nend end\n[x\n"))
	}
	// A short timeout: some inputs keep tree-sitter-zig's error recovery
	// busy until it (TestZigParseStops).
	opt := Options{Timeout: time.Second}
	f.Fuzz(func(t *testing.T, li uint8, src []byte) {
		lang := grammarLangs[int(li)%len(grammarLangs)]
		a, err := Extract(lang, src, opt)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(src, 0) < 0 {
			checkInvariants(t, lang, src, a)
		}
		checkFacts(t, lang, src, a)
		b, _ := Extract(lang, src, opt)
		if !reflect.DeepEqual(a, b) && !strings.Contains(a.Warning+b.Warning, "stopped") {
			t.Fatalf("%s: two extractions differ", lang)
		}
	})
}

// TestZigParseStops: on this input (found by fuzzing) tree-sitter-zig
// v1.0.2's error recovery runs until the parse timeout; the file gets a
// warning and no facts, in time.
func TestZigParseStops(t *testing.T) {
	start := time.Now()
	facts, err := Extract(world.LangZig, []byte("s>l[vZ\\(9="), Options{Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the parse took %s past a 200ms timeout", d)
	}
	if facts.Warning == "" {
		t.Fatalf("no warning for a parse that cannot finish: %+v", facts)
	}
}

// TestSkeletonRatioGrammars logs, per language, the skeleton's share of
// the tokens (o200k) of the real files found in GRAMMARS_CORPUS (a list of
// directories) and checks every file's invariants.
func TestSkeletonRatioGrammars(t *testing.T) {
	corpus := os.Getenv("GRAMMARS_CORPUS")
	if corpus == "" {
		t.Skip("set GRAMMARS_CORPUS to measure skeleton ratios on real code")
	}
	counter, err := tokens.New(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	type stat struct{ files, full, skel, partial, defs, refs int }
	stats := map[string]*stat{}
	add := func(p, lang string, src []byte) {
		facts, err := Extract(lang, src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Run(p, func(t *testing.T) {
			checkInvariants(t, lang, src, facts)
			checkFacts(t, lang, src, facts)
		})
		st := stats[lang]
		if st == nil {
			st = &stat{}
			stats[lang] = st
		}
		st.files++
		st.full += counter.Count(string(src))
		st.skel += counter.Count(facts.Skeleton)
		st.defs += len(facts.Defs)
		st.refs += len(facts.Refs)
		if facts.Partial {
			st.partial++
		}
	}
	for _, dir := range filepath.SplitList(corpus) {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			lang := world.DetectLang(p, nil)
			if !containsString(grammarLangs, lang) {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil || len(src) == 0 || len(src) > 512<<10 || bytes.IndexByte(src, 0) >= 0 {
				return nil
			}
			add(p, lang, src)
			return nil
		})
	}
	for _, lang := range grammarLangs {
		st := stats[lang]
		if st == nil || st.full == 0 {
			continue
		}
		t.Logf("%-8s files %5d  tokens %8d  skeleton %7d  ratio %.3f  partial %3d  defs %6d  refs %7d",
			lang, st.files, st.full, st.skel, float64(st.skel)/float64(st.full), st.partial, st.defs, st.refs)
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// grammarBenchInputs returns, per language, the files of GRAMMARS_CORPUS
// (or the golden inputs) concatenated into one list of sources.
func grammarBenchInputs(b *testing.B, lang string) (srcs [][]byte, size int64) {
	corpus := os.Getenv("GRAMMARS_CORPUS")
	if corpus == "" {
		srcs = goldenInputs(b, lang)
	}
	for _, dir := range filepath.SplitList(corpus) {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && world.DetectLang(p, nil) == lang {
				if src, err := os.ReadFile(p); err == nil && len(src) < 512<<10 && bytes.IndexByte(src, 0) < 0 {
					srcs = append(srcs, src)
				}
			}
			return nil
		})
	}
	for _, s := range srcs {
		size += int64(len(s))
	}
	return srcs, size
}

// BenchmarkExtractGrammars and BenchmarkParseOnlyGrammars measure the
// extraction of grammarLangs against tree-sitter's parse alone on the same
// sources (GRAMMARS_CORPUS, else the goldens).
func BenchmarkExtractGrammars(b *testing.B) { benchGrammars(b, false) }

func BenchmarkParseOnlyGrammars(b *testing.B) { benchGrammars(b, true) }

func benchGrammars(b *testing.B, parseOnly bool) {
	for _, lang := range grammarLangs {
		srcs, size := grammarBenchInputs(b, lang)
		if len(srcs) == 0 {
			continue
		}
		b.Run(lang, func(b *testing.B) {
			b.SetBytes(size)
			cpu0 := cpuTime()
			defer func() {
				// CPU time (user + system) moves less than wall time when
				// the machine's neighbours are busy.
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
			}()
			for i := 0; i < b.N; i++ {
				for _, src := range srcs {
					var err error
					if parseOnly {
						err = ParseOnly(lang, src)
					} else {
						_, err = Extract(lang, src, Options{})
					}
					if err != nil && !strings.Contains(err.Error(), "stopped") {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// cpuTime returns the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
