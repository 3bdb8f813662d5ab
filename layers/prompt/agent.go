package prompt

import "strings"

// AgentSection is one section of the agent's own context (instruction
// files, session window, similar memories) that the caller renders with
// layers/agent. Render places these sections after the constraints, in the
// order given, each with its own line in the token report.
type AgentSection struct {
	Name string // report name: "instructions", "session", "memories"
	Text string // markdown, starting with its own "## " heading
}

// agentAfter is the template section the agent's sections follow: rules
// and memory read as constraints on the work, before the material.
const agentAfter = "constraints"

func appendAgent(parts []string, r *Report, in Input) []string {
	for _, a := range in.Agent {
		text := tidy(a.Text)
		if text == "" {
			continue
		}
		parts = append(parts, text)
		r.Sections = append(r.Sections, SectionTokens{Name: a.Name, Tokens: in.Counter(text), Lines: strings.Count(text, "\n")})
	}
	return parts
}
