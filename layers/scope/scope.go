package scope

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/redact"
	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/align"
	"github.com/git-speed/git-speed/layers/world/cochange"
)

// Version is the version of the scoping rules, part of every digest. Bump
// it, with a line here, when the same inputs would give other artifacts.
//
//	1: five steps, fill in reverse cut order, exact counts of kept material.
//	2: a task file's nearest same-language test file elsewhere in the tree
//	   (tests/test_core.py for src/pkg/_core.py) is a 1-hop test link.
//	3: spec text that does not fit is truncated at a paragraph or sentence
//	   boundary (marked) rather than dropped, and requirements chosen by
//	   keyword take at most half of spec_context (MAHABHARATHA's spec loader).
//	4: task files that alone exceed code_context come beyond the budget
//	   (outside_budget) and their neighbours as skeletons within it.
//	5: material goes through the one redaction layer (internal/redact)
//	   rather than a .env-only pass; budget.json counts the redactions.
//	6: more signals bring 1-hop candidates: files and identifiers named in
//	   the task's text and its decisions, co-change history (Options.CoChange),
//	   shared test files (conftest.py up the tree, Rust tests/ helpers, Java
//	   src/test mirrors); the manifest lists each file's signals.
//	7: task_context carries the task's assumptions (with the task, never
//	   cut) and the cross-cutting concerns of its feature (feature.toml),
//	   its own and its done upstream tasks', fitted before the decisions;
//	   material.json has task.assumptions and concerns.
//	8: inside a neighbour's skeleton, the bodies of the definitions that
//	   use the task files' symbols or that the task files use are shown,
//	   most related first, once every 1-hop skeleton is in and before any
//	   full text or 2-hop file (half of the room left at most)
//	   (focus.go); budget.json lists them (focus).
//	9: a task names its files by role (files.create, files.modify,
//	   files.read); a file to create that is not in the tree brings its
//	   place at 1 hop (the place signal: its folder's files as skeletons,
//	   the package and module it joins, the files like it, the tests
//	   beside them), recorded in budget.json's places; the manifest and
//	   material.json give each distance-0 file its role.
const Version = 9

// Tiers of a file.
const (
	TierFull      = "full"
	TierSkeleton  = "skeleton"
	TierTruncated = "truncated"
	TierDropped   = "dropped"
)

// Budget dimensions.
const (
	DimCode    = "code_context"
	DimTask    = "task_context"
	DimSpec    = "spec_context"
	DimReserve = "reserve"
)

// World is the Layer 1 data of one tree, as Scope reads it. It need not be
// safe for concurrent use: Scope calls it from one goroutine.
type World interface {
	Tree() string
	Graph() *world.Graph                     // files (project map rows), links, edges
	Facts(path string) (*world.Facts, error) // defs, skeleton; nil, nil when the file has none
	Content(path string) ([]byte, error)     // the file's bytes at Tree
}

// Options controls Scope.
type Options struct {
	Stage     string        // config.Stages; "" means developer
	Budget    int           // total tokens; 0 takes the stage's budget from Config
	Config    config.Config // the zero value means config.Default()
	ConfigRaw []byte        // speed.toml's bytes, for the inputs digest (nil: Config's encoding)
	Counter   tokens.Counter
	Align     *align.Alignment // nil computes it when the spec has requirements
	// AlignLater, when Align is nil, gives the alignment when step 4
	// needs it, so that a caller still computing it (the first scope of
	// a tree) overlaps that with steps 1 to 3. Scope calls it on every
	// path, and its error, if any, is Scope's error: as when the
	// alignment was computed first. It must answer the same each call.
	AlignLater func() (*align.Alignment, error)
	Rank       []float64 // optional global relevance per Graph.Files index (e.g. PageRank)
	Strict     bool      // a files_touched path absent from the tree is an error
	Policy     string    // PolicyValue (""), or PolicySeed
	// NoExtras keeps every file at or below its planned tier. By default,
	// budget left over once everything planned is in gives the full text
	// of 2-hop files (and of 1-hop files over full_line_limit), most
	// relevant per token first; the manifest says so.
	NoExtras bool
	// CoChange is the history before the task's base, mined; nil turns
	// the co-change signal off. The inputs digest covers the partners it
	// gave, so new history that changes none of them changes no digest.
	CoChange *cochange.Index
	// Off turns signals off by name (SignalGraph …), for measurement.
	Off []string
	// Counts keeps exact token counts across scopes (a session's); nil
	// keeps them for this scope only.
	Counts *Counts
}

// Signals: what can make a file a candidate. The manifest lists, per
// file, the signals that did.
const (
	SignalGraph    = "graph"    // an edge of the symbol graph, either way
	SignalTests    = "tests"    // a test (or shared test file) of a task file by name, or the file a task test tests
	SignalNames    = "names"    // its path, basename or a definition is named in the task's text or decisions
	SignalCoChange = "cochange" // it changed together with a task file in the history before the base
	SignalPlace    = "place"    // it is of the place a file the task creates will live in (create.go)
)

