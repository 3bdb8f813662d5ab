package session

import (
	"fmt"
	"sort"
	"strings"
)

// Summary is the structured digest of a session's compacted events. Each
// compaction folds the events since the previous one into the previous
// summary, so every file touched, failure and decision is kept however
// many times the session is compacted.
type Summary struct {
	Updates  int        `json:"updates"` // compactions rolled into it
	Events   int        `json:"events"`  // events it stands for
	FirstSeq int        `json:"first_seq"`
	LastSeq  int        `json:"last_seq"`
	Goals    []Item     `json:"goals"`
	Progress Progress   `json:"progress"`
	Files    []FileUse  `json:"files"`
	Failures []Item     `json:"failures"`
	Decision []Item     `json:"decisions"`
	Notes    []Item     `json:"notes"` // the last maxNotes notes
	Tail     []string   `json:"tail"`  // the last compacted events, as window lines
	Tokens   TokenTally `json:"tokens"`
}

// Item is one goal, failure, decision or note with the event it came from.
type Item struct {
	Seq  int    `json:"seq"`
	Text string `json:"text"`
}

// Progress counts what happened.
type Progress struct {
	Tasks       int `json:"tasks"`
	FilesRead   int `json:"files_read"`
	Edits       int `json:"edits"`
	ToolCalls   int `json:"tool_calls"`
	TestsPassed int `json:"tests_passed"`
	TestsFailed int `json:"tests_failed"`
	Failures    int `json:"failures"`
	Decisions   int `json:"decisions"`
	Notes       int `json:"notes"`
}

// FileUse is a file the session read or edited.
type FileUse struct {
	Path   string `json:"path"`
	Reads  int    `json:"reads,omitempty"`
	Edits  int    `json:"edits,omitempty"`
	Others int    `json:"others,omitempty"` // named by a tool call, test run, failure …
}

// TokenTally sums the tokens of the compacted events.
type TokenTally struct {
	Events int `json:"events"`
}

// maxNotes bounds the notes a summary keeps (goals, failures and decisions
// are all kept).
const maxNotes = 10

// Compact folds events (those after prev.LastSeq; earlier ones and
// compaction records are ignored) into a new summary on top of prev (nil
// for the first), keeping the last tail events verbatim. It is pure and
// deterministic.
func Compact(prev *Summary, events []Event, tail int) *Summary {
	s := &Summary{}
	files := map[string]*FileUse{}
	if prev != nil {
		*s = *prev
		s.Goals = append([]Item(nil), prev.Goals...)
		s.Failures = append([]Item(nil), prev.Failures...)
		s.Decision = append([]Item(nil), prev.Decision...)
		s.Notes = append([]Item(nil), prev.Notes...)
		s.Tail = append([]string(nil), prev.Tail...)
		for _, f := range prev.Files {
			f := f
			files[f.Path] = &f
		}
	}
	s.Updates++
	var folded []*Event
	for i := range events {
		e := &events[i]
		if e.Kind == Compacted || e.Seq <= s.LastSeq {
			continue
		}
		folded = append(folded, e)
		if s.FirstSeq == 0 {
			s.FirstSeq = e.Seq
		}
		s.LastSeq = e.Seq
		s.Events++
		s.Tokens.Events += e.Tokens
		for _, p := range e.Paths {
			f := files[p]
			if f == nil {
				f = &FileUse{Path: p}
				files[p] = f
			}
			switch e.Kind {
			case FileRead:
				f.Reads++
			case Edit:
				f.Edits++
			default:
				f.Others++
			}
		}
		item := Item{Seq: e.Seq, Text: oneLine(e.Text)}
		switch e.Kind {
		case TaskStarted:
			s.Progress.Tasks++
			s.Goals = append(s.Goals, item)
		case FileRead:
			s.Progress.FilesRead++
		case Edit:
			s.Progress.Edits++
		case ToolCall:
			s.Progress.ToolCalls++
		case TestRun:
			if e.Status == "fail" {
				s.Progress.TestsFailed++
			} else {
				s.Progress.TestsPassed++
			}
		case Decision:
			s.Progress.Decisions++
			s.Decision = append(s.Decision, item)
		case Note:
			s.Progress.Notes++
			s.Notes = append(s.Notes, item)
		}
		if e.Failed() {
			s.Progress.Failures++
			if item.Text == "" {
				item.Text = strings.Join(e.Paths, ", ")
			}
			s.Failures = append(s.Failures, Item{Seq: e.Seq, Text: e.Kind + ": " + item.Text})
		}
	}
	if len(s.Notes) > maxNotes {
		s.Notes = s.Notes[len(s.Notes)-maxNotes:]
	}
	if len(folded) > 0 {
		s.Tail = nil
		for _, e := range folded[max(len(folded)-tail, 0):] {
			s.Tail = append(s.Tail, e.Line())
		}
	}
	s.Files = make([]FileUse, 0, len(files))
	for _, f := range files {
		s.Files = append(s.Files, *f)
	}
	sort.Slice(s.Files, func(i, j int) bool { return s.Files[i].Path < s.Files[j].Path })
	return s
}

// Render writes the summary as the markdown an agent reads.
func (s *Summary) Render() string { return s.render(s.title()) }

// title is the summary's first line as a compaction stores it.
func (s *Summary) title() string {
	return fmt.Sprintf("# Session Update %d (events %d-%d, %d in all)", s.Updates, s.FirstSeq, s.LastSeq, s.Events)
}

// render writes the summary under title.
func (s *Summary) render(title string) string {
	var b strings.Builder
	b.WriteString(title + "\n")
	list := func(title string, items []Item) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n## %s\n\n", title)
		for _, it := range items {
			fmt.Fprintf(&b, "- #%d %s\n", it.Seq, it.Text)
		}
	}
	// What a cut to fit must lose last comes first: goals, failures and
	// decisions, then the counts and files.
	list("Goals", s.Goals)
	list("Failures", s.Failures)
	list("Decisions", s.Decision)
	p := s.Progress
	fmt.Fprintf(&b, "\n## Progress\n\n%s, %s read, %s, %s, tests %d passed and %d failed, %s, %s, %s.\n",
		n(p.Tasks, "task"), n(p.FilesRead, "file"), n(p.Edits, "edit"), n(p.ToolCalls, "tool call"), p.TestsPassed, p.TestsFailed,
		n(p.Failures, "failure"), n(p.Decisions, "decision"), n(p.Notes, "note"))
	if len(s.Files) > 0 {
		b.WriteString("\n## Files touched\n\n")
		for _, f := range s.Files {
			var parts []string
			if f.Edits > 0 {
				parts = append(parts, fmt.Sprintf("edited %d×", f.Edits))
			}
			if f.Reads > 0 {
				parts = append(parts, fmt.Sprintf("read %d×", f.Reads))
			}
			if f.Others > 0 {
				parts = append(parts, fmt.Sprintf("named %d×", f.Others))
			}
			fmt.Fprintf(&b, "- %s (%s)\n", f.Path, strings.Join(parts, ", "))
		}
	}
	list("Notes", s.Notes)
	if len(s.Tail) > 0 {
		b.WriteString("\n## Preserved tail\n\n")
		for _, l := range s.Tail {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	return b.String()
}

// n writes a count with its noun, plural unless the count is one.
func n(count int, noun string) string {
	if count == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", count, noun)
}
