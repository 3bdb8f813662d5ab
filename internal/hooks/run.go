package hooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// RunOptions configure Run.
type RunOptions struct {
	// GitDir is the git dir of the work tree the hook fired in
	// (`git rev-parse --git-dir`); the lock and the log live in GitDir/speed.
	GitDir string
	// Timeout bounds Index (speed.toml hooks.timeout). Zero means DefaultTimeout.
	Timeout time.Duration
	// Index refreshes the Layer 1 index for HEAD. It should stop when ctx
	// is done; Run returns at the timeout even if it does not.
	Index func(ctx context.Context) error
	// Log receives the log lines. When nil they are appended to
	// GitDir/speed/hook.log.
	Log io.Writer
	// Git is the git binary; "git" (found on PATH) when empty.
	Git string
	// Now stamps log lines; time.Now when nil.
	Now func() time.Time
}

// maxLog is the size past which hook.log is moved to hook.log.1.
const maxLog = 256 << 10

// DefaultTimeout is used when RunOptions.Timeout is zero; it matches the
// speed.toml default of hooks.timeout.
const DefaultTimeout = 20 * time.Second

// LockName and LogName are the files Run keeps in <git-dir>/speed.
const (
	LockName = "hook.lock"
	LogName  = "hook.log"
)

// Outcome names what Run did; it is the first word after the hook name in
// a log line.
type Outcome string

const (
	OutcomeIndexed Outcome = "indexed" // Index returned nil
	OutcomeSkipped Outcome = "skipped" // nothing to do (same tree, file checkout, another run active)
	OutcomeFailed  Outcome = "error"   // Index or a precondition failed
	OutcomeTimeout Outcome = "timeout" // Index did not finish within Timeout
)

// Run is what `git speed hook <name> args…` does. It decides whether the
// hook calls for a new index, runs Index under a lock with a timeout, and
// appends one line to the log when it skips for a reason worth knowing,
// fails or times out. It always returns 0: a hook must never fail git.
//
// post-checkout args are <prev-head> <new-head> <branch-flag>; Run skips a
// file checkout (flag 0) and a checkout whose two commits have the same tree.
// post-merge (arg: squash flag) always indexes.
func Run(ctx context.Context, name string, args []string, opts RunOptions) int {
	RunOutcome(ctx, name, args, opts)
	return 0
}

// RunOutcome is Run that also returns what happened, for callers that
// report it (and for tests). It never panics on bad input.
func RunOutcome(ctx context.Context, name string, args []string, opts RunOptions) (Outcome, string) {
	out, detail := run(ctx, name, args, opts)
	if out != OutcomeIndexed && detail != "" {
		logLine(opts, name, out, detail)
	}
	return out, detail
}

func run(ctx context.Context, name string, args []string, opts RunOptions) (out Outcome, detail string) {
	defer func() {
		if r := recover(); r != nil {
			out, detail = OutcomeFailed, fmt.Sprintf("panic: %v", r)
		}
	}()
	if opts.GitDir == "" {
		return OutcomeFailed, "no git dir"
	}
	if abs, err := filepath.Abs(opts.GitDir); err == nil {
		opts.GitDir = abs // git below runs with the git dir as its working directory
	}
	if opts.Index == nil {
		return OutcomeFailed, "no index function"
	}
	switch name {
	case "post-checkout":
		if len(args) != 3 {
			return OutcomeFailed, fmt.Sprintf("post-checkout wants 3 arguments <prev-head> <new-head> <branch-flag>, got %d", len(args))
		}
		prev, next, flag := args[0], args[1], args[2]
		if flag == "0" {
			return OutcomeSkipped, "" // a file checkout leaves HEAD where it is
		}
		if prev == next {
			return OutcomeSkipped, ""
		}
		if same, err := sameTree(ctx, opts, prev, next); err == nil && same {
			return OutcomeSkipped, ""
		}
		// On an error (e.g. the all-zero prev-head of a clone) index anyway.
	case "post-merge":
		if len(args) > 1 {
			return OutcomeFailed, fmt.Sprintf("post-merge wants 1 argument <squash-flag>, got %d", len(args))
		}
	default:
		return OutcomeFailed, fmt.Sprintf("unknown hook %q (want one of %s)", name, strings.Join(Names, ", "))
	}

	speedDir := filepath.Join(opts.GitDir, "speed")
	if err := os.MkdirAll(speedDir, 0o755); err != nil {
		return OutcomeFailed, err.Error()
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	// One run at a time indexes, under the lock. A run that finds the lock
	// held leaves a mark instead of going away: the holder indexes HEAD
	// again before it lets go, so after any burst of checkouts HEAD's final
	// tree is indexed. The holder looks for the mark after unlocking and a
	// marker looks for the lock after marking, so one of them always sees
	// the other.
	lockPath, mark := filepath.Join(speedDir, LockName), filepath.Join(speedDir, AgainName)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	runs := 0
	for attempt := 0; ; attempt++ {
		unlock, held, err := lock(lockPath, 2*timeout+time.Minute, opts.now())
		if err != nil {
			return OutcomeFailed, err.Error()
		}
		if held != "" {
			if err := touch(mark); err != nil {
				return OutcomeFailed, err.Error()
			}
			if _, err := os.Stat(lockPath); err == nil || attempt > 0 {
				return OutcomeSkipped, "another hook run holds " + held + "; it indexes HEAD again when done"
			}
			continue // released meanwhile: take it ourselves
		}
		for {
			os.Remove(mark)
			if out, detail := indexOnce(ctx, opts, timeout); out != OutcomeIndexed {
				unlock()
				return out, detail
			}
			// Each run indexes HEAD as it is then, so a few suffice for any
			// burst; the bound stops a run that marks itself (a hook fired
			// from inside Index) from going round until the timeout.
			if runs++; runs >= maxRuns || !exists(mark) {
				break
			}
		}
		unlock()
		if runs >= maxRuns {
			os.Remove(mark)
			return OutcomeIndexed, ""
		}
		if !exists(mark) {
			return OutcomeIndexed, ""
		}
	}
}

// maxRuns bounds how often one hook run indexes HEAD for marks.
const maxRuns = 4

// AgainName is the mark a hook run leaves for the lock holder when it
// finds the lock held: index HEAD once more before letting go.
const AgainName = "hook.again"

func touch(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("cannot leave mark %s: %w", path, err)
	}
	return f.Close()
}

