package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/prompt"
	"github.com/git-speed/git-speed/layers/scope"
	"github.com/git-speed/git-speed/layers/world/align"
	"github.com/git-speed/git-speed/layers/world/graph"
)

// RenderRequest asks for a stage prompt of one task.
type RenderRequest struct {
	Rev
	Stage, Feature, Task string
	// Budget overrides the stage's total tokens; 0 keeps it.
	Budget int
	// Strict makes a files_touched path absent from the tree an error (and
	// turns the fallback off).
	Strict bool
	// Log is the debugger's failure output, as read; LogName names where
	// it was read from (for the redaction layer).
	Log, LogName string
	// Base is the reviewer's diff base, overriding the task's.
	Base string
	// Session adds the window of this session and similar memories;
	// CurrentSession is the session started last ("" adds neither: a
	// rendered prompt is reproducible from the repository alone).
	Session string
}

// RenderResult is a rendered prompt, written as STAGE.md in its task's
// context folder.
type RenderResult struct {
	// Dir is the context folder, relative to the work tree top.
	Dir    string
	Output *prompt.Output
}

// Render scopes the task for the stage (rewriting stale artifacts, unless
// it falls back), renders the stage template and writes
// <context>/STAGE.md and renders.json. If scoping fails for a reason of
// the context and scope.fallback_to_full is set, the prompt is the task
// and its files in full, and its report says why.
func (s *Session) Render(ctx context.Context, req RenderRequest) (*RenderResult, error) {
	if req.Budget < 0 {
		return nil, Usagef("--budget must be a positive number of tokens, got %d", req.Budget)
	}
	if _, err := s.cfg.StageBudget(req.Stage); err != nil {
		return nil, Usagef("%v", err)
	}
	rev, err := s.rev(req.Rev)
	if err != nil {
		return nil, err
	}
	if req.Session == CurrentSession {
		st, err := s.sessionStore()
		if err != nil {
			return nil, err
		}
		if req.Session, err = st.Current(); err != nil {
			return nil, err
		}
	}
	o := s.op(ctx)
	o.focusTask = req.Task
	ro := renderOptions{scopeOptions: scopeOptions{budget: req.Budget, rev: rev, strict: req.Strict},
		base: req.Base, worktree: rev == worktreeRev, session: req.Session}
	if req.Stage == "reviewer" && ro.base == "" && !ro.worktree {
		if err := o.defaultReviewBase(req.Feature, req.Task, &ro); err != nil {
			return nil, err
		}
	}
	if req.Log != "" {
		// The log goes through the redaction layer like every input.
		if ro.logText, err = s.redact(req.LogName, req.Log); err != nil {
			return nil, err
		}
	}
	res, out, err := o.renderStage(req.Stage, req.Feature, req.Task, ro)
	if err != nil {
		return nil, err
	}
	var dir string
	if out.Report.Fallback != "" {
		// A fallback's Layer 2 artifacts are not the task's: keep the
		// stored ones, write only the prompt.
		dir = filepath.Join(s.top, filepath.FromSlash(s.ContextDir(req.Feature, req.Task)))
		err = os.MkdirAll(dir, 0o755)
	} else {
		dir, err = o.writeScope(res, req.Feature, req.Task)
	}
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, req.Stage+".md")
	if err := writeFileAtomic(file, []byte(out.Text)); err != nil {
		return nil, err
	}
	rec := renderRecord{Tree: res.Manifest.Tree, Budget: req.Budget, Worktree: ro.worktree, Log: ro.logText != "", Fallback: out.Report.Fallback != "", BaseNote: ro.baseNote, Session: ro.session}
	if req.Stage == "reviewer" && !ro.worktree {
		if rec.Base, err = o.reviewBase(req.Feature, req.Task, ro); err != nil {
			return nil, err
		}
	}
	if err := recordRender(dir, req.Stage, rec); err != nil {
		return nil, err
	}
	return &RenderResult{Dir: s.ContextDir(req.Feature, req.Task), Output: out}, nil
}

