package hooks

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runRepo returns a repository's git dir and three commits: c1, c2 with a
// different tree, and c3 with the same tree as c2.
func runRepo(t *testing.T) (e *testEnv, gitDir, c1, c2, c3 string) {
	e = newEnv(t)
	dir := e.repo("r")
	c2 = strings.TrimSpace(e.git(dir, "rev-parse", "HEAD"))
	c1 = strings.TrimSpace(e.git(dir, "rev-parse", "HEAD~1"))
	e.git(dir, "commit", "-q", "--allow-empty", "-m", "same tree")
	c3 = strings.TrimSpace(e.git(dir, "rev-parse", "HEAD"))
	return e, filepath.Join(dir, ".git"), c1, c2, c3
}

var fixedNow = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

func TestRunDecides(t *testing.T) {
	_, gitDir, c1, c2, c3 := runRepo(t)
	zero := strings.Repeat("0", 40)
	cases := []struct {
		name    string
		hook    string
		args    []string
		indexed bool
	}{
		{"branch switch, trees differ", "post-checkout", []string{c1, c2, "1"}, true},
		{"same commit", "post-checkout", []string{c2, c2, "1"}, false},
		{"same tree", "post-checkout", []string{c2, c3, "1"}, false},
		{"file checkout", "post-checkout", []string{c1, c2, "0"}, false},
		{"clone (null prev)", "post-checkout", []string{zero, c2, "1"}, true},
		{"unknown prev object", "post-checkout", []string{strings.Repeat("ab", 20), c2, "1"}, true},
		{"merge", "post-merge", []string{"0"}, true},
		{"squash merge", "post-merge", []string{"1"}, true},
		{"merge without args", "post-merge", nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			called := 0
			var log bytes.Buffer
			out, detail := RunOutcome(context.Background(), c.hook, c.args, RunOptions{
				GitDir: gitDir, Timeout: time.Minute, Log: &log, Now: fixedNow,
				Index: func(ctx context.Context) error { called++; return nil },
			})
			if want := map[bool]int{true: 1, false: 0}[c.indexed]; called != want {
				t.Errorf("Index called %d times, want %d (outcome %s %s)", called, want, out, detail)
			}
			if log.Len() != 0 {
				t.Errorf("log = %q, want nothing", log.String())
			}
			if _, err := os.Stat(filepath.Join(gitDir, "speed", LockName)); err == nil {
				t.Error("lock left behind")
			}
		})
	}
}

func TestRunLogsErrorAndReturnsZero(t *testing.T) {
	_, gitDir, c1, c2, _ := runRepo(t)
	code := Run(context.Background(), "post-checkout", []string{c1, c2, "1"}, RunOptions{
		GitDir: gitDir, Timeout: time.Minute, Now: fixedNow,
		Index: func(ctx context.Context) error { return errors.New("parse main.go:\nline 3: boom") },
	})
	if code != 0 {
		t.Errorf("Run = %d, want 0", code)
	}
	b, err := os.ReadFile(filepath.Join(gitDir, "speed", LogName))
	if err != nil {
		t.Fatal(err)
	}
	if want := "2026-01-02T03:04:05Z post-checkout error: parse main.go: line 3: boom\n"; string(b) != want {
		t.Errorf("log = %q, want %q", b, want)
	}
	// A second failure appends.
	Run(context.Background(), "post-merge", []string{"0"}, RunOptions{
		GitDir: gitDir, Timeout: time.Minute, Now: fixedNow,
		Index: func(ctx context.Context) error { panic("bug") },
	})
	b, _ = os.ReadFile(filepath.Join(gitDir, "speed", LogName))
	if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); len(lines) != 2 || !strings.HasSuffix(lines[1], "post-merge error: panic: bug") {
		t.Errorf("log lines = %q", lines)
	}
}

// TestRunTimeout: an Index that honours ctx and one that ignores it both
// end in a timeout line and exit status 0.
func TestRunTimeout(t *testing.T) {
	_, gitDir, _, _, _ := runRepo(t)
	release := make(chan struct{})
	defer close(release)
	indexes := map[string]func(ctx context.Context) error{
		"honours ctx": func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() },
		"ignores ctx": func(ctx context.Context) error { <-release; return nil },
	}
	for _, name := range []string{"honours ctx", "ignores ctx"} {
		t.Run(name, func(t *testing.T) {
			var log bytes.Buffer
			if code := Run(context.Background(), "post-merge", []string{"0"}, RunOptions{
				GitDir: gitDir, Timeout: 10 * time.Millisecond, Log: &log, Now: fixedNow, Index: indexes[name],
			}); code != 0 {
				t.Errorf("Run = %d, want 0", code)
			}
			if !strings.HasPrefix(log.String(), "2026-01-02T03:04:05Z post-merge timeout: ") || !strings.Contains(log.String(), "10ms (hooks.timeout)") {
				t.Errorf("log = %q", log.String())
			}
		})
	}
}

