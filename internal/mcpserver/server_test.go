package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-speed/git-speed/internal/app"
	"github.com/git-speed/git-speed/internal/gittest"
)

// connect serves dir's Session in process and returns an SDK client of it
// (in-memory transport; the stdio path is cmd/git-speed's TestMCPServer).
func connect(t testing.TB, dir string, opt *mcp.ClientOptions) (*mcp.ClientSession, *app.Session) {
	t.Helper()
	s, err := app.Open(app.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	ss, err := New(s, "test").Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, opt).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		cancel()
		s.Close()
	})
	return cs, s
}

// call returns a tool's text and whether it failed (a tool error or a
// protocol error).
func call(ctx context.Context, cs *mcp.ClientSession, params *mcp.CallToolParams) (string, error) {
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.IsError {
		return "", errors.New(b.String())
	}
	return b.String(), nil
}

// goRepo is a repository of n Go files in a few packages, committed.
func goRepo(t testing.TB, n int) *gittest.Repo {
	r := gittest.New(t)
	r.Write("go.mod", "module example.com/m\n\ngo 1.22\n")
	for i := 0; i < n; i++ {
		pkg := fmt.Sprintf("p%d", i%7)
		r.Write(fmt.Sprintf("%s/f%d.go", pkg, i), fmt.Sprintf("package %s\n\n// Func%d adds %d.\nfunc Func%d(x int) int {\n\treturn x + %d\n}\n", pkg, i, i, i, i))
	}
	r.Commit("init")
	return r
}

// A first call that has to index the tree reports progress to a client
// that asked for it, and still answers.
func TestProgressWhileIndexing(t *testing.T) {
	r := goRepo(t, 300)
	var got atomic.Int64
	var last atomic.Value
	cs, _ := connect(t, r.Dir, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		got.Add(1)
		last.Store(req.Params)
	}})
	params := &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": "p1/f1.go"}}
	params.SetProgressToken("index-1")
	out, err := call(context.Background(), cs, params)
	if err != nil || !strings.Contains(out, "func Func1(x int) int") {
		t.Fatalf("read: %v\n%s", err, out)
	}
	// Notifications may trail the result by a moment.
	for deadline := time.Now().Add(2 * time.Second); got.Load() == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if got.Load() == 0 {
		t.Fatal("no progress notification while the first call indexed the tree")
	}
	p := last.Load().(*mcp.ProgressNotificationParams)
	if p.ProgressToken != "index-1" || p.Total < 300 || !strings.Contains(p.Message, "parsed") {
		t.Errorf("last progress: %+v", p)
	}
	// The tree is indexed now: no progress for the next call.
	before := got.Load()
	params.SetProgressToken("index-2")
	if _, err := call(context.Background(), cs, params); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if got.Load() != before {
		t.Errorf("progress reported for a call that indexed nothing")
	}
}

