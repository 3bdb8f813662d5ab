package world

import (
	"slices"
	"sort"
	"strings"
	"sync"
)

// Link is the part of a file's Facts that reference resolution needs:
// definitions without bodies or lines, imports, and references counted by
// (qualifier, name, kind). It is what the per-tree CSG keeps for every file
// so that a new tree can be resolved without reading every file's Facts.
// Defs are sorted by name, kind, parent and returns, Refs by name,
// qualifier and kind (Facts.Link sorts them; every encoding keeps the
// order): DefsNamed and RefsNamed find a name by binary search.
type Link struct {
	Lang    string    `json:"lang"`
	Package string    `json:"package,omitempty"`
	Defs    []LinkDef `json:"defs,omitempty"`
	Imports []Import  `json:"imports,omitempty"`
	Refs    []LinkRef `json:"refs,omitempty"`
}

// LinkDef is a definition as resolution sees it.
type LinkDef struct {
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Parent   string `json:"parent,omitempty"`
	Exported bool   `json:"exported,omitempty"`
	Returns  string `json:"returns,omitempty"` // the type a function returns, as written
}

// LinkRef is every use of one (Qual, Name, Kind) in a file.
type LinkRef struct {
	Name  string `json:"name"`
	Qual  string `json:"qual,omitempty"`
	Kind  string `json:"kind,omitempty"`
	Count int    `json:"count"`
}

// Link summarises f for resolution. The result is sorted and deterministic.
func (f *Facts) Link() *Link {
	// A build holds every file's link at once: the slices get the room
	// they need, no more.
	l := &Link{Lang: f.Lang, Package: f.Package, Imports: f.Imports}
	if len(l.Imports) < cap(l.Imports) {
		l.Imports = slices.Clone(l.Imports) // room appending left
	}
	sc := linkScratches.Get().(*linkScratch)
	defer sc.release()
	seenDef := sc.seen
	if len(f.Defs) > 0 {
		l.Defs = make([]LinkDef, 0, len(f.Defs))
	}
	for _, d := range f.Defs {
		ld := LinkDef{Name: d.Name, Kind: d.Kind, Parent: d.Parent, Exported: d.Exported, Returns: d.Returns}
		if !seenDef[ld] {
			seenDef[ld] = true
			l.Defs = append(l.Defs, ld)
		}
	}
	// (slices.SortFunc runs the same pdqsort as sort.Slice did, without
	// its reflection: definitions equal but for Exported keep the order
	// they had.)
	slices.SortFunc(l.Defs, func(a, b LinkDef) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if c := strings.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		if c := strings.Compare(a.Parent, b.Parent); c != 0 {
			return c
		}
		return strings.Compare(a.Returns, b.Returns) // overloads
	})
	counts := sc.counts
	for _, r := range f.Refs {
		counts[refKey{r.Name, r.Qual, r.Kind}]++
	}
	if len(counts) > 0 {
		l.Refs = make([]LinkRef, 0, len(counts))
	}
	for k, n := range counts {
		l.Refs = append(l.Refs, LinkRef{Name: k.name, Qual: k.qual, Kind: k.kind, Count: n})
	}
	slices.SortFunc(l.Refs, func(a, b LinkRef) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if c := strings.Compare(a.Qual, b.Qual); c != 0 {
			return c
		}
		return strings.Compare(a.Kind, b.Kind)
	})
	if len(l.Defs) < cap(l.Defs) {
		l.Defs = slices.Clone(l.Defs) // duplicates were dropped
	}
	return l
}

// DefsNamed is the run of l's definitions named name (none for a nil l).
func (l *Link) DefsNamed(name string) []LinkDef {
	if l == nil {
		return nil
	}
	i, j := namedRun(len(l.Defs), name, func(k int) string { return l.Defs[k].Name })
	return l.Defs[i:j:j]
}

// RefsNamed is the run of l's references named name (none for a nil l).
func (l *Link) RefsNamed(name string) []LinkRef {
	if l == nil {
		return nil
	}
	i, j := namedRun(len(l.Refs), name, func(k int) string { return l.Refs[k].Name })
	return l.Refs[i:j:j]
}

// namedRun is where the run of name begins and ends in a list of n items
// sorted by name.
func namedRun(n int, name string, at func(int) string) (i, j int) {
	i = sort.Search(n, func(k int) bool { return at(k) >= name })
	for j = i; j < n && at(j) == name; j++ {
	}
	return i, j
}

type refKey struct{ name, qual, kind string }

// linkScratch holds the maps Link counts with, reused between files (an
// index run links every file it parses).
type linkScratch struct {
	seen   map[LinkDef]bool
	counts map[refKey]int
}

var linkScratches = sync.Pool{New: func() any {
	return &linkScratch{seen: map[LinkDef]bool{}, counts: map[refKey]int{}}
}}

// release clears the maps and gives them back; maps grown by a large
// file are dropped instead (clearing a map costs its largest size).
func (s *linkScratch) release() {
	if len(s.seen) > 1024 || len(s.counts) > 1024 {
		return
	}
	clear(s.seen)
	clear(s.counts)
	linkScratches.Put(s)
}

// Edge is a file-level edge of the CSG: From uses what To defines.
type Edge struct {
	From   int      `json:"from"` // index into Graph.Files
	To     int      `json:"to"`
	Refs   int      `json:"refs"`   // references from From resolved into To
	Weight float64  `json:"weight"` // confidence-weighted refs: 1 per import-resolved ref, less for name fallback
	Kind   EdgeKind `json:"kind,omitempty"`
}

// EdgeKind says how sure resolution is that an edge is a use.
type EdgeKind uint8

const (
	// EdgeCertain: a name of From resolves, as the language's compiler or
	// analyser binds it, to a declaration in To (Graph.Edges).
	EdgeCertain EdgeKind = 0
	// EdgeWeak: From reaches To in a way a reader follows but the
	// compiler does not bind to a declaration: a member of what a
	// require() returns that is only a property set on the module's
	// export (module.exports.x = …), an import for its side effects
	// alone, an import of a module that exports nothing of its own
	// (Graph.Weak).
	EdgeWeak EdgeKind = 1
)

// String is the kind's name in JSON output: "certain" or "weak".
func (k EdgeKind) String() string {
	if k == EdgeWeak {
		return "weak"
	}
	return "certain"
}

// Graph is the code symbol graph of one tree at file level. Files are
// sorted by path; Edges and Weak by (From, To). Symbols per file live in
// each file's Facts and Link.
type Graph struct {
	Tree  string      `json:"tree"`
	Files []FileEntry `json:"files"`
	Links []*Link     `json:"-"` // parallel to Files; nil for files without facts
	Edges []Edge      `json:"edges"`
	// Weak holds the edges of kind EdgeWeak, between files no certain
	// edge joins in that direction. Only what weighs uncertain links
	// (scope's walk) reads them; ranks and clusters use Edges alone.
	Weak    []Edge `json:"weak,omitempty"`
	Symbols int    `json:"symbols"` // definitions in all files
}

// Index returns the position of path in g.Files, or -1.
func (g *Graph) Index(path string) int {
	i := sort.Search(len(g.Files), func(i int) bool { return g.Files[i].Path >= path })
	if i < len(g.Files) && g.Files[i].Path == path {
		return i
	}
	return -1
}

// Cluster is a domain cluster: a community of files that use each other
// more than the rest, named from its dominant folder and identifiers.
type Cluster struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Files []string `json:"files"`
}
