// Package pack owns git-speed's context packs (the Context Loom): it scores
// every file of an indexed tree against a free-text request (a question, a
// bug report, a commit message) and returns the best few files with a
// reason, the signals that fired, their symbols and a bounded snippet cut
// at definition boundaries, rendered as evidence under an exact token
// budget. Signals: lexical BM25 over the stored term index with field
// weights (definitions, doc lines, headings, imports, identifiers, paths),
// tagged paths, paths named in the request, files dirty in git status, the
// code symbol graph (callers of the best hits and a personalised PageRank
// from them) and recent commits whose messages match the request.
//
// It is pure Go and reads the world through Source; it never touches git.
// Snippets and every other text of a file leave through one function,
// Request.Redact, where redaction plugs in.
package pack

import (
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/graph"
	"github.com/git-speed/git-speed/layers/world/terms"
)

// Name is the pack's name in its JSON shape.
const Name = "git-speed context pack"

// Source is what a pack reads of an indexed tree (build.World provides it).
type Source interface {
	Tree() string
	// Terms reads every file of the term index and the postings of want;
	// the files of the index are the files a pack can hold.
	Terms(want []string) (*terms.Index, error)
	Entry(path string) (*world.FileEntry, bool)
	Facts(path string) (*world.Facts, error)
	Content(path string) ([]byte, error)
	// Graph is read only when a graph signal has a weight.
	Graph() *world.Graph
}

// Status is one path of `git status`.
type Status struct {
	Path string `json:"path"`
	Code string `json:"code"`
}

// Commit is one recent commit, for the history signal.
type Commit struct {
	ID      string
	Message string
	Paths   []string
}

// Request is what to pack.
type Request struct {
	Query    string
	Tags     []string // repo-relative paths that must be in the pack
	MaxItems int      // 0: DefaultMaxItems
	Budget   int      // tokens of the rendered pack; 0: DefaultBudget
	Status   []Status // git status of the work tree (dirty files get a boost)
	// Untracked says Status lists untracked files too.
	Untracked bool
	History   []Commit // recent commits, newest first (files of matching commits get a boost)
	Counter   tokens.Counter
	Weights   *Weights // nil: DefaultWeights
	// Redact, when set, is applied to every text taken from a file (snippet,
	// signature) before it enters the pack: the one place redaction plugs in.
	Redact func(path, text string) string
	// Globs limit the files the pack may hold (tags are always held).
	Globs Globs
	// Explain, when set, renders every evidence line in Text (JSON has
	// them always).
	Explain bool
	// Trace, when set, hears how long each phase took (GIT_TRACE).
	Trace func(phase string, d time.Duration)
}

// Defaults.
const (
	maxEvidence     = 6
	DefaultMaxItems = 8
	DefaultBudget   = 8000
)

// Pack is a context pack in the Context Loom shape, plus tree and tokens.
type Pack struct {
	Name      string `json:"name"`
	Workspace string `json:"workspace"` // "." : paths are relative to the repository's top
	Tree      string `json:"tree"`
	Query     string `json:"query"` // the request, its first 16 KB at most
	// Request says how much of the request was read and used.
	Request       RequestRead `json:"request"`
	Terms         []string    `json:"terms"`
	Items         []Item      `json:"items"`
	Git           GitInfo     `json:"git"`
	Budget        Budget      `json:"budget"`
	OpenQuestions []string    `json:"open_questions"`
	Tokens        int         `json:"tokens"` // exact tokens of the text rendering
	Candidates    int         `json:"candidates"`

	explain bool // Text shows every evidence line
}

// GitInfo is the work tree's status as the pack saw it.
type GitInfo struct {
	Success bool     `json:"success"`
	Status  []Status `json:"status"`
	// Untracked says whether Status lists untracked files; on a large
	// tree a pack of a revision leaves them out (they are not scored).
	Untracked bool `json:"untracked"`
}

// Budget is what bounded the pack.
type Budget struct {
	MaxItems int    `json:"max_items"`
	Tokens   int    `json:"tokens"`
	Counter  string `json:"counter"`
	// MaxSnippetTokens bounds each snippet (snippetcap.go).
	MaxSnippetTokens int `json:"max_snippet_tokens"`
}

