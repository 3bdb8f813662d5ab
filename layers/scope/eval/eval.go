// Package eval measures Layer 2 against history: it replays recent
// multi-file commits as synthetic tasks (the most-changed non-test source
// file is files_touched, the other changed source files are the truth,
// the parent commit's tree is the world) and reports where scope put the
// truth files — full, skeleton, truncated, dropped or not a candidate —
// at which hop distance, and at what token cost, for each fill policy and
// for the naive baseline "whole files by distance until the budget is
// full". RunCreates (creates.go) replays instead the commits that added
// source files as tasks that create them. The caller supplies the history
// (git) through the History interface; eval itself is pure.
//
// real_test.go (build tag evalreal) replays a real repository through
// Layer 1 and Layer 2 (-ablate, -messages and -nocochange as in git speed
// eval):
//
//	go test -tags evalreal -run TestRealRepo -v ./layers/scope/eval -args -repo DIR -commits 60 [-ablate] [-out report.json -cases]
//
// Score is (full + skeleton/2 + truncated/4) over the truth files present
// in the parent tree; recall is the share delivered at any tier. At 32k
// tokens (developer stage, o200k), 60 recent commits (150 for the smaller
// repositories), scope v5 with its default policy (seed) against v6 with
// its default (value) and every signal (co-change over 500 commits):
//
//	repository    language   cases truth  v5 recall/score  v6 recall/score
//	bubbletea     go            21    36  0.750 / 0.569    0.778 / 0.500
//	lipgloss      go            31    61  0.885 / 0.754    0.918 / 0.721
//	click         python        35    69  0.609 / 0.435    0.609 / 0.406
//	httpx         python        19    64  0.656 / 0.516    0.625 / 0.406
//	attrs         python        14    38  0.421 / 0.263    0.474 / 0.250
//	ky            typescript    40   170  0.800 / 0.634    0.900 / 0.609
//	p-queue       typescript    51   102  0.980 / 0.956    0.980 / 0.951
//	zustand       typescript     6     8  0.875 / 0.750    0.875 / 0.750
//	commander.js  commonjs      19    57  0.193 / 0.154    0.404 / 0.254
//	koa           commonjs      16    25  0.480 / 0.440    0.680 / 0.660
//	superagent    commonjs      17    50  0.280 / 0.280    0.380 / 0.350
//	body-parser   commonjs      18    64  0.578 / 0.578    0.828 / 0.773
//	fd            rust          17    34  0.853 / 0.772    0.941 / 0.779
//	hyperfine     rust          30   108  0.843 / 0.792    0.944 / 0.833
//	javapoet      java          26    77  0.961 / 0.620    1.000 / 0.620
//	jsoup         java          31    78  0.603 / 0.429    0.603 / 0.433
//	all                        391  1041  0.710 / 0.590    0.782 / 0.603
//
// With the commit messages as the tasks' text (-messages) the names signal
// added 0.004 recall overall (0.016 on Python; measured on the graph
// before the TypeScript/JavaScript/Python resolution work). Python's
// remaining misses are mostly budget: click's core.py and attrs' _make.py
// leave little room beside them; commander.js's are mostly some of the
// dozens of tests/command.*.test.js of lib/command.js, and superagent's
// fell from 0.760 with the resolution work (a graph matter).
package eval

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/scope"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/cochange"
)

// Commit is one commit of the history, with the paths it changed against
// its parent. Lines, when set, gives the lines added plus deleted per path
// and picks the seed; without it the first source file in Changed is.
type Commit struct {
	ID      string         `json:"id"`
	Parent  string         `json:"parent"`
	Changed []string       `json:"changed"`
	Lines   map[string]int `json:"lines,omitempty"`
	Message string         `json:"message,omitempty"` // the commit message (the task's title and description with EvalOptions.Messages)
	// Hunks, when set, gives per path the regions the commit changed, in
	// the parent's lines (`git diff -U0`), and turns on the judging of
	// lines: Tally.Hunks and the shares shown and pointed to.
	Hunks map[string][]Hunk `json:"hunks,omitempty"`
}

