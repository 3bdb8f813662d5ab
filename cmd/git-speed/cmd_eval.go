package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
)

func cmdEval() *cli.Command {
	return &cli.Command{
		Name:      "eval",
		Usage:     "replay recent multi-file commits as tasks and measure what scoping reaches",
		UsageText: "git speed eval [--commits N] [--budget B] [--stage S] [--ablate] [--messages] [--creates] [--json] [--cases] [--rev R]",
		Description: "For each recent first-parent commit that changed several source files: the most-changed\n" +
			"non-test file is the task's files_touched, the other changed source files are the truth,\n" +
			"and the parent commit is the state. Reports the share of truth files the scope delivers\n" +
			"at each tier, their hop distances and tokens used, beside a whole-files-by-distance\n" +
			"baseline, overall and per language of the seed file, and the share of the hunks\n" +
			"the commits changed in truth files that the material shows (whole file, or shown lines\n" +
			"holding every line of the hunk) or points to (inside an elided range with a line pointer).\n" +
			"Co-change history is mined from the\n" +
			"500 first-parent commits up to each parent. --ablate adds one method per signal turned\n" +
			"off (no-graph, no-tests, no-names, no-cochange) and graph-only; --messages gives each\n" +
			"task its commit message as title and description. Indexes each parent tree it needs\n" +
			"(incrementally). --creates replays instead the commits that added source files as tasks\n" +
			"that create them (files.create; the other changed source files are the truth) and reports\n" +
			"file recall and the share of code_context from the place the files live in, beside the\n" +
			"place signal off.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "commits", Value: 100, Usage: "recent commits to look at"},
			&cli.IntFlag{Name: "budget", Value: 32000, Usage: "total tokens per task"},
			&cli.StringFlag{Name: "stage", Value: "developer", Usage: "stage whose shares apply"},
			&cli.BoolFlag{Name: "cases", Usage: "include every replayed commit in the JSON report"},
			&cli.BoolFlag{Name: "ablate", Usage: "also scope with each signal turned off, and with the graph alone"},
			&cli.BoolFlag{Name: "messages", Usage: "the commit message is the task's title and description"},
			&cli.BoolFlag{Name: "creates", Usage: "replay commits that added source files as tasks that create them"},
			&cli.StringFlag{Name: "weights", Usage: "with --pack: signal weights as JSON (fields of pack.Weights), for tuning"},
			&cli.BoolFlag{Name: "pack", Usage: "evaluate pack instead: request = commit message, target = changed files, recall@5/@10 beside BM25"},
			&cli.StringFlag{Name: "requests", Usage: "with --pack: also replay the requests of `FILE` (JSON Lines of {id, rev, request, target, kind}), each at its revision; --commits 0 replays only these"},
			jsonFlag, revFlag,
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if c.String("requests") != "" && !c.Bool("pack") {
				return usagef("--requests needs --pack")
			}
			if (c.Int("commits") <= 0 && !(c.Int("commits") == 0 && c.String("requests") != "")) || c.Int("budget") <= 0 {
				return usagef("--commits and --budget must be positive (--commits 0 only with --pack --requests)")
			}
			if c.Bool("creates") && (c.Bool("pack") || c.Bool("ablate")) {
				return usagef("--creates goes with neither --pack nor --ablate")
			}
			s, ctx, err := open(c)
			if err != nil {
				return err
			}
			type report interface{ Text() string }
			var rep report
			switch {
			case c.Bool("creates"):
				rep, err = s.EvalCreates(ctx, app.EvalRequest{Rev: c.String("rev"), Commits: c.Int("commits"), Budget: c.Int("budget"), Stage: c.String("stage"),
					Cases: c.Bool("cases"), Messages: c.Bool("messages")})
			case c.Bool("pack"):
				rep, err = s.EvalPack(ctx, app.EvalPackRequest{Rev: c.String("rev"), Commits: c.Int("commits"), Weights: c.String("weights"), Cases: c.Bool("cases"),
					Requests: c.String("requests")})
			default:
				rep, err = s.Eval(ctx, app.EvalRequest{Rev: c.String("rev"), Commits: c.Int("commits"), Budget: c.Int("budget"), Stage: c.String("stage"),
					Cases: c.Bool("cases"), Ablate: c.Bool("ablate"), Messages: c.Bool("messages")})
			}
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(c.App.Writer, rep)
			}
			_, err = fmt.Fprint(c.App.Writer, rep.Text())
			return err
		},
	}
}
