package feature

import (
	"fmt"
)

// Roles of a task's files, as MAHABHARATHA's task files name them: the
// files a task creates, the files it modifies (files_touched says the
// same) and the files it only reads.
const (
	RoleCreate = "create"
	RoleModify = "modify"
	RoleRead   = "read"
)

// Files is a task's [files] table: its files by role. files_touched stays
// valid and means modify; a path has one role.
type Files struct {
	Create []string `toml:"create" json:"create,omitempty"`
	Modify []string `toml:"modify" json:"modify,omitempty"`
	Read   []string `toml:"read" json:"read,omitempty"`
}

// Creates is the files the task will create.
func (t *Task) Creates() []string { return t.Files.Create }

// Modifies is the files the task modifies: files_touched, then
// files.modify, each once.
func (t *Task) Modifies() []string {
	if len(t.Files.Modify) == 0 {
		return t.FilesTouched
	}
	return union(t.FilesTouched, t.Files.Modify)
}

// Reads is the files the task only reads.
func (t *Task) Reads() []string { return t.Files.Read }

// Writes is the files the task creates or modifies: the ones security
// rules follow and a review diffs.
func (t *Task) Writes() []string { return union(t.Files.Create, t.Modifies()) }

// Paths is every file the task names, created, modified or read.
func (t *Task) Paths() []string { return union(t.Writes(), t.Files.Read) }

// Role is the role of path p in the task, or "" when the task does not
// name it.
func (t *Task) Role(p string) string {
	for _, r := range []struct {
		role  string
		paths []string
	}{{RoleCreate, t.Files.Create}, {RoleModify, t.Modifies()}, {RoleRead, t.Files.Read}} {
		for _, x := range r.paths {
			if x == p {
				return r.role
			}
		}
	}
	return ""
}

func union(lists ...[]string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, l := range lists {
		for _, p := range l {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// checkRoles cleans the [files] table of task t (file name, bytes data)
// and checks it against the tree when exists is not nil: a path in two
// roles, a file to create that is already there (for a planned task), and
// a file to modify or read that is not (for a task not done) are problems;
// a done task's missing files are warnings.
func checkRoles(name string, data []byte, t *Task, exists func(string) bool, errs *[]*Error) []Warning {
	var warns []Warning
	role := map[string]string{}
	for _, p := range t.FilesTouched {
		role[p] = "files_touched"
	}
	check := func(key string, paths []string) []string {
		var out []string
		seen := map[string]bool{}
		for _, p := range paths {
			line := lineOfValue(data, key, p)
			c, err := CleanPath(p)
			if err != nil {
				*errs = append(*errs, &Error{File: name, Line: line, Key: key, Msg: err.Error()})
				continue
			}
			if seen[c] {
				continue
			}
			seen[c] = true
			if other, ok := role[c]; ok && !(key == "files.modify" && other == "files_touched") {
				*errs = append(*errs, &Error{File: name, Line: line, Key: key,
					Msg: fmt.Sprintf("%s is also in %s; give each file one role", c, other)})
				continue
			}
			role[c] = key
			out = append(out, c)
			if exists == nil {
				continue
			}
			in := exists(c)
			switch {
			case key == "files.create" && in && t.Status == StatusPlanned:
				*errs = append(*errs, &Error{File: name, Line: line, Key: key,
					Msg: fmt.Sprintf("%s is already in the tree; a planned task cannot create it (name it under files.modify)", c)})
			case key != "files.create" && !in && t.Status == StatusDone:
				warns = append(warns, Warning{File: name, Line: line, Key: key, Msg: fmt.Sprintf("%s is not in the tree", c)})
			case key != "files.create" && !in:
				hint := ""
				if key == "files.modify" {
					hint = " (name it under files.create if the task makes it)"
				}
				*errs = append(*errs, &Error{File: name, Line: line, Key: key, Msg: fmt.Sprintf("%s is not in the tree%s", c, hint)})
			}
		}
		return out
	}
	t.Files.Modify = check("files.modify", t.Files.Modify)
	t.Files.Create = check("files.create", t.Files.Create)
	t.Files.Read = check("files.read", t.Files.Read)
	return warns
}
