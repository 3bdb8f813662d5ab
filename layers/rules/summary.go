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
//
// Pieces are counted one by one (their sum is the text's count but for
// merges across piece boundaries, which o200k and cl100k rarely make at a
// newline); the whole text is then counted exactly and rules come off the
// end until it fits.
func Summarize(files []*File, budget int, count func(string) int) Summary {
	s := Summary{Budget: budget}
	type piece struct {
		text   string
		source string // set on a file's first rule: its head is in text
	}
	var pieces []piece
	total, used := 0, 0
	for _, f := range files {
		total += len(f.Rules)
	}
	full := false
	for _, f := range files {
		where := "`" + f.Source + "`"
		if f.Area != "" && strings.HasPrefix(f.Source, "library/") {
			where = "git-speed's rule library"
		}
		head := fmt.Sprintf("**%s** (%s)\n", f.Title, where)
		if len(pieces) > 0 {
			head = "\n" + head
		}
		for i, r := range f.Rules {
			p := piece{text: ruleLine(r)}
			if i == 0 {
				p = piece{text: head + p.text, source: f.Source}
			}
			n := count(p.text)
			if used+n > budget {
				full = true
				break
			}
			used += n
			pieces = append(pieces, p)
		}
		if full {
			break
		}
	}
	join := func(ps []piece) string {
		var b strings.Builder
		for _, p := range ps {
			b.WriteString(p.text)
		}
		return b.String()
	}
	s.Text = join(pieces)
	for s.Text != "" && count(s.Text) > budget {
		pieces = pieces[:len(pieces)-1]
		s.Text = join(pieces)
	}
	for _, p := range pieces {
		if p.source != "" {
			s.Sources = append(s.Sources, p.source)
		}
	}
	s.Rules = len(pieces)
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
