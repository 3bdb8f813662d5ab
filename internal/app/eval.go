package app

import (
	"context"
	"encoding/json"
	"os"
	"strings"

	"github.com/git-speed/git-speed/layers/pack"
	"github.com/git-speed/git-speed/layers/scope"
	"github.com/git-speed/git-speed/layers/scope/eval"
	"github.com/git-speed/git-speed/layers/world/build"
	"github.com/git-speed/git-speed/layers/world/cochange"
)

// EvalRequest asks to replay recent history and measure what scoping (or,
// with Pack, packing) reaches.
type EvalRequest struct {
	Rev      string // where the history starts; "" is HEAD
	Commits  int    // recent commits to look at; 0 is 100
	Budget   int    // total tokens per task; 0 is 32000
	Stage    string // stage whose shares apply; "" is developer
	Cases    bool   // keep every replayed commit in the report
	Ablate   bool   // also scope with each signal off, and the graph alone
	Messages bool   // the commit message is the task's title and description
}

// Eval replays recent multi-file commits as tasks and reports what the
// scope reaches, per language of the seed file.
func (s *Session) Eval(ctx context.Context, req EvalRequest) (*eval.Report, error) {
	h, opt, err := s.evalSetup(ctx, req)
	if err != nil {
		return nil, err
	}
	defer h.close()
	return eval.Run(h, opt)
}

// evalSetup is the history and options of an eval request.
func (s *Session) evalSetup(ctx context.Context, req EvalRequest) (*history, eval.EvalOptions, error) {
	cnt, err := s.counter()
	if err != nil {
		return nil, eval.EvalOptions{}, err
	}
	h := &history{s: s, ctx: ctx, rev: req.Rev}
	if h.rev == "" {
		h.rev = "HEAD"
	}
	return h, eval.EvalOptions{
		Commits: req.Commits, Budget: req.Budget, Stage: req.Stage,
		Config: s.cfg, Counter: cnt, Counts: s.counts, Cases: req.Cases, Ablate: req.Ablate, Messages: req.Messages,
	}, nil
}

// history is the repository's own history as eval replays it.
type history struct {
	s      *Session
	ctx    context.Context
	rev    string
	worlds []*build.World
}

func (h *history) Commits(n int) ([]eval.Commit, error) {
	log, err := h.s.repo.FirstParentLog(h.rev, n)
	if err != nil {
		return nil, err
	}
	var out []eval.Commit
	for _, l := range log {
		if len(l.Parents) == 0 {
			continue
		}
		ch, err := h.s.repo.ChangedLines(l.Parents[0], l.Commit)
		if err != nil {
			return nil, err
		}
		msg, err := h.s.repo.Message(l.Commit)
		if err != nil {
			return nil, err
		}
		c := eval.Commit{ID: l.Commit, Parent: l.Parents[0], Lines: map[string]int{}, Message: msg}
		if c.Hunks, err = h.hunks(l.Parents[0], l.Commit); err != nil {
			return nil, err
		}
		for _, x := range ch {
			c.Changed = append(c.Changed, x.Path)
			c.Lines[x.Path] = x.Lines
		}
		out = append(out, c)
	}
	return out, nil
}

// hunks is what commit changed against parent, per path, in the
// parent's lines: eval judges the lines scope shows by them.
func (h *history) hunks(parent, commit string) (map[string][]eval.Hunk, error) {
	d, err := h.s.repo.DiffHunks(parent, commit)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]eval.Hunk, len(d))
	for p, hs := range d {
		for _, x := range hs {
			out[p] = append(out[p], eval.Hunk{Start: x.Start, Count: x.Count})
		}
	}
	return out, nil
}

// open indexes commit (quietly, incrementally) and opens its world, closed
// with the history.
func (h *history) open(commit string, whole bool) (*build.World, error) {
	if err := h.ctx.Err(); err != nil {
		return nil, err
	}
	if _, err := h.s.index(h.ctx, commit, false, true); err != nil {
		return nil, err
	}
	_, tree, err := h.s.repo.Resolve(commit)
	if err != nil {
		return nil, err
	}
	var w *build.World
	if whole {
		w, err = build.Load(h.s.repo, tree, h.s.cfg)
	} else {
		w, err = build.Open(h.s.repo, tree, h.s.cfg)
	}
	if err != nil {
		return nil, err
	}
	h.worlds = append(h.worlds, w)
	return w, nil
}

func (h *history) WorldAt(commit string) (scope.World, error) {
	w, err := h.open(commit, true)
	if err != nil {
		return nil, err
	}
	if err := w.LoadLinks(); err != nil {
		return nil, err
	}
	return w, nil
}

// CoChangeAt mines the history up to commit (eval.CoChanges).
func (h *history) CoChangeAt(commit string) (*cochange.Index, error) {
	return h.s.coChange(commit), nil
}

func (h *history) close() {
	for _, w := range h.worlds {
		w.Close()
	}
}

// EvalPackRequest asks to replay recent commit messages as pack requests.
type EvalPackRequest struct {
	Rev     string // where the history starts; "" is HEAD
	Commits int    // recent commits; 0 is 100
	// Weights overrides signal weights (fields of pack.Weights, as JSON),
	// for tuning.
	Weights string
	Cases   bool // keep every case in the report
	// Requests names a request file (JSON Lines, pack.ReadRequests): each
	// request is replayed at its revision beside the commit messages.
	Requests string
}

