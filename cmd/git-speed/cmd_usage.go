package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
)

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
			s, ctx, err := open(c)
			if err != nil {
				return err
			}
			req := app.UsageRequest{Session: c.String("session")}
			if c.IsSet("plan-files") || c.IsSet("total") {
				n := c.Int("plan-files")
				req.PlanFiles = &n
				if c.IsSet("total") {
					if req.Total = c.Int("total"); req.Total <= 0 {
						return usagef("--plan-files must be 0 or more and --total positive, got %d and %d", n, req.Total)
					}
				}
			}
			res, err := s.Usage(ctx, req)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(c.App.Writer, res)
			}
			_, err = fmt.Fprint(c.App.Writer, res.Text())
			return err
		},
	}
}
