package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
	"github.com/git-speed/git-speed/layers/world/align"
)

var (
	stageFlag  = &cli.StringFlag{Name: "stage", Value: "developer", Usage: "stage whose budget applies: architect, verifier, developer, reviewer, coherence or debugger"}
	budgetFlag = &cli.IntFlag{Name: "budget", Usage: "total tokens, overriding the stage's budget in speed.toml"}
	strictFlag = &cli.BoolFlag{Name: "strict", Usage: "a files_touched path absent from the tree is an error, not a warning"}
)

// featureTaskArgs checks for exactly FEATURE TASK.
func featureTaskArgs(c *cli.Context) (string, string, error) {
	if c.NArg() != 2 {
		return "", "", usagef("%s needs FEATURE and TASK, got %d argument(s)", c.Command.Name, c.NArg())
	}
	return c.Args().Get(0), c.Args().Get(1), nil
}

// scopeRequest reads FEATURE TASK and the scope flags (stage, budget,
// strict, rev) and opens the repository: scope's and report scope's.
func scopeRequest(c *cli.Context) (*app.Session, context.Context, app.ScopeRequest, error) {
	featureName, task, err := featureTaskArgs(c)
	if err != nil {
		return nil, nil, app.ScopeRequest{}, err
	}
	budget, err := budgetArg(c)
	if err != nil {
		return nil, nil, app.ScopeRequest{}, err
	}
	s, ctx, err := open(c)
	if err != nil {
		return nil, nil, app.ScopeRequest{}, err
	}
	return s, ctx, app.ScopeRequest{Rev: rev(c), Feature: featureName, Task: task, Stage: c.String("stage"),
		Budget: budget, Strict: c.Bool("strict")}, nil
}

func cmdScope() *cli.Command {
	return &cli.Command{
		Name:      "scope",
		Usage:     "scope one task's context under a token budget (Layer 2)",
		UsageText: "git speed scope FEATURE TASK [--stage S] [--budget N] [--strict] [--json] [--rev R | --worktree]",
		Description: "Resolves the task's files_touched in the code symbol graph, walks it (0 hops full, 1 hop\n" +
			"full or skeleton, 2 hops skeleton, 3+ dropped), collects upstream decisions, narrows the\n" +
			"spec and balances the budget, then writes manifest.json, budget.json and material.json\n" +
			"to .speed/features/FEATURE/context/task-TASK/. Every cut is recorded in budget.json.",
		Flags: []cli.Flag{stageFlag, budgetFlag, strictFlag, jsonFlag, revFlag, worktreeFlag},
		Action: func(c *cli.Context) error {
			s, ctx, req, err := scopeRequest(c)
			if err != nil {
				return err
			}
			// --json prints the artifacts as held in memory, so it always
			// runs in full.
			asJSON := c.Bool("json")
			req.Full = asJSON
			res, err := s.Scope(ctx, req)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(c.App.Writer, app.ScopeJSON(res))
			}
			fmt.Fprint(c.App.Writer, res.Summary)
			fmt.Fprintf(c.App.ErrWriter, "git-speed: wrote %s/\n", res.Dir)
			return nil
		},
	}
}

