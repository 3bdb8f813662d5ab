package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/hooks"
	"github.com/git-speed/git-speed/layers/world/build"
)

// statusReport is what `git speed status --json` prints.
type statusReport struct {
	HeadCommit string            `json:"head_commit"`
	HeadTree   string            `json:"head_tree"`
	Indexed    bool              `json:"indexed"`
	State      string            `json:"state"` // fresh | missing | option-mismatch | corrupt | no-commits
	Files      int               `json:"files,omitempty"`
	Trees      int               `json:"trees"`
	Store      storeSize         `json:"store"`
	Worktree   *worktreeState    `json:"worktree,omitempty"` // absent in a bare repository
	Hooks      []hooks.HookState `json:"hooks"`
	Problems   []string          `json:"problems,omitempty"`
}

// worktreeState says whether the work tree differs from HEAD and whether
// that state is indexed (`git speed index --worktree`).
type worktreeState struct {
	Dirty   bool   `json:"dirty"`
	Tree    string `json:"tree"`
	Indexed bool   `json:"indexed"`
}

type storeSize struct {
	Objects int   `json:"objects"`
	Bytes   int64 `json:"bytes"`
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
			e, err := openEnv(c)
			if err != nil {
				return err
			}
			rep := statusReport{State: "missing", Hooks: []hooks.HookState{}}
			commit, tree, err := e.repo.Head()
			switch {
			case errors.Is(err, gitstore.ErrNoCommits):
				rep.State = "no-commits"
			case err != nil:
				return err
			default:
				rep.HeadCommit, rep.HeadTree = commit, tree
			}
			st := e.repo.Store()
			trees, err := st.Trees()
			if err != nil {
				if !errors.Is(err, gitstore.ErrCorrupt) {
					return err
				}
				rep.State = "corrupt"
				rep.Problems = append(rep.Problems, err.Error()+"; `git speed index` rebuilds it")
			}
			rep.Trees = len(trees)
			if tree != "" && rep.State != "corrupt" {
				info, err := build.Status(e.repo, tree, e.cfg)
				if err != nil {
					rep.State = "corrupt"
					rep.Problems = append(rep.Problems, err.Error())
				} else {
					rep.State, rep.Files = info.State, info.Files
					rep.Indexed = info.State == "fresh"
				}
			}
			if e.top != "" && rep.State != "corrupt" {
				// Quiet: the paths a snapshot leaves out are index's to report.
				if snap, err := e.snapshot(true); err != nil {
					rep.Problems = append(rep.Problems, "work tree: "+err.Error())
				} else {
					ws := &worktreeState{Dirty: snap.Dirty, Tree: snap.Tree}
					if info, err := build.Status(e.repo, snap.Tree, e.cfg); err == nil {
						ws.Indexed = info.State == "fresh"
					}
					rep.Worktree = ws
				}
			}
			if objs, size, err := st.Size(); err == nil {
				rep.Store = storeSize{Objects: objs, Bytes: size}
			}
			if e.top != "" {
				if hs, err := hooks.Status(e.top, hooks.Options{}); err == nil {
					rep.Hooks = hs
				} else {
					rep.Problems = append(rep.Problems, "hooks: "+err.Error())
				}
			}
			if c.Bool("json") {
				return printJSON(e.stdout, rep)
			}
			w := e.stdout
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
