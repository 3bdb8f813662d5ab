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
)

// loadWorld opens the index of rev's tree, indexing it first when it is
// not stored yet (with a note on stderr).
func loadWorld(e *env, rev string) (*build.World, error) {
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
	w, err := loadWorld(e, c.String("rev"))
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
