package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/layers/scope"
	"github.com/git-speed/git-speed/layers/scope/eval"
	"github.com/git-speed/git-speed/layers/world/build"
	"github.com/git-speed/git-speed/layers/world/cochange"
)

func cmdEval() *cli.Command {
	return &cli.Command{
		Name:      "eval",
		Usage:     "replay recent multi-file commits as tasks and measure what scoping reaches",
		UsageText: "git speed eval [--commits N] [--budget B] [--stage S] [--ablate] [--messages] [--json] [--cases] [--rev R]",
		Description: "For each recent first-parent commit that changed several source files: the most-changed\n" +
			"non-test file is the task's files_touched, the other changed source files are the truth,\n" +
			"and the parent commit is the state. Reports the share of truth files the scope delivers\n" +
			"at each tier, their hop distances and tokens used, beside a whole-files-by-distance\n" +
			"baseline, overall and per language of the seed file. Co-change history is mined from the\n" +
			"500 first-parent commits up to each parent. --ablate adds one method per signal turned\n" +
			"off (no-graph, no-tests, no-names, no-cochange) and graph-only; --messages gives each\n" +
			"task its commit message as title and description. Indexes each parent tree it needs\n" +
			"(incrementally).",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "commits", Value: 100, Usage: "recent commits to look at"},
			&cli.IntFlag{Name: "budget", Value: 32000, Usage: "total tokens per task"},
			&cli.StringFlag{Name: "stage", Value: "developer", Usage: "stage whose shares apply"},
			&cli.BoolFlag{Name: "cases", Usage: "include every replayed commit in the JSON report"},
			&cli.BoolFlag{Name: "ablate", Usage: "also scope with each signal turned off, and with the graph alone"},
			&cli.BoolFlag{Name: "messages", Usage: "the commit message is the task's title and description"},
			&cli.StringFlag{Name: "weights", Usage: "with --pack: signal weights as JSON (fields of pack.Weights), for tuning"},
			&cli.BoolFlag{Name: "pack", Usage: "evaluate pack instead: request = commit message, target = changed files, recall@5/@10 beside BM25"},
			jsonFlag, revFlag,
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if c.Int("commits") <= 0 || c.Int("budget") <= 0 {
				return usagef("--commits and --budget must be positive")
			}
			e, err := openEnv(c)
			if err != nil {
				return err
			}
			cnt, err := e.counter()
			if err != nil {
				return err
			}
			h := &history{e: e, rev: c.String("rev")}
			defer h.close()
			if c.Bool("pack") {
				return h.evalPack(c.Int("commits"), c.String("weights"), c.Bool("cases"), c.Bool("json"))
			}
			rep, err := eval.Run(h, eval.EvalOptions{
				Commits: c.Int("commits"), Budget: c.Int("budget"), Stage: c.String("stage"),
				Config: e.cfg, Counter: cnt, Cases: c.Bool("cases"), Ablate: c.Bool("ablate"), Messages: c.Bool("messages"),
			})
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(e.stdout, rep)
			}
			_, err = fmt.Fprint(e.stdout, rep.Text())
			return err
		},
	}
}

// history is the repository's own history as eval replays it.
type history struct {
	e      *env
	rev    string
	worlds []*build.World
}

func (h *history) Commits(n int) ([]eval.Commit, error) {
	log, err := h.e.repo.FirstParentLog(h.rev, n)
	if err != nil {
		return nil, err
	}
	var out []eval.Commit
	for _, l := range log {
		if len(l.Parents) == 0 {
			continue
		}
		ch, err := h.e.repo.ChangedLines(l.Parents[0], l.Commit)
		if err != nil {
			return nil, err
		}
		msg, err := h.e.repo.Message(l.Commit)
		if err != nil {
			return nil, err
		}
		c := eval.Commit{ID: l.Commit, Parent: l.Parents[0], Lines: map[string]int{}, Message: msg}
		for _, x := range ch {
			c.Changed = append(c.Changed, x.Path)
			c.Lines[x.Path] = x.Lines
		}
		out = append(out, c)
	}
	return out, nil
}

func (h *history) WorldAt(commit string) (scope.World, error) {
	if _, err := runIndex(nil, h.e, commit, false, true); err != nil {
		return nil, err
	}
	_, tree, err := h.e.repo.Resolve(commit)
	if err != nil {
		return nil, err
	}
	w, err := build.Load(h.e.repo, tree, h.e.cfg)
	if err != nil {
		return nil, err
	}
	if err := w.LoadLinks(); err != nil {
		w.Close()
		return nil, err
	}
	h.worlds = append(h.worlds, w)
	return w, nil
}

// CoChangeAt mines the history up to commit (eval.CoChanges).
func (h *history) CoChangeAt(commit string) (*cochange.Index, error) {
	return h.e.coChange(commit), nil
}

func (h *history) close() {
	for _, w := range h.worlds {
		w.Close()
	}
}
