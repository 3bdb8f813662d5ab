package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sync"
	"time"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/prompt"
	"github.com/git-speed/git-speed/layers/scope"
	"github.com/git-speed/git-speed/layers/world/align"
	"github.com/git-speed/git-speed/layers/world/build"
	"github.com/git-speed/git-speed/layers/world/cochange"
)

// op is one call's state: its context (with the Reporter) and what the
// steps of a scope or a render share.
type op struct {
	*Session
	ctx context.Context
	// focusTask is the task the call is about: loadFeature leaves its
	// problems for the call's error rather than warning about them.
	focusTask string
	// kept, when set, waits for a spec alignment being stored beside the
	// writing of a scope's artifacts (keepAlignment, waitKept).
	kept func()
}

func (s *Session) op(ctx context.Context) *op { return &op{Session: s, ctx: ctx} }

func (o *op) warnf(format string, args ...any) { warnf(o.ctx, format, args...) }

func (o *op) trace(phase string, start time.Time) { trace(o.ctx, phase, start) }

// ScopeRequest asks for Layer 2 of one task.
type ScopeRequest struct {
	Rev
	Feature, Task string
	// Stage's budget shares apply; "" is developer.
	Stage string
	// Budget overrides the stage's total tokens; 0 keeps it.
	Budget int
	// Strict makes a files_touched path absent from the tree an error.
	Strict bool
	// Full scopes in full even when a kept record of the same scope
	// answers (the record holds the summary, not the artifacts in memory).
	Full bool
}

// ScopeResult is a scope written into its task's context folder.
type ScopeResult struct {
	// Dir is the context folder, relative to the work tree top.
	Dir string
	// Summary is what the command line prints (scope.Result.Summary).
	Summary string
	// Result is the scope in memory; nil when a kept record answered.
	Result *scope.Result
}

// Scope runs Layer 2 for one task and writes manifest.json, budget.json
// and material.json into its context folder. The same scope asked again
// while its artifacts are in place answers from a record kept under
// <git-common-dir>/speed/cache/scopes/ without loading the world
// (unless req.Full).
func (s *Session) Scope(ctx context.Context, req ScopeRequest) (*ScopeResult, error) {
	// A scope keeps most of what it allocates to the end: it collects
	// rarely from the start (collecting as the artifacts were written
	// marked the whole index once more).
	defer s.collectRarely()()
	if req.Budget < 0 {
		return nil, Usagef("--budget must be a positive number of tokens, got %d", req.Budget)
	}
	rev, err := s.rev(req.Rev)
	if err != nil {
		return nil, err
	}
	o := s.op(ctx)
	o.focusTask = req.Task
	defer o.waitKept()
	so := scopeOptions{stage: req.Stage, budget: req.Budget, rev: rev, strict: req.Strict}
	// The same scope again, its artifacts still in place: the kept
	// record answers (scopecache.go).
	key := ""
	if !req.Full {
		if key = o.scopeKeyOf(req.Feature, req.Task, &so); so.opened != nil {
			defer so.opened.Close()
		}
	}
	if rec, ok := s.cachedScope(key, req.Feature, req.Task); key != "" && ok {
		for _, msg := range rec.Warnings {
			o.warnf("%s", msg)
		}
		if rec.OverBudget != "" {
			o.warnf("over budget: %s", rec.OverBudget)
		}
		return &ScopeResult{Dir: s.ContextDir(req.Feature, req.Task), Summary: rec.Summary}, nil
	}
	res, release, err := o.runScope(req.Feature, req.Task, so)
	if err != nil {
		return nil, err
	}
	defer release()
	_, digests, err := o.writeScopeDigests(res, req.Feature, req.Task)
	if err != nil {
		return nil, err
	}
	if key != "" {
		s.keepScope(key, res, digests)
	}
	o.waitKept()
	if !res.Budget.WithinBudget {
		o.warnf("over budget: %s", res.Budget.OverBudget)
	}
	return &ScopeResult{Dir: s.ContextDir(req.Feature, req.Task), Summary: res.Summary(), Result: res}, nil
}

// loadFeature reads a feature, checking files_touched against w's tree.
func (o *op) loadFeature(name string, w *build.World, strict bool) (*feature.Feature, error) {
	if o.top == "" {
		return nil, errors.New("features live in a work tree; this is a bare repository")
	}
	opts := feature.Options{Strict: strict, Dir: path.Join(o.speedDir, "features")}
	if w != nil {
		opts.Exists = func(p string) bool { _, ok := w.Entry(p); return ok }
	}
	f, warns, err := feature.LoadFeature(os.DirFS(o.top), name, opts)
	if errors.Is(err, feature.ErrNotFound) {
		return nil, fmt.Errorf("no feature %s: %s/ does not exist", name, o.featureDir(name))
	}
	if err != nil {
		return nil, err
	}
	for _, w := range warns {
		o.warnf("%s", w)
	}
	for _, b := range f.Broken {
		if b.ID == o.focusTask {
			continue // the caller reports it as its error
		}
		for _, x := range b.Errs {
			o.warnf("%s (task %s is left out)", x, b.ID)
		}
	}
	if err := o.redactFeature(f); err != nil {
		return nil, err
	}
	return f, nil
}