// indexOnce runs opts.Index, returning when it does or when ctx is done.
func indexOnce(ctx context.Context, opts RunOptions, timeout time.Duration) (Outcome, string) {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("panic: %v", r)
			}
		}()
		done <- opts.Index(ctx)
	}()
	select {
	case err := <-done:
		switch {
		case err == nil:
			return OutcomeIndexed, ""
		case errors.Is(err, context.DeadlineExceeded):
			return OutcomeTimeout, fmt.Sprintf("index stopped after %s (hooks.timeout): %v", timeout, err)
		default:
			return OutcomeFailed, err.Error()
		}
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return OutcomeTimeout, fmt.Sprintf("index did not finish within %s (hooks.timeout)", timeout)
		}
		return OutcomeFailed, ctx.Err().Error()
	}
}

// sameTree reports whether commits a and b have the same root tree.
func sameTree(ctx context.Context, opts RunOptions, a, b string) (bool, error) {
	if !isHex(a) || !isHex(b) {
		return false, fmt.Errorf("not object ids: %q %q", a, b)
	}
	out, err := gitOutput(ctx, opts.Git, opts.GitDir, "--git-dir="+opts.GitDir, "rev-parse", a+"^{tree}", b+"^{tree}")
	if err != nil {
		return false, err
	}
	trees := strings.Fields(out)
	if len(trees) != 2 {
		return false, fmt.Errorf("git rev-parse printed %q", out)
	}
	return trees[0] == trees[1], nil
}

func isHex(s string) bool {
	if len(s) < 4 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// lock creates path exclusively. If it exists and is younger than stale, it
// returns held (the path) and does nothing; an older lock, left by a run
// that was killed, is taken over.
func lock(path string, stale time.Duration, now time.Time) (unlock func(), held string, err error) {
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			return func() { os.Remove(path) }, "", nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, "", fmt.Errorf("cannot create lock %s: %w", path, err)
		}
		fi, serr := os.Stat(path)
		if serr != nil {
			continue // released meanwhile: try again
		}
		if now.Sub(fi.ModTime()) < stale {
			return nil, path, nil
		}
		os.Remove(path) // stale
	}
	return nil, path, nil
}

func (o RunOptions) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// logLine appends "<RFC 3339 UTC time> <hook> <outcome>: <detail>" to the
// log. Failing to log is silently ignored: there is nowhere else to report.
func logLine(opts RunOptions, name string, out Outcome, detail string) {
	detail = strings.Join(strings.Fields(detail), " ") // one line, always
	line := fmt.Sprintf("%s %s %s: %s\n", opts.now().UTC().Format(time.RFC3339), name, out, detail)
	if opts.Log != nil {
		io.WriteString(opts.Log, line)
		return
	}
	if opts.GitDir == "" {
		return
	}
	dir := filepath.Join(opts.GitDir, "speed")
	if os.MkdirAll(dir, 0o755) != nil {
		return
	}
	path := filepath.Join(dir, LogName)
	if fi, err := os.Stat(path); err == nil && fi.Size() > maxLog {
		os.Rename(path, path+".1") // keep one old log; the previous .1 is dropped
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	f.WriteString(line)
	f.Close()
}

// ParseArgs is a helper for the CLI: it validates the hook name and returns
// a clear error for a name git-speed does not install.
func ParseArgs(name string) error {
	for _, n := range Names {
		if n == name {
			return nil
		}
	}
	return fmt.Errorf("git-speed: unknown hook %q; want one of %s", name, strings.Join(Names, ", "))
}
