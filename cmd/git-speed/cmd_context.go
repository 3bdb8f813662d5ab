package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
)

func cmdContext() *cli.Command {
	return &cli.Command{
		Name:      "context",
		Usage:     "assemble a task's context: instructions, session window, similar memories, repo map",
		UsageText: "git speed context TASK-TEXT [--budget N] [--session ID | --no-session] [--file PATH]... [--no-map] [--json] [--rev R]",
		Description: "Prints the task, the instruction files (global, above the repository, its root, the\n" +
			"folders of --file paths; nearest last), the session window (the session started last\n" +
			"unless --session names another or --no-session; a summary of its older events and the\n" +
			"last agent.window_events), the memories\n" +
			"most similar to the task and a repo map focused by the task's words and files, each within\n" +
			"its share of the budget (speed.toml [agent.shares]; the map takes the rest, at most\n" +
			"map.budget). The\n" +
			"per-section token report goes to stderr (with --json, into the JSON). TASK-TEXT - reads\n" +
			"standard input.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "budget", Usage: "total tokens (default agent.context_budget)"},
			sessionFlag,
			&cli.BoolFlag{Name: "no-session", Usage: "leave the session window out"},
			&cli.StringSliceFlag{Name: "file", Usage: "a file the task is about (repeatable): its folders' instruction files, the map's focus"},
			&cli.BoolFlag{Name: "no-map", Usage: "leave the repo map out (no index needed)"},
			jsonFlag, revFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("context needs TASK-TEXT (in quotes, or - for stdin), got %d argument(s)", c.NArg())
			}
			task := c.Args().First()
			if task == "-" {
				b, err := io.ReadAll(os.Stdin)
				if err != nil {
					return err
				}
				task = string(b)
			}
			if strings.TrimSpace(task) == "" {
				return usagef("context needs a non-empty TASK-TEXT")
			}
			s, ctx, err := open(c)
			if err != nil {
				return err
			}
			budget, err := budgetArg(c)
			if err != nil {
				return err
			}
			req := app.ContextRequest{Rev: c.String("rev"), Task: task, Budget: budget, Session: c.String("session"), NoSession: c.Bool("no-session"), NoMap: c.Bool("no-map")}
			if req.NoSession && req.Session != "" {
				return usagef("--session and --no-session contradict each other")
			}
			if req.Files, err = s.RepoPaths(c.StringSlice("file")); err != nil {
				return err
			}
			res, err := s.Context(ctx, req)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(c.App.Writer, res)
			}
			for _, l := range strings.SplitAfter(strings.TrimSuffix(res.Report.Render(), "\n"), "\n") {
				fmt.Fprintf(c.App.ErrWriter, "git-speed: %s", strings.TrimSuffix(l, "\n")+"\n")
			}
			_, err = fmt.Fprint(c.App.Writer, res.Text)
			return err
		},
	}
}
