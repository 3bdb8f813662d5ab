package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-speed/git-speed/internal/gittest"
)

// The MCP server end to end: a real client of the SDK starts `git speed
// mcp` (this test binary installed on PATH as git-speed, run by the real
// git) over stdio in a real repository.
func TestMCPServer(t *testing.T) {
	r := gittest.New(t)
	r.Write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.Write("cache/lru.go", "package cache\n\n// EvictOldest drops the least recently used entry.\nfunc EvictOldest(m map[string]int) {\n\tdelete(m, \"x\")\n}\n\nfunc helper() {\n\t// a long body\n}\n")
	r.Write("server/http.go", "package server\n\nimport \"example.com/m/cache\"\n\n// Serve answers from the cache.\nfunc Serve() { cache.EvictOldest(nil) }\n")
	r.Commit("init")

	c := startMCP(t, r)
	ok, fails := c.ok, c.fails
	if got := c.toolNames(); got != "context map memory_add memory_search neighbours pack read render scope session_compact session_event session_list session_show session_start skeleton symbols usage" {
		t.Errorf("tools: %s", got)
	}

	ok("pack", map[string]any{"query": "where is the oldest entry evicted"}, "## 1. cache/lru.go (go), lines 3-6")
	ok("pack", map[string]any{"query": "oldest entry", "json": true, "max_items": 1}, `"workspace": "."`)
	// Compact, globs, a request that starts with dashes, one of 40 KB.
	ok("pack", map[string]any{"query": "where is the oldest entry evicted", "compact": true}, "\ncache/lru.go:3-6  defines EvictOldest\n")
	ok("pack", map[string]any{"query": "oldest entry evicted", "compact": true, "exclude": []string{"cache/**"}}, "\nserver/http.go:")
	ok("pack", map[string]any{"query": "--width 1 --range oldest entry", "compact": true}, "cache/lru.go:3-6")
	ok("pack", map[string]any{"query": "EvictOldest\n" + strings.Repeat("a cache entry grows old, ", 1600)}, "cache/lru.go")
	fails("pack", map[string]any{"query": "oldest", "paths": []string{"[x"}}, "--path [x: bad glob")
	fails("pack", map[string]any{"query": "oldest", "compact": true, "explain": true}, "do not go together")
	ok("symbols", map[string]any{"name": "EvictOldest", "exclude": []string{"server/**"}}, `"references": [`+"\n"+`    {`+"\n"+`      "path": "cache/lru.go",`+"\n"+`      "line": 3,`+"\n"+`      "resolved": false,`)
	ok("skeleton", map[string]any{"paths": []string{"cache/lru.go"}}, "func EvictOldest(m map[string]int)")
	ok("symbols", map[string]any{"name": "EvictOldest"}, `"path": "server/http.go"`)
	ok("neighbours", map[string]any{"path": "cache/lru.go"}, `"used_by": [`+"\n"+`    {`+"\n"+`      "path": "server/http.go"`)
	ok("read", map[string]any{"path": "cache/lru.go", "from": 8, "to": 10}, "     9\t\t// a long body\n")
	ok("map", map[string]any{"budget": 200}, "cache/lru.go")

	// Bad calls are tool errors with the command line's sentence; the
	// server keeps serving.
	fails("pack", map[string]any{"query": ""}, "the query is empty")
	fails("pack", map[string]any{"query": "the of and"}, "only stop words")
	fails("pack", map[string]any{"query": "x", "tags": []string{"../etc/passwd"}}, "outside the repository")
	fails("pack", map[string]any{"query": 5}, "query")
	fails("read", map[string]any{"path": "nope.go"}, "nope.go: no such file in tree")
	// No command line in between: a name may start with -.
	ok("symbols", map[string]any{"name": "-rf"}, `"name": "-rf"`)
	fails("scope", map[string]any{"feature": "nosuch", "task": "1"}, "nosuch")
	fails("nosuchtool", map[string]any{}, "nosuchtool")

	// The world follows HEAD between calls.
	r.Write("retry/backoff.go", "package retry\n\n// Backoff waits longer after each failed attempt.\nfunc Backoff(n int) int { return n * 2 }\n")
	r.Commit("retry")
	ok("pack", map[string]any{"query": "exponential backoff after a failed attempt"}, "retry/backoff.go")
	ok("read", map[string]any{"path": "retry/backoff.go", "worktree": true}, "func Backoff")
}

