package session

import (
	"fmt"
	"strings"
)

// Window is what a fresh agent is given of a session: the latest summary
// and at most the last n events since it.
type Window struct {
	ID      string   `json:"id"`
	Summary *Summary `json:"summary,omitempty"`
	Recent  []Event  `json:"recent"`
	Omitted int      `json:"omitted"` // events since the summary left out of Recent
	// Context is the tokens the session holds now (the last event's
	// context_tokens); the window itself is smaller.
	Context int `json:"context_tokens"`
}

// Window returns the session window with at most n recent events.
func (l *Log) Window(n int) *Window {
	c, since := l.Split()
	w := &Window{ID: l.ID, Recent: []Event{}}
	if c != nil {
		w.Summary = c.Summary
	}
	if len(since) > n {
		w.Omitted = len(since) - n
		since = since[len(since)-n:]
	}
	w.Recent = append(w.Recent, since...)
	if k := len(l.Events); k > 0 {
		w.Context = l.Events[k-1].Context
	}
	return w
}

// SummaryText is the summary as a prompt section's markdown ("" when the
// session was never compacted), its headings nested under "## Session".
func (w *Window) SummaryText() string {
	if w.Summary == nil {
		return ""
	}
	return nest(w.Summary.Render(), "##")
}

// RecentText lists the recent events, one line each.
func (w *Window) RecentText() string {
	if len(w.Recent) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### Recent events")
	switch {
	case w.Omitted > 0 && w.Summary != nil:
		fmt.Fprintf(&b, " (the last %d; %d earlier since the summary are left out)", len(w.Recent), w.Omitted)
	case w.Omitted > 0:
		fmt.Fprintf(&b, " (the last %d; %d earlier are left out until the session is compacted)", len(w.Recent), w.Omitted)
	}
	b.WriteString("\n\n")
	for i := range w.Recent {
		fmt.Fprintf(&b, "- %s\n", w.Recent[i].Line())
	}
	return b.String()
}

// Text is the whole window as a prompt section.
func (w *Window) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Session %s\n\n", w.ID)
	if s := w.SummaryText(); s != "" {
		b.WriteString(s)
		b.WriteString("\n")
	}
	if r := w.RecentText(); r != "" {
		b.WriteString(r)
	}
	if w.Summary == nil && len(w.Recent) == 0 {
		b.WriteString("No events yet.\n")
	}
	return b.String()
}

// nest deepens every markdown heading of s by prefix.
func nest(s, prefix string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "#") {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "")
}
