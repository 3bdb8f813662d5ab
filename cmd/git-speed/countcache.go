package main

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/zeebo/blake3"

	"github.com/git-speed/git-speed/layers/scope"
)

// Exact token counts of blobs outlive the process (scope.LoadCounts): a
// scope keeps them under <git-common-dir>/speed/cache/counts/, one file per
// speed.toml and git-speed build (a count depends on both through
// redaction and skeletons), the last countCacheKeep of them. Asking for a
// task's context again counts only what changed.
const countCacheKeep = 4

func (e *env) countsFile() string {
	h := blake3.New()
	fmt.Fprintf(h, "counts-v1\x00%s\x00", buildIdentity())
	h.Write(e.cfgRaw)
	return filepath.Join(e.agentDir(filepath.Join("cache", "counts")), hex.EncodeToString(h.Sum(nil))[:32]+".txt")
}

var countsLoaded sync.Once

// loadCounts reads the kept counts once per process. A damaged file is
// named on stderr and dropped; counting goes on without it.
func (e *env) loadCounts() {
	if e.repo == nil {
		return
	}
	countsLoaded.Do(func() {
		file := e.countsFile()
		b, err := os.ReadFile(file)
		if err != nil {
			return
		}
		if err := scope.LoadCounts(b); err != nil {
			e.warnf("%s: %v; dropping the kept token counts", file, err)
			os.Remove(file)
		}
	})
}

// saveCounts keeps the counts when this process made new ones. A cache
// that cannot be written only costs the next run its speed.
func (e *env) saveCounts() {
	if e.repo == nil || !scope.CountsAdded() {
		return
	}
	file := e.countsFile()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return
	}
	if writeFileAtomic(file, scope.SaveCounts()) == nil {
		pruneOldest(filepath.Dir(file), ".txt", countCacheKeep)
	}
}
