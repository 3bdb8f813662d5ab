package extract

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
)

// dirFiles reads the code files (a tree-sitter language) under the
// directories listed in EXTRACT_DIR (OS path list), sorted by path; it
// skips the caller when the variable is unset.
func dirFiles(tb testing.TB) (paths []string, langs []string, srcs [][]byte) {
	dirs := os.Getenv("EXTRACT_DIR")
	if dirs == "" {
		tb.Skip("set EXTRACT_DIR to directories of real code")
	}
	for _, dir := range filepath.SplitList(dirs) {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			lang := world.DetectLang(p, nil)
			if _, ok := registry[lang]; !ok {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil || len(src) == 0 || len(src) > 1<<20 {
				return nil
			}
			paths, langs, srcs = append(paths, p), append(langs, lang), append(srcs, src)
			return nil
		})
	}
	if len(paths) == 0 {
		tb.Skip("no code files in EXTRACT_DIR")
	}
	return paths, langs, srcs
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

// benchDir runs one of each file under EXTRACT_DIR per iteration.
func benchDir(b *testing.B, one func(lang string, src []byte) error) {
	_, langs, srcs := dirFiles(b)
	var total int64
	for _, s := range srcs {
		total += int64(len(s))
	}
	b.SetBytes(total)
	b.ReportAllocs()
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
	out := os.Getenv("EXTRACT_DIGEST")
	if out == "" {
		t.Skip("set EXTRACT_DIGEST (and EXTRACT_DIR)")
	}
	paths, langs, srcs := dirFiles(t)
	sums := map[string][]byte{}
	for j, src := range srcs {
		facts, err := extract(langs[j], src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(facts)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		h.Write(sums[langs[j]])
		fmt.Fprintf(h, "%s\n%s\n", filepath.Base(paths[j]), b)
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
