package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/git-speed/git-speed/layers/world/build"
)

// VerifyIndex rebuilds the request's tree from nothing in a scratch store
// (nothing is written to the repository) and compares every artifact and
// facts entry with what the store holds. A difference is a
// *MismatchError naming the artifacts, beside the result.
func (s *Session) VerifyIndex(ctx context.Context, r Rev) (*build.VerifyIndexResult, error) {
	rev, err := s.rev(r)
	if err != nil {
		return nil, err
	}
	if rev == worktreeRev {
		snap, err := s.snapshot(ctx, true)
		if err != nil {
			return nil, err
		}
		rev = snap.Tree
	}
	opt := build.Options{Config: s.cfg, TuneProcess: s.oneShot, Progress: reporterOf(ctx).Progress}
	res, err := build.VerifyIndex(ctx, s.repo, rev, opt)
	if err != nil {
		return nil, err
	}
	if len(res.Differ) > 0 {
		var names []string
		for _, d := range res.Differ {
			names = append(names, fmt.Sprintf("%s (%d: %s)", d.Artifact, d.Count, strings.Join(d.Shards, ", ")))
		}
		return res, &MismatchError{Msg: fmt.Sprintf("the stored index of tree %s differs from a rebuild of it: %s", short(res.Tree), strings.Join(names, "; "))}
	}
	return res, nil
}