// Hunk is one changed region in the parent's lines: Count lines from
// Start, or (Count 0) an insertion after line Start.
type Hunk struct {
	Start int `json:"start"`
	Count int `json:"count"`
}

// CoChanges is what a History offers when it can mine co-change history:
// the history up to commit (its parent for a replayed commit), mined.
type CoChanges interface {
	CoChangeAt(commit string) (*cochange.Index, error)
}

// History is what eval needs of a repository.
type History interface {
	Commits(n int) ([]Commit, error)            // most recent first, first-parent
	WorldAt(commit string) (scope.World, error) // Layer 1 at the commit's tree
}

// EvalOptions controls Run.
type EvalOptions struct {
	Commits  int            // recent commits to look at; 0 means 100
	Budget   int            // total tokens per task; 0 means 32000
	Stage    string         // "" means developer
	Config   config.Config  // zero means config.Default()
	Counter  tokens.Counter // nil means Config's tokenizer
	Counts   *scope.Counts  // token counts kept across the replay's scopes; nil keeps them per Run
	Policies []string       // scope policies to compare; nil means value (the default) and seed
	MinFiles int            // fewest changed source files a commit needs; 0 means 2
	MaxFiles int            // most; larger commits (renames, sweeps) are skipped; 0 means 25
	Cases    bool           // keep the per-commit cases in the report
	// Ablate adds, for the first policy, one method per signal turned off
	// ("no-cochange" …) and "graph-only" (every other signal off).
	Ablate bool
	// Messages gives the synthetic task the commit's message as title and
	// description, so the names signal has text to read.
	Messages bool
	// Creates replays commits that added source files as tasks that
	// create them (creates.go) instead of the usual replay.
	Creates bool
}

// method is one way of scoping a case.
type method struct {
	name   string
	policy string
	off    []string
}

func methodsOf(opt EvalOptions) []method {
	var ms []method
	for _, p := range opt.Policies {
		ms = append(ms, method{name: p, policy: p})
	}
	if opt.Ablate {
		p := opt.Policies[0]
		for _, sg := range scope.Signals {
			if sg == scope.SignalPlace && !opt.Creates {
				continue // only files to create have a place
			}
			ms = append(ms, method{name: "no-" + sg, policy: p, off: []string{sg}})
		}
		var rest []string
		for _, sg := range scope.Signals {
			if sg != scope.SignalGraph {
				rest = append(rest, sg)
			}
		}
		ms = append(ms, method{name: "graph-only", policy: p, off: rest})
	}
	return ms
}

// Outcome names where a truth file ended up.
const (
	Full         = "full"
	Skeleton     = "skeleton"
	Truncated    = "truncated"
	Dropped      = "dropped"
	NotCandidate = "not_candidate"
	Absent       = "absent" // not in the parent tree: the commit created it
)

var outcomes = []string{Full, Skeleton, Truncated, Dropped, NotCandidate, Absent}

// Tally is how truth files fared under one method.
type Tally struct {
	Method     string             `json:"method"`
	Lang       string             `json:"lang,omitempty"`    // the seed's language, in Report.Languages
	Signals    map[string]int     `json:"signals,omitempty"` // delivered truth files each signal made candidates
	Truth      int                `json:"truth"`             // truth files present in the parent tree
	Outcomes   map[string]int     `json:"outcomes"`          // outcome → truth files
	Shares     map[string]float64 `json:"shares"`            // outcome → share of Truth (Absent excluded)
	Distances  map[string]int     `json:"distances"`         // "0".."3", "none" → truth files
	Recall     float64            `json:"recall"`            // share of Truth delivered at any tier
	FullRecall float64            `json:"full_recall"`       // share delivered in full
	Score      float64            `json:"score"`             // (full + skeleton/2 + truncated/4) / Truth
	Tokens     int                `json:"tokens"`            // code tokens used, summed over cases
	AvgTokens  int                `json:"avg_tokens"`        // per case
	Files      int                `json:"files"`             // files delivered, summed
	// Hunks counts the regions the commits changed in the truth files
	// (present in the parent; with Commit.Hunks); HunksShown those whose
	// every line the material shows (the file came whole, or its shown
	// lines hold the hunk), HunksPointed those shown or inside ranges the
	// material's line pointers name. Shown and Pointed are their shares.
	Hunks        int     `json:"hunks"`
	HunksShown   int     `json:"hunks_shown"`
	HunksPointed int     `json:"hunks_pointed"`
	Shown        float64 `json:"shown"`
	Pointed      float64 `json:"pointed"`
}

