package agent

import (
	"fmt"
	"strings"

	"github.com/git-speed/git-speed/layers/agent/instructions"
	"github.com/git-speed/git-speed/layers/agent/memory"
	"github.com/git-speed/git-speed/layers/agent/session"
)

// Section names of a task context, in the order they are assembled and
// reported (Umbra's names, with instructions for its "agents").
const (
	SecTask           = "task"
	SecInstructions   = "instructions"
	SecSessionSummary = "session_summary"
	SecRecentEvents   = "recent_events"
	SecMemories       = "similar_memories"
	SecRepoMap        = "repo_map"
)

// Shares are the ceilings of the sections as shares of the budget; the
// repo map takes what the task and the others leave.
type Shares struct {
	Instructions float64
	Memories     float64
	Session      float64
}

// Options are the inputs of Assemble. Everything that needs git or the
// graph comes in as a value or a function.
type Options struct {
	Task   string
	Budget int
	Shares Shares
	Count  func(string) int // exact token counter; required
	// Tokenizer names Count in the report.
	Tokenizer string
	// Instructions are the discovery options; Assemble sets their Budget
	// and Count. Nil leaves the section out.
	Instructions *instructions.Options
	// Memories are the similar memories, best first (memory.Search).
	Memories []memory.Hit
	// MemoryMethod names how they were ranked ("bm25", "dense-cosine").
	MemoryMethod string
	// Window is the session window; nil when no session is given.
	Window *session.Window
	// RepoMap renders the repo map in at most the given tokens; nil leaves
	// the section out. MapBudget caps it (0: whatever the other sections
	// leave of Budget).
	RepoMap   func(budget int) (string, error)
	MapBudget int
}

// Section is one line of the report.
type Section struct {
	Name   string `json:"name"`
	Tokens int    `json:"tokens"`
	Limit  int    `json:"limit"` // its ceiling (0: no ceiling of its own)
	Items  int    `json:"items"` // files, events, memories … it holds
	Cut    string `json:"cut,omitempty"`
	Text   string `json:"-"`
}

// Report is the per-section token report of a context.
type Report struct {
	Tokenizer       string    `json:"tokenizer,omitempty"`
	BudgetTokens    int       `json:"budget_tokens"`
	TotalTokens     int       `json:"total_tokens"`
	WithinBudget    bool      `json:"within_budget"`
	RemainingTokens int       `json:"remaining_tokens"`
	OverBudget      int       `json:"over_budget,omitempty"`
	Sections        []Section `json:"sections"`
}

// Result is an assembled task context.
type Result struct {
	Text         string               `json:"text"`
	Report       Report               `json:"report"`
	Instructions *instructions.Result `json:"instructions,omitempty"`
	Memories     []memory.Hit         `json:"memories"`
	MemoryMethod string               `json:"memory_method,omitempty"`
	Session      *session.Window      `json:"session,omitempty"`
	Warnings     []string             `json:"warnings,omitempty"`
}

