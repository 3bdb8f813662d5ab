package prompt

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"text/template"
	"text/template/parse"

	"github.com/git-speed/git-speed/internal/redact"
	"github.com/git-speed/git-speed/templates"
)

// Stages that have a template, in pipeline order.
var Stages = []string{"architect", "verifier", "developer", "reviewer", "coherence", "debugger"}

// Sections of every prompt, in the order they are rendered. Each is a
// {{define}} block of the stage template.
var Sections = []string{"identity", "constraints", "material", "traceability"}

// taskStages need a task's Layer 2 artifacts; the others are feature-wide
// and can render without a Context.
var taskStages = map[string]bool{"developer": true, "reviewer": true, "debugger": true}

// Input is everything a stage prompt is rendered from. Context and Counter
// are always used; the rest is stage-specific material the caller reads
// from git and the task files.
type Input struct {
	// Context is the task's Layer 2 artifacts (see Load). Required for
	// developer, reviewer and debugger; optional for the feature-wide
	// stages, which then take Feature.
	Context *Context
	Feature string

	// Counter counts tokens (internal/tokens). Required.
	Counter func(string) int
	// Tokenizer names Counter in the report; "" takes the manifest's.
	Tokenizer string
	// Budget is the stage's total tokens from speed.toml; 0 takes
	// budget.json's total.
	Budget int

	// TemplateDir is the repository's override directory
	// (.speed/templates); "" uses the embedded templates only.
	// TemplateLabel is how errors and the report name that directory
	// (repository-relative); "" uses TemplateDir.
	TemplateDir   string
	TemplateLabel string

	// reviewer: the task's files between its base and HEAD or the work tree.
	Diffs []FileDiff
	// DiffBase, when not "", says what Diffs compare when the caller chose
	// it (the task named no base): "the merge-base `abc` of HEAD with `main` …".
	DiffBase string

	// architect: the ranked repo map (markdown), domain clusters and the
	// spec alignment, structured or already rendered.
	RepoMap       string
	Clusters      []Cluster
	Alignment     []Alignment
	AlignmentText string

	// verifier, coherence, architect: the feature's tasks and requirements.
	Tasks        []TaskSummary
	Requirements []Requirement
	// coherence: symbols each task touches (task id → symbols), optional,
	// and the feature's decisions (nil takes material.json's).
	Symbols   map[string][]string
	Decisions []Decision

	// debugger: the agent's failure output.
	FailureLog string

	// Constraints from outside Layer 2 (see constraints.go).
	// Rules: developer, reviewer: the security rules for the task's files.
	Rules Rules
	// Commands: developer: the agent command files the task names.
	Commands []Command
	// Fallback, when not "", says why the context is a fallback (the task
	// and its files in full): it is stated in the constraints section,
	// whatever the template, and in the report.
	Fallback string

	// Agent are sections of the agent's own context (agent.go).
	Agent []AgentSection

	// Redact is the redaction layer every section goes through (the
	// material is redacted already; a failure log, a diff, a map or a
	// task's text may not be); nil means redact.Default().
	Redact *redact.Redactor
}

// Output is a rendered prompt and its token report.
type Output struct {
	Stage          string          `json:"stage"`
	Feature        string          `json:"feature"`
	Task           string          `json:"task,omitempty"`
	Template       string          `json:"template"`
	Report         Report          `json:"report"`
	Classification *Classification `json:"classification,omitempty"` // debugger only
	Text           string          `json:"text"`
}

// Report is the per-section token budget report of a prompt (Umbra style).
type Report struct {
	Tokenizer       string          `json:"tokenizer,omitempty"`
	BudgetTokens    int             `json:"budget_tokens"`
	TotalTokens     int             `json:"total_tokens"`
	WithinBudget    bool            `json:"within_budget"`
	RemainingTokens int             `json:"remaining_tokens"`
	OverBudget      int             `json:"over_budget,omitempty"` // tokens over, when not within budget
	Sections        []SectionTokens `json:"sections"`
	Parts           []PartTokens    `json:"parts,omitempty"`    // parts with a size of their own (rules), inside a section
	Fallback        string          `json:"fallback,omitempty"` // why the context is a fallback
}

