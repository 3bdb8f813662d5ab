package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
)

// interspersed moves a command's flags before its positional arguments, so
// `git speed scope F T --json` works like `git speed scope --json F T`:
// urfave/cli v2 stops reading flags at the first argument. Everything after
// "--" stays as it is.
func interspersed(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	i := 1
	// Global flags, then the command and any subcommand.
	for i < len(args) && isFlag(args[i]) {
		out = append(out, args[i])
		if takesValue(app.Flags, args[i]) && i+1 < len(args) {
			out = append(out, args[i+1])
			i++
		}
		i++
	}
	cmds := app.Commands
	var cmd *cli.Command
	for i < len(args) {
		c := find(cmds, args[i])
		if c == nil {
			break
		}
		out = append(out, args[i])
		i++
		cmd = c
		if len(c.Subcommands) == 0 {
			break
		}
		cmds = c.Subcommands
	}
	if cmd == nil || cmd.SkipFlagParsing {
		return append(out, args[i:]...)
	}
	var flags, pos []string
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i:]...)
			break
		}
		if !isFlag(a) {
			pos = append(pos, a)
			continue
		}
		if v, ok := optionalValue[strings.TrimLeft(a, "-")]; ok && (i+1 == len(args) || isFlag(args[i+1]) || args[i+1] == "--") {
			a += "=" + v // a bare --session: the session started last
		}
		flags = append(flags, a)
		if takesValue(cmd.Flags, a) && i+1 < len(args) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	return append(append(out, flags...), pos...)
}

// optionalValue are the flags that may be given bare (last, or before
// another flag), with the value they then take.
var optionalValue = map[string]string{"session": app.CurrentSession}

func isFlag(a string) bool { return len(a) > 1 && a[0] == '-' && a != "--" }

func find(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// takesValue reports whether flag arg (as written, "-x", "--name" or
// "--name=v") is one of flags that needs a separate value argument.
func takesValue(flags []cli.Flag, arg string) bool {
	name := strings.TrimLeft(arg, "-")
	if strings.Contains(name, "=") {
		return false
	}
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				if bf, ok := f.(*cli.BoolFlag); ok && bf != nil {
					return false
				}
				return true
			}
		}
	}
	return false
}
