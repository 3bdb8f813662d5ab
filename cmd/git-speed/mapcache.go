package main

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/zeebo/blake3"
)

// The repo map of a context is a pure function of the tree, the settings
// that shape the index, the focus, the mentions, the budget, the tokenizer
// and the git-speed build; `context` keeps the last few it rendered under
// <git-common-dir>/speed/cache/maps/, keyed by a digest of all of these, so
// an agent asking for its task's context again (the session moved on, a
// memory was added) does not pay for the graph walk again.
const mapCacheKeep = 64

// mapCacheKey digests the recipe of one repo map.
func mapCacheKey(tree, treeDigest, tokenizer string, budget int, focus, mentions []string) string {
	h := blake3.New()
	fmt.Fprintf(h, "map-v1\x00%s\x00%s\x00%s\x00%d\x00%s\x00", tree, treeDigest, tokenizer, budget, buildIdentity())
	for _, list := range [][]string{focus, mentions} {
		fmt.Fprintf(h, "%q\x00", list)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

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

func (e *env) mapCacheDir() string { return e.agentDir(filepath.Join("cache", "maps")) }

// cachedMap returns a stored map, if any.
func (e *env) cachedMap(key string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(e.mapCacheDir(), key+".md"))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// storeMap keeps a map and drops the oldest beyond mapCacheKeep. A cache
// that cannot be written only costs the next run its speed.
func (e *env) storeMap(key, text string) {
	dir := e.mapCacheDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	if writeFileAtomic(filepath.Join(dir, key+".md"), []byte(text)) != nil {
		return
	}
	pruneOldest(dir, ".md", mapCacheKeep)
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
