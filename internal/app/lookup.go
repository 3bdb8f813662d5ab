package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/pack"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/graph"
	"github.com/git-speed/git-speed/layers/world/terms"
)

// SkeletonRequest asks for the signature-only outlines of files.
type SkeletonRequest struct {
	Rev
	Paths []string // repository paths
}

// Skeleton returns the outlines of the files, each under a header line
// naming it, its lines and tokens, separated by blank lines.
func (s *Session) Skeleton(ctx context.Context, req SkeletonRequest) (string, error) {
	if len(req.Paths) == 0 {
		return "", Usagef("skeleton needs at least one path")
	}
	rev, err := s.rev(req.Rev)
	if err != nil {
		return "", err
	}
	w, release, err := s.world(ctx, rev, true)
	if err != nil {
		return "", err
	}
	defer release()
	var b strings.Builder
	for i, p := range req.Paths {
		entry, ok := w.Entry(p)
		if !ok {
			return "", fmt.Errorf("%s: not a file of tree %s", p, short(w.Tree()))
		}
		f, err := w.Facts(p)
		if err != nil {
			return "", err
		}
		if f == nil {
			return "", fmt.Errorf("%s: no skeleton: %s", p, whyNoFacts(entry))
		}
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s %s (skeleton of %d lines; ~%d of ~%d tokens)\n%s", commentLeader(f.Lang), p, f.Lines, f.SkelToks, f.Tokens, f.Skeleton)
	}
	return b.String(), nil
}

// whyNoFacts says why a project map row has no facts.
func whyNoFacts(e *world.FileEntry) string {
	for _, f := range e.Flags {
		switch f.Name {
		case world.FlagBinary, world.FlagTooLarge, world.FlagSymlink, world.FlagSubmodule, world.FlagIgnored, world.FlagGenerated, world.FlagVendored, world.FlagOutput:
			return "flagged " + f.Name + " (" + f.Reason + ")"
		}
	}
	if e.Lang == "" {
		return "language not recognised"
	}
	return "no extractor for " + e.Lang + " (or excluded by index.languages)"
}

func commentLeader(lang string) string {
	switch lang {
	case world.LangPython, world.LangBash, world.LangRuby, world.LangPowerShell:
		return "#"
	case world.LangINI:
		return ";"
	case world.LangCSS:
		return "/*"
	case world.LangHaskell, world.LangLua:
		return "--"
	}
	return "//"
}

// GraphResult is the code symbol graph as `git speed graph --json` gives it.
type GraphResult struct {
	Tree    string `json:"tree"`
	Files   int    `json:"files"`
	Symbols int    `json:"symbols"`
	Edges   []Edge `json:"edges"`
	// WeakEdges are the edges of kind weak (docs/graph-resolution.md):
	// links a reader follows that no declaration binds. They are a list
	// of their own so that a consumer of Edges sees certain edges only.
	WeakEdges []Edge          `json:"weak_edges"`
	Clusters  []world.Cluster `json:"clusters"`
}

// Edge is one file-level edge: From uses what To defines.
type Edge struct {
	From   string  `json:"from"`
	To     string  `json:"to"`
	Refs   int     `json:"refs"`
	Weight float64 `json:"weight"`
	Kind   string  `json:"kind"` // "certain" or "weak"
}

// Graph returns the tree's code symbol graph: file-level edges and domain
// clusters.
func (s *Session) Graph(ctx context.Context, r Rev) (*GraphResult, error) {
	return s.graphOf(ctx, r, nil)
}

// graphOf is Graph, first asking check (when set) about the graph read.
func (s *Session) graphOf(ctx context.Context, r Rev, check func(*world.Graph) error) (*GraphResult, error) {
	rev, err := s.rev(r)
	if err != nil {
		return nil, err
	}
	w, release, err := s.world(ctx, rev, true)
	if err != nil {
		return nil, err
	}
	defer release()
	if err := w.LoadLinks(); err != nil {
		return nil, err
	}
	g := w.Graph()
	if check != nil {
		if err := check(g); err != nil {
			return nil, err
		}
	}
	out := &GraphResult{Tree: g.Tree, Files: len(g.Files), Symbols: g.Symbols, Edges: []Edge{}, WeakEdges: []Edge{}}
	for _, ed := range g.Edges {
		out.Edges = append(out.Edges, Edge{From: g.Files[ed.From].Path, To: g.Files[ed.To].Path, Refs: ed.Refs, Weight: ed.Weight, Kind: ed.Kind.String()})
	}
	for _, ed := range g.Weak {
		out.WeakEdges = append(out.WeakEdges, Edge{From: g.Files[ed.From].Path, To: g.Files[ed.To].Path, Refs: ed.Refs, Weight: ed.Weight, Kind: ed.Kind.String()})
	}
	out.Clusters = graph.Clusters(g)
	if out.Clusters == nil {
		out.Clusters = []world.Cluster{}
	}
	return out, nil
}