// Case is one replayed commit.
type Case struct {
	Commit  string                       `json:"commit"`
	Seed    string                       `json:"seed"`
	Lang    string                       `json:"lang"`
	Truth   []string                     `json:"truth"`
	Results map[string]map[string]string `json:"results"`               // method → truth path → "outcome@distance"
	Over    map[string]bool              `json:"over_budget,omitempty"` // method → distance 0 alone exceeded the budget
	Lines   map[string]map[string]string `json:"lines,omitempty"`       // method → truth path → "shown/pointed/hunks"
}

// Skip is a commit that was not replayed, and why.
type Skip struct {
	Commit string `json:"commit"`
	Reason string `json:"reason"`
}

// Report is the result of Run.
type Report struct {
	Budget    int     `json:"budget"`
	Stage     string  `json:"stage"`
	Tokenizer string  `json:"tokenizer"`
	Cases     int     `json:"cases"`
	Methods   []Tally `json:"methods"`   // policies in the order asked, ablations, then "baseline"
	Languages []Tally `json:"languages"` // the same per language of the seed, by language then method
	Skipped   []Skip  `json:"skipped"`
	Detail    []Case  `json:"detail,omitempty"`
}

// Baseline is the method name of the naive comparison.
const Baseline = "baseline"

// Run replays the history's recent commits.
func Run(h History, opt EvalOptions) (*Report, error) {
	opt, err := opt.withDefaults(2, []string{scope.PolicyValue, scope.PolicySeed})
	if err != nil {
		return nil, err
	}
	commits, err := h.Commits(opt.Commits)
	if err != nil {
		return nil, err
	}
	rep := &Report{Budget: opt.Budget, Stage: opt.Stage, Tokenizer: opt.Counter.Name(), Skipped: []Skip{}}
	var methods []string
	for _, m := range methodsOf(opt) {
		methods = append(methods, m.name)
	}
	methods = append(methods, Baseline)
	tallies := map[string]*Tally{}
	langCases := map[string]int{}
	for _, c := range commits {
		cs, skip := replay(h, c, opt, tallies)
		if skip != "" {
			rep.Skipped = append(rep.Skipped, Skip{c.ID, skip})
			continue
		}
		rep.Cases++
		langCases[cs.Lang]++
		if opt.Cases {
			rep.Detail = append(rep.Detail, *cs)
		}
	}
	finish := func(t *Tally, cases int) Tally {
		if t.Truth > 0 {
			for _, o := range outcomes {
				if o != Absent {
					t.Shares[o] = round3(float64(t.Outcomes[o]) / float64(t.Truth))
				}
			}
			t.Recall = round3(float64(t.Outcomes[Full]+t.Outcomes[Skeleton]+t.Outcomes[Truncated]) / float64(t.Truth))
			t.FullRecall = round3(float64(t.Outcomes[Full]) / float64(t.Truth))
			t.Score = round3((float64(t.Outcomes[Full]) + float64(t.Outcomes[Skeleton])/2 + float64(t.Outcomes[Truncated])/4) / float64(t.Truth))
		}
		if t.Hunks > 0 {
			t.Shown = round3(float64(t.HunksShown) / float64(t.Hunks))
			t.Pointed = round3(float64(t.HunksPointed) / float64(t.Hunks))
		}
		if cases > 0 {
			t.AvgTokens = t.Tokens / cases
		}
		return *t
	}
	for _, m := range methods {
		rep.Methods = append(rep.Methods, finish(tallyOf(tallies, m, ""), rep.Cases))
	}
	var langs []string
	for l := range langCases {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	rep.Languages = []Tally{}
	for _, l := range langs {
		for _, m := range methods {
			rep.Languages = append(rep.Languages, finish(tallyOf(tallies, m, l), langCases[l]))
		}
	}
	return rep, nil
}

// withDefaults fills the options left zero: minFiles and policies are
// the replay's own.
func (opt EvalOptions) withDefaults(minFiles int, policies []string) (EvalOptions, error) {
	if opt.Commits <= 0 {
		opt.Commits = 100
	}
	if opt.Budget <= 0 {
		opt.Budget = 32000
	}
	if opt.Stage == "" {
		opt.Stage = "developer"
	}
	if opt.Config.Budget == (config.Budget{}) {
		opt.Config = config.Default()
	}
	if opt.MinFiles <= 0 {
		opt.MinFiles = minFiles
	}
	if opt.MaxFiles <= 0 {
		opt.MaxFiles = 25
	}
	if len(opt.Policies) == 0 {
		opt.Policies = policies
	}
	if opt.Counts == nil {
		opt.Counts = scope.NewCounts()
	}
	if opt.Counter == nil {
		c, err := tokens.New(opt.Config.Tokens.Tokenizer)
		if err != nil {
			return opt, err
		}
		opt.Counter = c
	}
	return opt, nil
}

// tallyOf is the tally of method m over every case (lang "") or over the
// cases of one seed language.
func tallyOf(tallies map[string]*Tally, m, lang string) *Tally {
	k := m + "\x00" + lang
	t := tallies[k]
	if t == nil {
		t = &Tally{Method: m, Lang: lang, Outcomes: map[string]int{}, Shares: map[string]float64{}, Distances: map[string]int{}, Signals: map[string]int{}}
		tallies[k] = t
	}
	return t
}

// replay runs one commit through every method; it returns why the commit
// was skipped, or "".
func replay(h History, c Commit, opt EvalOptions, tallies map[string]*Tally) (*Case, string) {
	srcs, w, skip := parentOf(h, c, opt)
	if skip != "" {
		return nil, skip
	}
	g := w.Graph()
	seed := pickSeed(c, srcs, g)
	if seed == "" {
		return nil, "no non-test source file of the commit is in the parent tree"
	}
	var truth []string
	for _, p := range srcs {
		if p != seed {
			truth = append(truth, p)
		}
	}
	f, id := syntheticFeature(c, seed, opt.Messages)
	lang := string(world.DetectLang(seed, nil))
	cs := &Case{Commit: c.ID, Seed: seed, Lang: lang, Truth: truth, Results: map[string]map[string]string{}}
	co, skip := coChangeOf(h, c.Parent)
	if skip != "" {
		return nil, skip
	}
	codeLimit := 0
	var distances map[string]int
	for k, m := range methodsOf(opt) {
		r, err := scope.Scope(w, f, id, scope.Options{Stage: opt.Stage, Budget: opt.Budget, Config: opt.Config, Counter: opt.Counter,
			Policy: m.policy, Off: m.off, CoChange: co, Counts: opt.Counts})
		if err != nil {
			return nil, "scope: " + err.Error()
		}
		codeLimit = r.Budget.Dimensions.Code.Limit
		entries := map[string]scope.FileEntry{}
		dists := map[string]int{}
		for _, e := range r.Manifest.Files {
			entries[e.Path] = e
			dists[e.Path] = e.Distance
		}
		judged := judgeLines(w, c, truth, r.Material.Files)
		if k == 0 {
			distances = dists
		}
		res := map[string]string{}
		for _, t := range []*Tally{tallyOf(tallies, m.name, ""), tallyOf(tallies, m.name, lang)} {
			for _, p := range truth {
				out, dist := NotCandidate, "none"
				var sigs []string
				if g.Index(p) < 0 {
					out = Absent
				} else if e, ok := entries[p]; ok {
					out, dist, sigs = e.Tier, fmt.Sprint(e.Distance), e.Signals
				}
				record(t, out, dist)
				t.addLines(judged[p])
				if out == Full || out == Skeleton || out == Truncated {
					for _, sg := range sigs {
						t.Signals[sg]++
					}
				}
				res[p] = out + "@" + dist
			}
			t.Tokens += r.Budget.Dimensions.Code.Used
			t.Files += len(r.Material.Files)
		}
		if r.Budget.OverBudget != "" {
			if cs.Over == nil {
				cs.Over = map[string]bool{}
			}
			cs.Over[m.name] = true
		}
		cs.Results[m.name] = res
		cs.addLines(m.name, judged)
	}
	// The baseline: whole files by distance (then path) while they fit.
	kept, used, n := baseline(w, distances, opt, codeLimit)
	res := map[string]string{}
	var whole []scope.File
	for p := range kept {
		whole = append(whole, scope.File{Path: p, Tier: scope.TierFull})
	}
	judged := judgeLines(w, c, truth, whole)
	cs.addLines(Baseline, judged)
	for _, t := range []*Tally{tallyOf(tallies, Baseline, ""), tallyOf(tallies, Baseline, lang)} {
		baselineTally(t, g, truth, distances, kept, res)
		for _, p := range truth {
			t.addLines(judged[p])
		}
		t.Tokens += used
		t.Files += n
	}
	cs.Results[Baseline] = res
	return cs, ""
}

// lineCount is how one truth file's changed hunks fared: shown, pointed
// to (or shown), of all.
type lineCount struct{ shown, pointed, hunks int }

func (t *Tally) addLines(n lineCount) {
	t.Hunks += n.hunks
	t.HunksShown += n.shown
	t.HunksPointed += n.pointed
}

func (cs *Case) addLines(method string, judged map[string]lineCount) {
	if len(judged) == 0 {
		return
	}
	if cs.Lines == nil {
		cs.Lines = map[string]map[string]string{}
	}
	m := map[string]string{}
	for p, n := range judged {
		m[p] = fmt.Sprintf("%d/%d/%d", n.shown, n.pointed, n.hunks)
	}
	cs.Lines[method] = m
}

// judgeLines counts, per truth file present in the parent, the hunks the
// commit changed in it that the delivered files show or point to, with
// the reader's rules of scope.CoverageOf. Nothing without Commit.Hunks.
func judgeLines(w scope.World, c Commit, truth []string, files []scope.File) map[string]lineCount {
	if c.Hunks == nil {
		return nil
	}
	delivered := map[string]scope.File{}
	for _, f := range files {
		delivered[f.Path] = f
	}
	g := w.Graph()
	out := map[string]lineCount{}
	for _, p := range truth {
		hs := c.Hunks[p]
		if g.Index(p) < 0 || len(hs) == 0 {
			continue
		}
		n := lineCount{hunks: len(hs)}
		if f, ok := delivered[p]; ok {
			var src []byte
			if f.Tier != scope.TierFull {
				src, _ = w.Content(p)
			} else {
				src = []byte(strings.Repeat("\n", max(g.Files[g.Index(p)].Lines, maxHunkLine(hs))))
			}
			cv := scope.CoverageOf(f, string(src))
			for _, h := range hs {
				if scope.Covers(cv.Shown, h.Start, h.Count) {
					n.shown++
				}
				if scope.Covers(cv.Pointed, h.Start, h.Count) {
					n.pointed++
				}
			}
		}
		out[p] = n
	}
	return out
}

func maxHunkLine(hs []Hunk) int {
	m := 1
	for _, h := range hs {
		m = max(m, h.Start+h.Count)
	}
	return m
}

// parentOf is the changed source files of c, sorted, and the world of
// its parent; or why c is not replayed.
func parentOf(h History, c Commit, opt EvalOptions) ([]string, scope.World, string) {
	if c.Parent == "" {
		return nil, nil, "no parent"
	}
	var srcs []string
	for _, p := range c.Changed {
		if IsSource(p) {
			srcs = append(srcs, p)
		}
	}
	sort.Strings(srcs)
	if len(srcs) < opt.MinFiles || len(srcs) > opt.MaxFiles {
		return nil, nil, fmt.Sprintf("%d changed source files (want %d to %d)", len(srcs), opt.MinFiles, opt.MaxFiles)
	}
	w, err := h.WorldAt(c.Parent)
	if err != nil {
		return nil, nil, "parent world: " + err.Error()
	}
	return srcs, w, ""
}

// coChangeOf is the history up to parent, mined, when h can mine it; or
// why the commit is not replayed.
func coChangeOf(h History, parent string) (*cochange.Index, string) {
	ch, ok := h.(CoChanges)
	if !ok {
		return nil, ""
	}
	co, err := ch.CoChangeAt(parent)
	if err != nil {
		return nil, "co-change history: " + err.Error()
	}
	return co, ""
}

func baselineTally(t *Tally, g *world.Graph, truth []string, distances map[string]int, kept map[string]bool, res map[string]string) {
	for _, p := range truth {
		out, dist := NotCandidate, "none"
		if g.Index(p) < 0 {
			out = Absent
		} else if d, ok := distances[p]; ok {
			dist = fmt.Sprint(d)
			out = Dropped
			if kept[p] {
				out = Full
			}
		}
		record(t, out, dist)
		res[p] = out + "@" + dist
	}
}

func record(t *Tally, out, dist string) {
	t.Outcomes[out]++
	if out != Absent {
		t.Truth++
		t.Distances[dist]++
	}
}

// baseline takes whole files in order of distance, then path, while they
// fit limit; it returns the files kept, the tokens used and their number.
func baseline(w scope.World, distances map[string]int, opt EvalOptions, limit int) (map[string]bool, int, int) {
	var paths []string
	for p, d := range distances {
		if d <= opt.Config.Scope.MaxHops {
			paths = append(paths, p)
		}
	}
	sort.Slice(paths, func(i, j int) bool {
		if distances[paths[i]] != distances[paths[j]] {
			return distances[paths[i]] < distances[paths[j]]
		}
		return paths[i] < paths[j]
	})
	kept := map[string]bool{}
	used, misses := 0, 0
	for _, p := range paths {
		if limit-used < 16 || misses > 20 {
			break
		}
		b, err := w.Content(p)
		if err != nil {
			continue
		}
		n := opt.Counter.Count(string(b))
		if distances[p] > 0 && used+n > limit {
			misses++
			continue
		}
		used += n
		kept[p] = true
	}
	return kept, used, len(kept)
}

// pickSeed is the commit's most-changed non-test source file present in
// the parent tree (ties and missing line counts: path order).
func pickSeed(c Commit, srcs []string, g *world.Graph) string {
	best, bestN := "", -1
	for _, p := range srcs {
		if IsTest(p) || g.Index(p) < 0 {
			continue
		}
		n := c.Lines[p]
		if n > bestN {
			best, bestN = p, n
		}
	}
	return best
}

func syntheticFeature(c Commit, seed string, messages bool) (*feature.Feature, string) {
	return replayFeature(c, messages, func(t *feature.Task) string {
		t.FilesTouched, t.Status = []string{seed}, feature.StatusInProgress
		return fmt.Sprintf("files_touched = [%q]\nstatus = \"in_progress\"\n", seed)
	})
}

// replayFeature is the one-task feature of a replayed commit: set fills
// the task's files and status and returns their TOML, after the id,
// title and description.
func replayFeature(c Commit, messages bool, set func(t *feature.Task) string) (*feature.Feature, string) {
	id := "c" + c.ID
	if len(id) > 13 {
		id = id[:13]
	}
	title, desc := "replay "+c.ID, ""
	if messages && strings.TrimSpace(c.Message) != "" {
		msg := strings.TrimSpace(c.Message)
		title, desc, _ = strings.Cut(msg, "\n")
		desc = strings.TrimSpace(desc)
	}
	t := &feature.Task{ID: id, Title: title, Description: desc, DependsOn: []string{}, Acceptance: []string{}, Requirements: []string{},
		Path: path.Join(feature.Dir, "eval", "tasks", id+".toml")}
	rest := set(t)
	t.Raw = []byte(fmt.Sprintf("id = %q\ntitle = %q\ndescription = %q\n", id, title, desc) + rest)
	return &feature.Feature{Name: "eval", Spec: &feature.Spec{}, Tasks: []*feature.Task{t}}, id
}

// IsSource reports whether p is a file git-speed extracts facts from.
func IsSource(p string) bool {
	switch world.DetectLang(p, nil) {
	case world.LangGo, world.LangPython, world.LangJavaScript, world.LangTypeScript, world.LangTSX, world.LangBash,
		world.LangRust, world.LangJava, world.LangC, world.LangCPP, world.LangCSharp, world.LangPHP, world.LangRuby:
		return true
	}
	return false
}

// IsTest reports whether p is a test file by the common conventions.
func IsTest(p string) bool {
	b := path.Base(p)
	stem := strings.TrimSuffix(b, path.Ext(b))
	switch {
	case strings.HasSuffix(stem, "_test"), strings.HasSuffix(stem, ".test"), strings.HasSuffix(stem, ".spec"),
		strings.HasSuffix(stem, "_spec"), strings.HasPrefix(stem, "test_"),
		strings.HasSuffix(stem, "Test") && len(stem) > 4, strings.HasSuffix(stem, "Tests") && len(stem) > 5:
		return true
	}
	for _, d := range strings.Split(path.Dir(p), "/") {
		if d == "test" || d == "tests" || d == "__tests__" || d == "testdata" {
			return true
		}
	}
	return false
}

func round3(x float64) float64 {
	return float64(int64(x*1000+0.5)) / 1000
}

// JSON is the report as 2-space indented JSON with a final newline.
func (r *Report) JSON() []byte {
	b, _ := json.MarshalIndent(r, "", "  ")
	return append(b, '\n')
}

// Text is the report as a plain table.
func (r *Report) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "eval: %d commits replayed (%d skipped), budget %d (%s, %s)\n\n", r.Cases, len(r.Skipped), r.Budget, r.Stage, r.Tokenizer)
	fmt.Fprintf(&b, "%-11s %6s %6s %7s %6s %6s %6s %6s %6s %7s %8s %6s %6s %7s\n", "method", "truth", "score", "recall", "full", "skel", "trunc", "drop", "notc", "d1/d2", "tokens", "hunks", "shown", "pointed")
	for _, t := range r.Methods {
		fmt.Fprintf(&b, "%-11s %6d %6.3f %7.3f %6.3f %6.3f %6.3f %6.3f %6.3f %3d/%-3d %8d %6d %6.3f %7.3f\n", t.Method, t.Truth, t.Score, t.Recall,
			t.Shares[Full], t.Shares[Skeleton], t.Shares[Truncated], t.Shares[Dropped], t.Shares[NotCandidate],
			t.Distances["1"], t.Distances["2"], t.AvgTokens, t.Hunks, t.Shown, t.Pointed)
	}
	if len(r.Methods) > 0 && len(r.Methods[0].Signals) > 0 {
		t := r.Methods[0]
		fmt.Fprintf(&b, "\ndelivered truth files by signal (%s):", t.Method)
		for _, sg := range scope.Signals {
			if sg == scope.SignalPlace && t.Signals[sg] == 0 {
				continue
			}
			fmt.Fprintf(&b, " %s %d", sg, t.Signals[sg])
		}
		b.WriteString("\n")
	}
	if len(r.Languages) > 0 {
		fmt.Fprintf(&b, "\n%-11s %-11s %6s %6s %7s %6s %6s %6s %7s\n", "language", "method", "truth", "score", "recall", "full", "hunks", "shown", "pointed")
		for _, t := range r.Languages {
			fmt.Fprintf(&b, "%-11s %-11s %6d %6.3f %7.3f %6.3f %6d %6.3f %7.3f\n", t.Lang, t.Method, t.Truth, t.Score, t.Recall, t.Shares[Full], t.Hunks, t.Shown, t.Pointed)
		}
	}
	return b.String()
}
