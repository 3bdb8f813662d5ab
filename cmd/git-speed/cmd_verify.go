package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
)

func cmdVerify() *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "re-derive committed Layer 2/3 artifacts and report any byte difference",
		UsageText: "git speed verify [FEATURE [TASK]] [--json]\n   git speed verify --index [--rev R | --worktree] [--json]",
		Description: "For every task context folder (or those of FEATURE, or of TASK), scopes the task again at\n" +
			"the tree, stage and budget its manifest and budget.json record, renders every STAGE.md\n" +
			"there again, and compares bytes. Exits 3 when anything differs, naming the file, the\n" +
			"first differing line and the inputs (task files, spec, speed.toml) that changed.\n" +
			"reviewer.md without a recorded base and debugger.md (which depends on --log) are skipped.\n\n" +
			"With --index it rebuilds the tree of R (default HEAD) from nothing in a scratch store,\n" +
			"writing nothing to the repository, and compares every stored artifact and facts entry\n" +
			"with the rebuild; it exits 3 naming each artifact (and its first shards) that differs.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "index", Usage: "compare the stored index of a tree with a rebuild of it from nothing"},
			&cli.StringFlag{Name: "rev", Value: "HEAD", Usage: "with --index: the commit or tree to check"},
			worktreeFlag,
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.Bool("index") {
				return verifyIndex(c)
			}
			if c.IsSet("rev") || c.Bool("worktree") {
				return usagef("--rev and --worktree go with --index")
			}
			if c.NArg() > 2 {
				return usagef("verify takes at most FEATURE and TASK")
			}
			s, ctx, err := open(c)
			if err != nil {
				return err
			}
			results, err := s.Verify(ctx, c.Args().Get(0), c.Args().Get(1))
			var me *app.MismatchError
			if err != nil && !errors.As(err, &me) {
				return err
			}
			if c.Bool("json") {
				if perr := printJSON(c.App.Writer, map[string]any{"ok": me == nil, "artifacts": results}); perr != nil {
					return perr
				}
			} else {
				for _, r := range results {
					line := r.Status + "\t" + r.File
					if r.Detail != "" {
						line += "\t" + r.Detail
					}
					fmt.Fprintln(c.App.Writer, line)
				}
			}
			if err != nil {
				return err
			}
			if len(results) == 0 {
				fmt.Fprintf(c.App.ErrWriter, "git-speed: no task context under %s/features to verify\n", s.SpeedDir())
			}
			return nil
		},
	}
}

// verifyIndex runs `verify --index`.
func verifyIndex(c *cli.Context) error {
	if err := noArgs(c); err != nil {
		return err
	}
	s, ctx, err := open(c)
	if err != nil {
		return err
	}
	res, err := s.VerifyIndex(ctx, rev(c))
	var me *app.MismatchError
	if err != nil && !errors.As(err, &me) {
		return err
	}
	if c.Bool("json") {
		if perr := printJSON(c.App.Writer, map[string]any{"ok": me == nil, "index": res}); perr != nil {
			return perr
		}
	} else {
		for _, d := range res.Differ {
			fmt.Fprintf(c.App.Writer, "differs\t%s\t%d\t%s\n", d.Artifact, d.Count, strings.Join(d.Shards, " "))
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.ErrWriter, "git-speed: the index of tree %s is what a rebuild stores: %d artifacts, %d shards, %d facts compared (%d ms)\n",
		short(res.Tree), res.Artifacts, res.Shards, res.Facts, res.ElapsedMS)
	return nil
}
