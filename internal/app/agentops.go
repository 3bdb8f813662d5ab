package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/git-speed/git-speed/internal/lex"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/agent"
	"github.com/git-speed/git-speed/layers/agent/memory"
	"github.com/git-speed/git-speed/layers/agent/session"
	"github.com/git-speed/git-speed/layers/agent/usage"
)

// The agent's own context: task context assembly, sessions, memories and
// usage. Every text read outside the index (instruction files, session
// events, memories) passes through the redaction layer before it is
// stored or given out.

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

// sessionStore opens the session logs of this repository.
func (s *Session) sessionStore() (*session.Store, error) {
	cnt, err := s.counter()
	if err != nil {
		return nil, err
	}
	a := s.cfg.Agent
	return &session.Store{Dir: s.agentDir("sessions"), Count: cnt.Count, Now: now,
		WindowTokens: a.WindowTokens, CompactAt: a.CompactAt, Tail: a.PreservedTail}, nil
}

// memoryStore opens the memories of this repository.
func (s *Session) memoryStore() *memory.Store { return &memory.Store{Dir: s.agentDir(""), Now: now} }

// CurrentSession names the session started last wherever a request takes
// a session id ("current" is never a session's id: session.ValidID).
const CurrentSession = "current"

// sessionID is id, or the session started last when id is "" or
// CurrentSession.
func sessionID(st *session.Store, id string) (string, error) {
	if id != "" && id != CurrentSession {
		return id, nil
	}
	return st.Current()
}

// ContextRequest asks for a task's context.
type ContextRequest struct {
	// Rev is the revision whose index gives the repo map; "" is HEAD.
	Rev string
	// Task is the task, in words.
	Task string
	// Budget is the total tokens; 0 takes agent.context_budget.
	Budget int
	// Session is the session whose window goes into the context: "" or
	// CurrentSession is the session started last (none when no session
	// was ever started, unless it is named CurrentSession).
	Session string
	// NoSession leaves the session window out.
	NoSession bool
	// Files are the task's files: repository paths, or absolute paths
	// outside it. Their folders' instruction files and the map's focus.
	Files []string
	// NoMap leaves the repo map out (no index needed).
	NoMap bool
}

// Context assembles a task's context: the task, the instruction files,
// the session window, similar memories and a repo map focused by the
// task, each within its share of the budget. The result is redacted; its
// warnings are reported.
func (s *Session) Context(ctx context.Context, req ContextRequest) (*agent.Result, error) {
	if strings.TrimSpace(req.Task) == "" {
		return nil, Usagef("context needs a non-empty TASK-TEXT")
	}
	if req.Budget == 0 {
		req.Budget = s.cfg.Agent.ContextBudget
	}
	if req.Budget < 0 {
		return nil, Usagef("--budget must be a positive number of tokens, got %d", req.Budget)
	}
	if req.Rev == "" {
		req.Rev = "HEAD"
	}
	st, err := s.sessionStore()
	if err != nil {
		return nil, err
	}
	o := s.op(ctx)
	res, err := o.buildContext(req, st, s.memoryStore())
	if err != nil {
		return nil, err
	}
	// Instruction files, session events and memories are read outside
	// the index: the result goes through the redaction layer.
	if err := s.redactAll(res); err != nil {
		return nil, err
	}
	o.warnAll(res.Warnings)
	return res, nil
}

// buildContext gathers the inputs of agent.Assemble: what needs the git
// dir, the index or the graph is read here. A part that cannot be read
// (no index, no commits) is a warning; the rest is still built.
func (o *op) buildContext(req ContextRequest, st *session.Store, ms *memory.Store) (*agent.Result, error) {
	cnt, err := o.counter()
	if err != nil {
		return nil, err
	}
	a := o.cfg.Agent
	io := o.instructionOptions(req.Files, 0, true, cnt.Count)
	ao := agent.Options{
		Task: req.Task, Budget: req.Budget, Count: cnt.Count, Tokenizer: cnt.Name(),
		Shares:       agent.Shares{Instructions: a.Shares.Instructions, Memories: a.Shares.Memories, Session: a.Shares.Session},
		Instructions: &io,
	}
	var warns []string
	if ao.Memories, ao.MemoryMethod, err = o.searchMemories(o.ctx, ms, req.Task, a.MemoryTop); err != nil {
		return nil, err
	}
	if !req.NoSession {
		if ao.Window, err = o.sessionWindow(st, req.Session, &warns); err != nil {
			return nil, err
		}
	}
	if !req.NoMap {
		ao.RepoMap, ao.MapBudget = o.contextMap(req, cnt, &warns), o.cfg.Map.Budget
	}
	res, err := agent.Assemble(ao)
	if err != nil {
		return nil, err
	}
	res.Warnings = append(warns, res.Warnings...)
	return res, nil
}

