package align

import (
	"bytes"
	"fmt"
	"math"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/internal/lex"
	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/world"
)

// Statuses of a requirement.
const (
	Aligned   = "aligned"   // explicit evidence or strong matches
	Partial   = "partial"   // weak matches only
	Unaligned = "unaligned" // nothing in the tree carries it yet
)

// Evidence kinds, strongest first.
const (
	EvPath   = "path"   // the requirement names the file
	EvSymbol = "symbol" // the requirement names a definition
	EvTask   = "task"   // a task citing the requirement touches the file
	EvTerm   = "term"   // words of the requirement match the file's path or definitions
)

// Version is the version of the alignment rules; bump it, with a line here,
// when the same input would give another alignment.
//
//	1: path, symbol, task and term evidence.
const Version = 1

// Alignment maps the requirements of one feature to one tree. Fields are
// declared in JSON key order, so encoding/json writes sorted keys.
type Alignment struct {
	Counts       Counts  `json:"counts"`
	Feature      string  `json:"feature"`
	Requirements []Claim `json:"requirements"` // in spec order
	Tree         string  `json:"tree"`
	Version      int     `json:"version"`
}

// Counts tallies requirements per status.
type Counts struct {
	Aligned   int `json:"aligned"`
	Partial   int `json:"partial"`
	Unaligned int `json:"unaligned"`
}

// Claim is what the tree offers for one requirement.
type Claim struct {
	Evidence []Evidence `json:"evidence"` // sorted by kind strength, then path, symbol
	Files    []FileHit  `json:"files"`    // by score, best first
	ID       string     `json:"id"`
	Score    float64    `json:"score"` // best file score, 3 decimals
	Status   string     `json:"status"`
	Symbols  []SymHit   `json:"symbols"` // by path, then line
	Tasks    []string   `json:"tasks"`   // tasks citing the requirement, sorted
	Title    string     `json:"title"`
}

// Evidence is one reason a file or symbol carries a requirement.
type Evidence struct {
	Detail string `json:"detail"`
	Kind   string `json:"kind"`
	Path   string `json:"path,omitempty"`
	Symbol string `json:"symbol,omitempty"`
}

// FileHit is a file carrying a requirement, with its score (explicit
// evidence counts 1 each, term matches their idf share).
type FileHit struct {
	Kinds []string `json:"kinds"` // evidence kinds, strongest first
	Path  string   `json:"path"`
	Score float64  `json:"score"`
}

// SymHit is a definition carrying a requirement.
type SymHit struct {
	Kind string `json:"kind"`
	Line int    `json:"line,omitempty"`
	Name string `json:"name"`
	Path string `json:"path"`
}

// Claim returns the claim for requirement id, or nil.
func (a *Alignment) Claim(id string) *Claim {
	for i := range a.Requirements {
		if a.Requirements[i].ID == id {
			return &a.Requirements[i]
		}
	}
	return nil
}

