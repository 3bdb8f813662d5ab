package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

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
					e, s, err := openSessions(c)
					if err != nil {
						return err
					}
					paths, err := repoPaths(e, c.StringSlice("file"))
					if err != nil {
						return err
					}
					id, err := s.Start(session.StartOptions{ID: c.String("id"), Task: c.String("task"), Paths: paths})
					if err != nil {
						return err
					}
					if c.Bool("json") {
						return printJSON(e.stdout, map[string]string{"id": id})
					}
					_, err = fmt.Fprintln(e.stdout, id)
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
					kind, text := c.Args().Get(0), c.Args().Get(1)
					if !session.ValidKind(kind) {
						return usagef("unknown event kind %q (want one of %s)", kind, strings.Join(session.Kinds, ", "))
					}
					status := c.String("status")
					if err := checkStatus(kind, status); err != nil {
						return err
					}
					e, s, id, err := openSession(c)
					if err != nil {
						return err
					}
					paths, err := repoPaths(e, c.StringSlice("file"))
					if err != nil {
						return err
					}
					content, err := eventContent(e, kind, c.String("content"), c.StringSlice("file"))
					if err != nil {
						return err
					}
					// The session log stores no secret: an event's text and
					// content go through the redaction layer first.
					if text, err = e.redact("", text); err != nil {
						return err
					}
					if content, err = e.redact("", content); err != nil {
						return err
					}
					res, err := s.Append(id, session.Event{Kind: kind, Text: text, Paths: paths, Status: status}, content)
					if err != nil {
						return err
					}
					if res.Compacted != nil {
						fmt.Fprintf(e.stderr, "git-speed: session %s reached %d of %d tokens; compacted events up to #%d into a summary of %d tokens\n",
							id, res.Event.Context, e.cfg.Agent.WindowTokens, res.Compacted.Upto, res.Compacted.Tokens)
					}
					if c.Bool("json") {
						return printJSON(e.stdout, res)
					}
					_, err = fmt.Fprintf(e.stdout, "%s\t%d tokens\tcontext %d tokens\n", res.Event.Line(), res.Event.Tokens, contextAfter(res))
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
					e, s, id, err := openSession(c)
					if err != nil {
						return err
					}
					ev, err := s.Compact(id)
					if err != nil {
						return err
					}
					if ev == nil {
						fmt.Fprintf(e.stderr, "git-speed: session %s has no events to compact\n", id)
						return nil
					}
					if err := e.redactAll(ev); err != nil {
						return err
					}
					if c.Bool("json") {
						return printJSON(e.stdout, ev)
					}
					fmt.Fprintf(e.stderr, "git-speed: session %s: events %d-%d in a summary of %d tokens\n", id, ev.Summary.FirstSeq, ev.Upto, ev.Tokens)
					_, err = fmt.Fprint(e.stdout, ev.Summary.Render())
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
					e, s, id, err := openSession(c)
					if err != nil {
						return err
					}
					n := e.cfg.Agent.WindowEvents
					if c.IsSet("events") {
						if n = c.Int("events"); n < 0 {
							return usagef("--events must be 0 or more, got %d", n)
						}
					}
					l, err := s.ReadWindow(id)
					if err != nil {
						return err
					}
					warnAll(e, l.Warnings)
					w := l.Window(n)
					if err := e.redactAll(&w); err != nil {
						return err
					}
					if c.Bool("json") {
						return printJSON(e.stdout, w)
					}
					_, err = fmt.Fprint(e.stdout, w.Text())
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
					e, s, err := openSessions(c)
					if err != nil {
						return err
					}
					list, warns, err := s.List()
					if err != nil {
						return err
					}
					warnAll(e, warns)
					if list == nil {
						list = []session.Info{}
					}
					if err := e.redactAll(&list); err != nil {
						return err
					}
					if c.Bool("json") {
						return printJSON(e.stdout, list)
					}
					var b strings.Builder
					for _, in := range list {
						mark := " "
						if in.Current {
							mark = "*"
						}
						fmt.Fprintf(&b, "%s %s\t%d events\t%d compactions\t%d tokens\t%s\n", mark, in.ID, in.Events, in.Compactions, in.Context, in.Goal)
					}
					_, err = fmt.Fprint(e.stdout, b.String())
					return err
				},
			},
		},
	}
}

func openSessions(c *cli.Context) (*env, *session.Store, error) {
	e, err := openEnv(c)
	if err != nil {
		return nil, nil, err
	}
	s, err := e.sessionStore()
	return e, s, err
}

// openSession opens the session store and names the session --session
// asks for, or the current one.
func openSession(c *cli.Context) (*env, *session.Store, string, error) {
	e, s, err := openSessions(c)
	if err != nil {
		return nil, nil, "", err
	}
	id, err := sessionID(c, s)
	return e, s, id, err
}

func warnAll(e *env, warns []string) {
	for _, w := range warns {
		e.warnf("%s", w)
	}
}

func contextAfter(res *session.Appended) int {
	if res.Compacted != nil {
		return res.Compacted.Context
	}
	return res.Event.Context
}

func checkStatus(kind, status string) error {
	if status == "" {
		return nil
	}
	ok := map[string][]string{session.TestRun: {"pass", "fail"}, session.ToolCall: {"ok", "error"}}[kind]
	for _, s := range ok {
		if s == status {
			return nil
		}
	}
	if ok == nil {
		return usagef("--status applies to test_run (pass, fail) and tool_call (ok, error), not %s", kind)
	}
	return usagef("--status %s: %s takes %s", status, kind, strings.Join(ok, " or "))
}

// repoPaths turns --file arguments into repository paths; a file outside
// the repository (an agent reads those too) keeps its absolute path.
func repoPaths(e *env, args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		p, err := e.repoPath(a)
		if err != nil {
			abs, aerr := filepath.Abs(a)
			if aerr != nil {
				return nil, usagef("--file %s: %v", a, err)
			}
			p = filepath.ToSlash(abs)
		}
		out = append(out, p)
	}
	return out, nil
}

// eventContent is what an event put in the agent's context besides its
// text: --content (a file, or - for stdin), else for file_read the files
// read, as they are in the work tree.
func eventContent(e *env, kind, from string, files []string) (string, error) {
	switch {
	case from == "-":
		b, err := io.ReadAll(os.Stdin)
		return string(b), err
	case from != "":
		b, err := os.ReadFile(from)
		if err != nil {
			return "", usagef("--content: %v", err)
		}
		return string(b), nil
	case kind == session.FileRead:
		var b strings.Builder
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				e.warnf("--file %s: %v; its content is not counted", f, err)
				continue
			}
			b.Write(data)
		}
		return b.String(), nil
	}
	return "", nil
}
