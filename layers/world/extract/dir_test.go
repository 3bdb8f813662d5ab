package extract

import (
	"os"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/worldtest"
)

// dirFiles reads the code files (a tree-sitter language) under the
// directories listed in EXTRACT_DIR (OS path list); it skips the caller
// when the variable is unset.
func dirFiles(tb testing.TB) (paths []string, langs []string, srcs [][]byte) {
	return worldtest.DirFiles(tb, "EXTRACT_DIR", func(lang string) bool {
		_, ok := registry[lang]
		return ok
	})
}

// BenchmarkExtractDir extracts every code file under EXTRACT_DIR per
// iteration: a real repository's mix, for profiles of the extractors
// (-cpuprofile) beside BenchmarkParseOnlyDir.
func BenchmarkExtractDir(b *testing.B) {
	benchDir(b, func(lang string, src []byte) error {
		facts, err := extract(lang, src, Options{})
		Release(facts)
		return err
	})
}

// BenchmarkParseOnlyDir is BenchmarkExtractDir's baseline: the parse alone.
func BenchmarkParseOnlyDir(b *testing.B) { benchDir(b, ParseOnly) }

// startBench reports b's throughput in bytes of srcs and its allocations.
func startBench(b *testing.B, srcs [][]byte) {
	var total int64
	for _, s := range srcs {
		total += int64(len(s))
	}
	b.SetBytes(total)
	b.ReportAllocs()
}

// benchDir runs one of each file under EXTRACT_DIR per iteration.
func benchDir(b *testing.B, one func(lang string, src []byte) error) {
	_, langs, srcs := dirFiles(b)
	startBench(b, srcs)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, src := range srcs {
			if err := one(langs[j], src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestDigestDir writes one line per language with a digest of the facts of
// the files under EXTRACT_DIR to the file EXTRACT_DIGEST, so two builds of
// the extractors can be compared on real code; when the file exists it
// must hold the same lines.
func TestDigestDir(t *testing.T) {
	if os.Getenv("EXTRACT_DIGEST") == "" {
		t.Skip("set EXTRACT_DIGEST (and EXTRACT_DIR)")
	}
	paths, langs, srcs := dirFiles(t)
	worldtest.Digest(t, "EXTRACT_DIGEST", paths, langs, func(j int) *world.Facts {
		facts, err := extract(langs[j], srcs[j], Options{})
		if err != nil {
			t.Fatal(err)
		}
		return facts
	})
}
