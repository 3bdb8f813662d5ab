package prompt

import (
	"bytes"
	"fmt"
	"strings"
)

// Every stage prompt's Constraints carry the task's assumptions and the
// cross-cutting concerns it is given (SPEED's Identity → Constraints:
// "assumptions, cross-cutting concerns, and budget warnings"), whatever
// the template: the block goes after the section's opening rules, before
// its first subsection (decisions, rules, the budget), unless the
// template rendered it itself.

// assumptionsHeading opens the block.
const assumptionsHeading = "### Assumptions and cross-cutting concerns"

// assumptionsBlock is the block for d, "" when the task has neither.
func assumptionsBlock(d *Data) string {
	if len(d.Assumptions) == 0 && len(d.Concerns) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(assumptionsHeading + "\n\n")
	b.WriteString("Hold to these while you work; if one is wrong for this task, say so instead of working around it.\n")
	if len(d.Assumptions) > 0 {
		b.WriteString("\nThe task assumes:\n\n")
		for _, a := range d.Assumptions {
			fmt.Fprintf(&b, "- %s\n", strings.Join(strings.Fields(a), " "))
		}
	}
	if len(d.Concerns) > 0 {
		b.WriteString("\nCross-cutting concerns:\n\n")
		for _, c := range d.Concerns {
			from := "feature"
			if c.Source != "feature" {
				from = "task " + c.Source
			}
			fmt.Fprintf(&b, "- **%s**: %s\n", from, strings.Join(strings.Fields(c.Text), " "))
		}
	}
	return b.String()
}

// withAssumptions puts d's block into the rendered constraints in buf.
func withAssumptions(buf *bytes.Buffer, d *Data) {
	block := assumptionsBlock(d)
	if block == "" || bytes.Contains(buf.Bytes(), []byte(assumptionsHeading)) {
		return
	}
	text := buf.String()
	at := len(text)
	if i := strings.Index(text, "\n### "); i >= 0 {
		at = i + 1
	}
	head := strings.TrimRight(text[:at], "\n")
	rest := text[at:]
	buf.Reset()
	buf.WriteString(head + "\n\n" + block)
	if rest != "" {
		buf.WriteString("\n" + rest)
	}
}
