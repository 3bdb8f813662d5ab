package main

import (
	"os"
	"path/filepath"

	"github.com/git-speed/git-speed/layers/agent/instructions"
	"github.com/git-speed/git-speed/layers/prompt"
)

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
func (e *env) instructionOptions(taskFiles []string, budget int, everywhere bool, count func(string) int) instructions.Options {
	a := e.cfg.Agent
	o := instructions.Options{Names: a.InstructionFiles, Root: e.top, TaskFiles: taskFiles, MaxFileBytes: a.InstructionMaxBytes, Budget: budget, Count: count}
	if everywhere {
		if a.GlobalInstructions {
			o.GlobalDir = globalInstructionDir()
		}
		o.Ancestors = a.AncestorInstructions && e.top != ""
		o.Home, _ = os.UserHomeDir()
	}
	return o
}

// renderAgentSections are the agent's sections of a stage prompt: the
// repository's instruction files for the task's files, within the share of
// the stage's budget speed.toml gives them.
func (e *env) renderAgentSections(taskFiles []string, total int, count func(string) int) []prompt.AgentSection {
	share := e.cfg.Agent.RenderInstructions
	if share <= 0 || e.top == "" {
		return nil
	}
	res := instructions.Discover(e.instructionOptions(taskFiles, int(float64(total)*share), false, count))
	for _, w := range res.Warnings {
		e.warnf("%s", w)
	}
	if res.Text == "" {
		return nil
	}
	return []prompt.AgentSection{{Name: "instructions", Text: res.Text}}
}