// SectionTokens is the size of one section of a prompt.
type SectionTokens struct {
	Name   string `json:"name"`
	Tokens int    `json:"tokens"`
	Lines  int    `json:"lines"`
}

// Render renders stage's prompt from in: each section of the stage template
// in order, joined by blank lines, with a token report. The same Input
// gives the same bytes.
func Render(stage string, in Input) (*Output, error) {
	if !isStage(stage) {
		return nil, fmt.Errorf("unknown stage %q (want one of %s)", stage, strings.Join(Stages, ", "))
	}
	if in.Counter == nil {
		return nil, errors.New("render: no token counter")
	}
	if in.Context == nil && taskStages[stage] {
		return nil, fmt.Errorf("render %s: needs the task's context (manifest.json, budget.json, material.json)", stage)
	}
	t, err := LoadTemplate(stage, in.TemplateDir, in.TemplateLabel)
	if err != nil {
		return nil, err
	}
	data := newData(stage, in)

	out := &Output{Stage: stage, Feature: data.Feature, Task: data.Task.ID, Template: t.Name, Classification: data.Classification}
	red := in.Redact
	if red == nil {
		red = redact.Default()
	}
	// The agent's sections come from files outside the index.
	agent := make([]AgentSection, len(in.Agent))
	for i, a := range in.Agent {
		a.Text, _ = red.Text("", a.Text)
		agent[i] = a
	}
	in.Agent = agent
	var parts []string
	bySection := map[string]string{}
	for _, sec := range Sections {
		var buf bytes.Buffer
		if err := t.t.ExecuteTemplate(&buf, sec, data); err != nil {
			return nil, t.wrap(err)
		}
		if sec == "constraints" {
			withAssumptions(&buf, data)
			if in.Fallback != "" {
				buf.WriteString("\n\n" + fallbackNotice(in.Fallback))
			}
		}
		text, _ := red.Text("", tidy(buf.String()))
		bySection[sec] = text
		parts = append(parts, text)
		out.Report.Sections = append(out.Report.Sections, SectionTokens{Name: sec, Tokens: in.Counter(text), Lines: strings.Count(text, "\n")})
		if sec == agentAfter {
			parts = appendAgent(parts, &out.Report, in)
		}
	}
	var nonEmpty []string
	for _, p := range parts {
		if p != "" {
			nonEmpty = append(nonEmpty, p)
		}
	}
	out.Text = strings.Join(nonEmpty, "\n")

	r := &out.Report
	addParts(r, data, bySection, in.Counter)
	r.Fallback = in.Fallback
	r.Tokenizer = in.Tokenizer
	if r.Tokenizer == "" && in.Context != nil {
		r.Tokenizer = in.Context.Manifest.Tokenizer
	}
	r.BudgetTokens = data.BudgetTokens
	r.TotalTokens = in.Counter(out.Text)
	r.WithinBudget = r.BudgetTokens <= 0 || r.TotalTokens <= r.BudgetTokens
	if r.BudgetTokens > 0 {
		if r.WithinBudget {
			r.RemainingTokens = r.BudgetTokens - r.TotalTokens
		} else {
			r.OverBudget = r.TotalTokens - r.BudgetTokens
		}
	}
	return out, nil
}

