package main

import (
	"os"
	"path"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/prompt"
	"github.com/git-speed/git-speed/layers/rules"
	"github.com/git-speed/git-speed/layers/split"
)

// What a prompt carries besides Layer 2's artifacts: the security rules for
// the task's files and the agent command files the task names.

// taskRules summarises the security rules that apply to the files task t
// creates or modifies (the library's and the repository's <speed-dir>/rules)
// within the share of the stage's task_context that [rules] share gives
// them; total is the stage's budget.
func (e *env) taskRules(t *feature.Task, total int, cnt tokens.Counter) prompt.Rules {
	if !e.cfg.Rules.Enabled || t == nil {
		return prompt.Rules{}
	}
	var repo []*rules.File
	if e.top != "" {
		var warns []rules.Warning
		repo, warns = rules.LoadRepo(os.DirFS(e.top), path.Join(e.speedDir, "rules"))
		for _, w := range warns {
			e.warnf("%s", w)
		}
	}
	budget := int(float64(total) * e.cfg.Budget.Shares.TaskContext * e.cfg.Rules.Share)
	s := rules.For(rules.Library(), repo, t.FilesTouched, budget, cnt.Count)
	return prompt.Rules{Text: s.Text, Sources: s.Sources, Omitted: s.Omitted, Budget: budget}
}

// taskCommands loads the agent command files task t names (commands =
// [...]) from the work tree: the core of a split file, with its details
// when t sets command_details. A file that cannot be read is a warning.
func (e *env) taskCommands(t *feature.Task) []prompt.Command {
	if t == nil || e.top == "" {
		return nil
	}
	fsys := os.DirFS(e.top)
	var out []prompt.Command
	for _, p := range t.Commands {
		text, err := split.Load(fsys, p, t.CommandDetails)
		if err != nil {
			e.warnf("%s: commands: %s cannot be read: %v", t.Path, p, err)
			continue
		}
		core, _ := split.Names(p)
		_, serr := os.Stat(path.Join(e.top, core))
		out = append(out, prompt.Command{Path: p, Text: text, Details: t.CommandDetails, Split: serr == nil})
	}
	return out
}
