package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/layers/prompt"
	"github.com/git-speed/git-speed/layers/world/align"
	"github.com/git-speed/git-speed/layers/world/build"
)

var (
	stageFlag  = &cli.StringFlag{Name: "stage", Value: "developer", Usage: "stage whose budget applies: architect, verifier, developer, reviewer, coherence or debugger"}
	budgetFlag = &cli.IntFlag{Name: "budget", Usage: "total tokens, overriding the stage's budget in speed.toml"}
	strictFlag = &cli.BoolFlag{Name: "strict", Usage: "a files_touched path absent from the tree is an error, not a warning"}
)

// featureTaskArgs checks for exactly FEATURE TASK.
func featureTaskArgs(c *cli.Context) (string, string, error) {
	if c.NArg() != 2 {
		return "", "", usagef("%s needs FEATURE and TASK, got %d argument(s)", c.Command.Name, c.NArg())
	}
	return c.Args().Get(0), c.Args().Get(1), nil
}

func budgetArg(c *cli.Context) (int, error) {
	if !c.IsSet("budget") {
		return 0, nil
	}
	if n := c.Int("budget"); n > 0 {
		return n, nil
	}
	return 0, usagef("--budget must be a positive number of tokens, got %d", c.Int("budget"))
}

func cmdScope() *cli.Command {
	return &cli.Command{
		Name:      "scope",
		Usage:     "scope one task's context under a token budget (Layer 2)",
		UsageText: "git speed scope FEATURE TASK [--stage S] [--budget N] [--strict] [--json] [--rev R | --worktree]",
		Description: "Resolves the task's files_touched in the code symbol graph, walks it (0 hops full, 1 hop\n" +
			"full or skeleton, 2 hops skeleton, 3+ dropped), collects upstream decisions, narrows the\n" +
			"spec and balances the budget, then writes manifest.json, budget.json and material.json\n" +
			"to .speed/features/FEATURE/context/task-TASK/. Every cut is recorded in budget.json.",
		Flags: []cli.Flag{stageFlag, budgetFlag, strictFlag, jsonFlag, revFlag, worktreeFlag},
		Action: func(c *cli.Context) error {
			// A scope keeps most of what it allocates to the end: it
			// collects rarely from the start (runScope did while
			// scoping; collecting as the artifacts were written marked
			// the whole index once more).
			defer build.CollectRarely()()
			featureName, task, err := featureTaskArgs(c)
			if err != nil {
				return err
			}
			budget, err := budgetArg(c)
			if err != nil {
				return err
			}
			e, err := openEnv(c)
			if err != nil {
				return err
			}
			e.focusTask = task
			defer e.waitKept()
			rev, err := revArg(c)
			if err != nil {
				return err
			}
			o := scopeOptions{stage: c.String("stage"), budget: budget, rev: rev, strict: c.Bool("strict")}
			// The same scope again, its artifacts still in place: the
			// kept record answers (scopecache.go). --json prints the
			// artifacts as held in memory, so it always runs in full.
			key := ""
			if !c.Bool("json") {
				if key = e.scopeKeyOf(featureName, task, &o); o.opened != nil {
					defer o.opened.Close()
				}
			}
			if rec, ok := e.cachedScope(key, featureName, task); key != "" && ok {
				for _, msg := range rec.Warnings {
					e.warnf("%s", msg)
				}
				if rec.OverBudget != "" {
					e.warnf("over budget: %s", rec.OverBudget)
				}
				fmt.Fprint(e.stdout, rec.Summary)
				fmt.Fprintf(e.stderr, "git-speed: wrote %s/\n", rel(e.top, filepath.Join(e.top, filepath.FromSlash(e.contextDir(featureName, task)))))
				return nil
			}
			res, w, _, err := e.runScope(featureName, task, o)
			if err != nil {
				return err
			}
			defer w.Close()
			dir, digests, err := e.writeScopeDigests(res, featureName, task)
			if err != nil {
				return err
			}
			if key != "" {
				e.keepScope(key, res, digests)
			}
			e.waitKept()
			if !res.Budget.WithinBudget {
				e.warnf("over budget: %s", res.Budget.OverBudget)
			}
			if c.Bool("json") {
				return printJSON(e.stdout, map[string]any{"dir": rel(e.top, dir), "manifest": res.Manifest, "budget": res.Budget})
			}
			fmt.Fprint(e.stdout, res.Summary())
			fmt.Fprintf(e.stderr, "git-speed: wrote %s/\n", rel(e.top, dir))
			return nil
		},
	}
}

