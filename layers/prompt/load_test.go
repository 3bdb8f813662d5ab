package prompt

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyFixture copies the task-T3 fixture into a temp dir so a test can
// break one of its files.
func copyFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range []string{ManifestName, BudgetName, MaterialName} {
		b, err := os.ReadFile(filepath.Join("testdata", "task-T3", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoad(t *testing.T) {
	c := loadFixture(t)
	if c.Material.Task.ID != "T3" || len(c.Material.Files) != 5 || len(c.Budget.Cuts) != 3 || len(c.Manifest.Files) != 7 {
		t.Fatalf("fixture read wrong: %+v", c.Material.Task)
	}
	if got := c.Budget.Dimensions["code_context"]; got.Limit != 960 || got.Used != 695 {
		t.Errorf("code_context = %+v", got)
	}
	// Evidence given as an object is folded into one readable string.
	if got := string(c.Material.Spec[0].Evidence[1]); got != "internal/httpx/client.go:21 Client.Do (network errors surface here)" {
		t.Errorf("object evidence = %q", got)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		file  string
		edit  func(string) string
		want  string
		isNot bool
	}{
		{name: "missing", file: BudgetName, want: "budget.json: missing (run `git speed scope`", isNot: true},
		{name: "syntax", file: ManifestName, edit: func(s string) string {
			return strings.Replace(s, `"feature": "fetch-retry",`, `"feature": "fetch-retry"`, 1)
		}, want: "manifest.json:4:4: malformed JSON"},
		{name: "type", file: MaterialName, edit: func(s string) string {
			return strings.Replace(s, `"distance": 0,`, `"distance": "zero",`, 1)
		}, want: "material.json:"},
		{name: "tier", file: ManifestName, edit: func(s string) string { return strings.Replace(s, `"tier": "skeleton"`, `"tier": "outline"`, 1) }, want: `manifest.json: files[3] (internal/cache/cache.go): unknown tier "outline"`},
		{name: "task mismatch", file: BudgetName, edit: func(s string) string { return strings.Replace(s, `"task": "T3"`, `"task": "T4"`, 1) }, want: `budget.json: task "T4" does not match material.json task.id "T3"`},
		{name: "trailing", file: BudgetName, edit: func(s string) string { return s + "{}\n" }, want: "budget.json:"},
		{name: "empty", file: MaterialName, edit: func(string) string { return "" }, want: "material.json: empty file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyFixture(t)
			p := filepath.Join(dir, tc.file)
			if tc.edit == nil {
				os.Remove(p)
			} else {
				b, _ := os.ReadFile(p)
				os.WriteFile(p, []byte(tc.edit(string(b))), 0o644)
			}
			_, err := Load(dir)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), p) {
				t.Errorf("error %q does not name the file %s", err, p)
			}
		})
	}
}

func TestLoadToleratesAddedFields(t *testing.T) {
	dir := copyFixture(t)
	p := filepath.Join(dir, BudgetName)
	b, _ := os.ReadFile(p)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["a_field_from_the_future"] = []int{1, 2}
	m["cuts"].([]any)[0].(map[string]any)["symbols"] = []string{"main"}
	nb, _ := json.Marshal(m)
	os.WriteFile(p, nb, 0o644)
	if _, err := Load(dir); err != nil {
		t.Fatal(err)
	}
}

