package formats_test

import (
	"testing"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/formats"
	"github.com/git-speed/git-speed/layers/world/worldtest"
)

// dirData reads the files under FORMATS_DIR whose language has a parser
// here (YAML, JSON, XML, TOML: the data formats a parse-only index parses
// too).
func dirData(tb testing.TB) (paths, langs []string, srcs [][]byte) {
	return worldtest.DirFiles(tb, "FORMATS_DIR", func(lang string) bool {
		return formats.Parse(lang, nil) // ok is whether lang has a parser
	})
}

// BenchmarkDataDir extracts every data file under FORMATS_DIR per
// iteration, as a build does (a real repository's mix, for -cpuprofile and
// -memprofile), beside BenchmarkDataParseDir, its parse-only baseline.
func BenchmarkDataDir(b *testing.B) {
	paths, langs, srcs := dirData(b)
	benchData(b, srcs, func(j int) {
		formats.Extract(langs[j], srcs[j], formats.Options{Path: paths[j]})
	})
}

// BenchmarkDataParseDir parses every data file under FORMATS_DIR with the
// parser its extractor reads it with (Parse), and nothing else.
func BenchmarkDataParseDir(b *testing.B) {
	_, langs, srcs := dirData(b)
	benchData(b, srcs, func(j int) { formats.Parse(langs[j], srcs[j]) })
}

func benchData(b *testing.B, srcs [][]byte, one func(j int)) {
	var total int64
	for _, s := range srcs {
		total += int64(len(s))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		for j := range srcs {
			one(j)
		}
	}
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	}
}

// TestDigestDataDir compares the facts of the data files under FORMATS_DIR
// with a digest in the file FORMATS_DIGEST (written by the first run), so
// two builds of the extractors can be compared on real files.
func TestDigestDataDir(t *testing.T) {
	paths, langs, srcs := dirData(t)
	worldtest.Digest(t, "FORMATS_DIGEST", paths, langs, func(j int) *world.Facts {
		facts, _ := formats.Extract(langs[j], srcs[j], formats.Options{Path: paths[j]})
		return facts
	})
}
