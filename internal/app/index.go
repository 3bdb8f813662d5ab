package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/hooks"
	"github.com/git-speed/git-speed/layers/world/build"
)

// IndexRequest asks for Layer 1 of a tree.
type IndexRequest struct {
	Rev
	// Force parses every file again, ignoring what is stored.
	Force bool
	// Quiet drops warnings and progress.
	Quiet bool
}

// Index builds Layer 1 for the request's tree unless it is stored already.
// Progress goes to the context's Reporter.
func (s *Session) Index(ctx context.Context, req IndexRequest) (*build.Result, error) {
	rev, err := s.rev(req.Rev)
	if err != nil {
		return nil, err
	}
	return s.index(ctx, rev, req.Force, req.Quiet)
}

// ParseOnly reads and parses rev's files on the build's workers and does
// nothing else: the baseline of the build benchmarks (code alone unless
// data is set).
func (s *Session) ParseOnly(ctx context.Context, rev string, data bool) (*build.ParseOnlyResult, error) {
	if rev == "" {
		rev = "HEAD"
	}
	return build.ParseOnly(ctx, s.repo, rev, build.Options{Config: s.cfg}, data)
}

// StatusReport is how the repository's index stands.
type StatusReport struct {
	HeadCommit string            `json:"head_commit"`
	HeadTree   string            `json:"head_tree"`
	Indexed    bool              `json:"indexed"`
	State      string            `json:"state"` // fresh | missing | option-mismatch | corrupt | no-commits
	Files      int               `json:"files,omitempty"`
	Trees      int               `json:"trees"`
	Store      StoreSize         `json:"store"`
	Worktree   *WorktreeState    `json:"worktree,omitempty"` // absent in a bare repository
	Hooks      []hooks.HookState `json:"hooks"`
	Problems   []string          `json:"problems,omitempty"`
}

// WorktreeState says whether the work tree differs from HEAD and whether
// that state is indexed.
type WorktreeState struct {
	Dirty   bool   `json:"dirty"`
	Tree    string `json:"tree"`
	Indexed bool   `json:"indexed"`
}

// StoreSize is the size of what refs/speed holds, and how the object
// database it lives in stands (loose objects and packs, which git-speed
// consolidates after an index: gitstore.Repo.Tidy).
type StoreSize struct {
	Objects    int   `json:"objects"`
	Bytes      int64 `json:"bytes"`
	Loose      int   `json:"loose"`
	LooseBytes int64 `json:"loose_bytes"`
	Packs      int   `json:"packs"`
	PackBytes  int64 `json:"pack_bytes"`
	Parts      int   `json:"parts"` // parts under refs/speed/parts (index --shard)
}

// Status reports HEAD, whether its tree is indexed, the work tree's state,
// the store's size and the hooks'.
func (s *Session) Status(ctx context.Context) (*StatusReport, error) {
	rep := &StatusReport{State: "missing", Hooks: []hooks.HookState{}}
	commit, tree, err := s.repo.Head()
	switch {
	case errors.Is(err, gitstore.ErrNoCommits):
		rep.State = "no-commits"
	case err != nil:
		return nil, err
	default:
		rep.HeadCommit, rep.HeadTree = commit, tree
	}
	st := s.repo.Store()
	trees, err := st.Trees()
	if err != nil {
		if !errors.Is(err, gitstore.ErrCorrupt) {
			return nil, err
		}
		rep.State = "corrupt"
		rep.Problems = append(rep.Problems, err.Error()+"; `git speed index` rebuilds it")
	}
	rep.Trees = len(trees)
	if tree != "" && rep.State != "corrupt" {
		info, err := build.Status(s.repo, tree, s.cfg)
		if err != nil {
			rep.State = "corrupt"
			rep.Problems = append(rep.Problems, err.Error())
		} else {
			rep.State, rep.Files = info.State, info.Files
			rep.Indexed = info.State == "fresh"
		}
	}
	if s.top != "" && rep.State != "corrupt" {
		// Quiet: the paths a snapshot leaves out are index's to report.
		if snap, err := s.snapshot(ctx, true); err != nil {
			rep.Problems = append(rep.Problems, "work tree: "+err.Error())
		} else {
			ws := &WorktreeState{Dirty: snap.Dirty, Tree: snap.Tree}
			if info, err := build.Status(s.repo, snap.Tree, s.cfg); err == nil {
				ws.Indexed = info.State == "fresh"
			}
			rep.Worktree = ws
		}
	}
	if objs, size, err := st.Size(); err == nil {
		rep.Store = StoreSize{Objects: objs, Bytes: size}
	}
	if c, err := s.repo.Counts(); err == nil {
		rep.Store.Loose, rep.Store.LooseBytes, rep.Store.Packs, rep.Store.PackBytes = c.Loose, c.LooseSize, c.Packs, c.PackSize
	}
	if parts, err := st.Parts(""); err == nil {
		rep.Store.Parts = len(parts)
	}
	if s.top != "" {
		if hs, err := hooks.Status(s.top, hooks.Options{}); err == nil {
			rep.Hooks = hs
		} else {
			rep.Problems = append(rep.Problems, "hooks: "+err.Error())
		}
	}
	return rep, nil
}

