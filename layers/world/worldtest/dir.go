package worldtest

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

// DirFiles reads the files under the directories listed in the environment
// variable env (an OS path list) whose language, as world.DetectLang tells
// it from the path below its directory, keep accepts, skipping .git
// folders, empty files and files over 1 MiB; paths are slash-separated and
// relative to their directory. It skips the caller when env is unset or
// names no such file.
func DirFiles(tb testing.TB, env string, keep func(lang string) bool) (paths, langs []string, srcs [][]byte) {
	tb.Helper()
	dirs := os.Getenv(env)
	if dirs == "" {
		tb.Skipf("set %s to directories of real files (a checkout of kubernetes)", env)
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
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return nil
			}
			rel = filepath.ToSlash(rel)
			lang := world.DetectLang(rel, nil)
			if !keep(lang) {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil || len(src) == 0 || len(src) > 1<<20 {
				return nil
			}
			paths, langs, srcs = append(paths, rel), append(langs, lang), append(srcs, src)
			return nil
		})
	}
	if len(paths) == 0 {
		tb.Skipf("no files of interest under %s", env)
	}
	return paths, langs, srcs
}

// Digest checks the facts of files (facts(j) for paths[j], of language
// langs[j]) against the file named by the environment variable env: one
// line per language with a digest of its files' facts in JSON. When the
// file does not exist it is written, so a run before a change and one
// after it compare the change's facts with the old ones. It skips the
// caller when env is unset.
func Digest(t *testing.T, env string, paths, langs []string, facts func(j int) *world.Facts) {
	t.Helper()
	out := os.Getenv(env)
	if out == "" {
		t.Skipf("set %s to a file for the digest", env)
	}
	sums := map[string][]byte{}
	for j := range paths {
		b, err := json.Marshal(facts(j))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		h.Write(sums[langs[j]])
		fmt.Fprintf(h, "%s\n%s\n", paths[j], b)
		sums[langs[j]] = h.Sum(nil)
	}
	ls := make([]string, 0, len(sums))
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
