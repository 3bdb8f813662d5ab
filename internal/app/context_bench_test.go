package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/corpus"
	"github.com/git-speed/git-speed/layers/agent/memory"
	"github.com/git-speed/git-speed/layers/agent/session"
	"github.com/git-speed/git-speed/layers/world/build"
)

// BenchmarkContextGOROOT measures `git speed context` with every section
// on the GOROOT/src index: instruction files (global and repository root),
// a compacted 300-event session, 50 memories and the repo map focused by
// the task, at the default 32k budget. Loading the tree's index is part of
// each run, as it is for the command.
func BenchmarkContextGOROOT(b *testing.B) {
	// GIT_SPEED_BENCH_GOROOT names a private copy (bench/lib.sh goroot_corpus)
	// when other benchmarks share the default one.
	dir := os.Getenv("GIT_SPEED_BENCH_GOROOT")
	if dir == "" {
		dir = corpus.GoRoot(b)
	}
	repo, err := gitstore.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	cfg := config.Default()
	if _, err := build.Index(context.Background(), repo, "HEAD", build.Options{Config: cfg}); err != nil {
		b.Fatal(err)
	}
	e, err := Open(Options{Dir: dir, OneShot: true})
	if err != nil {
		b.Fatal(err)
	}
	xdg := b.TempDir()
	os.MkdirAll(filepath.Join(xdg, "git-speed"), 0o755)
	os.WriteFile(filepath.Join(xdg, "git-speed", "AGENTS.md"), []byte("# Global\n\nBe brief. Run the tests.\n"), 0o644)
	b.Setenv("XDG_CONFIG_HOME", xdg)
	// Sessions and memories go to a folder of the benchmark's own, not the corpus's git dir.
	agentDir := b.TempDir()
	cnt, _ := e.counter()
	s := &session.Store{Dir: filepath.Join(agentDir, "sessions"), Count: cnt.Count, Tail: 3}
	id, err := s.Start(session.StartOptions{ID: "bench", Task: "make the HTTP server honour ReadHeaderTimeout", Paths: []string{"net/http/server.go"}})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		kind := session.Kinds[i%len(session.Kinds)]
		if _, err := s.Append(id, session.Event{Kind: kind, Text: fmt.Sprintf("%s %d on conn.serve", kind, i), Paths: []string{fmt.Sprintf("net/http/f%d.go", i%40)}}, ""); err != nil {
			b.Fatal(err)
		}
		if i == 290 {
			s.Compact(id)
		}
	}
	ms := &memory.Store{Dir: agentDir}
	for i := 0; i < 50; i++ {
		ms.Add(fmt.Sprintf("memory %d: the server's conn.serve reads headers with a deadline %d", i, i), nil, "")
	}
	req := ContextRequest{Task: "make net/http Server honour ReadHeaderTimeout in conn.serve", Budget: cfg.Agent.ContextBudget,
		Session: id, Files: []string{"net/http/server.go"}, Rev: "HEAD"}
	op := e.op(context.Background())
	// cold: the repo map is rendered every time (the stored maps are
	// removed first); warm: the map of the same recipe is read back.
	for _, mode := range []string{"cold", "warm"} {
		b.Run(mode, func(b *testing.B) {
			// CPU time beside wall time: on a shared machine it moves less
			// with the neighbours' load.
			cpu0 := cpuTime()
			defer func() { b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op") }()
			for i := 0; i < b.N; i++ {
				if mode == "cold" {
					os.RemoveAll(e.mapCacheDir())
				}
				res, err := op.buildContext(req, s, ms)
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Report.Sections) != 6 || !res.Report.WithinBudget {
					b.Fatalf("sections %+v", res.Report)
				}
			}
		})
	}
}

// cpuTime is the process's user and system time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
