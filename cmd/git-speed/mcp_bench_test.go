package main

import (
	"context"
	"os"
	"os/exec"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkMCPReadsDuringRender measures, over stdio against `git speed
// mcp`, how long 8 read and symbols calls take when they arrive while a
// render (or, with GIT_SPEED_BENCH_MCP_TOOL=scope, a scope) of a task is
// running in the same server: GIT_SPEED_BENCH_MCP_REPO is an indexed
// repository with a HEAD commit and the feature bench (task 1) under
// --speed-dir .speed-bench; GIT_SPEED_BENCH_MCP_PATH a file to read and
// GIT_SPEED_BENCH_MCP_NAME a name to look up (bench/mcp.sh prepares
// kubernetes). Reported: the median and the largest of the 8 answers'
// times (ms), the median of the same 8 with nothing else running (the
// baseline), and the heavy call's own time, per iteration.
func BenchmarkMCPReadsDuringRender(b *testing.B) {
	repo := os.Getenv("GIT_SPEED_BENCH_MCP_REPO")
	if repo == "" {
		b.Skip("set GIT_SPEED_BENCH_MCP_REPO (bench/mcp.sh)")
	}
	path, name := os.Getenv("GIT_SPEED_BENCH_MCP_PATH"), os.Getenv("GIT_SPEED_BENCH_MCP_NAME")
	heavy := os.Getenv("GIT_SPEED_BENCH_MCP_TOOL")
	if heavy == "" {
		heavy = "render"
	}
	heavyArgs := map[string]any{"feature": "bench", "task": "1"}
	if heavy == "render" {
		heavyArgs["stage"] = "developer"
	}
	cmd := exec.Command("git", "speed", "--speed-dir", ".speed-bench", "mcp")
	cmd.Dir = repo
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	call := func(tool string, args map[string]any) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %+v", tool, err, res)
		}
		return time.Since(start)
	}
	light := []struct {
		tool string
		args map[string]any
	}{
		{"read", map[string]any{"path": path, "from": 1, "to": 60}},
		{"symbols", map[string]any{"name": name}},
	}
	// Warm: the world of HEAD open, its links loaded, the heavy call once.
	for _, l := range light {
		call(l.tool, l.args)
	}
	alone := call(heavy, heavyArgs)
	// lights issues the 8 calls at once and returns their times (ms).
	lights := func() []float64 {
		var mu sync.Mutex
		var took []float64
		var wg sync.WaitGroup
		for k := 0; k < 8; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				l := light[k%len(light)]
				d := call(l.tool, l.args)
				mu.Lock()
				took = append(took, float64(d.Microseconds())/1000)
				mu.Unlock()
			}()
		}
		wg.Wait()
		sort.Float64s(took)
		return took
	}
	var meds, maxes, heavies, idle []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		done := make(chan time.Duration)
		go func() { done <- call(heavy, heavyArgs) }()
		time.Sleep(alone / 4) // the heavy call is well under way
		took := lights()
		heavies = append(heavies, float64((<-done).Microseconds())/1000)
		meds, maxes = append(meds, took[len(took)/2]), append(maxes, took[len(took)-1])
		// The baseline, in the same run: the same calls with nothing else running.
		base := lights()
		idle = append(idle, base[len(base)/2])
	}
	b.StopTimer()
	med := func(xs []float64) float64 { sort.Float64s(xs); return xs[len(xs)/2] }
	b.ReportMetric(med(meds), "light-median-ms")
	b.ReportMetric(med(maxes), "light-max-ms")
	b.ReportMetric(med(idle), "light-idle-median-ms")
	b.ReportMetric(med(heavies), heavy+"-ms")
	b.ReportMetric(float64(alone.Microseconds())/1000, heavy+"-alone-ms")
}
