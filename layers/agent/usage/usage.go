// Package usage measures how full a session has made the agent's context
// window: exactly, from the token counts the session log records, and by
// the MAHABHARATHA tracker's heuristic beside it (file bytes × 0.25 + 100
// per read, 500 per task, 50 per tool call, 100 per elapsed minute), and
// says when to checkpoint. It also splits a token budget across tasks by
// file count as that tracker's budget_for_task does.
package usage

import (
	"math"
	"time"

	"github.com/git-speed/git-speed/layers/agent/session"
)

// The seed tracker's constants.
const (
	TokensPerByte     = 0.25
	TokensPerFileRead = 100
	TokensPerTask     = 500
	TokensPerToolCall = 50
	TokensPerMinute   = 100
	MinTaskBudget     = 500
)

// Usage is a session's context usage.
type Usage struct {
	Session string `json:"session"`
	Events  int    `json:"events"`
	// ContextTokens is what the session holds now, counted exactly: the
	// last summary plus every event since (the whole log before the first
	// compaction). EventTokens is every event's tokens, compacted or not.
	ContextTokens int `json:"context_tokens"`
	EventTokens   int `json:"event_tokens"`
	Compactions   int `json:"compactions"`
	// Heuristic is the seed tracker's estimate of the same session.
	Heuristic       int       `json:"heuristic_tokens"`
	HeuristicInputs Heuristic `json:"heuristic_inputs"`
	WindowTokens    int       `json:"window_tokens"`
	// Percentages of the window, rounded to 0.1.
	UsagePercent        float64 `json:"usage_percent"`
	HeuristicPercent    float64 `json:"heuristic_percent"`
	ThresholdPercent    float64 `json:"threshold_percent"`
	Checkpoint          bool    `json:"checkpoint"`
	HeuristicCheckpoint bool    `json:"heuristic_checkpoint"`
	TokensToCheckpoint  int     `json:"tokens_to_checkpoint"`
}

// Heuristic is what the seed's formula counts.
type Heuristic struct {
	FilesRead      int     `json:"files_read"`
	FileBytes      int64   `json:"file_bytes"`
	Tasks          int     `json:"tasks"`
	ToolCalls      int     `json:"tool_calls"`
	ElapsedMinutes float64 `json:"elapsed_minutes"`
}

// Compute measures l against a window of window tokens with a checkpoint
// at compactAt (a share, 0.7 for 70 %).
func Compute(l *session.Log, window int, compactAt float64) *Usage {
	u := &Usage{Session: l.ID, WindowTokens: window, ThresholdPercent: round1(compactAt * 100)}
	var first, last time.Time
	for _, e := range l.Events {
		if t, err := time.Parse(time.RFC3339, e.Time); err == nil {
			if first.IsZero() {
				first = t
			}
			last = t
		}
		if e.Kind == session.Compacted {
			u.Compactions++
			continue
		}
		u.Events++
		u.EventTokens += e.Tokens
		h := &u.HeuristicInputs
		switch e.Kind {
		case session.FileRead:
			h.FilesRead++
			h.FileBytes += e.Bytes
		case session.TaskStarted:
			h.Tasks++
		case session.ToolCall:
			h.ToolCalls++
		}
	}
	if n := len(l.Events); n > 0 {
		u.ContextTokens = l.Events[n-1].Context
	}
	h := u.HeuristicInputs
	if !first.IsZero() {
		h.ElapsedMinutes = last.Sub(first).Minutes()
		u.HeuristicInputs.ElapsedMinutes = round1(h.ElapsedMinutes)
	}
	est := float64(h.FileBytes)*TokensPerByte + float64(h.FilesRead*TokensPerFileRead) +
		float64(h.Tasks*TokensPerTask) + float64(h.ToolCalls*TokensPerToolCall) + h.ElapsedMinutes*TokensPerMinute
	u.Heuristic = int(est)
	if window > 0 {
		u.UsagePercent = round1(float64(u.ContextTokens) / float64(window) * 100)
		u.HeuristicPercent = round1(float64(u.Heuristic) / float64(window) * 100)
		threshold := compactAt * float64(window)
		u.Checkpoint = float64(u.ContextTokens) >= threshold
		u.HeuristicCheckpoint = float64(u.Heuristic) >= threshold
		u.TokensToCheckpoint = max(int(math.Ceil(threshold))-u.ContextTokens, 0)
	}
	return u
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// BudgetForTask splits total across a task's files as the seed does:
// total ÷ files, never below 500 and never above total.
func BudgetForTask(total, files int) int {
	per := total / max(files, 1)
	return max(MinTaskBudget, min(per, total))
}
