package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/layers/world/build"
)

func cmdIndex() *cli.Command {
	return &cli.Command{
		Name:      "index",
		Usage:     "build Layer 1 (project map, facts, code symbol graph) for a tree",
		UsageText: "git speed index [--rev R] [--force] [--json]",
		Description: "Indexes the tree of R (any commit-ish or tree-ish; default HEAD) into refs/speed.\n" +
			"Only blobs never seen before are parsed; a tree already indexed costs nothing.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "rev", Value: "HEAD", Usage: "commit or tree to index"},
			&cli.BoolFlag{Name: "force", Usage: "parse every file again, ignoring what is stored"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors"},
			// The benchmarks' baseline: read and parse the same files on the
			// same workers, and do nothing else.
			&cli.BoolFlag{Name: "parse-only", Hidden: true},
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
				res, err := build.ParseOnly(c.Context, e.repo, c.String("rev"), build.Options{Config: e.cfg})
				if err != nil {
					return err
				}
				return printJSON(e.stdout, res)
			}
			res, err := runIndex(c.Context, e, c.String("rev"), c.Bool("force"), c.Bool("quiet"))
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

// runIndex indexes rev with the environment's config, showing progress on a
// terminal only.
func runIndex(ctx context.Context, e *env, rev string, force, quiet bool) (*build.Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	opt := build.Options{Config: e.cfg, Force: force}
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
