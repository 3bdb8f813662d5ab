package session

import (
	"fmt"
	"strings"
)

// Window is what a fresh agent is given of a session: a summary of
// everything but the last few events, and those events verbatim (Umbra's
// buildSessionWindow). The summary is the latest compaction with the
// older events since it folded in, as a compaction would fold them, so a
// session's goals and early failures are in the window before it is ever
// compacted; nothing of that fold is stored.
type Window struct {
	ID      string   `json:"id"`
	Summary *Summary `json:"summary,omitempty"`
	Recent  []Event  `json:"recent"`
	// Folded is how many events since the last compaction the summary
	// holds as read, not compacted yet.
	Folded int `json:"folded,omitempty"`
	// Context is the tokens the session holds now (the last event's
	// context_tokens); the window itself is smaller.
	Context int `json:"context_tokens"`

	base  *Summary // the last compaction's summary, nil when none
	since []Event  // every event after it
}

// Window returns the session window with at most n recent events; the
// events before them since the last compaction are folded into its
// summary.
func (l *Log) Window(n int) *Window {
	c, since := l.Split()
	w := &Window{ID: l.ID, since: since}
	if c != nil {
		w.base = c.Summary
	}
	if k := len(l.Events); k > 0 {
		w.Context = l.Events[k-1].Context
	}
	return w.Folding(len(since) - max(n, 0))
}

// Folding returns the window with the oldest k events since the last
// compaction folded into its summary and the rest recent (k is clamped to
// what there is). A caller short of room folds more rather than leaving
// events out.
func (w *Window) Folding(k int) *Window {
	k = min(max(k, 0), len(w.since))
	x := *w
	x.Folded, x.Summary = k, w.base
	if k > 0 {
		x.Summary = Compact(w.base, w.since[:k], 0)
		x.Summary.Updates-- // a fold as read is no compaction
	}
	x.Recent = append([]Event{}, w.since[k:]...)
	return &x
}

// SummaryText is the summary as a prompt section's markdown ("" when
// there is none), its headings nested under "## Session".
func (w *Window) SummaryText() string {
	if w.Summary == nil {
		return ""
	}
	title := w.Summary.title()
	if w.Folded > 0 {
		first := w.since[0].Seq
		last := w.since[w.Folded-1].Seq
		if w.base == nil {
			title = fmt.Sprintf("# Session so far (events %d-%d, not compacted yet)", w.Summary.FirstSeq, w.Summary.LastSeq)
		} else {
			title = fmt.Sprintf("# Session Update %d and events %d-%d since (events %d-%d, %d in all)",
				w.base.Updates, first, last, w.Summary.FirstSeq, w.Summary.LastSeq, w.Summary.Events)
		}
	}
	return nest(w.Summary.render(title), "##")
}

// RecentText lists the recent events, one line each.
func (w *Window) RecentText() string {
	if len(w.Recent) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### Recent events")
	if w.Folded > 0 {
		fmt.Fprintf(&b, " (the last %d; %s before them in the summary)", len(w.Recent), n(w.Folded, "event"))
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
