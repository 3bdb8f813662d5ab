package rules

import (
	"fmt"
	"strings"
)

// Summary is rule files summarised to a budget.
type Summary struct {
	Text    string   // markdown; "" when no rule fits or none applies
	Sources []string // the files that gave at least one rule, in order
	Rules   int      // rules in Text
	Omitted int      // rules left out to stay within the budget
	Tokens  int      // tokens of Text, counted exactly
	Budget  int
}

// Summarize keeps, for each rule of files in order, its title, Level and
// When on one line under a bold line naming its file (prose and code
// blocks are left out). It adds rules while the text stays within budget
// tokens as count counts them, stops at the first that does not fit, and
// counts the rest as omitted.
func Summarize(files []*File, budget int, count func(string) int) Summary {
	s := Summary{Budget: budget}
	var b strings.Builder
	total := 0
	for _, f := range files {
		total += len(f.Rules)
	}
	stopped := false
	for _, f := range files {
		if stopped {
			break
		}
		where := "`" + f.Source + "`"
		if f.Area != "" && strings.HasPrefix(f.Source, "library/") {
			where = "git-speed's rule library"
		}
		head := fmt.Sprintf("**%s** (%s)\n", f.Title, where)
		if b.Len() > 0 {
			head = "\n" + head
		}
		wroteHead := false
		for _, r := range f.Rules {
			line := ruleLine(r)
			add := line
			if !wroteHead {
				add = head + line
			}
			if count(b.String()+add) > budget {
				stopped = true
				break
			}
			b.WriteString(add)
			if !wroteHead {
				wroteHead = true
				s.Sources = append(s.Sources, f.Source)
			}
			s.Rules++
		}
	}
	s.Text = b.String()
	s.Omitted = total - s.Rules
	if s.Text != "" {
		s.Tokens = count(s.Text)
	}
	return s
}

// ruleLine is one rule in a summary.
func ruleLine(r Rule) string {
	var b strings.Builder
	b.WriteString("- **" + oneLine(r.Title) + "**")
	if r.Level != "" {
		b.WriteString(" · " + r.Level)
	}
	if r.When != "" {
		b.WriteString(" · when " + oneLine(r.When))
	}
	b.WriteString("\n")
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// For is Select then Summarize: the summary of the rules that apply to
// paths, within budget tokens.
func For(lib, repo []*File, paths []string, budget int, count func(string) int) Summary {
	return Summarize(Select(lib, repo, paths), budget, count)
}
