package prompt

import "strings"

// Parts of a prompt that come from outside Layer 2's artifacts: the
// security rules the caller summarised for the task's files (package
// layers/rules), the agent command files the task names (package
// layers/split loads them) and the notice that the context is a fallback.
// They arrive in Input as plain data; this package does not know how they
// were made.

// Rules is the security-rules summary for a task's files, rendered under
// Constraints by the developer and reviewer templates (as .Rules).
type Rules struct {
	Text    string   // markdown: one line per rule header with its Level and When
	Sources []string // the rule files it was made from, in order
	Omitted int      // rule files left out to stay within the budget
	Budget  int      // tokens the stage gave the summary
}

// Command is an agent command file the task names, as loaded: its core
// when it was split, with the details when the task asks for them.
type Command struct {
	Path    string
	Text    string
	Details bool // Text includes the details of a split file
	Split   bool // the file was split (its details are in Path's .details.md)
}

// PartTokens is the size of one part rendered inside a section, reported
// apart from it (its tokens are part of the section's too).
type PartTokens struct {
	Name    string `json:"name"`
	Section string `json:"section"`
	Tokens  int    `json:"tokens"`
}

// fallbackNotice is appended to the constraints section, whatever the
// template, when the context is a fallback.
func fallbackNotice(reason string) string {
	var b strings.Builder
	b.WriteString("### Context fallback\n\n")
	b.WriteString("Scoping this task's context failed, so this prompt was built from what was available: the task\n")
	b.WriteString("and the files it touches in full, without neighbours, skeletons or spec alignment. Read any other\n")
	b.WriteString("file you need from the repository rather than guessing at it. What failed:\n\n")
	for _, l := range strings.Split(strings.TrimSpace(reason), "\n") {
		b.WriteString("> " + l + "\n")
	}
	return b.String()
}

// addParts reports the parts of a rendered prompt that have a size of
// their own: the rules summary, when the template rendered it.
func addParts(r *Report, d *Data, sections map[string]string, count func(string) int) {
	part := func(name string, texts []string) {
		n, in := 0, ""
		for _, t := range texts {
			t = strings.TrimSpace(t)
			if t == "" {
				continue
			}
			for _, sec := range Sections {
				if strings.Contains(sections[sec], t) {
					n += count(t)
					in = sec
					break
				}
			}
		}
		if in != "" {
			r.Parts = append(r.Parts, PartTokens{Name: name, Section: in, Tokens: n})
		}
	}
	part("rules", []string{d.Rules.Text})
	var cmds []string
	for _, c := range d.Commands {
		cmds = append(cmds, c.Text)
	}
	part("commands", cmds)
}
