package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/git-speed/git-speed/layers/pack"
)

// PackRequest asks for a context pack.
type PackRequest struct {
	Rev
	// Query is the question, bug report or commit message.
	Query string
	// Tags are repository paths the request is about: always in the pack, first.
	Tags []string
	// MaxItems is the files at most; 0 is pack.DefaultMaxItems.
	MaxItems int
	// Budget is the tokens of the rendered pack at most; 0 is
	// pack.DefaultBudget.
	Budget int
	// History is how many recent commits' messages are matched; nil is
	// DefaultHistory, 0 none.
	History *int
	// Paths and Exclude are globs (internal/pathglob) limiting the files
	// the pack may hold: those matching one of Paths (any when empty)
	// and none of Exclude. Tags are always held.
	Paths, Exclude []string
	// Explain renders every evidence line in the pack's text (the terms
	// matched per field, history); JSON has them always.
	Explain bool
}

// DefaultHistory is how many recent commits the history signal reads.
const DefaultHistory = 300

// Pack scores every file of the tree against the request and returns the
// best files with reasons, signals, symbols and snippets as evidence,
// never over the budget.
func (s *Session) Pack(ctx context.Context, req PackRequest) (*pack.Pack, error) {
	o := packOptions{Query: req.Query, Tags: req.Tags, MaxItems: req.MaxItems, Budget: req.Budget, History: DefaultHistory,
		Globs: pack.Globs{Paths: req.Paths, Exclude: req.Exclude}, Explain: req.Explain}
	if o.MaxItems == 0 {
		o.MaxItems = pack.DefaultMaxItems
	}
	if o.Budget == 0 {
		o.Budget = pack.DefaultBudget
	}
	if req.History != nil {
		o.History = *req.History
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	rev, err := s.rev(req.Rev)
	if err != nil {
		return nil, err
	}
	// Packs see the workspace as it is: with no tree named, a work tree
	// that differs from HEAD is packed as it is now (--rev HEAD for the
	// committed tree). The status read for it is the pack's own.
	var pre *gitInfo
	if req.Rev == (Rev{}) && rev == "HEAD" && s.top != "" {
		untracked := s.repo.IndexBytes() <= untrackedIndexBytes
		if st, err := s.repo.Status(untracked); err == nil {
			dirty := false
			for _, e := range st {
				dirty = dirty || e.Code != "??"
			}
			if dirty {
				rev = worktreeRev
				notef(ctx, "the work tree differs from HEAD: packed as it is now (--rev HEAD packs the committed tree)")
			}
			if !dirty || untracked {
				pre = &gitInfo{status: []pack.Status{}, untracked: untracked}
				for _, e := range st {
					pre.status = append(pre.status, pack.Status{Path: e.Path, Code: e.Code})
				}
			}
		}
	}
	o.Rev = rev
	// The tokenizer's vocabulary takes 30 ms to build: build it while the
	// index opens and the request is scored. A pack's heap stays small
	// (tens of MB), so a one-shot run collects less often, as scope and
	// map do.
	go func() { _, _ = s.counter() }()
	defer s.collectLess()()
	start := time.Now()
	git := s.gitContext(ctx, o, pre) // runs while the index is opened
	w, release, err := s.world(ctx, rev, false)
	if err != nil {
		<-git
		return nil, err
	}
	defer release()
	trace(ctx, "load index", start)
	return s.pack(ctx, w, o, git)
}

// packOptions is one pack request, checked.
type packOptions struct {
	Query    string
	Tags     []string // repo-relative
	MaxItems int
	Budget   int
	History  int
	Rev      string // the revision w was loaded from (for history); worktreeRev for the work tree
	Globs    pack.Globs
	Explain  bool
}

func (o *packOptions) check() error {
	if o.MaxItems <= 0 {
		return Usagef("--max-items must be a positive number, got %d", o.MaxItems)
	}
	if o.Budget <= 0 {
		return Usagef("--budget must be a positive number of tokens, got %d", o.Budget)
	}
	if o.History < 0 {
		return Usagef("--history must be 0 or more commits, got %d", o.History)
	}
	if err := o.Globs.Check(); err != nil {
		return Usagef("%v", err)
	}
	return nil
}

// gitInfo is what a pack reads of git besides the index: the work tree's
// status and the recent history.
type gitInfo struct {
	status    []pack.Status
	untracked bool // status lists untracked files
	history   []pack.Commit
}

// untrackedIndexBytes is the largest git index (about 8,000 tracked files)
// for which a pack of a revision lists untracked files in its git status.
const untrackedIndexBytes = 1 << 20

// gitContext reads git status and the recent history in the background;
// the result is read from the channel once.
func (s *Session) gitContext(ctx context.Context, o packOptions, pre *gitInfo) <-chan gitInfo {
	ch := make(chan gitInfo, 1)
	go func() {
		start := time.Now()
		var gi gitInfo
		if pre != nil {
			gi = *pre // the status Pack read to choose the tree
		} else {
			// Listing untracked files reads every folder of the work tree
			// (0.1 s of CPU on kubernetes); a pack scores only indexed
			// files, so it lists them only where that is cheap or the
			// work tree is what is indexed.
			gi.untracked = o.Rev == worktreeRev || s.repo.IndexBytes() <= untrackedIndexBytes
			if st, err := s.repo.Status(gi.untracked); err == nil {
				gi.status = []pack.Status{}
				for _, st := range st {
					gi.status = append(gi.status, pack.Status{Path: st.Path, Code: st.Code})
				}
			}
		}
		if o.History > 0 {
			if commit, _, err := s.repo.Resolve(headOf(o.Rev)); err == nil && commit != "" {
				if log, err := s.repo.RecentChanges(commit, o.History); err == nil {
					for _, l := range log {
						gi.history = append(gi.history, pack.Commit{ID: l.Commit, Message: l.Message, Paths: l.Paths})
					}
				}
			}
		}
		trace(ctx, "git status and history", start)
		ch <- gi
	}()
	return ch
}

// pack builds the context pack of o over src. git is gitContext's result.
func (s *Session) pack(ctx context.Context, src pack.Source, o packOptions, git <-chan gitInfo) (*pack.Pack, error) {
	cnt, err := s.counter()
	if err != nil {
		return nil, err
	}
	req := pack.Request{Query: o.Query, Tags: o.Tags, MaxItems: o.MaxItems, Budget: o.Budget, Counter: cnt, Globs: o.Globs, Explain: o.Explain}
	req.Redact = func(path, text string) string { // the one redaction layer, for snippets
		if t, err := s.redact(path, text); err == nil {
			return t
		}
		return redactFailed
	}
	start := time.Now()
	defer trace(ctx, "pack", start)
	gi := <-git
	req.Status, req.Untracked, req.History = gi.status, gi.untracked, gi.history
	if Tracing() {
		rep := reporterOf(ctx)
		req.Trace = func(phase string, d time.Duration) {
			rep.Trace(fmt.Sprintf("pack %s: %.1f ms", phase, float64(d.Microseconds())/1000))
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := pack.Build(src, req)
	if errors.Is(err, pack.ErrBadRequest) {
		return nil, Usagef("%v", err)
	}
	if err == nil && p.Request.Cut != "" {
		warnf(ctx, "%s", p.Request.Cut)
	}
	return p, err
}

// redactFailed stands for a text the redaction layer could not read; it
// never shows the text itself.
const redactFailed = "***REDACTED(redaction unavailable)***"