// renderOptions are a render's stage-specific inputs.
type renderOptions struct {
	scopeOptions
	logText    string // debugger
	base       string // reviewer: diff base (overrides the task's)
	worktree   bool   // reviewer: diff against the work tree, not HEAD
	noFallback bool   // a failure to scope is an error whatever scope.fallback_to_full says (verify)
	baseNote   string // reviewer: what was compared, when git-speed chose it (defaultReviewBase)
	session    string // the session window and similar memories
}

// renderStage scopes the task for the stage and renders the stage prompt.
// It writes nothing. When scoping fails for a reason of the context (the
// store, the index, alignment, a bug) and scope.fallback_to_full is set,
// the prompt is rendered from a fallback (see fallbackInputs) and its
// report says why.
func (o *op) renderStage(stage, featureName, task string, ro renderOptions) (*scope.Result, *prompt.Output, error) {
	ro.stage = stage
	in, err := o.openScope(featureName, ro.scopeOptions)
	if err == nil {
		res, out, rerr := o.renderFit(in, stage, featureName, task, ro)
		in.close()
		if rerr == nil {
			return res, out, nil
		}
		err = rerr
	}
	var ce *contextError
	if !errors.As(err, &ce) || !o.cfg.Scope.FallbackToFull || ro.noFallback || ro.strict || o.ctx.Err() != nil {
		return nil, nil, unwrapContext(err)
	}
	fin, ferr := o.fallbackInputs(featureName, task, ro, ce.err)
	if ferr != nil {
		return nil, nil, fmt.Errorf("%v (and the fallback failed too: %v)", ce.err, ferr)
	}
	o.warnf("scoping task %s failed, so the %s prompt falls back to the task and its files in full: %v", task, stage, ce.err)
	res, out, err := o.renderFit(fin, stage, featureName, task, ro)
	if err != nil {
		return nil, nil, fmt.Errorf("%v (and the fallback failed too: %v)", ce.err, unwrapContext(err))
	}
	return res, out, nil
}

// renderFit renders at the stage's budget. When the rendered prompt would
// eat into the reserve (the template's own text is not part of Layer 2's
// budget), the task is scoped again with a smaller total until it fits, at
// most a few times.
func (o *op) renderFit(in *scopeInputs, stage, featureName, task string, ro renderOptions) (*scope.Result, *prompt.Output, error) {
	total := stageBudget(o.cfg, stage, ro.budget)
	reserve := int(float64(total) * o.cfg.Budget.Shares.Reserve)
	budget := total
	for attempt := 0; ; attempt++ {
		ro.budget = budget
		res, out, err := o.renderOnce(in, stage, featureName, task, total, ro)
		if err != nil {
			return nil, nil, err
		}
		// Task files that alone exceed code_context come beyond the budget.
		over := out.Report.TotalTokens - (total - reserve) - res.Budget.OutsideBudget
		if over <= 0 || attempt == 5 {
			if over > 0 {
				o.warnf("the %s prompt takes %d tokens, %d into the reserve of %d", stage, out.Report.TotalTokens, over, reserve)
			} else if budget != total {
				o.warnf("scoped at %d of %d tokens so the %s prompt (%d tokens) leaves the reserve free", budget, total, stage, out.Report.TotalTokens)
			}
			return res, out, nil
		}
		// Packing is not linear in the budget: aim a little lower each time.
		next := budget - int(float64(over)/(1-o.cfg.Budget.Shares.Reserve)) - 16<<attempt
		if next <= 0 {
			return res, out, nil
		}
		budget = next
	}
}

