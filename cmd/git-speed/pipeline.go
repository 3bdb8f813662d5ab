package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sync"
	"time"

	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/prompt"
	"github.com/git-speed/git-speed/layers/scope"
	"github.com/git-speed/git-speed/layers/world/align"
	"github.com/git-speed/git-speed/layers/world/build"
	"github.com/git-speed/git-speed/layers/world/cochange"
	"github.com/git-speed/git-speed/layers/world/graph"
)

// featureDir is where feature F lives, relative to the work tree top.
func (e *env) featureDir(name string) string { return path.Join(e.speedDir, "features", name) }

// contextDir is the Layer 2/3 artifact folder of task T of feature F.
func (e *env) contextDir(featureName, task string) string {
	return path.Join(e.featureDir(featureName), "context", "task-"+task)
}

// loadFeature reads a feature, checking files_touched against w's tree.
func (e *env) loadFeature(name string, w *build.World, strict bool) (*feature.Feature, error) {
	if e.top == "" {
		return nil, errors.New("features live in a work tree; this is a bare repository")
	}
	opts := feature.Options{Strict: strict, Dir: path.Join(e.speedDir, "features")}
	if w != nil {
		opts.Exists = func(p string) bool { _, ok := w.Entry(p); return ok }
	}
	f, warns, err := feature.LoadFeature(os.DirFS(e.top), name, opts)
	if errors.Is(err, feature.ErrNotFound) {
		return nil, fmt.Errorf("no feature %s: %s/ does not exist", name, e.featureDir(name))
	}
	if err != nil {
		return nil, err
	}
	for _, w := range warns {
		e.warnf("%s", w)
	}
	for _, b := range f.Broken {
		if b.ID == e.focusTask {
			continue // the caller reports it as its error
		}
		for _, x := range b.Errs {
			e.warnf("%s (task %s is left out)", x, b.ID)
		}
	}
	if err := e.redactFeature(f); err != nil {
		return nil, err
	}
	return f, nil
}

// redactFeature passes the texts of f's spec and tasks through the
// redaction layer, so no command's output (scope, render, align) shows a
// secret written in them. The raw bytes kept for digests stay as read.
func (e *env) redactFeature(f *feature.Feature) error {
	r, err := e.cfg.Redactor()
	if err != nil {
		return err
	}
	clean := func(s *string) { *s, _ = r.Text("", *s) }
	for i := range f.Spec.Requirements {
		clean(&f.Spec.Requirements[i].Title)
		clean(&f.Spec.Requirements[i].Text)
	}
	for i := range f.Spec.Paragraphs {
		clean(&f.Spec.Paragraphs[i].Heading)
		clean(&f.Spec.Paragraphs[i].Text)
	}
	for _, t := range f.Tasks {
		clean(&t.Title)
		clean(&t.Description)
		for i := range t.Acceptance {
			clean(&t.Acceptance[i])
		}
		for i := range t.Decisions {
			clean(&t.Decisions[i].Summary)
			clean(&t.Decisions[i].Detail)
		}
	}
	return nil
}

// scopeOptions gathers what a scope of task T needs besides the world.
type scopeOptions struct {
	stage  string
	budget int
	rev    string
	strict bool
	// opened, when set, is rev's indexed tree, opened already (the
	// scope cache's look-up), and commit is rev's commit.
	opened *build.World
	commit string
}

// runScope runs Layer 2 for one task and returns the result, with warnings
// printed to stderr.
func (e *env) runScope(featureName, task string, o scopeOptions) (*scope.Result, *build.World, *feature.Feature, error) {
	// The index is allocated once and lives until the scope is done:
	// collect rarely meanwhile, as a map does (build.CollectRarely).
	defer build.CollectRarely()()
	in, err := e.openScope(featureName, o)
	if err != nil {
		return nil, nil, nil, unwrapContext(err)
	}
	res, err := e.scopeTask(in, task, o)
	if err != nil {
		in.w.Close()
		return nil, nil, nil, unwrapContext(err)
	}
	return res, in.w, in.f, nil
}

