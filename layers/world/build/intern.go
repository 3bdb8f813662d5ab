package build

import (
	"hash/maphash"
	"strings"
	"sync"

	"github.com/git-speed/git-speed/layers/world"
)

// interner shares the strings of the links one run makes. A build holds
// every file's link until the graph is resolved, and most of their
// strings are names used in many files: on kubernetes 43 MB of strings
// are 6 MB once each is kept once. The table itself lives only while
// the facts are filled; the links keep the strings they point at.
type interner struct {
	mu sync.Mutex
	// slots is an open-addressed set (linear probing, a power of two
	// long, at most 3/4 full): 16 bytes a slot against a map's 32 for a
	// key and a value, at the build's peak, when the table is largest.
	slots []string
	n     int
	seed  maphash.Seed
}

func newInterner() *interner { return &interner{seed: maphash.MakeSeed()} }

// str gives the copy of s the table keeps. Caller holds mu.
func (in *interner) str(s string) string {
	if s == "" {
		return ""
	}
	if 4*(in.n+1) > 3*len(in.slots) {
		in.grow()
	}
	mask := uint64(len(in.slots) - 1)
	for i := maphash.String(in.seed, s) & mask; ; i = (i + 1) & mask {
		t := in.slots[i]
		if t == s {
			return t
		}
		if t == "" {
			// A copy of its own: s may be part of a larger string.
			s = strings.Clone(s)
			in.slots[i] = s
			in.n++
			return s
		}
	}
}

// grow doubles the table (1024 slots at first) and places its strings again.
func (in *interner) grow() {
	old := in.slots
	in.slots = make([]string, max(1024, 2*len(old)))
	mask := uint64(len(in.slots) - 1)
	for _, s := range old {
		if s == "" {
			continue
		}
		i := maphash.String(in.seed, s) & mask
		for in.slots[i] != "" {
			i = (i + 1) & mask
		}
		in.slots[i] = s
	}
}

// link points every string of l at the table's copy (l's values stay as
// they are).
func (in *interner) link(l *world.Link) {
	if in == nil || l == nil {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	l.Lang, l.Package = in.str(l.Lang), in.str(l.Package)
	for i := range l.Defs {
		d := &l.Defs[i]
		d.Name, d.Kind, d.Parent, d.Returns = in.str(d.Name), in.str(d.Kind), in.str(d.Parent), in.str(d.Returns)
	}
	for i := range l.Imports {
		im := &l.Imports[i]
		im.Path, im.Alias, im.Kind = in.str(im.Path), in.str(im.Alias), in.str(im.Kind)
		for j := range im.Names {
			im.Names[j] = in.str(im.Names[j])
		}
	}
	for i := range l.Refs {
		r := &l.Refs[i]
		r.Name, r.Qual, r.Kind = in.str(r.Name), in.str(r.Qual), in.str(r.Kind)
	}
}