// renderOnce scopes and renders at ro.budget; total is the stage's budget
// the prompt is reported against.
func (o *op) renderOnce(in *scopeInputs, stage, featureName, task string, total int, ro renderOptions) (*scope.Result, *prompt.Output, error) {
	res, err := o.scopeTask(in, task, ro.scopeOptions)
	if err != nil {
		return nil, nil, err
	}
	w, f := in.w, in.f
	var data [3][]byte
	for i, name := range []string{scope.ManifestFile, scope.BudgetFile, scope.MaterialFile} {
		if data[i], err = res.Encode(name); err != nil {
			return nil, nil, err
		}
	}
	ctx, err := prompt.Decode(o.ContextDir(featureName, task), data[0], data[1], data[2])
	if err != nil {
		return nil, nil, err
	}
	cnt := in.cnt
	red, err := o.cfg.Redactor()
	if err != nil {
		return nil, nil, err
	}
	pin := prompt.Input{
		Redact:  red,
		Context: ctx, Feature: featureName, Counter: cnt.Count, Tokenizer: cnt.Name(), Budget: total,
		TemplateDir:   filepath.Join(o.top, filepath.FromSlash(path.Join(o.speedDir, "templates"))),
		TemplateLabel: path.Join(o.speedDir, "templates"),
		FailureLog:    ro.logText,
		Fallback:      in.fallback,
		DiffBase:      ro.baseNote,
	}
	if stage == "developer" || stage == "reviewer" {
		if in.rules == nil { // once per render, however many times it is scoped
			r := o.taskRules(f.Task(task), total, cnt)
			in.rules = &r
		}
		pin.Rules = *in.rules
	}
	if stage == "developer" {
		pin.Commands = o.taskCommands(f.Task(task))
	}
	if t := f.Task(task); t != nil {
		pin.Agent = o.renderAgentSections(t.Paths(), total, cnt.Count)
		if ro.session != "" {
			more, err := o.renderSessionSections(ro.session, t.Title+"\n"+t.Description, total, cnt.Count)
			if err != nil {
				return nil, nil, err
			}
			pin.Agent = append(pin.Agent, more...)
		}
	}
	for _, t := range f.Tasks {
		pin.Tasks = append(pin.Tasks, prompt.TaskSummary{ID: t.ID, Title: t.Title, Status: t.Status, Requirements: t.Requirements, FilesTouched: t.Writes()}) // created files overlap too
	}
	for _, r := range f.Spec.Requirements {
		pin.Requirements = append(pin.Requirements, prompt.Requirement{ID: r.ID, Title: r.Title})
	}
	switch {
	case w == nil && (stage == "architect" || stage == "coherence"):
		// a fallback has no world model to map or to list symbols from
	case stage == "architect":
		if err := w.LoadLinks(); err != nil {
			return nil, nil, err
		}
		g := w.Graph()
		var focus []string
		for _, t := range f.Tasks {
			focus = append(focus, t.FilesTouched...)
		}
		rank := graph.Rank(g, existing(g.Index, focus), nil)
		if pin.RepoMap, err = graph.RepoMap(g, rank, w.Facts, o.cfg.Map.Budget, cnt.Count); err != nil {
			return nil, nil, err
		}
		for _, c := range graph.Clusters(g) {
			pin.Clusters = append(pin.Clusters, prompt.Cluster{Name: c.Name, Files: c.Files})
		}
		pin.AlignmentText = align.Render(in.al)
	case stage == "coherence":
		pin.Symbols = map[string][]string{}
		for _, t := range f.Tasks {
			for _, p := range t.FilesTouched {
				facts, err := w.Facts(p)
				if err != nil || facts == nil {
					continue
				}
				for _, d := range facts.Defs {
					if d.Exported {
						pin.Symbols[t.ID] = append(pin.Symbols[t.ID], p+":"+d.Qualified)
					}
				}
			}
		}
		for _, t := range f.Tasks {
			for _, d := range t.Decisions {
				pin.Decisions = append(pin.Decisions, prompt.Decision{Task: t.ID, Summary: d.Summary, Detail: d.Detail, Files: d.Files})
			}
		}
	case stage == "reviewer":
		if pin.Diffs, err = o.taskDiffs(f.Task(task), ro); err != nil {
			return nil, nil, err
		}
	}
	out, err := prompt.Render(stage, pin)
	if err != nil {
		return nil, nil, err
	}
	return res, out, nil
}