// Assemble builds the task context: the task, the instruction files, the
// session window (summary and recent events), the similar memories and
// the repo map, each within its share, and reports each section's tokens.
// The same options give the same bytes.
func Assemble(o Options) (*Result, error) {
	if o.Count == nil {
		return nil, fmt.Errorf("assemble: no token counter")
	}
	res := &Result{MemoryMethod: o.MemoryMethod, Memories: []memory.Hit{}}
	share := func(s float64) int { return int(float64(o.Budget) * s) }
	var parts []string
	add := func(sec Section, text string) {
		if text == "" {
			return
		}
		parts = append(parts, text)
		sec.Tokens, sec.Text = o.Count(text), text
		res.Report.Sections = append(res.Report.Sections, sec)
	}
	used := func() int {
		n := 0
		for _, s := range res.Report.Sections {
			n += s.Tokens + 1 // the blank line between sections
		}
		return n
	}

	task := "# Task\n\n" + strings.TrimSpace(o.Task) + "\n"
	add(Section{Name: SecTask, Items: 1}, task)

	if o.Instructions != nil {
		io := *o.Instructions
		io.Budget, io.Count = share(o.Shares.Instructions), o.Count
		ir := instructions.Discover(io)
		res.Instructions = ir
		res.Warnings = append(res.Warnings, ir.Warnings...)
		sec := Section{Name: SecInstructions, Limit: io.Budget, Items: len(ir.Files)}
		var cuts []string
		for _, f := range ir.Files {
			if f.Cut != nil {
				cuts = append(cuts, f.Cut.Pointer)
			}
		}
		sec.Cut = strings.Join(cuts, "; ")
		add(sec, ir.Text)
	}

	if w := o.Window; w != nil {
		limit := share(o.Shares.Session)
		// The recent events come first, in at most half the share when
		// there is a summary; those that do not fit are folded into the
		// summary (the oldest first), which takes the rest and is cut, with
		// a pointer, only when it does not fit either.
		folded := 0
		for {
			room := limit
			if w.Summary != nil {
				room = limit / 2
			}
			if len(w.Recent) == 0 || o.Count(w.RecentText()) <= room {
				break
			}
			w = w.Folding(w.Folded + 1)
			folded++
		}
		res.Session = w
		text := w.RecentText()
		sum := w.SummaryText()
		if sum != "" {
			sum = fmt.Sprintf("## Session %s\n\n", w.ID) + sum
		}
		sumSec := Section{Name: SecSessionSummary, Limit: limit - o.Count(text)}
		if w.Summary != nil {
			sumSec.Items = w.Summary.Events
		}
		if t := o.Count(sum); sum != "" && t > sumSec.Limit {
			sum, sumSec.Cut = cutLines(sum, sumSec.Limit, o.Count, fmt.Sprintf("git speed session show --session %s", w.ID))
		}
		add(sumSec, sum)
		if sum == "" && text != "" {
			text = fmt.Sprintf("## Session %s\n\n", w.ID) + text
		}
		sec := Section{Name: SecRecentEvents, Limit: limit, Items: len(w.Recent)}
		if w.Summary != nil {
			sec.Limit = limit / 2
		}
		if folded > 0 {
			sec.Cut = fmt.Sprintf("%d older events folded into the summary to fit", folded)
		}
		add(sec, text)
	}

	if len(o.Memories) > 0 {
		limit := share(o.Shares.Memories)
		head := "## Similar memories\n\n"
		if o.MemoryMethod != "" {
			head = fmt.Sprintf("## Similar memories (%s)\n\n", o.MemoryMethod)
		}
		var b strings.Builder
		b.WriteString(head)
		n := 0
		for _, h := range o.Memories {
			line := fmt.Sprintf("- %s (score %.4f): %s\n", h.ID, h.Score, strings.Join(strings.Fields(h.Text), " "))
			if o.Count(b.String()+line) > limit {
				break
			}
			b.WriteString(line)
			res.Memories = append(res.Memories, h)
			n++
		}
		sec := Section{Name: SecMemories, Limit: limit, Items: n}
		if n < len(o.Memories) {
			sec.Cut = fmt.Sprintf("%d of %d memories left out to fit", len(o.Memories)-n, len(o.Memories))
		}
		if n > 0 {
			add(sec, b.String())
		}
	}

	if o.RepoMap != nil {
		// The map brings its own "# Repository map" title.
		room := o.Budget - used() - 2
		if o.MapBudget > 0 && room > o.MapBudget {
			room = o.MapBudget
		}
		if room > 0 {
			m, err := o.RepoMap(room)
			if err != nil {
				return nil, err
			}
			if strings.TrimSpace(m) != "" {
				if !strings.HasSuffix(m, "\n") {
					m += "\n"
				}
				add(Section{Name: SecRepoMap, Limit: room, Items: strings.Count(m, "\n## ")}, m)
			}
		}
	}

	res.Text = strings.Join(parts, "\n")
	r := &res.Report
	r.Tokenizer = o.Tokenizer
	r.BudgetTokens = o.Budget
	r.TotalTokens = o.Count(res.Text)
	r.WithinBudget = o.Budget <= 0 || r.TotalTokens <= o.Budget
	if o.Budget > 0 {
		if r.WithinBudget {
			r.RemainingTokens = o.Budget - r.TotalTokens
		} else {
			r.OverBudget = r.TotalTokens - o.Budget
		}
	}
	return res, nil
}

// cutLines keeps the leading lines of text that fit limit with a pointer
// to where the rest can be read.
func cutLines(text string, limit int, count func(string) int, where string) (string, string) {
	lines := strings.SplitAfter(text, "\n")
	note := func(left int) string { return fmt.Sprintf("… %d lines cut; %s prints them\n", left, where) }
	lo, hi := 0, len(lines)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if count(strings.Join(lines[:mid], "")+note(len(lines)-mid)) <= limit {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	n := note(len(lines) - lo)
	return strings.Join(lines[:lo], "") + n, strings.TrimSpace(n)
}

// Render writes the report as the lines render and context print on stderr.
func (r *Report) Render() string {
	var b strings.Builder
	for _, s := range r.Sections {
		fmt.Fprintf(&b, "%-17s %6d tokens", s.Name, s.Tokens)
		if s.Limit > 0 {
			fmt.Fprintf(&b, " of %d", s.Limit)
		}
		if s.Cut != "" {
			fmt.Fprintf(&b, " (cut: %s)", s.Cut)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "total %d of %d tokens", r.TotalTokens, r.BudgetTokens)
	if r.Tokenizer != "" {
		fmt.Fprintf(&b, " (%s)", r.Tokenizer)
	}
	fmt.Fprintf(&b, "; within budget: %v; remaining %d\n", r.WithinBudget, r.RemainingTokens)
	return b.String()
}
