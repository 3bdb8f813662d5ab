package app

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/git-speed/git-speed/layers/world/build"
)

// IndexPartRequest asks for part K of N of a tree's facts: what one of N
// machines indexing a tree together parses (docs/shards.md).
type IndexPartRequest struct {
	Rev
	Part, Of int
	// Force parses every file of the part again, ignoring stored facts.
	Force bool
	// Quiet drops warnings and progress.
	Quiet bool
}

// ParsePart reads "K/N" (1 ≤ K ≤ N), as --shard takes it.
func ParsePart(s string) (k, n int, err error) {
	ks, ns, ok := strings.Cut(s, "/")
	if ok {
		k, err = strconv.Atoi(ks)
		if err == nil {
			n, err = strconv.Atoi(ns)
		}
	}
	if !ok || err != nil || n < 1 || k < 1 || k > n || n > 4096 {
		return 0, 0, Usagef("--shard %q: want K/N with 1 ≤ K ≤ N ≤ 4096, for example 2/4", s)
	}
	return k, n, nil
}

// IndexPart parses the request's part of its tree and stores its facts
// under refs/speed/parts/<tree>/<K>-of-<N>, moving no other ref; a plain
// Index of the tree afterwards (anywhere the parts are fetched) takes its
// facts instead of parsing them.
func (s *Session) IndexPart(ctx context.Context, req IndexPartRequest) (*build.PartResult, error) {
	if req.Worktree {
		return nil, Usagef("--shard indexes a commit's tree, not the work tree: give --rev or nothing (HEAD)")
	}
	if req.Of < 1 || req.Part < 1 || req.Part > req.Of {
		return nil, Usagef("--shard %d/%d: want K/N with 1 ≤ K ≤ N", req.Part, req.Of)
	}
	rev, err := s.rev(Rev{Rev: req.Rev.Rev})
	if err != nil {
		return nil, err
	}
	if rev == worktreeRev {
		rev = "HEAD"
	}
	opt := build.Options{Config: s.cfg, Force: req.Force, TuneProcess: s.oneShot}
	if !req.Quiet {
		rep := reporterOf(ctx)
		opt.Warn, opt.Progress = rep.Warn, rep.Progress
	}
	res, err := build.IndexPart(ctx, s.repo, rev, req.Part, req.Of, opt)
	if err != nil {
		return nil, fmt.Errorf("index part %d-of-%d: %w", req.Part, req.Of, err)
	}
	return res, nil
}
