package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/layers/world/build"
)

func cmdIndex() *cli.Command {
	return &cli.Command{
		Name:      "index",
		Usage:     "build Layer 1 (project map, facts, code symbol graph) for a tree",
		UsageText: "git speed index [--rev R | --worktree] [--force] [--json]",
		Description: "Indexes the tree of R (any commit-ish or tree-ish; default HEAD) into refs/speed.\n" +
			"With --worktree it indexes the work tree as it is now: tracked files with their edits,\n" +
			"untracked files git does not ignore, and deletions, written as a tree through a private\n" +
			"copy of the index (your index, HEAD, branches and stash are never touched).\n" +
			"Only blobs never seen before are parsed; a tree already indexed costs nothing.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "rev", Value: "HEAD", Usage: "commit or tree to index"},
			worktreeFlag,
			&cli.BoolFlag{Name: "force", Usage: "parse every file again, ignoring what is stored"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors"},
			// The benchmarks' baseline: read and parse the same files on the
			// same workers, and do nothing else; --code-only parses source
			// code alone, not the data formats' parsers (docs/live.md).
			&cli.BoolFlag{Name: "parse-only", Hidden: true},
			&cli.BoolFlag{Name: "code-only", Hidden: true},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			e, err := openEnv(c)
			if err != nil {
				return err
			}
			if c.Bool("parse-only") {
				res, err := build.ParseOnly(c.Context, e.repo, c.String("rev"), build.Options{Config: e.cfg}, !c.Bool("code-only"))
				if err != nil {
					return err
				}
				return printJSON(e.stdout, res)
			}
			rev, err := revArg(c)
			if err != nil {
				return err
			}
			res, err := runIndex(c.Context, e, rev, c.Bool("force"), c.Bool("quiet"))
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(e.stdout, res)
			}
			if c.Bool("quiet") {
				return nil
			}
			if res.UpToDate {
				fmt.Fprintf(e.stderr, "git-speed: tree %s is up to date: %d files, parsed 0 (%d ms)\n", short(res.Tree), res.Files, res.ElapsedMS)
				return nil
			}
			fmt.Fprintf(e.stderr, "git-speed: indexed tree %s: %d files, parsed %d, reused %d, skipped %d; %d symbols, %d edges (%d ms)\n",
				short(res.Tree), res.Files, res.Parsed, res.Reused, res.Skipped, res.Symbols, res.Edges, res.ElapsedMS)
			return nil
		},
	}
}

// runIndex indexes rev (or the work tree, for worktreeRev) with the
// environment's config, showing progress on a terminal only.
func runIndex(ctx context.Context, e *env, rev string, force, quiet bool) (*build.Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	opt := build.Options{Config: e.cfg, Force: force}
	if rev == worktreeRev {
		snap, err := e.snapshot(quiet)
		if err != nil {
			return nil, err
		}
		rev, opt.Snapshot = snap.Tree, snap.Dirty
	}
	if tracing() {
		opt.Trace = func(phase string, d time.Duration) {
			fmt.Fprintf(e.stderr, "trace git-speed: index %s: %s\n", phase, d.Round(time.Millisecond))
		}
	}
	if !quiet {
		opt.Warn = func(msg string) { e.warnf("%s", msg) }
	}
	if !quiet && isTerminal(e.stderr) {
		var last time.Time
		opt.Progress = func(done, total int) {
			if now := time.Now(); now.Sub(last) > 200*time.Millisecond || done == total {
				last = now
				fmt.Fprintf(e.stderr, "\rgit-speed: parsing %d/%d", done, total)
				if done == total {
					fmt.Fprint(e.stderr, "\r\033[K")
				}
			}
		}
	}
	return build.Index(ctx, e.repo, rev, opt)
}

// snapshot writes the work tree as a tree (see gitstore.SnapshotWorktree),
// warning about the paths it leaves as they were.
func (e *env) snapshot(quiet bool) (*gitstore.Snapshot, error) {
	start := time.Now()
	snap, err := e.repo.SnapshotWorktree(gitstore.SnapshotOptions{
		MaxFileBytes: e.cfg.Index.MaxFileBytes,
		Warn: func(msg string) {
			if !quiet {
				e.warnf("%s", msg)
			}
		},
	})
	if err != nil {
		return nil, err
	}
	if tracing() {
		fmt.Fprintf(e.stderr, "trace git-speed: work tree written as tree %s (dirty %v): %s\n", short(snap.Tree), snap.Dirty, time.Since(start).Round(time.Millisecond))
	}
	return snap, nil
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// tracing reports whether GIT_TRACE (or GIT_SPEED_TRACE) asks for traces.
func tracing() bool {
	for _, v := range []string{os.Getenv("GIT_SPEED_TRACE"), os.Getenv("GIT_TRACE")} {
		if v != "" && v != "0" && v != "false" {
			return true
		}
	}
	return false
}
