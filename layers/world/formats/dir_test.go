package formats_test

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/formats"
)

// dirData reads the files under the directories listed in FORMATS_DIR
// (OS path list) whose language has a parser here (YAML, JSON, XML, TOML:
// the data formats a parse-only index parses too), sorted by path; it
// skips the caller when the variable is unset.
func dirData(tb testing.TB) (paths []string, langs []string, srcs [][]byte) {
	dirs := os.Getenv("FORMATS_DIR")
	if dirs == "" {
		tb.Skip("set FORMATS_DIR to directories with data files (a checkout of kubernetes)")
	}
	for _, dir := range filepath.SplitList(dirs) {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if d.Name() == ".git" {
					return filepath.SkipDir
				}
				return nil
			}
			rel, _ := filepath.Rel(dir, p)
			lang := world.DetectLang(filepath.ToSlash(rel), nil)
			if !formats.Parse(lang, nil) { // no parser of its own
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil || len(src) == 0 || len(src) > 1<<20 {
				return nil
			}
			paths, langs, srcs = append(paths, filepath.ToSlash(rel)), append(langs, lang), append(srcs, src)
			return nil
		})
	}
	if len(paths) == 0 {
		tb.Skip("no data files in FORMATS_DIR")
	}
	return paths, langs, srcs
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

// TestDigestDataDir writes one line per language with a digest of the facts
// of the data files under FORMATS_DIR to the file FORMATS_DIGEST, so two
// builds of the extractors can be compared on real files; when the file
// exists it must hold the same lines.
func TestDigestDataDir(t *testing.T) {
	out := os.Getenv("FORMATS_DIGEST")
	if out == "" {
		t.Skip("set FORMATS_DIGEST (and FORMATS_DIR)")
	}
	paths, langs, srcs := dirData(t)
	sums := map[string][]byte{}
	for j, src := range srcs {
		facts, _ := formats.Extract(langs[j], src, formats.Options{Path: paths[j]})
		b, err := json.Marshal(facts)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		h.Write(sums[langs[j]])
		fmt.Fprintf(h, "%s\n%s\n", paths[j], b)
		sums[langs[j]] = h.Sum(nil)
	}
	var ls []string
	for l := range sums {
		ls = append(ls, l)
	}
	sort.Strings(ls)
	got := ""
	for _, l := range ls {
		got += fmt.Sprintf("%s %x\n", l, sums[l])
	}
	if want, err := os.ReadFile(out); err == nil {
		if string(want) != got {
			t.Fatalf("facts differ from %s:\n%s\nwant:\n%s", out, got, want)
		}
		return
	}
	if err := os.WriteFile(out, []byte(got), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s:\n%s", out, got)
}
