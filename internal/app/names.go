package app

import (
	"hash/maphash"
	"slices"

	"github.com/git-speed/git-speed/layers/world/build"
)

// nameIndex finds the files whose links define a name without asking
// every file: the hashes of each file's definition names, sorted, with
// the file beside each. A long-lived session keeps one per warm world (a
// name look-up on kubernetes asked 28k links by binary search, 8 ms of
// CPU; the index answers in microseconds). It holds 12 bytes per distinct
// name of a file.
type nameIndex struct {
	seed  maphash.Seed
	keys  []uint64
	files []int32
}

func newNameIndex(w *build.World) *nameIndex {
	ix := &nameIndex{seed: maphash.MakeSeed()}
	type pair struct {
		key  uint64
		file int32
	}
	var pairs []pair
	for i, l := range w.Graph().Links {
		if l == nil {
			continue
		}
		for k, d := range l.Defs { // sorted by name: one pair a name
			if k == 0 || d.Name != l.Defs[k-1].Name {
				pairs = append(pairs, pair{maphash.String(ix.seed, d.Name), int32(i)})
			}
		}
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		if a.key != b.key {
			if a.key < b.key {
				return -1
			}
			return 1
		}
		return int(a.file - b.file)
	})
	ix.keys, ix.files = make([]uint64, len(pairs)), make([]int32, len(pairs))
	for i, p := range pairs {
		ix.keys[i], ix.files[i] = p.key, p.file
	}
	return ix
}

// files are the files that may define name (a hash may collide: the
// caller asks each file's link).
func (ix *nameIndex) lookup(name string) []int32 {
	k := maphash.String(ix.seed, name)
	i, _ := slices.BinarySearch(ix.keys, k)
	j := i
	for j < len(ix.keys) && ix.keys[j] == k {
		j++
	}
	return ix.files[i:j:j]
}

// definers returns the look-up of the files defining a name in w, from
// the index of the warm world w is (built on first use, its links
// loaded), or nil for a world the session does not keep: one question
// is cheaper asked of every file than an index built for it.
func (s *Session) definers(w *build.World) func(string) []int32 {
	s.warmMu.Lock()
	var ww *warmWorld
	for _, k := range s.warm {
		k.mu.Lock()
		if k.w == w {
			ww = k
		}
		k.mu.Unlock()
	}
	s.warmMu.Unlock()
	if ww == nil {
		return nil
	}
	ww.namesOnce.Do(func() { ww.names = newNameIndex(w) })
	return ww.names.lookup
}
