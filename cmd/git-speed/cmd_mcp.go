package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
	"github.com/git-speed/git-speed/internal/mcpserver"
)

func cmdMCP() *cli.Command {
	return &cli.Command{
		Name:      "mcp",
		Usage:     "serve git-speed's tools to an agent over the Model Context Protocol (stdio)",
		UsageText: "git speed mcp [--worktree] [--repo DIR]\n   git speed mcp install --client claude|codex|cursor|vscode [--scope project|user] [--print] [--worktree] [--name NAME]",
		Description: "Speaks MCP (JSON-RPC over stdin/stdout) with tools pack, scope, render, map, skeleton,\n" +
			"symbols, neighbours and read, and for the agent's own context the tools context,\n" +
			"session_start, session_event, session_list, session_show, session_compact, memory_add,\n" +
			"memory_search and usage. Calls run concurrently; a cancelled call stops. Before each call\n" +
			"the index follows HEAD (re-indexed incrementally when its tree moves, with progress\n" +
			"notifications), or the work tree as it is with --worktree. A bad call is a tool error\n" +
			"with the same sentence the command line prints; the server keeps serving.\n" +
			"`git speed mcp install` registers the server with a client (docs/mcp.md).",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "worktree", Usage: "answer from the work tree as it is now (edits, untracked files) instead of HEAD"},
			&cli.StringFlag{Name: "repo", Usage: "serve the repository holding `DIR` instead of the current folder's"},
		},
		Subcommands: []*cli.Command{cmdMCPInstall()},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			// A long-lived session: no one-shot collector settings, worlds
			// kept warm between calls.
			s, err := app.Open(app.Options{Dir: c.String("repo"), SpeedDir: c.String("speed-dir"), Worktree: c.Bool("worktree")})
			if err != nil {
				return err
			}
			defer s.Close()
			return mcpserver.Run(c.Context, s, versionString())
		},
	}
}

func cmdMCPInstall() *cli.Command {
	return &cli.Command{
		Name:      "install",
		Usage:     "register `git speed mcp` with an agent client, in that client's own file",
		UsageText: "git speed mcp install --client claude|codex|cursor|vscode [--scope project|user] [--print] [--worktree] [--name NAME]",
		Description: "Writes the server's entry into the client's file, merged with what is there (other servers\n" +
			"and keys kept; running it twice writes the same bytes): claude .mcp.json or ~/.claude.json,\n" +
			"codex .codex/config.toml or ~/.codex/config.toml, cursor .cursor/mcp.json or ~/.cursor/mcp.json,\n" +
			"vscode .vscode/mcp.json or the user mcp.json. The entry starts this binary by its absolute path;\n" +
			"a project entry names the repository (--repo), VS Code's uses cwd ${workspaceFolder}. A file that\n" +
			"does not parse is refused, naming its line, and left as it was. --print prints the entry instead.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "client", Usage: "claude, codex, cursor or vscode"},
			&cli.StringFlag{Name: "scope", Value: "project", Usage: "project (a file in the repository) or user (the client's own file in your home)"},
			&cli.BoolFlag{Name: "print", Usage: "print the entry in the client's shape on stdout; write nothing"},
			&cli.BoolFlag{Name: "worktree", Usage: "the server answers from the work tree as it is (its --worktree)"},
			&cli.StringFlag{Name: "name", Value: "git-speed", Usage: "the server's name in the client"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			res, err := app.MCPInstall(c.Context, app.MCPInstallRequest{Client: c.String("client"), Scope: c.String("scope"),
				Name: c.String("name"), Worktree: c.Bool("worktree"), Print: c.Bool("print")})
			if err != nil {
				return err
			}
			if c.Bool("print") {
				fmt.Fprintf(c.App.ErrWriter, "git-speed: the entry for %s (not written)\n", res.File)
				_, err = fmt.Fprint(c.App.Writer, res.Content)
				return err
			}
			if res.Changed {
				fmt.Fprintf(c.App.ErrWriter, "git-speed: wrote %s to %s\n", c.String("name"), res.File)
			} else {
				fmt.Fprintf(c.App.ErrWriter, "git-speed: %s already holds this entry; nothing changed\n", res.File)
			}
			return nil
		},
	}
}
