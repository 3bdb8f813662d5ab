package build

import (
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
	m  map[string]string
}

func newInterner() *interner { return &interner{m: map[string]string{}} }

// str gives the copy of s the table keeps. Caller holds mu.
func (in *interner) str(s string) string {
	if s == "" {
		return ""
	}
	if t, ok := in.m[s]; ok {
		return t
	}
	// A copy of its own: s may be part of a larger string.
	s = strings.Clone(s)
	in.m[s] = s
	return s
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