// scopeInputs is what scoping any task of a feature at one tree reads:
// loaded once, however many times the task is scoped.
type scopeInputs struct {
	w   *build.World // nil in a fallback
	sw  scope.World  // what Scope reads: w, or a fallback's files
	f   *feature.Feature
	al  *align.Alignment
	cnt tokens.Counter
	// fallback, when not "", says why the inputs are a fallback's.
	fallback string
	rules    *prompt.Rules // the task's security rules, once summarised
	// co is the co-change history before the base (nil when there is
	// none: no commit yet, a fallback).
	co *cochange.Index
	// alignLater, when set, waits for al, computed on another goroutine
	// (openScopeOpened); al and keepAl are not to be read before. keepAl,
	// when set, stores al (build.World.AlignmentUnkept): scopeTask has
	// it done beside the writing of the artifacts (env.keepAlignment).
	alignLater func() (*align.Alignment, error)
	keepAl     func(warn func(string))
}

// close releases the world, if any.
func (in *scopeInputs) close() {
	if in.w != nil {
		in.w.Close()
	}
}

// openScope loads the world at o.rev, the feature and its alignment. The
// caller closes in.w.
func (e *env) openScope(featureName string, o scopeOptions) (*scopeInputs, error) {
	stage := o.stage
	if stage == "" {
		stage = "developer"
	}
	if _, err := e.cfg.StageBudget(stage); err != nil {
		return nil, usagef("--stage: %v", err)
	}
	if o.opened != nil {
		return e.openScopeOpened(featureName, o)
	}
	start := time.Now()
	w, err := loadWorld(e, o.rev)
	if err != nil {
		return nil, &contextError{err}
	}
	e.trace("scope: load the world", start)
	in := &scopeInputs{w: w, sw: w}
	start = time.Now()
	in.co = e.coChange(o.rev)
	e.trace("scope: co-change history", start)
	if in.f, err = e.loadFeature(featureName, w, o.strict); err == nil {
		if in.cnt, err = e.counter(); err == nil {
			start = time.Now()
			if in.al, err = w.Alignment(in.f, func(msg string) { e.warnf("%s", msg) }); err != nil {
				err = &contextError{err}
			}
			e.trace("scope: spec alignment", start)
		}
	} else if !errors.Is(err, feature.ErrNotFound) {
		err = &contextError{err}
	}
	if err != nil {
		w.Close()
		return nil, err
	}
	return in, nil
}

// openScopeOpened is openScope of a tree the scope cache's look-up
// opened (o.opened; its feature loaded, so its warnings are out): the
// spec alignment, when not stored yet, reads the definitions while this
// goroutine reads the project map, and is computed on while the scope
// walks the graph (scope.Options.AlignLater), each on a core of its own;
// the reader of file contents starts meanwhile.
func (e *env) openScopeOpened(featureName string, o scopeOptions) (*scopeInputs, error) {
	w := o.opened
	in := &scopeInputs{w: w, sw: w}
	f, err := e.loadFeature(featureName, w, o.strict)
	if err != nil {
		if errors.Is(err, feature.ErrNotFound) {
			return nil, err
		}
		return nil, &contextError{err}
	}
	in.f = f
	if in.cnt, err = e.counter(); err != nil {
		return nil, err
	}
	w.StartContent()
	start := time.Now()
	var alErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				alErr = fmt.Errorf("internal error while aligning feature %s: %v", featureName, r)
			}
		}()
		in.al, in.keepAl, alErr = w.AlignmentUnkept(f)
		e.trace("scope: spec alignment", start)
	}()
	var waited sync.Once
	in.alignLater = func() (*align.Alignment, error) {
		waited.Do(func() { <-done })
		return in.al, alErr
	}
	mapErr := w.MapErr() // as build.Load: the whole map, or why it cannot be read
	e.trace("scope: load the world", start)
	if mapErr == nil {
		t := time.Now()
		in.co = e.coChangeAt(o.commit)
		e.trace("scope: co-change history", t)
	}
	if mapErr != nil {
		in.alignLater() // the alignment reads the store: let it finish
		return nil, &contextError{mapErr}
	}
	return in, nil
}

