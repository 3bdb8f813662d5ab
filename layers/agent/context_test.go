package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/agent/instructions"
	"github.com/git-speed/git-speed/layers/agent/memory"
	"github.com/git-speed/git-speed/layers/agent/session"
)

func options(t *testing.T, budget int) Options {
	c, err := tokens.New(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("# Rules\n\nRun the tests.\n"), 0o644)
	var evs []session.Event
	for i := 1; i <= 40; i++ {
		evs = append(evs, session.Event{Seq: i, Kind: session.Edit, Paths: []string{fmt.Sprintf("pkg/f%d.go", i)}, Text: "edit number " + fmt.Sprint(i)})
	}
	sum := session.Compact(nil, evs[:30], 3)
	evs = append(evs[:30:30], append([]session.Event{{Seq: 31, Kind: session.Compacted, Summary: sum}}, evs[30:]...)...)
	l := &session.Log{ID: "s", Events: evs}
	mapText := func(n int) (string, error) {
		var b strings.Builder
		b.WriteString("# Repository map\n")
		for i, used := 0, 5; ; i++ {
			entry := fmt.Sprintf("\n## file%d.go\n    func F%d()\n", i, i)
			if used += c.Count(entry) + 1; used > n {
				break
			}
			b.WriteString(entry)
		}
		return b.String(), nil
	}
	return Options{Task: "make it fast", Budget: budget, Count: c.Count, Tokenizer: "o200k",
		Shares:       Shares{Instructions: 0.15, Memories: 0.10, Session: 0.25},
		Instructions: &instructions.Options{Root: root},
		Memories:     []memory.Hit{{Memory: memory.Memory{ID: "m1", Text: "speed matters"}, Score: 1.5}, {Memory: memory.Memory{ID: "m2", Text: "fast paths"}, Score: 0.5}},
		MemoryMethod: "bm25", Window: l.Window(6), RepoMap: mapText}
}

func TestAssemble(t *testing.T) {
	o := options(t, 4000)
	res, err := Assemble(o)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	sum := 0
	for _, s := range res.Report.Sections {
		names = append(names, s.Name)
		sum += s.Tokens
		if s.Limit > 0 && s.Tokens > s.Limit {
			t.Errorf("%s: %d tokens over its limit %d", s.Name, s.Tokens, s.Limit)
		}
	}
	if got := strings.Join(names, " "); got != "task instructions session_summary recent_events similar_memories repo_map" {
		t.Errorf("sections %s", got)
	}
	r := res.Report
	if !r.WithinBudget || r.TotalTokens > 4000 || r.RemainingTokens != 4000-r.TotalTokens || r.TotalTokens < 3000 {
		t.Errorf("report %+v", r)
	}
	if sum < r.TotalTokens-len(names) || sum > r.TotalTokens+len(names) {
		t.Errorf("sections sum to %d, the text counts %d", sum, r.TotalTokens)
	}
	if !strings.Contains(res.Text, "- #40 edit pkg/f40.go") || strings.Contains(res.Text, "- #32 edit") {
		t.Errorf("recent events are not the last 6:\n%s", res.Text)
	}
	again, _ := Assemble(o)
	if again.Text != res.Text {
		t.Error("not deterministic")
	}

	// A tight budget cuts the summary with a pointer and drops events and memories, saying so.
	o = options(t, 400)
	res, err = Assemble(o)
	if err != nil {
		t.Fatal(err)
	}
	cuts := map[string]string{}
	for _, s := range res.Report.Sections {
		cuts[s.Name] = s.Cut
	}
	if !strings.Contains(cuts[SecSessionSummary], "git speed session show --session s prints them") || !strings.Contains(res.Text, "lines cut;") {
		t.Errorf("summary cut: %q\n%s", cuts[SecSessionSummary], res.Text)
	}
	if !res.Report.WithinBudget {
		t.Errorf("over budget: %+v", res.Report)
	}
}