func cmdRender() *cli.Command {
	return &cli.Command{
		Name:      "render",
		Usage:     "render a stage prompt for a task (Layer 3)",
		UsageText: "git speed render STAGE FEATURE TASK [--out FILE] [--json] [--budget N] [--log FILE] [--base REV] [--rev R | --worktree] [--session [ID]]",
		Description: "STAGE is architect, verifier, developer, reviewer, coherence or debugger. Scopes the task\n" +
			"first (rewriting stale artifacts), renders the stage template (Identity, Constraints,\n" +
			"Material, Traceability), writes .speed/features/FEATURE/context/task-TASK/STAGE.md and\n" +
			"prints the prompt on stdout. The per-section token report goes to stderr.\n" +
			"The repository's instruction files (AGENTS.md …) for the task's files are a section of\n" +
			"their own; --session ID adds that session's window and similar memories, --session alone\n" +
			"(last, or before another flag) the session started last's (docs/agent.md).\n" +
			"Templates can be overridden in .speed/templates/STAGE.md.tmpl.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "also write the prompt to FILE"},
			budgetFlag, strictFlag, jsonFlag, revFlag,
			&cli.StringFlag{Name: "log", Usage: "debugger: the agent's failure output"},
			&cli.StringFlag{Name: "base", Usage: "reviewer: diff from REV instead of the task's base"},
			&cli.BoolFlag{Name: "worktree", Usage: "read the work tree as it is now, indexed on the fly, instead of --rev (the reviewer diffs against it)"},
			sessionFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 3 {
				return usagef("render needs STAGE, FEATURE and TASK, got %d argument(s)", c.NArg())
			}
			budget, err := budgetArg(c)
			if err != nil {
				return err
			}
			s, ctx, err := open(c)
			if err != nil {
				return err
			}
			req := app.RenderRequest{Rev: rev(c), Stage: c.Args().Get(0), Feature: c.Args().Get(1), Task: c.Args().Get(2),
				Budget: budget, Strict: c.Bool("strict"), Base: c.String("base"), Session: c.String("session")}
			if f := c.String("log"); f != "" {
				b, err := os.ReadFile(f)
				if err != nil {
					return usagef("--log: %v", err)
				}
				req.Log, req.LogName = string(b), f
			}
			res, err := s.Render(ctx, req)
			if err != nil {
				return err
			}
			out := res.Output
			if p := c.String("out"); p != "" {
				if err := os.WriteFile(p, []byte(out.Text), 0o644); err != nil {
					return err
				}
			}
			if c.Bool("json") {
				return printJSON(c.App.Writer, out)
			}
			errw := c.App.ErrWriter
			r := out.Report
			for _, sec := range r.Sections {
				fmt.Fprintf(errw, "git-speed: %-13s %6d tokens\n", sec.Name, sec.Tokens)
				for _, p := range r.Parts {
					if p.Section == sec.Name {
						fmt.Fprintf(errw, "git-speed:   %-11s %6d tokens\n", p.Name, p.Tokens)
					}
				}
			}
			if r.Fallback != "" {
				fmt.Fprintf(errw, "git-speed: fallback: the context is the task and its files in full, because: %s\n", r.Fallback)
			}
			fmt.Fprintf(errw, "git-speed: total %d of %d tokens (%s); within budget: %v; remaining %d\n",
				r.TotalTokens, r.BudgetTokens, r.Tokenizer, r.WithinBudget, r.RemainingTokens)
			_, err = fmt.Fprint(c.App.Writer, out.Text)
			return err
		},
	}
}

func cmdClassify() *cli.Command {
	return &cli.Command{
		Name:      "classify",
		Usage:     "classify an agent's failure output against the task's scoped context",
		UsageText: "git speed classify FEATURE TASK --log FILE [--json]",
		Description: "context_cut when what failed names a file or symbol budget.json shows was cut or dropped;\n" +
			"otherwise build_error, test_failure, spec_gap, missing_file, timeout or unknown, with the\n" +
			"evidence lines. --log - reads standard input.",
		Flags: []cli.Flag{&cli.StringFlag{Name: "log", Required: true, Usage: "the failure output (- for stdin)"}, jsonFlag},
		Action: func(c *cli.Context) error {
			featureName, task, err := featureTaskArgs(c)
			if err != nil {
				return err
			}
			s, ctx, err := open(c)
			if err != nil {
				return err
			}
			var logData []byte
			if f := c.String("log"); f == "-" {
				logData, err = io.ReadAll(os.Stdin)
			} else {
				logData, err = os.ReadFile(f)
			}
			if err != nil {
				return usagef("--log: %v", err)
			}
			cl, err := s.Classify(ctx, app.ClassifyRequest{Feature: featureName, Task: task, Log: string(logData), LogName: c.String("log")})
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(c.App.Writer, cl)
			}
			fmt.Fprintf(c.App.Writer, "%s (confidence %.2f): %s\n", cl.Kind, cl.Confidence, cl.Summary)
			for _, ev := range cl.Evidence {
				fmt.Fprintf(c.App.Writer, "  %v\n", ev)
			}
			return nil
		},
	}
}

func cmdAlign() *cli.Command {
	return &cli.Command{
		Name:      "align",
		Usage:     "map a feature's requirements to the files and symbols that carry them",
		UsageText: "git speed align FEATURE [--json] [--rev R | --worktree]",
		Description: "Each requirement gets its evidence (explicit path or symbol mentions, identifier and term\n" +
			"matches, tasks citing it) and a status: aligned, partial or unaligned.",
		Flags: []cli.Flag{jsonFlag, revFlag, worktreeFlag},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("align needs FEATURE")
			}
			s, ctx, err := open(c)
			if err != nil {
				return err
			}
			a, err := s.Align(ctx, app.AlignRequest{Rev: rev(c), Feature: c.Args().First()})
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(c.App.Writer, a)
			}
			_, err = fmt.Fprint(c.App.Writer, align.Render(a))
			return err
		},
	}
}