// Item is one file of the pack.
type Item struct {
	Path      string   `json:"path"`
	Language  string   `json:"language"`
	Score     float64  `json:"score"`
	Reason    string   `json:"reason"`
	Evidence  []string `json:"evidence"`
	Symbols   []string `json:"symbols"`
	LineRange string   `json:"line_range"`
	Signature string   `json:"signature,omitempty"`
	Snippet   string   `json:"snippet"`
	Truncated bool     `json:"truncated,omitempty"` // the snippet was shortened to fit the budget

	best     int // the line that matches best, kept when the snippet is shortened
	defStart int // the first line of the definition Signature is of
}

// Scored is one file's score and the signals behind it, before snippets.
type Scored struct {
	Path     string
	Score    float64
	Reason   string
	Evidence []string
	matched  []string         // query terms the file matched
	fields   map[string]uint8 // where in the file each matched term is
	lexical  bool             // the reason is the lexical match: makeItem words it from the file
}

// ErrBadRequest marks errors in what the caller asked (exit 2).
var ErrBadRequest = errors.New("bad pack request")

type badRequest struct{ msg string }

func (e *badRequest) Error() string { return e.msg }
func (e *badRequest) Is(t error) bool {
	return t == ErrBadRequest
}

func bad(format string, args ...any) error { return &badRequest{fmt.Sprintf(format, args...)} }

