package app

import (
	"os"
	"path"
	"path/filepath"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/agent"
	"github.com/git-speed/git-speed/layers/agent/instructions"
	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/prompt"
	"github.com/git-speed/git-speed/layers/rules"
	"github.com/git-speed/git-speed/layers/split"
)

// What a prompt carries besides Layer 2's artifacts: the security rules for
// the task's files, the agent command files the task names, the
// repository's instruction files and, with a session, its window and the
// memories similar to the task.

// taskRules summarises the security rules that apply to the files task t
// creates or modifies (the library's and the repository's <speed-dir>/rules)
// within the share of the stage's task_context that [rules] share gives
// them; total is the stage's budget.
func (o *op) taskRules(t *feature.Task, total int, cnt tokens.Counter) prompt.Rules {
	if !o.cfg.Rules.Enabled || t == nil {
		return prompt.Rules{}
	}
	var repo []*rules.File
	if o.top != "" {
		var warns []rules.Warning
		repo, warns = rules.LoadRepo(os.DirFS(o.top), path.Join(o.speedDir, "rules"))
		for _, w := range warns {
			o.warnf("%s", w)
		}
	}
	budget := int(float64(total) * o.cfg.Budget.Shares.TaskContext * o.cfg.Rules.Share)
	s := rules.For(rules.Library(), repo, t.Writes(), budget, cnt.Count) // files it only reads draw no rules
	return prompt.Rules{Text: s.Text, Sources: s.Sources, Omitted: s.Omitted, Budget: budget}
}

// taskCommands loads the agent command files task t names (commands =
// [...]) from the work tree: the core of a split file, with its details
// when t sets command_details. A file that cannot be read is a warning.
func (o *op) taskCommands(t *feature.Task) []prompt.Command {
	if t == nil || o.top == "" {
		return nil
	}
	fsys := os.DirFS(o.top)
	var out []prompt.Command
	for _, p := range t.Commands {
		text, err := split.Load(fsys, p, t.CommandDetails)
		if err != nil {
			o.warnf("%s: commands: %s cannot be read: %v", t.Path, p, err)
			continue
		}
		core, _ := split.Names(p)
		_, serr := os.Stat(path.Join(o.top, core))
		out = append(out, prompt.Command{Path: p, Text: text, Details: t.CommandDetails, Split: serr == nil})
	}
	return out
}

// globalInstructionDir is $XDG_CONFIG_HOME/git-speed, or ~/.config/git-speed
// when XDG_CONFIG_HOME is unset or not absolute (the XDG rule).
func globalInstructionDir() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "git-speed")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "git-speed")
}

// instructionOptions are the discovery options speed.toml sets; everywhere
// is whether to read the global folder and the repository's ancestors
// (context does; render reads only the repository, so a rendered prompt
// does not depend on the machine).
func (o *op) instructionOptions(taskFiles []string, budget int, everywhere bool, count func(string) int) instructions.Options {
	a := o.cfg.Agent
	io := instructions.Options{Names: a.InstructionFiles, Root: o.top, TaskFiles: taskFiles, MaxFileBytes: a.InstructionMaxBytes, Budget: budget, Count: count}
	if everywhere {
		if a.GlobalInstructions {
			if io.GlobalDir = globalInstructionDir(); io.GlobalDir == "" {
				o.warnf("no home folder (HOME is not set) and no absolute XDG_CONFIG_HOME: the global instruction files are skipped")
			}
		}
		io.Ancestors = a.AncestorInstructions && o.top != ""
		io.Home, _ = os.UserHomeDir()
	}
	return io
}

// renderAgentSections are the agent's sections of a stage prompt: the
// repository's instruction files for the task's files, within the share of
// the stage's budget speed.toml gives them.
func (o *op) renderAgentSections(taskFiles []string, total int, count func(string) int) []prompt.AgentSection {
	share := o.cfg.Agent.RenderInstructions
	if share <= 0 || o.top == "" {
		return nil
	}
	res := instructions.Discover(o.instructionOptions(taskFiles, int(float64(total)*share), false, count))
	for _, w := range res.Warnings {
		o.warnf("%s", w)
	}
	if res.Text == "" {
		return nil
	}
	return []prompt.AgentSection{{Name: "instructions", Text: res.Text}}
}

// renderSessionSections are the session window and the memories similar
// to the task, for a render with a session, within their shares of the
// stage's budget.
func (o *op) renderSessionSections(id, taskText string, total int, count func(string) int) ([]prompt.AgentSection, error) {
	st, err := o.sessionStore()
	if err != nil {
		return nil, err
	}
	var warns []string
	w, err := o.sessionWindow(st, id, &warns)
	if err != nil {
		return nil, err
	}
	o.warnAll(warns)
	a := o.cfg.Agent
	hits, method, err := o.searchMemories(o.ctx, o.memoryStore(), taskText, a.MemoryTop)
	if err != nil {
		return nil, err
	}
	res, err := agent.Assemble(agent.Options{Task: taskText, Budget: total, Count: count,
		Shares: agent.Shares{Memories: a.Shares.Memories, Session: a.Shares.Session}, Window: w, Memories: hits, MemoryMethod: method})
	if err != nil {
		return nil, err
	}
	var sess, mem string
	for _, sec := range res.Report.Sections {
		switch sec.Name {
		case agent.SecSessionSummary, agent.SecRecentEvents:
			sess += sec.Text + "\n"
		case agent.SecMemories:
			mem = sec.Text
		}
	}
	return []prompt.AgentSection{{Name: "session", Text: sess}, {Name: "memories", Text: mem}}, nil
}

// warnAll reports each warning.
func (o *op) warnAll(warns []string) {
	for _, w := range warns {
		o.warnf("%s", w)
	}
}
