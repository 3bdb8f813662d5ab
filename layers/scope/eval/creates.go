package eval

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/scope"
	"github.com/git-speed/git-speed/layers/world"
)

// RunCreates replays recent commits that added source files as tasks that
// create them: the added source files are files.create, the other source
// files the commit changed (present in the parent tree) are the truth, the
// parent's tree is the world. It reports, per method, the share of truth
// files delivered (file recall) and the share of code_context the scope
// gave to the place the created files live in (budget.json's places),
// beside the same scope with the place signal off (what a created file
// brought before it had a place). PlaceGoal is the share asked for.
//
// A file added while a file of the same name left the commit (a move) is
// not a creation; a commit whose added source files are all moves is
// skipped. MinFiles and MaxFiles bound the commit's changed source files
// (1 and 25 unless set).
func RunCreates(h History, opt EvalOptions) (*CreateReport, error) {
	opt, err := opt.withDefaults(1, []string{scope.PolicyValue})
	if err != nil {
		return nil, err
	}
	commits, err := h.Commits(opt.Commits)
	if err != nil {
		return nil, err
	}
	methods := []method{{name: opt.Policies[0], policy: opt.Policies[0]}, {name: "no-place", policy: opt.Policies[0], off: []string{scope.SignalPlace}}}
	rep := &CreateReport{Budget: opt.Budget, Stage: opt.Stage, Tokenizer: opt.Counter.Name(), PlaceGoal: PlaceGoal, Skipped: []Skip{}}
	tallies := map[string]*CreateTally{}
	tally := func(m, lang string) *CreateTally {
		k := m + "\x00" + lang
		if tallies[k] == nil {
			tallies[k] = &CreateTally{Method: m, Lang: lang}
		}
		return tallies[k]
	}
	langs := map[string]bool{}
	for _, c := range commits {
		cs, skip := replayCreate(h, c, opt, methods)
		if skip != "" {
			rep.Skipped = append(rep.Skipped, Skip{c.ID, skip})
			continue
		}
		rep.Cases++
		langs[cs.Lang] = true
		for _, m := range methods {
			r := cs.Results[m.name]
			for _, t := range []*CreateTally{tally(m.name, ""), tally(m.name, cs.Lang)} {
				t.Cases++
				t.Truth += len(cs.Truth)
				t.Delivered += r.Delivered
				t.share += r.Share
				t.Tokens += r.PlaceTokens
				if cs.Capacity >= PlaceGoal {
					t.Capable++
					if r.Share >= PlaceGoal {
						t.AtGoal++
					}
				}
			}
		}
		if opt.Cases {
			rep.Detail = append(rep.Detail, *cs)
		}
	}
	finish := func(t *CreateTally) CreateTally {
		if t.Truth > 0 {
			t.Recall = round3(float64(t.Delivered) / float64(t.Truth))
		}
		if t.Cases > 0 {
			t.PlaceShare = round3(t.share / float64(t.Cases))
			t.AvgTokens = t.Tokens / t.Cases
		}
		if t.Capable > 0 {
			t.AtGoalShare = round3(float64(t.AtGoal) / float64(t.Capable))
		}
		return *t
	}
	for _, m := range methods {
		rep.Methods = append(rep.Methods, finish(tally(m.name, "")))
	}
	var ls []string
	for l := range langs {
		ls = append(ls, l)
	}
	sort.Strings(ls)
	rep.Languages = []CreateTally{}
	for _, l := range ls {
		for _, m := range methods {
			rep.Languages = append(rep.Languages, finish(tally(m.name, l)))
		}
	}
	return rep, nil
}

// PlaceGoal is the share of code_context a task that only creates files
// should get from the place they will live in, when the place holds that
// much.
const PlaceGoal = 0.2

// CreateReport is the result of RunCreates.
type CreateReport struct {
	Budget    int           `json:"budget"`
	Stage     string        `json:"stage"`
	Tokenizer string        `json:"tokenizer"`
	PlaceGoal float64       `json:"place_goal"`
	Cases     int           `json:"cases"`
	Methods   []CreateTally `json:"methods"`
	Languages []CreateTally `json:"languages"` // by language of the first created file, then method
	Skipped   []Skip        `json:"skipped"`
	Detail    []CreateCase  `json:"detail,omitempty"`
}

// CreateTally is how the create tasks fared under one method.
type CreateTally struct {
	Method     string  `json:"method"`
	Lang       string  `json:"lang,omitempty"`
	Cases      int     `json:"cases"`
	Truth      int     `json:"truth"`       // other changed source files in the parent tree
	Delivered  int     `json:"delivered"`   // … delivered at any tier
	Recall     float64 `json:"recall"`      // Delivered / Truth
	PlaceShare float64 `json:"place_share"` // mean share of code_context given to the place
	Tokens     int     `json:"tokens"`      // place tokens, summed
	AvgTokens  int     `json:"avg_tokens"`  // … per case
	// Capable counts the cases whose place holds at least PlaceGoal of
	// code_context in full text; AtGoal those of them that got it;
	// AtGoalShare is AtGoal / Capable.
	Capable     int     `json:"capable"`
	AtGoal      int     `json:"at_goal"`
	AtGoalShare float64 `json:"at_goal_share"`
	share       float64
}

// CreateCase is one replayed commit.
type CreateCase struct {
	Commit string   `json:"commit"`
	Create []string `json:"create"`
	Lang   string   `json:"lang"`
	Truth  []string `json:"truth"`
	// Capacity is the full text of the place's files (the default
	// method's) over code_context: what the place could give.
	Capacity float64                 `json:"capacity"`
	Results  map[string]CreateResult `json:"results"`
}

