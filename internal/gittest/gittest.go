// Package gittest builds throwaway git repositories for tests, driving the
// real git binary in an isolated environment: no system or user config,
// HOME in a temporary folder, LC_ALL=C, fixed author, committer and dates, and
// GIT_DIR / GIT_WORK_TREE removed so tests behave the same under `git rebase -x`.
// Commit ids are therefore reproducible across runs.
//
// It is test-only support: nothing outside _test.go files should import it.
package gittest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Date is the fixed author and committer date of every commit made here.
const Date = "2005-04-07T22:13:13+0000"

// scrubbed lists environment variables that would make git look somewhere
// other than the repository under test, or read config we do not control.
var scrubbed = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
	"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_PREFIX",
	"GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CEILING_DIRECTORIES",
	"GIT_NAMESPACE", "GIT_TRACE", "GIT_QUARANTINE_PATH",
	"HOME", "XDG_CONFIG_HOME", "LC_ALL", "LANG",
	"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE",
	"GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE",
}

// Env returns the current process environment with git isolated as described
// in the package comment, using home as HOME. Callers that want git config
// (such as init.defaultBranch) should write home/.gitconfig; New does.
func Env(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, s := range scrubbed {
			if name == s {
				drop = true
				break
			}
		}
		if !drop {
			env = append(env, kv)
		}
	}
	return append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"LC_ALL=C",
		"GIT_AUTHOR_NAME=Speed Tester",
		"GIT_AUTHOR_EMAIL=tester@example.com",
		"GIT_AUTHOR_DATE="+Date,
		"GIT_COMMITTER_NAME=Speed Tester",
		"GIT_COMMITTER_EMAIL=tester@example.com",
		"GIT_COMMITTER_DATE="+Date,
	)
}

// Home creates an isolated HOME with a .gitconfig setting the default branch
// to main and returns its path.
func Home(t testing.TB) string {
	t.Helper()
	home := t.TempDir()
	cfg := "[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n[protocol \"file\"]\n\tallow = always\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return home
}

// Repo is a temporary repository with a work tree.
type Repo struct {
	T    testing.TB
	Dir  string   // top of the work tree
	Home string   // isolated HOME
	Env  []string // environment every git command runs with
}

// New creates an empty repository (no commits, branch main) in a temporary
// folder. It skips the test if git is not installed.
func New(t testing.TB) *Repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	home := Home(t)
	dir := filepath.Join(t.TempDir(), "repo")
	r := &Repo{T: t, Dir: dir, Home: home, Env: Env(home)}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r.Git("init", "-q")
	return r
}

// At returns a Repo sharing r's environment but rooted at dir (for example a
// clone or a linked worktree).
func (r *Repo) At(dir string) *Repo {
	return &Repo{T: r.T, Dir: dir, Home: r.Home, Env: r.Env}
}

// Git runs git with args in the work tree and returns its trimmed stdout. It
// fails the test if git exits non-zero.
func (r *Repo) Git(args ...string) string {
	r.T.Helper()
	out, err := r.GitErr(args...)
	if err != nil {
		r.T.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// GitErr is Git returning the error (with stderr) instead of failing.
func (r *Repo) GitErr(args ...string) (string, error) {
	return r.GitInput(nil, args...)
}

// GitInput runs git with stdin and returns trimmed stdout.
func (r *Repo) GitInput(stdin []byte, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	cmd.Env = r.Env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return strings.TrimSpace(stdout.String()), &Error{Args: args, Err: err, Stderr: strings.TrimSpace(stderr.String())}
	}
	return strings.TrimSpace(stdout.String()), nil
}

// Error is a failed git command.
type Error struct {
	Args   []string
	Err    error
	Stderr string
}

func (e *Error) Error() string { return e.Err.Error() + ": " + e.Stderr }

// Write creates or replaces path (slash separated, relative to the work tree)
// with content, creating parent folders.
func (r *Repo) Write(path, content string) {
	r.T.Helper()
	full := filepath.Join(r.Dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.T.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		r.T.Fatal(err)
	}
}

// Remove deletes path from the work tree.
func (r *Repo) Remove(path string) {
	r.T.Helper()
	if err := os.RemoveAll(filepath.Join(r.Dir, filepath.FromSlash(path))); err != nil {
		r.T.Fatal(err)
	}
}

// Commit stages everything (git add -A) and commits it with msg, returning
// the new commit id. Empty commits are allowed.
func (r *Repo) Commit(msg string) string {
	r.T.Helper()
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "--no-verify", "-m", msg)
	return r.Git("rev-parse", "HEAD")
}

// CopyTree copies the regular files under src (skipping .git folders and
// anything that is not a regular file) into the work tree under dst.
func (r *Repo) CopyTree(src, dst string) int {
	r.T.Helper()
	n := 0
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		target := filepath.Join(r.Dir, filepath.FromSlash(dst), rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		n++
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		r.T.Fatal(err)
	}
	return n
}