// The agent's own context through the server: a session driven by events,
// shown, compacted and put in a task's context; memories added and
// searched; usage; bad calls as tool errors; no secret in any result.
func TestMCPAgentTools(t *testing.T) {
	r := gittest.New(t)
	r.Write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.Write("AGENTS.md", "# Rules\n\nRun go test before every commit.\n")
	r.Write("cache/lru.go", "package cache\n\n// EvictOldest drops the least recently used entry.\nfunc EvictOldest(m map[string]int) {\n\tdelete(m, \"x\")\n}\n")
	r.Commit("init")
	c := startMCP(t, r)
	secret := "ghp_" + "q7Xw2LmZ9pRt4VbN8cYs1KdF6gHj3Ae5Ui0o"

	c.fails("session_show", map[string]any{}, "none started yet (git speed session start)")
	c.fails("session_event", map[string]any{"kind": "nosuch"}, `unknown event kind "nosuch"`)
	c.fails("session_event", map[string]any{"kind": "test_run", "status": "maybe"}, "--status maybe: test_run takes pass or fail")
	c.fails("session_show", map[string]any{}, "none started yet") // bad events started nothing

	// Calls that arrive at once start one session between them.
	var wg sync.WaitGroup
	outs := make([]string, 3)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = c.ok("session_event", map[string]any{"kind": "note", "text": fmt.Sprintf("note %d", i)}, "note")
		}()
	}
	wg.Wait()
	var id string
	for _, out := range outs {
		if i := strings.Index(out, "started session "); i >= 0 {
			if id != "" {
				t.Errorf("two sessions started: %s and %s", id, out[i:])
			}
			id = strings.Fields(out[i+len("started session "):])[0]
		}
	}
	if id == "" {
		t.Fatalf("no call started a session: %q", outs)
	}
	c.ok("session_event", map[string]any{"kind": "task_started", "text": "make EvictOldest evict by age", "files": []string{"cache/lru.go"}}, "#4 task_started cache/lru.go")
	c.ok("session_event", map[string]any{"kind": "file_read", "files": []string{"cache/lru.go"}}, "context ")
	c.ok("session_event", map[string]any{"kind": "tool_call", "text": "curl with " + secret, "status": "ok", "content": "HTTP/1.1 200 OK\n" + secret + "\n"}, "REDACTED")
	c.ok("session_event", map[string]any{"kind": "test_run", "text": "TestEvictByAge fails", "status": "fail", "session": id}, "test_run")
	c.ok("session_event", map[string]any{"kind": "decision", "text": "keep the map API", "json": true}, `"kind": "decision"`)
	c.fails("session_event", map[string]any{"kind": "edit", "files": []string{"../outside.go"}}, "outside the repository")
	c.fails("session_event", map[string]any{"kind": "note", "session": "nosuch"}, "nosuch")
	c.fails("session_event", map[string]any{"kind": 7}, "kind")

	c.ok("session_show", map[string]any{}, "keep the map API")
	// One recent event; the ones before it are in the summary.
	if out := c.ok("session_show", map[string]any{"events": 1}, "keep the map API"); !strings.Contains(out, "### Recent events (the last 1; 7 events before them in the summary)") ||
		strings.Contains(out, "- #7 test_run (fail)") || !strings.Contains(out, "- #7 test_run: TestEvictByAge fails") {
		t.Errorf("session_show events 1: not the last event and a summary of the others:\n%s", out)
	}
	c.fails("session_show", map[string]any{"events": -1}, "--events must be 0 or more")
	c.ok("session_compact", map[string]any{}, "TestEvictByAge fails")
	c.ok("session_compact", map[string]any{"session": id}, "events 1-8 in a summary") // nothing new: the last summary
	c.ok("session_show", map[string]any{"session": id}, "cache/lru.go")

	c.ok("memory_add", map[string]any{"text": "EvictOldest must stay O(1); token " + secret, "tags": []string{"cache"}, "session": id}, "")
	c.ok("memory_add", map[string]any{"text": "the release notes live in docs/"}, "")
	c.ok("memory_search", map[string]any{"query": "evict the oldest entry", "top": 1}, "EvictOldest must stay O(1)")
	c.ok("memory_search", map[string]any{"query": "evict", "json": true}, `"method": "bm25"`)
	c.fails("memory_search", map[string]any{"query": "x", "top": -1}, "--top must be positive")
	c.fails("memory_add", map[string]any{}, `missing properties: ["text"]`)
	c.fails("memory_add", map[string]any{"text": ""}, "a memory needs some text")

	ctxOut := c.ok("context", map[string]any{"task": "evict the oldest entry by age", "session": id, "budget": 4000}, "--- context report\n")
	if !strings.Contains(ctxOut, "within budget: true") {
		t.Errorf("context report not within budget:\n%s", ctxOut)
	}
	for _, want := range []string{"Run go test before every commit.", "EvictOldest must stay O(1)", "TestEvictByAge fails", "cache/lru.go"} {
		if !strings.Contains(ctxOut, want) {
			t.Errorf("context lacks %q:\n%s", want, ctxOut)
		}
	}
	// Without a session named, the current one is in the context.
	c.ok("context", map[string]any{"task": "evict the oldest entry by age", "no_map": true}, "TestEvictByAge fails")
	if out := c.ok("context", map[string]any{"task": "evict the oldest entry by age", "no_map": true, "no_session": true}, "# Task"); strings.Contains(out, "TestEvictByAge") {
		t.Errorf("context with no_session has the session:\n%s", out)
	}
	c.ok("context", map[string]any{"task": "evict", "no_map": true, "json": true}, `"report": {`)
	c.fails("context", map[string]any{"task": " "}, "context needs a non-empty TASK-TEXT")
	c.fails("context", map[string]any{"task": "-"}, "not available through the server")
	c.fails("context", map[string]any{"task": "x", "budget": -5}, "--budget must be a positive number of tokens")
	c.fails("context", map[string]any{"task": "x", "session": "nosuch"}, "nosuch")

	c.ok("usage", map[string]any{}, "session "+id+": 8 events, 1 compactions")
	c.ok("usage", map[string]any{}, "checkpoint: no")
	c.ok("usage", map[string]any{"session": id, "json": true}, `"checkpoint": false`)
	c.ok("usage", map[string]any{"plan_files": 4, "total": 1000}, "budget_for_task: 500 tokens")
	c.fails("usage", map[string]any{"plan_files": -1}, "--plan-files must be 0 or more")

	// An explicit start makes the new session current; the list stars it.
	c.ok("session_start", map[string]any{"id": "second", "task": "write the release notes", "files": []string{"go.mod"}}, "second")
	c.fails("session_start", map[string]any{"id": "second"}, "session second already exists")
	c.fails("session_start", map[string]any{"id": "../x"}, `session id "../x": use letters`)
	c.ok("session_list", map[string]any{}, "* second\t1 events")
	c.ok("session_list", map[string]any{"json": true}, `"id": "`+id+`"`)
	c.ok("session_event", map[string]any{"kind": "note", "text": "into the second"}, "#2 note: into the second")

	// Whatever went in, no result carries the secret.
	for _, name := range []string{"session_show", "usage", "session_compact"} {
		if out, _ := c.call(name, map[string]any{"json": true}); strings.Contains(out, secret) {
			t.Errorf("%s leaks the secret:\n%s", name, out)
		}
	}
	for _, out := range []string{ctxOut, c.ok("memory_search", map[string]any{"query": "EvictOldest token"}, "REDACTED")} {
		if strings.Contains(out, secret) {
			t.Errorf("a result leaks the secret:\n%s", out)
		}
	}
}

