package gitstore

import (
	"errors"
	"os/exec"
	"strings"
)

// DefaultBranch names the repository's default branch as a revision:
// what refs/remotes/origin/HEAD points at (origin/main), else main, else
// master; "" when there is none of them.
func (r *Repo) DefaultBranch() string {
	if out, err := r.git(nil, "symbolic-ref", "-q", "--short", "refs/remotes/origin/HEAD"); err == nil {
		if s := strings.TrimSpace(string(out)); s != "" {
			return s
		}
	}
	for _, b := range []string{"main", "master"} {
		if _, err := r.git(nil, "rev-parse", "-q", "--verify", "refs/heads/"+b+"^{commit}"); err == nil {
			return b
		}
	}
	return ""
}

// MergeBase returns the best common ancestor of commits a and b, or ""
// when they have none.
func (r *Repo) MergeBase(a, b string) (string, error) {
	for _, rev := range []string{a, b} {
		if err := validRev(rev); err != nil {
			return "", err
		}
	}
	out, err := r.git(nil, "merge-base", a, b)
	if err != nil {
		var ge *GitError
		var ee *exec.ExitError
		if errors.As(err, &ge) && errors.As(ge.Err, &ee) && ee.ExitCode() == 1 {
			return "", nil // no common ancestor
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
