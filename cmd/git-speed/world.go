package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/world/build"
	"github.com/git-speed/git-speed/layers/world/graph"
)

// worktreeRev stands for the work tree as it is now where a revision is
// expected (--worktree). It holds a ':', so no ref can be named so.
const worktreeRev = ":worktree:"

var worktreeFlag = &cli.BoolFlag{Name: "worktree", Usage: "read the work tree as it is now (edits, untracked files, deletions), indexed on the fly, instead of --rev"}

// revArg is the revision a command reads: --rev, or the work tree when
// --worktree is given.
func revArg(c *cli.Context) (string, error) {
	if c.Bool("worktree") {
		if c.IsSet("rev") {
			return "", usagef("--rev and --worktree name different trees; give one of them")
		}
		return worktreeRev, nil
	}
	return c.String("rev"), nil
}

// loadWorld opens the index of rev's tree, indexing it first when it is
// not stored yet (with a note on stderr). rev may be worktreeRev.
func loadWorld(e *env, rev string) (*build.World, error) {
	if rev == worktreeRev {
		res, err := runIndex(nil, e, rev, false, true)
		if err != nil {
			return nil, err
		}
		return build.Load(e.repo, res.Tree, e.cfg)
	}
	_, tree, err := e.repo.Resolve(rev)
	if err != nil {
		return nil, err
	}
	w, err := build.Load(e.repo, tree, e.cfg)
	if errors.Is(err, build.ErrNotIndexed) {
		fmt.Fprintf(e.stderr, "git-speed: tree %s is not indexed yet; indexing it\n", short(tree))
		if _, err := runIndex(nil, e, tree, false, false); err != nil {
			return nil, err
		}
		w, err = build.Load(e.repo, tree, e.cfg)
	}
	if err != nil {
		return nil, err
	}
	return w, nil
}

// openWorld opens the environment and the index of --rev's tree, with
// every file's links loaded when links is set.
func openWorld(c *cli.Context, links bool) (*env, *build.World, error) {
	e, err := openEnv(c)
	if err != nil {
		return nil, nil, err
	}
	rev, err := revArg(c)
	if err != nil {
		return nil, nil, err
	}
	w, err := loadWorld(e, rev)
	if err != nil {
		return nil, nil, err
	}
	if links {
		if err := w.LoadLinks(); err != nil {
			w.Close()
			return nil, nil, err
		}
	}
	return e, w, nil
}

// counter returns the token counter speed.toml chooses.
func (e *env) counter() (tokens.Counter, error) { return tokens.New(e.cfg.Tokens.Tokenizer) }

// repoPath turns a path given on the command line (relative to the current
// folder, or absolute) into a slash path relative to the work tree top.
func (e *env) repoPath(arg string) (string, error) {
	if e.top == "" {
		return filepath.ToSlash(filepath.Clean(arg)), nil
	}
	abs := arg
	if !filepath.IsAbs(abs) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		abs = filepath.Join(wd, arg)
	}
	top := e.top
	if t, err := filepath.EvalSymlinks(top); err == nil {
		top = t
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(d, filepath.Base(abs))
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", usagef("%s is outside the repository", arg)
	}
	return filepath.ToSlash(rel), nil
}

// repoMap renders the repo map of w. Without mentions it reads the links
// of only the files the map shows and of their heaviest users; mentions
// are matched against every file's definitions, so they read all links.
func repoMap(w *build.World, focus, mentions []string, budget int, count func(string) int) (string, error) {
	g := w.Graph()
	if len(mentions) == 0 {
		defs := w.Defs()
		return graph.RepoMapOf(g, graph.RankOf(g, defs, focus), defs, w.UsesOf, w.Facts, budget, count)
	}
	if err := w.LoadLinks(); err != nil {
		return "", err
	}
	return graph.RepoMap(g, graph.Rank(g, focus, mentions), w.Facts, budget, count)
}
