package app

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/layers/world/build"
)

// worktreeRev stands for the work tree as it is now where a revision is
// expected. It holds a ':', so no ref can be named so.
const worktreeRev = ":worktree:"

// Rev names the tree an operation reads: a revision (any commit-ish or
// tree-ish; "" is HEAD, or the work tree in a session opened with
// Options.Worktree), or the work tree as it is now.
type Rev struct {
	Rev      string
	Worktree bool
}

// rev turns r into the internal revision: worktreeRev for the work tree.
func (s *Session) rev(r Rev) (string, error) {
	switch {
	case r.Worktree && r.Rev != "":
		return "", Usagef("--rev and --worktree name different trees; give one of them")
	case r.Worktree, r.Rev == "" && s.worktree:
		return worktreeRev, nil
	case r.Rev == "":
		return "HEAD", nil
	}
	return r.Rev, nil
}

// headOf is the commit-ish a revision's history starts from: HEAD for the
// work tree.
func headOf(rev string) string {
	if rev == worktreeRev || rev == "" {
		return "HEAD"
	}
	return rev
}

// indexFlight is one build of a tree that calls asking for it at once
// share.
type indexFlight struct {
	done chan struct{}
	res  *build.Result
	err  error
}

// index indexes rev (or the work tree, for worktreeRev), showing progress
// and warnings unless quiet. Calls that ask for the same tree at once
// wait for one build.
func (s *Session) index(ctx context.Context, rev string, force, quiet bool) (*build.Result, error) {
	opt := build.Options{Config: s.cfg, Force: force, TuneProcess: s.oneShot}
	if rev == worktreeRev {
		snap, err := s.snapshot(ctx, quiet)
		if err != nil {
			return nil, err
		}
		rev, opt.Snapshot = snap.Tree, snap.Dirty
	}
	rep := reporterOf(ctx)
	if Tracing() {
		opt.Trace = func(phase string, d time.Duration) {
			rep.Trace(fmt.Sprintf("index %s: %s", phase, d.Round(time.Millisecond)))
		}
	}
	if !quiet {
		opt.Warn = rep.Warn
		opt.Progress = rep.Progress
	}
	key := rev
	if _, tree, err := s.repo.Resolve(rev); err == nil {
		key = tree
	}
	if force {
		key += "\x00force"
	}
	s.indexMu.Lock()
	if f, ok := s.indexing[key]; ok {
		s.indexMu.Unlock()
		select {
		case <-f.done:
			return f.res, f.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f := &indexFlight{done: make(chan struct{})}
	if s.indexing == nil {
		s.indexing = map[string]*indexFlight{}
	}
	s.indexing[key] = f
	s.indexMu.Unlock()
	f.res, f.err = build.Index(ctx, s.repo, rev, opt)
	if f.err == nil && !f.res.UpToDate {
		s.tidy(ctx, f.res)
	}
	s.indexMu.Lock()
	delete(s.indexing, key)
	s.indexMu.Unlock()
	close(f.done)
	return f.res, f.err
}

// snapshot writes the work tree as a tree (see gitstore.SnapshotWorktree),
// warning about the paths it leaves as they were unless quiet.
func (s *Session) snapshot(ctx context.Context, quiet bool) (*gitstore.Snapshot, error) {
	s.snapMu.Lock()
	defer s.snapMu.Unlock()
	start := time.Now()
	snap, err := s.repo.SnapshotWorktree(gitstore.SnapshotOptions{
		MaxFileBytes: s.cfg.Index.MaxFileBytes,
		Warn: func(msg string) {
			if !quiet {
				warnf(ctx, "%s", msg)
			}
		},
	})
	if err != nil {
		return nil, err
	}
	tracef(ctx, "work tree written as tree %s (dirty %v): %s", short(snap.Tree), snap.Dirty, time.Since(start).Round(time.Millisecond))
	return snap, nil
}

// worktreeTree writes the work tree as a tree and indexes it (quietly:
// the paths a snapshot leaves out are index's to report).
func (s *Session) worktreeTree(ctx context.Context) (string, error) {
	res, err := s.index(ctx, worktreeRev, false, true)
	if err != nil {
		return "", err
	}
	return res.Tree, nil
}

// world opens the index of rev's tree, indexing it first when it is not
// stored yet. With whole set, the project map is read at once (and a map
// that cannot be read is the error); else rows are read as asked
// (build.Open). The caller calls release when done with w.
func (s *Session) world(ctx context.Context, rev string, whole bool) (w *build.World, release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var tree string
	if rev == worktreeRev {
		if tree, err = s.worktreeTree(ctx); err != nil {
			return nil, nil, err
		}
	} else {
		if _, tree, err = s.repo.Resolve(rev); err != nil {
			return nil, nil, err
		}
	}
	if !s.oneShot {
		return s.warmWorld(ctx, rev, tree, whole)
	}
	w, err = s.openWorld(ctx, rev, tree, whole)
	if err != nil {
		return nil, nil, err
	}
	return w, func() { w.Close() }, nil
}

// openWorld opens the index of tree (rev's), indexing it first when it is
// not stored yet.
func (s *Session) openWorld(ctx context.Context, rev, tree string, whole bool) (*build.World, error) {
	w, err := build.Open(s.repo, tree, s.cfg)
	if errors.Is(err, build.ErrNotIndexed) && rev != worktreeRev {
		notef(ctx, "tree %s is not indexed yet; indexing it", short(tree))
		if _, err := s.index(ctx, tree, false, false); err != nil {
			return nil, err
		}
		w, err = build.Open(s.repo, tree, s.cfg)
	}
	if err != nil {
		return nil, err
	}
	if whole {
		if err := w.MapErr(); err != nil {
			w.Close()
			return nil, err
		}
	}
	return w, nil
}

// warmWorld is one world a long-lived session keeps open for the calls
// that read its tree, closed once it is retired and no call holds it.
type warmWorld struct {
	tree  string
	ready chan struct{} // closed once w (or err) is set
	w     *build.World
	err   error

	mu      sync.Mutex
	users   int
	retired bool

	// names finds definitions by name (names.go), built on first use.
	namesOnce sync.Once
	names     *nameIndex
}

func (ww *warmWorld) acquire() { ww.mu.Lock(); ww.users++; ww.mu.Unlock() }

func (ww *warmWorld) release() {
	ww.mu.Lock()
	defer ww.mu.Unlock()
	if ww.users--; ww.users == 0 && ww.retired && ww.w != nil {
		ww.w.Close()
	}
}

func (ww *warmWorld) retire() {
	ww.mu.Lock()
	defer ww.mu.Unlock()
	if ww.retired = true; ww.users == 0 && ww.w != nil {
		ww.w.Close()
	}
}

// keepWorlds is how many trees' worlds a long-lived session keeps open:
// HEAD's and the work tree's.
const keepWorlds = 2

// warmWorld returns the kept world of tree, opening (and indexing) it
// first when it is not kept yet; the oldest kept world beyond keepWorlds
// is retired. Calls for a tree already open do not wait for one being
// opened.
func (s *Session) warmWorld(ctx context.Context, rev, tree string, whole bool) (*build.World, func(), error) {
	s.warmMu.Lock()
	var ww *warmWorld
	for i, k := range s.warm {
		if k.tree == tree {
			// Most recently used last.
			s.warm = append(append(s.warm[:i:i], s.warm[i+1:]...), k)
			ww = k
			break
		}
	}
	opener := ww == nil
	if opener {
		ww = &warmWorld{tree: tree, ready: make(chan struct{})}
		s.warm = append(s.warm, ww)
		if len(s.warm) > keepWorlds {
			s.warm[0].retire()
			s.warm = s.warm[1:]
		}
	}
	ww.acquire()
	s.warmMu.Unlock()
	if opener {
		w, err := s.openWorld(ctx, rev, tree, false)
		ww.mu.Lock()
		ww.w, ww.err = w, err
		ww.mu.Unlock()
		close(ww.ready)
		if err != nil {
			s.forget(ww)
		}
	} else {
		select {
		case <-ww.ready:
		case <-ctx.Done():
			ww.release()
			return nil, nil, ctx.Err()
		}
	}
	if ww.err != nil {
		ww.release()
		if !opener && ctx.Err() == nil && (errors.Is(ww.err, context.Canceled) || errors.Is(ww.err, context.DeadlineExceeded)) {
			return s.warmWorld(ctx, rev, tree, whole) // the call that opened it was cancelled, not this one
		}
		return nil, nil, ww.err
	}
	if whole {
		if err := ww.w.MapErr(); err != nil {
			ww.release()
			return nil, nil, err
		}
	}
	return ww.w, ww.release, nil
}

// forget drops a kept world that could not be opened, so that the next
// call tries again.
func (s *Session) forget(ww *warmWorld) {
	s.warmMu.Lock()
	defer s.warmMu.Unlock()
	for i, k := range s.warm {
		if k == ww {
			s.warm = append(s.warm[:i:i], s.warm[i+1:]...)
			return
		}
	}
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