func existing(index func(string) int, paths []string) []string {
	var out []string
	for _, p := range paths {
		if index(p) >= 0 {
			out = append(out, p)
		}
	}
	return out
}

// taskDiffs are the task's files between its base and HEAD, or the work tree.
func (o *op) taskDiffs(t *feature.Task, ro renderOptions) ([]prompt.FileDiff, error) {
	base := ro.base
	if base == "" {
		base = t.Base
	}
	if base == "" {
		if !ro.worktree {
			return nil, Usagef("task %s has no base commit to diff from: set base = \"<commit>\" in its file, or pass --base REV or --worktree", t.ID)
		}
		base = "HEAD"
	}
	_, baseTree, err := o.repo.Resolve(base)
	if err != nil {
		return nil, err
	}
	var headTree string
	if !ro.worktree {
		if _, headTree, err = o.repo.Resolve(ro.rev); err != nil {
			return nil, err
		}
	}
	blobs, err := o.repo.Blobs()
	if err != nil {
		return nil, err
	}
	defer blobs.Close()
	// Both sides are redacted before they are diffed: a changed line of a
	// private key block is a secret even without its BEGIN line.
	red, err := o.cfg.Redactor()
	if err != nil {
		return nil, err
	}
	read := func(tree, p string) (string, bool, error) {
		id, ok, err := o.repo.BlobAt(tree, p)
		if err != nil || !ok {
			return "", ok, err
		}
		b, err := blobs.Read(id, 0)
		text, _ := red.Text(p, string(b))
		return text, true, err
	}
	var diffs []prompt.FileDiff
	for _, p := range t.Writes() {
		old, hadOld, err := read(baseTree, p)
		if err != nil {
			return nil, err
		}
		var cur string
		hasNew := false
		if ro.worktree {
			b, err := os.ReadFile(filepath.Join(o.top, filepath.FromSlash(p)))
			if err == nil {
				cur, _ = red.Text(p, string(b))
				hasNew = true
			} else if !errors.Is(err, os.ErrNotExist) {
				return nil, err
			}
		} else if cur, hasNew, err = read(headTree, p); err != nil {
			return nil, err
		}
		if old == cur && hadOld == hasNew {
			continue
		}
		diffs = append(diffs, prompt.FileDiff{Path: p, Old: old, New: cur, Created: !hadOld && hasNew, Deleted: hadOld && !hasNew})
	}
	return diffs, nil
}

// stageBudget is the given budget when set, else speed.toml's total for stage.
func stageBudget(cfg config.Config, stage string, flag int) int {
	if flag > 0 {
		return flag
	}
	n, _ := cfg.StageBudget(stage)
	return n
}

// rendersFile records, per stage, how each STAGE.md of a task folder was
// rendered (tree, budget, reviewer base), so verify can render it again.
const rendersFile = "renders.json"

// renderRecord is one stage's entry in renders.json.
type renderRecord struct {
	Tree     string `json:"tree"`
	Budget   int    `json:"budget,omitempty"`    // --budget, when given
	Base     string `json:"base,omitempty"`      // reviewer: the commit diffed from
	Worktree bool   `json:"worktree,omitempty"`  // reviewer: diffed against the work tree
	Log      bool   `json:"log,omitempty"`       // debugger: rendered with a --log
	Fallback bool   `json:"fallback,omitempty"`  // rendered from a fallback context (scope.fallback_to_full)
	BaseNote string `json:"base_note,omitempty"` // reviewer: what was compared, when git-speed chose the base
	Session  string `json:"session,omitempty"`   // rendered with --session
}

