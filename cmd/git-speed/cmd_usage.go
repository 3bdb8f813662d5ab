package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/layers/agent/usage"
)

// usageJSON is what `git speed usage --json` prints.
type usageJSON struct {
	*usage.Usage
	BudgetForTask *taskBudget `json:"budget_for_task,omitempty"`
}

type taskBudget struct {
	Total   int `json:"total"`
	Files   int `json:"files"`
	PerTask int `json:"per_task"`
}

func cmdUsage() *cli.Command {
	return &cli.Command{
		Name:      "usage",
		Usage:     "how full a session has made the context window, and whether to checkpoint",
		UsageText: "git speed usage [--session ID] [--json] [--plan-files N [--total T]]",
		Description: "context_tokens is exact: the session's last summary plus every event since, as counted\n" +
			"when each was recorded. heuristic_tokens is the MAHABHARATHA tracker's estimate of the\n" +
			"same session (file bytes × 0.25 + 100 per read, 500 per task, 50 per tool call, 100 per\n" +
			"minute), shown beside it. checkpoint is true at agent.compact_at of agent.window_tokens.\n" +
			"--plan-files N splits --total T (default agent.context_budget) across N files as the\n" +
			"tracker's budget_for_task does: T ÷ N, never below 500.",
		Flags: []cli.Flag{
			sessionFlag, jsonFlag,
			&cli.IntFlag{Name: "plan-files", Usage: "files of a task to plan a budget for"},
			&cli.IntFlag{Name: "total", Usage: "the budget --plan-files splits (default agent.context_budget)"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			e, s, err := openSessions(c)
			if err != nil {
				return err
			}
			var plan *taskBudget
			if c.IsSet("plan-files") || c.IsSet("total") {
				plan = &taskBudget{Total: e.cfg.Agent.ContextBudget, Files: c.Int("plan-files")}
				if c.IsSet("total") {
					plan.Total = c.Int("total")
				}
				if plan.Files < 0 || plan.Total <= 0 {
					return usagef("--plan-files must be 0 or more and --total positive, got %d and %d", plan.Files, plan.Total)
				}
				plan.PerTask = usage.BudgetForTask(plan.Total, plan.Files)
			}
			out := usageJSON{BudgetForTask: plan}
			if plan == nil || c.IsSet("session") {
				id, err := sessionID(c, s)
				if err != nil {
					return err
				}
				l, err := s.Read(id)
				if err != nil {
					return err
				}
				warnAll(e, l.Warnings)
				out.Usage = usage.Compute(l, e.cfg.Agent.WindowTokens, e.cfg.Agent.CompactAt)
			}
			if c.Bool("json") {
				return printJSON(e.stdout, out)
			}
			var b strings.Builder
			if u := out.Usage; u != nil {
				fmt.Fprintf(&b, "session %s: %d events, %d compactions\n", u.Session, u.Events, u.Compactions)
				fmt.Fprintf(&b, "context   %7d tokens (exact)      %5.1f %% of %d\n", u.ContextTokens, u.UsagePercent, u.WindowTokens)
				fmt.Fprintf(&b, "heuristic %7d tokens (seed guess) %5.1f %% of %d\n", u.Heuristic, u.HeuristicPercent, u.WindowTokens)
				if u.Checkpoint {
					fmt.Fprintf(&b, "checkpoint: yes, at or over %.1f %% (git speed session compact)\n", u.ThresholdPercent)
				} else {
					fmt.Fprintf(&b, "checkpoint: no, %d tokens to %.1f %%\n", u.TokensToCheckpoint, u.ThresholdPercent)
				}
			}
			if plan != nil {
				fmt.Fprintf(&b, "budget_for_task: %d tokens (%d ÷ %d files, at least %d)\n", plan.PerTask, plan.Total, max(plan.Files, 1), usage.MinTaskBudget)
			}
			_, err = fmt.Fprint(e.stdout, b.String())
			return err
		},
	}
}