// coChange mines the first-parent history before rev's commit (HEAD's
// for the work tree) over cochange.DefaultWindow commits, each commit's
// change list read from the store when it was seen before. A repository
// without commits has no history: nil.
func (e *env) coChange(rev string) *cochange.Index {
	if rev == worktreeRev || rev == "" {
		rev = "HEAD"
	}
	commit, _, err := e.repo.Resolve(rev)
	if err != nil {
		return nil
	}
	return e.coChangeAt(commit)
}

// coChangeAt is coChange of a resolved commit.
func (e *env) coChangeAt(commit string) *cochange.Index {
	log, err := build.ChangeLog(e.repo, commit, cochange.DefaultWindow)
	if err != nil {
		return nil
	}
	return cochange.Mine(log, cochange.Options{})
}

// scopeTask runs Layer 2 for one task, printing its warnings to stderr.
func (e *env) scopeTask(in *scopeInputs, task string, o scopeOptions) (*scope.Result, error) {
	if o.stage == "" {
		o.stage = "developer"
	}
	if in.f.Task(task) == nil {
		_, err := scope.Scope(in.sw, in.f, task, scope.Options{}) // names the task's problems, or the tasks there are
		return nil, err
	}
	start := time.Now()
	e.loadCounts()
	e.trace("scope: load the kept token counts", start)
	defer func() {
		start := time.Now()
		e.saveCounts()
		e.trace("scope: keep the token counts", start)
	}()
	start = time.Now()
	defer e.trace("scope: walk, narrow and fill", start)
	opt := scope.Options{
		Stage: o.stage, Budget: o.budget, Config: e.cfg, ConfigRaw: e.cfgRaw, Counter: in.cnt, Strict: o.strict,
		AlignLater: in.alignLater, CoChange: in.co,
	}
	if in.alignLater == nil {
		opt.Align = in.al
	}
	res, err := safeScope(in.sw, in.f, task, opt)
	if in.alignLater != nil {
		in.alignLater() // Scope asked for it; it is done
		if in.keepAl != nil {
			e.keepAlignment(in.keepAl)
		}
	}
	if err != nil {
		return nil, &contextError{err}
	}
	for _, msg := range res.Warnings {
		e.warnf("%s", msg)
	}
	return res, nil
}

// keepAlignment stores a spec alignment the scope computed on another
// goroutine, while the artifacts are written: it takes the store's lock,
// which the scope needs no more. waitKept waits for it and prints its
// warning.
func (e *env) keepAlignment(keep func(warn func(string))) {
	done := make(chan struct{})
	var warns []string
	go func() {
		defer close(done)
		keep(func(msg string) { warns = append(warns, msg) })
	}()
	e.kept = func() {
		<-done
		for _, msg := range warns {
			e.warnf("%s", msg)
		}
	}
}

// waitKept waits for what keepAlignment started, if anything.
func (e *env) waitKept() {
	if k := e.kept; k != nil {
		e.kept = nil
		k()
	}
}

// writeScope writes a scope result's three artifacts into the task's
// context folder (the --speed-dir one).
func (e *env) writeScope(res *scope.Result, featureName, task string) (string, error) {
	dir, _, err := e.writeScopeDigests(res, featureName, task)
	return dir, err
}

