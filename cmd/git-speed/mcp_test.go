package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-speed/git-speed/internal/gittest"
)

// The MCP server end to end: a real client of the SDK starts `git speed
// mcp` (this test binary installed on PATH as git-speed, run by the real
// git) over stdio in a real repository.
func TestMCPServer(t *testing.T) {
	if _, err := exec.LookPath("git-speed"); err != nil {
		t.Skip("git-speed is not on PATH (TestMain installs it)")
	}
	r := gittest.New(t)
	r.Write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.Write("cache/lru.go", "package cache\n\n// EvictOldest drops the least recently used entry.\nfunc EvictOldest(m map[string]int) {\n\tdelete(m, \"x\")\n}\n\nfunc helper() {\n\t// a long body\n}\n")
	r.Write("server/http.go", "package server\n\nimport \"example.com/m/cache\"\n\n// Serve answers from the cache.\nfunc Serve() { cache.EvictOldest(nil) }\n")
	r.Commit("init")

	cmd := exec.Command("git", "speed", "mcp")
	cmd.Dir, cmd.Env = r.Dir, r.Env
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if tl.InputSchema == nil {
			t.Errorf("tool %s has no input schema", tl.Name)
		}
	}
	if got := strings.Join(names, " "); got != "map neighbours pack read render scope skeleton symbols" {
		t.Errorf("tools: %s", got)
	}

	call := func(name string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			return err.Error(), true
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String(), res.IsError
	}
	ok := func(name string, args map[string]any, want string) {
		t.Helper()
		out, isErr := call(name, args)
		if isErr || !strings.Contains(out, want) {
			t.Errorf("%s %v: error %v, want %q in:\n%s", name, args, isErr, want, out)
		}
	}
	fails := func(name string, args map[string]any, want string) {
		t.Helper()
		out, isErr := call(name, args)
		if !isErr || !strings.Contains(out, want) {
			t.Errorf("%s %v: want an error with %q, got error %v:\n%s", name, args, want, isErr, out)
		}
	}

	ok("pack", map[string]any{"query": "where is the oldest entry evicted"}, "## 1. cache/lru.go (go), lines 3-6")
	ok("pack", map[string]any{"query": "oldest entry", "json": true, "max_items": 1}, `"workspace": "."`)
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
	fails("symbols", map[string]any{"name": "-rf"}, "must not start with -")
	fails("scope", map[string]any{"feature": "nosuch", "task": "1"}, "nosuch")
	fails("nosuchtool", map[string]any{}, "nosuchtool")

	// The world follows HEAD between calls.
	r.Write("retry/backoff.go", "package retry\n\n// Backoff waits longer after each failed attempt.\nfunc Backoff(n int) int { return n * 2 }\n")
	r.Commit("retry")
	ok("pack", map[string]any{"query": "exponential backoff after a failed attempt"}, "retry/backoff.go")
	ok("read", map[string]any{"path": "retry/backoff.go", "worktree": true}, "func Backoff")
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