// EvalPack replays the n most recent first-parent commits as pack
// requests: the message is the request, the changed files that existed in
// the parent are the target, the parent's tree (indexed incrementally) is
// the world and the commits before it are the history. Beside them it
// replays up to n problem statements (pack.Statement) found among the
// statementDepth·n most recent commits.
func (s *Session) EvalPack(ctx context.Context, req EvalPackRequest) (*pack.EvalReport, error) {
	n := req.Commits
	if n == 0 && req.Requests == "" {
		n = 100
	}
	var asked []pack.EvalRequest
	if req.Requests != "" {
		f, err := os.Open(req.Requests)
		if err != nil {
			return nil, Usagef("--requests: %v", err)
		}
		asked, err = pack.ReadRequests(req.Requests, f)
		f.Close()
		if err != nil {
			return nil, Usagef("--requests %v", err)
		}
	}
	var w *pack.Weights
	if req.Weights != "" {
		dw := pack.DefaultWeights()
		dec := json.NewDecoder(strings.NewReader(req.Weights))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&dw); err != nil {
			return nil, Usagef("--weights: %v", err)
		}
		w = &dw
	}
	h := &history{s: s, ctx: ctx, rev: req.Rev}
	if h.rev == "" {
		h.rev = "HEAD"
	}
	defer h.close()
	// Problem statements are rarer than messages: look further back for
	// them, up to n.
	log, err := s.repo.RecentChanges(h.rev, statementDepth*n+DefaultHistory)
	if err != nil {
		return nil, err
	}
	var cases, stmts []pack.Case
	for i := 0; i < statementDepth*n && i < len(log); i++ {
		l := log[i]
		stmt, isStmt := pack.Statement(l.Message)
		isStmt = isStmt && len(stmts) < n
		if i >= n && !isStmt {
			continue
		}
		parents, err := s.repo.FirstParentLog(l.Commit, 2)
		if err != nil || len(parents) < 2 || len(parents[0].Parents) == 0 {
			continue
		}
		parent := parents[0].Parents[0]
		wd, err := h.open(parent, false)
		if err != nil {
			return nil, err
		}
		var target []string
		for _, p := range l.Paths {
			if _, ok := wd.Entry(p); ok {
				target = append(target, p)
			}
		}
		var past []pack.Commit
		for _, o := range log[i+1 : min(len(log), i+1+DefaultHistory)] {
			past = append(past, pack.Commit{ID: o.Commit, Message: o.Message, Paths: o.Paths})
		}
		c := pack.Case{Commit: l.Commit, Kind: "commit", Message: request(l.Message), Target: target, Src: wd, History: past}
		if i < n {
			cases = append(cases, c)
		}
		if isStmt {
			c.Message, c.Kind = stmt, "statement"
			stmts = append(stmts, c)
		}
	}
	rep, err := pack.Evaluate(cases, w, req.Cases)
	if err != nil {
		return nil, err
	}
	if rep.Statements, err = pack.Evaluate(stmts, w, req.Cases); err != nil {
		return nil, err
	}
	if len(asked) > 0 {
		if rep.Requests, err = s.evalRequests(h, asked, w, req.Cases); err != nil {
			return nil, err
		}
	}
	rep.Merge()
	return rep, nil
}

// evalRequests replays the requests of a request file, each at its
// revision: the tree of rev is the world, the files of its target that
// exist there are the target and the commits up to rev are the history.
// A request whose revision the repository does not have is skipped.
func (s *Session) evalRequests(h *history, asked []pack.EvalRequest, w *pack.Weights, perCase bool) (*pack.EvalReport, error) {
	var cases []pack.Case
	skipped := 0
	for _, a := range asked {
		commit, _, err := s.repo.Resolve(a.Rev)
		if err != nil {
			skipped++
			continue
		}
		wd, err := h.open(commit, false)
		if err != nil {
			return nil, err
		}
		var target []string
		for _, p := range a.Target {
			if _, ok := wd.Entry(p); ok {
				target = append(target, p)
			}
		}
		log, err := s.repo.RecentChanges(commit, DefaultHistory)
		if err != nil {
			return nil, err
		}
		past := make([]pack.Commit, 0, len(log))
		for _, o := range log {
			past = append(past, pack.Commit{ID: o.Commit, Message: o.Message, Paths: o.Paths})
		}
		cases = append(cases, pack.Case{Commit: commit, ID: a.ID, Kind: a.Kind, Message: a.Request, Target: target, Src: wd, History: past})
	}
	rep, err := pack.Evaluate(cases, w, perCase)
	if err != nil {
		return nil, err
	}
	rep.Skipped += skipped
	return rep, nil
}

// statementDepth bounds how far back EvalPack looks for problem
// statements, in multiples of the commits asked for.
const statementDepth = 10

// request is a commit message as a request: without the subject of a
// merge commit ("Merge pull request #12 from a/b", "Merge branch …"),
// which names branches, not the change.
func request(msg string) string {
	subject, body, _ := strings.Cut(msg, "\n")
	if strings.HasPrefix(subject, "Merge pull request ") || strings.HasPrefix(subject, "Merge branch ") {
		if b := strings.TrimSpace(body); b != "" {
			return b
		}
	}
	return msg
}
