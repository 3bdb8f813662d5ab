package gitstore

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// SnapshotOptions bound what a work-tree snapshot reads.
type SnapshotOptions struct {
	// MaxFileBytes: a new or changed file larger than this is left as the
	// index has it (or out, when untracked), with a warning; 0 means no
	// limit. Hashing a 2 GB file nobody will index is not worth the wait.
	MaxFileBytes int64
	// Warn receives one sentence per path left as it was.
	Warn func(msg string)
}

// Snapshot is the work tree written as a git tree.
type Snapshot struct {
	Tree string // id of the tree of the work tree as it is now
	Head string // HEAD's tree; "" when HEAD is unborn
	// Dirty reports whether the work tree differs from HEAD's tree:
	// edits, deletions, or untracked files git does not ignore.
	Dirty bool
}

// SnapshotWorktree writes the work tree as it is now as a git tree: tracked
// files with their edits, untracked files that git does not ignore, and
// deletions. It works on a private copy of the index (git ls-files lists
// what differs, git update-index takes just those paths, git write-tree
// writes the tree, all with GIT_INDEX_FILE pointing at the copy), so the user's
// index, HEAD, branches, stash and files are never touched; the only trace
// is the new blob and tree objects in the object database, unreferenced
// until the store holds them. Files that cannot be read, and files over
// opt.MaxFileBytes, keep what the index has for them and are named in a
// warning; the snapshot goes on.
func (r *Repo) SnapshotWorktree(opt SnapshotOptions) (*Snapshot, error) {
	if r.workTree == "" {
		return nil, errors.New("a bare repository has no work tree to index")
	}
	warn := opt.Warn
	if warn == nil {
		warn = func(string) {}
	}
	tmp, err := r.privateIndex()
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp)
	defer os.Remove(tmp + ".lock")

	// Paths git would add, update or remove: untracked (not ignored) and
	// modified (deletions included). Those that cannot be read, or are too
	// large, are left as the index has them.
	out, err := r.worktreeGit(tmp, nil, "ls-files", "-z", "--others", "--modified", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	var skip, update []string
	seen := map[string]bool{}
	for _, rec := range splitRecords(out, 0) {
		// An embedded repository is listed as "dir/"; it is added as dir.
		p := strings.TrimSuffix(string(rec), "/")
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		if why := r.unreadable(p, opt.MaxFileBytes); why != "" {
			warn(fmt.Sprintf("%s: %s; the work-tree index keeps the committed version (or leaves it out)", p, why))
			skip = append(skip, p)
			continue
		}
		update = append(update, p)
	}
	// Only the listed paths are updated: the work tree is scanned once
	// (by ls-files above), not again by git add -A. update-index stops at
	// the first path it cannot take (a file that vanished into a directory,
	// an embedded repository without a commit) and then writes nothing;
	// git add -A --ignore-errors takes everything else it can.
	// Sorted, a file that became a folder is removed before the files
	// inside it are added.
	sort.Strings(update)
	if len(update) > 0 && !r.updateIndexPaths(tmp, update) {
		if err := r.addAll(tmp, skip, warn); err != nil {
			return nil, err
		}
	}
	tree, err := r.worktreeGit(tmp, nil, "write-tree")
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Tree: strings.TrimSpace(string(tree))}
	if _, head, err := r.Head(); err == nil {
		s.Head = head
	} else if !errors.Is(err, ErrNoCommits) {
		return nil, err
	}
	s.Dirty = s.Tree != s.Head && !(s.Head == "" && s.Tree == EmptyTree)
	return s, nil
}

// updateIndexPaths adds, updates or removes paths in the index file index
// as the work tree has them; false when git refused one of them, with the
// index left as it was.
func (r *Repo) updateIndexPaths(index string, paths []string) bool {
	var in bytes.Buffer
	for _, p := range paths {
		in.WriteString(p)
		in.WriteByte(0)
	}
	_, err := r.worktreeGit(index, in.Bytes(), "update-index", "--add", "--remove", "--replace", "-z", "--stdin")
	return err == nil
}