// Signals lists every signal, in manifest order.
var Signals = []string{SignalGraph, SignalTests, SignalNames, SignalCoChange, SignalPlace}

func (o Options) on(signal string) bool {
	for _, x := range o.Off {
		if x == signal {
			return false
		}
	}
	return true
}

// Fill policies. Both deliver distance 0 in full first and then a skeleton
// (or, for small files, the full text) of every 1-hop file that fits, most
// valuable per token first. They differ in what comes next:
//
//   - PolicySeed takes the seed's order literally: every
//     1-hop full text that fits, then truncated skeletons of the 1-hop files
//     that did not fit, before any 2-hop skeleton;
//   - PolicyValue, the default, weighs the full text of 1-hop files against the
//     skeletons of 2-hop files by relevance per token, so many cheap
//     skeletons can beat the full text of a marginal neighbour.
//
// Measured with git speed eval at 32k tokens (o200k, developer stage) on
// 1,041 truth files of 16 repositories (bubbletea, lipgloss, click, httpx,
// attrs, ky, p-queue, zustand, commander.js, koa, superagent, body-parser,
// fd, hyperfine, javapoet, jsoup; 60 recent commits each, 150 for the
// smaller ones), recall (share of truth files delivered at any tier) and
// score (full + skeleton/2 + truncated/4):
//
//	                     seed            value
//	scope v5 (graph)     0.710 / 0.590   0.739 / 0.578
//	scope v6 (signals)   0.762 / 0.611   0.782 / 0.603
//
// Value is the default since v6, for recall: with the co-change and test
// signals bringing more 1-hop files, skeletons of all of them before the
// full text of any deliver more of the files a change touches (ky 0.900
// against 0.829, fd 0.941 against 0.912); seed has the lower recall in
// every language but CommonJS (0.575 against 0.570) and the higher score
// on Go (0.686 against 0.639) and Python, as it gives more files in full.
const (
	PolicyValue = "value"
	PolicySeed  = "seed"
)

// Result is Layer 2's output for one task: the three artifacts and the
// warnings the caller prints to stderr.
type Result struct {
	Manifest Manifest
	Budget   Budget
	Material Material
	Warnings []string
}

// Scope runs the five steps for task taskID of f over w.
func Scope(w World, f *feature.Feature, taskID string, opt Options) (*Result, error) {
	res, err := scope(w, f, taskID, opt)
	if opt.Align == nil && opt.AlignLater != nil {
		if _, aerr := opt.AlignLater(); aerr != nil {
			return nil, aerr
		}
	}
	return res, err
}

func scope(w World, f *feature.Feature, taskID string, opt Options) (*Result, error) {
	if f == nil {
		return nil, errors.New("scope: no feature")
	}
	task := f.Task(taskID)
	if te := f.TaskError(taskID); task == nil && te != nil {
		return nil, te
	}
	if task == nil {
		var ids []string
		for _, t := range f.Tasks {
			ids = append(ids, t.ID)
		}
		return nil, fmt.Errorf("feature %s has no task %q (tasks: %s)", f.Name, taskID, strings.Join(ids, ", "))
	}
	cfg := opt.Config
	if cfg.Budget == (config.Budget{}) {
		cfg = config.Default()
	}
	if opt.Policy == "" {
		opt.Policy = cfg.Scope.Policy // speed.toml's [scope] policy
	}
	if opt.Policy == PolicySeed {
		opt.NoExtras = true // the seed delivers 2-hop files as skeletons, never more
	}
	stage := opt.Stage
	if stage == "" {
		stage = "developer"
	}
	total, err := cfg.StageBudget(stage)
	if err != nil {
		return nil, err
	}
	if opt.Budget < 0 {
		return nil, fmt.Errorf("budget %d: want a positive number of tokens", opt.Budget)
	}
	if opt.Budget > 0 {
		total = opt.Budget
	}
	for _, x := range opt.Off {
		if !contains(Signals, x) {
			return nil, fmt.Errorf("scope signal %q: want one of %s", x, strings.Join(Signals, ", "))
		}
	}
	switch opt.Policy {
	case "", PolicyValue, PolicySeed:
	default:
		return nil, fmt.Errorf("scope policy %q: want %q or %q", opt.Policy, PolicyValue, PolicySeed)
	}
	counter := opt.Counter
	if counter == nil {
		if counter, err = tokens.New(cfg.Tokens.Tokenizer); err != nil {
			return nil, err
		}
	}
	g := w.Graph()
	if g == nil {
		return nil, errors.New("scope: the world has no graph")
	}
	red, err := cfg.Redactor()
	if err != nil {
		return nil, err
	}
	s := &state{
		w: w, g: g, f: f, task: task, cfg: cfg, opt: opt, stage: stage, total: total, red: red,
		counter: newCounter(counter, opt.Counts),
		facts:   map[string]*world.Facts{},
	}
	if err := s.resolve(); err != nil {
		return nil, err
	}
	s.collectDecisions()
	s.concerns = s.f.ConcernsFor(s.task.ID)
	s.walk()
	if s.opt.Align == nil && s.opt.AlignLater != nil {
		a, err := s.opt.AlignLater()
		if err != nil {
			return nil, err
		}
		s.opt.Align = a
	}
	s.narrowSpec()
	if err := s.balance(); err != nil {
		return nil, err
	}
	return s.result(), nil
}

