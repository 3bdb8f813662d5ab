// Package mcpserver is git-speed's Model Context Protocol server: each
// tool maps its JSON arguments to a typed request of the operations layer
// (internal/app), calls it on the one Session the server keeps open, and
// maps the result back to text or JSON. Calls run concurrently (the SDK
// handles each in a goroutine of its own) and stop when the client cancels
// them; a call that has to index a tree first reports progress. A bad call
// is a tool error with the sentence the command line prints, and every
// result passes once more through the redaction layer.
package mcpserver

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-speed/git-speed/internal/app"
)

// Server serves one repository's Session.
type Server struct {
	s *app.Session
}

// New returns the MCP server of s, named version.
func New(s *app.Session, version string) *mcp.Server {
	srv := &Server{s: s}
	m := mcp.NewServer(&mcp.Implementation{Name: "git-speed", Version: version}, nil)
	srv.addCodeTools(m)
	srv.addAgentTools(m)
	return m
}

// Run serves s over stdin and stdout until the client goes or ctx ends.
func Run(ctx context.Context, s *app.Session, version string) error {
	defer headroom()()
	return New(s, version).Run(ctx, &mcp.StdioTransport{})
}

// spareProcs is how many logical processors the server keeps beyond the
// machine's. The heavy calls (index, scope, render, pack) size their worker
// pools by the machine's CPUs and keep every processor busy; with no spare
// one, a light call's goroutine (the transport's reader, a read or symbols
// handler) waits in the run queue until the scheduler preempts a worker,
// about 10 ms at a time: on kubernetes, 8 reads during a scope answered in
// 33 ms at the median, against 8 ms with two spare processors, the scope
// itself unchanged (bench/mcp.sh). The spare ones leave the sharing of the
// cores to the operating system, which wakes a light call at once.
const spareProcs = 2

// headroom raises GOMAXPROCS by spareProcs for the server's life and
// returns the undo; a GOMAXPROCS the user set is left as it is.
func headroom() (undo func()) {
	if os.Getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	prev := runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + spareProcs)
	return func() { runtime.GOMAXPROCS(prev) }
}

// reply is what a tool's handler makes of a call: its text, and whether
// the call's warnings and notes follow it (under a line "--- label").
type reply struct {
	text  string
	label string // "" leaves the notes out
	// pre are notes of the handler's own, before the operation's.
	pre []string
	// post are notes after the operation's.
	post []string
}

// add registers a tool whose handler returns a reply. A handler's error,
// or a panic, becomes a tool error: the server keeps serving.
func add[In any](srv *Server, m *mcp.Server, name, desc string, h func(context.Context, In) (*reply, error)) {
	mcp.AddTool(m, &mcp.Tool{Name: name, Description: desc}, func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, _ any, err error) {
		defer func() {
			if r := recover(); r != nil {
				res, err = nil, fmt.Errorf("internal error in %s: %v", name, r)
			}
		}()
		cr := &callReporter{ctx: ctx, session: req.Session}
		if req.Params != nil {
			cr.token = req.Params.GetProgressToken()
		}
		rep, err := h(app.WithReporter(ctx, cr), in)
		if err != nil {
			return nil, nil, err
		}
		text := rep.text
		if rep.label != "" {
			notes := append(append(rep.pre, cr.lines()...), rep.post...)
			if len(notes) > 0 {
				if text != "" && !strings.HasSuffix(text, "\n") {
					text += "\n"
				}
				text += "--- " + rep.label + "\n" + strings.Join(notes, "\n") + "\n"
			}
		}
		// Whatever a tool read, no secret leaves the server.
		if text, err = srv.s.Redact(text); err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
	})
}

// callReporter keeps one call's warnings and notes for its result, and
// sends its progress to the client when the call asked for it (a progress
// token), at most five times a second.
type callReporter struct {
	ctx     context.Context
	session *mcp.ServerSession
	token   any

	mu    sync.Mutex
	notes []string
	last  time.Time
}

func (r *callReporter) Warn(msg string) { r.add("warning: " + msg) }
func (r *callReporter) Note(msg string) { r.add(msg) }

func (r *callReporter) add(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notes = append(r.notes, line)
}

func (r *callReporter) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.notes...)
}

// Trace goes to the server's stderr: stdout carries the protocol.
func (r *callReporter) Trace(msg string) { fmt.Fprintf(os.Stderr, "trace git-speed: %s\n", msg) }

func (r *callReporter) Progress(done, total int) {
	if r.token == nil || r.session == nil {
		return
	}
	r.mu.Lock()
	now := time.Now()
	if now.Sub(r.last) < 200*time.Millisecond && done != total {
		r.mu.Unlock()
		return
	}
	r.last = now
	r.mu.Unlock()
	_ = r.session.NotifyProgress(r.ctx, &mcp.ProgressNotificationParams{ProgressToken: r.token,
		Message: fmt.Sprintf("indexing: parsed %d of %d files", done, total), Progress: float64(done), Total: float64(total)})
}

// jsonText is v as the indented JSON the command line prints.
func jsonText(v any) (string, error) {
	var b bytes.Buffer
	err := app.EncodeJSON(&b, v)
	return b.String(), err
}

// text is a reply of text alone.
func text(s string) *reply { return &reply{text: s} }

// paths checks a list of repository-relative paths.
func paths(ps []string, what string) ([]string, error) {
	var out []string
	for _, p := range ps {
		c, err := app.RepoRel(p)
		if err != nil {
			if what != "" {
				return nil, fmt.Errorf("%s: %v", what, err)
			}
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}
