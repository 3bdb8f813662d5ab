package extract

import (
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/world"
)

var (
	ratio      = flag.Bool("ratio", false, "report skeleton/file o200k token ratios over real corpora (slow)")
	ratioFiles = flag.Int("ratio-files", 0, "limit the files per language for -ratio (0: all)")
)

// corpusRoots are where real code of each language is looked for on this
// machine: the Go distribution for Go, Python's own library and installed
// packages for Python, the module cache for the rest.
func corpusRoots(lang string) []string {
	home, _ := os.UserHomeDir()
	switch lang {
	case world.LangGo:
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return nil
		}
		return []string{filepath.Join(strings.TrimSpace(string(out)), "src")}
	case world.LangPython:
		roots, _ := filepath.Glob("/usr/lib/python3.*")
		more, _ := filepath.Glob(filepath.Join(home, ".pyenv/versions/*/lib/python3.*"))
		return append(roots, more...)
	default:
		return []string{filepath.Join(home, "go", "pkg", "mod")}
	}
}

var (
	corpusMu    sync.Mutex
	corpusCache = map[string][]string{}
)

// corpus lists up to max files of lang (0: all) under its roots, sorted,
// leaving out testdata folders, empty files and files over 1 MiB.
func corpus(lang string, max int) []string {
	corpusMu.Lock()
	defer corpusMu.Unlock()
	all, ok := corpusCache[lang]
	if !ok {
		for _, root := range corpusRoots(lang) {
			filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if d.IsDir() {
					switch d.Name() {
					case "testdata", "node_modules", "__pycache__":
						return filepath.SkipDir
					}
					return nil
				}
				if !d.Type().IsRegular() || world.DetectLang(p, nil) != lang {
					return nil
				}
				if info, err := d.Info(); err != nil || info.Size() == 0 || info.Size() > 1<<20 {
					return nil
				}
				all = append(all, p)
				return nil
			})
		}
		sort.Strings(all)
		corpusCache[lang] = all
	}
	if max > 0 && len(all) > max {
		// An even spread over the sorted list, not just its first folder.
		out := make([]string, 0, max)
		for i := 0; i < max; i++ {
			out = append(out, all[i*len(all)/max])
		}
		return out
	}
	return all
}

// TestSkeletonRatio reports, per language, the skeleton's share of the
// files' exact o200k tokens over real code found on this machine. It runs
// only with -ratio: go test -run TestSkeletonRatio -ratio ./layers/world/extract
func TestSkeletonRatio(t *testing.T) {
	if !*ratio {
		t.Skip("run with -ratio")
	}
	tok, err := tokens.New(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range goldenLangs {
		if !Supported(lang) {
			continue
		}
		files := corpus(lang, *ratioFiles)
		if len(files) == 0 {
			t.Logf("%-10s no files found", lang)
			continue
		}
		var fileToks, skelToks, partial, failed int
		for _, p := range files {
			src, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			facts, err := Extract(lang, src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if facts.Warning != "" && !facts.Partial {
				failed++
				t.Logf("%s: %s", p, facts.Warning)
			}
			if facts.Partial {
				partial++
			}
			fileToks += tok.Count(string(src))
			skelToks += tok.Count(facts.Skeleton)
		}
		t.Logf("%-10s files=%d partial=%d failed=%d tokens=%d skeleton=%d ratio=%.1f%%",
			lang, len(files), partial, failed, fileToks, skelToks, 100*float64(skelToks)/float64(fileToks))
	}
}

var benchFiles = flag.Int("bench-files", 200, "files per language in BenchmarkExtract and BenchmarkParseOnly")

// loadCorpus reads benchFiles files of lang; nil when none are on this
// machine.
func loadCorpus(b *testing.B, lang string) ([][]byte, int64) {
	var srcs [][]byte
	var total int64
	for _, p := range corpus(lang, *benchFiles) {
		src, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		srcs = append(srcs, src)
		total += int64(len(src))
	}
	if len(srcs) == 0 {
		b.Skipf("no %s files on this machine", lang)
	}
	return srcs, total
}

// BenchmarkExtract measures the full extraction of real files on one
// goroutine; compare with BenchmarkParseOnly (MB/s of the same files).
func BenchmarkExtract(b *testing.B) {
	for _, lang := range goldenLangs {
		if !Supported(lang) {
			continue
		}
		b.Run(lang, func(b *testing.B) {
			srcs, total := loadCorpus(b, lang)
			b.SetBytes(total)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, src := range srcs {
					if _, err := Extract(lang, src, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkParseOnly is the baseline: tree-sitter parsing the same files
// and nothing else.
func BenchmarkParseOnly(b *testing.B) {
	for _, lang := range goldenLangs {
		if !Supported(lang) {
			continue
		}
		b.Run(lang, func(b *testing.B) {
			srcs, total := loadCorpus(b, lang)
			b.SetBytes(total)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, src := range srcs {
					if err := ParseOnly(lang, src); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
