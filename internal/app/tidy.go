package app

import (
	"context"
	"errors"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/layers/world/build"
)

// tidy consolidates the object database after an index when its loose
// objects or packs passed gitstore.TidyLoose or TidyPacks, so that a
// thousand one-file updates do not leave twenty thousand loose objects
// (gitstore/tidy.go). A failure is a warning: the index is stored.
func (s *Session) tidy(ctx context.Context, res *build.Result) {
	st, err := s.repo.Tidy(false)
	switch {
	case errors.Is(err, gitstore.ErrTidyBusy):
	case err != nil:
		warnf(ctx, "the object database was left as it is (%v)", err)
	case st.Ran:
		res.Consolidated = true
		tracef(ctx, "tidy: %d loose objects and %d packs became %d and %d in %s",
			st.Before.Loose, st.Before.Packs, st.After.Loose, st.After.Packs, st.Elapsed)
	}
}
