package main

import (
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/layers/agent"
	"github.com/git-speed/git-speed/layers/agent/instructions"
	"github.com/git-speed/git-speed/layers/agent/memory"
	"github.com/git-speed/git-speed/layers/agent/session"
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
			if o.GlobalDir = globalInstructionDir(); o.GlobalDir == "" {
				e.warnf("no home folder (HOME is not set) and no absolute XDG_CONFIG_HOME: the global instruction files are skipped")
			}
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

// now is the wall clock, or SOURCE_DATE_EPOCH when set (reproducible
// session logs in tests and demos).
func now() time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(n, 0).UTC()
		}
	}
	return time.Now().UTC()
}

// agentDir is <git-common-dir>/speed/NAME: local to the clone, never in
// the work tree or refs.
func (e *env) agentDir(name string) string {
	return filepath.Join(e.repo.CommonDir(), "speed", name)
}

// sessionStore opens the session logs of this repository.
func (e *env) sessionStore() (*session.Store, error) {
	cnt, err := e.counter()
	if err != nil {
		return nil, err
	}
	a := e.cfg.Agent
	return &session.Store{Dir: e.agentDir("sessions"), Count: cnt.Count, Now: now,
		WindowTokens: a.WindowTokens, CompactAt: a.CompactAt, Tail: a.PreservedTail}, nil
}

// sessionID is --session, or the session started last.
func sessionID(c *cli.Context, s *session.Store) (string, error) {
	if id := c.String("session"); id != "" {
		return id, nil
	}
	return s.Current()
}

var sessionFlag = &cli.StringFlag{Name: "session", Usage: "session id (default: the session started last)"}

// renderSessionSections are the session window and the memories similar
// to the task, for `render --session ID`, within their shares of the
// stage's budget.
func (e *env) renderSessionSections(id, taskText string, total int, count func(string) int) ([]prompt.AgentSection, error) {
	s, err := e.sessionStore()
	if err != nil {
		return nil, err
	}
	l, err := s.ReadWindow(id)
	if err != nil {
		return nil, err
	}
	warnAll(e, l.Warnings)
	a := e.cfg.Agent
	hits, method, err := e.searchMemories(&memory.Store{Dir: e.agentDir(""), Now: now}, taskText, a.MemoryTop)
	if err != nil {
		return nil, err
	}
	res, err := agent.Assemble(agent.Options{Task: taskText, Budget: total, Count: count,
		Shares: agent.Shares{Memories: a.Shares.Memories, Session: a.Shares.Session}, Window: l.Window(a.WindowEvents), Memories: hits, MemoryMethod: method})
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
