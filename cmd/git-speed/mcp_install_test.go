package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pelletier/go-toml/v2"

	"github.com/git-speed/git-speed/internal/gittest"
)

// launch is a server entry as a client reads it from its file.
type launch struct {
	Command string   `json:"command" toml:"command"`
	Args    []string `json:"args" toml:"args"`
	Cwd     string   `json:"cwd" toml:"cwd"`
	Type    string   `json:"type" toml:"type"`
	Startup int      `toml:"startup_timeout_sec"`
}

// TestMCPInstallLaunches registers the server with every client in both
// scopes through `git speed mcp install`, reads each written file with a
// parser of its format, and starts the entry as that client does (its
// command, its args, in the client's folder: elsewhere than the
// repository for a project entry, which names it) with the SDK's client:
// initialize and tools/list must answer. Installing twice changes no byte.
func TestMCPInstallLaunches(t *testing.T) {
	if _, err := exec.LookPath("git-speed"); err != nil {
		t.Skip("git-speed is not on PATH (TestMain installs it)")
	}
	r := gittest.New(t)
	r.Write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.Write("cache/lru.go", "package cache\n\n// EvictOldest drops the least recently used entry.\nfunc EvictOldest(m map[string]int) {}\n")
	r.Commit("init")
	if err := os.MkdirAll(filepath.Join(r.Dir, "cache", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Another server already registered stays.
	r.Write(".mcp.json", "{\n  \"mcpServers\": {\n    \"other\": {\"command\": \"other-server\"}\n  }\n}\n")
	elsewhere := t.TempDir()

	files := map[string]string{
		"claude/project": filepath.Join(r.Dir, ".mcp.json"), "claude/user": filepath.Join(r.Home, ".claude.json"),
		"codex/project": filepath.Join(r.Dir, ".codex", "config.toml"), "codex/user": filepath.Join(r.Home, ".codex", "config.toml"),
		"cursor/project": filepath.Join(r.Dir, ".cursor", "mcp.json"), "cursor/user": filepath.Join(r.Home, ".cursor", "mcp.json"),
		"vscode/project": filepath.Join(r.Dir, ".vscode", "mcp.json"), "vscode/user": filepath.Join(r.Home, ".config", "Code", "User", "mcp.json"),
	}
	for _, client := range []string{"claude", "codex", "cursor", "vscode"} {
		for _, scope := range []string{"project", "user"} {
			t.Run(client+"/"+scope, func(t *testing.T) {
				r.Git("speed", "mcp", "install", "--client", client, "--scope", scope)
				file := files[client+"/"+scope]
				first, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				r.Git("speed", "mcp", "install", "--client", client, "--scope", scope)
				if again, _ := os.ReadFile(file); string(again) != string(first) {
					t.Fatalf("a second install changed %s:\n%s\n---\n%s", file, first, again)
				}
				var l launch
				switch client {
				case "codex":
					var v struct {
						S map[string]launch `toml:"mcp_servers"`
					}
					if err := toml.Unmarshal(first, &v); err != nil {
						t.Fatal(err)
					}
					l = v.S["git-speed"]
					if l.Startup != 30 {
						t.Errorf("startup_timeout_sec %d", l.Startup)
					}
				default:
					var v map[string]map[string]launch
					if err := json.Unmarshal(first, &v); err != nil {
						t.Fatal(err)
					}
					key := "mcpServers"
					if client == "vscode" {
						key = "servers"
						if v[key]["git-speed"].Type != "stdio" {
							t.Errorf("type %q", v[key]["git-speed"].Type)
						}
					}
					l = v[key]["git-speed"]
					if client == "claude" && scope == "project" && v[key]["other"].Command != "other-server" {
						t.Errorf("the other server was lost:\n%s", first)
					}
				}
				// Where the client starts it: a project entry from anywhere,
				// a user entry from inside the repository.
				cwd := elsewhere
				if scope == "user" {
					cwd = filepath.Join(r.Dir, "cache", "sub")
				}
				if l.Cwd != "" {
					cwd = strings.ReplaceAll(l.Cwd, "${workspaceFolder}", r.Dir)
				}
				if !filepath.IsAbs(l.Command) {
					t.Fatalf("command %q is not absolute", l.Command)
				}
				startEntry(t, l.Command, l.Args, cwd, r.Env)
			})
		}
	}
}

// startEntry starts a server as a client would and lists its tools.
func startEntry(t *testing.T, command string, args []string, dir string, env []string) {
	t.Helper()
	cmd := exec.Command(command, args...)
	cmd.Dir, cmd.Env = dir, env
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("%s %v in %s: %v", command, args, dir, err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) == 0 || tools.Tools[0].Name == "" {
		t.Fatalf("no tools")
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "skeleton", Arguments: map[string]any{"paths": []string{"cache/lru.go"}}})
	if err != nil || res.IsError {
		t.Fatalf("skeleton: %v %+v", err, res)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); !ok || !strings.Contains(tc.Text, "EvictOldest") {
		t.Fatalf("skeleton of the repository's file: %+v", res.Content)
	}
}