// GCResult is what gc kept and dropped (fields in the order of their
// JSON names).
type GCResult struct {
	FactsDropped int `json:"facts_dropped"`
	FactsKept    int `json:"facts_kept"`
	Loose        int `json:"loose"` // loose objects left in the object database
	Packs        int `json:"packs"` // its packs after
	PartsDropped int `json:"parts_dropped"`
	TreesDropped int `json:"trees_dropped"`
	TreesKept    int `json:"trees_kept"`
}

// GC drops the stored indexes of trees no branch or tag reaches, keeping
// the keep most recent others (store.keep when keep < 0).
func (s *Session) GC(ctx context.Context, keep int) (*GCResult, error) {
	if keep < 0 {
		keep = s.cfg.Store.Keep
	}
	st := s.repo.Store()
	stats, err := st.GC(keep, func(tree, digest string) ([]string, error) {
		return build.FactsKeys(st, tree, digest)
	})
	if err != nil {
		return nil, err
	}
	res := &GCResult{TreesKept: stats.TreesKept, TreesDropped: stats.TreesDropped, FactsKept: stats.FactsKept, FactsDropped: stats.FactsDropped}
	// Parts taken in or of trees nothing reaches go; then the loose
	// objects and small packs are consolidated (what the store no longer
	// holds is left to git's own gc to prune).
	if res.PartsDropped, err = st.PruneParts(); err != nil {
		return nil, err
	}
	if _, err := s.repo.Tidy(true); err != nil && !errors.Is(err, gitstore.ErrTidyBusy) {
		warnf(ctx, "the object database was left as it is (%v)", err)
	}
	if c, err := s.repo.Counts(); err == nil {
		res.Loose, res.Packs = c.Loose, c.Packs
	}
	return res, nil
}

// Hook is what an installed hook runs: re-index HEAD when its tree
// changed, in the background, never failing git (hooks.Run).
func (s *Session) Hook(ctx context.Context, name string, args []string) {
	hooks.Run(ctx, name, args, hooks.RunOptions{
		GitDir:  s.repo.GitDir(),
		Timeout: s.cfg.Hooks.Timeout.D(),
		Index: func(ctx context.Context) error {
			_, err := s.index(ctx, "HEAD", false, true)
			return err
		},
	})
}

// OutputNote says which files of an index are build output, caches or
// virtualenvs, and what becomes of them.
func (s *Session) OutputNote(res *build.Result) string {
	var dirs []string
	for i, r := range res.Output {
		if i == 3 {
			dirs = append(dirs, fmt.Sprintf("%d more", len(res.Output)-3))
			break
		}
		dirs = append(dirs, r.Dir+"/ ("+r.Why+")")
	}
	where := "by their content"
	if len(dirs) > 0 {
		where = "under " + strings.Join(dirs, ", ")
	}
	what := "listed without facts and left out of maps and scope (index.output = \"parse\" reads them)"
	if s.cfg.Index.Output == "parse" {
		what = "read as source (index.output = \"parse\")"
	}
	return fmt.Sprintf("%d files are build output, caches or virtualenvs, %s: %s", res.OutputFiles, where, what)
}