// writeScopeDigests is writeScope, also returning the blake3 digest of
// each artifact written (for the scope cache).
func (e *env) writeScopeDigests(res *scope.Result, featureName, task string) (string, map[string]string, error) {
	defer e.trace("scope: encode and write the artifacts", time.Now())
	dir := filepath.Join(e.top, filepath.FromSlash(e.contextDir(featureName, task)))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	// Each artifact is encoded, digested and written on a goroutine of its
	// own (on kubernetes: 2.2, 1.9 and 0.3 MB).
	names := []string{scope.ManifestFile, scope.BudgetFile, scope.MaterialFile}
	sums := make([]string, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			data, err := res.Encode(name)
			if err == nil {
				sums[i] = digestHex(data)
				err = writeFileAtomic(filepath.Join(dir, name), data)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	digests := map[string]string{}
	for i, name := range names {
		if errs[i] != nil {
			return "", nil, errs[i]
		}
		digests[name] = sums[i]
	}
	return dir, digests, nil
}

// writeFileAtomic writes data through a temporary file and a rename, and
// leaves an identical file alone.
func writeFileAtomic(file string, data []byte) error {
	if sameFile(file, data) {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".tmp*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), file)
	}
	if werr != nil {
		os.Remove(tmp.Name())
	}
	return werr
}

// sameFile reports whether file holds data, reading it in pieces: a
// scope's artifacts are megabytes, mostly the same as the last run's.
func sameFile(file string, data []byte) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Size() != int64(len(data)) {
		return false
	}
	buf := make([]byte, 64<<10)
	for len(data) > 0 {
		n, err := io.ReadFull(f, buf[:min(len(buf), len(data))])
		if err != nil || !bytes.Equal(buf[:n], data[:n]) {
			return false
		}
		data = data[n:]
	}
	n, _ := f.Read(buf[:1])
	return n == 0
}

// renderOptions are a render's stage-specific inputs.
type renderOptions struct {
	scopeOptions
	logText    string // debugger
	base       string // reviewer: diff base (overrides the task's)
	worktree   bool   // reviewer: diff against the work tree, not HEAD
	noFallback bool   // a failure to scope is an error whatever scope.fallback_to_full says (verify)
	baseNote   string // reviewer: what was compared, when git-speed chose it (defaultReviewBase)
	session    string // --session: the session window and similar memories
}

// renderStage scopes the task for the stage and renders the stage prompt.
// It writes nothing. When scoping fails for a reason of the context (the
// store, the index, alignment, a bug) and scope.fallback_to_full is set,
// the prompt is rendered from a fallback (see fallbackInputs) and its
// report says why.
func (e *env) renderStage(stage, featureName, task string, o renderOptions) (*scope.Result, *prompt.Output, error) {
	o.stage = stage
	in, err := e.openScope(featureName, o.scopeOptions)
	if err == nil {
		res, out, rerr := e.renderFit(in, stage, featureName, task, o)
		in.close()
		if rerr == nil {
			return res, out, nil
		}
		err = rerr
	}
	var ce *contextError
	if !errors.As(err, &ce) || !e.cfg.Scope.FallbackToFull || o.noFallback || o.strict {
		return nil, nil, unwrapContext(err)
	}
	fin, ferr := e.fallbackInputs(featureName, task, o, ce.err)
	if ferr != nil {
		return nil, nil, fmt.Errorf("%v (and the fallback failed too: %v)", ce.err, ferr)
	}
	e.warnf("scoping task %s failed, so the %s prompt falls back to the task and its files in full: %v", task, stage, ce.err)
	res, out, err := e.renderFit(fin, stage, featureName, task, o)
	if err != nil {
		return nil, nil, fmt.Errorf("%v (and the fallback failed too: %v)", ce.err, unwrapContext(err))
	}
	return res, out, nil
}

// renderFit renders at the stage's budget. When the rendered prompt would
// eat into the reserve (the template's own text is not part of Layer 2's
// budget), the task is scoped again with a smaller total until it fits, at
// most a few times.
func (e *env) renderFit(in *scopeInputs, stage, featureName, task string, o renderOptions) (*scope.Result, *prompt.Output, error) {
	total := stageBudget(e.cfg, stage, o.budget)
	reserve := int(float64(total) * e.cfg.Budget.Shares.Reserve)
	budget := total
	for attempt := 0; ; attempt++ {
		o.budget = budget
		res, out, err := e.renderOnce(in, stage, featureName, task, total, o)
		if err != nil {
			return nil, nil, err
		}
		// Task files that alone exceed code_context come beyond the budget.
		over := out.Report.TotalTokens - (total - reserve) - res.Budget.OutsideBudget
		if over <= 0 || attempt == 5 {
			if over > 0 {
				e.warnf("the %s prompt takes %d tokens, %d into the reserve of %d", stage, out.Report.TotalTokens, over, reserve)
			} else if budget != total {
				e.warnf("scoped at %d of %d tokens so the %s prompt (%d tokens) leaves the reserve free", budget, total, stage, out.Report.TotalTokens)
			}
			return res, out, nil
		}
		// Packing is not linear in the budget: aim a little lower each time.
		next := budget - int(float64(over)/(1-e.cfg.Budget.Shares.Reserve)) - 16<<attempt
		if next <= 0 {
			return res, out, nil
		}
		budget = next
	}
}

// renderOnce scopes and renders at o.budget; total is the stage's budget
// the prompt is reported against.
func (e *env) renderOnce(in *scopeInputs, stage, featureName, task string, total int, o renderOptions) (*scope.Result, *prompt.Output, error) {
	res, err := e.scopeTask(in, task, o.scopeOptions)
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
	ctx, err := prompt.Decode(e.contextDir(featureName, task), data[0], data[1], data[2])
	if err != nil {
		return nil, nil, err
	}
	cnt := in.cnt
	red, err := e.cfg.Redactor()
	if err != nil {
		return nil, nil, err
	}
	pin := prompt.Input{
		Redact:  red,
		Context: ctx, Feature: featureName, Counter: cnt.Count, Tokenizer: cnt.Name(), Budget: total,
		TemplateDir:   filepath.Join(e.top, filepath.FromSlash(path.Join(e.speedDir, "templates"))),
		TemplateLabel: path.Join(e.speedDir, "templates"),
		FailureLog:    o.logText,
		Fallback:      in.fallback,
		DiffBase:      o.baseNote,
	}
	if stage == "developer" || stage == "reviewer" {
		if in.rules == nil { // once per render, however many times it is scoped
			r := e.taskRules(f.Task(task), total, cnt)
			in.rules = &r
		}
		pin.Rules = *in.rules
	}
	if stage == "developer" {
		pin.Commands = e.taskCommands(f.Task(task))
	}
	if t := f.Task(task); t != nil {
		pin.Agent = e.renderAgentSections(t.FilesTouched, total, cnt.Count)
		if o.session != "" {
			more, err := e.renderSessionSections(o.session, t.Title+"\n"+t.Description, total, cnt.Count)
			if err != nil {
				return nil, nil, err
			}
			pin.Agent = append(pin.Agent, more...)
		}
	}
	for _, t := range f.Tasks {
		pin.Tasks = append(pin.Tasks, prompt.TaskSummary{ID: t.ID, Title: t.Title, Status: t.Status, Requirements: t.Requirements, FilesTouched: t.FilesTouched})
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
		if pin.RepoMap, err = graph.RepoMap(g, rank, w.Facts, e.cfg.Map.Budget, cnt.Count); err != nil {
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
		if pin.Diffs, err = e.taskDiffs(f.Task(task), o); err != nil {
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
func (e *env) taskDiffs(t *feature.Task, o renderOptions) ([]prompt.FileDiff, error) {
	base := o.base
	if base == "" {
		base = t.Base
	}
	if base == "" {
		if !o.worktree {
			return nil, usagef("task %s has no base commit to diff from: set base = \"<commit>\" in its file, or pass --base REV or --worktree", t.ID)
		}
		base = "HEAD"
	}
	_, baseTree, err := e.repo.Resolve(base)
	if err != nil {
		return nil, err
	}
	var headTree string
	if !o.worktree {
		if _, headTree, err = e.repo.Resolve(o.rev); err != nil {
			return nil, err
		}
	}
	blobs, err := e.repo.Blobs()
	if err != nil {
		return nil, err
	}
	defer blobs.Close()
	// Both sides are redacted before they are diffed: a changed line of a
	// private key block is a secret even without its BEGIN line.
	red, err := e.cfg.Redactor()
	if err != nil {
		return nil, err
	}
	read := func(tree, p string) (string, bool, error) {
		id, ok, err := e.repo.BlobAt(tree, p)
		if err != nil || !ok {
			return "", ok, err
		}
		b, err := blobs.Read(id, 0)
		text, _ := red.Text(p, string(b))
		return text, true, err
	}
	var diffs []prompt.FileDiff
	for _, p := range t.FilesTouched {
		old, hadOld, err := read(baseTree, p)
		if err != nil {
			return nil, err
		}
		var cur string
		hasNew := false
		if o.worktree {
			b, err := os.ReadFile(filepath.Join(e.top, filepath.FromSlash(p)))
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

// stageBudget is --budget when given, else speed.toml's total for stage.
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
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(recs); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, rendersFile), buf.Bytes())
}

// reviewBase resolves the commit a reviewer prompt diffs from.
func (e *env) reviewBase(featureName, task string, o renderOptions) (string, error) {
	base := o.base
	if base == "" {
		f, err := e.loadFeature(featureName, nil, false)
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
	commit, tree, err := e.repo.Resolve(base)
	if err != nil {
		return "", err
	}
	if commit == "" {
		return tree, nil
	}
	return commit, nil
}

// defaultReviewBase chooses what a reviewer prompt compares when neither
// --base, --worktree nor the task's base says: the merge-base of the
// revision with the default branch (origin/HEAD, else main or master) when
// the task's files changed since, else the work tree against HEAD. It says
// on stderr which it chose, and o.baseNote says it in the prompt.
func (e *env) defaultReviewBase(featureName, task string, o *renderOptions) error {
	f, err := e.loadFeature(featureName, nil, false)
	if err != nil {
		return err
	}
	t := f.Task(task)
	if t == nil || t.Base != "" {
		return nil // renderStage reports a missing task; a task base is used as it is
	}
	rev := o.rev
	if rev == "" {
		rev = "HEAD"
	}
	headCommit, headTree, err := e.repo.Resolve(rev)
	if err != nil {
		return err
	}
	if def := e.repo.DefaultBranch(); def != "" && headCommit != "" {
		mb, err := e.repo.MergeBase(def, headCommit)
		if err != nil {
			return err
		}
		if mb != "" {
			_, mbTree, err := e.repo.Resolve(mb)
			if err != nil {
				return err
			}
			changed := false
			for _, p := range t.FilesTouched {
				a, aok, err := e.repo.BlobAt(mbTree, p)
				if err != nil {
					return err
				}
				b, bok, err := e.repo.BlobAt(headTree, p)
				if err != nil {
					return err
				}
				if a != b || aok != bok {
					changed = true
					break
				}
			}
			if changed {
				o.base = mb
				o.baseNote = fmt.Sprintf("the merge-base `%s` of %s with `%s` (the task has no base; its files changed since)", short(mb), rev, def)
				fmt.Fprintf(e.stderr, "git-speed: task %s has no base: diffing its files from %s, the merge-base of %s with %s\n", task, short(mb), rev, def)
				return nil
			}
		}
		o.worktree, o.base = true, "HEAD"
		o.baseNote = fmt.Sprintf("the work tree against HEAD (the task has no base, and its files are unchanged since the merge-base with `%s`)", def)
		fmt.Fprintf(e.stderr, "git-speed: task %s has no base and its files are unchanged since the merge-base with %s: diffing the work tree against HEAD\n", task, def)
		return nil
	}
	why := "there is no default branch (origin/HEAD, main or master)"
	if headCommit == "" {
		why = rev + " is not a commit"
	}
	o.worktree, o.base = true, "HEAD"
	o.baseNote = "the work tree against HEAD (the task has no base, and " + why + ")"
	fmt.Fprintf(e.stderr, "git-speed: task %s has no base and %s: diffing the work tree against HEAD\n", task, why)
	return nil
}
