package pack

import (
	"github.com/git-speed/git-speed/internal/pathglob"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/terms"
)

// Globs limit which files a pack may hold: those matching one of Paths
// (every file when Paths is empty) and none of Exclude, in the glob
// language of internal/pathglob ("src/**", "*.go", "dist/**"). Tagged
// files are held whatever the globs say.
type Globs struct {
	Paths   []string
	Exclude []string
}

// Empty reports whether g lets every file in.
func (g Globs) Empty() bool { return len(g.Paths) == 0 && len(g.Exclude) == 0 }

// Check returns an error naming the first malformed glob, or nil.
func (g Globs) Check() error {
	for _, x := range g.Paths {
		if err := pathglob.Valid(x); err != nil {
			return bad("--path %s: %v", x, err)
		}
	}
	for _, x := range g.Exclude {
		if err := pathglob.Valid(x); err != nil {
			return bad("--exclude %s: %v", x, err)
		}
	}
	return nil
}

// Keep reports whether path p passes the globs.
func (g Globs) Keep(p string) bool {
	for _, x := range g.Exclude {
		if pathglob.Match(x, p) {
			return false
		}
	}
	if len(g.Paths) == 0 {
		return true
	}
	for _, x := range g.Paths {
		if pathglob.Match(x, p) {
			return true
		}
	}
	return false
}

// globbed is a Source that shows only the files its globs keep (and the
// tags): the term index loses the others' documents and postings, and
// Entry does not know them, so no signal can bring them in.
type globbed struct {
	Source
	keep func(string) bool
}

func withGlobs(src Source, g Globs, tags []string) Source {
	if g.Empty() {
		return src
	}
	tagged := map[string]bool{}
	for _, t := range tags {
		tagged[t] = true
	}
	return globbed{src, func(p string) bool { return tagged[p] || g.Keep(p) }}
}

func (s globbed) Terms(want []string) (*terms.Index, error) {
	ix, err := s.Source.Terms(want)
	if err != nil {
		return nil, err
	}
	docs := make([]terms.Doc, 0, len(ix.Docs))
	to := make([]int32, len(ix.Docs)) // old document → new, or -1
	for i, d := range ix.Docs {
		to[i] = -1
		if s.keep(d.Path) {
			to[i] = int32(len(docs))
			docs = append(docs, d)
		}
	}
	out := &terms.Index{Docs: docs, Postings: make(map[string][]terms.Posting, len(ix.Postings))}
	for t, ps := range ix.Postings {
		var kept []terms.Posting
		for _, p := range ps {
			if j := to[p.Doc]; j >= 0 {
				p.Doc = uint32(j)
				kept = append(kept, p)
			}
		}
		if len(kept) > 0 {
			out.Postings[t] = kept
		}
	}
	return out, nil
}

func (s globbed) Entry(p string) (*world.FileEntry, bool) {
	if !s.keep(p) {
		return nil, false
	}
	return s.Source.Entry(p)
}

// Prefetch passes on to the Source when it prefetches.
func (s globbed) Prefetch(paths []string) {
	if pf, ok := s.Source.(interface{ Prefetch(paths []string) }); ok {
		pf.Prefetch(paths)
	}
}