// SymbolsRequest asks for the definitions of a name and the references
// the graph resolves to them.
type SymbolsRequest struct {
	Rev
	Name string // plain (Handle) or qualified (Server.Handle)
	// Paths and Exclude are globs (internal/pathglob) limiting the files
	// listed: those matching one of Paths (any when empty) and none of
	// Exclude.
	Paths, Exclude []string
}

// SymbolsResult is what `git speed symbols NAME --json` gives.
type SymbolsResult struct {
	Tree        string      `json:"-"` // the tree looked in
	Name        string      `json:"name"`
	Definitions []SymbolDef `json:"definitions"`
	References  []SymbolRef `json:"references"`
	// UsesCut says there are more textual uses than MaxTextualUses.
	UsesCut bool `json:"uses_cut,omitempty"`
}

// SymbolDef is one definition of the name.
type SymbolDef struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	End       int    `json:"end"`
	Kind      string `json:"kind"`
	Qualified string `json:"qualified"`
	Signature string `json:"signature,omitempty"`
}

// SymbolRef is one reference to it.
type SymbolRef struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Qual string `json:"qual,omitempty"`
	In   string `json:"in,omitempty"`
	// Resolved is false for a textual use the graph resolves to no
	// definition (uses.go); those come after the resolved ones, with
	// their line's text.
	Resolved bool   `json:"resolved"`
	Text     string `json:"text,omitempty"`
}

// Text is the result one line each: def PATH:LINE-END KIND SIGNATURE, then
// ref PATH:LINE [in QUALIFIED], then use? PATH:LINE TEXT for the textual
// uses the graph does not resolve.
func (r *SymbolsResult) Text() string {
	var b strings.Builder
	for _, d := range r.Definitions {
		fmt.Fprintf(&b, "def %s:%d-%d %s %s\n", d.Path, d.Line, d.End, d.Kind, d.Signature)
	}
	for _, ref := range r.References {
		if !ref.Resolved {
			fmt.Fprintf(&b, "use? %s:%d %s\n", ref.Path, ref.Line, ref.Text)
			continue
		}
		in := ""
		if ref.In != "" {
			in = " in " + ref.In
		}
		fmt.Fprintf(&b, "ref %s:%d%s\n", ref.Path, ref.Line, in)
	}
	if r.UsesCut {
		fmt.Fprintf(&b, "use? … more textual uses than %d; narrow them with --path or --exclude\n", MaxTextualUses)
	}
	return b.String()
}

// Symbols lists the definitions of the name and the references to it from
// files the graph links to a defining file. A name nothing defines is not
// an error: the result has no definitions.
func (s *Session) Symbols(ctx context.Context, req SymbolsRequest) (*SymbolsResult, error) {
	if req.Name == "" {
		return nil, Usagef("name is required")
	}
	rev, err := s.rev(req.Rev)
	if err != nil {
		return nil, err
	}
	w, release, err := s.world(ctx, rev, true)
	if err != nil {
		return nil, err
	}
	defer release()
	if err := w.LoadLinks(); err != nil {
		return nil, err
	}
	globs := pack.Globs{Paths: req.Paths, Exclude: req.Exclude}
	if err := globs.Check(); err != nil {
		return nil, Usagef("%v", err)
	}
	res, err := findSymbol(w.Graph(), w.Facts, s.definers(w), req.Name)
	if err != nil {
		return nil, err
	}
	res.Tree = w.Tree()
	if !globs.Empty() {
		res.Definitions = slices.DeleteFunc(res.Definitions, func(d SymbolDef) bool { return !globs.Keep(d.Path) })
		res.References = slices.DeleteFunc(res.References, func(r SymbolRef) bool { return !globs.Keep(r.Path) })
	}
	if err := s.textualUses(w, res, req.Name, globs); err != nil {
		return nil, err
	}
	return res, nil
}

