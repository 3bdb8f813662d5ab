package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"
)

var outFlag = &cli.StringFlag{Name: "out", Usage: "write the page to FILE instead of stdout"}

func cmdReport() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "draw a task's scope or a context pack as one self-contained HTML page",
		UsageText: "git speed report scope FEATURE TASK [--out FILE] [scope flags]\n   git speed report pack QUERY... [--out FILE] [pack flags]",
		Description: "What an agent was given, to look at: the page needs no network (its style, script and\n" +
			"pictures are inline) and embeds the artifacts it shows (docs/report.md).",
		Subcommands: []*cli.Command{
			{
				Name:      "scope",
				Usage:     "the budget as a picture, each file with its signals and reason, every cut with its reason",
				UsageText: "git speed report scope FEATURE TASK [--out FILE] [--stage S] [--budget N] [--strict] [--rev R | --worktree]",
				Description: "Scopes the task in full (writing its context folder, as scope does), then draws the page:\n" +
					"the budget's dimensions and each delivered file's tokens by tier and distance, the files\n" +
					"with their signals and reasons, the cuts with theirs; budget.json and manifest.json are\n" +
					"embedded. A task whose scope fails still gets a page saying why; the same sentence goes\n" +
					"to stderr and the exit code is the scope's (1, or 2 for a mistake in the request).",
				Flags: []cli.Flag{outFlag, stageFlag, budgetFlag, strictFlag, revFlag, worktreeFlag},
				Action: func(c *cli.Context) error {
					s, ctx, req, err := scopeRequest(c)
					if err != nil {
						return err
					}
					res, err := s.ReportScope(ctx, req)
					if err != nil {
						return err
					}
					if err := writePage(c, res.Page); err != nil {
						return err
					}
					return res.Failure
				},
			},
			{
				Name:      "pack",
				Usage:     "a context pack's ranking as a picture, each file with its reason, evidence and snippet",
				UsageText: "git speed report pack QUERY... [--out FILE] [--tag PATH]... [--max-items N] [--budget T] [--history N] [--rev R | --worktree]\n   git speed report pack - < request.txt",
				Description: "Builds the pack as `git speed pack` does and draws it; the pack's JSON (pack --json)\n" +
					"is embedded. Exit 2 on a bad request.",
				Flags: append(packFlags(), outFlag),
				Action: func(c *cli.Context) error {
					s, ctx, req, err := packRequest(c)
					if err != nil {
						return err
					}
					res, err := s.ReportPack(ctx, req)
					if err != nil {
						return err
					}
					return writePage(c, res.Page)
				},
			},
		},
	}
}

// writePage writes a page to --out (saying so on stderr) or to stdout.
func writePage(c *cli.Context, page []byte) error {
	out := c.String("out")
	if out == "" {
		_, err := c.App.Writer.Write(page)
		return err
	}
	if err := writeAtomic(out, page); err != nil {
		return fmt.Errorf("--out %s: %v", out, err)
	}
	fmt.Fprintf(c.App.ErrWriter, "git-speed: wrote %s (%d KB)\n", out, (len(page)+1023)/1024)
	return nil
}

// writeAtomic writes data to path through a temporary file beside it, so
// that a page that cannot be written whole leaves what was there.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
