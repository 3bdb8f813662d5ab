package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
)

func cmdMap() *cli.Command {
	return &cli.Command{
		Name:      "map",
		Usage:     "print a ranked markdown repo map that fits a token budget",
		UsageText: "git speed map [--budget N] [--focus PATH]... [--mention WORD]... [--rev R | --worktree]",
		Description: "Files in order of personalised PageRank over the code symbol graph, each with its most\n" +
			"used signatures. The map never exceeds N tokens and fills at least 90 % of N when the\n" +
			"repository has enough to say.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "budget", Usage: "tokens (default map.budget in speed.toml)"},
			&cli.StringSliceFlag{Name: "focus", Usage: "a file the map is about (repeatable)"},
			&cli.StringSliceFlag{Name: "mention", Usage: "an identifier or word the map is about (repeatable)"},
			revFlag, worktreeFlag,
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			s, ctx, err := open(c)
			if err != nil {
				return err
			}
			budget, err := budgetArg(c)
			if err != nil {
				return err
			}
			req := app.MapRequest{Rev: rev(c), Budget: budget, Mentions: c.StringSlice("mention")}
			for _, f := range c.StringSlice("focus") {
				p, err := s.RepoPath(f)
				if err != nil {
					return err
				}
				req.Focus = append(req.Focus, p)
			}
			out, err := s.Map(ctx, req)
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(c.App.Writer, out)
			return err
		},
	}
}

func cmdSkeleton() *cli.Command {
	return &cli.Command{
		Name:      "skeleton",
		Usage:     "print the signature-only outline of files",
		UsageText: "git speed skeleton [--rev R | --worktree] PATH...",
		Description: "Declarations, type shapes, members and signatures with first doc lines; bodies are\n" +
			"replaced by a marker naming the elided lines, so exactly those can be read back.",
		Flags: []cli.Flag{revFlag, worktreeFlag},
		Action: func(c *cli.Context) error {
			if !c.Args().Present() {
				return usagef("skeleton needs at least one path")
			}
			s, ctx, err := open(c)
			if err != nil {
				return err
			}
			req := app.SkeletonRequest{Rev: rev(c)}
			for _, arg := range c.Args().Slice() {
				p, err := s.RepoPath(arg)
				if err != nil {
					return err
				}
				req.Paths = append(req.Paths, p)
			}
			out, err := s.Skeleton(ctx, req)
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(c.App.Writer, out)
			return err
		},
	}
}

func cmdGraph() *cli.Command {
	return &cli.Command{
		Name:      "graph",
		Usage:     "print the code symbol graph: file-level edges and domain clusters",
		UsageText: "git speed graph [--json | --dot [--focus PATH]... [--depth N]] [--rev R | --worktree]",
		Description: "An edge from A to B means A uses what B defines, with the number of references resolved.\n" +
			"Without --json, one edge per line: from<TAB>to<TAB>refs. With --json, weak_edges lists apart the\n" +
			"links a reader follows that no declaration binds (docs/graph-resolution.md, edge kinds).\n" +
			"With --dot, a Graphviz digraph (weak edges dashed, clusters boxed); --focus keeps the files\n" +
			"within --depth edges (default 1) of the given ones: git speed graph --dot | dot -Tsvg > g.svg.",
		Flags: []cli.Flag{jsonFlag, revFlag, worktreeFlag,
			&cli.BoolFlag{Name: "dot", Usage: "print Graphviz DOT"},
			&cli.StringSliceFlag{Name: "focus", Usage: "with --dot: a file to draw the neighbourhood of (repeatable)"},
			&cli.IntFlag{Name: "depth", Usage: "with --dot --focus: edges from the focus files (default 1)"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if !c.Bool("dot") && (c.IsSet("focus") || c.IsSet("depth")) {
				return usagef("--focus and --depth go with --dot")
			}
			if c.Bool("dot") && c.Bool("json") {
				return usagef("--dot and --json are two outputs: give one")
			}
			s, ctx, err := open(c)
			if err != nil {
				return err
			}
			if c.Bool("dot") {
				req := app.GraphDOTRequest{Rev: rev(c), Depth: c.Int("depth")}
				for _, f := range c.StringSlice("focus") {
					p, err := s.RepoPath(f)
					if err != nil {
						return usagef("--focus %s: %v", f, err)
					}
					req.Focus = append(req.Focus, p)
				}
				out, err := s.GraphDOT(ctx, req)
				if err != nil {
					return err
				}
				_, err = fmt.Fprint(c.App.Writer, out)
				return err
			}
			out, err := s.Graph(ctx, rev(c))
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(c.App.Writer, out)
			}
			var b strings.Builder
			for _, ed := range out.Edges {
				fmt.Fprintf(&b, "%s\t%s\t%d\n", ed.From, ed.To, ed.Refs)
			}
			for _, cl := range out.Clusters {
				fmt.Fprintf(&b, "# cluster %d %s: %d files\n", cl.ID, cl.Name, len(cl.Files))
			}
			_, err = fmt.Fprint(c.App.Writer, b.String())
			return err
		},
	}
}

func cmdSymbols() *cli.Command {
	return &cli.Command{
		Name:      "symbols",
		Usage:     "find the definitions of a name and the references the graph resolves to them",
		UsageText: "git speed symbols NAME [--path GLOB]... [--exclude GLOB]... [--json] [--rev R | --worktree]",
		Description: "NAME is a plain name (Handle) or a qualified one (Server.Handle). References (ref) are\n" +
			"listed from files the code symbol graph links to a defining file; after them, marked use?\n" +
			"(\"resolved\": false in JSON), the other lines that say the name as a word: a property of an\n" +
			"untyped object (opts.name), a destructuring, a string or a comment, at most 50.\n" +
			"--path and --exclude keep the files matching a glob, or leave them out (\"dist/**\").",
		Flags: []cli.Flag{pathFlag, excludeFlag, jsonFlag, revFlag, worktreeFlag},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("symbols needs exactly one NAME")
			}
			s, ctx, err := open(c)
			if err != nil {
				return err
			}
			res, err := s.Symbols(ctx, app.SymbolsRequest{Rev: rev(c), Name: c.Args().First(), Paths: c.StringSlice("path"), Exclude: c.StringSlice("exclude")})
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(c.App.Writer, res)
			}
			if len(res.Definitions) == 0 && len(res.References) == 0 {
				return fmt.Errorf("no definition of %s in tree %s", res.Name, short(res.Tree))
			}
			if len(res.Definitions) == 0 {
				fmt.Fprintf(c.App.ErrWriter, "git-speed: no definition of %s in tree %s; the lines that say it follow\n", res.Name, short(res.Tree))
			}
			_, err = fmt.Fprint(c.App.Writer, res.Text())
			return err
		},
	}
}