func readRenders(dir string) (map[string]renderRecord, error) {
	recs := map[string]renderRecord{}
	b, err := os.ReadFile(filepath.Join(dir, rendersFile))
	if errors.Is(err, os.ErrNotExist) {
		return recs, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &recs); err != nil {
		return nil, fmt.Errorf("not a renders record git-speed can read: %v", err)
	}
	return recs, nil
}

// recordRender sets stage's entry of renders.json (keys sorted, so the
// file is deterministic).
func recordRender(dir, stage string, rec renderRecord) error {
	recs, err := readRenders(dir)
	if err != nil {
		recs = map[string]renderRecord{}
	}
	recs[stage] = rec
	var buf bytes.Buffer
	if err := EncodeJSON(&buf, recs); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, rendersFile), buf.Bytes())
}

// reviewBase resolves the commit a reviewer prompt diffs from.
func (o *op) reviewBase(featureName, task string, ro renderOptions) (string, error) {
	base := ro.base
	if base == "" {
		f, err := o.loadFeature(featureName, nil, false)
		if err != nil {
			return "", err
		}
		if t := f.Task(task); t != nil {
			base = t.Base
		}
	}
	if base == "" {
		return "", nil
	}
	commit, tree, err := o.repo.Resolve(base)
	if err != nil {
		return "", err
	}
	if commit == "" {
		return tree, nil
	}
	return commit, nil
}

// defaultReviewBase chooses what a reviewer prompt compares when neither
// a base, the work tree nor the task's base says: the merge-base of the
// revision with the default branch (origin/HEAD, else main or master) when
// the task's files changed since, else the work tree against HEAD. It
// says in a note which it chose, and ro.baseNote says it in the prompt.
func (o *op) defaultReviewBase(featureName, task string, ro *renderOptions) error {
	f, err := o.loadFeature(featureName, nil, false)
	if err != nil {
		return err
	}
	t := f.Task(task)
	if t == nil || t.Base != "" {
		return nil // renderStage reports a missing task; a task base is used as it is
	}
	rev := ro.rev
	if rev == "" {
		rev = "HEAD"
	}
	headCommit, headTree, err := o.repo.Resolve(rev)
	if err != nil {
		return err
	}
	if def := o.repo.DefaultBranch(); def != "" && headCommit != "" {
		mb, err := o.repo.MergeBase(def, headCommit)
		if err != nil {
			return err
		}
		if mb != "" {
			_, mbTree, err := o.repo.Resolve(mb)
			if err != nil {
				return err
			}
			changed := false
			for _, p := range t.Writes() {
				a, aok, err := o.repo.BlobAt(mbTree, p)
				if err != nil {
					return err
				}
				b, bok, err := o.repo.BlobAt(headTree, p)
				if err != nil {
					return err
				}
				if a != b || aok != bok {
					changed = true
					break
				}
			}
			if changed {
				ro.base = mb
				ro.baseNote = fmt.Sprintf("the merge-base `%s` of %s with `%s` (the task has no base; its files changed since)", short(mb), rev, def)
				notef(o.ctx, "task %s has no base: diffing its files from %s, the merge-base of %s with %s", task, short(mb), rev, def)
				return nil
			}
		}
		ro.worktree, ro.base = true, "HEAD"
		ro.baseNote = fmt.Sprintf("the work tree against HEAD (the task has no base, and its files are unchanged since the merge-base with `%s`)", def)
		notef(o.ctx, "task %s has no base and its files are unchanged since the merge-base with %s: diffing the work tree against HEAD", task, def)
		return nil
	}
	why := "there is no default branch (origin/HEAD, main or master)"
	if headCommit == "" {
		why = rev + " is not a commit"
	}
	ro.worktree, ro.base = true, "HEAD"
	ro.baseNote = "the work tree against HEAD (the task has no base, and " + why + ")"
	notef(o.ctx, "task %s has no base and %s: diffing the work tree against HEAD", task, why)
	return nil
}