// redactFeature passes the texts of f's spec and tasks through the
// redaction layer, so no output (scope, render, align) shows a secret
// written in them. The raw bytes kept for digests stay as read.
func (s *Session) redactFeature(f *feature.Feature) error {
	r, err := s.cfg.Redactor()
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
		for i := range t.Assumptions {
			clean(&t.Assumptions[i])
		}
		for i := range t.Concerns {
			clean(&t.Concerns[i])
		}
	}
	for i := range f.Concerns {
		clean(&f.Concerns[i])
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

// runScope runs Layer 2 for one task and returns the result, with
// warnings reported; release releases the world it read.
func (o *op) runScope(featureName, task string, so scopeOptions) (*scope.Result, func(), error) {
	// The index is allocated once and lives until the scope is done:
	// collect rarely meanwhile, as a map does (build.CollectRarely).
	defer o.collectRarely()()
	in, err := o.openScope(featureName, so)
	if err != nil {
		return nil, nil, unwrapContext(err)
	}
	res, err := o.scopeTask(in, task, so)
	if err != nil {
		in.close()
		return nil, nil, unwrapContext(err)
	}
	return res, in.close, nil
}

// scopeInputs is what scoping any task of a feature at one tree reads:
// loaded once, however many times the task is scoped.
type scopeInputs struct {
	w       *build.World // nil in a fallback
	release func()       // releases w
	sw      scope.World  // what Scope reads: w, or a fallback's files
	f       *feature.Feature
	al      *align.Alignment
	cnt     tokens.Counter
	// fallback, when not "", says why the inputs are a fallback's.
	fallback string
	rules    *prompt.Rules // the task's security rules, once summarised
	// co is the co-change history before the base (nil when there is
	// none: no commit yet, a fallback).
	co *cochange.Index
	// alignLater, when set, waits for al, computed on another goroutine
	// (openScopeOpened); al and keepAl are not to be read before. keepAl,
	// when set, stores al (build.World.AlignmentUnkept): scopeTask has
	// it done beside the writing of the artifacts (op.keepAlignment).
	alignLater func() (*align.Alignment, error)
	keepAl     func(warn func(string))
}

// close releases the world, if any.
func (in *scopeInputs) close() {
	if in.release != nil {
		in.release()
	}
}

// openScope loads the world at so.rev, the feature and its alignment. The
// caller closes in.
func (o *op) openScope(featureName string, so scopeOptions) (*scopeInputs, error) {
	stage := so.stage
	if stage == "" {
		stage = "developer"
	}
	if _, err := o.cfg.StageBudget(stage); err != nil {
		return nil, Usagef("--stage: %v", err)
	}
	if so.opened != nil {
		return o.openScopeOpened(featureName, so)
	}
	start := time.Now()
	w, release, err := o.world(o.ctx, so.rev, true)
	if err != nil {
		return nil, &contextError{err}
	}
	o.trace("scope: load the world", start)
	in := &scopeInputs{w: w, release: release, sw: w}
	start = time.Now()
	in.co = o.coChange(so.rev)
	o.trace("scope: co-change history", start)
	if in.f, err = o.loadFeature(featureName, w, so.strict); err == nil {
		if in.cnt, err = o.counter(); err == nil {
			start = time.Now()
			if in.al, err = w.Alignment(in.f, func(msg string) { o.warnf("%s", msg) }); err != nil {
				err = &contextError{err}
			}
			o.trace("scope: spec alignment", start)
		}
	} else if !errors.Is(err, feature.ErrNotFound) {
		err = &contextError{err}
	}
	if err != nil {
		release()
		return nil, err
	}
	return in, nil
}

// openScopeOpened is openScope of a tree the scope cache's look-up
// opened (so.opened; its feature loaded, so its warnings are out): the
// spec alignment, when not stored yet, reads the definitions while this
// goroutine reads the project map, and is computed on while the scope
// walks the graph (scope.Options.AlignLater), each on a core of its own;
// the reader of file contents starts meanwhile.
func (o *op) openScopeOpened(featureName string, so scopeOptions) (*scopeInputs, error) {
	w := so.opened
	in := &scopeInputs{w: w, sw: w}
	f, err := o.loadFeature(featureName, w, so.strict)
	if err != nil {
		if errors.Is(err, feature.ErrNotFound) {
			return nil, err
		}
		return nil, &contextError{err}
	}
	in.f = f
	if in.cnt, err = o.counter(); err != nil {
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
		o.trace("scope: spec alignment", start)
	}()
	var waited sync.Once
	in.alignLater = func() (*align.Alignment, error) {
		waited.Do(func() { <-done })
		return in.al, alErr
	}
	mapErr := w.MapErr() // as build.Load: the whole map, or why it cannot be read
	o.trace("scope: load the world", start)
	if mapErr == nil {
		t := time.Now()
		in.co = o.coChangeAt(so.commit)
		o.trace("scope: co-change history", t)
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
func (s *Session) coChange(rev string) *cochange.Index {
	commit, _, err := s.repo.Resolve(headOf(rev))
	if err != nil {
		return nil
	}
	return s.coChangeAt(commit)
}

// coChangeAt is coChange of a resolved commit.
func (s *Session) coChangeAt(commit string) *cochange.Index {
	log, err := build.ChangeLog(s.repo, commit, cochange.DefaultWindow)
	if err != nil {
		return nil
	}
	return cochange.Mine(log, cochange.Options{})
}

// scopeTask runs Layer 2 for one task, reporting its warnings.
func (o *op) scopeTask(in *scopeInputs, task string, so scopeOptions) (*scope.Result, error) {
	if err := o.ctx.Err(); err != nil {
		return nil, err
	}
	if so.stage == "" {
		so.stage = "developer"
	}
	if in.f.Task(task) == nil {
		_, err := scope.Scope(in.sw, in.f, task, scope.Options{}) // names the task's problems, or the tasks there are
		return nil, err
	}
	start := time.Now()
	o.loadCounts(o.ctx)
	o.trace("scope: load the kept token counts", start)
	defer func() {
		start := time.Now()
		o.saveCounts()
		o.trace("scope: keep the token counts", start)
	}()
	start = time.Now()
	defer o.trace("scope: walk, narrow and fill", start)
	opt := scope.Options{
		Stage: so.stage, Budget: so.budget, Config: o.cfg, ConfigRaw: o.cfgRaw, Counter: in.cnt, Strict: so.strict,
		AlignLater: in.alignLater, CoChange: in.co, Counts: o.counts,
	}
	if in.alignLater == nil {
		opt.Align = in.al
	}
	res, err := safeScope(in.sw, in.f, task, opt)
	if in.alignLater != nil {
		in.alignLater() // Scope asked for it; it is done
		if in.keepAl != nil {
			o.keepAlignment(in.keepAl)
		}
	}
	if err != nil {
		return nil, &contextError{err}
	}
	for _, msg := range res.Warnings {
		o.warnf("%s", msg)
	}
	return res, nil
}

// keepAlignment stores a spec alignment the scope computed on another
// goroutine, while the artifacts are written: it takes the store's lock,
// which the scope needs no more. waitKept waits for it and reports its
// warning.
func (o *op) keepAlignment(keep func(warn func(string))) {
	done := make(chan struct{})
	var warns []string
	go func() {
		defer close(done)
		keep(func(msg string) { warns = append(warns, msg) })
	}()
	o.kept = func() {
		<-done
		for _, msg := range warns {
			o.warnf("%s", msg)
		}
	}
}

// waitKept waits for what keepAlignment started, if anything.
func (o *op) waitKept() {
	if k := o.kept; k != nil {
		o.kept = nil
		k()
	}
}

// writeScope writes a scope result's three artifacts into the task's
// context folder (the --speed-dir one).
func (o *op) writeScope(res *scope.Result, featureName, task string) (string, error) {
	dir, _, err := o.writeScopeDigests(res, featureName, task)
	return dir, err
}

// writeScopeDigests is writeScope, also returning the blake3 digest of
// each artifact written (for the scope cache).
func (o *op) writeScopeDigests(res *scope.Result, featureName, task string) (string, map[string]string, error) {
	defer o.trace("scope: encode and write the artifacts", time.Now())
	dir := filepath.Join(o.top, filepath.FromSlash(o.ContextDir(featureName, task)))
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

// ScopeJSON is what a scope prints as JSON: its folder, manifest and
// budget (the result of a full scope: ScopeRequest.Full).
func ScopeJSON(r *ScopeResult) map[string]any {
	out := map[string]any{"dir": r.Dir}
	if r.Result != nil {
		out["manifest"], out["budget"] = r.Result.Manifest, r.Result.Budget
	}
	return out
}
