package main

import "github.com/urfave/cli/v2"

// commands lists git-speed's subcommands, one file cmd_<verb>.go each.
func commands() []*cli.Command {
	return []*cli.Command{
		cmdInit(),
		cmdIndex(),
		cmdStatus(),
		cmdMap(),
		cmdSkeleton(),
		cmdGraph(),
		cmdSymbols(),
		cmdAlign(),
		cmdPack(),
		cmdMCP(),
		cmdScope(),
		cmdRender(),
		cmdSession(),
		cmdMemory(),
		cmdContext(),
		cmdUsage(),
		cmdClassify(),
		cmdSplit(),
		cmdEval(),
		cmdVerify(),
		cmdHooks(),
		cmdHook(),
		cmdGC(),
		cmdVersion(),
		cmdMan(),
	}
}

var jsonFlag = &cli.BoolFlag{Name: "json", Usage: "print the result as JSON on stdout"}

// noArgs refuses positional arguments for commands that take none.
func noArgs(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("%s takes no arguments, got %q", c.Command.Name, c.Args().First())
	}
	return nil
}
