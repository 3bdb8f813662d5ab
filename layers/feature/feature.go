package feature

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
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
	ID           string   `toml:"id" json:"id"`
	Title        string   `toml:"title" json:"title"`
	Description  string   `toml:"description" json:"description,omitempty"`
	FilesTouched []string `toml:"files_touched" json:"files_touched"`
	// Files names the task's files by role (roles.go): create, modify
	// (as files_touched) and read.
	Files        Files    `toml:"files" json:"files"`
	DependsOn    []string `toml:"depends_on" json:"depends_on"`
	Status       string   `toml:"status" json:"status"`
	Acceptance   []string `toml:"acceptance" json:"acceptance"`
	Requirements []string `toml:"requirements" json:"requirements"`
	Base         string   `toml:"base" json:"base,omitempty"`
	// Commands are agent command files (.claude/commands/x.md) the
	// developer prompt quotes: their core when split (layers/split), with
	// the details too when CommandDetails is set.
	Commands       []string   `toml:"commands" json:"commands,omitempty"`
	CommandDetails bool       `toml:"command_details" json:"command_details,omitempty"`
	Decisions      []Decision `toml:"decisions" json:"decisions,omitempty"`
	// Assumptions are what the task takes as given; Concerns are
	// cross-cutting concerns it records, handed, once it is done, to the
	// tasks that depend on it (constraints.go).
	Assumptions []string `toml:"assumptions" json:"assumptions,omitempty"`
	Concerns    []string `toml:"concerns" json:"concerns,omitempty"`

	// Path is the task file, relative to the work tree.
	Path string `toml:"-" json:"-"`
	// Raw is the task file's bytes, for digests.
	Raw []byte `toml:"-" json:"-"`
}

// Feature is everything under .speed/features/<Name>/ that Layer 2 reads.
type Feature struct {
	Name  string
	Spec  *Spec   // never nil; empty when there is no spec.md
	Tasks []*Task // sorted by ID; the tasks that loaded without problems

	// Broken lists the task files that could not be loaded, sorted by id,
	// each with all of its problems. They are not in Tasks.
	Broken []*TaskError

	// SpecPath is spec.md relative to the work tree; SpecRaw its bytes
	// (nil when there is none).
	SpecPath string
	SpecRaw  []byte

	// Concerns are the feature's cross-cutting concerns, from its
	// feature.toml (FilePath, FileRaw: nil when there is none).
	Concerns []string
	FilePath string
	FileRaw  []byte
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

// LoadFeature reads feature name from root, an fs.FS at the top of the work
// tree. Tasks come back sorted by id. A feature that cannot be read at all
// is an error (wrapping ErrNotFound when it has no folder). A task file with
// problems is left out of Tasks and listed in Broken with every problem
// found in it, so one bad task never stops the others from loading; lesser
// problems are warnings. With Options.Strict a task's warnings are problems
// of that task, and the spec's warnings are an error.
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

	specPath := path.Join(dir, "spec.md")
	if data, err := fs.ReadFile(root, specPath); err == nil {
		f.SpecPath, f.SpecRaw = specPath, data
		var sw []Warning
		f.Spec, sw = ParseSpec(specPath, data)
		for _, w := range sw {
			if opts.Strict {
				return nil, nil, w.err()
			}
			warns = append(warns, w)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, &Error{File: specPath, Msg: err.Error()}
	}

	if err := f.loadFile(root, dir); err != nil {
		return nil, nil, err
	}

	tasksDir := path.Join(dir, "tasks")
	entries, err := fs.ReadDir(root, tasksDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, &Error{File: tasksDir, Msg: err.Error()}
	}
	// taskWarns holds each good task's warnings until the dependency
	// checks have run: a task broken by them reports them as problems.
	taskWarns := map[*Task][]Warning{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".toml") {
			continue
		}
		p := path.Join(tasksDir, e.Name())
		data, err := fs.ReadFile(root, p)
		if err != nil {
			f.Broken = append(f.Broken, &TaskError{File: p, ID: strings.TrimSuffix(e.Name(), ".toml"), Errs: []*Error{{File: p, Msg: err.Error()}}})
			continue
		}
		t, tw, err := ParseTask(p, data, opts.Exists)
		if err != nil {
			f.Broken = append(f.Broken, asTaskError(p, err))
			continue
		}
		if opts.Strict && len(tw) > 0 {
			te := &TaskError{File: p, ID: t.ID}
			for _, w := range tw {
				te.Errs = append(te.Errs, w.err())
			}
			f.Broken = append(f.Broken, te)
			continue
		}
		taskWarns[t] = tw
		f.Tasks = append(f.Tasks, t)
	}
	sort.Slice(f.Tasks, func(i, j int) bool { return f.Tasks[i].ID < f.Tasks[j].ID })
	warns = append(warns, f.checkDeps()...)
	sort.Slice(f.Broken, func(i, j int) bool { return f.Broken[i].ID < f.Broken[j].ID })
	for _, t := range f.Tasks {
		warns = append(warns, taskWarns[t]...)
	}
	if f.Spec != nil {
		known := map[string]bool{}
		for _, r := range f.Spec.Requirements {
			known[r.ID] = true
		}
		for _, t := range f.Tasks {
			for _, r := range t.Requirements {
				if len(f.Spec.Requirements) > 0 && !known[r] {
					w := Warning{File: t.Path, Line: lineOfValue(t.Raw, "requirements", r), Key: "requirements", Msg: fmt.Sprintf("requirement %s is not in %s", r, specPathOr(f))}
					if opts.Strict {
						return nil, nil, w.err()
					}
					warns = append(warns, w)
				}
			}
		}
	}
	return f, warns, nil
}

