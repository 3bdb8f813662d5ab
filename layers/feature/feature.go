package feature

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Dir is the folder, relative to the work tree, that holds the features.
const Dir = ".speed/features"

// Task statuses.
const (
	StatusPlanned    = "planned"
	StatusInProgress = "in_progress"
	StatusDone       = "done"
)

// Decision is a choice recorded by a task, handed to the tasks that depend
// on it.
type Decision struct {
	Summary string   `toml:"summary" json:"summary"`
	Detail  string   `toml:"detail" json:"detail,omitempty"`
	Files   []string `toml:"files" json:"files,omitempty"`
}

// Task is one tasks/<id>.toml.
type Task struct {
	ID           string     `toml:"id" json:"id"`
	Title        string     `toml:"title" json:"title"`
	Description  string     `toml:"description" json:"description,omitempty"`
	FilesTouched []string   `toml:"files_touched" json:"files_touched"`
	DependsOn    []string   `toml:"depends_on" json:"depends_on"`
	Status       string     `toml:"status" json:"status"`
	Acceptance   []string   `toml:"acceptance" json:"acceptance"`
	Requirements []string   `toml:"requirements" json:"requirements"`
	Base         string     `toml:"base" json:"base,omitempty"`
	Decisions    []Decision `toml:"decisions" json:"decisions,omitempty"`

	// Path is the task file, relative to the work tree.
	Path string `toml:"-" json:"-"`
	// Raw is the task file's bytes, for digests.
	Raw []byte `toml:"-" json:"-"`
}

// Feature is everything under .speed/features/<Name>/ that Layer 2 reads.
type Feature struct {
	Name  string
	Spec  *Spec   // never nil; empty when there is no spec.md
	Tasks []*Task // sorted by ID

	// SpecPath is spec.md relative to the work tree; SpecRaw its bytes
	// (nil when there is none).
	SpecPath string
	SpecRaw  []byte
}

// Options controls LoadFeature.
type Options struct {
	// Strict turns warnings (such as a files_touched path absent from the
	// tree) into errors.
	Strict bool
	// Exists reports whether a repo-relative path is in the tree; nil skips
	// the check.
	Exists func(path string) bool
	// Dir is the folder of features relative to the work tree; "" means
	// Dir (.speed/features). `git speed --speed-dir D` makes it D/features.
	Dir string
}

// Warning is a problem that does not stop loading.
type Warning struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	Key  string `json:"key,omitempty"`
	Msg  string `json:"msg"`
}

func (w Warning) String() string {
	return (&Error{File: w.File, Line: w.Line, Key: w.Key, Msg: w.Msg}).Error()
}

// Error is a problem in a feature's files, with the place it was found.
type Error struct {
	File string // relative to the work tree
	Line int    // 0 when unknown
	Key  string // dotted key, "" when unknown
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		fmt.Fprintf(&b, "key %s: ", e.Key)
	}
	b.WriteString(e.Msg)
	return b.String()
}

var (
	nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	// ErrNotFound is wrapped by the error LoadFeature returns for a feature
	// that has no folder.
	ErrNotFound = errors.New("feature not found")
)

// LoadDir is LoadFeature over the work tree at dir.
func LoadDir(dir, name string, opts Options) (*Feature, []Warning, error) {
	return LoadFeature(os.DirFS(dir), name, opts)
}

