package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
)

func cmdVerify() *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "re-derive committed Layer 2/3 artifacts and report any byte difference",
		UsageText: "git speed verify [FEATURE [TASK]] [--json]",
		Description: "For every task context folder (or those of FEATURE, or of TASK), scopes the task again at\n" +
			"the tree, stage and budget its manifest and budget.json record, renders every STAGE.md\n" +
			"there again, and compares bytes. Exits 3 when anything differs, naming the file, the\n" +
			"first differing line and the inputs (task files, spec, speed.toml) that changed.\n" +
			"reviewer.md without a recorded base and debugger.md (which depends on --log) are skipped.",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
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
