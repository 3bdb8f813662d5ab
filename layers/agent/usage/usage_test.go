package usage

import (
	"testing"

	"github.com/git-speed/git-speed/layers/agent/session"
)

func TestBudgetForTask(t *testing.T) {
	for _, tc := range []struct{ total, files, want int }{
		{4000, 4, 1000}, {4000, 0, 4000}, {4000, 100, 500}, {300, 1, 500}, {10000, 3, 3333},
	} {
		if got := BudgetForTask(tc.total, tc.files); got != tc.want {
			t.Errorf("BudgetForTask(%d, %d) = %d, want %d", tc.total, tc.files, got, tc.want)
		}
	}
}

func TestCompute(t *testing.T) {
	l := &session.Log{ID: "s", Events: []session.Event{
		{Seq: 1, Time: "2026-01-01T10:00:00Z", Kind: session.TaskStarted, Tokens: 10, Context: 10},
		{Seq: 2, Time: "2026-01-01T10:01:00Z", Kind: session.FileRead, Tokens: 1000, Bytes: 3000, Context: 1010},
		{Seq: 3, Time: "2026-01-01T10:03:00Z", Kind: session.ToolCall, Tokens: 90, Context: 1100},
		{Seq: 4, Time: "2026-01-01T10:04:00Z", Kind: session.Compacted, Tokens: 200, Context: 200, Summary: &session.Summary{}},
		{Seq: 5, Time: "2026-01-01T10:10:00Z", Kind: session.Note, Tokens: 5, Context: 205},
	}}
	u := Compute(l, 1000, 0.2)
	// Heuristic: 3000×0.25 + 100 + 500 + 50 + 10 min × 100 = 2400.
	if u.Heuristic != 2400 || u.ContextTokens != 205 || u.EventTokens != 1105 || u.Events != 4 || u.Compactions != 1 {
		t.Errorf("%+v", u)
	}
	if !u.Checkpoint || !u.HeuristicCheckpoint || u.UsagePercent != 20.5 || u.TokensToCheckpoint != 0 {
		t.Errorf("%+v", u)
	}
}
