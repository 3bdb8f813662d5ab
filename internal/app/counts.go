package app

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/zeebo/blake3"
)

// Exact token counts of blobs outlive the process (scope.Counts): a
// session keeps them under <git-common-dir>/speed/cache/counts/, one file
// per speed.toml and git-speed build (a count depends on both through
// redaction and skeletons), the last countCacheKeep of them. Asking for a
// task's context again counts only what changed.
const countCacheKeep = 4

func (s *Session) countsFile() string {
	h := blake3.New()
	fmt.Fprintf(h, "counts-v1\x00%s\x00", buildIdentity())
	h.Write(s.cfgRaw)
	return filepath.Join(s.agentDir(filepath.Join("cache", "counts")), hex.EncodeToString(h.Sum(nil))[:32]+".txt")
}

// loadCounts reads the kept counts once per session. A damaged file is
// named in a warning and dropped; counting goes on without it.
func (s *Session) loadCounts(ctx context.Context) {
	s.countsOnce.Do(func() {
		file := s.countsFile()
		b, err := os.ReadFile(file)
		if err != nil {
			return
		}
		if err := s.counts.Load(b); err != nil {
			warnf(ctx, "%s: %v; dropping the kept token counts", file, err)
			os.Remove(file)
		}
	})
}

// saveCounts keeps the counts when the session made new ones. A cache
// that cannot be written only costs the next run its speed.
func (s *Session) saveCounts() {
	if !s.counts.Added() {
		return
	}
	file := s.countsFile()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return
	}
	if writeFileAtomic(file, s.counts.Save()) == nil {
		pruneOldest(filepath.Dir(file), ".txt", countCacheKeep)
	}
}