// Build scores the tree of src against req and renders the pack.
func Build(src Source, req Request) (*Pack, error) {
	if req.Counter == nil {
		return nil, errors.New("pack: no token counter")
	}
	if req.MaxItems <= 0 {
		req.MaxItems = DefaultMaxItems
	}
	if req.Budget <= 0 {
		req.Budget = DefaultBudget
	}
	q, err := parseQuery(req.Query)
	if err != nil {
		return nil, &badRequest{err.Error()}
	}
	if err := req.Globs.Check(); err != nil {
		return nil, err
	}
	src = withGlobs(src, req.Globs, req.Tags)
	for _, t := range req.Tags {
		if _, ok := src.Entry(t); !ok {
			return nil, bad("--tag %s: no such file in tree %s", t, short(src.Tree()))
		}
	}
	lap := laps(req.Trace)
	ranked, open, candidates, err := score(src, q, req, req.MaxItems, req.MaxItems)
	if err != nil {
		return nil, err
	}
	lap("score")
	p := &Pack{Name: Name, Workspace: ".", Tree: src.Tree(), Query: clip(req.Query, maxEcho), Request: q.read, Terms: q.terms,
		Git:        GitInfo{Success: req.Status != nil, Status: req.Status, Untracked: req.Untracked && req.Status != nil},
		Budget:     Budget{MaxItems: req.MaxItems, Tokens: req.Budget, Counter: req.Counter.Name(), MaxSnippetTokens: MaxSnippetTokens},
		Candidates: candidates, OpenQuestions: open, explain: req.Explain}
	if p.Git.Status == nil {
		p.Git.Status = []Status{}
	}
	if p.Terms == nil {
		p.Terms = []string{}
	}
	if p.OpenQuestions == nil {
		p.OpenQuestions = []string{}
	}
	if len(ranked) > req.MaxItems {
		ranked = ranked[:req.MaxItems]
	}
	if pf, ok := src.(interface{ Prefetch(paths []string) }); ok {
		paths := make([]string, len(ranked))
		for i, s := range ranked {
			paths[i] = s.Path
		}
		pf.Prefetch(paths)
	}
	items := make([]Item, 0, len(ranked))
	for _, s := range ranked {
		it, err := makeItem(src, q, s, req)
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	p.Items = items
	lap("items")
	fit(p, req)
	lap("fit")
	if p.Tokens > req.Budget {
		return nil, bad("--budget %d is too small: the pack's header alone takes %d tokens", req.Budget, p.Tokens)
	}
	return p, nil
}

// Rank scores every file of src's tree against query and returns the k
// best, best first (only files with a positive score), for evaluation.
func Rank(src Source, req Request, k int) ([]Scored, error) {
	q, err := parseQuery(req.Query)
	if err != nil {
		return nil, &badRequest{err.Error()}
	}
	ranked, _, _, err := score(src, q, req, k, 0)
	return ranked, err
}

// laps returns a function that reports the time since its last call.
func laps(trace func(string, time.Duration)) func(string) {
	last := time.Now()
	return func(phase string) {
		if trace != nil {
			trace(phase, time.Since(last))
		}
		last = time.Now()
	}
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// Weights tune the signals. Term weights multiply a term's IDF; boosts
// multiply the best lexical score, so they do not depend on its scale.
type Weights struct {
	K1, B     float64 // BM25 saturation and length normalisation of content counts
	Content   float64
	Ident     float64 // the term is a compound identifier of the file, or part of one
	Def       float64 // the term names (part of) a definition
	Doc       float64
	Heading   float64
	Import    float64
	Path      float64 // the term is part of the file's path
	Coverage  float64 // bonus per extra distinct query term matched
	CoverMax  int     // at most this many extra terms earn the coverage bonus (0: no limit), so a long request does not favour long files
	Tag       float64
	Mention   float64
	Dirty     float64
	Rank      float64 // personalised PageRank from the best lexical hits
	Seeds     int     // how many best hits seed the PageRank
	Caller    float64 // a file that uses one of the best hits
	History   float64 // files of recent commits whose messages match
	HistFiles int     // commits changing more files than this are ignored
	MsgIDF    float64 // a query term's weight drops by this times the share of past commit messages that use it
	Churn     float64 // files that recent commits change often (changelogs, central files)
	Sibling   float64 // a file's test and the file a test tests, of the best hits
	CoChange  float64 // files that recent commits changed together with the best hits
	Stem      float64 // the term is a word of the file's own name, not only of its folders
	WholeDef  float64 // a compound identifier of the request (readConfig, read_config) names a definition of the file
	Recent    float64 // files the last few commits changed, the latest most
	// Companion: files that past commits changed in most of the commits
	// that changed one of the best hits (go.sum with go.mod, a test with
	// its subject, the changelog with the code), by conditional frequency.
	Companion    float64
	CompanionMin float64 // the least share of a best hit's commits that changed the companion too
	CompanionTop int     // how many best hits bring companions
	// Structure of the request (signals.go): the files of its traceback
	// frames, and the modules its dotted names (a.b.c) resolve to.
	Frame  float64
	Dotted float64
	// Kinds (kinds.go): for a bug report or a feature request, the share
	// of its score a file of each kind loses; commit messages keep all.
	DemoteTest, DemoteDocs, DemoteChangelog, DemoteFixture, DemoteStyle, DemoteBuild, DemoteExample float64
}

// recentCommits is how many of the latest commits the Recent signal reads.
const recentCommits = 10

// DefaultWeights are the weights tuned with `git speed eval --pack`.
func DefaultWeights() Weights {
	return Weights{K1: 2, B: 0.5, Content: 1, Ident: 0.5, Def: 2, Doc: 0.7, Heading: 1.5, Import: 0.5, Path: 5,
		Coverage: 0.35, Tag: 10, Mention: 3, Dirty: 0.3, Rank: 0, Seeds: 10, Caller: 0,
		History: 0.6, HistFiles: 30, Churn: 0.1, Sibling: 0.5, CoChange: 0,
		Stem: 2, WholeDef: 0, Recent: 0.3, CoverMax: 8,
		Companion: 0.5, CompanionMin: 0.5, CompanionTop: 5, MsgIDF: 2.5,
		// Chosen on the tuning set (docs/pack.md): demoting tests, docs,
		// build files or examples for a bug report cost recall there, since
		// fixes change them too; changelogs, fixtures and stylesheets did not.
		Frame: 1, Dotted: 0.5, DemoteChangelog: 0.5, DemoteFixture: 0.5, DemoteStyle: 0.7}
}

// score ranks every file of the tree; open lists the query terms that
// matched nothing.
func score(src Source, q *query, req Request, limit, explain int) (_ []Scored, open []string, candidates int, _ error) {
	w := DefaultWeights()
	if req.Weights != nil {
		w = *req.Weights
	}
	lap := laps(req.Trace)
	ix, err := src.Terms(q.terms)
	if err != nil {
		return nil, nil, 0, err
	}
	lap("read term index")
	// The files scored are the files of the term index, sorted by path.
	n := len(ix.Docs)
	paths := make([]string, n)
	avg := 0.0
	for i, d := range ix.Docs {
		paths[i] = d.Path
		avg += float64(d.Len)
	}
	extra := map[string]int{} // files of the tree outside the term index that a signal brought in
	index := func(p string) int {
		i := sort.SearchStrings(paths[:n], p)
		if i < n && paths[i] == p {
			return i
		}
		if i, ok := extra[p]; ok {
			return i
		}
		return -1
	}
	if len(ix.Docs) > 0 {
		avg /= float64(len(ix.Docs))
	}
	if avg == 0 {
		avg = 1
	}
	lex := make([]float64, n)
	matched := make([][]string, n)
	fields := make([]map[string]uint8, n)
	note := func(i int, t string, f uint8) {
		if fields[i] == nil {
			fields[i] = map[string]uint8{}
		}
		if _, ok := fields[i][t]; !ok {
			matched[i] = append(matched[i], t)
		}
		fields[i][t] |= f
	}
	lowerPaths := make([]string, n)
	for i, p := range paths {
		lowerPaths[i] = strings.ToLower(p)
	}
	pathHitsOf := pathMatches(q.terms, paths, lowerPaths)
	N := float64(max(len(ix.Docs), 1))
	said := saidBy(req.History, q.terms)
	msgShare := map[string]float64{} // share of past commit messages that use the term
	if len(req.History) > 0 {
		for _, ts := range said {
			for t := range ts {
				msgShare[t]++
			}
		}
		for t := range msgShare {
			msgShare[t] /= float64(len(req.History))
		}
	}
	idfs := map[string]float64{}
	whole := map[string]bool{}
	for _, t := range q.wholes {
		whole[t] = true
	}
	stems := map[string][]string{} // file name → its path terms
	for _, t := range q.terms {
		ps := ix.Postings[t]
		pathHits := pathHitsOf[t]
		if len(ps) == 0 && len(pathHits) == 0 {
			open = append(open, q.word(t))
			continue
		}
		df := float64(max(len(ps), len(pathHits)))
		idf := math.Log(1 + (N-df+0.5)/(df+0.5))
		if idf < 0.05 {
			idf = 0.05
		}
		// A word most commit messages use ("fix", "add") says little
		// about which files a request is about.
		idf *= max(0.1, 1-w.MsgIDF*msgShare[t])
		idfs[t] = idf
		for _, p := range ps {
			fi := int(p.Doc)
			s := 0.0
			if p.Count > 0 {
				tf := float64(p.Count)
				norm := 1 - w.B + w.B*float64(ix.Docs[p.Doc].Len)/avg
				s += w.Content * tf * (w.K1 + 1) / (tf + w.K1*norm)
			}
			if p.Fields&terms.Ident != 0 {
				s += w.Ident
			}
			if p.Fields&terms.Def != 0 {
				s += w.Def
				if whole[t] {
					s += w.WholeDef
				}
			}
			if p.Fields&terms.DocLine != 0 {
				s += w.Doc
			}
			if p.Fields&terms.Heading != 0 {
				s += w.Heading
			}
			if p.Fields&terms.Import != 0 {
				s += w.Import
			}
			lex[fi] += idf * s
			note(fi, t, p.Fields)
		}
		for _, i := range pathHits {
			lex[i] += idf * w.Path
			if w.Stem > 0 {
				b := path.Base(paths[i])
				ts, ok := stems[b]
				if !ok {
					ts = terms.PathTerms(b)
					stems[b] = ts
				}
				if slices.Contains(ts, t) {
					lex[i] += idf * w.Stem
				}
			}
			note(i, t, terms.Path)
		}
	}
	if len(q.terms) > 1 {
		for i := range lex {
			if k := len(matched[i]); k > 1 {
				if w.CoverMax > 0 {
					k = min(k, w.CoverMax+1)
				}
				lex[i] *= 1 + w.Coverage*float64(k-1)
			}
		}
	}
	top := 0.0
	for _, s := range lex {
		top = max(top, s)
	}
	if top == 0 {
		top = 1
	}
	sc := append([]float64(nil), lex...)
	reason := make([]string, n)
	strength := make([]float64, n)
	evidence := make([][]string, n)
	give := func(i int, amount float64, why, ev string) {
		if amount <= 0 {
			return
		}
		sc[i] += amount
		if amount > strength[i] {
			strength[i], reason[i] = amount, why
		}
		if ev != "" && len(evidence[i]) < maxEvidence {
			evidence[i] = append(evidence[i], ev)
		}
	}
	for i := range lex {
		if lex[i] > 0 {
			strength[i] = lex[i]
		}
	}
	// include returns p's index, adding a file of the tree that has no
	// term vector (a lock file, generated code) with no lexical score.
	include := func(p string) int {
		if i := index(p); i >= 0 {
			return i
		}
		if _, ok := src.Entry(p); !ok {
			return -1
		}
		extra[p] = len(paths)
		paths = append(paths, p)
		lex, sc, strength = append(lex, 0), append(sc, 0), append(strength, 0)
		reason, evidence = append(reason, ""), append(evidence, nil)
		matched, fields = append(matched, nil), append(fields, nil)
		return len(paths) - 1
	}

	// Graph: callers of the best hits and a PageRank seeded by them.
	order := byScore(sc, paths, w.Seeds)
	var seeds []string
	for _, i := range order {
		if len(seeds) >= w.Seeds || lex[i] <= 0 {
			break
		}
		seeds = append(seeds, paths[i])
	}
	if len(seeds) > 0 && (w.Caller > 0 || w.Rank > 0) {
		// The graph is read only now: it is the whole project map.
		g := src.Graph()
		doc := make([]int, len(g.Files)) // graph file → scored file
		for gi := range g.Files {
			doc[gi] = index(g.Files[gi].Path)
		}
		seedSet := map[int]bool{}
		for _, s := range seeds {
			seedSet[index(s)] = true
		}
		if w.Caller > 0 {
			for _, e := range g.Edges {
				from, to := doc[e.From], doc[e.To]
				if from >= 0 && to >= 0 && seedSet[to] && !seedSet[from] && from != to {
					give(from, w.Caller*lex[to], "uses "+paths[to], "graph: uses "+paths[to])
				}
			}
		}
		if w.Rank > 0 && len(g.Edges) > 0 {
			rank := graph.Rank(g, seeds, nil)
			best := 0.0
			for gi, r := range rank {
				if doc[gi] >= 0 && !seedSet[doc[gi]] {
					best = max(best, r)
				}
			}
			if best > 0 {
				for gi, r := range rank {
					if i := doc[gi]; i >= 0 && !seedSet[i] && r > best*0.05 {
						give(i, w.Rank*top*r/best, "close in the code graph to the best matches", "graph: pagerank from the best matches")
					}
				}
			}
		}
	}

	// History: files of recent commits whose messages match the request.
	if w.History > 0 && len(req.History) > 0 && len(idfs) > 0 {
		total := 0.0
		for _, t := range q.terms {
			total += idfs[t]
		}
		for k, c := range req.History {
			if len(c.Paths) == 0 || len(c.Paths) > w.HistFiles {
				continue
			}
			seen := said[k]
			m := 0.0
			for _, t := range q.terms {
				if seen[t] {
					m += idfs[t]
				}
			}
			share := m / total
			if share < 0.34 {
				continue
			}
			subject, _, _ := strings.Cut(c.Message, "\n")
			for _, p := range c.Paths {
				if i := index(p); i >= 0 {
					give(i, w.History*top*share/math.Sqrt(float64(len(c.Paths))), "changed by a commit about the same thing",
						fmt.Sprintf("history: %s %s", short(c.ID)[:min(7, len(c.ID))], clip(subject, 60)))
				}
			}
		}
	}

	// Churn: how often recent commits changed a file.
	if w.Churn > 0 && len(req.History) > 0 {
		freq := map[int]int{}
		most := 0
		for _, c := range req.History {
			if len(c.Paths) == 0 || len(c.Paths) > w.HistFiles {
				continue
			}
			for _, p := range c.Paths {
				if i := index(p); i >= 0 {
					freq[i]++
					most = max(most, freq[i])
				}
			}
		}
		for i, k := range freq {
			if k >= 3 {
				give(i, w.Churn*top*float64(k)/float64(most), "often changed", fmt.Sprintf("history: changed by %d of the last %d commits", k, len(req.History)))
			}
		}
	}

	// Recent: the files of the last recentCommits commits, the latest
	// most; work goes on where it went on yesterday.
	if w.Recent > 0 {
		for k, c := range req.History[:min(len(req.History), recentCommits)] {
			if len(c.Paths) == 0 || len(c.Paths) > w.HistFiles {
				continue
			}
			for _, p := range c.Paths {
				if i := index(p); i >= 0 && lex[i] > 0 {
					give(i, w.Recent*top/float64(k+1)/math.Sqrt(float64(len(c.Paths))), "changed recently", "history: changed by "+short(c.ID)[:min(7, len(c.ID))])
				}
			}
		}
	}

	// Siblings: the tests of the best hits, and what the best tests test.
	if w.Sibling > 0 {
		byBase := map[string][]int{}
		for i := range paths {
			byBase[path.Base(paths[i])] = append(byBase[path.Base(paths[i])], i)
		}
		base := append([]float64(nil), sc...)
		for _, i := range byScore(base, paths, 2*w.Seeds) {
			if base[i] <= 0 {
				break
			}
			for _, j := range siblings(paths, byBase, paths[i]) {
				// A sibling rises towards the file it goes with, never past it.
				give(j, min(w.Sibling*base[i], 0.95*base[i]-sc[j]), "test or subject of "+paths[i], "sibling: "+paths[i])
			}
		}
	}

	// Companions: for each of the best hits, the files that most of the
	// past commits changing it changed as well. A companion rises towards
	// its hit, never past it.
	if w.Companion > 0 && len(req.History) > 0 {
		base := append([]float64(nil), sc...)
		companions(req.History, w, paths, byScore(base, paths, w.CompanionTop), func(i int, p string, share float64) {
			if j := include(p); j >= 0 {
				give(j, min(w.Companion*share*base[i], 0.95*base[i]-sc[j]), "changed with "+paths[i]+" before", "history: changed with "+paths[i])
			}
		})
	}

	// Co-change: files that recent commits changed with the best hits.
	if w.CoChange > 0 && len(req.History) > 0 {
		base := append([]float64(nil), sc...)
		seedScore := map[string]float64{}
		for _, i := range byScore(base, paths, w.Seeds) {
			if lex[i] > 0 {
				seedScore[paths[i]] = base[i]
			}
		}
		together := map[int]float64{}
		commits := map[string]int{}
		for _, c := range req.History {
			if len(c.Paths) < 2 || len(c.Paths) > w.HistFiles {
				continue
			}
			for _, p := range c.Paths {
				if s, ok := seedScore[p]; ok {
					commits[p]++
					for _, o := range c.Paths {
						if o != p {
							if j := index(o); j >= 0 {
								together[j] += s / float64(len(c.Paths)-1)
							}
						}
					}
				}
			}
		}
		for j, v := range together {
			give(j, w.CoChange*v/math.Sqrt(float64(max(1, len(commits)))), "changed together with the best matches", "history: changed together with the best matches")
		}
	}

	// Traceback frames and dotted names of the request.
	structural(q.text, paths, w, top, give)

	// Paths named in the request, dirty files, tags.
	for _, m := range q.mentions {
		lm := strings.ToLower(m)
		for i, lp := range lowerPaths {
			if lp == lm || strings.HasSuffix(lp, "/"+lm) {
				give(i, w.Mention*top, "path mentioned in request", "mentioned: "+m)
			}
		}
	}
	for _, s := range req.Status {
		if i := index(s.Path); i >= 0 {
			give(i, w.Dirty*top, "changed in the work tree", "git status: "+strings.TrimSpace(s.Code))
		}
	}
	for _, t := range req.Tags {
		if i := include(t); i >= 0 {
			give(i, w.Tag*top, "tagged by the request", "tagged")
		}
	}

	kindPrior(requestKind(q.text), paths, w, sc)
	for _, v := range sc {
		if v > 0 {
			candidates++
		}
	}
	var out []Scored
	for k, i := range byScore(sc, paths, limit) {
		s := Scored{Path: paths[i], Score: round(sc[i]), matched: matched[i]}
		if k < explain {
			// Reasons and evidence are written for the files shown only.
			s.Reason, s.Evidence = reason[i], evidence[i]
			if lex[i] > 0 {
				if s.Reason == "" {
					s.Reason, s.lexical = lexReason(q, matched[i], fields[i]), true
				}
				s.fields = fields[i]
				s.Evidence = append([]string{termEvidence(q, matched[i], fields[i])}, s.Evidence...)
			}
			s.Evidence = dedupe(s.Evidence)
		}
		out = append(out, s)
	}
	return out, open, candidates, nil
}

// saidBy lists, for each commit of history, the query terms its message
// uses (split and stemmed like the request).
func saidBy(history []Commit, qterms []string) []map[string]bool {
	if len(history) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, t := range qterms {
		want[t] = true
	}
	out := make([]map[string]bool, len(history))
	for k, c := range history {
		seen := map[string]bool{}
		terms.Words([]byte(c.Message), func(tok string) {
			terms.Forms(tok, func(t string, _ bool) {
				if want[t] {
					seen[t] = true
				}
			})
		})
		out[k] = seen
	}
	return out
}

// companions calls fn(i, p, share) for each path p that at least
// w.CompanionMin of the past commits changing best hit i changed too, over
// at least two such commits; commits of more than w.HistFiles files are
// ignored. Hits and companions come in a fixed order.
func companions(history []Commit, w Weights, paths []string, best []int, fn func(i int, p string, share float64)) {
	for _, i := range best {
		n := 0
		with := map[string]int{}
		for _, c := range history {
			if len(c.Paths) > w.HistFiles || !slices.Contains(c.Paths, paths[i]) {
				continue
			}
			n++
			for _, p := range c.Paths {
				if p != paths[i] {
					with[p]++
				}
			}
		}
		if n < 2 {
			continue
		}
		ps := make([]string, 0, len(with))
		for p, k := range with {
			if k >= 2 && float64(k) >= w.CompanionMin*float64(n) {
				ps = append(ps, p)
			}
		}
		slices.Sort(ps)
		for _, p := range ps {
			fn(i, p, float64(with[p])/float64(n))
		}
	}
}

// byScore orders file indexes by score, then path (deterministic).
// byScore returns the k files with the best positive scores, best first
// (ties by path). It keeps a sorted list of k: n·log k, not a full sort.
func byScore(sc []float64, paths []string, k int) []int {
	better := func(a, b int) bool {
		if sc[a] != sc[b] {
			return sc[a] > sc[b]
		}
		return paths[a] < paths[b]
	}
	top := make([]int, 0, k+1)
	for i, s := range sc {
		if s <= 0 || k <= 0 || (len(top) == k && !better(i, top[k-1])) {
			continue
		}
		j := sort.Search(len(top), func(j int) bool { return better(i, top[j]) })
		top = append(top, 0)
		copy(top[j+1:], top[j:])
		top[j] = i
		if len(top) > k {
			top = top[:k]
		}
	}
	return top
}

func lexReason(q *query, matched []string, fields map[string]uint8) string {
	var defs, all []string
	for _, t := range matched {
		all = append(all, q.word(t))
		if fields[t]&terms.Def != 0 {
			defs = append(defs, q.word(t))
		}
	}
	switch {
	case len(defs) > 0:
		return "defines " + strings.Join(defs, ", ")
	case len(matched) > 0 && allPath(matched, fields):
		return "path matches " + strings.Join(all, ", ")
	default:
		return "matches " + strings.Join(all, ", ")
	}
}

func allPath(matched []string, fields map[string]uint8) bool {
	for _, t := range matched {
		if fields[t] != terms.Path {
			return false
		}
	}
	return true
}

func termEvidence(q *query, matched []string, fields map[string]uint8) string {
	parts := make([]string, len(matched))
	for i, t := range matched {
		parts[i] = q.word(t) + " (" + strings.Join(terms.Names(fields[t]), ", ") + ")"
	}
	return "terms: " + strings.Join(parts, "; ")
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	if out == nil {
		out = []string{}
	}
	return out
}

func round(f float64) float64 { return math.Round(f*1000) / 1000 }

// siblings are the files that test p, or that p tests, by naming custom,
// anywhere in the tree (a_test.go, test_a.py, a.test.ts, a.spec.ts,
// ATest.java, a_spec.rb …); at most three, nearest folder first.
func siblings(paths []string, byBase map[string][]int, p string) []int {
	dir, file := path.Split(p)
	ext := path.Ext(file)
	stem := strings.TrimSuffix(file, ext)
	var names []string
	switch {
	case strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "_spec"):
		names = append(names, stem[:len(stem)-5]+ext, "_"+stem[:len(stem)-5]+ext)
	case strings.HasPrefix(stem, "test_"):
		names = append(names, stem[5:]+ext, "_"+stem[5:]+ext)
	case strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec"):
		names = append(names, stem[:len(stem)-5]+ext)
	case strings.HasSuffix(stem, "Test") && len(stem) > 4:
		names = append(names, stem[:len(stem)-4]+ext)
	default:
		bare := strings.TrimLeft(stem, "_")
		names = append(names, stem+"_test"+ext, "test_"+bare+ext, bare+"_test"+ext, stem+".test"+ext, stem+".spec"+ext,
			stem+"Test"+ext, stem+"_spec"+ext)
	}
	var out []int
	for _, nm := range names {
		for _, i := range byBase[nm] {
			// In the same folder, or one side in a test folder.
			if o := paths[i]; o != p && (path.Dir(o) == path.Dir(p) || testDir(o) || testDir(p)) {
				out = append(out, i)
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		return commonPrefix(paths[out[a]], dir) > commonPrefix(paths[out[b]], dir)
	})
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// pathMatches finds, for each term, the paths one of whose folder or file
// name words (split and stemmed like the index) is the term. A path is
// tokenized only when it holds the start of some term.
func pathMatches(qterms, paths, lowerPaths []string) map[string][]int {
	want := map[string]bool{}
	var probes []string
	for _, t := range qterms {
		want[t] = true
		probes = append(probes, t[:min(len(t), 4)])
	}
	out := map[string][]int{}
	memo := map[string][]string{} // folder or file name → its wanted terms
	segTerms := func(seg string) []string {
		ts, ok := memo[seg]
		if !ok {
			for _, t := range terms.PathTerms(seg) {
				if want[t] {
					ts = append(ts, t)
				}
			}
			memo[seg] = ts
		}
		return ts
	}
	// Paths come sorted, so a folder's terms are worked out once for all
	// its files.
	lastDir, dirHits := "\x00", []string(nil)
	hasProbe := func(s string) bool {
		for _, p := range probes {
			if strings.Contains(s, p) {
				return true
			}
		}
		return false
	}
	for i, lp := range lowerPaths {
		if !hasProbe(lp) {
			continue
		}
		dir, base := "", paths[i]
		if j := strings.LastIndexByte(base, '/'); j >= 0 {
			dir, base = base[:j], base[j+1:]
		}
		if dir != lastDir {
			lastDir, dirHits = dir, nil
			for rest := dir; rest != ""; {
				seg := rest
				if j := strings.IndexByte(rest, '/'); j >= 0 {
					seg, rest = rest[:j], rest[j+1:]
				} else {
					rest = ""
				}
				for _, t := range segTerms(seg) {
					if !slices.Contains(dirHits, t) {
						dirHits = append(dirHits, t)
					}
				}
			}
		}
		for _, t := range dirHits {
			out[t] = append(out[t], i)
		}
		if !hasProbe(lp[len(lp)-len(base):]) {
			continue // the probe matched the folder only
		}
		for _, t := range segTerms(base) {
			if !slices.Contains(dirHits, t) {
				out[t] = append(out[t], i)
			}
		}
	}
	return out
}

// testDir reports whether p lies in a folder of tests.
func testDir(p string) bool {
	for _, d := range strings.Split(path.Dir(p), "/") {
		switch d {
		case "test", "tests", "__tests__", "spec", "specs", "testing":
			return true
		}
	}
	return false
}
