package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
	"github.com/git-speed/git-speed/layers/agent/session"
)

func cmdSession() *cli.Command {
	return &cli.Command{
		Name:  "session",
		Usage: "record an agent's session as events and compact it into a rolling summary",
		UsageText: "git speed session start [--id ID] [--task TEXT] [--file PATH]...\n" +
			"git speed session event KIND [TEXT] [--file PATH]... [--status S] [--content FILE|-] [--session ID]\n" +
			"git speed session compact [--session ID]\n" +
			"git speed session show [--session ID] [--events N]\n" +
			"git speed session list",
		Description: "A session is an append-only log of events under <git-common-dir>/speed/sessions/, each\n" +
			"with the exact tokens it put in the agent's context. KIND is one of " + strings.Join(session.Kinds, ", ") + ".\n" +
			"Compaction needs no model: it folds the events into a structured summary (goals,\n" +
			"progress, files touched, failures, decisions, preserved tail) on top of the previous\n" +
			"one. It runs by itself when the session's context reaches agent.compact_at of\n" +
			"agent.window_tokens. The session window is the summary plus the last agent.window_events\n" +
			"events since.",
		Subcommands: []*cli.Command{
			{
				Name: "start", Usage: "start a session and make it the current one",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "id", Usage: "the session's id (default: the time, 20261124-004512)"},
					&cli.StringFlag{Name: "task", Usage: "the task the session starts with (a task_started event)"},
					&cli.StringSliceFlag{Name: "file", Usage: "a file of the task (repeatable)"},
					jsonFlag,
				},
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					s, ctx, err := open(c)
					if err != nil {
						return err
					}
					paths, err := s.RepoPaths(c.StringSlice("file"))
					if err != nil {
						return err
					}
					id, err := s.SessionStart(ctx, app.SessionStartRequest{ID: c.String("id"), Task: c.String("task"), Files: paths})
					if err != nil {
						return err
					}
					if c.Bool("json") {
						return printJSON(c.App.Writer, map[string]string{"id": id})
					}
					_, err = fmt.Fprintln(c.App.Writer, id)
					return err
				},
			},
			{
				Name: "event", Usage: "append one event to a session", ArgsUsage: "KIND [TEXT]",
				Flags: []cli.Flag{
					sessionFlag,
					&cli.StringSliceFlag{Name: "file", Usage: "a file the event is about (repeatable); for file_read its content is counted"},
					&cli.StringFlag{Name: "status", Usage: "test_run: pass or fail; tool_call: ok or error"},
					&cli.StringFlag{Name: "content", Usage: "what the event put in the agent's context (a tool's output): FILE, or - for stdin"},
					jsonFlag,
				},
				Action: func(c *cli.Context) error {
					if c.NArg() < 1 || c.NArg() > 2 {
						return usagef("session event needs KIND and an optional TEXT, got %d argument(s)", c.NArg())
					}
					req := app.SessionEventRequest{Kind: c.Args().Get(0), Text: c.Args().Get(1), Status: c.String("status"), Session: c.String("session")}
					if !session.ValidKind(req.Kind) {
						return usagef("unknown event kind %q (want one of %s)", req.Kind, strings.Join(session.Kinds, ", "))
					}
					if err := app.CheckStatus(req.Kind, req.Status); err != nil {
						return err
					}
					s, ctx, err := open(c)
					if err != nil {
						return err
					}
					if req.Files, err = s.RepoPaths(c.StringSlice("file")); err != nil {
						return err
					}
					switch from := c.String("content"); from {
					case "":
					case "-":
						b, err := io.ReadAll(os.Stdin)
						if err != nil {
							return err
						}
						req.Content = string(b)
					default:
						b, err := os.ReadFile(from)
						if err != nil {
							return usagef("--content: %v", err)
						}
						req.Content = string(b)
					}
					res, err := s.SessionEvent(ctx, req)
					if err != nil {
						return err
					}
					if c.Bool("json") {
						return printJSON(c.App.Writer, res)
					}
					_, err = fmt.Fprint(c.App.Writer, res.Line())
					return err
				},
			},
			{
				Name: "compact", Usage: "fold the events since the last compaction into a new rolling summary",
				Flags: []cli.Flag{sessionFlag, jsonFlag},
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					s, ctx, err := open(c)
					if err != nil {
						return err
					}
					res, err := s.SessionCompact(ctx, c.String("session"))
					if err != nil {
						return err
					}
					if res.Event == nil {
						fmt.Fprintf(c.App.ErrWriter, "git-speed: %s\n", res.Note())
						return nil
					}
					if c.Bool("json") {
						return printJSON(c.App.Writer, res.Event)
					}
					fmt.Fprintf(c.App.ErrWriter, "git-speed: %s\n", res.Note())
					_, err = fmt.Fprint(c.App.Writer, res.Event.Summary.Render())
					return err
				},
			},
			{
				Name: "show", Usage: "print the session window: the summary and the last events since",
				Flags: []cli.Flag{sessionFlag, &cli.IntFlag{Name: "events", Usage: "recent events to show (default agent.window_events)"}, jsonFlag},
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					s, ctx, err := open(c)
					if err != nil {
						return err
					}
					req := app.SessionShowRequest{Session: c.String("session")}
					if c.IsSet("events") {
						n := c.Int("events")
						req.Events = &n
					}
					w, err := s.SessionShow(ctx, req)
					if err != nil {
						return err
					}
					if c.Bool("json") {
						return printJSON(c.App.Writer, w)
					}
					_, err = fmt.Fprint(c.App.Writer, w.Text())
					return err
				},
			},
			{
				Name: "list", Usage: "list the sessions of this repository",
				Flags: []cli.Flag{jsonFlag},
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					s, ctx, err := open(c)
					if err != nil {
						return err
					}
					list, err := s.SessionList(ctx)
					if err != nil {
						return err
					}
					if c.Bool("json") {
						return printJSON(c.App.Writer, list)
					}
					_, err = fmt.Fprint(c.App.Writer, app.SessionListText(list))
					return err
				},
			},
		},
	}
}
