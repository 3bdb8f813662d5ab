package gitstore

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// StatusEntry is one path that `git status` reports: Code is its two
// porcelain letters ("M ", " M", "??", "D " …).
type StatusEntry struct {
	Path string `json:"path"`
	Code string `json:"code"`
}

// Status lists the work tree's changes against HEAD and the index; nil in
// a bare repository. With untracked it lists untracked files one by one
// as well, which reads every folder of the work tree; without, git only
// compares the tracked files with the index's stat data.
func (r *Repo) Status(untracked bool) ([]StatusEntry, error) {
	if r.workTree == "" {
		return nil, nil
	}
	mode := "--untracked-files=no"
	if untracked {
		mode = "--untracked-files=all"
	}
	out, err := r.git(nil, "-C", r.workTree, "status", "--porcelain=v1", "-z", mode, "--no-renames")
	if err != nil {
		return nil, err
	}
	var st []StatusEntry
	for _, rec := range splitRecords(out, 0) {
		if len(rec) < 4 || rec[2] != ' ' {
			continue
		}
		st = append(st, StatusEntry{Code: string(rec[:2]), Path: string(rec[3:])})
	}
	return st, nil
}

// IndexBytes is the size of the git index file: a measure, without reading
// it, of how many files the work tree tracks (0 when there is none).
func (r *Repo) IndexBytes() int64 {
	fi, err := os.Stat(filepath.Join(r.gitDir, "index"))
	if err != nil {
		return 0
	}
	return fi.Size()
}

// CommitChange is one commit of a history: its message and the paths it
// changed against its first parent.
type CommitChange struct {
	Commit  string
	Message string
	Paths   []string
}

// RecentChanges lists up to n first-parent commits reachable from rev,
// newest first, with their messages and changed paths (merges list none).
func (r *Repo) RecentChanges(rev string, n int) ([]CommitChange, error) {
	if err := validRev(rev); err != nil {
		return nil, err
	}
	out, err := r.git(nil, "log", "--no-show-signature", "--first-parent", "--no-renames", "-z",
		"--format=%x01%H%x02%B%x03", "--name-only", "-n", strconv.Itoa(n), rev, "--")
	if err != nil {
		return nil, err
	}
	var log []CommitChange
	for _, rec := range bytes.Split(out, []byte{1}) {
		head, rest, ok := bytes.Cut(rec, []byte{2})
		if !ok {
			continue
		}
		msg, names, _ := bytes.Cut(rest, []byte{3})
		c := CommitChange{Commit: string(head), Message: strings.TrimSpace(string(msg))}
		for _, p := range bytes.Split(names, []byte{0}) {
			if p := strings.TrimSpace(string(p)); p != "" {
				c.Paths = append(c.Paths, p)
			}
		}
		log = append(log, c)
	}
	return log, nil
}
