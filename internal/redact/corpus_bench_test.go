package redact

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-speed/git-speed/internal/corpus"
)

// BenchmarkRedactCorpus redacts the files of a tree, as an index run
// does: GIT_SPEED_REDACT_CORPUS=dir go test -run X -bench RedactCorpus
// ./internal/redact. At most 96 MB of files are read, each up to 1 MB.
// Besides MB/s of wall time it reports MB/cpu-s, megabytes per second of
// the process's CPU time (where the system tells it): on a machine shared
// with other work the wall figure moves with the neighbours' load.
func BenchmarkRedactCorpus(b *testing.B) {
	root := corpus.FromEnv(b, "GIT_SPEED_REDACT_CORPUS", "a folder of real files")
	files, size := readTree(root, 96<<20)
	r := Default()
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := corpus.CPUTime()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			r.Bytes(f.path, f.data)
		}
	}
	if cpu := corpus.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
	}
}

// treeFile is a file of readTree.
type treeFile struct {
	path string
	data []byte
}

// readTree reads the regular files under root, each up to 1 MB, until
// they hold max bytes.
func readTree(root string, max int64) (files []treeFile, size int64) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || size > max {
			return fs.SkipAll
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil || len(data) > 1<<20 {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		files = append(files, treeFile{filepath.ToSlash(rel), data})
		size += int64(len(data))
		return nil
	})
	return files, size
}