// findSymbol lists the definitions of name and the references to it from
// files the graph links to a defining file; definers, when set, gives the
// files whose links may define a name (a superset), else every file is
// asked.
func findSymbol(g *world.Graph, facts func(string) (*world.Facts, error), definers func(string) []int32, name string) (*SymbolsResult, error) {
	leaf := name
	if i := strings.LastIndexAny(name, ".:"); i >= 0 {
		leaf = name[i+1:]
	}
	res := &SymbolsResult{Name: name, Definitions: []SymbolDef{}, References: []SymbolRef{}}
	// A link's definitions and references are sorted by name: each file
	// is asked by a binary search (on kubernetes, 28k files: a scan of
	// every definition was most of a warm call).
	var defining []int
	if definers != nil {
		for _, i := range definers(leaf) {
			if len(g.Links[i].DefsNamed(leaf)) > 0 {
				defining = append(defining, int(i))
			}
		}
	} else {
		for i, l := range g.Links {
			if len(l.DefsNamed(leaf)) > 0 {
				defining = append(defining, i)
			}
		}
	}
	var defFiles []int
	for _, i := range defining {
		f, err := facts(g.Files[i].Path)
		if err != nil {
			return nil, err
		}
		found := false
		for _, d := range f.Defs {
			if d.Name == leaf && (leaf == name || d.Qualified == name || strings.HasSuffix(d.Qualified, "."+name)) {
				res.Definitions = append(res.Definitions, SymbolDef{Path: g.Files[i].Path, Line: d.Start, End: d.End, Kind: d.Kind, Qualified: d.Qualified, Signature: d.Signature})
				found = true
			}
		}
		if found {
			defFiles = append(defFiles, i)
		}
	}
	// A slice, not a map: the scan asks it once per edge (a million on
	// kubernetes).
	targets := make([]bool, len(g.Files))
	users := map[int]bool{}
	for _, i := range defFiles {
		targets[i], users[i] = true, true
	}
	for _, ed := range g.Edges {
		if ed.To >= 0 && ed.To < len(targets) && targets[ed.To] {
			users[ed.From] = true
		}
	}
	for i := range users {
		if len(g.Links[i].RefsNamed(leaf)) == 0 {
			continue
		}
		f, err := facts(g.Files[i].Path)
		if err != nil {
			return nil, err
		}
		for _, r := range f.Refs {
			if r.Name != leaf {
				continue
			}
			ref := SymbolRef{Path: g.Files[i].Path, Line: r.Line, Qual: r.Qual, Resolved: true}
			if r.In > 0 && r.In <= len(f.Defs) {
				ref.In = f.Defs[r.In-1].Qualified
			}
			res.References = append(res.References, ref)
		}
	}
	sort.Slice(res.Definitions, func(a, b int) bool {
		x, y := res.Definitions[a], res.Definitions[b]
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		return x.Line < y.Line
	})
	sort.Slice(res.References, func(a, b int) bool {
		x, y := res.References[a], res.References[b]
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		return x.Line < y.Line
	})
	return res, nil
}

// NeighboursRequest asks for a file's neighbours in the graph.
type NeighboursRequest struct {
	Rev
	Path string // a repository path
}

// Neighbour is one graph neighbour of a file.
type Neighbour struct {
	Path string `json:"path"`
	Refs int    `json:"refs"`
}

// NeighboursResult is the files a file uses and the files that use it,
// most references first.
type NeighboursResult struct {
	Path   string      `json:"path"`
	Uses   []Neighbour `json:"uses"`
	UsedBy []Neighbour `json:"used_by"`
}

