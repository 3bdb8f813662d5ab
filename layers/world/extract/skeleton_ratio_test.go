package extract

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/world"
)

// TestSkeletonRatioMore reports, per language, skeleton tokens over full
// tokens (o200k) and extraction failures on real code found on this
// machine. It runs only with EXTRACT_MORE_CORPUS set to a list of
// directories (separated by the OS path list separator).
func TestSkeletonRatioMore(t *testing.T) {
	dirs := os.Getenv("EXTRACT_MORE_CORPUS")
	if dirs == "" {
		t.Skip("set EXTRACT_MORE_CORPUS to measure skeleton ratios on real code")
	}
	counter, err := tokens.New(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	type stat struct{ files, full, skel, partial, defs, refs int }
	stats := map[string]*stat{}
	for _, dir := range filepath.SplitList(dirs) {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			lang := world.DetectLang(p, nil)
			if !containsLang(lang) {
				return nil
			}
			info, err := d.Info()
			if err != nil || info.Size() > 512<<10 || info.Size() == 0 {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil || bytes.IndexByte(src, 0) >= 0 {
				return nil
			}
			facts, err := extractMore(lang, src)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if st := stats[lang]; st == nil || st.files < 5000 {
				checkFacts(t, lang, src, facts)
			}
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
			return nil
		})
	}
	for _, lang := range moreLangs {
		if st := stats[lang]; st != nil && st.full > 0 {
			t.Logf("%-10s files %5d  tokens %9d  skeleton %8d  ratio %.3f  partial %4d  defs %6d  refs %7d",
				lang, st.files, st.full, st.skel, float64(st.skel)/float64(st.full), st.partial, st.defs, st.refs)
		}
	}
}

func containsLang(l string) bool {
	for _, m := range moreLangs {
		if m == l {
			return true
		}
	}
	return false
}
