package prompt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Names of the Layer 2 artifacts Load reads from a task directory.
const (
	ManifestName = "manifest.json"
	BudgetName   = "budget.json"
	MaterialName = "material.json"
)

// Tiers a file can have in the manifest and in material.json.
const (
	TierFull      = "full"
	TierSkeleton  = "skeleton"
	TierTruncated = "truncated"
	TierDropped   = "dropped"
)

// Manifest is manifest.json: every candidate file of the task and what
// Layer 2 did with it.
type Manifest struct {
	Feature      string         `json:"feature"`
	Task         string         `json:"task"`
	Stage        string         `json:"stage"`
	Tree         string         `json:"tree"`
	Tokenizer    string         `json:"tokenizer"`
	BudgetTokens int            `json:"budget_tokens"`
	Files        []ManifestFile `json:"files"`
}

// ManifestFile is one candidate file of the manifest.
type ManifestFile struct {
	Path     string `json:"path"`
	Distance int    `json:"distance"`
	Tier     string `json:"tier"`
	Tokens   int    `json:"tokens"`
	Reason   string `json:"reason"`
}

// Budget is budget.json: the totals per dimension and every cut.
type Budget struct {
	Feature         string               `json:"feature"`
	Task            string               `json:"task"`
	Stage           string               `json:"stage"`
	Tree            string               `json:"tree"`
	Total           int                  `json:"total"`
	Dimensions      map[string]Dimension `json:"dimensions"`
	Flows           []Flow               `json:"flows"`
	WithinBudget    bool                 `json:"within_budget"`
	RemainingTokens int                  `json:"remaining_tokens"`
	OverBudget      string               `json:"over_budget,omitempty"` // why, when distance 0 alone exceeds the total
	Cuts            []Cut                `json:"cuts"`
	Places          []Place              `json:"places,omitempty"` // the places of the files the task creates
	Inputs          map[string]string    `json:"inputs,omitempty"`
	Digest          string               `json:"digest,omitempty"`
}

// Place is where a file the task creates will live and what of it Layer 2
// delivered.
type Place struct {
	Create string      `json:"create"`
	Folder string      `json:"folder"`
	Files  []PlaceFile `json:"files"`
	Tokens int         `json:"tokens"`
}

// PlaceFile is one file of a Place: its kind (folder, package, module,
// like, test, subject) and tier.
type PlaceFile struct {
	Path   string `json:"path"`
	Kind   string `json:"kind"`
	Tier   string `json:"tier"`
	Tokens int    `json:"tokens"`
}

// Dimension is one budget dimension (code_context, task_context,
// spec_context, reserve).
type Dimension struct {
	Limit int `json:"limit"`
	Used  int `json:"used"`
}

// Flow records unused tokens of one dimension given to another.
type Flow struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Tokens int    `json:"tokens"`
}

// Cut records one file Layer 2 downgraded or dropped to fit the budget.
type Cut struct {
	Path        string `json:"path"`
	From        string `json:"from"`
	To          string `json:"to"`
	TokensSaved int    `json:"tokens_saved"`
	Reason      string `json:"reason"`
}

// Material is material.json: the scoped content a prompt is built from.
type Material struct {
	Task           Task            `json:"task"`
	Concerns       []Concern       `json:"concerns"`
	Decisions      []Decision      `json:"decisions"`
	Spec           []SpecItem      `json:"spec"`
	SpecParagraphs []SpecParagraph `json:"spec_paragraphs"`
	Files          []File          `json:"files"`
}

// Task is the task definition as Layer 2 resolved it.
type Task struct {
	ID           string   `json:"id"`
	Title        string   `json:"title"`
	Description  string   `json:"description"`
	Status       string   `json:"status"`
	FilesTouched []string `json:"files_touched"`
	DependsOn    []string `json:"depends_on"`
	Acceptance   []string `json:"acceptance"`
	Requirements []string `json:"requirements"`
	Base         string   `json:"base"`
	Assumptions  []string `json:"assumptions"`
	// The task's files by role, when it names roles (files.create …);
	// empty for a task that has only files_touched.
	Create []string `json:"create,omitempty"`
	Modify []string `json:"modify,omitempty"`
	Read   []string `json:"read,omitempty"`
}

// Concern is a cross-cutting concern the task is given: its feature's
// (Source "feature") or one a task recorded (Source the task's id).
type Concern struct {
	Source string `json:"source"`
	Text   string `json:"text"`
}

// Decision is an upstream decision recorded by a task.
type Decision struct {
	Task    string   `json:"task"`
	Summary string   `json:"summary"`
	Detail  string   `json:"detail"`
	Files   []string `json:"files"`
}

// SpecItem is one requirement with its alignment status.
type SpecItem struct {
	ID       string         `json:"id"`
	Title    string         `json:"title"`
	Text     string         `json:"text"`
	Status   string         `json:"status"`
	Evidence []EvidenceItem `json:"evidence"`
}

// EvidenceItem is one piece of alignment evidence. material.json may give
// it as a string or as an object; objects are rendered as "path:line
// symbol (note)" from whichever of those keys they have, or as their JSON.
type EvidenceItem string

