package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-speed/git-speed/layers/agent/session"
)

// The agent's own context through the MCP server: each tool runs the
// command line of `git speed context|session|memory|usage` in the
// server's process, so the same code reads, redacts and stores.
type (
	contextIn struct {
		Task    string   `json:"task" jsonschema:"the task, in words"`
		Budget  int      `json:"budget,omitempty" jsonschema:"total tokens (default agent.context_budget)"`
		Session string   `json:"session,omitempty" jsonschema:"a session id whose window goes into the context"`
		Files   []string `json:"files,omitempty" jsonschema:"repository-relative files the task is about: their folders' instruction files, the map's focus"`
		NoMap   bool     `json:"no_map,omitempty" jsonschema:"leave the repo map out"`
		JSON    bool     `json:"json,omitempty" jsonschema:"return the context, its sections and report as JSON"`
	}
	sessionEventIn struct {
		Kind    string   `json:"kind" jsonschema:"task_started, file_read, tool_call, edit, test_run, failure, decision or note"`
		Text    string   `json:"text,omitempty" jsonschema:"what happened, in a line"`
		Files   []string `json:"files,omitempty" jsonschema:"repository-relative files the event is about; for file_read their content is counted"`
		Status  string   `json:"status,omitempty" jsonschema:"test_run: pass or fail; tool_call: ok or error"`
		Content string   `json:"content,omitempty" jsonschema:"what the event put in the agent's context (a tool's output), counted in tokens"`
		Session string   `json:"session,omitempty" jsonschema:"session id (default: the current one; one is started when there is none)"`
		JSON    bool     `json:"json,omitempty" jsonschema:"return the stored event as JSON"`
	}
	sessionStartIn struct {
		ID    string   `json:"id,omitempty" jsonschema:"the session's id (default: the time, 20261124-004512)"`
		Task  string   `json:"task,omitempty" jsonschema:"the task the session starts with (a task_started event)"`
		Files []string `json:"files,omitempty" jsonschema:"repository-relative files of the task"`
	}
	jsonIn struct {
		JSON bool `json:"json,omitempty" jsonschema:"return the list as JSON"`
	}
	sessionShowIn struct {
		Session string `json:"session,omitempty" jsonschema:"session id (default: the current one)"`
		Events  *int   `json:"events,omitempty" jsonschema:"recent events to show (default agent.window_events)"`
		JSON    bool   `json:"json,omitempty" jsonschema:"return the window as JSON"`
	}
	sessionIn struct {
		Session string `json:"session,omitempty" jsonschema:"session id (default: the current one)"`
		JSON    bool   `json:"json,omitempty" jsonschema:"return the result as JSON"`
	}
	memoryAddIn struct {
		Text    string   `json:"text" jsonschema:"the note to keep"`
		Tags    []string `json:"tags,omitempty" jsonschema:"tags"`
		Session string   `json:"session,omitempty" jsonschema:"the session it comes from"`
	}
	memorySearchIn struct {
		Query string `json:"query" jsonschema:"what to find memories similar to"`
		Top   int    `json:"top,omitempty" jsonschema:"how many (default agent.memory_top)"`
		JSON  bool   `json:"json,omitempty" jsonschema:"return the hits and the method as JSON"`
	}
	usageIn struct {
		Session   string `json:"session,omitempty" jsonschema:"session id (default: the current one)"`
		PlanFiles *int   `json:"plan_files,omitempty" jsonschema:"files of a task to plan a budget for (budget_for_task)"`
		Total     int    `json:"total,omitempty" jsonschema:"the budget plan_files splits (default agent.context_budget)"`
		JSON      bool   `json:"json,omitempty" jsonschema:"return the usage as JSON"`
	}
)

func (s *mcpServer) addAgentTools(srv *mcp.Server, red func(string) (string, error)) {
	add(srv, red, "context", "Assembles a task's context (task, instruction files, session window, similar memories, repo map), each section within its share of the budget, followed by the per-section token report.", s.context)
	add(srv, red, "session_event", "Appends an event (task_started, file_read, tool_call, edit, test_run, failure, decision, note) to the current session, starting one when there is none; compacts by itself at agent.compact_at of the window.", s.sessionEvent)
	add(srv, red, "session_start", "Starts a session and makes it the current one; returns its id.", s.sessionStart)
	add(srv, red, "session_list", "The sessions of this repository, the current one starred, with events, compactions, context tokens and goal.", s.sessionList)
	add(srv, red, "session_show", "The session window: the rolling summary of compacted events and the last events since.", s.sessionShow)
	add(srv, red, "session_compact", "Folds the session's events since the last compaction into a new rolling summary (goals, progress, files touched, failures, decisions, preserved tail) and returns it.", s.sessionCompact)
	add(srv, red, "memory_add", "Stores a note across sessions (redacted first) and returns its id.", s.memoryAdd)
	add(srv, red, "memory_search", "The stored memories most similar to a query, with scores.", s.memorySearch)
	add(srv, red, "usage", "How full the session has made the context window (exact tokens, the seed's heuristic beside them) and whether to checkpoint; with plan_files, the budget per task.", s.usage)
}

// withNotes puts what a command said on stderr (its report, warnings,
// notices) after its payload, under a line "--- label".
func withNotes(label string) func(out, notes string, err error) (string, error) {
	return func(out, notes string, err error) (string, error) {
		switch {
		case err != nil:
			return "", err
		case notes == "":
			return out, nil
		case out != "" && !strings.HasSuffix(out, "\n"):
			out += "\n"
		}
		return out + "--- " + label + "\n" + notes, nil
	}
}