// LoadFeature reads feature name from root, an fs.FS at the top of the work
// tree. Tasks come back sorted by id. The first problem found is returned as
// an *Error (or wraps ErrNotFound); lesser problems are warnings.
func LoadFeature(root fs.FS, name string, opts Options) (*Feature, []Warning, error) {
	if !nameRE.MatchString(name) || name == "." || name == ".." {
		return nil, nil, fmt.Errorf("feature name %q: want letters, digits, '.', '_' or '-'", name)
	}
	base := opts.Dir
	if base == "" {
		base = Dir
	}
	dir := path.Join(base, name)
	if st, err := fs.Stat(root, dir); err != nil || !st.IsDir() {
		return nil, nil, fmt.Errorf("%s: %w (create %s/spec.md and %s/tasks/<id>.toml)", dir, ErrNotFound, dir, dir)
	}
	f := &Feature{Name: name, Spec: &Spec{}}
	var warns []Warning
	warn := func(w Warning) error {
		if opts.Strict {
			return &Error{File: w.File, Line: w.Line, Key: w.Key, Msg: w.Msg}
		}
		warns = append(warns, w)
		return nil
	}

	specPath := path.Join(dir, "spec.md")
	if data, err := fs.ReadFile(root, specPath); err == nil {
		f.SpecPath, f.SpecRaw = specPath, data
		var sw []Warning
		f.Spec, sw = ParseSpec(specPath, data)
		for _, w := range sw {
			if err := warn(w); err != nil {
				return nil, nil, err
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, &Error{File: specPath, Msg: err.Error()}
	}

	tasksDir := path.Join(dir, "tasks")
	entries, err := fs.ReadDir(root, tasksDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, &Error{File: tasksDir, Msg: err.Error()}
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".toml") {
			continue
		}
		p := path.Join(tasksDir, e.Name())
		data, err := fs.ReadFile(root, p)
		if err != nil {
			return nil, nil, &Error{File: p, Msg: err.Error()}
		}
		t, tw, err := ParseTask(p, data, opts.Exists)
		if err != nil {
			return nil, nil, err
		}
		for _, w := range tw {
			if err := warn(w); err != nil {
				return nil, nil, err
			}
		}
		f.Tasks = append(f.Tasks, t)
	}
	sort.Slice(f.Tasks, func(i, j int) bool { return f.Tasks[i].ID < f.Tasks[j].ID })
	if err := f.checkDeps(); err != nil {
		return nil, nil, err
	}
	if f.Spec != nil {
		known := map[string]bool{}
		for _, r := range f.Spec.Requirements {
			known[r.ID] = true
		}
		for _, t := range f.Tasks {
			for _, r := range t.Requirements {
				if len(f.Spec.Requirements) > 0 && !known[r] {
					if err := warn(Warning{File: t.Path, Line: lineOfValue(t.Raw, "requirements", r), Key: "requirements", Msg: fmt.Sprintf("requirement %s is not in %s", r, specPathOr(f))}); err != nil {
						return nil, nil, err
					}
				}
			}
		}
	}
	return f, warns, nil
}

func specPathOr(f *Feature) string {
	if f.SpecPath != "" {
		return f.SpecPath
	}
	return "spec.md"
}

// Task returns the task with id, or nil.
func (f *Feature) Task(id string) *Task {
	i := sort.Search(len(f.Tasks), func(i int) bool { return f.Tasks[i].ID >= id })
	if i < len(f.Tasks) && f.Tasks[i].ID == id {
		return f.Tasks[i]
	}
	return nil
}

// Upstream returns the done tasks that id depends on, directly or through
// other tasks (done or not), nearest first; tasks at the same distance are
// in id order. Each task appears once, at its nearest distance.
func (f *Feature) Upstream(id string) []*Task {
	t := f.Task(id)
	if t == nil {
		return nil
	}
	seen := map[string]bool{id: true}
	var out []*Task
	level := []*Task{t}
	for len(level) > 0 {
		var next []*Task
		for _, cur := range level {
			for _, d := range cur.DependsOn {
				if seen[d] {
					continue
				}
				seen[d] = true
				if dt := f.Task(d); dt != nil {
					next = append(next, dt)
				}
			}
		}
		sort.Slice(next, func(i, j int) bool { return next[i].ID < next[j].ID })
		for _, n := range next {
			if n.Status == StatusDone {
				out = append(out, n)
			}
		}
		level = next
	}
	return out
}

// checkDeps refuses unknown depends_on ids and dependency cycles.
func (f *Feature) checkDeps() error {
	for _, t := range f.Tasks {
		for _, d := range t.DependsOn {
			if f.Task(d) == nil {
				return &Error{File: t.Path, Line: lineOfValue(t.Raw, "depends_on", d), Key: "depends_on",
					Msg: fmt.Sprintf("task %s depends on unknown task %q", t.ID, d)}
			}
		}
	}
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var stack []string
	var visit func(t *Task) error
	visit = func(t *Task) error {
		color[t.ID] = grey
		stack = append(stack, t.ID)
		deps := append([]string(nil), t.DependsOn...)
		sort.Strings(deps)
		for _, d := range deps {
			switch color[d] {
			case grey:
				i := len(stack) - 1
				for stack[i] != d {
					i--
				}
				cycle := append(append([]string(nil), stack[i:]...), d)
				return &Error{File: t.Path, Line: lineOfValue(t.Raw, "depends_on", d), Key: "depends_on",
					Msg: "dependency cycle: " + strings.Join(cycle, " -> ")}
			case white:
				if err := visit(f.Task(d)); err != nil {
					return err
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[t.ID] = black
		return nil
	}
	for _, t := range f.Tasks {
		if color[t.ID] == white {
			if err := visit(t); err != nil {
				return err
			}
		}
	}
	return nil
}

var idRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ParseTask decodes one task file strictly; name is its repo-relative path,
// used in errors and for checking the id. exists, when not nil, reports
// whether a path is in the tree; absent paths are warnings.
func ParseTask(name string, data []byte, exists func(string) bool) (*Task, []Warning, error) {
	t := &Task{}
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(t); err != nil {
		var sm *toml.StrictMissingError
		if errors.As(err, &sm) && len(sm.Errors) > 0 {
			e := sm.Errors[0]
			row, _ := e.Position()
			return nil, nil, &Error{File: name, Line: row, Key: strings.Join(e.Key(), "."), Msg: "unknown key"}
		}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, _ := de.Position()
			msg := strings.TrimPrefix(de.Error(), "toml: ")
			return nil, nil, &Error{File: name, Line: row, Key: strings.Join(de.Key(), "."), Msg: msg}
		}
		return nil, nil, &Error{File: name, Msg: err.Error()}
	}
	t.Path, t.Raw = name, data
	bad := func(key, format string, args ...any) error {
		return &Error{File: name, Line: lineOfKey(data, key), Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	want := strings.TrimSuffix(path.Base(name), ".toml")
	switch {
	case t.ID == "":
		return nil, nil, bad("id", "missing (want id = %q)", want)
	case t.ID != want:
		return nil, nil, bad("id", "%q does not match the file name (want %q)", t.ID, want)
	case !idRE.MatchString(t.ID):
		return nil, nil, bad("id", "%q: want letters, digits, '.', '_' or '-'", t.ID)
	}
	switch t.Status {
	case "":
		t.Status = StatusPlanned
	case StatusPlanned, StatusInProgress, StatusDone:
	default:
		return nil, nil, bad("status", "%q: want \"planned\", \"in_progress\" or \"done\"", t.Status)
	}
	var warns []Warning
	clean := func(key string, paths []string) ([]string, error) {
		out := make([]string, 0, len(paths))
		seen := map[string]bool{}
		for _, p := range paths {
			c, err := CleanPath(p)
			if err != nil {
				return nil, &Error{File: name, Line: lineOfValue(data, key, p), Key: key, Msg: err.Error()}
			}
			if seen[c] {
				continue
			}
			seen[c] = true
			out = append(out, c)
			if exists != nil && !exists(c) {
				warns = append(warns, Warning{File: name, Line: lineOfValue(data, key, p), Key: key, Msg: fmt.Sprintf("%s is not in the tree", c)})
			}
		}
		return out, nil
	}
	var err error
	if t.FilesTouched, err = clean("files_touched", t.FilesTouched); err != nil {
		return nil, nil, err
	}
	for i := range t.Decisions {
		if t.Decisions[i].Summary == "" {
			return nil, nil, bad("decisions", "decision %d has no summary", i+1)
		}
		if t.Decisions[i].Files, err = clean("decisions.files", t.Decisions[i].Files); err != nil {
			return nil, nil, err
		}
	}
	seen := map[string]bool{}
	deps := t.DependsOn[:0:0]
	for _, d := range t.DependsOn {
		if d == t.ID {
			return nil, nil, &Error{File: name, Line: lineOfValue(data, "depends_on", d), Key: "depends_on", Msg: "dependency cycle: " + d + " -> " + d}
		}
		if !seen[d] {
			seen[d] = true
			deps = append(deps, d)
		}
	}
	t.DependsOn = deps
	for _, r := range t.Requirements {
		if !reqIDRE.MatchString(r) {
			return nil, nil, &Error{File: name, Line: lineOfValue(data, "requirements", r), Key: "requirements", Msg: fmt.Sprintf("%q is not a requirement id (want one like REQ-1)", r)}
		}
	}
	if t.FilesTouched == nil {
		t.FilesTouched = []string{}
	}
	if t.DependsOn == nil {
		t.DependsOn = []string{}
	}
	if t.Acceptance == nil {
		t.Acceptance = []string{}
	}
	if t.Requirements == nil {
		t.Requirements = []string{}
	}
	return t, warns, nil
}

var reqIDRE = regexp.MustCompile(`^[A-Z]{1,5}-[0-9]+$`)

// CleanPath returns p as a clean repo-relative slash path, or an error when
// it is empty, absolute or escapes the repository.
func CleanPath(p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", errors.New("empty path")
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path %q contains a NUL byte", p)
	}
	s := strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(s, "/") || (len(s) >= 2 && s[1] == ':' && (s[0]|0x20) >= 'a' && (s[0]|0x20) <= 'z') {
		return "", fmt.Errorf("path %q is absolute; want a path relative to the top of the repository", p)
	}
	c := path.Clean(s)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("path %q is outside the repository", p)
	}
	if c == "." {
		return "", fmt.Errorf("path %q names the repository itself, not a file", p)
	}
	if c == ".git" || strings.HasPrefix(c, ".git/") {
		return "", fmt.Errorf("path %q is inside .git", p)
	}
	return c, nil
}

// lineOfKey finds the line where key (dotted, the last part is the key) is
// set, or 0.
func lineOfKey(data []byte, key string) int {
	leaf := key[strings.LastIndexByte(key, '.')+1:]
	for i, l := range strings.Split(string(data), "\n") {
		if k, _, ok := strings.Cut(strings.TrimSpace(l), "="); ok && strings.Trim(strings.TrimSpace(k), `"'`) == leaf {
			return i + 1
		}
	}
	return 0
}

// lineOfValue finds the line, at or after key, that holds the quoted value;
// it falls back to the key's line.
func lineOfValue(data []byte, key, value string) int {
	start := lineOfKey(data, key)
	lines := strings.Split(string(data), "\n")
	if start == 0 {
		start = 1
	}
	for i := start - 1; i < len(lines); i++ {
		if strings.Contains(lines[i], `"`+value+`"`) || strings.Contains(lines[i], `'`+value+`'`) {
			return i + 1
		}
	}
	return lineOfKey(data, key)
}