// state is one Scope call in progress.
type state struct {
	skelOnly bool // the task's files alone exceed code_context: neighbours come as skeletons only
	w        World
	g        *world.Graph
	f        *feature.Feature
	task     *feature.Task
	cfg      config.Config
	red      *redact.Redactor
	opt      Options
	stage    string
	total    int
	counter  *counter

	coUsed   []string // co-change partners taken: "task-file partner commits score"
	regions  []Region // bodies shown inside skeletons (focus.go)
	focused  bool     // focus has run
	facts    map[string]*world.Facts
	warnings []string
	adj      *adjacency

	touched  []int             // graph indexes of the task's files present in the tree (distance 0)
	absent   []string          // the task's files absent from the tree
	roles    map[string]string // the task's files by role (feature.RoleCreate …)
	creates  []string          // files the task creates that are not in the tree yet
	places   []placeFile       // their places (create.go)
	symbols  []string          // definitions of the touched files, "path:Name"
	cands    []*cand           // every candidate, d0 first
	unlisted int               // files beyond max_hops not listed in the manifest

	decisions []Decision
	concerns  []feature.Concern
	taskText  string // the task's own rendering, for counting
	spec      []SpecItem
	paras     []SpecParagraph
	specCost  []int // tokens per spec item then paragraph, parallel to spec+paras
	// specByKeywords: the task cites no requirement and alignment gives
	// none, so requirements were chosen by keyword (and get at most half
	// of spec_context).
	specByKeywords bool

	budget Budget
	cuts   []Cut
}

func (s *state) warn(format string, args ...any) {
	s.warnings = append(s.warnings, fmt.Sprintf(format, args...))
}

// factsOf returns the facts of a path, loaded once; nil when it has none.
func (s *state) factsOf(p string) *world.Facts {
	if fc, ok := s.facts[p]; ok {
		return fc
	}
	fc, err := s.w.Facts(p)
	if err != nil {
		s.warn("%s: no facts: %v", p, err)
		fc = nil
	}
	s.facts[p] = fc
	return fc
}

// resolve is step 1: the task's files to graph files and their
// definitions. Files it modifies (files_touched, files.modify), creates
// when they exist already (a task in progress) and reads come at distance
// 0; files it creates that are not in the tree yet bring their place
// (create.go). A files_touched path absent from the tree is scoped as a
// file to create, with a warning.
func (s *state) resolve() error {
	seen := map[int]bool{}
	s.roles = map[string]string{}
	t := s.task
	take := func(p, role string) {
		i := s.g.Index(p)
		if i < 0 {
			if role == feature.RoleRead {
				s.warn("%s: files.read %s is not in tree %s: left out", t.Path, p, shortID(s.w.Tree()))
				s.absent = append(s.absent, p)
				s.roles[p] = role
				return
			}
			s.roles[p] = feature.RoleCreate
			s.absent = append(s.absent, p)
			s.creates = append(s.creates, p)
			return
		}
		s.roles[p] = role
		if !seen[i] {
			seen[i] = true
			s.touched = append(s.touched, i)
		}
	}
	for _, p := range t.FilesTouched {
		if s.g.Index(p) < 0 {
			msg := fmt.Sprintf("%s: files_touched %s is not in tree %s", t.Path, p, shortID(s.w.Tree()))
			if s.opt.Strict {
				return errors.New(msg)
			}
			s.warn("%s (the task creates it?): scoped as a file to create", msg)
		}
		take(p, feature.RoleModify)
	}
	for _, p := range t.Files.Modify {
		take(p, feature.RoleModify)
	}
	for _, p := range t.Files.Create {
		take(p, feature.RoleCreate)
	}
	for _, p := range t.Files.Read {
		take(p, feature.RoleRead)
	}
	for _, i := range s.touched {
		p := s.g.Files[i].Path
		if fc := s.factsOf(p); fc != nil {
			for _, d := range fc.Defs {
				s.symbols = append(s.symbols, p+":"+d.Name)
			}
		}
	}
	sort.Strings(s.symbols)
	return nil
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