func TestRenderOverride(t *testing.T) {
	c := loadFixture(t)
	repo := t.TempDir()
	tdir := filepath.Join(repo, ".speed", "templates")
	os.MkdirAll(tdir, 0o755)
	src := `{{define "identity"}}# {{.Task.ID}} for {{.Feature}}{{end}}
{{define "constraints"}}Keep it short.{{end}}
{{define "material"}}{{range .Touched}}- {{.Path}}
{{end}}{{end}}
{{define "traceability"}}{{range .Spec}}{{.ID}} {{end}}{{end}}
`
	os.WriteFile(filepath.Join(tdir, "developer.md.tmpl"), []byte(src), 0o644)
	in := Input{Context: c, Counter: counter(t), TemplateDir: tdir, TemplateLabel: ".speed/templates"}
	out, err := Render("developer", in)
	if err != nil {
		t.Fatal(err)
	}
	// The override's constraints get the task's assumptions and concerns.
	block := assumptionsBlock(&Data{Assumptions: c.Material.Task.Assumptions, Concerns: c.Material.Concerns})
	if !strings.Contains(block, "The origin answers 5xx only for transient failures.") {
		t.Fatalf("no assumptions in the fixture's block:\n%s", block)
	}
	want := "# T3 for fetch-retry\n\nKeep it short.\n\n" + block + "\n- internal/fetch/fetch.go\n- internal/fetch/fetch_test.go\n\nREQ-2 REQ-4\n"
	if out.Text != want {
		t.Errorf("override rendered\n%q\nwant\n%q", out.Text, want)
	}
	if out.Template != ".speed/templates/developer.md.tmpl" {
		t.Errorf("template = %q", out.Template)
	}
	// Stages without an override still use the embedded template.
	out, err = Render("reviewer", in)
	if err != nil {
		t.Fatal(err)
	}
	if out.Template != "templates/reviewer.md.tmpl" || !strings.HasPrefix(out.Text, "# Reviewer") {
		t.Errorf("reviewer used %s: %.40q", out.Template, out.Text)
	}
}

func TestBrokenTemplates(t *testing.T) {
	c := loadFixture(t)
	ok := `{{define "identity"}}x{{end}}
{{define "constraints"}}x{{end}}
{{define "material"}}x{{end}}
{{define "traceability"}}x{{end}}
`
	for _, tc := range []struct {
		name, src, want string
	}{
		{"parse: unclosed action", ok + "{{define \"extra\"}}\n{{.Task.ID\n{{end}}\n", `.speed/templates/developer.md.tmpl:7: unexpected "{" in operand`},
		{"parse: unknown function", strings.Replace(ok, "{{define \"material\"}}x", "{{define \"material\"}}\n{{frobnicate .Task}}", 1), `.speed/templates/developer.md.tmpl:4: function "frobnicate" not defined`},
		{"exec: missing map key", strings.Replace(ok, "{{define \"constraints\"}}x", "{{define \"constraints\"}}\n\n{{.Budget.Dimensions.code_contxt.Limit}}", 1), `.speed/templates/developer.md.tmpl:4:9: executing "constraints" at <.Budget.Dimensions.code_contxt.Limit>: map has no entry for key "code_contxt"`},
		{"exec: unknown field", strings.Replace(ok, "{{define \"traceability\"}}x", "{{define \"traceability\"}}{{range .Spec}}\n{{.Name}}{{end}}", 1), `.speed/templates/developer.md.tmpl:5:2: executing "traceability" at <.Name>: can't evaluate field Name in type prompt.SpecItem`},
		{"missing section", strings.Replace(ok, `{{define "material"}}x{{end}}`, "", 1), `.speed/templates/developer.md.tmpl: no {{define "material"}} block`},
		{"text outside sections", ok + "\nStray heading\n", `.speed/templates/developer.md.tmpl:6: text outside a {{define}} block is never rendered`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tdir := t.TempDir()
			os.WriteFile(filepath.Join(tdir, "developer.md.tmpl"), []byte(tc.src), 0o644)
			_, err := Render("developer", Input{Context: c, Counter: counter(t), TemplateDir: tdir, TemplateLabel: ".speed/templates"})
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error\n%s\ndoes not start with\n%s", err, tc.want)
			}
			var te *TemplateError
			if !errors.As(err, &te) || te.File != ".speed/templates/developer.md.tmpl" {
				t.Errorf("error is not a TemplateError naming the file: %#v", err)
			}
			if err := CheckTemplates(tdir, ".speed/templates"); err == nil && !strings.HasPrefix(tc.name, "exec") {
				t.Error("CheckTemplates accepted a template that does not parse")
			}
		})
	}
}

