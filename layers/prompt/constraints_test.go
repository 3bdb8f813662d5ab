package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The rules summary renders under Constraints of the developer and
// reviewer prompts and is reported as a part; a fallback is stated in the
// constraints of every stage, even with a template that knows nothing of
// it, and in the report.
func TestRulesAndFallback(t *testing.T) {
	c := loadFixture(t)
	in := fixtureInput(t, c)
	in.Rules = Rules{Text: "**Go** (git-speed's rule library)\n- **Build SQL with placeholders** · strict · when Go code calls database/sql\n", Omitted: 3, Budget: 40}
	in.Fallback = "git-speed store is corrupt: refs/speed/index: unexpected entry"
	for _, stage := range []string{"developer", "reviewer"} {
		out, err := Render(stage, in)
		if err != nil {
			t.Fatal(err)
		}
		cons := section(out.Text, "## Constraints")
		if !strings.Contains(cons, "### Security rules") || !strings.Contains(cons, "- **Build SQL with placeholders** · strict") || !strings.Contains(cons, "3 more rules were left out to fit the 40 tokens") {
			t.Errorf("%s: rules not in constraints:\n%s", stage, cons)
		}
		if !strings.Contains(cons, "### Context fallback") || !strings.Contains(cons, "> git-speed store is corrupt") {
			t.Errorf("%s: fallback not in constraints:\n%s", stage, cons)
		}
		if len(out.Report.Parts) != 1 || out.Report.Parts[0].Name != "rules" || out.Report.Parts[0].Section != "constraints" || out.Report.Parts[0].Tokens != in.Counter(strings.TrimSpace(in.Rules.Text)) {
			t.Errorf("%s: parts %+v", stage, out.Report.Parts)
		}
		if out.Report.Fallback != in.Fallback {
			t.Errorf("%s: report fallback %q", stage, out.Report.Fallback)
		}
	}
	// An override without a rules block: no rules part, the fallback still there.
	dir := t.TempDir()
	src := `{{define "identity"}}# {{.Task.ID}}{{end}}{{define "constraints"}}## Constraints{{end}}{{define "material"}}{{end}}{{define "traceability"}}{{end}}`
	if err := os.WriteFile(filepath.Join(dir, "developer.md.tmpl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	in.TemplateDir = dir
	out, err := Render("developer", in)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Report.Parts) != 0 || !strings.Contains(out.Text, "### Context fallback") {
		t.Errorf("override: parts %+v\n%s", out.Report.Parts, out.Text)
	}
	// Without rules or fallback nothing is added.
	in = fixtureInput(t, c)
	out, err = Render("developer", in)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.Text, "Security rules") || strings.Contains(out.Text, "Context fallback") || out.Report.Parts != nil {
		t.Error("rules or fallback rendered without being given")
	}
}

// section returns the text from the heading to the next heading of the
// same level.
func section(text, heading string) string {
	i := strings.Index(text, heading+"\n")
	if i < 0 {
		return ""
	}
	rest := text[i+len(heading)+1:]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}