// CreateResult is one method's scope of a case.
type CreateResult struct {
	Delivered   int               `json:"delivered"`
	PlaceTokens int               `json:"place_tokens"`
	Share       float64           `json:"share"`
	Truth       map[string]string `json:"truth"` // truth path → "tier@distance", or not_candidate
}

// Additions is what a History offers when it can tell, without a world,
// which of a commit's changed paths its parent lacks: RunCreates then
// opens no world for a commit that adds no source file.
type Additions interface {
	Added(c Commit) ([]string, error)
}

// replayCreate scopes one commit's created files; it returns why the
// commit was skipped, or "".
func replayCreate(h History, c Commit, opt EvalOptions, methods []method) (*CreateCase, string) {
	if a, ok := h.(Additions); ok && c.Parent != "" {
		added, err := a.Added(c)
		if err != nil {
			return nil, "added files: " + err.Error()
		}
		src := false
		for _, p := range added {
			src = src || IsSource(p)
		}
		if !src {
			return nil, "adds no source file (moves are not creations)"
		}
	}
	srcs, w, skip := parentOf(h, c, opt)
	if skip != "" {
		return nil, skip
	}
	g := w.Graph()
	gone := map[string]bool{} // base names of changed files the parent has
	for _, p := range c.Changed {
		if g.Index(p) >= 0 {
			gone[path.Base(p)] = true
		}
	}
	var creates, truth []string
	for _, p := range srcs {
		switch {
		case g.Index(p) >= 0:
			truth = append(truth, p)
		case !gone[path.Base(p)]:
			creates = append(creates, p)
		}
	}
	if len(creates) == 0 {
		return nil, "adds no source file (moves are not creations)"
	}
	f, id := createFeature(c, creates, opt.Messages)
	cs := &CreateCase{Commit: c.ID, Create: creates, Lang: string(world.DetectLang(creates[0], nil)), Truth: truth, Results: map[string]CreateResult{}}
	if cs.Truth == nil {
		cs.Truth = []string{}
	}
	co, skip := coChangeOf(h, c.Parent)
	if skip != "" {
		return nil, skip
	}
	for k, m := range methods {
		r, err := scope.Scope(w, f, id, scope.Options{Stage: opt.Stage, Budget: opt.Budget, Config: opt.Config, Counter: opt.Counter,
			Policy: m.policy, Off: m.off, CoChange: co, Counts: opt.Counts})
		if err != nil {
			return nil, "scope: " + err.Error()
		}
		limit := r.Budget.Dimensions.Code.Limit
		res := CreateResult{Truth: map[string]string{}}
		seen := map[string]bool{}
		var full int
		for _, pl := range r.Budget.Places {
			for _, pf := range pl.Files {
				if seen[pf.Path] {
					continue
				}
				seen[pf.Path] = true
				res.PlaceTokens += pf.Tokens
				if k == 0 {
					if b, err := w.Content(pf.Path); err == nil {
						full += opt.Counter.Count(string(b))
					}
				}
			}
		}
		if limit > 0 {
			res.Share = round3(float64(res.PlaceTokens) / float64(limit))
			if k == 0 {
				cs.Capacity = round3(float64(full) / float64(limit))
			}
		}
		entries := map[string]scope.FileEntry{}
		for _, e := range r.Manifest.Files {
			entries[e.Path] = e
		}
		for _, p := range truth {
			out := NotCandidate
			if e, ok := entries[p]; ok {
				out = fmt.Sprintf("%s@%d", e.Tier, e.Distance)
				if e.Tier != scope.TierDropped {
					res.Delivered++
				}
			}
			res.Truth[p] = out
		}
		cs.Results[m.name] = res
	}
	return cs, ""
}

// createFeature is the synthetic feature of a create task.
func createFeature(c Commit, creates []string, messages bool) (*feature.Feature, string) {
	return replayFeature(c, messages, func(t *feature.Task) string {
		t.FilesTouched, t.Status, t.Files = []string{}, feature.StatusPlanned, feature.Files{Create: creates}
		q := make([]string, len(creates))
		for i, p := range creates {
			q[i] = fmt.Sprintf("%q", p)
		}
		return fmt.Sprintf("status = \"planned\"\n[files]\ncreate = [%s]\n", strings.Join(q, ", "))
	})
}

// JSON is the report as 2-space indented JSON with a final newline.
func (r *CreateReport) JSON() []byte {
	b, _ := json.MarshalIndent(r, "", "  ")
	return append(b, '\n')
}

// Text is the report as a plain table.
func (r *CreateReport) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "eval --creates: %d commits that add source files replayed (%d skipped), budget %d (%s, %s)\n\n", r.Cases, len(r.Skipped), r.Budget, r.Stage, r.Tokenizer)
	row := func(t CreateTally, lead string) {
		fmt.Fprintf(&b, "%s%-9s %6d %6d %7.3f %7.3f %8d %4d/%-4d %7.3f\n", lead, t.Method, t.Cases, t.Truth, t.Recall, t.PlaceShare, t.AvgTokens, t.AtGoal, t.Capable, t.AtGoalShare)
	}
	head := fmt.Sprintf("%-9s %6s %6s %7s %7s %8s %9s %7s\n", "method", "cases", "truth", "recall", "place", "tokens", "goal/cap", "at goal")
	b.WriteString(head)
	for _, t := range r.Methods {
		row(t, "")
	}
	if len(r.Languages) > 0 {
		fmt.Fprintf(&b, "\n%-11s %s", "language", head)
		for _, t := range r.Languages {
			row(t, fmt.Sprintf("%-11s ", t.Lang))
		}
	}
	fmt.Fprintf(&b, "\nplace: mean share of code_context from the place of the created files; goal/cap: cases given at least %.0f%% of it, of those whose place holds that much\n", 100*r.PlaceGoal)
	return b.String()
}
