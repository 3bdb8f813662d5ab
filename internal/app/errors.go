package app

import (
	"errors"
	"fmt"

	"github.com/git-speed/git-speed/internal/config"
)

// UsageError is a mistake in what was asked: a flag, an argument, a
// request's field. The command line exits 2 on it.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef returns a *UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{fmt.Sprintf(format, args...)}
}

// MismatchError is what verify returns when an artifact differs from what
// its recorded inputs give. The command line exits 3 on it.
type MismatchError struct{ Msg string }

func (e *MismatchError) Error() string { return e.Msg }

// IsConfigError reports whether err is a mistake in speed.toml.
func IsConfigError(err error) bool {
	var ce *config.Error
	return errors.As(err, &ce)
}

// contextError marks a failure to build a task's context (the world
// model, the feature's alignment, scoping itself) as opposed to a mistake
// in what the user asked for. Only these may fall back (scope.fallback_to_full).
type contextError struct{ err error }

func (c *contextError) Error() string { return c.err.Error() }
func (c *contextError) Unwrap() error { return c.err }

// unwrapContext drops the contextError mark, keeping exit codes and
// messages as they were.
func unwrapContext(err error) error {
	var ce *contextError
	if errors.As(err, &ce) {
		return ce.err
	}
	return err
}