func TestEmbeddedTemplatesParse(t *testing.T) {
	if err := CheckTemplates("", ""); err != nil {
		t.Fatal(err)
	}
}

func TestRenderRefusals(t *testing.T) {
	c := loadFixture(t)
	if _, err := Render("tester", Input{Context: c, Counter: counter(t)}); err == nil || !strings.Contains(err.Error(), `unknown stage "tester"`) {
		t.Errorf("unknown stage: %v", err)
	}
	if _, err := Render("developer", Input{Context: c}); err == nil {
		t.Error("no counter accepted")
	}
	if _, err := Render("developer", Input{Counter: counter(t)}); err == nil {
		t.Error("developer without a context accepted")
	}
	// Feature-wide stages render without a task context.
	out, err := Render("verifier", Input{Feature: "f", Counter: counter(t), Requirements: []Requirement{{ID: "R1", Title: "One"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Text, "**Requirements no task covers:** R1 (One)") {
		t.Errorf("verifier without tasks:\n%s", out.Text)
	}
}

func TestReportAndJSON(t *testing.T) {
	c := loadFixture(t)
	in := fixtureInput(t, c)
	in.Budget = 32000
	out, err := Render("developer", in)
	if err != nil {
		t.Fatal(err)
	}
	r := out.Report
	if !r.WithinBudget || r.BudgetTokens != 32000 || r.RemainingTokens != 32000-r.TotalTokens || r.OverBudget != 0 {
		t.Errorf("report %+v", r)
	}
	sum := 0
	for i, s := range r.Sections {
		if s.Name != Sections[i] || s.Tokens <= 0 {
			t.Errorf("section %d = %+v", i, s)
		}
		sum += s.Tokens
	}
	// BPE merges across section joins can differ by a few tokens.
	if d := sum - r.TotalTokens; d < -8 || d > 8 {
		t.Errorf("sections add to %d, total %d", sum, r.TotalTokens)
	}
	in.Budget = 100
	out, _ = Render("developer", in)
	if out.Report.WithinBudget || out.Report.OverBudget != out.Report.TotalTokens-100 || out.Report.RemainingTokens != 0 {
		t.Errorf("over-budget report %+v", out.Report)
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"within_budget":false`, `"remaining_tokens":0`, `"sections":[{"name":"identity"`, `"text":"# Developer`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("JSON lacks %s", k)
		}
	}
	// Sections come in the order identity, constraints, material, traceability.
	prev := -1
	for _, h := range []string{"# Developer", "## Constraints", "## Material", "## Traceability"} {
		i := strings.Index(out.Text, h)
		if i <= prev {
			t.Errorf("%q at %d, not after %d", h, i, prev)
		}
		prev = i
	}
}

// TestRenderSparse renders every stage from the least input it accepts:
// templates must not fail on empty lists, missing budgets or logs.
func TestRenderSparse(t *testing.T) {
	bare := &Context{Material: Material{Task: Task{ID: "T9", Title: "Bare"}}}
	for _, stage := range Stages {
		for _, in := range []Input{
			{Context: bare, Counter: counter(t)},
			{Feature: "f", Counter: counter(t)},
		} {
			if in.Context == nil && taskStages[stage] {
				continue
			}
			out, err := Render(stage, in)
			if err != nil {
				t.Fatalf("%s: %v", stage, err)
			}
			for _, h := range []string{"## Constraints", "## Material", "## Traceability"} {
				if !strings.Contains(out.Text, h) {
					t.Errorf("%s: no %q in\n%s", stage, h, out.Text)
				}
			}
			if !out.Report.WithinBudget || out.Report.BudgetTokens != 0 {
				t.Errorf("%s: report without a budget %+v", stage, out.Report)
			}
		}
	}
}
