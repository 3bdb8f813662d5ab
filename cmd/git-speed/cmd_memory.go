package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
)

func cmdMemory() *cli.Command {
	return &cli.Command{
		Name:  "memory",
		Usage: "keep notes across sessions and find the ones similar to a task",
		UsageText: "git speed memory add TEXT [--tag T]... [--session ID]\n" +
			"git speed memory search QUERY [--top N] [--json]\n" +
			"git speed memory list [--json]\n" +
			"git speed memory forget ID",
		Description: "Memories live in <git-common-dir>/speed/memories.jsonl. search ranks them by BM25 over\n" +
			"words and identifier parts (camelCase, snake_case), or by dense cosine when speed.toml's\n" +
			"agent.embed_command names a command that reads a text on stdin and prints a JSON array.",
		Subcommands: []*cli.Command{
			{
				Name: "add", Usage: "store a memory", ArgsUsage: "TEXT",
				Flags: []cli.Flag{&cli.StringSliceFlag{Name: "tag", Usage: "a tag (repeatable)"}, &cli.StringFlag{Name: "session", Usage: "the session it comes from"}, jsonFlag},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usagef("memory add needs TEXT, got %d argument(s)", c.NArg())
					}
					s, ctx, err := open(c)
					if err != nil {
						return err
					}
					m, err := s.MemoryAdd(ctx, app.MemoryAddRequest{Text: c.Args().First(), Tags: c.StringSlice("tag"), Session: c.String("session")})
					if err != nil {
						return err
					}
					if c.Bool("json") {
						return printJSON(c.App.Writer, m)
					}
					_, err = fmt.Fprintln(c.App.Writer, m.ID)
					return err
				},
			},
			{
				Name: "search", Usage: "the memories most similar to QUERY, with scores", ArgsUsage: "QUERY",
				Flags: []cli.Flag{&cli.IntFlag{Name: "top", Usage: "how many (default agent.memory_top)"}, jsonFlag},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usagef("memory search needs QUERY, got %d argument(s)", c.NArg())
					}
					s, ctx, err := open(c)
					if err != nil {
						return err
					}
					top := 0
					if c.IsSet("top") {
						if top = c.Int("top"); top <= 0 {
							return usagef("--top must be positive, got %d", top)
						}
					}
					res, err := s.MemorySearch(ctx, c.Args().First(), top)
					if err != nil {
						return err
					}
					if c.Bool("json") {
						return printJSON(c.App.Writer, res)
					}
					_, err = fmt.Fprint(c.App.Writer, res.Text())
					return err
				},
			},
			{
				Name: "list", Usage: "every memory, oldest first",
				Flags: []cli.Flag{jsonFlag},
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					s, ctx, err := open(c)
					if err != nil {
						return err
					}
					ms, err := s.MemoryList(ctx)
					if err != nil {
						return err
					}
					if c.Bool("json") {
						return printJSON(c.App.Writer, ms)
					}
					_, err = fmt.Fprint(c.App.Writer, app.MemoryListText(ms))
					return err
				},
			},
			{
				Name: "forget", Usage: "remove a memory from lists and searches", ArgsUsage: "ID",
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usagef("memory forget needs ID, got %d argument(s)", c.NArg())
					}
					s, ctx, err := open(c)
					if err != nil {
						return err
					}
					if err := s.MemoryForget(ctx, c.Args().First()); err != nil {
						return err
					}
					fmt.Fprintf(c.App.ErrWriter, "git-speed: forgot %s\n", c.Args().First())
					return nil
				},
			},
		},
	}
}