func (w Warning) err() *Error { return &Error{File: w.File, Line: w.Line, Key: w.Key, Msg: w.Msg} }

// TaskError is a task file that could not be loaded, with every problem
// found in it, each naming the file, line and key.
type TaskError struct {
	File string   // the task file, relative to the work tree
	ID   string   // the task's id: its file name without .toml
	Errs []*Error // at least one
}

// Error lists the problems one per line.
func (e *TaskError) Error() string {
	lines := make([]string, len(e.Errs))
	for i, x := range e.Errs {
		lines[i] = x.Error()
	}
	return strings.Join(lines, "\n")
}

// asTaskError wraps what ParseTask returned for file p.
func asTaskError(p string, err error) *TaskError {
	var te *TaskError
	if errors.As(err, &te) {
		return te
	}
	id := strings.TrimSuffix(path.Base(p), ".toml")
	var e *Error
	if errors.As(err, &e) {
		return &TaskError{File: p, ID: id, Errs: []*Error{e}}
	}
	return &TaskError{File: p, ID: id, Errs: []*Error{{File: p, Msg: err.Error()}}}
}

// TaskError returns the problems of task id when its file could not be
// loaded, or nil.
func (f *Feature) TaskError(id string) *TaskError {
	for _, b := range f.Broken {
		if b.ID == id {
			return b
		}
	}
	return nil
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

// checkDeps moves the tasks that depend on an unknown task, or that are on
// a dependency cycle, from Tasks to Broken. A dependency on a task whose
// own file is broken is a warning: that task's decisions are left out.
func (f *Feature) checkDeps() []Warning {
	var warns []Warning
	bad := map[string][]*Error{}
	for _, t := range f.Tasks {
		for _, d := range t.DependsOn {
			if f.Task(d) != nil {
				continue
			}
			line := lineOfValue(t.Raw, "depends_on", d)
			if b := f.TaskError(d); b != nil {
				warns = append(warns, Warning{File: t.Path, Line: line, Key: "depends_on",
					Msg: fmt.Sprintf("task %s depends on task %s, whose file %s has problems; its decisions are left out", t.ID, d, b.File)})
				continue
			}
			bad[t.ID] = append(bad[t.ID], &Error{File: t.Path, Line: line, Key: "depends_on",
				Msg: fmt.Sprintf("task %s depends on unknown task %q", t.ID, d)})
		}
	}
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var stack []string
	var visit func(t *Task)
	visit = func(t *Task) {
		color[t.ID] = grey
		stack = append(stack, t.ID)
		deps := append([]string(nil), t.DependsOn...)
		sort.Strings(deps)
		for _, d := range deps {
			dt := f.Task(d)
			if dt == nil {
				continue
			}
			switch color[d] {
			case grey:
				i := len(stack) - 1
				for stack[i] != d {
					i--
				}
				cycle := append(append([]string(nil), stack[i:]...), d)
				msg := "dependency cycle: " + strings.Join(cycle, " -> ")
				for j, id := range cycle[:len(cycle)-1] {
					ct := f.Task(id)
					next := cycle[j+1]
					bad[id] = append(bad[id], &Error{File: ct.Path, Line: lineOfValue(ct.Raw, "depends_on", next), Key: "depends_on", Msg: msg})
				}
			case white:
				visit(dt)
			}
		}
		stack = stack[:len(stack)-1]
		color[t.ID] = black
	}
	for _, t := range f.Tasks {
		if color[t.ID] == white {
			visit(t)
		}
	}
	if len(bad) == 0 {
		return warns
	}
	kept := f.Tasks[:0]
	for _, t := range f.Tasks {
		if errs := bad[t.ID]; len(errs) > 0 {
			f.Broken = append(f.Broken, &TaskError{File: t.Path, ID: t.ID, Errs: errs})
			continue
		}
		kept = append(kept, t)
	}
	f.Tasks = kept
	for _, t := range f.Tasks {
		for _, d := range t.DependsOn {
			if len(bad[d]) > 0 {
				warns = append(warns, Warning{File: t.Path, Line: lineOfValue(t.Raw, "depends_on", d), Key: "depends_on",
					Msg: fmt.Sprintf("task %s depends on task %s, whose file %s has problems; its decisions are left out", t.ID, d, f.TaskError(d).File)})
			}
		}
	}
	return warns
}

var idRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ParseTask decodes one task file strictly; name is its repo-relative path,
// used in errors and for checking the id. exists, when not nil, reports
// whether a path is in the tree; absent paths are warnings. A file that
// decodes but breaks the rules gives a *TaskError with every problem found;
// one that does not decode gives an *Error at the place it stopped.
func ParseTask(name string, data []byte, exists func(string) bool) (*Task, []Warning, error) {
	t := &Task{}
	if err := decodeStrict(name, data, t); err != nil {
		return nil, nil, err
	}
	t.Path, t.Raw = name, data
	var errs []*Error
	bad := func(key, format string, args ...any) {
		errs = append(errs, &Error{File: name, Line: lineOfKey(data, key), Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	want := strings.TrimSuffix(path.Base(name), ".toml")
	switch {
	case t.ID == "":
		bad("id", "missing (want id = %q)", want)
	case t.ID != want:
		bad("id", "%q does not match the file name (want %q)", t.ID, want)
	case !idRE.MatchString(t.ID):
		bad("id", "%q: want letters, digits, '.', '_' or '-'", t.ID)
	}
	switch t.Status {
	case "":
		t.Status = StatusPlanned
	case StatusPlanned, StatusInProgress, StatusDone:
	default:
		bad("status", "%q: want \"planned\", \"in_progress\" or \"done\"", t.Status)
	}
	var warns []Warning
	clean := func(key string, paths []string) []string {
		out := make([]string, 0, len(paths))
		seen := map[string]bool{}
		for _, p := range paths {
			c, err := CleanPath(p)
			if err != nil {
				errs = append(errs, &Error{File: name, Line: lineOfValue(data, key, p), Key: key, Msg: err.Error()})
				continue
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
		return out
	}
	t.FilesTouched = clean("files_touched", t.FilesTouched)
	warns = append(warns, checkRoles(name, data, t, exists, &errs)...)
	t.Commands = cleanOnly(name, data, "commands", t.Commands, &errs)
	errs = append(errs, checkTexts(name, data, "assumptions", t.Assumptions)...)
	errs = append(errs, checkTexts(name, data, "concerns", t.Concerns)...)
	for i := range t.Decisions {
		if t.Decisions[i].Summary == "" {
			bad("decisions", "decision %d has no summary", i+1)
		}
		t.Decisions[i].Files = clean("decisions.files", t.Decisions[i].Files)
	}
	seen := map[string]bool{}
	deps := t.DependsOn[:0:0]
	for _, d := range t.DependsOn {
		if d == t.ID {
			errs = append(errs, &Error{File: name, Line: lineOfValue(data, "depends_on", d), Key: "depends_on", Msg: "dependency cycle: " + d + " -> " + d})
			continue
		}
		if !seen[d] {
			seen[d] = true
			deps = append(deps, d)
		}
	}
	t.DependsOn = deps
	for _, r := range t.Requirements {
		if !reqIDRE.MatchString(r) {
			errs = append(errs, &Error{File: name, Line: lineOfValue(data, "requirements", r), Key: "requirements", Msg: fmt.Sprintf("%q is not a requirement id (want one like REQ-1)", r)})
		}
	}
	if len(errs) > 0 {
		return nil, nil, &TaskError{File: name, ID: want, Errs: errs}
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

// decodeStrict decodes the TOML file name into v, refusing unknown keys;
// the error names the file, line and key at fault.
func decodeStrict(name string, data []byte, v any) error {
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return nil
	}
	var sm *toml.StrictMissingError
	if errors.As(err, &sm) && len(sm.Errors) > 0 {
		e := sm.Errors[0]
		row, _ := e.Position()
		return &Error{File: name, Line: row, Key: strings.Join(e.Key(), "."), Msg: "unknown key"}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, _ := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		return &Error{File: name, Line: row, Key: strings.Join(de.Key(), "."), Msg: msg}
	}
	return &Error{File: name, Msg: err.Error()}
}

// cleanOnly cleans paths that need not be in the tree, adding a problem
// for each bad one.
func cleanOnly(name string, data []byte, key string, paths []string, errs *[]*Error) []string {
	var out []string
	for _, p := range paths {
		c, err := CleanPath(p)
		if err != nil {
			*errs = append(*errs, &Error{File: name, Line: lineOfValue(data, key, p), Key: key, Msg: err.Error()})
			continue
		}
		out = append(out, c)
	}
	return out
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
