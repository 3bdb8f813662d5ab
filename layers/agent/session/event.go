// Package session keeps an agent's session as an append-only log of events
// (task started, file read, tool call, edit, test run, failure, decision,
// note), each with the exact tokens it put in the agent's context, and
// compacts it without a model: a structured summary (goals, progress, files
// touched, failures, decisions, preserved tail) that rolls on top of the
// previous one ("Session Update"). The session window an agent sees is the
// latest summary plus at most the last few events since.
//
// A log is one JSON-lines file per session in a folder the caller names
// (the CLI uses <git-common-dir>/speed/sessions/), appended under a file
// lock; a line cut short by a crash is a warning and nothing else is lost.
package session

import (
	"fmt"
	"strings"
)

// Kinds of events.
const (
	TaskStarted = "task_started"
	FileRead    = "file_read"
	ToolCall    = "tool_call"
	Edit        = "edit"
	TestRun     = "test_run"
	Failure     = "failure"
	Decision    = "decision"
	Note        = "note"
	Compacted   = "compacted" // written by compaction; carries the summary
)

// Kinds lists the kinds a caller may append, in the order help shows them.
var Kinds = []string{TaskStarted, FileRead, ToolCall, Edit, TestRun, Failure, Decision, Note}

// Event is one line of a session log.
type Event struct {
	Seq    int      `json:"seq"`
	Time   string   `json:"time"` // RFC 3339, UTC
	Kind   string   `json:"kind"`
	Text   string   `json:"text,omitempty"`
	Paths  []string `json:"paths,omitempty"`
	Status string   `json:"status,omitempty"` // test_run, tool_call: "pass"/"fail", "ok"/"error"
	// Tokens is what the event put in the agent's context, counted
	// exactly: its text plus the content it carried (a file read, a tool's
	// output). Bytes is the size of that content.
	Tokens int   `json:"tokens"`
	Bytes  int64 `json:"bytes,omitempty"`
	// Context is the tokens of the session window right after this event:
	// the last summary plus every event since.
	Context int `json:"context_tokens"`
	// Compacted events: the summary of every event up to Upto.
	Summary *Summary `json:"summary,omitempty"`
	Upto    int      `json:"upto,omitempty"`
	Auto    bool     `json:"auto,omitempty"` // compaction started by the threshold
}

// Failed reports whether e records something that went wrong.
func (e *Event) Failed() bool {
	return e.Kind == Failure || (e.Kind == TestRun && e.Status == "fail") || (e.Kind == ToolCall && e.Status == "error")
}

// ValidKind reports whether kind may be appended by a caller.
func ValidKind(kind string) bool {
	for _, k := range Kinds {
		if k == kind {
			return true
		}
	}
	return false
}

// maxItem bounds one line of a summary or window.
const maxItem = 240

// oneLine squeezes text into one line of at most maxItem bytes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > maxItem {
		cut := maxItem
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// Line is how an event reads in a session window or preserved tail.
func (e *Event) Line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s", e.Seq, e.Kind)
	if e.Status != "" {
		fmt.Fprintf(&b, " (%s)", e.Status)
	}
	if len(e.Paths) > 0 {
		b.WriteString(" ")
		b.WriteString(strings.Join(e.Paths, ", "))
	}
	if e.Text != "" {
		b.WriteString(": ")
		b.WriteString(oneLine(e.Text))
	}
	return b.String()
}
