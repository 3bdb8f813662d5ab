package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
	"github.com/git-speed/git-speed/layers/pack"
)

// Globs of the files a lookup may return, for pack and symbols.
var (
	pathFlag    = &cli.StringSliceFlag{Name: "path", Usage: "only files matching this glob (repeatable; \"src/**\", \"*.go\")"}
	excludeFlag = &cli.StringSliceFlag{Name: "exclude", Usage: "no files matching this glob (repeatable; \"dist/**\", \"*.min.js\")"}
)

func cmdPack() *cli.Command {
	return &cli.Command{
		Name:  "pack",
		Usage: "the files of the indexed tree that answer a question, with snippets, as evidence",
		UsageText: "git speed pack QUERY... [--tag PATH]... [--path GLOB]... [--exclude GLOB]... [--max-items N] [--budget T] [--history N]\n" +
			"      [--compact | --explain] [--rev R | --worktree] [--json]\n" +
			"   git speed pack [flags] -- REQUEST THAT STARTS WITH A DASH\n" +
			"   git speed pack [flags] - < request.txt     (or piped, with no QUERY)\n" +
			"   git speed pack [flags] --request-file FILE",
		Description: "Scores every file against the request (words of a question, a bug report or a commit\n" +
			"message): lexical match over identifiers, definitions, doc lines, headings, imports,\n" +
			"paths and content, tagged and mentioned paths, files dirty in git status, the code\n" +
			"symbol graph and recent commits whose messages match. Prints the best files with the\n" +
			"reason, symbols and a snippet of the definition the request names best, never over T\n" +
			"tokens (exact). A request of any length is read: past 4 MB it is cut, and past 64\n" +
			"distinct terms the ones that say most are kept (the first line's, identifiers, paths,\n" +
			"traceback frames); a cut request says so on stderr and in the JSON. --compact prints one\n" +
			"line per file (path:lines and reason) for triage; --explain adds the evidence lines\n" +
			"(terms matched per field, history). Exit 2 on a bad request.",
		Flags: append(packFlags(),
			&cli.BoolFlag{Name: "compact", Usage: "one line per file: path:lines and the reason"},
			&cli.BoolFlag{Name: "explain", Usage: "show every evidence line: terms matched per field, history"},
			jsonFlag),
		// A request pasted without -- that starts with a dash reads as
		// flags: say how to give it, in one sentence, not a help page.
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return usagef("%v; a request that starts with - goes after --, on stdin or in --request-file", err)
		},
		Action: func(c *cli.Context) error {
			if c.Bool("compact") && c.Bool("explain") {
				return usagef("--compact and --explain do not go together")
			}
			s, ctx, req, err := packRequest(c)
			if err != nil {
				return err
			}
			p, err := s.Pack(ctx, req)
			if err != nil {
				return err
			}
			switch {
			case c.Bool("json"):
				return printJSON(c.App.Writer, p)
			case c.Bool("compact"):
				_, err = fmt.Fprint(c.App.Writer, p.Compact())
			default:
				_, err = fmt.Fprint(c.App.Writer, p.Text())
			}
			return err
		},
	}
}

// packFlags are the flags of a pack request, shared by pack and report pack.
func packFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "tag", Usage: "a file the request is about: always in the pack, first (repeatable)"},
		pathFlag, excludeFlag,
		&cli.IntFlag{Name: "max-items", Value: pack.DefaultMaxItems, Usage: "files at most"},
		&cli.IntFlag{Name: "budget", Value: pack.DefaultBudget, Usage: "tokens of the rendered pack at most"},
		&cli.IntFlag{Name: "history", Value: app.DefaultHistory, Usage: "recent commits whose messages are matched (0: none)"},
		&cli.StringFlag{Name: "request-file", Usage: "read the request from this file (- for stdin)"},
		revFlag, worktreeFlag,
	}
}

// packRequest reads a pack request from the command line (readRequest
// and packFlags) and opens the repository.
func packRequest(c *cli.Context) (*app.Session, context.Context, app.PackRequest, error) {
	var req app.PackRequest
	query, err := readRequest(c)
	if err != nil {
		return nil, nil, req, err
	}
	s, ctx, err := open(c)
	if err != nil {
		return nil, nil, req, err
	}
	history := c.Int("history")
	req = app.PackRequest{Rev: rev(c), Query: query, MaxItems: c.Int("max-items"), Budget: c.Int("budget"), History: &history,
		Paths: c.StringSlice("path"), Exclude: c.StringSlice("exclude"), Explain: c.Bool("explain")}
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

// readRequest reads the pack's request: from --request-file, from stdin
// when the only argument is - (or there is none and stdin is a pipe or a
// file), else the arguments joined by spaces. At most a byte over
// pack.MaxQueryBytes is read, so the pack can say the request was cut.
func readRequest(c *cli.Context) (string, error) {
	args := c.Args().Slice()
	if f := c.String("request-file"); f != "" {
		if len(args) > 0 {
			return "", usagef("give the request as arguments or in --request-file, not both")
		}
		if f == "-" {
			return readStdin(false)
		}
		fh, err := os.Open(f)
		if err != nil {
			return "", usagef("--request-file: %v", err)
		}
		defer fh.Close()
		b, err := io.ReadAll(io.LimitReader(fh, pack.MaxQueryBytes+1))
		if err != nil {
			return "", usagef("--request-file %s: %v", f, err)
		}
		return string(b), nil
	}
	switch {
	case len(args) == 1 && args[0] == "-":
		return readStdin(false)
	case len(args) == 0 && piped(os.Stdin):
		return readStdin(true)
	}
	// The -- that ends the flags, when flags came after words.
	if i := slices.Index(args, "--"); i >= 0 {
		args = slices.Delete(slices.Clone(args), i, i+1)
	}
	return strings.Join(args, " "), nil
}

// stdinWait is how long a pack with no arguments waits for the first
// byte of a piped request before it says there is none: an agent's shell
// may leave stdin an open pipe that never ends.
const stdinWait = 5 * time.Second

// readStdin reads a request from stdin; when wait is set, it gives up if
// no byte comes within stdinWait.
func readStdin(wait bool) (string, error) {
	type result struct {
		b   []byte
		err error
	}
	r := io.LimitReader(os.Stdin, pack.MaxQueryBytes+1)
	if !wait {
		b, err := io.ReadAll(r)
		return string(b), err
	}
	first := make(chan result, 1)
	go func() {
		b := make([]byte, 1)
		n, err := r.Read(b)
		first <- result{b[:n], err}
	}()
	select {
	case res := <-first:
		if len(res.b) == 0 {
			if errors.Is(res.err, io.EOF) {
				res.err = nil
			}
			return "", res.err
		}
		rest, err := io.ReadAll(r)
		return string(res.b) + string(rest), err
	case <-time.After(stdinWait):
		return "", usagef("no request: stdin is a pipe that sent nothing in %s; give the request as arguments, after --, on stdin with -, or in --request-file", stdinWait)
	}
}

// piped reports whether f is a pipe or a regular file (not a terminal,
// not /dev/null).
func piped(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && (st.Mode()&os.ModeNamedPipe != 0 || st.Mode().IsRegular())
}
