package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
)

func cmdIndex() *cli.Command {
	return &cli.Command{
		Name:      "index",
		Usage:     "build Layer 1 (project map, facts, code symbol graph) for a tree",
		UsageText: "git speed index [--rev R | --worktree] [--shard K/N] [--force] [--json]",
		Description: "Indexes the tree of R (any commit-ish or tree-ish; default HEAD) into refs/speed.\n" +
			"With --worktree it indexes the work tree as it is now: tracked files with their edits,\n" +
			"untracked files git does not ignore, and deletions, written as a tree through a private\n" +
			"copy of the index (your index, HEAD, branches and stash are never touched).\n" +
			"Only blobs never seen before are parsed; a tree already indexed costs nothing.\n\n" +
			"With --shard K/N it parses only part K of N of the tree (the files whose blob ids fall in\n" +
			"it) and stores their facts under refs/speed/parts/<tree>/<K>-of-<N>, moving no other ref:\n" +
			"N machines each run one part and push 'refs/speed/*:refs/speed/*'; a plain index anywhere\n" +
			"they are fetched takes the parts' facts instead of parsing (docs/shards.md).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "rev", Value: "HEAD", Usage: "commit or tree to index"},
			worktreeFlag,
			&cli.BoolFlag{Name: "force", Usage: "parse every file again, ignoring what is stored"},
			&cli.StringFlag{Name: "shard", Usage: "parse only part `K/N` of the tree and store it under refs/speed/parts/"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors"},
			// The benchmarks' baseline: read and parse the same files on the
			// same workers, and do nothing else; --code-only parses source
			// code alone, not the data formats' parsers (docs/live.md).
			&cli.BoolFlag{Name: "parse-only", Hidden: true},
			&cli.BoolFlag{Name: "code-only", Hidden: true},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			s, ctx, err := open(c)
			if err != nil {
				return err
			}
			out := c.App.Writer
			if c.Bool("parse-only") {
				res, err := s.ParseOnly(ctx, c.String("rev"), !c.Bool("code-only"))
				if err != nil {
					return err
				}
				return printJSON(out, res)
			}
			quiet := c.Bool("quiet")
			if c.IsSet("shard") {
				return indexPart(c, s, ctx, quiet)
			}
			res, err := s.Index(ctx, app.IndexRequest{Rev: rev(c), Force: c.Bool("force"), Quiet: quiet})
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(out, res)
			}
			if quiet {
				return nil
			}
			errw := c.App.ErrWriter
			if res.UpToDate {
				fmt.Fprintf(errw, "git-speed: tree %s is up to date: %d files, parsed 0 (%d ms)\n", short(res.Tree), res.Files, res.ElapsedMS)
				return nil
			}
			fmt.Fprintf(errw, "git-speed: indexed tree %s: %d files, parsed %d, reused %d, skipped %d; %d symbols, %d edges (%d ms)\n",
				short(res.Tree), res.Files, res.Parsed, res.Reused, res.Skipped, res.Symbols, res.Edges, res.ElapsedMS)
			if res.OutputFiles > 0 {
				fmt.Fprintf(errw, "git-speed: %s\n", s.OutputNote(res))
			}
			if res.FromParts > 0 {
				fmt.Fprintf(errw, "git-speed: took the facts of %d files from %d parts\n", res.FromParts, len(res.Parts))
			}
			return nil
		},
	}
}

func cmdStatus() *cli.Command {
	return &cli.Command{
		Name:      "status",
		Usage:     "show whether HEAD's tree is indexed, the store's size and the hooks' state",
		UsageText: "git speed status [--json]",
		Flags:     []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			s, ctx, err := open(c)
			if err != nil {
				return err
			}
			rep, err := s.Status(ctx)
			if err != nil {
				return err
			}
			w := c.App.Writer
			if c.Bool("json") {
				return printJSON(w, rep)
			}
			if rep.HeadTree == "" {
				fmt.Fprintln(w, "HEAD:    no commits yet")
			} else {
				fmt.Fprintf(w, "HEAD:    %s (tree %s)\n", short(rep.HeadCommit), short(rep.HeadTree))
			}
			fmt.Fprintf(w, "index:   %s", rep.State)
			if rep.Indexed {
				fmt.Fprintf(w, " (%d files)", rep.Files)
			}
			fmt.Fprintf(w, "\nstore:   %d trees, %d objects, %d bytes under refs/speed\n", rep.Trees, rep.Store.Objects, rep.Store.Bytes)
			fmt.Fprintf(w, "objects: %d loose (%d bytes), %d packs (%d bytes)", rep.Store.Loose, rep.Store.LooseBytes, rep.Store.Packs, rep.Store.PackBytes)
			if rep.Store.Parts > 0 {
				fmt.Fprintf(w, "; %d parts under refs/speed/parts", rep.Store.Parts)
			}
			fmt.Fprintln(w)
			if ws := rep.Worktree; ws != nil {
				switch {
				case !ws.Dirty:
					fmt.Fprintln(w, "work:    same as HEAD")
				case ws.Indexed:
					fmt.Fprintf(w, "work:    differs from HEAD; indexed (tree %s)\n", short(ws.Tree))
				default:
					fmt.Fprintf(w, "work:    differs from HEAD; not indexed (git speed index --worktree)\n")
				}
			}
			for _, h := range rep.Hooks {
				fmt.Fprintf(w, "hook:    %s %s (%s)\n", h.Name, h.State, h.Path)
			}
			for _, p := range rep.Problems {
				fmt.Fprintf(w, "problem: %s\n", p)
			}
			return nil
		},
	}
}

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
			keep := -1
			if c.IsSet("keep") {
				if keep = c.Int("keep"); keep < 0 {
					return usagef("--keep must be 0 or more, got %d", keep)
				}
			}
			s, ctx, err := open(c)
			if err != nil {
				return err
			}
			stats, err := s.GC(ctx, keep)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(c.App.Writer, stats)
			}
			fmt.Fprintf(c.App.ErrWriter, "git-speed: kept %d trees and %d facts; dropped %d trees, %d facts and %d parts; %d loose objects and %d packs left\n",
				stats.TreesKept, stats.FactsKept, stats.TreesDropped, stats.FactsDropped, stats.PartsDropped, stats.Loose, stats.Packs)
			return nil
		},
	}
}

// indexPart runs `index --shard K/N`.
func indexPart(c *cli.Context, s *app.Session, ctx context.Context, quiet bool) error {
	k, n, err := app.ParsePart(c.String("shard"))
	if err != nil {
		return err
	}
	res, err := s.IndexPart(ctx, app.IndexPartRequest{Rev: rev(c), Part: k, Of: n, Force: c.Bool("force"), Quiet: quiet})
	if err != nil {
		return err
	}
	if c.Bool("json") {
		return printJSON(c.App.Writer, res)
	}
	if !quiet {
		fmt.Fprintf(c.App.ErrWriter, "git-speed: part %d-of-%d of tree %s: %d files, parsed %d, reused %d; %d facts under %s (%d ms)\n",
			k, n, short(res.Tree), res.Files, res.Parsed, res.Reused, res.Facts, res.Ref, res.ElapsedMS)
	}
	return nil
}
