package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/layers/world/build"
)

func cmdGC() *cli.Command {
	return &cli.Command{
		Name:      "gc",
		Usage:     "drop stored indexes of trees no branch or tag reaches",
		UsageText: "git speed gc [--keep N] [--json]",
		Description: "Keeps the index of every tree reachable from a branch or tag, plus the N most recently\n" +
			"indexed others (store.keep in speed.toml), and the facts those trees use. The store is\n" +
			"rewritten as a new commit without history: push it with a leading '+' afterwards.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "keep", Value: -1, Usage: "unreachable trees to keep (default store.keep)"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			e, err := openEnv(c)
			if err != nil {
				return err
			}
			keep := e.cfg.Store.Keep
			if c.IsSet("keep") {
				if c.Int("keep") < 0 {
					return usagef("--keep must be 0 or more, got %d", c.Int("keep"))
				}
				keep = c.Int("keep")
			}
			st := e.repo.Store()
			stats, err := st.GC(keep, func(tree, digest string) ([]string, error) {
				return build.FactsKeys(st, tree, digest)
			})
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(e.stdout, map[string]int{
					"trees_kept": stats.TreesKept, "trees_dropped": stats.TreesDropped,
					"facts_kept": stats.FactsKept, "facts_dropped": stats.FactsDropped,
				})
			}
			fmt.Fprintf(e.stderr, "git-speed: kept %d trees and %d facts; dropped %d trees and %d facts\n",
				stats.TreesKept, stats.FactsKept, stats.TreesDropped, stats.FactsDropped)
			return nil
		},
	}
}
