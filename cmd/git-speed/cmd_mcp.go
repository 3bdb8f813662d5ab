package main

import (
	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
	"github.com/git-speed/git-speed/internal/mcpserver"
)

func cmdMCP() *cli.Command {
	return &cli.Command{
		Name:      "mcp",
		Usage:     "serve git-speed's tools to an agent over the Model Context Protocol (stdio)",
		UsageText: "git speed mcp [--worktree]",
		Description: "Speaks MCP (JSON-RPC over stdin/stdout) with tools pack, scope, render, map, skeleton,\n" +
			"symbols, neighbours and read, and for the agent's own context the tools context,\n" +
			"session_start, session_event, session_list, session_show, session_compact, memory_add,\n" +
			"memory_search and usage. Calls run concurrently; a cancelled call stops. Before each call\n" +
			"the index follows HEAD (re-indexed incrementally when its tree moves, with progress\n" +
			"notifications), or the work tree as it is with --worktree. A bad call is a tool error\n" +
			"with the same sentence the command line prints; the server keeps serving.\n" +
			"See docs/mcp.md for a client configuration.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "worktree", Usage: "answer from the work tree as it is now (edits, untracked files) instead of HEAD"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			// A long-lived session: no one-shot collector settings, worlds
			// kept warm between calls.
			s, err := app.Open(app.Options{SpeedDir: c.String("speed-dir"), Worktree: c.Bool("worktree")})
			if err != nil {
				return err
			}
			defer s.Close()
			return mcpserver.Run(c.Context, s, versionString())
		},
	}
}