// addAll runs git add -A over the whole work tree but the paths skip on
// the index file index; files git cannot read are named in warnings.
func (r *Repo) addAll(index string, skip []string, warn func(string)) error {
	// Pathspecs go on stdin, NUL-separated, so any path works.
	var spec bytes.Buffer
	spec.WriteString(":/\x00")
	for _, p := range skip {
		spec.WriteString(":(top,literal,exclude)" + p + "\x00")
	}
	_, err := r.worktreeGit(index, spec.Bytes(), "add", "-A", "--ignore-errors", "--pathspec-from-file=-", "--pathspec-file-nul")
	if err == nil {
		return nil
	}
	// --ignore-errors still exits 1 when a file vanished or changed while
	// it was read; the index copy holds everything else.
	var ge *GitError
	if !errors.As(err, &ge) || !strings.Contains(ge.Stderr, "error:") {
		return err
	}
	for _, l := range strings.Split(strings.TrimSpace(ge.Stderr), "\n") {
		if strings.HasPrefix(l, "error:") {
			warn(strings.TrimSpace(strings.TrimPrefix(l, "error:")) + "; indexing goes on")
		}
	}
	return nil
}

// SnapshotRef is the ref that keeps this work tree's newest indexed
// snapshot reachable: refs/speed-snapshot/main for the main work tree,
// refs/speed-snapshot/<name> for a linked one.
func (r *Repo) SnapshotRef() string {
	name := "main"
	if filepath.Clean(r.gitDir) != filepath.Clean(r.commonDir) {
		name = escapeName(filepath.Base(r.gitDir))
	}
	return "refs/speed-snapshot/" + name
}

// privateIndex copies the index of this work tree to a new file in the
// git dir (same file system, so git's stat cache stays valid) and returns
// its path. A repository without an index gets an empty one.
func (r *Repo) privateIndex() (string, error) {
	dir := filepath.Join(r.gitDir, "speed")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	var rnd [6]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return "", err
	}
	tmp := filepath.Join(dir, fmt.Sprintf("worktree-%d-%s.index", os.Getpid(), hex.EncodeToString(rnd[:])))
	src, err := os.Open(filepath.Join(r.gitDir, "index"))
	if errors.Is(err, fs.ErrNotExist) {
		return tmp, nil // git reads a missing index file as an empty index
	}
	if err != nil {
		return "", err
	}
	defer src.Close()
	dst, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", err
	}
	_, err = io.Copy(dst, src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

// unreadable says why the work-tree file p cannot go into a snapshot, or
// "" when it can (deleted files can: their deletion is the change).
func (r *Repo) unreadable(p string, max int64) string {
	full := filepath.Join(r.workTree, filepath.FromSlash(p))
	fi, err := os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil {
		return "cannot be read (" + err.Error() + ")"
	}
	if !fi.Mode().IsRegular() {
		return ""
	}
	if max > 0 && fi.Size() > max {
		return fmt.Sprintf("%d bytes, larger than index.max_file_bytes", fi.Size())
	}
	f, err := os.Open(full)
	if err != nil {
		return "cannot be read (" + errors.Unwrap(err).Error() + ")"
	}
	f.Close()
	return ""
}

// worktreeGit runs git in the work tree with GIT_INDEX_FILE set to index.
func (r *Repo) worktreeGit(index string, stdin []byte, args ...string) ([]byte, error) {
	full := append([]string{"--git-dir=" + r.gitDir, "--work-tree=" + r.workTree}, args...)
	cmd := r.command()
	cmd.Args = append([]string{cmd.Args[0]}, full...)
	cmd.Dir = r.workTree
	cmd.Env = append(append([]string(nil), r.env...), "GIT_INDEX_FILE="+index)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), &GitError{Args: args, Stderr: stderr.String(), Err: err}
	}
	return stdout.Bytes(), nil
}
