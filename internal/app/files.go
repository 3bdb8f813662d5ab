package app

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/zeebo/blake3"
)

// writeFileAtomic writes data through a temporary file and a rename, and
// leaves an identical file alone.
func writeFileAtomic(file string, data []byte) error {
	if sameFile(file, data) {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".tmp*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), file)
	}
	if werr != nil {
		os.Remove(tmp.Name())
	}
	return werr
}

// sameFile reports whether file holds data, reading it in pieces: a
// scope's artifacts are megabytes, mostly the same as the last run's.
func sameFile(file string, data []byte) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Size() != int64(len(data)) {
		return false
	}
	buf := make([]byte, 64<<10)
	for len(data) > 0 {
		n, err := io.ReadFull(f, buf[:min(len(buf), len(data))])
		if err != nil || !bytes.Equal(buf[:n], data[:n]) {
			return false
		}
		data = data[n:]
	}
	n, _ := f.Read(buf[:1])
	return n == 0
}

// pruneOldest removes the oldest files of dir whose names end in suffix
// beyond the newest keep.
func pruneOldest(dir, suffix string, keep int) {
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) <= keep {
		return
	}
	type aged struct {
		name string
		t    int64
	}
	var all []aged
	for _, de := range ents {
		if info, err := de.Info(); err == nil && strings.HasSuffix(de.Name(), suffix) {
			all = append(all, aged{de.Name(), info.ModTime().UnixNano()})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].t < all[j].t || all[i].t == all[j].t && all[i].name < all[j].name })
	for _, a := range all[:max(len(all)-keep, 0)] {
		os.Remove(filepath.Join(dir, a.name))
	}
}

func digestHex(b []byte) string {
	sum := blake3.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// buildIdentity names the git-speed build: its VCS revision when clean,
// else the executable itself. Caches keyed by it are dropped by a new build.
var buildIdentity = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, mod string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				mod = s.Value
			}
		}
		if rev != "" && mod == "false" {
			return rev
		}
	}
	// A build without clean VCS stamps: the executable itself.
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			return fmt.Sprintf("%s:%d:%d", exe, st.Size(), st.ModTime().UnixNano())
		}
	}
	return "unknown"
})
