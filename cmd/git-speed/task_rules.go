package main

import (
	"os"
	"path"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/prompt"
	"github.com/git-speed/git-speed/layers/rules"
)

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
