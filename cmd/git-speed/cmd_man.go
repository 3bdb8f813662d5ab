package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// cmdMan prints git-speed's man page, so `git speed --help` (which git turns
// into `man git-speed`) can work once it is installed:
//
//	git speed man > ~/.local/share/man/man1/git-speed.1
func cmdMan() *cli.Command {
	return &cli.Command{
		Name:      "man",
		Usage:     "print the man page (git speed man > ~/.local/share/man/man1/git-speed.1)",
		UsageText: "git speed man",
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			page, err := c.App.ToManWithSection(1)
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(c.App.Writer, page)
			return err
		},
	}
}