func cmdRender() *cli.Command {
	return &cli.Command{
		Name:      "render",
		Usage:     "render a stage prompt for a task (Layer 3)",
		UsageText: "git speed render STAGE FEATURE TASK [--out FILE] [--json] [--budget N] [--log FILE] [--base REV] [--rev R | --worktree] [--session ID]",
		Description: "STAGE is architect, verifier, developer, reviewer, coherence or debugger. Scopes the task\n" +
			"first (rewriting stale artifacts), renders the stage template (Identity, Constraints,\n" +
			"Material, Traceability), writes .speed/features/FEATURE/context/task-TASK/STAGE.md and\n" +
			"prints the prompt on stdout. The per-section token report goes to stderr.\n" +
			"The repository's instruction files (AGENTS.md …) for the task's files are a section of\n" +
			"their own; --session ID adds the session window and similar memories (docs/agent.md).\n" +
			"Templates can be overridden in .speed/templates/STAGE.md.tmpl.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "also write the prompt to FILE"},
			budgetFlag, strictFlag, jsonFlag, revFlag,
			&cli.StringFlag{Name: "log", Usage: "debugger: the agent's failure output"},
			&cli.StringFlag{Name: "base", Usage: "reviewer: diff from REV instead of the task's base"},
			&cli.BoolFlag{Name: "worktree", Usage: "read the work tree as it is now, indexed on the fly, instead of --rev (the reviewer diffs against it)"},
			sessionFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 3 {
				return usagef("render needs STAGE, FEATURE and TASK, got %d argument(s)", c.NArg())
			}
			stage, featureName, task := c.Args().Get(0), c.Args().Get(1), c.Args().Get(2)
			budget, err := budgetArg(c)
			if err != nil {
				return err
			}
			e, err := openEnv(c)
			if err != nil {
				return err
			}
			if _, err := e.cfg.StageBudget(stage); err != nil {
				return usagef("%v", err)
			}
			e.focusTask = task
			rev, err := revArg(c)
			if err != nil {
				return err
			}
			o := renderOptions{scopeOptions: scopeOptions{budget: budget, rev: rev, strict: c.Bool("strict")},
				base: c.String("base"), worktree: c.Bool("worktree"), session: c.String("session")}
			if stage == "reviewer" && o.base == "" && !o.worktree {
				if err := e.defaultReviewBase(featureName, task, &o); err != nil {
					return err
				}
			}
			if f := c.String("log"); f != "" {
				b, err := os.ReadFile(f)
				if err != nil {
					return usagef("--log: %v", err)
				}
				// The log goes through the redaction layer like every input.
				if o.logText, err = e.redact(f, string(b)); err != nil {
					return err
				}
			}
			res, out, err := e.renderStage(stage, featureName, task, o)
			if err != nil {
				return err
			}
			var dir string
			if out.Report.Fallback != "" {
				// A fallback's Layer 2 artifacts are not the task's: keep
				// the stored ones, write only the prompt.
				dir = filepath.Join(e.top, filepath.FromSlash(e.contextDir(featureName, task)))
				err = os.MkdirAll(dir, 0o755)
			} else {
				dir, err = e.writeScope(res, featureName, task)
			}
			if err != nil {
				return err
			}
			file := filepath.Join(dir, stage+".md")
			if err := writeFileAtomic(file, []byte(out.Text)); err != nil {
				return err
			}
			rec := renderRecord{Tree: res.Manifest.Tree, Budget: budget, Worktree: o.worktree, Log: o.logText != "", Fallback: out.Report.Fallback != "", BaseNote: o.baseNote, Session: o.session}
			if stage == "reviewer" && !o.worktree {
				if rec.Base, err = e.reviewBase(featureName, task, o); err != nil {
					return err
				}
			}
			if err := recordRender(dir, stage, rec); err != nil {
				return err
			}
			if p := c.String("out"); p != "" {
				if err := os.WriteFile(p, []byte(out.Text), 0o644); err != nil {
					return err
				}
			}
			if c.Bool("json") {
				return printJSON(e.stdout, out)
			}
			r := out.Report
			for _, s := range r.Sections {
				fmt.Fprintf(e.stderr, "git-speed: %-13s %6d tokens\n", s.Name, s.Tokens)
				for _, p := range r.Parts {
					if p.Section == s.Name {
						fmt.Fprintf(e.stderr, "git-speed:   %-11s %6d tokens\n", p.Name, p.Tokens)
					}
				}
			}
			if r.Fallback != "" {
				fmt.Fprintf(e.stderr, "git-speed: fallback: the context is the task and its files in full, because: %s\n", r.Fallback)
			}
			fmt.Fprintf(e.stderr, "git-speed: total %d of %d tokens (%s); within budget: %v; remaining %d\n",
				r.TotalTokens, r.BudgetTokens, r.Tokenizer, r.WithinBudget, r.RemainingTokens)
			_, err = fmt.Fprint(e.stdout, out.Text)
			return err
		},
	}
}