// plainNotes labels a command's stderr lines in a tool's result.
var plainNotes = withNotes("notes")

func jsonFlagIf(on bool) []string {
	if on {
		return []string{"--json"}
	}
	return nil
}

func sessionFlagIf(id string) []string {
	if id != "" {
		return []string{"--session=" + id}
	}
	return nil
}

// fileFlags turns repository-relative paths into --file flags the command
// line resolves (absolute, so the server's folder does not matter).
func (s *mcpServer) fileFlags(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		c, err := repoRel(p)
		if err != nil {
			return nil, fmt.Errorf("files: %v", err)
		}
		if s.e.top != "" {
			c = filepath.Join(s.e.top, filepath.FromSlash(c))
		}
		out = append(out, "--file="+c)
	}
	return out, nil
}

func (s *mcpServer) context(in contextIn) (string, error) {
	args := append([]string{"context"}, jsonFlagIf(in.JSON)...)
	args = append(args, sessionFlagIf(in.Session)...)
	if in.Budget != 0 {
		args = append(args, "--budget="+strconv.Itoa(in.Budget))
	}
	if in.NoMap {
		args = append(args, "--no-map")
	}
	files, err := s.fileFlags(in.Files)
	if err != nil {
		return "", err
	}
	args = append(args, files...)
	// "-" would read the server's stdin, the protocol.
	if in.Task == "-" {
		return "", errors.New("task - (standard input) is not available through the server; give the task text")
	}
	return withNotes("context report")(s.cliNotes(append(args, "--", in.Task)...))
}

func (s *mcpServer) sessionEvent(in sessionEventIn) (string, error) {
	if !session.ValidKind(in.Kind) {
		// The command's own sentence, before a session is started for nothing.
		_, err := s.cli("session", "event", "--", in.Kind)
		return "", err
	}
	args := append([]string{"session", "event"}, jsonFlagIf(in.JSON)...)
	if in.Status != "" {
		args = append(args, "--status="+in.Status)
	}
	files, err := s.fileFlags(in.Files)
	if err != nil {
		return "", err
	}
	args = append(args, files...)
	if in.Content != "" {
		f, err := os.CreateTemp("", "git-speed-mcp-content-*")
		if err != nil {
			return "", err
		}
		defer os.Remove(f.Name())
		_, err = f.WriteString(in.Content)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", err
		}
		args = append(args, "--content="+f.Name())
	}
	started := ""
	id := in.Session
	if id == "" {
		s.startMu.Lock()
		defer s.startMu.Unlock()
		st, err := s.e.sessionStore()
		if err != nil {
			return "", err
		}
		if _, err := st.Current(); errors.Is(err, session.ErrNoSession) {
			if err := checkStatus(in.Kind, in.Status); err != nil {
				return "", err // not worth a new session
			}
			out, err := s.cli("session", "start")
			if err != nil {
				return "", err
			}
			started = fmt.Sprintf("started session %s (none was current)\n", strings.TrimSpace(out))
		}
	}
	args = append(args, sessionFlagIf(id)...)
	out, stderr, err := s.cliNotes(append(args, "--", in.Kind, in.Text)...)
	return plainNotes(out, started+stderr, err)
}

func (s *mcpServer) sessionStart(in sessionStartIn) (string, error) {
	args := []string{"session", "start"}
	if in.ID != "" {
		args = append(args, "--id="+in.ID)
	}
	if in.Task != "" {
		args = append(args, "--task="+in.Task)
	}
	files, err := s.fileFlags(in.Files)
	if err != nil {
		return "", err
	}
	return plainNotes(s.cliNotes(append(args, files...)...))
}

func (s *mcpServer) sessionList(in jsonIn) (string, error) {
	return plainNotes(s.cliNotes(append([]string{"session", "list"}, jsonFlagIf(in.JSON)...)...))
}

func (s *mcpServer) sessionShow(in sessionShowIn) (string, error) {
	args := append([]string{"session", "show"}, jsonFlagIf(in.JSON)...)
	args = append(args, sessionFlagIf(in.Session)...)
	if in.Events != nil {
		args = append(args, "--events="+strconv.Itoa(*in.Events))
	}
	return plainNotes(s.cliNotes(args...))
}

func (s *mcpServer) sessionCompact(in sessionIn) (string, error) {
	args := append([]string{"session", "compact"}, jsonFlagIf(in.JSON)...)
	return plainNotes(s.cliNotes(append(args, sessionFlagIf(in.Session)...)...))
}

func (s *mcpServer) memoryAdd(in memoryAddIn) (string, error) {
	args := []string{"memory", "add"}
	for _, t := range in.Tags {
		args = append(args, "--tag="+t)
	}
	args = append(args, sessionFlagIf(in.Session)...)
	return plainNotes(s.cliNotes(append(args, "--", in.Text)...))
}

func (s *mcpServer) memorySearch(in memorySearchIn) (string, error) {
	args := append([]string{"memory", "search"}, jsonFlagIf(in.JSON)...)
	if in.Top != 0 {
		args = append(args, "--top="+strconv.Itoa(in.Top))
	}
	return plainNotes(s.cliNotes(append(args, "--", in.Query)...))
}

func (s *mcpServer) usage(in usageIn) (string, error) {
	args := append([]string{"usage"}, jsonFlagIf(in.JSON)...)
	args = append(args, sessionFlagIf(in.Session)...)
	if in.PlanFiles != nil {
		args = append(args, "--plan-files="+strconv.Itoa(*in.PlanFiles))
	}
	if in.Total != 0 {
		args = append(args, "--total="+strconv.Itoa(in.Total))
	}
	return plainNotes(s.cliNotes(args...))
}
