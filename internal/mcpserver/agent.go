package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-speed/git-speed/internal/app"
)

// The agent's own context through the server: the same operations as
// `git speed context|session|memory|usage`, each result followed by what
// the command line says on stderr (its report, warnings, notes).
type (
	contextIn struct {
		Task      string   `json:"task" jsonschema:"the task, in words"`
		Budget    int      `json:"budget,omitempty" jsonschema:"total tokens (default agent.context_budget)"`
		Session   string   `json:"session,omitempty" jsonschema:"the session whose window goes into the context (default: the current one, when a session was started)"`
		NoSession bool     `json:"no_session,omitempty" jsonschema:"leave the session window out"`
		Files     []string `json:"files,omitempty" jsonschema:"repository-relative files the task is about: their folders' instruction files, the map's focus"`
		NoMap     bool     `json:"no_map,omitempty" jsonschema:"leave the repo map out"`
		JSON      bool     `json:"json,omitempty" jsonschema:"return the context, its sections and report as JSON"`
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

func (srv *Server) addAgentTools(m *mcp.Server) {
	add(srv, m, "context", "Assembles a task's context (task, instruction files, the window of the current session or the one named, similar memories, repo map), each section within its share of the budget, followed by the per-section token report.", srv.context)
	add(srv, m, "session_event", "Appends an event (task_started, file_read, tool_call, edit, test_run, failure, decision, note) to the current session, starting one when there is none; compacts by itself at agent.compact_at of the window.", srv.sessionEvent)
	add(srv, m, "session_start", "Starts a session and makes it the current one; returns its id.", srv.sessionStart)
	add(srv, m, "session_list", "The sessions of this repository, the current one starred, with events, compactions, context tokens and goal.", srv.sessionList)
	add(srv, m, "session_show", "The session window: the rolling summary of compacted events and the last events since.", srv.sessionShow)
	add(srv, m, "session_compact", "Folds the session's events since the last compaction into a new rolling summary (goals, progress, files touched, failures, decisions, preserved tail) and returns it.", srv.sessionCompact)
	add(srv, m, "memory_add", "Stores a note across sessions (redacted first) and returns its id.", srv.memoryAdd)
	add(srv, m, "memory_search", "The stored memories most similar to a query, with scores.", srv.memorySearch)
	add(srv, m, "usage", "How full the session has made the context window (exact tokens, the seed's heuristic beside them) and whether to checkpoint; with plan_files, the budget per task.", srv.usage)
}

// notes is a reply whose text is followed by the call's notes.
func notes(text string) *reply { return &reply{text: text, label: "notes"} }

// textOrJSON is v's JSON when asJSON, else its text.
func textOrJSON(asJSON bool, v any, text func() string) (string, error) {
	if asJSON {
		return jsonText(v)
	}
	return text(), nil
}

func (srv *Server) context(ctx context.Context, in contextIn) (*reply, error) {
	files, err := paths(in.Files, "files")
	if err != nil {
		return nil, err
	}
	// "-" would be standard input on the command line: the protocol here.
	if in.Task == "-" {
		return nil, errors.New("task - (standard input) is not available through the server; give the task text")
	}
	if in.Budget < 0 {
		return nil, app.Usagef("--budget must be a positive number of tokens, got %d", in.Budget)
	}
	res, err := srv.s.Context(ctx, app.ContextRequest{Task: in.Task, Budget: in.Budget, Session: in.Session, NoSession: in.NoSession, Files: files, NoMap: in.NoMap})
	if err != nil {
		return nil, err
	}
	out := &reply{label: "context report"}
	if in.JSON {
		out.text, err = jsonText(res)
		return out, err
	}
	out.text = res.Text
	out.post = strings.Split(strings.TrimSuffix(res.Report.Render(), "\n"), "\n")
	return out, nil
}

func (srv *Server) sessionEvent(ctx context.Context, in sessionEventIn) (*reply, error) {
	files, err := paths(in.Files, "files")
	if err != nil {
		return nil, err
	}
	res, err := srv.s.SessionEvent(ctx, app.SessionEventRequest{Session: in.Session, Kind: in.Kind, Text: in.Text, Files: files,
		Status: in.Status, Content: in.Content, StartIfNone: true})
	if err != nil {
		return nil, err
	}
	t, err := textOrJSON(in.JSON, res, res.Line)
	out := notes(t)
	if res.Started != "" {
		out.pre = []string{fmt.Sprintf("started session %s (none was current)", res.Started)}
	}
	return out, err
}

func (srv *Server) sessionStart(ctx context.Context, in sessionStartIn) (*reply, error) {
	files, err := paths(in.Files, "files")
	if err != nil {
		return nil, err
	}
	id, err := srv.s.SessionStart(ctx, app.SessionStartRequest{ID: in.ID, Task: in.Task, Files: files})
	return notes(id + "\n"), err
}

func (srv *Server) sessionList(ctx context.Context, in jsonIn) (*reply, error) {
	list, err := srv.s.SessionList(ctx)
	if err != nil {
		return nil, err
	}
	t, err := textOrJSON(in.JSON, list, func() string { return app.SessionListText(list) })
	return notes(t), err
}

func (srv *Server) sessionShow(ctx context.Context, in sessionShowIn) (*reply, error) {
	w, err := srv.s.SessionShow(ctx, app.SessionShowRequest{Session: in.Session, Events: in.Events})
	if err != nil {
		return nil, err
	}
	t, err := textOrJSON(in.JSON, w, w.Text)
	return notes(t), err
}

func (srv *Server) sessionCompact(ctx context.Context, in sessionIn) (*reply, error) {
	res, err := srv.s.SessionCompact(ctx, in.Session)
	if err != nil {
		return nil, err
	}
	if res.Event == nil {
		return &reply{label: "notes", post: []string{res.Note()}}, nil
	}
	if in.JSON {
		t, err := jsonText(res.Event)
		return notes(t), err
	}
	out := notes(res.Event.Summary.Render())
	out.post = []string{res.Note()}
	return out, nil
}

func (srv *Server) memoryAdd(ctx context.Context, in memoryAddIn) (*reply, error) {
	m, err := srv.s.MemoryAdd(ctx, app.MemoryAddRequest{Text: in.Text, Tags: in.Tags, Session: in.Session})
	if err != nil {
		return nil, err
	}
	return notes(m.ID + "\n"), nil
}

func (srv *Server) memorySearch(ctx context.Context, in memorySearchIn) (*reply, error) {
	if in.Top < 0 {
		return nil, app.Usagef("--top must be positive, got %d", in.Top)
	}
	res, err := srv.s.MemorySearch(ctx, in.Query, in.Top)
	if err != nil {
		return nil, err
	}
	t, err := textOrJSON(in.JSON, res, res.Text)
	return notes(t), err
}

func (srv *Server) usage(ctx context.Context, in usageIn) (*reply, error) {
	if in.Total < 0 {
		return nil, app.Usagef("--plan-files must be 0 or more and --total positive, got %d and %d", 0, in.Total)
	}
	res, err := srv.s.Usage(ctx, app.UsageRequest{Session: in.Session, PlanFiles: in.PlanFiles, Total: in.Total})
	if err != nil {
		return nil, err
	}
	t, err := textOrJSON(in.JSON, res, res.Text)
	return notes(t), err
}