// UnmarshalJSON accepts a string or an object.
func (e *EvidenceItem) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*e = EvidenceItem(s)
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("evidence must be a string or an object, got %s", firstBytes(b))
	}
	str := func(k string) string {
		switch v := m[k].(type) {
		case string:
			return v
		case float64:
			return fmt.Sprint(v)
		}
		return ""
	}
	var sb strings.Builder
	if p := str("path"); p != "" {
		sb.WriteString(p)
		if l := str("line"); l != "" {
			sb.WriteString(":" + l)
		}
	}
	for _, k := range []string{"symbol", "kind", "status"} {
		if v := str(k); v != "" {
			if sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(v)
		}
	}
	for _, k := range []string{"note", "reason", "text"} {
		if v := str(k); v != "" {
			if sb.Len() > 0 {
				sb.WriteString(" (" + v + ")")
			} else {
				sb.WriteString(v)
			}
			break
		}
	}
	if sb.Len() == 0 {
		c, _ := json.Marshal(m) // map keys are sorted
		sb.Write(c)
	}
	*e = EvidenceItem(sb.String())
	return nil
}

// SpecParagraph is a spec paragraph chosen by keyword when the spec has no
// requirement ids.
type SpecParagraph struct {
	Heading string `json:"heading"`
	Text    string `json:"text"`
}

// File is one scoped file with its content at its tier.
type File struct {
	Path     string `json:"path"`
	Lang     string `json:"lang"`
	Distance int    `json:"distance"`
	Tier     string `json:"tier"`
	Tokens   int    `json:"tokens"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	Content  string `json:"content"`
	Pointer  string `json:"pointer"`
	Role     string `json:"role,omitempty"` // distance 0: create, modify or read
}

// Context is the three artifacts of one task directory.
type Context struct {
	Manifest Manifest
	Budget   Budget
	Material Material
}

// Load reads manifest.json, budget.json and material.json from a task
// directory (.speed/features/<F>/context/task-<id>/). Errors name the file
// and, for malformed JSON, the line and column.
func Load(dir string) (*Context, error) {
	var data [3][]byte
	for i, name := range []string{ManifestName, BudgetName, MaterialName} {
		path := filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s: missing (run `git speed scope` for this task first)", path)
			}
			return nil, err
		}
		data[i] = b
	}
	return Decode(dir, data[0], data[1], data[2])
}

// Decode is Load over artifacts already in memory; dir names them in errors.
func Decode(dir string, manifest, budget, material []byte) (*Context, error) {
	c := &Context{}
	for _, a := range []struct {
		name string
		b    []byte
		v    any
	}{
		{ManifestName, manifest, &c.Manifest},
		{BudgetName, budget, &c.Budget},
		{MaterialName, material, &c.Material},
	} {
		if err := decodeJSON(filepath.Join(dir, a.name), a.b, a.v); err != nil {
			return nil, err
		}
	}
	if err := c.check(dir); err != nil {
		return nil, err
	}
	return c, nil
}

// decodeJSON decodes b into v; errors are "path:line:col: message".
func decodeJSON(path string, b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			l, c := lineCol(b, se.Offset)
			return fmt.Errorf("%s:%d:%d: malformed JSON: %v", path, l, c, se)
		case errors.As(err, &te):
			l, c := lineCol(b, te.Offset)
			field := te.Field
			if field == "" {
				field = "value"
			}
			return fmt.Errorf("%s:%d:%d: %s: want %s, got %s", path, l, c, field, te.Type, te.Value)
		case errors.Is(err, io.EOF):
			return fmt.Errorf("%s: empty file", path)
		}
		return fmt.Errorf("%s: %v", path, err)
	}
	if dec.More() {
		l, c := lineCol(b, dec.InputOffset())
		return fmt.Errorf("%s:%d:%d: unexpected data after the JSON object", path, l, c)
	}
	return nil
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(b []byte, off int64) (int, int) {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	if off < 0 {
		off = 0
	}
	pre := b[:off]
	line := bytes.Count(pre, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(pre, '\n')
	return line, col
}

func firstBytes(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// check refuses artifacts that disagree with each other or lack what every
// stage needs.
func (c *Context) check(dir string) error {
	if c.Material.Task.ID == "" {
		return fmt.Errorf("%s: task.id is missing", filepath.Join(dir, MaterialName))
	}
	if c.Manifest.Task != "" && c.Manifest.Task != c.Material.Task.ID {
		return fmt.Errorf("%s: task %q does not match %s task.id %q", filepath.Join(dir, ManifestName), c.Manifest.Task, MaterialName, c.Material.Task.ID)
	}
	if c.Budget.Task != "" && c.Budget.Task != c.Material.Task.ID {
		return fmt.Errorf("%s: task %q does not match %s task.id %q", filepath.Join(dir, BudgetName), c.Budget.Task, MaterialName, c.Material.Task.ID)
	}
	for i, f := range c.Manifest.Files {
		if !validTier(f.Tier) {
			return fmt.Errorf("%s: files[%d] (%s): unknown tier %q (want full, skeleton, truncated or dropped)", filepath.Join(dir, ManifestName), i, f.Path, f.Tier)
		}
	}
	for i, f := range c.Material.Files {
		if !validTier(f.Tier) || f.Tier == TierDropped {
			return fmt.Errorf("%s: files[%d] (%s): unknown tier %q (want full, skeleton or truncated)", filepath.Join(dir, MaterialName), i, f.Path, f.Tier)
		}
	}
	return nil
}

func validTier(t string) bool {
	switch t {
	case TierFull, TierSkeleton, TierTruncated, TierDropped:
		return true
	}
	return false
}