func cmdClassify() *cli.Command {
	return &cli.Command{
		Name:      "classify",
		Usage:     "classify an agent's failure output against the task's scoped context",
		UsageText: "git speed classify FEATURE TASK --log FILE [--json]",
		Description: "context_cut when what failed names a file or symbol budget.json shows was cut or dropped;\n" +
			"otherwise build_error, test_failure, spec_gap, missing_file, timeout or unknown, with the\n" +
			"evidence lines. --log - reads standard input.",
		Flags: []cli.Flag{&cli.StringFlag{Name: "log", Required: true, Usage: "the failure output (- for stdin)"}, jsonFlag},
		Action: func(c *cli.Context) error {
			featureName, task, err := featureTaskArgs(c)
			if err != nil {
				return err
			}
			e, err := openEnv(c)
			if err != nil {
				return err
			}
			var logData []byte
			if f := c.String("log"); f == "-" {
				logData, err = readAll(os.Stdin)
			} else {
				logData, err = os.ReadFile(f)
			}
			if err != nil {
				return usagef("--log: %v", err)
			}
			ctx, err := prompt.Load(e.top + "/" + e.contextDir(featureName, task))
			if err != nil {
				return err
			}
			logText, err := e.redact(c.String("log"), string(logData))
			if err != nil {
				return err
			}
			cl := ctx.Classify(logText)
			if c.Bool("json") {
				return printJSON(e.stdout, cl)
			}
			fmt.Fprintf(e.stdout, "%s (confidence %.2f): %s\n", cl.Kind, cl.Confidence, cl.Summary)
			for _, ev := range cl.Evidence {
				fmt.Fprintf(e.stdout, "  %v\n", ev)
			}
			return nil
		},
	}
}

func cmdAlign() *cli.Command {
	return &cli.Command{
		Name:      "align",
		Usage:     "map a feature's requirements to the files and symbols that carry them",
		UsageText: "git speed align FEATURE [--json] [--rev R | --worktree]",
		Description: "Each requirement gets its evidence (explicit path or symbol mentions, identifier and term\n" +
			"matches, tasks citing it) and a status: aligned, partial or unaligned.",
		Flags: []cli.Flag{jsonFlag, revFlag, worktreeFlag},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("align needs FEATURE")
			}
			e, w, err := openWorld(c, false)
			if err != nil {
				return err
			}
			defer w.Close()
			f, err := e.loadFeature(c.Args().First(), w, false)
			if err != nil {
				return err
			}
			a, err := w.Alignment(f, func(msg string) { e.warnf("%s", msg) })
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(e.stdout, a)
			}
			_, err = fmt.Fprint(e.stdout, align.Render(a))
			return err
		},
	}
}