// Touching returns the claims that name one of paths among their files or
// symbols, in spec order.
func (a *Alignment) Touching(paths []string) []*Claim {
	set := map[string]bool{}
	for _, p := range paths {
		set[p] = true
	}
	var out []*Claim
	for i := range a.Requirements {
		c := &a.Requirements[i]
		for _, f := range c.Files {
			if set[f.Path] {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

const (
	maxFiles       = 8   // files kept per claim
	maxSymbols     = 12  // symbols kept per claim
	ambiguousDefs  = 4   // a name defined in more files than this is no explicit evidence
	strongCoverage = 0.5 // share of a requirement's terms a file must match for a strong match
	minTermScore   = 0.15
)

var (
	pathTokRE = regexp.MustCompile(`[A-Za-z0-9_.\-/]+\.[A-Za-z0-9]+|[A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)+/?`)
	identRE   = regexp.MustCompile("`([^`]+)`|\\b([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*)(\\(\\))?")
)

// index is what Align knows of the tree, built once per call.
type index struct {
	g      *world.Graph
	defs   map[string][]int // definition name → files (sorted, unique)
	terms  map[string][]int // term → files whose path or definitions use it
	nfiles int
	base   map[string][]int // file base name → files, made on first use (baseOf)
}

// query is what a feature's requirements can ask of the index: their
// terms and the identifiers they name. An index built for a query answers
// those questions exactly as an index of everything would, and holds
// nothing else: on a large tree, splitting every definition's name into
// terms was most of a first scope.
type query struct {
	terms map[string]bool
	canon map[string]string // each term to itself: termsIn's strings
	names map[string]bool
	// subs: each term without a final y, which is in the lower-case
	// name of any identifier having the term (stem only cuts a suffix,
	// or turns "ies" into "y").
	subs []string
	// pairs marks the first two bytes of each sub, for matching ASCII
	// names without lower-casing them (mayHold); short is set when a sub
	// is too short or not ASCII for that.
	pairs *[1 << 16]bool
	short bool
	// heads marks the first two bytes of each name (headOf), so that
	// most identifiers are found not named without a look-up in names.
	heads *[1 << 16]bool
}

// headOf is the index in heads of a name's first two bytes.
func headOf(name string) int {
	switch len(name) {
	case 0:
		return 0
	case 1:
		return int(name[0]) << 8
	}
	return int(name[0])<<8 | int(name[1])
}

// named reports whether a requirement names the identifier name.
func (q *query) named(name string) bool {
	if q.heads != nil && !q.heads[headOf(name)] {
		return false
	}
	return q.names[name]
}

func queryOf(f *feature.Feature) *query {
	q := &query{terms: map[string]bool{}, canon: map[string]string{}, names: map[string]bool{}}
	if f.Spec == nil {
		return q
	}
	for _, r := range f.Spec.Requirements {
		text := r.Title + "\n" + r.Text
		for _, t := range terms(text) {
			if !q.terms[t] {
				q.terms[t] = true
				q.canon[t] = t
				q.subs = append(q.subs, strings.TrimSuffix(t, "y"))
			}
		}
		for _, m := range identRE.FindAllStringSubmatch(text, -1) {
			name := m[2]
			if m[1] != "" {
				name = strings.TrimSuffix(m[1], "()")
			}
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				name = name[i+1:]
			}
			q.names[name] = true
		}
	}
	sort.Strings(q.subs)
	q.pairUp()
	q.headsUp()
	return q
}

// headsUp fills heads from names.
func (q *query) headsUp() {
	q.heads = new([1 << 16]bool)
	for name := range q.names {
		q.heads[headOf(name)] = true
	}
}

// pairUp fills pairs and short from subs.
func (q *query) pairUp() {
	q.pairs = new([1 << 16]bool)
	for _, sub := range q.subs {
		if len(sub) < 2 || sub[0] >= 0x80 || sub[1] >= 0x80 {
			q.short = true
			continue
		}
		q.pairs[int(sub[0])<<8|int(sub[1])] = true
	}
}

// mayHold reports whether an identifier or path can have a term of q.
// It runs on every definition name of the tree, so ASCII names (nearly
// all) are matched without making their lower-case copy.
func (q *query) mayHold(name string) bool {
	if q.short {
		return q.mayHoldSlow(name)
	}
	if len(name) == 0 {
		return false
	}
	if name[0] >= 0x80 {
		return q.mayHoldSlow(name)
	}
	prev := lowerASCII(name[0])
	for i := 1; i < len(name); i++ {
		c := name[i]
		if c >= 0x80 {
			// What matched before a non-ASCII byte matches in the
			// lower-case name too; the rest is the general case's.
			return q.mayHoldSlow(name)
		}
		c = lowerASCII(c)
		if q.pairs[int(prev)<<8|int(c)] {
			for _, s := range q.subs {
				if hasLowerPrefix(name[i-1:], s) {
					return true
				}
			}
		}
		prev = c
	}
	return false
}

// mayHoldSlow is mayHold of a name that is not ASCII, or for subs that
// are not all two ASCII bytes or more.
func (q *query) mayHoldSlow(name string) bool {
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			lower := strings.ToLower(name)
			for _, s := range q.subs {
				if strings.Contains(lower, s) {
					return true
				}
			}
			return false
		}
	}
	var buf [128]byte
	lower := buf[:0]
	for i := 0; i < len(name); i++ {
		lower = append(lower, lowerASCII(name[i]))
	}
	for _, s := range q.subs {
		if bytes.Contains(lower, []byte(s)) {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasLowerPrefix reports whether the lower-case form of the ASCII string
// s begins with prefix.
func hasLowerPrefix(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lowerASCII(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

// Wants returns what the alignment of f reads of the tree's definitions:
// whether a definition called name can count (the names its requirements
// name, and those that may have one of their terms). Align over a graph
// whose links hold only the definitions Wants keeps (in their order) gives
// the same alignment as over the whole links, since definitions of one
// name are adjacent in a link (world.Facts.Link sorts them).
func Wants(f *feature.Feature) func(name string) bool {
	q := queryOf(f)
	return func(name string) bool { return q.mayHold(name) || q.named(name) }
}

// buildIndex indexes g for the questions of q.
func buildIndex(g *world.Graph, q *query) *index {
	memo := map[string][]string{} // names that may hold a term only: few
	termsOf := func(name string) []string {
		if t, ok := memo[name]; ok {
			return t
		}
		if !q.mayHold(name) {
			return nil
		}
		t := q.termsIn(name, nil)
		memo[name] = t
		return t
	}
	ix := &index{g: g, defs: map[string][]int{}, terms: map[string][]int{}, nfiles: len(g.Files)}
	addTerm := func(t string, i int) {
		if !q.terms[t] {
			return
		}
		l := ix.terms[t]
		if len(l) == 0 || l[len(l)-1] != i { // files come in order: one entry per file
			ix.terms[t] = append(l, i)
		}
	}
	// A word of a path lies within one of its segments, so a folder's
	// terms are found once for all its files.
	dirTerms := map[string][]string{}
	var baseTerms []string
	for i, fe := range g.Files {
		p := strings.TrimSuffix(fe.Path, path.Ext(fe.Path))
		dir, base := "", p
		if k := strings.LastIndexByte(p, '/'); k >= 0 {
			dir, base = p[:k], p[k+1:]
		}
		ts, ok := dirTerms[dir]
		if !ok {
			if q.mayHold(dir) {
				ts = q.termsIn(dir, nil)
			}
			dirTerms[dir] = ts
		}
		for _, t := range ts {
			addTerm(t, i)
		}
		if q.mayHold(base) {
			baseTerms = q.termsIn(base, baseTerms[:0])
			for _, t := range baseTerms {
				addTerm(t, i)
			}
		}
		if i < len(g.Links) && g.Links[i] != nil {
			last := ""
			for _, d := range g.Links[i].Defs {
				if d.Name == last {
					continue
				}
				last = d.Name
				if q.named(d.Name) {
					ix.defs[d.Name] = append(ix.defs[d.Name], i)
				}
				for _, t := range termsOf(d.Name) {
					addTerm(t, i)
				}
			}
		}
	}
	return ix
}

// baseOf returns the files whose base name is name, in order. Only a
// requirement naming a file by its base name asks, so the table of every
// file's base name is made then.
func (ix *index) baseOf(name string) []int {
	if ix.base == nil {
		ix.base = map[string][]int{}
		for i, fe := range ix.g.Files {
			b := path.Base(fe.Path)
			ix.base[b] = append(ix.base[b], i)
		}
	}
	return ix.base[name]
}

func (ix *index) idf(t string) float64 {
	df := len(ix.terms[t])
	if df == 0 {
		return 0
	}
	return math.Log(1 + float64(ix.nfiles)/float64(df))
}

// Align maps every requirement of f's spec to the files and symbols of g
// that carry it. facts gives a file's definitions (for symbol lines); it
// may be nil or fail, and is only asked about files that matched.
func Align(g *world.Graph, facts func(path string) (*world.Facts, error), f *feature.Feature) *Alignment {
	a := &Alignment{Feature: f.Name, Tree: g.Tree, Version: Version, Requirements: []Claim{}}
	if f.Spec == nil || len(f.Spec.Requirements) == 0 {
		return a
	}
	ix := buildIndex(g, queryOf(f))
	factsCache := map[string]*world.Facts{}
	getFacts := func(p string) *world.Facts {
		if fc, ok := factsCache[p]; ok {
			return fc
		}
		var fc *world.Facts
		if facts != nil {
			if x, err := facts(p); err == nil {
				fc = x
			}
		}
		factsCache[p] = fc
		return fc
	}
	for _, r := range f.Spec.Requirements {
		c := alignOne(ix, f, r, getFacts)
		switch c.Status {
		case Aligned:
			a.Counts.Aligned++
		case Partial:
			a.Counts.Partial++
		default:
			a.Counts.Unaligned++
		}
		a.Requirements = append(a.Requirements, c)
	}
	return a
}

var kindRank = map[string]int{EvPath: 0, EvSymbol: 1, EvTask: 2, EvTerm: 3}

func alignOne(ix *index, f *feature.Feature, r feature.Requirement, facts func(string) *world.Facts) Claim {
	c := Claim{ID: r.ID, Title: r.Title, Evidence: []Evidence{}, Files: []FileHit{}, Symbols: []SymHit{}, Tasks: []string{}}
	text := r.Title + "\n" + r.Text
	score := map[int]float64{}
	kinds := map[int]map[string]bool{}
	explicit := map[int]bool{}
	add := func(i int, kind string, s float64) {
		score[i] += s
		if kinds[i] == nil {
			kinds[i] = map[string]bool{}
		}
		kinds[i][kind] = true
		if kind != EvTerm {
			explicit[i] = true
		}
	}
	evSeen := map[Evidence]bool{}
	addEv := func(e Evidence) {
		if !evSeen[e] {
			evSeen[e] = true
			c.Evidence = append(c.Evidence, e)
		}
	}
	symSeen := map[string]bool{}
	var syms []SymHit
	addSym := func(p, name string) {
		k := p + "\x00" + name
		if symSeen[k] {
			return
		}
		symSeen[k] = true
		h := SymHit{Path: p, Name: name}
		if fc := facts(p); fc != nil {
			for _, d := range fc.Defs {
				if d.Name == name {
					h.Kind, h.Line = d.Kind, d.Start
					break
				}
			}
		}
		if h.Kind == "" {
			if i := ix.g.Index(p); i >= 0 && i < len(ix.g.Links) && ix.g.Links[i] != nil {
				for _, d := range ix.g.Links[i].Defs {
					if d.Name == name {
						h.Kind = d.Kind
						break
					}
				}
			}
		}
		syms = append(syms, h)
	}

	// Explicit paths.
	for _, tok := range pathTokRE.FindAllString(text, -1) {
		tok = strings.Trim(tok, "./")
		if tok == "" {
			continue
		}
		if i := ix.g.Index(tok); i >= 0 {
			add(i, EvPath, 1)
			addEv(Evidence{Kind: EvPath, Path: tok, Detail: "names " + tok})
			continue
		}
		if !strings.Contains(tok, "/") && strings.Contains(tok, ".") {
			if hits := ix.baseOf(tok); len(hits) > 0 && len(hits) <= ambiguousDefs {
				for _, i := range hits {
					p := ix.g.Files[i].Path
					add(i, EvPath, 1/float64(len(hits)))
					addEv(Evidence{Kind: EvPath, Path: p, Detail: "names " + tok})
				}
				continue
			}
		}
		// A path suffix ("store/store.go") or a folder ("gitstore/").
		if strings.Contains(tok, "/") {
			var hits []int
			for i, fe := range ix.g.Files {
				if strings.HasSuffix(fe.Path, "/"+tok) {
					hits = append(hits, i)
				}
			}
			if len(hits) > 0 && len(hits) <= ambiguousDefs {
				for _, i := range hits {
					p := ix.g.Files[i].Path
					add(i, EvPath, 1/float64(len(hits)))
					addEv(Evidence{Kind: EvPath, Path: p, Detail: "names " + tok})
				}
			}
		}
	}
	// Explicit symbols: code-like identifiers that some file defines.
	for _, m := range identRE.FindAllStringSubmatch(text, -1) {
		name, quoted, call := m[2], false, m[3] != ""
		if m[1] != "" {
			name, quoted = strings.TrimSuffix(m[1], "()"), true
		}
		qual := ""
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			qual, name = name[:i], name[i+1:]
		}
		if len(name) < 3 || lex.IsFiller(strings.ToLower(name)) {
			continue
		}
		if !quoted && !call && qual == "" && !codeLike(name) {
			continue
		}
		hits := ix.defs[name]
		if len(hits) == 0 || len(hits) > ambiguousDefs {
			continue
		}
		for _, i := range hits {
			p := ix.g.Files[i].Path
			add(i, EvSymbol, 1/float64(len(hits)))
			addEv(Evidence{Kind: EvSymbol, Path: p, Symbol: name, Detail: "names " + name})
			addSym(p, name)
		}
	}
	// Tasks citing the requirement.
	for _, t := range f.Tasks {
		cites := false
		for _, id := range t.Requirements {
			if id == r.ID {
				cites = true
			}
		}
		if !cites {
			continue
		}
		c.Tasks = append(c.Tasks, t.ID)
		for _, p := range t.FilesTouched {
			if i := ix.g.Index(p); i >= 0 {
				add(i, EvTask, 1)
				addEv(Evidence{Kind: EvTask, Path: p, Detail: fmt.Sprintf("task %s cites %s and touches %s", t.ID, r.ID, p)})
			}
		}
	}
	sort.Strings(c.Tasks)
	// Term matches.
	rt := terms(text)
	var total float64
	for _, t := range rt {
		total += ix.idf(t)
	}
	strongTerm := false
	if total > 0 {
		match := map[int][]string{}
		for _, t := range rt {
			for _, i := range ix.terms[t] {
				match[i] = append(match[i], t)
			}
		}
		type cand struct {
			i   int
			s   float64
			cov float64
			ts  []string
		}
		var cands []cand
		for i, ts := range match {
			var s float64
			for _, t := range ts {
				s += ix.idf(t)
			}
			s /= total
			if s < minTermScore && !(len(ts) >= 2 && s >= minTermScore/2) {
				continue
			}
			cands = append(cands, cand{i, s, float64(len(ts)) / float64(len(rt)), ts})
		}
		sort.Slice(cands, func(a, b int) bool {
			if cands[a].s != cands[b].s {
				return cands[a].s > cands[b].s
			}
			return cands[a].i < cands[b].i
		})
		if len(cands) > maxFiles {
			cands = cands[:maxFiles]
		}
		for _, cd := range cands {
			p := ix.g.Files[cd.i].Path
			add(cd.i, EvTerm, cd.s)
			if len(cd.ts) >= 2 && (cd.cov >= strongCoverage || cd.s >= strongCoverage) {
				strongTerm = true
			}
			sorted := append([]string(nil), cd.ts...)
			sort.Strings(sorted)
			addEv(Evidence{Kind: EvTerm, Path: p, Detail: fmt.Sprintf("matches %s (%.2f)", strings.Join(sorted, ", "), round3(cd.s))})
			// The definitions whose names carry the matched words.
			if i := cd.i; i < len(ix.g.Links) && ix.g.Links[i] != nil {
				want := map[string]bool{}
				for _, t := range cd.ts {
					want[t] = true
				}
				n := 0
				for _, d := range ix.g.Links[i].Defs {
					hit := 0
					for _, t := range nameTerms(d.Name) {
						if want[t] {
							hit++
						}
					}
					if hit > 0 && (hit >= 2 || len(cd.ts) == 1 || len(nameTerms(d.Name)) == 1) && n < 3 {
						addSym(p, d.Name)
						n++
					}
				}
			}
		}
	}
	// Files, best first.
	for i, s := range score {
		var ks []string
		for k := range kinds[i] {
			ks = append(ks, k)
		}
		sort.Slice(ks, func(a, b int) bool { return kindRank[ks[a]] < kindRank[ks[b]] })
		c.Files = append(c.Files, FileHit{Path: ix.g.Files[i].Path, Score: round3(s), Kinds: ks})
	}
	sort.Slice(c.Files, func(a, b int) bool {
		if c.Files[a].Score != c.Files[b].Score {
			return c.Files[a].Score > c.Files[b].Score
		}
		return c.Files[a].Path < c.Files[b].Path
	})
	if len(c.Files) > maxFiles {
		keep := c.Files[:0]
		for j, fh := range c.Files {
			if j < maxFiles || explicit[ix.g.Index(fh.Path)] {
				keep = append(keep, fh)
			}
		}
		c.Files = keep
	}
	if len(c.Files) > 0 {
		c.Score = c.Files[0].Score
	}
	sort.Slice(syms, func(a, b int) bool {
		if syms[a].Path != syms[b].Path {
			return syms[a].Path < syms[b].Path
		}
		if syms[a].Line != syms[b].Line {
			return syms[a].Line < syms[b].Line
		}
		return syms[a].Name < syms[b].Name
	})
	if len(syms) > maxSymbols {
		syms = syms[:maxSymbols]
	}
	c.Symbols = append(c.Symbols, syms...)
	sort.Slice(c.Evidence, func(a, b int) bool {
		x, y := c.Evidence[a], c.Evidence[b]
		if kindRank[x.Kind] != kindRank[y.Kind] {
			return kindRank[x.Kind] < kindRank[y.Kind]
		}
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		if x.Symbol != y.Symbol {
			return x.Symbol < y.Symbol
		}
		return x.Detail < y.Detail
	})
	switch {
	case len(explicit) > 0 || strongTerm:
		c.Status = Aligned
	case len(c.Files) > 0:
		c.Status = Partial
	default:
		c.Status = Unaligned
	}
	return c
}

// codeLike reports whether a bare word looks like an identifier rather than
// prose: an inner capital (DiffTrees, parseURL) or an underscore.
func codeLike(w string) bool {
	if strings.Contains(w, "_") {
		return true
	}
	for i, r := range w {
		if i > 0 && r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// Render writes a in a plain markdown form: one section per requirement
// with its status, files and evidence.
func Render(a *Alignment) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Spec alignment: %s\n\n", a.Feature)
	if a.Tree != "" {
		fmt.Fprintf(&b, "tree %s\n\n", a.Tree)
	}
	fmt.Fprintf(&b, "%d aligned, %d partial, %d unaligned\n", a.Counts.Aligned, a.Counts.Partial, a.Counts.Unaligned)
	for _, c := range a.Requirements {
		fmt.Fprintf(&b, "\n## %s %s: %s\n", c.ID, c.Title, c.Status)
		if len(c.Tasks) > 0 {
			fmt.Fprintf(&b, "\ntasks: %s\n", strings.Join(c.Tasks, ", "))
		}
		if len(c.Files) > 0 {
			b.WriteString("\n")
			for _, f := range c.Files {
				fmt.Fprintf(&b, "- %s (%.3f; %s)\n", f.Path, f.Score, strings.Join(f.Kinds, ", "))
			}
		}
		if len(c.Symbols) > 0 {
			b.WriteString("\nsymbols:")
			for _, s := range c.Symbols {
				if s.Line > 0 {
					fmt.Fprintf(&b, " %s:%d %s", s.Path, s.Line, s.Name)
				} else {
					fmt.Fprintf(&b, " %s %s", s.Path, s.Name)
				}
				b.WriteString(";")
			}
			b.WriteString("\n")
		}
		if len(c.Evidence) > 0 {
			b.WriteString("\nevidence:\n")
			for _, e := range c.Evidence {
				where := e.Path
				if e.Symbol != "" {
					where += " " + e.Symbol
				}
				fmt.Fprintf(&b, "- %s %s: %s\n", e.Kind, where, e.Detail)
			}
		}
	}
	return b.String()
}
