package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
)

// commands lists git-speed's subcommands, one file cmd_<verb>.go each.
// Each copies its flags into a typed request, calls one operation of
// internal/app and prints the result: the payload on stdout, the rest on
// stderr.
func commands() []*cli.Command {
	return []*cli.Command{
		cmdInit(),
		cmdIndex(),
		cmdStatus(),
		cmdMap(),
		cmdSkeleton(),
		cmdGraph(),
		cmdSymbols(),
		cmdAlign(),
		cmdPack(),
		cmdReport(),
		cmdMCP(),
		cmdScope(),
		cmdRender(),
		cmdTask(),
		cmdSession(),
		cmdMemory(),
		cmdContext(),
		cmdUsage(),
		cmdClassify(),
		cmdSplit(),
		cmdEval(),
		cmdVerify(),
		cmdHooks(),
		cmdHook(),
		cmdGC(),
		cmdVersion(),
		cmdMan(),
	}
}

var (
	jsonFlag     = &cli.BoolFlag{Name: "json", Usage: "print the result as JSON on stdout"}
	revFlag      = &cli.StringFlag{Name: "rev", Value: "HEAD", Usage: "commit or tree whose index to read"}
	worktreeFlag = &cli.BoolFlag{Name: "worktree", Usage: "read the work tree as it is now (edits, untracked files, deletions), indexed on the fly, instead of --rev"}
	sessionFlag  = &cli.StringFlag{Name: "session", Usage: "session id; bare or \"current\": the session started last (the default where a session is read)"}
)

// noArgs refuses positional arguments for commands that take none.
func noArgs(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("%s takes no arguments, got %q", c.Command.Name, c.Args().First())
	}
	return nil
}

// open opens the repository of the current folder for one command, and a
// context whose reports print on stderr.
func open(c *cli.Context) (*app.Session, context.Context, error) {
	s, err := app.Open(app.Options{SpeedDir: c.String("speed-dir"), OneShot: true})
	if err != nil {
		return nil, nil, err
	}
	return s, reporting(c), nil
}

// reporting is the command's context with a Reporter printing on stderr.
func reporting(c *cli.Context) context.Context {
	ctx := c.Context
	if ctx == nil {
		ctx = context.Background()
	}
	return app.WithReporter(ctx, &stderrReporter{w: c.App.ErrWriter, tty: isTerminal(c.App.ErrWriter)})
}

// rev is the tree a command reads: --rev (only when given) or --worktree.
func rev(c *cli.Context) app.Rev {
	r := app.Rev{Worktree: c.Bool("worktree")}
	if c.IsSet("rev") {
		r.Rev = c.String("rev")
	}
	return r
}

// stderrReporter prints what an operation says on stderr: warnings and
// notes as lines, progress only on a terminal (throttled), traces with
// git's prefix.
type stderrReporter struct {
	w    io.Writer
	tty  bool
	last time.Time
}

func (r *stderrReporter) Warn(msg string)  { fmt.Fprintf(r.w, "git-speed: warning: %s\n", msg) }
func (r *stderrReporter) Note(msg string)  { fmt.Fprintf(r.w, "git-speed: %s\n", msg) }
func (r *stderrReporter) Trace(msg string) { fmt.Fprintf(r.w, "trace git-speed: %s\n", msg) }

func (r *stderrReporter) Progress(done, total int) {
	if !r.tty {
		return
	}
	if now := time.Now(); now.Sub(r.last) > 200*time.Millisecond || done == total {
		r.last = now
		fmt.Fprintf(r.w, "\rgit-speed: parsing %d/%d", done, total)
		if done == total {
			fmt.Fprint(r.w, "\r\033[K")
		}
	}
}

// printJSON writes v as indented JSON on w.
func printJSON(w io.Writer, v any) error { return app.EncodeJSON(w, v) }

// isTerminal reports whether w is a terminal, for progress output.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// budgetArg is --budget when given (positive), else 0.
func budgetArg(c *cli.Context) (int, error) {
	if !c.IsSet("budget") {
		return 0, nil
	}
	if n := c.Int("budget"); n > 0 {
		return n, nil
	}
	return 0, usagef("--budget must be a positive number of tokens, got %d", c.Int("budget"))
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
