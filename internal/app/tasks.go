package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/git-speed/git-speed/layers/feature"
)

// TaskAddRequest adds a task file to a feature.
type TaskAddRequest struct {
	Feature string
	// ID is the task's id; "" is the next number after the feature's
	// highest numeric id.
	ID          string
	Title       string
	Description string
	// Files are the files the task touches (files_touched), relative to
	// the top of the repository.
	Files        []string
	DependsOn    []string
	Requirements []string
}

// TaskAddResult is the task as written.
type TaskAddResult struct {
	Path string        `json:"path"` // relative to the work tree
	Task *feature.Task `json:"task"`
}

var reqIDPattern = regexp.MustCompile(`^[A-Z]{1,5}-[0-9]+$`)

// TaskAdd writes tasks/<id>.toml of a feature: a valid task file (the
// feature loader reads it back before it is written) that names the
// feature's requirements and the tasks it depends on. A path outside the
// repository, an id the feature has, an unknown dependency or an unknown
// feature is refused, naming the flag.
func (s *Session) TaskAdd(ctx context.Context, req TaskAddRequest) (*TaskAddResult, error) {
	f, err := s.taskFeature(req.Feature)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Title) == "" {
		return nil, Usagef("--title is required: say what the task does in one line")
	}
	id := req.ID
	if id == "" {
		id = nextTaskID(f)
	} else if !regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`).MatchString(id) {
		return nil, Usagef("--id %q: want letters, digits, '.', '_' or '-', starting with a letter or digit", id)
	}
	dir := path.Join(s.featureDir(req.Feature), "tasks")
	rel := path.Join(dir, id+".toml")
	if f.Task(id) != nil || f.TaskError(id) != nil {
		return nil, Usagef("--id %s: feature %s already has task %s (%s)", id, req.Feature, id, rel)
	}
	if _, err := os.Lstat(filepath.Join(s.top, filepath.FromSlash(rel))); err == nil {
		return nil, Usagef("--id %s: %s already exists", id, rel)
	}
	var files []string
	for _, p := range req.Files {
		c, err := feature.CleanPath(p)
		if err != nil {
			return nil, Usagef("--files %s: %v", p, err)
		}
		if _, err := os.Lstat(filepath.Join(s.top, filepath.FromSlash(c))); err != nil {
			warnf(ctx, "--files %s: not in the work tree (yet)", c)
		}
		files = append(files, c)
	}
	for _, d := range req.DependsOn {
		if f.Task(d) == nil {
			return nil, Usagef("--depends-on %s: feature %s has no task %s", d, req.Feature, d)
		}
	}
	known := map[string]bool{}
	for _, r := range f.Spec.Requirements {
		known[r.ID] = true
	}
	for _, r := range req.Requirements {
		if !reqIDPattern.MatchString(r) {
			return nil, Usagef("--requirement %q: not a requirement id (want one like REQ-1)", r)
		}
		if len(known) > 0 && !known[r] {
			return nil, Usagef("--requirement %s: %s has no requirement %s", r, f.SpecPath, r)
		}
	}
	data := taskTOML(id, req.Title, req.Description, files, req.DependsOn, req.Requirements)
	t, _, err := feature.ParseTask(rel, data, nil)
	if err != nil {
		return nil, fmt.Errorf("the task file git-speed would write does not read back: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	full := filepath.Join(s.top, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return nil, err
	}
	out, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	if _, err := out.Write(data); err != nil {
		out.Close()
		os.Remove(full)
		return nil, err
	}
	if err := out.Close(); err != nil {
		return nil, err
	}
	// The task goes back to the caller (--json) through redaction.
	if err := s.redactFeature(&feature.Feature{Spec: &feature.Spec{}, Tasks: []*feature.Task{t}}); err != nil {
		return nil, err
	}
	return &TaskAddResult{Path: rel, Task: t}, nil
}

// TaskListResult is a feature's tasks, and the task files that do not load.
type TaskListResult struct {
	Feature string          `json:"feature"`
	Tasks   []*feature.Task `json:"tasks"`
	Broken  []TaskProblem   `json:"broken,omitempty"`
}

// TaskProblem is a task file that does not load, with its problems.
type TaskProblem struct {
	ID       string   `json:"id"`
	File     string   `json:"file"`
	Problems []string `json:"problems"`
}

// TaskList reads a feature's tasks, sorted by id.
func (s *Session) TaskList(ctx context.Context, name string) (*TaskListResult, error) {
	f, err := s.taskFeature(name)
	if err != nil {
		return nil, err
	}
	// What the task files say is output: it passes through redaction.
	if err := s.redactFeature(f); err != nil {
		return nil, err
	}
	r, err := s.cfg.Redactor()
	if err != nil {
		return nil, err
	}
	res := &TaskListResult{Feature: name, Tasks: f.Tasks}
	if res.Tasks == nil {
		res.Tasks = []*feature.Task{}
	}
	for _, b := range f.Broken {
		p := TaskProblem{ID: b.ID, File: b.File}
		for _, e := range b.Errs {
			msg, _ := r.Text("", e.Error())
			p.Problems = append(p.Problems, msg)
		}
		res.Broken = append(res.Broken, p)
	}
	return res, nil
}

// taskFeature loads a feature for task add and task list.
func (s *Session) taskFeature(name string) (*feature.Feature, error) {
	if s.top == "" {
		return nil, errors.New("features live in a work tree; this is a bare repository")
	}
	if name == "" {
		return nil, Usagef("name the feature: git speed task add FEATURE …")
	}
	f, _, err := feature.LoadFeature(os.DirFS(s.top), name, feature.Options{Dir: path.Join(s.speedDir, "features")})
	if errors.Is(err, feature.ErrNotFound) {
		return nil, Usagef("no feature %s: %s/ does not exist (git speed init writes one to start from)", name, s.featureDir(name))
	}
	return f, err
}

// nextTaskID is one more than the highest numeric id of f's tasks.
func nextTaskID(f *feature.Feature) string {
	n := 0
	ids := []string{}
	for _, t := range f.Tasks {
		ids = append(ids, t.ID)
	}
	for _, b := range f.Broken {
		ids = append(ids, b.ID)
	}
	for _, id := range ids {
		if v, err := strconv.Atoi(id); err == nil && v > n {
			n = v
		}
	}
	return strconv.Itoa(n + 1)
}

// taskTOML is a task file in the layout of the examples: id, title,
// description, status, files_touched, depends_on, requirements,
// acceptance.
func taskTOML(id, title, desc string, files, deps, reqs []string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "id = %s\ntitle = %s\n", tomlString(id), tomlString(title))
	if desc = strings.TrimSpace(desc); desc != "" {
		if strings.Contains(desc, "\n") {
			fmt.Fprintf(&b, "description = \"\"\"\n%s\n\"\"\"\n", tomlMultiline(desc))
		} else {
			fmt.Fprintf(&b, "description = %s\n", tomlString(desc))
		}
	}
	b.WriteString("status = \"planned\"\n")
	fmt.Fprintf(&b, "files_touched = %s\n", tomlStrings(files))
	if len(deps) > 0 {
		d := append([]string(nil), deps...)
		sort.Strings(d)
		fmt.Fprintf(&b, "depends_on = %s\n", tomlStrings(d))
	}
	if len(reqs) > 0 {
		fmt.Fprintf(&b, "requirements = %s\n", tomlStrings(reqs))
	}
	b.WriteString("acceptance = []\n")
	return []byte(b.String())
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string { return `"` + tomlEscape(s, false) + `"` }

// tomlMultiline is s as the body of a TOML multi-line basic string.
func tomlMultiline(s string) string { return tomlEscape(strings.ReplaceAll(s, "\r\n", "\n"), true) }

// tomlEscape escapes s for a basic string, leaving newlines as they are
// when multiline.
func tomlEscape(s string, multiline bool) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n' && multiline:
			b.WriteByte('\n')
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func tomlStrings(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = tomlString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
