package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
)

func cmdTask() *cli.Command {
	return &cli.Command{
		Name:  "task",
		Usage: "add a task to a feature, or list a feature's tasks",
		UsageText: "git speed task add FEATURE --title T [--files a,b] [--id ID] [--depends-on X]... [--requirement R]... [--description D]\n" +
			"git speed task list FEATURE [--json]",
		Description: "Tasks are .speed/features/FEATURE/tasks/<id>.toml (README: What is stored where). add writes a\n" +
			"valid task file, status planned: --files are its files_touched, relative to the top of the\n" +
			"repository; --id defaults to the next number. It refuses a path outside the repository, an id\n" +
			"the feature has, a dependency it lacks and a feature that does not exist, naming the flag.",
		Subcommands: []*cli.Command{
			{
				Name: "add", Usage: "write a task file", ArgsUsage: "FEATURE",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "title", Usage: "what the task does, in one line (required)"},
					&cli.StringSliceFlag{Name: "files", Usage: "files the task touches, comma-separated or repeated"},
					&cli.StringFlag{Name: "id", Usage: "the task's id (default: the next number)"},
					&cli.StringSliceFlag{Name: "depends-on", Usage: "a task of the feature this one depends on (repeatable)"},
					&cli.StringSliceFlag{Name: "requirement", Usage: "a requirement id of the spec, such as REQ-1 (repeatable)"},
					&cli.StringFlag{Name: "description", Usage: "what to change and why"},
					jsonFlag,
				},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usagef("task add needs FEATURE, got %d argument(s)", c.NArg())
					}
					s, ctx, err := open(c)
					if err != nil {
						return err
					}
					defer s.Close()
					res, err := s.TaskAdd(ctx, app.TaskAddRequest{Feature: c.Args().First(), ID: c.String("id"), Title: c.String("title"),
						Description: c.String("description"), Files: c.StringSlice("files"), DependsOn: c.StringSlice("depends-on"),
						Requirements: c.StringSlice("requirement")})
					if err != nil {
						return err
					}
					if c.Bool("json") {
						return printJSON(c.App.Writer, res)
					}
					_, err = fmt.Fprintln(c.App.Writer, res.Path)
					return err
				},
			},
			{
				Name: "list", Usage: "a feature's tasks: id, status, title, files", ArgsUsage: "FEATURE",
				Flags: []cli.Flag{jsonFlag},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usagef("task list needs FEATURE, got %d argument(s)", c.NArg())
					}
					s, ctx, err := open(c)
					if err != nil {
						return err
					}
					defer s.Close()
					res, err := s.TaskList(ctx, c.Args().First())
					if err != nil {
						return err
					}
					if c.Bool("json") {
						return printJSON(c.App.Writer, res)
					}
					for _, t := range res.Tasks {
						line := t.ID + "\t" + t.Status + "\t" + t.Title
						if len(t.FilesTouched) > 0 {
							line += "\t" + strings.Join(t.FilesTouched, ",")
						}
						if len(t.DependsOn) > 0 {
							line += "\tafter " + strings.Join(t.DependsOn, ",")
						}
						if _, err := fmt.Fprintln(c.App.Writer, line); err != nil {
							return err
						}
					}
					for _, b := range res.Broken {
						fmt.Fprintf(c.App.ErrWriter, "git-speed: warning: task %s does not load: %s\n", b.ID, strings.Join(b.Problems, "; "))
					}
					return nil
				},
			},
		},
	}
}
