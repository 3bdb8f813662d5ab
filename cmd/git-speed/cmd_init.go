package main

import (
	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
)

func cmdInit() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "write speed.toml and a starter feature in .speed/ and install the hooks",
		UsageText: "git speed init [--no-hooks]",
		Description: "Writes speed.toml (every key with its default) and .speed/features/first-feature (a spec\n" +
			"template and a task naming a file this repository tracks) at the top of the work tree, then\n" +
			"installs the hooks. `git speed task add` writes more tasks.\n" +
			"It refuses to overwrite either.",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "no-hooks", Usage: "do not install the hooks"}},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			res, err := app.Init(reporting(c), "", c.Bool("no-hooks"))
			if err != nil {
				return err
			}
			if res.Hooks != nil {
				return reportHooks(c, *res.Hooks, nil)
			}
			return nil
		},
	}
}
