package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/layers/pack"
	"github.com/git-speed/git-speed/layers/world/build"
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
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "tag", Usage: "a file the request is about: always in the pack, first (repeatable)"},
			&cli.IntFlag{Name: "max-items", Value: pack.DefaultMaxItems, Usage: "files at most"},
			&cli.IntFlag{Name: "budget", Value: pack.DefaultBudget, Usage: "tokens of the rendered pack at most"},
			&cli.IntFlag{Name: "history", Value: defaultHistory, Usage: "recent commits whose messages are matched (0: none)"},
			jsonFlag, revFlag, worktreeFlag,
		},
		Action: func(c *cli.Context) error {
			query := strings.Join(c.Args().Slice(), " ")
			if c.Args().Len() == 1 && c.Args().First() == "-" {
				b, err := io.ReadAll(io.LimitReader(os.Stdin, pack.MaxQueryBytes+1))
				if err != nil {
					return err
				}
				query = string(b)
			}
			e, err := openEnv(c)
			if err != nil {
				return err
			}
			// The tokenizer's vocabulary takes 30 ms to build: build it
			// while the index opens and the request is scored. A pack's
			// heap stays small (tens of MB), so collect less often, as
			// scope and map do.
			go func() { _, _ = e.counter() }()
			defer debug.SetGCPercent(debug.SetGCPercent(400))
			rev, err := revArg(c)
			if err != nil {
				return err
			}
			opt := packOptions{Query: query, MaxItems: c.Int("max-items"), Budget: c.Int("budget"), History: c.Int("history"), Rev: rev}
			for _, t := range c.StringSlice("tag") {
				p, err := e.repoPath(t)
				if err != nil {
					return usagef("--tag %s: %v", t, err)
				}
				opt.Tags = append(opt.Tags, p)
			}
			if err := opt.check(); err != nil {
				return err
			}
			start := time.Now()
			git := e.gitContext(opt) // runs while the index is opened
			w, err := openWorldLazy(e, rev)
			if err != nil {
				return err
			}
			defer w.Close()
			e.trace("load index", start)
			p, err := e.pack(w, opt, git)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(e.stdout, p)
			}
			_, err = fmt.Fprint(e.stdout, p.Text())
			return err
		},
	}
}

// defaultHistory is how many recent commits the history signal reads.
const defaultHistory = 300

// packOptions is one pack request, as the CLI and the MCP server give it.
type packOptions struct {
	Query    string
	Tags     []string // repo-relative
	MaxItems int
	Budget   int
	History  int
	Rev      string // the revision w was loaded from (for history); worktreeRev for the work tree
}

func (o *packOptions) check() error {
	if o.MaxItems <= 0 {
		return usagef("--max-items must be a positive number, got %d", o.MaxItems)
	}
	if o.Budget <= 0 {
		return usagef("--budget must be a positive number of tokens, got %d", o.Budget)
	}
	if o.History < 0 {
		return usagef("--history must be 0 or more commits, got %d", o.History)
	}
	return nil
}

// gitInfo is what a pack reads of git besides the index: the work tree's
// status and the recent history.
type gitInfo struct {
	status    []pack.Status
	untracked bool // status lists untracked files
	history   []pack.Commit
}

// untrackedIndexBytes is the largest git index (about 8,000 tracked files)
// for which a pack of a revision lists untracked files in its git status.
const untrackedIndexBytes = 1 << 20

// gitContext reads git status and the recent history in the background;
// the result is read from the channel once.
func (e *env) gitContext(o packOptions) <-chan gitInfo {
	ch := make(chan gitInfo, 1)
	go func() {
		start := time.Now()
		var gi gitInfo
		// Listing untracked files reads every folder of the work tree
		// (0.1 s of CPU on kubernetes); a pack scores only indexed files,
		// so it lists them only where that is cheap or the work tree is
		// what is indexed.
		gi.untracked = o.Rev == worktreeRev || e.repo.IndexBytes() <= untrackedIndexBytes
		if st, err := e.repo.Status(gi.untracked); err == nil {
			gi.status = []pack.Status{}
			for _, s := range st {
				gi.status = append(gi.status, pack.Status{Path: s.Path, Code: s.Code})
			}
		}
		if o.History > 0 {
			rev := o.Rev
			if rev == worktreeRev || rev == "" {
				rev = "HEAD"
			}
			if commit, _, err := e.repo.Resolve(rev); err == nil && commit != "" {
				if log, err := e.repo.RecentChanges(commit, o.History); err == nil {
					for _, l := range log {
						gi.history = append(gi.history, pack.Commit{ID: l.Commit, Message: l.Message, Paths: l.Paths})
					}
				}
			}
		}
		e.trace("git status and history", start)
		ch <- gi
	}()
	return ch
}

// pack builds the context pack of o over w: the one code path of the
// pack command and the MCP pack tool. git is gitContext's result.
func (e *env) pack(w *build.World, o packOptions, git <-chan gitInfo) (*pack.Pack, error) {
	cnt, err := e.counter()
	if err != nil {
		return nil, err
	}
	req := pack.Request{Query: o.Query, Tags: o.Tags, MaxItems: o.MaxItems, Budget: o.Budget, Counter: cnt}
	req.Redact = func(path, text string) string { // the one redaction layer, for snippets
		if t, err := e.redact(path, text); err == nil {
			return t
		}
		return redactFailed
	}
	start := time.Now()
	defer e.trace("pack", start)
	gi := <-git
	req.Status, req.Untracked, req.History = gi.status, gi.untracked, gi.history
	if tracing() {
		req.Trace = func(phase string, d time.Duration) {
			fmt.Fprintf(e.stderr, "trace git-speed: pack %s: %.1f ms\n", phase, float64(d.Microseconds())/1000)
		}
	}
	p, err := pack.Build(w, req)
	if errors.Is(err, pack.ErrBadRequest) {
		return nil, usagef("%v", err)
	}
	return p, err
}

// trace prints how long a phase took since start (GIT_TRACE).
func (e *env) trace(phase string, start time.Time) {
	if tracing() {
		fmt.Fprintf(e.stderr, "trace git-speed: %s: %.1f ms\n", phase, float64(time.Since(start).Microseconds())/1000)
	}
}

// openWorldLazy is loadWorld with a World that reads the project map one
// folder at a time (build.Open): a pack needs a few rows, not all.
func openWorldLazy(e *env, rev string) (*build.World, error) {
	if rev != worktreeRev {
		if _, tree, err := e.repo.Resolve(rev); err == nil {
			if w, err := build.Open(e.repo, tree, e.cfg); err == nil {
				return w, nil
			}
		}
	}
	w, err := loadWorld(e, rev)
	if err != nil {
		return nil, err
	}
	return w, nil
}

// redactFailed stands for a text the redaction layer could not read; it
// never shows the text itself.
const redactFailed = "***REDACTED(redaction unavailable)***"
