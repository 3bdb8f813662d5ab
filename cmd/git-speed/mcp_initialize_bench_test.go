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

// BenchmarkMCPInitialize measures what a client waits for when it starts
// the server: process start, initialize and tools/list, per iteration,
// in a tiny indexed repository made here and in each NAME=DIR of
// GIT_SPEED_BENCH_INIT_REPOS (bench/mcp-initialize.sh: the Go
// distribution's src, indexed and not). The server indexes on a tool call,
// never before initialize, so the repository's size should not show.
func BenchmarkMCPInitialize(b *testing.B) {
	if _, err := exec.LookPath("git-speed"); err != nil {
		b.Skip("git-speed is not on PATH (TestMain installs it)")
	}
	r := gittest.New(b)
	r.Write("a.go", "package a\n\nfunc A() {}\n")
	r.Commit("tiny")
	r.Git("speed", "index", "-q")
	repos := [][2]string{{"tiny", r.Dir}}
	for _, kv := range strings.Split(os.Getenv("GIT_SPEED_BENCH_INIT_REPOS"), ",") {
		if name, dir, ok := strings.Cut(kv, "="); ok {
			repos = append(repos, [2]string{name, dir})
		}
	}
	for _, repo := range repos {
		b.Run(repo[0], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				cmd := exec.Command("git", "speed", "mcp")
				cmd.Dir, cmd.Env = repo[1], r.Env
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
				cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := cs.ListTools(ctx, nil); err != nil {
					b.Fatal(err)
				}
				cs.Close()
				cancel()
			}
		})
	}
}