// A read answers while another call is busy, and a call cancelled by the
// client stops: here memory_search waits on an embedding command that
// sleeps, which the old one-call-at-a-time server made every call wait for.
func TestCallsRunConcurrentlyAndCancel(t *testing.T) {
	r := goRepo(t, 20)
	r.Write("speed.toml", "[agent]\nembed_command = [\"sh\", \"-c\", \"sleep 5; echo '[1, 0]'\"]\n")
	r.Commit("slow embedder")
	cs, _ := connect(t, r.Dir, nil)
	ctx := context.Background()
	if _, err := call(ctx, cs, &mcp.CallToolParams{Name: "memory_add", Arguments: map[string]any{"text": "Func3 adds three"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := call(ctx, cs, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": "p1/f1.go"}}); err != nil {
		t.Fatal(err) // indexes the tree
	}
	slowCtx, cancel := context.WithCancel(ctx)
	slow := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := call(slowCtx, cs, &mcp.CallToolParams{Name: "memory_search", Arguments: map[string]any{"query": "adds"}})
		slow <- err
	}()
	time.Sleep(200 * time.Millisecond) // the search is waiting on its command
	readStart := time.Now()
	if out, err := call(ctx, cs, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": "p2/f2.go"}}); err != nil || !strings.Contains(out, "Func2") {
		t.Fatalf("read during the search: %v\n%s", err, out)
	}
	if d := time.Since(readStart); d > 2*time.Second {
		t.Errorf("a read took %v while another call was busy", d)
	}
	select {
	case err := <-slow:
		t.Fatalf("the search answered before it was cancelled: %v", err)
	default:
	}
	cancel()
	select {
	case err := <-slow:
		if err == nil {
			t.Error("a cancelled call answered as if it had finished")
		}
	case <-time.After(3 * time.Second):
		t.Fatal("a cancelled call did not stop")
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("the cancelled search took %v; its command sleeps 5 s", d)
	}
	// The server keeps serving.
	if _, err := call(ctx, cs, &mcp.CallToolParams{Name: "skeleton", Arguments: map[string]any{"paths": []string{"p3/f3.go"}}}); err != nil {
		t.Fatal(err)
	}
}

// soakCalls is how many mixed calls TestSoak makes; GIT_SPEED_SOAK_CALLS
// asks for more (the figure is 1,000 on GOROOT/src:
// GIT_SPEED_SOAK_REPO names an indexed repository to soak instead of the
// small one the test builds).
func soakCalls() int {
	if n, err := strconv.Atoi(os.Getenv("GIT_SPEED_SOAK_CALLS")); err == nil && n > 0 {
		return n
	}
	return 240
}

// A long run of mixed calls (some cancelled, some bad, several at once)
// answers every one, holds its heap steady and leaves no goroutine behind.
func TestSoak(t *testing.T) {
	dir := os.Getenv("GIT_SPEED_SOAK_REPO")
	files := []string{}
	if dir == "" {
		r := goRepo(t, 60)
		dir = r.Dir
		for i := 0; i < 60; i++ {
			files = append(files, fmt.Sprintf("p%d/f%d.go", i%7, i))
		}
	}
	baseline := runtime.NumGoroutine()
	cs, s := connect(t, dir, nil)
	ctx := context.Background()
	if len(files) == 0 {
		g, err := s.Graph(ctx, app.Rev{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range g.Edges {
			files = append(files, e.To)
			if len(files) == 200 {
				break
			}
		}
	}
	calls := func(i int) *mcp.CallToolParams {
		f := files[i%len(files)]
		switch i % 10 {
		case 0:
			return &mcp.CallToolParams{Name: "pack", Arguments: map[string]any{"query": fmt.Sprintf("where does Func%d add", i%60), "max_items": 3, "budget": 1500}}
		case 1:
			return &mcp.CallToolParams{Name: "symbols", Arguments: map[string]any{"name": fmt.Sprintf("Func%d", i%60)}}
		case 2:
			return &mcp.CallToolParams{Name: "skeleton", Arguments: map[string]any{"paths": []string{f}}}
		case 3:
			return &mcp.CallToolParams{Name: "neighbours", Arguments: map[string]any{"path": f}}
		case 4:
			return &mcp.CallToolParams{Name: "map", Arguments: map[string]any{"budget": 400 + i%5}}
		case 5:
			return &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": "no/such/file.go"}} // bad
		case 6:
			return &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": 7}} // bad: not a string
		case 7:
			return &mcp.CallToolParams{Name: "session_event", Arguments: map[string]any{"kind": "note", "text": fmt.Sprintf("call %d", i)}}
		case 8:
			return &mcp.CallToolParams{Name: "memory_search", Arguments: map[string]any{"query": "adds"}}
		}
		return &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": f, "from": 1, "to": 5}}
	}
	n := soakCalls()
	var heapAt100, rssAt100 uint64
	var answered, failed, cancelled atomic.Int64
	sem := make(chan struct{}, 4) // four calls at once
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		if i == 100 {
			wg.Wait()
			heapAt100, rssAt100 = liveHeap(), rss()
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			cctx, cancel := context.WithCancel(ctx)
			defer cancel()
			if i%13 == 0 {
				go func() { time.Sleep(time.Millisecond); cancel() }()
			}
			_, err := call(cctx, cs, calls(i))
			switch {
			case err == nil:
				answered.Add(1)
			case errors.Is(err, context.Canceled) || cctx.Err() != nil:
				cancelled.Add(1)
			default:
				failed.Add(1)
			}
		}()
	}
	wg.Wait()
	if got := answered.Load() + failed.Load() + cancelled.Load(); got != int64(n) {
		t.Fatalf("%d of %d calls came back", got, n)
	}
	// The bad calls fail, the rest answer, unless cancelled.
	if failed.Load() < int64(n/10) || answered.Load() < int64(n/2) {
		t.Errorf("answered %d, failed %d, cancelled %d of %d", answered.Load(), failed.Load(), cancelled.Load(), n)
	}
	// A bad call's error is one sentence.
	if _, err := call(ctx, cs, calls(5)); err == nil || strings.Count(strings.TrimSpace(err.Error()), "\n") > 0 {
		t.Errorf("bad call: %v", err)
	}
	after, rssAfter := liveHeap(), rss()
	if slack := heapAt100/5 + 4<<20; after > heapAt100+slack {
		t.Errorf("live heap grew from %d to %d bytes over %d calls", heapAt100, after, n-100)
	}
	if slack := rssAt100/5 + 16<<20; rssAt100 > 0 && rssAfter > rssAt100+slack {
		t.Errorf("resident memory grew from %d to %d bytes over %d calls", rssAt100, rssAfter, n-100)
	}
	t.Logf("%d calls: %d answered, %d failed, %d cancelled; live heap %d after 100 calls, %d after all; RSS %d, %d",
		n, answered.Load(), failed.Load(), cancelled.Load(), heapAt100, after, rssAt100, rssAfter)
	cs.Close()
	// Every goroutine of the calls ends (the client's and server's own
	// end with the connection).
	var now int
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if now = runtime.NumGoroutine(); now <= baseline+2 {
			return
		}
	}
	buf := make([]byte, 1<<20)
	t.Errorf("%d goroutines left, %d before:\n%s", now, baseline, buf[:runtime.Stack(buf, true)])
}

// liveHeap is the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// rss is the process's resident memory (Linux: /proc/self/status VmRSS),
// 0 where it cannot be read.
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