// tidy trims a rendered section, squeezes runs of blank lines that
// template conditionals leave behind (outside code fences) and ends it
// with one newline; an all-blank section becomes "".
func tidy(s string) string {
	lines := strings.Split(s, "\n")
	var out []string
	fence := ""
	blank := 0
	for _, l := range lines {
		if fence != "" {
			// Inside a code fence every byte is content: keep it.
			if strings.TrimSpace(l) == fence {
				fence = ""
			}
			out = append(out, l)
			continue
		}
		l = strings.TrimRight(l, " \t\r")
		if f := fenceOpen(l); f != "" {
			fence = f
		}
		if l == "" {
			blank++
			if blank > 1 || len(out) == 0 {
				continue
			}
		} else {
			blank = 0
		}
		out = append(out, l)
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

// fenceOpen returns the backtick run that opens a code fence on line l.
func fenceOpen(l string) string {
	t := strings.TrimLeft(l, " ")
	n := 0
	for n < len(t) && t[n] == '`' {
		n++
	}
	if n >= 3 {
		return t[:n]
	}
	return ""
}

func isStage(s string) bool {
	for _, st := range Stages {
		if st == s {
			return true
		}
	}
	return false
}

// Template is a parsed stage template.
type Template struct {
	Stage string
	Name  string // how errors name the file: "templates/developer.md.tmpl (embedded)" or the override's path
	t     *template.Template
}

// LoadTemplate parses stage's template: dir/<stage>.md.tmpl when dir is
// not "" and that file exists, the embedded one otherwise. label is how
// errors name dir (defaults to dir). A parse error names the file and line:
// ".speed/templates/developer.md.tmpl:12: function "foo" not defined".
func LoadTemplate(stage, dir, label string) (*Template, error) {
	if !isStage(stage) {
		return nil, fmt.Errorf("unknown stage %q (want one of %s)", stage, strings.Join(Stages, ", "))
	}
	file := stage + ".md.tmpl"
	var src []byte
	var name string
	if dir != "" {
		b, err := os.ReadFile(filepath.Join(dir, file))
		switch {
		case err == nil:
			if label == "" {
				label = dir
			}
			src, name = b, filepath.ToSlash(filepath.Join(label, file))
		case !errors.Is(err, fs.ErrNotExist):
			return nil, err
		}
	}
	if src == nil {
		b, err := templates.FS.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("no embedded template for stage %s: %v", stage, err)
		}
		src, name = b, path.Join("templates", file)
	}
	return parseTemplate(stage, name, string(src))
}

func parseTemplate(stage, name, src string) (*Template, error) {
	t := &Template{Stage: stage, Name: name}
	tt, err := template.New(name).Option("missingkey=error").Funcs(funcs).Parse(src)
	if err != nil {
		return nil, t.wrap(err)
	}
	t.t = tt
	// Text outside the section blocks would never be rendered: say so
	// rather than silently losing it.
	if tt.Tree != nil && tt.Tree.Root != nil {
		for _, n := range tt.Tree.Root.Nodes {
			if tn, ok := n.(*parse.TextNode); ok && len(bytes.TrimSpace(tn.Text)) == 0 {
				continue
			}
			off := min(int(n.Position()), len(src))
			if tn, ok := n.(*parse.TextNode); ok {
				off += len(tn.Text) - len(bytes.TrimLeft(tn.Text, " \t\r\n"))
			}
			line := 1 + strings.Count(src[:min(off, len(src))], "\n")
			return nil, &TemplateError{File: name, Msg: fmt.Sprintf("%s:%d: text outside a {{define}} block is never rendered; put it inside one of the sections %s", name, line, strings.Join(Sections, ", "))}
		}
	}
	for _, sec := range Sections {
		if tt.Lookup(sec) == nil {
			return nil, &TemplateError{File: name, Msg: fmt.Sprintf("%s: no {{define %q}} block (every stage template defines %s)", name, sec, strings.Join(Sections, ", "))}
		}
	}
	return t, nil
}

// wrap turns text/template's "template: NAME:LINE:COL: …" into
// "NAME:LINE:COL: …" so the message reads like a compiler error.
func (t *Template) wrap(err error) error {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "template: ")
	if !strings.HasPrefix(msg, t.Name) {
		msg = t.Name + ": " + msg
	}
	return &TemplateError{File: t.Name, Msg: msg}
}

// TemplateError is a parse or execution error of a stage template; Error
// starts with the file and line.
type TemplateError struct {
	File string
	Msg  string
}

func (e *TemplateError) Error() string { return e.Msg }

// CheckTemplates parses every stage's template (overrides in dir first)
// and returns the first error, for `git speed verify`.
func CheckTemplates(dir, label string) error {
	for _, s := range Stages {
		if _, err := LoadTemplate(s, dir, label); err != nil {
			return err
		}
	}
	return nil
}
