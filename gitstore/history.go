package gitstore

import (
	"fmt"
	"strconv"
	"strings"
)

// LogEntry is one commit of a first-parent history.
type LogEntry struct {
	Commit  string
	Parents []string
}

// FirstParentLog lists up to n commits reachable from rev along first
// parents, newest first.
func (r *Repo) FirstParentLog(rev string, n int) ([]LogEntry, error) {
	if err := validRev(rev); err != nil {
		return nil, err
	}
	out, err := r.git(nil, "log", "--no-show-signature", "--first-parent", "--format=%H %P", "-n", strconv.Itoa(n), rev, "--")
	if err != nil {
		return nil, err
	}
	var log []LogEntry
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		log = append(log, LogEntry{Commit: f[0], Parents: f[1:]})
	}
	return log, nil
}

// LineChange is a path changed between two commits, with the lines added
// plus deleted (-1 for a binary file).
type LineChange struct {
	Path  string
	Lines int
}

// ChangedLines lists the paths that differ between commits a and b, with
// how many lines changed; renames are reported as a delete and an add.
func (r *Repo) ChangedLines(a, b string) ([]LineChange, error) {
	if err := validRev(a); err != nil {
		return nil, err
	}
	if err := validRev(b); err != nil {
		return nil, err
	}
	out, err := r.git(nil, "diff-tree", "-r", "--no-renames", "--numstat", "-z", a, b)
	if err != nil {
		return nil, err
	}
	var changes []LineChange
	for _, rec := range strings.Split(string(out), "\x00") {
		if rec == "" {
			continue
		}
		f := strings.SplitN(rec, "\t", 3)
		if len(f) != 3 {
			return nil, fmt.Errorf("diff-tree %s %s: unexpected line %q", a, b, rec)
		}
		lines := -1
		if add, err1 := strconv.Atoi(f[0]); err1 == nil {
			if del, err2 := strconv.Atoi(f[1]); err2 == nil {
				lines = add + del
			}
		}
		changes = append(changes, LineChange{Path: f[2], Lines: lines})
	}
	return changes, nil
}

// ChangeLog lists the paths each of up to n commits reachable from rev
// along first parents changed, newest first (rev itself included). A merge
// counts as one change against its first parent, so a merged branch is one
// unit; renames are a delete and an add. The same rev gives the same list.
func (r *Repo) ChangeLog(rev string, n int) ([][]string, error) {
	if err := validRev(rev); err != nil {
		return nil, err
	}
	out, err := r.git(nil, "log", "--no-show-signature", "--first-parent", "--diff-merges=first-parent", "--no-renames",
		"--name-only", "-z", "--format=%x01%H", "-n", strconv.Itoa(n), rev, "--")
	if err != nil {
		return nil, err
	}
	var log [][]string
	for _, rec := range strings.Split(string(out), "\x01") {
		if rec == "" {
			continue
		}
		// The commit id, then each path (the first after a newline).
		fields := strings.Split(rec, "\x00")
		var files []string
		for _, f := range fields[1:] {
			if f = strings.TrimLeft(f, "\n"); f != "" {
				files = append(files, f)
			}
		}
		log = append(log, files)
	}
	return log, nil
}

// Message is the full message of commit rev.
func (r *Repo) Message(rev string) (string, error) {
	if err := validRev(rev); err != nil {
		return "", err
	}
	out, err := r.git(nil, "log", "--no-show-signature", "-1", "--format=%B", rev, "--")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// FirstParents lists up to n commits reachable from rev along first
// parents, newest first (rev itself included).
func (r *Repo) FirstParents(rev string, n int) ([]string, error) {
	if err := validRev(rev); err != nil {
		return nil, err
	}
	out, err := r.git(nil, "rev-list", "--first-parent", "-n", strconv.Itoa(n), rev, "--")
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}

// ChangeLists returns the paths each of commits changed, as ChangeLog
// lists them (a merge against its first parent, renames as a delete and
// an add), in one git process.
func (r *Repo) ChangeLists(commits []string) (map[string][]string, error) {
	out := make(map[string][]string, len(commits))
	if len(commits) == 0 {
		return out, nil
	}
	var in strings.Builder
	for _, c := range commits {
		if !isHexID(c) {
			return nil, fmt.Errorf("change list: %q is not a commit id", c)
		}
		in.WriteString(c + "\n")
	}
	data, err := r.git([]byte(in.String()), "log", "--no-show-signature", "--no-walk=unsorted", "--diff-merges=first-parent", "--no-renames",
		"--name-only", "-z", "--format=%x01%H", "--stdin", "--")
	if err != nil {
		return nil, err
	}
	for _, rec := range strings.Split(string(data), "\x01") {
		if rec == "" {
			continue
		}
		fields := strings.Split(rec, "\x00")
		id := strings.TrimSpace(fields[0])
		files := []string{}
		for _, f := range fields[1:] {
			if f = strings.TrimLeft(f, "\n"); f != "" {
				files = append(files, f)
			}
		}
		out[id] = files
	}
	return out, nil
}
