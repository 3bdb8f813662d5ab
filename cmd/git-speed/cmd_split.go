package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
	"github.com/git-speed/git-speed/layers/split"
)

func cmdSplit() *cli.Command {
	return &cli.Command{
		Name:      "split",
		Usage:     "split long agent command files into a core and details",
		UsageText: "git speed split FILE… [--check] [--json]",
		Description: fmt.Sprintf("For agent command files such as .claude/commands/*.md: a file of %d lines or more is split\n"+
			"at the first # or ## heading at or after %d %% of its lines (at least %d lines from either end)\n"+
			"into NAME.core.md and NAME.details.md (with a header saying what it is), and NAME.md is\n"+
			"rewritten to the core plus a <!-- SPLIT: … --> reference. Running it again changes nothing.\n"+
			"--check reports what would split, writes nothing and exits 3 when something would.",
			split.MinLines, int(split.CoreShare*100), split.Margin),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "check", Usage: "report what would split; write nothing"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("split needs at least one FILE")
			}
			check := c.Bool("check")
			results, err := app.Split(reporting(c), c.Args().Slice(), check)
			var me *app.MismatchError
			if err != nil && !errors.As(err, &me) {
				return err
			}
			if c.Bool("json") {
				if perr := printJSON(c.App.Writer, map[string]any{"check": check, "files": results}); perr != nil {
					return perr
				}
			} else {
				for _, r := range results {
					if !r.Split {
						fmt.Fprintf(c.App.Writer, "unchanged\t%s\t%s\n", r.File, r.Reason)
						continue
					}
					verb := "split"
					if check {
						verb = "would split"
					}
					fmt.Fprintf(c.App.Writer, "%s\t%s\tat line %d of %d (%s): core %d tokens in %s, details %d tokens in %s\n",
						verb, r.File, r.At, r.Lines, r.Heading, r.CoreTokens, r.Core, r.DetailsTokens, r.Details)
				}
			}
			return err
		},
	}
}