// Neighbours returns a file's neighbours in the code symbol graph.
func (s *Session) Neighbours(ctx context.Context, req NeighboursRequest) (*NeighboursResult, error) {
	rev, err := s.rev(req.Rev)
	if err != nil {
		return nil, err
	}
	w, release, err := s.world(ctx, rev, true)
	if err != nil {
		return nil, err
	}
	defer release()
	g := w.Graph()
	i := g.Index(req.Path)
	if i < 0 {
		return nil, fmt.Errorf("%s: no such file in tree %s", req.Path, short(w.Tree()))
	}
	res := &NeighboursResult{Path: req.Path, Uses: []Neighbour{}, UsedBy: []Neighbour{}}
	for _, e := range g.Edges {
		switch {
		case e.From == i && e.To != i:
			res.Uses = append(res.Uses, Neighbour{g.Files[e.To].Path, e.Refs})
		case e.To == i && e.From != i:
			res.UsedBy = append(res.UsedBy, Neighbour{g.Files[e.From].Path, e.Refs})
		}
	}
	for _, l := range [][]Neighbour{res.Uses, res.UsedBy} {
		sort.Slice(l, func(a, b int) bool {
			if l[a].Refs != l[b].Refs {
				return l[a].Refs > l[b].Refs
			}
			return l[a].Path < l[b].Path
		})
	}
	return res, nil
}

// ReadRequest asks for lines of a file.
type ReadRequest struct {
	Rev
	Path string // a repository path
	// From is the first line, 1-based (0 is 1); To the last, inclusive
	// (0 is 200 lines from From).
	From, To int
	// FromWorktree reads the file as it is in the work tree, not from the
	// indexed tree.
	FromWorktree bool
}

// MaxReadLines bounds one read.
const MaxReadLines = 2000

// Read returns lines of a file at the indexed tree (or the work tree),
// numbered, under a header naming the file, the lines and where they
// were read; redacted.
func (s *Session) Read(ctx context.Context, req ReadRequest) (string, error) {
	p := req.Path
	if lang := world.DetectLang(p, nil); terms.SecretValues(lang) {
		return "", fmt.Errorf("%s: the values of %s files are never shown; the skeleton tool lists its keys", p, lang)
	}
	from, to := max(req.From, 1), req.To
	if to == 0 {
		to = from + 199
	}
	if to < from {
		return "", fmt.Errorf("to (%d) is before from (%d)", to, from)
	}
	if to-from+1 > MaxReadLines {
		return "", fmt.Errorf("lines %d-%d: at most %d lines per read", from, to, MaxReadLines)
	}
	var text *readText
	where := ""
	if req.FromWorktree {
		if s.top == "" {
			return "", errors.New("the repository has no work tree")
		}
		data, err := readWorktree(s.top, p)
		if err != nil {
			return "", err
		}
		red, err := s.redact(p, string(data))
		if err != nil {
			return "", err
		}
		text, where = newReadText([]byte(red)), "work tree"
	} else {
		rev, err := s.rev(req.Rev)
		if err != nil {
			return "", err
		}
		w, release, err := s.world(ctx, rev, false)
		if err != nil {
			return "", err
		}
		defer release()
		entry, ok := w.Entry(p)
		if !ok {
			return "", fmt.Errorf("%s: no such file in tree %s", p, short(w.Tree()))
		}
		if text, err = s.treeText(w, entry, p); err != nil {
			return "", err
		}
		where = "tree " + short(w.Tree())
	}
	if bytes.IndexByte(text.data[:min(len(text.data), 8000)], 0) >= 0 {
		return "", fmt.Errorf("%s is binary", p)
	}
	n := len(text.lines)
	if from > n {
		return "", fmt.Errorf("%s has %d lines; from %d is past its end", p, n, from)
	}
	to = min(to, n)
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d-%d (%s, %d lines)\n", p, from, to, where, n)
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%6d\t%s\n", i, text.line(i))
	}
	return b.String(), nil
}

// readWorktree reads a file of the work tree, refusing links that leave it.
func readWorktree(top, p string) ([]byte, error) {
	full := top + "/" + p
	fi, err := os.Lstat(full)
	if err != nil {
		return nil, fmt.Errorf("%s: not in the work tree", p)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", p)
	}
	// A folder on the way may be a link out of the work tree.
	realTop, err1 := filepath.EvalSymlinks(top)
	realFile, err2 := filepath.EvalSymlinks(full)
	if err1 != nil || err2 != nil || !strings.HasPrefix(realFile, realTop+string(filepath.Separator)) {
		return nil, fmt.Errorf("%s is outside the work tree", p)
	}
	return os.ReadFile(realFile)
}
