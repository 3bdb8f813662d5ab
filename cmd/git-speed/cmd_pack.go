package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
	"github.com/git-speed/git-speed/layers/pack"
)

func cmdPack() *cli.Command {
	return &cli.Command{
		Name:      "pack",
		Usage:     "the files of the indexed tree that answer a question, with snippets, as evidence",
		UsageText: "git speed pack QUERY... [--tag PATH]... [--max-items N] [--budget T] [--history N] [--rev R | --worktree] [--json]\n   git speed pack - < request.txt",
		Description: "Scores every file against the request (words of a question, a bug report or a commit\n" +
			"message; - reads it from stdin): lexical match over identifiers, definitions, doc lines,\n" +
			"headings, imports, paths and content, tagged and mentioned paths, files dirty in git\n" +
			"status, the code symbol graph and recent commits whose messages match. Prints the best\n" +
			"files with the reason and signals, symbols and a snippet cut at definition boundaries,\n" +
			"never over T tokens (exact). Exit 2 on a bad request.",
		Flags: append(packFlags(), jsonFlag),
		Action: func(c *cli.Context) error {
			s, ctx, req, err := packRequest(c)
			if err != nil {
				return err
			}
			p, err := s.Pack(ctx, req)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(c.App.Writer, p)
			}
			_, err = fmt.Fprint(c.App.Writer, p.Text())
			return err
		},
	}
}

// packFlags are the flags of a pack request, shared by pack and report pack.
func packFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "tag", Usage: "a file the request is about: always in the pack, first (repeatable)"},
		&cli.IntFlag{Name: "max-items", Value: pack.DefaultMaxItems, Usage: "files at most"},
		&cli.IntFlag{Name: "budget", Value: pack.DefaultBudget, Usage: "tokens of the rendered pack at most"},
		&cli.IntFlag{Name: "history", Value: app.DefaultHistory, Usage: "recent commits whose messages are matched (0: none)"},
		revFlag, worktreeFlag,
	}
}

// packRequest reads a pack request from the command line (QUERY... or -
// for stdin, and packFlags) and opens the repository.
func packRequest(c *cli.Context) (*app.Session, context.Context, app.PackRequest, error) {
	var req app.PackRequest
	query := strings.Join(c.Args().Slice(), " ")
	if c.Args().Len() == 1 && c.Args().First() == "-" {
		b, err := io.ReadAll(io.LimitReader(os.Stdin, pack.MaxQueryBytes+1))
		if err != nil {
			return nil, nil, req, err
		}
		query = string(b)
	}
	s, ctx, err := open(c)
	if err != nil {
		return nil, nil, req, err
	}
	history := c.Int("history")
	req = app.PackRequest{Rev: rev(c), Query: query, MaxItems: c.Int("max-items"), Budget: c.Int("budget"), History: &history}
	// Zero is "the default" in a request, not on the command line.
	if req.MaxItems <= 0 {
		return nil, nil, req, usagef("--max-items must be a positive number, got %d", req.MaxItems)
	}
	if req.Budget <= 0 {
		return nil, nil, req, usagef("--budget must be a positive number of tokens, got %d", req.Budget)
	}
	for _, t := range c.StringSlice("tag") {
		p, err := s.RepoPath(t)
		if err != nil {
			return nil, nil, req, usagef("--tag %s: %v", t, err)
		}
		req.Tags = append(req.Tags, p)
	}
	return s, ctx, req, nil
}
