package gitstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A store that stays small. Each update writes its few objects loose (an
// in-place update about twenty: the shards it rewrote, the trees above
// them, the commit) and a full build leaves a pack or two; git's own
// gc.auto would consolidate them only past 6,700 loose objects or 50 packs,
// and only when the user's next git command happens to run it. So after
// each index, Tidy looks (two folder listings) at the object database, and
// past TidyLoose loose objects or TidyPacks packs it runs `git repack -d -l
// --geometric=2`: the loose objects and the small packs are rolled into one
// pack, while a large pack (the repository's own history) is left as it is,
// so the cost follows what the store added since, not the repository's
// size. One process tidies at a time (a lock file in the git folder); a
// second one skips.

// Thresholds of Tidy: loose objects (estimated from four of the 256
// folders) and packs.
const (
	TidyLoose = 512
	TidyPacks = 16
)

// ObjectCounts is how the object database stands.
type ObjectCounts struct {
	Loose     int   `json:"loose"`      // loose objects
	LooseSize int64 `json:"loose_size"` // their bytes on disk
	Packs     int   `json:"packs"`
	PackSize  int64 `json:"pack_size"` // bytes of packs and their indexes
}

// Counts reports the object database's loose objects and packs (`git
// count-objects -v`).
func (r *Repo) Counts() (ObjectCounts, error) {
	var c ObjectCounts
	out, err := r.git(nil, "count-objects", "-v")
	if err != nil {
		return c, err
	}
	for _, line := range strings.Split(string(out), "\n") {
		k, v, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		switch k {
		case "count":
			c.Loose = int(n)
		case "size":
			c.LooseSize = n << 10
		case "packs":
			c.Packs = int(n)
		case "size-pack":
			c.PackSize = n << 10
		}
	}
	return c, nil
}

// looseEstimate estimates the number of loose objects from four of the
// 256 folders (git's gc --auto looks at one, 17), and counts the packs.
func (r *Repo) looseEstimate() (loose, packs int) {
	objects := filepath.Join(r.commonDir, "objects")
	for _, d := range []string{"17", "5e", "a3", "e8"} {
		if ents, err := os.ReadDir(filepath.Join(objects, d)); err == nil {
			for _, e := range ents {
				if len(e.Name()) == 38 {
					loose++
				}
			}
		}
	}
	if ents, err := os.ReadDir(filepath.Join(objects, "pack")); err == nil {
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".idx") {
				packs++
			}
		}
	}
	return loose * 64, packs
}

// TidyStats says what Tidy did.
type TidyStats struct {
	Ran           bool         `json:"ran"`
	Before, After ObjectCounts `json:"-"`
	Elapsed       time.Duration
}

// ErrTidyBusy means another process is tidying the object database.
var ErrTidyBusy = errors.New("another git-speed is consolidating the object database")

// Tidy consolidates the loose objects and small packs into one pack when
// there are more than TidyLoose or TidyPacks of them, or always when
// force is set. It never deletes an object that is not also in the new
// pack (git repack -d), so a concurrent reader finds every object.
func (r *Repo) Tidy(force bool) (TidyStats, error) {
	var st TidyStats
	if !force {
		loose, packs := r.looseEstimate()
		if loose <= TidyLoose && packs <= TidyPacks {
			return st, nil
		}
	}
	dir := filepath.Join(r.commonDir, "speed")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return st, fmt.Errorf("tidy: %w", err)
	}
	lock := filepath.Join(dir, "tidy.lock")
	f, err := os.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if errors.Is(err, os.ErrExist) {
		// A lock left by a process that was killed is broken after a while.
		if fi, serr := os.Stat(lock); serr == nil && time.Since(fi.ModTime()) > 10*time.Minute {
			os.Remove(lock)
			f, err = os.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		}
	}
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return st, ErrTidyBusy
		}
		return st, fmt.Errorf("tidy: %w", err)
	}
	fmt.Fprintf(f, "%d\n", os.Getpid())
	f.Close()
	defer os.Remove(lock)
	start := time.Now()
	st.Before, _ = r.Counts()
	if _, err := r.git(nil, "-c", "pack.writeBitmaps=false", "repack", "-d", "-l", "-q", "--geometric=2"); err != nil {
		return st, fmt.Errorf("tidy: %w", err)
	}
	r.mu.Lock()
	r.reindex()
	r.mu.Unlock()
	st.After, _ = r.Counts()
	st.Ran, st.Elapsed = true, time.Since(start)
	return st, nil
}
