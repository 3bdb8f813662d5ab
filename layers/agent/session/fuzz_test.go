package session

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLog feeds arbitrary bytes to a session log: reading, the window,
// compaction and the next append never panic, and the append keeps every
// event that was readable.
func FuzzLog(f *testing.F) {
	f.Add([]byte(`{"seq":1,"time":"2026-01-01T00:00:00Z","kind":"note","text":"a","tokens":1,"context_tokens":1}` + "\n"))
	f.Add([]byte(`{"seq":1,"kind":"compacted","summary":{"updates":1,"last_seq":5,"files":[{"path":"a"}]}}` + "\n{\"seq\":"))
	f.Add([]byte(`{"seq":-4,"kind":"edit","paths":["x",""],"context_tokens":-9}` + "\n{\"kind\":\"compacted\"}\n"))
	f.Add([]byte("\xff\x00{}\n\n{\"kind\":\"failure\",\"seq\":9223372036854775807}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &Store{Dir: t.TempDir(), Count: func(s string) int { return len(s) / 4 }, Tail: 2, WindowTokens: 100, CompactAt: 0.5}
		if err := os.WriteFile(filepath.Join(s.Dir, "f.jsonl"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		l, err := s.Read("f")
		if err != nil {
			t.Fatal(err)
		}
		w := l.Window(6)
		_ = w.Text()
		before := len(l.Events)
		if _, err := s.Append("f", Event{Kind: Note, Text: "after"}, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Compact("f"); err != nil {
			t.Fatal(err)
		}
		l2, err := s.Read("f")
		if err != nil {
			t.Fatal(err)
		}
		if len(l2.Events) < before+1 {
			t.Fatalf("append lost events: %d then %d", before, len(l2.Events))
		}
	})
}