// sessionWindow reads the window of session id (see sessionID). When id
// is "" and no session was started, there is no window and no error.
func (o *op) sessionWindow(st *session.Store, id string, warns *[]string) (*session.Window, error) {
	sid, err := sessionID(st, id)
	if errors.Is(err, session.ErrNoSession) && id == "" {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	l, err := st.ReadWindow(sid)
	if err != nil {
		return nil, err
	}
	*warns = append(*warns, l.Warnings...)
	return l.Window(o.cfg.Agent.WindowEvents), nil
}

// pathWords are the words of a task text that look like paths.
func pathWords(text string) []string {
	var out []string
	for _, w := range strings.Fields(text) {
		w = strings.Trim(w, "`'\"()[],;:")
		if strings.ContainsAny(w, "/.") && !strings.HasSuffix(w, ".") {
			out = append(out, strings.TrimPrefix(w, "./"))
		}
	}
	return out
}

// mentionWords are the words of a task text the map's ranking looks for:
// identifiers as written, and words of four letters or more that are no
// stop words or filler (lex.IsFiller: they would match paths and names by
// accident).
func mentionWords(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		if len(w) < 4 || seen[w] || lex.IsFiller(strings.ToLower(w)) {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// contextMap returns the repo map section's renderer: a stored map when
// one was rendered for the same recipe, else the map's code path (load
// the index, rank by the task's files and words, render). A tree that
// cannot be indexed is a warning and an empty map.
func (o *op) contextMap(req ContextRequest, cnt tokens.Counter, warns *[]string) func(int) (string, error) {
	focus := append(append([]string(nil), req.Files...), pathWords(req.Task)...)
	mentions := mentionWords(req.Task)
	return func(budget int) (string, error) {
		_, tree, err := o.repo.Resolve(req.Rev)
		if err != nil {
			*warns = append(*warns, fmt.Sprintf("no repo map: %v", err))
			return "", nil
		}
		key := mapCacheKey(tree, o.cfg.TreeDigest(), cnt.Name(), budget, focus, mentions)
		if m, ok := o.cachedMap(key); ok {
			return m, nil
		}
		// Loading the index allocates much that lives until the map is
		// rendered: collect less often meanwhile, as index does.
		defer o.collectLess()()
		w, release, err := o.world(o.ctx, req.Rev, true)
		if err != nil {
			*warns = append(*warns, fmt.Sprintf("no repo map: %v", err))
			return "", nil
		}
		defer release()
		m, err := repoMap(w, existing(w.Graph().Index, focus), mentions, budget, cnt.Count)
		if err == nil {
			o.storeMap(key, m)
		}
		return m, err
	}
}

// SessionStartRequest asks for a new session.
type SessionStartRequest struct {
	ID    string   // "" is the time, 20261124-004512
	Task  string   // the task the session starts with (a task_started event)
	Files []string // the task's files, repository paths
}

// SessionStart starts a session and makes it the current one.
func (s *Session) SessionStart(ctx context.Context, req SessionStartRequest) (string, error) {
	st, err := s.sessionStore()
	if err != nil {
		return "", err
	}
	return st.Start(session.StartOptions{ID: req.ID, Task: req.Task, Paths: req.Files})
}

// SessionEventRequest asks to append one event.
type SessionEventRequest struct {
	// Session is the session's id; "" is the current one.
	Session string
	Kind    string // session.Kinds
	Text    string
	// Files are the files the event is about: repository paths, or
	// absolute paths outside it. For a file_read without Content, their
	// text is what is counted.
	Files []string
	// Status: pass or fail for test_run, ok or error for tool_call.
	Status string
	// Content is what the event put in the agent's context (a tool's
	// output), counted in tokens.
	Content string
	// StartIfNone starts a session when none is current (and Session is
	// ""), unless the event is malformed.
	StartIfNone bool
}

// SessionEventResult is an event appended.
type SessionEventResult struct {
	*session.Appended
	// Started is the id of the session this call started, if it did.
	Started string `json:"-"`
	// Session is the id the event went to.
	Session string `json:"-"`
}

// Line is the event as one line: its summary, tokens and the session's
// context after it.
func (r *SessionEventResult) Line() string {
	after := r.Event.Context
	if r.Compacted != nil {
		after = r.Compacted.Context
	}
	return fmt.Sprintf("%s\t%d tokens\tcontext %d tokens\n", r.Event.Line(), r.Event.Tokens, after)
}

// SessionEvent appends one event to a session, redacted, compacting the
// session when it reaches agent.compact_at of the window (a note says so).
func (s *Session) SessionEvent(ctx context.Context, req SessionEventRequest) (*SessionEventResult, error) {
	if !session.ValidKind(req.Kind) {
		return nil, Usagef("unknown event kind %q (want one of %s)", req.Kind, strings.Join(session.Kinds, ", "))
	}
	if err := CheckStatus(req.Kind, req.Status); err != nil {
		return nil, err
	}
	st, err := s.sessionStore()
	if err != nil {
		return nil, err
	}
	out := &SessionEventResult{}
	id := req.Session
	if id == "" {
		if req.StartIfNone {
			s.startMu.Lock()
			defer s.startMu.Unlock()
		}
		id, err = st.Current()
		if errors.Is(err, session.ErrNoSession) && req.StartIfNone {
			if id, err = st.Start(session.StartOptions{}); err == nil {
				out.Started = id
			}
		}
		if err != nil {
			return nil, err
		}
	}
	content := req.Content
	if content == "" && req.Kind == session.FileRead {
		var b strings.Builder
		for _, f := range req.Files {
			data, err := os.ReadFile(s.fileOf(f))
			if err != nil {
				warnf(ctx, "--file %s: %v; its content is not counted", f, err)
				continue
			}
			b.Write(data)
		}
		content = b.String()
	}
	// The session log stores no secret: an event's text and content go
	// through the redaction layer first.
	text, err := s.redact("", req.Text)
	if err != nil {
		return nil, err
	}
	if content, err = s.redact("", content); err != nil {
		return nil, err
	}
	res, err := st.Append(id, session.Event{Kind: req.Kind, Text: text, Paths: req.Files, Status: req.Status}, content)
	if err != nil {
		return nil, err
	}
	if res.Compacted != nil {
		notef(ctx, "session %s reached %d of %d tokens; compacted events up to #%d into a summary of %d tokens",
			id, res.Event.Context, s.cfg.Agent.WindowTokens, res.Compacted.Upto, res.Compacted.Tokens)
	}
	out.Appended, out.Session = res, id
	return out, nil
}

// CheckStatus checks an event's status against its kind.
func CheckStatus(kind, status string) error {
	if status == "" {
		return nil
	}
	ok := map[string][]string{session.TestRun: {"pass", "fail"}, session.ToolCall: {"ok", "error"}}[kind]
	for _, s := range ok {
		if s == status {
			return nil
		}
	}
	if ok == nil {
		return Usagef("--status applies to test_run (pass, fail) and tool_call (ok, error), not %s", kind)
	}
	return Usagef("--status %s: %s takes %s", status, kind, strings.Join(ok, " or "))
}

// SessionCompacted is a compaction: the session and its compaction event
// (nil when there were no events to compact).
type SessionCompacted struct {
	Session string
	Event   *session.Event
}

// Note says what the compaction did, as the command line says it.
func (c *SessionCompacted) Note() string {
	if c.Event == nil {
		return fmt.Sprintf("session %s has no events to compact", c.Session)
	}
	return fmt.Sprintf("session %s: events %d-%d in a summary of %d tokens", c.Session, c.Event.Summary.FirstSeq, c.Event.Upto, c.Event.Tokens)
}

// SessionCompact folds the events since the last compaction into a new
// rolling summary, redacted.
func (s *Session) SessionCompact(ctx context.Context, id string) (*SessionCompacted, error) {
	st, err := s.sessionStore()
	if err != nil {
		return nil, err
	}
	if id, err = sessionID(st, id); err != nil {
		return nil, err
	}
	ev, err := st.Compact(id)
	if err != nil {
		return nil, err
	}
	if ev != nil {
		if err := s.redactAll(ev); err != nil {
			return nil, err
		}
	}
	return &SessionCompacted{Session: id, Event: ev}, nil
}

// SessionShowRequest asks for a session's window.
type SessionShowRequest struct {
	Session string // "" is the current one
	// Events is how many recent events to show; nil takes agent.window_events.
	Events *int
}

// SessionShow returns the session window: the rolling summary and the
// last events since, redacted.
func (s *Session) SessionShow(ctx context.Context, req SessionShowRequest) (*session.Window, error) {
	n := s.cfg.Agent.WindowEvents
	if req.Events != nil {
		if n = *req.Events; n < 0 {
			return nil, Usagef("--events must be 0 or more, got %d", n)
		}
	}
	st, err := s.sessionStore()
	if err != nil {
		return nil, err
	}
	id, err := sessionID(st, req.Session)
	if err != nil {
		return nil, err
	}
	l, err := st.ReadWindow(id)
	if err != nil {
		return nil, err
	}
	s.op(ctx).warnAll(l.Warnings)
	w := l.Window(n)
	if err := s.redactAll(w); err != nil {
		return nil, err
	}
	return w, nil
}

// SessionList lists the sessions of this repository, redacted.
func (s *Session) SessionList(ctx context.Context) ([]session.Info, error) {
	st, err := s.sessionStore()
	if err != nil {
		return nil, err
	}
	list, warns, err := st.List()
	if err != nil {
		return nil, err
	}
	s.op(ctx).warnAll(warns)
	if list == nil {
		list = []session.Info{}
	}
	if err := s.redactAll(&list); err != nil {
		return nil, err
	}
	return list, nil
}

// SessionListText is the list one session a line, the current one starred.
func SessionListText(list []session.Info) string {
	var b strings.Builder
	for _, in := range list {
		mark := " "
		if in.Current {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s %s\t%d events\t%d compactions\t%d tokens\t%s\n", mark, in.ID, in.Events, in.Compactions, in.Context, in.Goal)
	}
	return b.String()
}

// MemoryAddRequest asks to keep a note.
type MemoryAddRequest struct {
	Text    string
	Tags    []string
	Session string // the session it comes from
}

// MemoryAdd stores a note across sessions, redacted first.
func (s *Session) MemoryAdd(ctx context.Context, req MemoryAddRequest) (*memory.Memory, error) {
	// Memories store no secret.
	text, err := s.redact("", req.Text)
	if err != nil {
		return nil, err
	}
	return s.memoryStore().Add(text, req.Tags, req.Session)
}

// MemorySearchResult is the memories most similar to a query.
type MemorySearchResult struct {
	Hits   []memory.Hit `json:"hits"`
	Method string       `json:"method"`
}

// Text is one hit a line: id, score, text.
func (r *MemorySearchResult) Text() string {
	var b strings.Builder
	for _, h := range r.Hits {
		fmt.Fprintf(&b, "%s\t%.4f\t%s\n", h.ID, h.Score, oneLineText(h.Text))
	}
	return b.String()
}

// MemorySearch returns the top memories most similar to query (top 0
// takes agent.memory_top), redacted.
func (s *Session) MemorySearch(ctx context.Context, query string, top int) (*MemorySearchResult, error) {
	if top == 0 {
		top = s.cfg.Agent.MemoryTop
	}
	if top < 0 {
		return nil, Usagef("--top must be positive, got %d", top)
	}
	hits, method, err := s.searchMemories(ctx, s.memoryStore(), query, top)
	if err != nil {
		return nil, err
	}
	if err := s.redactAll(&hits); err != nil {
		return nil, err
	}
	if hits == nil {
		hits = []memory.Hit{}
	}
	return &MemorySearchResult{Hits: hits, Method: method}, nil
}

// MemoryList lists every memory, oldest first, redacted.
func (s *Session) MemoryList(ctx context.Context) ([]memory.Memory, error) {
	ms, warns, err := s.memoryStore().List()
	if err != nil {
		return nil, err
	}
	if err := s.redactAll(&ms); err != nil {
		return nil, err
	}
	s.op(ctx).warnAll(warns)
	if ms == nil {
		ms = []memory.Memory{}
	}
	return ms, nil
}

// MemoryListText is one memory a line: id, text.
func MemoryListText(ms []memory.Memory) string {
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "%s\t%s\n", m.ID, oneLineText(m.Text))
	}
	return b.String()
}

// MemoryForget removes a memory from lists and searches.
func (s *Session) MemoryForget(ctx context.Context, id string) error {
	return s.memoryStore().Forget(id)
}

// searchMemories runs a search with the model speed.toml chooses,
// warning about unreadable lines of the store.
func (s *Session) searchMemories(ctx context.Context, ms *memory.Store, query string, top int) ([]memory.Hit, string, error) {
	list, warns, err := ms.List()
	if err != nil {
		return nil, "", err
	}
	s.op(ctx).warnAll(warns)
	o := memory.SearchOptions{Top: top}
	if cmd := s.cfg.Agent.EmbedCommand; len(cmd) > 0 {
		o.Embed = embedder(ctx, cmd)
	}
	hits, err := memory.Search(list, query, o)
	return hits, o.Method(), err
}

// embedder runs cmd with a text on stdin and reads a JSON array of numbers
// from its stdout; the same text is embedded once per call.
func embedder(ctx context.Context, cmd []string) func(string) ([]float64, error) {
	cache := map[string][]float64{}
	return func(text string) ([]float64, error) {
		if v, ok := cache[text]; ok {
			return v, nil
		}
		x := exec.CommandContext(ctx, cmd[0], cmd[1:]...)
		// A cancelled call kills the command; a child of it still holding
		// the output open is not waited for long.
		x.WaitDelay = 200 * time.Millisecond
		x.Stdin = strings.NewReader(text)
		var out, errb bytes.Buffer
		x.Stdout, x.Stderr = &out, &errb
		if err := x.Run(); err != nil {
			msg := strings.TrimSpace(errb.String())
			if msg != "" {
				msg = ": " + strings.SplitN(msg, "\n", 2)[0]
			}
			return nil, fmt.Errorf("agent.embed_command %s failed (%v)%s", cmd[0], err, msg)
		}
		var v []float64
		if err := json.Unmarshal(out.Bytes(), &v); err != nil || len(v) == 0 {
			return nil, fmt.Errorf("agent.embed_command %s printed no JSON array of numbers", cmd[0])
		}
		cache[text] = v
		return v, nil
	}
}

func oneLineText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		r := []rune(s)
		if len(r) > 120 {
			s = string(r[:120]) + "…"
		}
	}
	return s
}