// mcpClient is a real SDK client connected to `git speed mcp` in a
// repository, with checks on its tool calls.
type mcpClient struct {
	t   *testing.T
	ctx context.Context
	cs  *mcp.ClientSession
}

func startMCP(t *testing.T, r *gittest.Repo) *mcpClient {
	t.Helper()
	if _, err := exec.LookPath("git-speed"); err != nil {
		t.Skip("git-speed is not on PATH (TestMain installs it)")
	}
	cmd := exec.Command("git", "speed", "mcp")
	cmd.Dir, cmd.Env = r.Dir, r.Env
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &mcpClient{t: t, ctx: ctx, cs: cs}
}

// toolNames lists the server's tools, checking each has an input schema.
func (c *mcpClient) toolNames() string {
	c.t.Helper()
	tools, err := c.cs.ListTools(c.ctx, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if tl.InputSchema == nil {
			c.t.Errorf("tool %s has no input schema", tl.Name)
		}
	}
	return strings.Join(names, " ")
}

// call returns a tool's text and whether it is an error.
func (c *mcpClient) call(name string, args map[string]any) (string, bool) {
	c.t.Helper()
	res, err := c.cs.CallTool(c.ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return err.Error(), true
	}
	var b strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// ok calls a tool that must succeed with want in its text, and returns the text.
func (c *mcpClient) ok(name string, args map[string]any, want string) string {
	c.t.Helper()
	out, isErr := c.call(name, args)
	if isErr || !strings.Contains(out, want) {
		c.t.Errorf("%s %v: error %v, want %q in:\n%s", name, args, isErr, want, out)
	}
	return out
}

// fails calls a tool that must be a tool error with want in its sentence.
func (c *mcpClient) fails(name string, args map[string]any, want string) {
	c.t.Helper()
	out, isErr := c.call(name, args)
	if !isErr || !strings.Contains(out, want) {
		c.t.Errorf("%s %v: want an error with %q, got error %v:\n%s", name, args, want, isErr, out)
	}
}

// BenchmarkPackCLIvsMCP compares a pack through the command line (a new
// process per request) with the same pack through one MCP server (the
// index kept warm), and a tiny MCP call (protocol overhead), on the
// repository GIT_SPEED_BENCH_REPO with the request GIT_SPEED_BENCH_QUERY.
func BenchmarkPackCLIvsMCP(b *testing.B) {
	repo := os.Getenv("GIT_SPEED_BENCH_REPO")
	if repo == "" {
		b.Skip("set GIT_SPEED_BENCH_REPO to an indexed repository with a HEAD commit")
	}
	query := os.Getenv("GIT_SPEED_BENCH_QUERY")
	if query == "" {
		query = "retry the request when the server closes the connection"
	}
	b.Run("cli", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			cmd := exec.Command("git", "speed", "pack", "--", query)
			cmd.Dir = repo
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v\n%s", err, out)
			}
		}
	})
	cmd := exec.Command("git", "speed", "mcp")
	cmd.Dir = repo
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	call := func(b *testing.B, name string, args map[string]any) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %+v", name, err, res)
		}
	}
	call(b, "pack", map[string]any{"query": query}) // load the index once
	b.Run("mcp", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			call(b, "pack", map[string]any{"query": query})
		}
	})
	b.Run("mcp-neighbours", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			call(b, "neighbours", map[string]any{"path": os.Getenv("GIT_SPEED_BENCH_PATH")})
		}
	})
}
