package session

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/git-speed/git-speed/internal/tokens"
)

func newStore(t testing.TB) *Store {
	c, err := tokens.New(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return &Store{Dir: t.TempDir(), Count: c.Count, Tail: 3, Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
}

// events makes n deterministic events of every kind over a set of files.
func events(n int, seed int64) []Event {
	r := rand.New(rand.NewSource(seed))
	out := make([]Event, 0, n)
	for i := 0; i < n; i++ {
		e := Event{Kind: Kinds[r.Intn(len(Kinds))]}
		file := fmt.Sprintf("pkg%d/file%d.go", r.Intn(20), r.Intn(50))
		switch e.Kind {
		case TaskStarted:
			e.Text = fmt.Sprintf("goal %d: make the thing %d work", i, r.Intn(100))
		case FileRead, Edit:
			e.Paths = []string{file}
			e.Text = fmt.Sprintf("%s of %s", e.Kind, file)
		case ToolCall:
			e.Text = fmt.Sprintf("go build ./pkg%d", r.Intn(20))
			e.Status = []string{"ok", "error"}[r.Intn(2)]
		case TestRun:
			e.Text = fmt.Sprintf("go test ./pkg%d", r.Intn(20))
			e.Status = []string{"pass", "fail"}[r.Intn(2)]
			e.Paths = []string{file}
		case Failure:
			e.Text = fmt.Sprintf("failure %d: %s panics", i, file)
		case Decision:
			e.Text = fmt.Sprintf("decision %d: keep %s small", i, file)
			e.Paths = []string{file}
		case Note:
			e.Text = fmt.Sprintf("note %d", i)
		}
		out = append(out, e)
	}
	return out
}

// A 500-event session, compacted at several points (by hand and by the
// threshold), keeps every file touched, failure and decision.
func TestReplayKeepsFilesFailuresDecisions(t *testing.T) {
	s := newStore(t)
	s.WindowTokens, s.CompactAt = 4000, 0.5 // auto compaction every ~2000 tokens
	id, err := s.Start(StartOptions{ID: "replay"})
	if err != nil {
		t.Fatal(err)
	}
	evs := events(500, 1)
	autos := 0
	for i, e := range evs {
		res, err := s.Append(id, e, strings.Repeat("content ", i%50))
		if err != nil {
			t.Fatal(err)
		}
		if res.Compacted != nil {
			autos++
		}
		if i%97 == 96 {
			if _, err := s.Compact(id); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.Compact(id); err != nil {
		t.Fatal(err)
	}
	if autos == 0 {
		t.Error("the threshold never compacted the session")
	}
	l, err := s.Read(id)
	if err != nil || len(l.Warnings) > 0 {
		t.Fatal(err, l.Warnings)
	}
	w := l.Window(6)
	if w.Summary == nil || len(w.Recent) != 0 || w.Summary.Events != 500 || w.Summary.FirstSeq != 1 {
		t.Fatalf("window after the last compaction: %+v", w)
	}
	text := w.Text()
	files := map[string]bool{}
	for _, f := range w.Summary.Files {
		files[f.Path] = true
	}
	fails, decs := 0, 0
	for _, e := range l.Events {
		if e.Kind == Compacted {
			continue
		}
		for _, p := range e.Paths {
			if !files[p] || !strings.Contains(text, "- "+p+" (") {
				t.Errorf("file %s lost", p)
			}
		}
		if e.Failed() {
			fails++
			if !strings.Contains(text, fmt.Sprintf("- #%d %s: ", e.Seq, e.Kind)) {
				t.Errorf("failure #%d lost", e.Seq)
			}
		}
		if e.Kind == Decision {
			decs++
			if !strings.Contains(text, fmt.Sprintf("- #%d %s", e.Seq, e.Text)) {
				t.Errorf("decision #%d lost", e.Seq)
			}
		}
	}
	if len(w.Summary.Failures) != fails || len(w.Summary.Decision) != decs || fails == 0 || decs == 0 {
		t.Errorf("summary has %d failures and %d decisions, the log %d and %d", len(w.Summary.Failures), len(w.Summary.Decision), fails, decs)
	}
	if w.Summary.Updates < 5 || !strings.Contains(text, fmt.Sprintf("### Session Update %d", w.Summary.Updates)) {
		t.Errorf("not a rolling summary: %d updates", w.Summary.Updates)
	}
	// Compaction is deterministic: folding the same events gives the same bytes.
	var plain []Event
	for _, e := range l.Events {
		if e.Kind != Compacted {
			plain = append(plain, e)
		}
	}
	a, b := Compact(nil, plain, 3).Render(), Compact(nil, plain, 3).Render()
	if a != b {
		t.Error("compaction is not deterministic")
	}
}

func TestWindowAndTruncatedLog(t *testing.T) {
	s := newStore(t)
	id, err := s.Start(StartOptions{Task: "fix the parser", Paths: []string{"p.go"}})
	if err != nil || id != "20260102-030406" {
		t.Fatal(id, err)
	}
	for i := 0; i < 9; i++ {
		if _, err := s.Append(id, Event{Kind: Note, Text: fmt.Sprintf("note %d", i)}, ""); err != nil {
			t.Fatal(err)
		}
	}
	// A crash mid-append.
	f, _ := os.OpenFile(s.file(id), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":11,"kind":"no`)
	f.Close()
	res, err := s.Append(id, Event{Kind: Edit, Paths: []string{"p.go"}, Text: "fix"}, "package p\n")
	if err != nil || res.Event.Seq != 11 || res.Event.Tokens == 0 || res.Event.Bytes != 10 {
		t.Fatalf("append after a crash: %+v %v", res, err)
	}
	l, err := s.Read(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Events) != 11 || len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "sessions/"+id+".jsonl:11: not a JSON object") {
		t.Fatalf("%d events, warnings %q", len(l.Events), l.Warnings)
	}
	w := l.Window(6)
	if len(w.Recent) != 6 || w.Folded != 5 || w.Recent[5].Seq != 11 {
		t.Errorf("window: %d recent, %d folded", len(w.Recent), w.Folded)
	}
	// Before any compaction the older events are a summary: the goal and
	// the first notes are in the window.
	if w.Summary == nil || len(w.Summary.Goals) != 1 || w.Summary.Goals[0].Text != "fix the parser" || w.Summary.Events != 5 || w.Summary.Updates != 0 {
		t.Errorf("window summary: %+v", w.Summary)
	}
	if txt := w.Text(); !strings.Contains(txt, "### Session so far (events 1-5, not compacted yet)") ||
		!strings.Contains(txt, "#1 fix the parser") || !strings.Contains(txt, "(the last 6; 5 events before them in the summary)") {
		t.Errorf("window text:\n%s", txt)
	}
	if n := len(l.Window(100).Recent); n != 11 || l.Window(100).Summary != nil {
		t.Errorf("a window of 100 events: %d recent", n)
	}
	sum := 0
	for _, e := range l.Events {
		sum += e.Tokens
	}
	if w.Context != sum {
		t.Errorf("context %d, events sum to %d", w.Context, sum)
	}
	c, err := s.Compact(id)
	if err != nil || c.Context != s.Count(c.Summary.Render()) {
		t.Fatal(c, err)
	}
	if c2, _ := s.Compact(id); c2.Seq != c.Seq {
		t.Error("compacting nothing new wrote another summary")
	}
	cur, _ := s.Current()
	list, _, _ := s.List()
	if cur != id || len(list) != 1 || list[0].Goal != "fix the parser" || list[0].Compactions != 1 || list[0].Events != 11 {
		t.Errorf("current %s list %+v", cur, list)
	}
	if _, err := s.Start(StartOptions{ID: id}); err == nil {
		t.Error("a second session with the same id")
	}
	if _, err := s.Append("nope", Event{Kind: Note}, ""); err == nil {
		t.Error("append to a missing session")
	}
	if _, err := s.Append(id, Event{Kind: "coffee"}, ""); err == nil || !strings.Contains(err.Error(), "unknown event kind \"coffee\"") {
		t.Errorf("bad kind: %v", err)
	}
}

func TestConcurrentAppends(t *testing.T) {
	s := newStore(t)
	s.Now = nil
	id, _ := s.Start(StartOptions{ID: "c"})
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if _, err := s.Append(id, Event{Kind: Note, Text: "n"}, ""); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	l, _ := s.Read(id)
	if len(l.Events) != 200 {
		t.Fatalf("%d events", len(l.Events))
	}
	for i, e := range l.Events {
		if e.Seq != i+1 {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
	}
}

// BenchmarkCompact10k folds a 10,000-event session into a summary and
// renders it (the goal: under 100 ms).
func BenchmarkCompact10k(b *testing.B) {
	evs := events(10000, 2)
	for i := range evs {
		evs[i].Seq = i + 1
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := Compact(nil, evs, 3)
		_ = s.Render()
	}
}

// BenchmarkStoreCompact10k is the whole `session compact` of a
// 10,000-event log: read and decode it, fold it, render the summary, count
// its tokens exactly and append it under the lock.
func BenchmarkStoreCompact10k(b *testing.B) {
	s := newStore(b)
	id, _ := s.Start(StartOptions{ID: "big"})
	var buf strings.Builder
	ctx := 0
	for i, e := range events(10000, 3) {
		e.Seq, e.Time, e.Tokens = i+1, "2026-01-01T00:00:00Z", 10
		ctx += 10
		e.Context = ctx
		line, _ := json.Marshal(e)
		buf.Write(line)
		buf.WriteByte('\n')
	}
	data := []byte(buf.String())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		os.WriteFile(s.file(id), data, 0o644)
		b.StartTimer()
		c, err := s.Compact(id)
		if err != nil || c.Summary.Events != 10000 {
			b.Fatal(c, err)
		}
	}
}
