package config

import "fmt"

// Agent configures the agent's own context (layers/agent): instruction
// files, sessions, memories and `git speed context`.
type Agent struct {
	// InstructionFiles are the instruction file names in priority order;
	// in one folder the first present is read.
	InstructionFiles []string `toml:"instruction_files"`
	// InstructionMaxBytes: a larger instruction file is skipped with a warning.
	InstructionMaxBytes int64 `toml:"instruction_max_bytes"`
	// GlobalInstructions reads $XDG_CONFIG_HOME/git-speed (~/.config/git-speed).
	GlobalInstructions bool `toml:"global_instructions"`
	// AncestorInstructions reads the folders above the repository.
	AncestorInstructions bool `toml:"ancestor_instructions"`
	// RenderInstructions is the share of a stage's budget the instructions
	// section of a rendered prompt may take (repository files only, so a
	// rendered prompt does not depend on the machine); 0 leaves them out.
	RenderInstructions float64 `toml:"render_instructions"`
	// ContextBudget is the tokens of `git speed context` without --budget.
	ContextBudget int `toml:"context_budget"`
	// WindowTokens is the model's context window; CompactAt the share of it
	// at which a session compacts itself and usage says to checkpoint.
	WindowTokens int     `toml:"window_tokens"`
	CompactAt    float64 `toml:"compact_at"`
	// WindowEvents is how many events since the last compaction the session
	// window shows; PreservedTail how many the summary keeps verbatim.
	WindowEvents  int `toml:"window_events"`
	PreservedTail int `toml:"preserved_tail"`
	// MemoryTop is how many similar memories go into a context.
	MemoryTop int `toml:"memory_top"`
	// EmbedCommand, when not empty, is run with a text on stdin and prints
	// its embedding as a JSON array of numbers; memories are then searched
	// by dense cosine instead of BM25.
	EmbedCommand []string    `toml:"embed_command"`
	Shares       AgentShares `toml:"shares"`
}

// AgentShares split `git speed context`'s budget: each is a ceiling for its
// section; the repo map takes what the others leave.
type AgentShares struct {
	Instructions float64 `toml:"instructions"`
	Memories     float64 `toml:"memories"`
	Session      float64 `toml:"session"`
}

func defaultAgent() Agent {
	return Agent{
		InstructionFiles:     []string{"UMBRA.md", "AGENTS.md", "CLAUDE.md", "CODEX.md", "GEMINI.md", "QWEN.md", "SYSTEM.md"},
		InstructionMaxBytes:  256 << 10,
		GlobalInstructions:   true,
		AncestorInstructions: true,
		RenderInstructions:   0.10,
		ContextBudget:        32000,
		WindowTokens:         200000,
		CompactAt:            0.70,
		WindowEvents:         6,
		PreservedTail:        3,
		MemoryTop:            5,
		EmbedCommand:         []string{},
		Shares:               AgentShares{Instructions: 0.15, Memories: 0.10, Session: 0.25},
	}
}

func (a *Agent) validate() *Error {
	bad := func(key, format string, args ...any) *Error {
		return &Error{Key: "agent." + key, Msg: fmt.Sprintf(format, args...)}
	}
	if len(a.InstructionFiles) == 0 {
		return bad("instruction_files", "must name at least one file")
	}
	for _, n := range a.InstructionFiles {
		if n == "" || n == "." || n == ".." || containsSep(n) {
			return bad("instruction_files", "%q is not a file name", n)
		}
	}
	if a.InstructionMaxBytes <= 0 {
		return bad("instruction_max_bytes", "must be positive, got %d", a.InstructionMaxBytes)
	}
	if a.RenderInstructions < 0 || a.RenderInstructions > 1 {
		return bad("render_instructions", "must be between 0 and 1, got %g", a.RenderInstructions)
	}
	if a.ContextBudget <= 0 {
		return bad("context_budget", "must be a positive number of tokens, got %d", a.ContextBudget)
	}
	if a.WindowTokens <= 0 {
		return bad("window_tokens", "must be a positive number of tokens, got %d", a.WindowTokens)
	}
	if a.CompactAt <= 0 || a.CompactAt > 1 {
		return bad("compact_at", "must be above 0 and at most 1, got %g", a.CompactAt)
	}
	if a.WindowEvents < 0 {
		return bad("window_events", "must be 0 or more, got %d", a.WindowEvents)
	}
	if a.PreservedTail < 0 {
		return bad("preserved_tail", "must be 0 or more, got %d", a.PreservedTail)
	}
	if a.MemoryTop < 0 {
		return bad("memory_top", "must be 0 or more, got %d", a.MemoryTop)
	}
	for key, v := range map[string]float64{"instructions": a.Shares.Instructions, "memories": a.Shares.Memories, "session": a.Shares.Session} {
		if v < 0 || v > 1 {
			return &Error{Key: "agent.shares." + key, Msg: fmt.Sprintf("must be between 0 and 1, got %g", v)}
		}
	}
	if sum := a.Shares.Instructions + a.Shares.Memories + a.Shares.Session; sum > 1 {
		return &Error{Key: "agent.shares", Msg: fmt.Sprintf("shares must add up to at most 1, they add up to %g", sum)}
	}
	return nil
}

func containsSep(s string) bool {
	for _, r := range s {
		if r == '/' || r == '\\' {
			return true
		}
	}
	return false
}
