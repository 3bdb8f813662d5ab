package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/hooks"
)

func cmdHooks() *cli.Command {
	force := &cli.BoolFlag{Name: "force", Usage: "move aside a hook that can be neither recognised nor chained"}
	return &cli.Command{
		Name:      "hooks",
		Usage:     "install or remove the post-checkout and post-merge hooks",
		UsageText: "git speed hooks install|uninstall|status [--force] [--json]",
		Description: "The hooks re-index in the background whenever HEAD's tree changes. They chain with hooks\n" +
			"already there (renamed <name>.pre-speed and run first, with their exit status kept),\n" +
			"honour core.hooksPath, and never fail or slow a git command: errors go to\n" +
			"<git-dir>/speed/hook.log.",
		Subcommands: []*cli.Command{
			{
				Name: "install", Usage: "install the hooks (idempotent; upgrades older versions)",
				Flags: []cli.Flag{force, jsonFlag},
				Action: func(c *cli.Context) error {
					rep, err := hooks.Install(".", hooks.Options{Force: c.Bool("force")})
					return reportHooks(c, rep, err)
				},
			},
			{
				Name: "uninstall", Usage: "remove the hooks and restore the hooks they chained",
				Flags: []cli.Flag{jsonFlag},
				Action: func(c *cli.Context) error {
					rep, err := hooks.Uninstall(".", hooks.Options{})
					return reportHooks(c, rep, err)
				},
			},
			{
				Name: "status", Usage: "show the state of each hook",
				Flags: []cli.Flag{jsonFlag},
				Action: func(c *cli.Context) error {
					st, err := hooks.Status(".", hooks.Options{})
					if err != nil {
						return err
					}
					if c.Bool("json") {
						return printJSON(c.App.Writer, st)
					}
					for _, h := range st {
						fmt.Fprintf(c.App.Writer, "%s\t%s\t%s\n", h.Name, h.State, h.Path)
					}
					return nil
				},
			},
		},
	}
}

func reportHooks(c *cli.Context, rep hooks.Report, err error) error {
	if err != nil {
		return err
	}
	if c.Bool("json") {
		return printJSON(c.App.Writer, rep)
	}
	for _, h := range rep.Hooks {
		line := fmt.Sprintf("git-speed: %s %s", h.Name, h.Action)
		if h.Chained != "" {
			line += " (runs " + h.Chained + " first)"
		}
		fmt.Fprintln(c.App.ErrWriter, line+": "+h.Path)
	}
	for _, n := range rep.Notes {
		fmt.Fprintln(c.App.ErrWriter, "git-speed: note: "+n)
	}
	return nil
}

// cmdHook is what the installed hook scripts run, in the background.
func cmdHook() *cli.Command {
	return &cli.Command{
		Name:            "hook",
		Hidden:          true,
		Usage:           "run by the installed hooks: re-index when HEAD's tree changed",
		UsageText:       "git speed hook post-checkout|post-merge ARGS…",
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			name := c.Args().First()
			if err := hooks.ParseArgs(name); err != nil {
				return usagef("%v", err)
			}
			s, ctx, err := open(c)
			if err != nil {
				// A hook never fails git; say why on the log's stderr.
				fmt.Fprintf(c.App.ErrWriter, "git-speed hook %s: %v\n", name, err)
				return nil
			}
			s.Hook(ctx, name, c.Args().Tail())
			return nil
		},
	}
}
