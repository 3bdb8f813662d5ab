package terms

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-speed/git-speed/internal/corpus"
)

// corpusFiles reads up to limit bytes of the text files under the folder
// GIT_SPEED_TERMS_CORPUS names (a checkout of a large tree such as
// kubernetes), skipping the benchmark without it.
func corpusFiles(b *testing.B, limit int) [][]byte {
	dir := corpus.FromEnv(b, "GIT_SPEED_TERMS_CORPUS", "a checked-out tree")
	var out [][]byte
	size := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || size >= limit {
			return fs.SkipDir
		}
		if d.IsDir() {
			if n := d.Name(); n == ".git" || n == "vendor" {
				return fs.SkipDir
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".go", ".yaml", ".yml", ".json", ".md", ".sh", ".proto", ".py", ".txt":
		default:
			return nil
		}
		info, err := d.Info()
		if err != nil || !info.Mode().IsRegular() || info.Size() > 1<<20 {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		out = append(out, src)
		size += len(src)
		return nil
	})
	if err != nil && err != fs.SkipDir {
		b.Fatal(err)
	}
	if len(out) == 0 {
		b.Skip("no text files under GIT_SPEED_TERMS_CORPUS")
	}
	return out
}

// BenchmarkOfCorpus makes the vectors of 32 MB of a real tree's text
// files (GIT_SPEED_TERMS_CORPUS).
func BenchmarkOfCorpus(b *testing.B) {
	srcs := corpusFiles(b, 32<<20)
	size := 0
	for _, s := range srcs {
		size += len(s)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range srcs {
			Of(nil, src)
		}
	}
}

// BenchmarkOfCorpusCold is BenchmarkOfCorpus with the processor's caches
// swept between files, as a build's parse of each file sweeps them: a
// builder whose tables are hot in a loop over vectors alone may not be in
// a build.
func BenchmarkOfCorpusCold(b *testing.B) {
	srcs := corpusFiles(b, 32<<20)
	size := 0
	for _, s := range srcs {
		size += len(s)
	}
	sweep := make([]uint64, 1<<20/8)
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, src := range srcs {
			for i := range sweep {
				sweep[i]++
			}
			Of(nil, src)
		}
	}
}
