package prompt

import (
	"strings"
	"testing"
)

// The agent's sections follow the constraints, each with its own line in
// the report, and an empty one is left out.
func TestAgentSections(t *testing.T) {
	c := loadFixture(t)
	in := fixtureInput(t, c)
	plain, err := Render("developer", in)
	if err != nil {
		t.Fatal(err)
	}
	in.Agent = []AgentSection{{Name: "instructions", Text: "## Instructions\n\nRun the tests.\n"}, {Name: "memories", Text: "  \n"}, {Name: "session", Text: "## Session s\n\n- #1 note: hi\n"}}
	out, err := Render("developer", in)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range out.Report.Sections {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, " "); got != "identity constraints instructions session material traceability" {
		t.Errorf("sections %s", got)
	}
	i, j, k := strings.Index(out.Text, "## Constraints"), strings.Index(out.Text, "## Instructions"), strings.Index(out.Text, "## Material")
	if i < 0 || j < i || k < j || !strings.Contains(out.Text, "- #1 note: hi") {
		t.Errorf("instructions not between constraints and material:\n%s", out.Text)
	}
	if out.Report.TotalTokens <= plain.Report.TotalTokens {
		t.Errorf("total %d not above %d", out.Report.TotalTokens, plain.Report.TotalTokens)
	}
	if strings.Replace(out.Text, "## Instructions\n\nRun the tests.\n\n## Session s\n\n- #1 note: hi\n\n", "", 1) != plain.Text {
		t.Error("the agent's sections changed the rest of the prompt")
	}
}