// UsageRequest asks how full a session has made the context window.
type UsageRequest struct {
	// Session is the session's id; "" is the current one. Read when set,
	// or when no plan is asked for.
	Session string
	// PlanFiles, when set, asks for budget_for_task over that many files
	// of Total (0: agent.context_budget).
	PlanFiles *int
	Total     int
}

// UsageResult is a session's usage and, when asked, a budget per task.
type UsageResult struct {
	*usage.Usage
	BudgetForTask *TaskBudget `json:"budget_for_task,omitempty"`
}

// TaskBudget is budget_for_task's split of a total.
type TaskBudget struct {
	Total   int `json:"total"`
	Files   int `json:"files"`
	PerTask int `json:"per_task"`
}

// Usage reports a session's context tokens (exact, and the seed's
// heuristic beside them) and whether to checkpoint, and with PlanFiles the
// budget per task.
func (s *Session) Usage(ctx context.Context, req UsageRequest) (*UsageResult, error) {
	out := &UsageResult{}
	if req.PlanFiles != nil || req.Total != 0 {
		plan := &TaskBudget{Total: s.cfg.Agent.ContextBudget}
		if req.PlanFiles != nil {
			plan.Files = *req.PlanFiles
		}
		if req.Total != 0 {
			plan.Total = req.Total
		}
		if plan.Files < 0 || plan.Total <= 0 {
			return nil, Usagef("--plan-files must be 0 or more and --total positive, got %d and %d", plan.Files, plan.Total)
		}
		plan.PerTask = usage.BudgetForTask(plan.Total, plan.Files)
		out.BudgetForTask = plan
	}
	if out.BudgetForTask == nil || req.Session != "" {
		st, err := s.sessionStore()
		if err != nil {
			return nil, err
		}
		id, err := sessionID(st, req.Session)
		if err != nil {
			return nil, err
		}
		l, err := st.Read(id)
		if err != nil {
			return nil, err
		}
		s.op(ctx).warnAll(l.Warnings)
		out.Usage = usage.Compute(l, s.cfg.Agent.WindowTokens, s.cfg.Agent.CompactAt)
	}
	return out, nil
}

// Text is the usage as the command line prints it.
func (r *UsageResult) Text() string {
	var b strings.Builder
	if u := r.Usage; u != nil {
		fmt.Fprintf(&b, "session %s: %d events, %d compactions\n", u.Session, u.Events, u.Compactions)
		fmt.Fprintf(&b, "context   %7d tokens (exact)      %5.1f %% of %d\n", u.ContextTokens, u.UsagePercent, u.WindowTokens)
		fmt.Fprintf(&b, "heuristic %7d tokens (seed guess) %5.1f %% of %d\n", u.Heuristic, u.HeuristicPercent, u.WindowTokens)
		if u.Checkpoint {
			fmt.Fprintf(&b, "checkpoint: yes, at or over %.1f %% (git speed session compact)\n", u.ThresholdPercent)
		} else {
			fmt.Fprintf(&b, "checkpoint: no, %d tokens to %.1f %%\n", u.TokensToCheckpoint, u.ThresholdPercent)
		}
	}
	if plan := r.BudgetForTask; plan != nil {
		fmt.Fprintf(&b, "budget_for_task: %d tokens (%d ÷ %d files, at least %d)\n", plan.PerTask, plan.Total, max(plan.Files, 1), usage.MinTaskBudget)
	}
	return b.String()
}