func TestRunLockHeld(t *testing.T) {
	_, gitDir, _, _, _ := runRepo(t)
	if err := os.MkdirAll(filepath.Join(gitDir, "speed"), 0o755); err != nil {
		t.Fatal(err)
	}
	lockPath := filepath.Join(gitDir, "speed", LockName)
	if err := os.WriteFile(lockPath, []byte("12345\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	called := false
	var log bytes.Buffer
	opts := RunOptions{GitDir: gitDir, Timeout: time.Minute, Log: &log, Now: time.Now,
		Index: func(ctx context.Context) error { called = true; return nil }}
	out, _ := RunOutcome(context.Background(), "post-merge", []string{"0"}, opts)
	if out != OutcomeSkipped || called {
		t.Errorf("outcome %s, called %v; want skipped without indexing", out, called)
	}
	if !strings.Contains(log.String(), "post-merge skipped: another hook run holds "+lockPath) {
		t.Errorf("log = %q", log.String())
	}
	if b, _ := os.ReadFile(lockPath); string(b) != "12345\n" {
		t.Error("someone else's lock was changed")
	}

	// A lock much older than the timeout was left by a killed run: taken over.
	opts.Now = func() time.Time { return time.Now().Add(time.Hour) }
	log.Reset()
	out, _ = RunOutcome(context.Background(), "post-merge", []string{"0"}, opts)
	if out != OutcomeIndexed || !called {
		t.Errorf("stale lock: outcome %s, called %v; want indexed", out, called)
	}
	if _, err := os.Stat(lockPath); err == nil {
		t.Error("lock left behind")
	}
}

// TestRunNestedIsSkipped: a hook run while another holds the lock (e.g.
// the index running git commands that fire hooks) skips.
func TestRunNestedIsSkipped(t *testing.T) {
	_, gitDir, _, _, _ := runRepo(t)
	var inner Outcome
	var log bytes.Buffer
	opts := RunOptions{GitDir: gitDir, Timeout: time.Minute, Log: &log, Now: fixedNow}
	opts.Index = func(ctx context.Context) error {
		o := opts
		o.Index = func(context.Context) error { t.Error("nested index ran"); return nil }
		inner, _ = RunOutcome(ctx, "post-merge", []string{"0"}, o)
		return nil
	}
	if out, _ := RunOutcome(context.Background(), "post-merge", []string{"0"}, opts); out != OutcomeIndexed {
		t.Errorf("outer outcome %s", out)
	}
	if inner != OutcomeSkipped {
		t.Errorf("inner outcome %s, want skipped", inner)
	}
}

func TestRunBadInput(t *testing.T) {
	_, gitDir, c1, _, _ := runRepo(t)
	cases := []struct {
		hook string
		args []string
		want string
	}{
		{"post-checkout", []string{c1}, "post-checkout error: post-checkout wants 3 arguments"},
		{"post-merge", []string{"0", "1"}, "post-merge error: post-merge wants 1 argument"},
		{"pre-push", nil, `pre-push error: unknown hook "pre-push"`},
	}
	for _, c := range cases {
		var log bytes.Buffer
		called := false
		if code := Run(context.Background(), c.hook, c.args, RunOptions{GitDir: gitDir, Log: &log, Now: fixedNow,
			Index: func(context.Context) error { called = true; return nil }}); code != 0 {
			t.Errorf("%s: Run = %d", c.hook, code)
		}
		if called || !strings.Contains(log.String(), c.want) {
			t.Errorf("%s %q: called %v, log %q, want %q", c.hook, c.args, called, log.String(), c.want)
		}
	}
	// Missing git dir or index function: logged nowhere useful, still 0.
	if code := Run(context.Background(), "post-merge", nil, RunOptions{}); code != 0 {
		t.Errorf("Run with empty options = %d", code)
	}
}

func TestParseArgs(t *testing.T) {
	for _, n := range Names {
		if err := ParseArgs(n); err != nil {
			t.Error(err)
		}
	}
	if err := ParseArgs("pre-commit"); err == nil || !strings.Contains(err.Error(), `"pre-commit"`) {
		t.Errorf("err = %v", err)
	}
}

// TestRunRelativeGitDir: the CLI may pass GitDir relative to the work tree.
func TestRunRelativeGitDir(t *testing.T) {
	_, gitDir, _, c2, c3 := runRepo(t)
	t.Chdir(filepath.Dir(gitDir))
	out, detail := RunOutcome(context.Background(), "post-checkout", []string{c2, c3, "1"}, RunOptions{
		GitDir: ".git", Index: func(context.Context) error { return errors.New("should skip") }})
	if out != OutcomeSkipped {
		t.Errorf("outcome %s %s, want skipped", out, detail)
	}
}

func TestLogRotates(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "speed", LogName)
	if err := os.MkdirAll(filepath.Dir(log), 0o755); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("x"), maxLog+1)
	if err := os.WriteFile(log, big, 0o644); err != nil {
		t.Fatal(err)
	}
	Run(context.Background(), "pre-push", nil, RunOptions{GitDir: dir, Now: fixedNow})
	if b, _ := os.ReadFile(log + ".1"); !bytes.Equal(b, big) {
		t.Error("old log not kept as hook.log.1")
	}
	if b, _ := os.ReadFile(log); !strings.HasPrefix(string(b), "2026-01-02T03:04:05Z pre-push error: ") {
		t.Errorf("new log = %q", b)
	}
}
