package gitstore

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Errors callers can test with errors.Is.
var (
	// ErrNotRepo: the folder is not inside a git repository.
	ErrNotRepo = errors.New("not a git repository")
	// ErrNoCommits: HEAD is unborn (a repository with no commits yet).
	ErrNoCommits = errors.New("repository has no commits yet")
	// ErrBadRevision: a revision does not name a commit or tree.
	ErrBadRevision = errors.New("bad revision")
	// ErrNoGit: the git binary is not on PATH.
	ErrNoGit = errors.New("git binary not found on PATH")
)

// EmptyTree is the id of the empty tree, which git knows without storing it.
const EmptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// Repo is an open repository. Its methods are safe for concurrent use.
type Repo struct {
	workTree  string // "" for bare
	gitDir    string // per-worktree git dir
	commonDir string // shared objects and refs
	gitBin    string
	env       []string // environment for every git child process

	mu       sync.Mutex // guards storage (go-git object storage is not goroutine-safe)
	storage  *filesystem.Storage
	objs     *objects                      // reads objects without loading every pack index (packs.go)
	trees    map[plumbing.Hash][]treeEntry // decoded trees (readTree), guarded by mu
	writeErr error                         // first failure of mustBlob, guarded by mu
	pending  *pendingSet                   // new objects not yet written, guarded by mu
	cache    *storeCache                   // decoded store tip, guarded by mu
	peeled   map[string][2]string          // full ids resolveID peeled: commit, tree; guarded by mu
	// known holds ids of objects this process read from or wrote to the
	// object database, so writing them again skips the existence check.
	// Guarded by mu.
	known map[plumbing.Hash]bool
	// written: packs this process wrote since the last merge (packmerge.go),
	// paths without extension. Guarded by mu.
	written []string
	// shared: core.sharedRepository, once sharedRead (sharedPerm). Guarded
	// by mu.
	shared     int
	sharedRead bool
}

// childEnv returns the environment for git child processes: ours, minus every
// variable that would redirect git elsewhere. Commands get --git-dir
// explicitly, so GIT_DIR and friends have already been taken into account.
func childEnv() []string {
	drop := map[string]bool{
		"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_INDEX_FILE": true, "GIT_COMMON_DIR": true,
		"GIT_PREFIX": true, "GIT_OBJECT_DIRECTORY": true, "GIT_ALTERNATE_OBJECT_DIRECTORIES": true,
		"GIT_NAMESPACE": true, "GIT_TERMINAL_PROMPT": true, "LC_ALL": true,
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !drop[name] {
			env = append(env, kv)
		}
	}
	return append(env, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
}

// Open finds the repository containing dir, the way git itself does: from any
// subdirectory, from a linked worktree (`git worktree add`), a bare
// repository, and honouring GIT_DIR and GIT_WORK_TREE when they are set. It
// returns an error wrapping ErrNotRepo when there is none.
func Open(dir string) (*Repo, error) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		return nil, ErrNoGit
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("open repository: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("open repository: %s is not a folder", abs)
	}
	// Discovery uses the caller's environment (GIT_DIR, GIT_WORK_TREE,
	// GIT_CEILING_DIRECTORIES), so it agrees with the git the user runs.
	cmd := exec.Command(gitBin, "rev-parse", "--absolute-git-dir", "--git-common-dir", "--is-bare-repository", "--show-toplevel")
	cmd.Dir = abs
	env := os.Environ()
	for _, kv := range env {
		if strings.HasPrefix(kv, "GIT_DIR=") {
			// A relative GIT_DIR is relative to the process cwd, not dir.
			if v := strings.TrimPrefix(kv, "GIT_DIR="); v != "" && !filepath.IsAbs(v) {
				if a, err := filepath.Abs(v); err == nil {
					env = append(env, "GIT_DIR="+a)
				}
			}
		}
		if strings.HasPrefix(kv, "GIT_WORK_TREE=") {
			if v := strings.TrimPrefix(kv, "GIT_WORK_TREE="); v != "" && !filepath.IsAbs(v) {
				if a, err := filepath.Abs(v); err == nil {
					env = append(env, "GIT_WORK_TREE="+a)
				}
			}
		}
	}
	cmd.Env = append(env, "LC_ALL=C")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
	if runErr != nil && len(lines) < 3 {
		msg := strings.TrimSpace(stderr.String())
		if strings.Contains(msg, "not a git repository") || msg == "" {
			return nil, fmt.Errorf("%w (or any parent up to %s): %s", ErrNotRepo, string(filepath.Separator), abs)
		}
		return nil, fmt.Errorf("open repository %s: %s", abs, firstLine(msg))
	}
	if len(lines) < 3 {
		return nil, fmt.Errorf("open repository %s: unexpected git rev-parse output %q", abs, stdout.String())
	}
	r := &Repo{gitDir: lines[0], gitBin: gitBin, env: childEnv()}
	r.commonDir = lines[1]
	if !filepath.IsAbs(r.commonDir) {
		r.commonDir = filepath.Join(abs, r.commonDir)
	}
	r.commonDir = filepath.Clean(r.commonDir)
	if lines[2] != "true" {
		if len(lines) >= 4 && runErr == nil {
			r.workTree = filepath.Clean(lines[3])
		} else if filepath.Base(r.gitDir) == ".git" {
			// Run from inside .git: the work tree is its parent.
			r.workTree = filepath.Dir(r.gitDir)
		}
	}
	// Keep pack files open between reads: without it go-git opens the pack
	// again for every object, which dominated reading a store's shards.
	r.storage = filesystem.NewStorageWithOptions(osfs.New(r.commonDir), cache.NewObjectLRUDefault(),
		filesystem.Options{MaxOpenDescriptors: 32})
	r.objs = newObjects(filepath.Join(r.commonDir, "objects"))
	return r, nil
}

// WorkTree is the top of the work tree, or "" for a bare repository.
func (r *Repo) WorkTree() string { return r.workTree }

// GitDir is the per-worktree git directory (where HEAD and the index live).
func (r *Repo) GitDir() string { return r.gitDir }

// CommonDir is the directory holding objects and shared refs; it equals
// GitDir except in a linked worktree.
func (r *Repo) CommonDir() string { return r.commonDir }

// GitError is a git command that failed.
type GitError struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *GitError) Error() string {
	msg := firstLine(e.Stderr)
	if msg == "" {
		msg = e.Err.Error()
	}
	return "git " + strings.Join(e.Args, " ") + ": " + msg
}

func (e *GitError) Unwrap() error { return e.Err }

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// command prepares git with --git-dir set to this repository. The caller
// decides on the work tree (most commands here need none).
func (r *Repo) command(args ...string) *exec.Cmd {
	full := append([]string{"--git-dir=" + r.gitDir}, args...)
	cmd := exec.Command(r.gitBin, full...)
	cmd.Env = r.env
	cmd.Dir = r.gitDir
	return cmd
}

// git runs a git command with optional stdin and returns stdout.
func (r *Repo) git(stdin []byte, args ...string) ([]byte, error) {
	cmd := r.command(args...)
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

// validRev rejects revisions that could be taken for options or that would
// break a line-based protocol.
func validRev(rev string) error {
	if rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\n\r\x00") {
		return fmt.Errorf("%w %q", ErrBadRevision, rev)
	}
	return nil
}

// resolveID resolves a full object id (what --worktree and the hooks pass)
// in this process: a commit to itself and its tree, a tree to itself, an
// annotated tag to what it points at. ok is false for anything else (a
// name, an abbreviation, a missing object); Resolve then asks git.
func (r *Repo) resolveID(rev string) (commit, tree string, ok bool) {
	if len(rev) != 40 || !isLowerHex(rev) {
		return "", "", false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if p, ok := r.peeled[rev]; ok { // objects never change: the answer stays true
		return p[0], p[1], true
	}
	commit, tree, ok = r.peel(rev)
	if ok {
		if r.peeled == nil || len(r.peeled) >= 4096 {
			r.peeled = map[string][2]string{}
		}
		r.peeled[rev] = [2]string{commit, tree}
	}
	return commit, tree, ok
}

// peel follows rev, a full id, to its commit and tree; r.mu is held.
func (r *Repo) peel(rev string) (commit, tree string, ok bool) {
	h := plumbing.NewHash(rev)
	for peel := 0; peel < 8; peel++ {
		t, data, err := r.getObject(h)
		if err != nil {
			return "", "", false
		}
		switch t {
		case plumbing.TreeObject:
			return commit, h.String(), true
		case plumbing.CommitObject:
			// A commit starts with its tree: "tree <id>\n".
			line, _, _ := strings.Cut(string(data), "\n")
			id, found := strings.CutPrefix(line, "tree ")
			if !found || len(id) != 40 || !isLowerHex(id) {
				return "", "", false
			}
			commit, h = h.String(), plumbing.NewHash(id)
		case plumbing.TagObject:
			// A tag starts with what it points at: "object <id>\n".
			line, _, _ := strings.Cut(string(data), "\n")
			id, found := strings.CutPrefix(line, "object ")
			if !found || len(id) != 40 || !isLowerHex(id) || commit != "" {
				return "", "", false
			}
			h = plumbing.NewHash(id)
		default:
			return "", "", false
		}
	}
	return "", "", false
}

// Resolve turns any commit-ish or tree-ish (HEAD, a branch, a tag, a sha or a
// prefix of one, HEAD~2, v1^{tree}, a tree id, a tag pointing at a tree) into
// a commit id and a tree id. For a tree-ish that is not a commit, commit is
// "". An unborn HEAD gives ErrNoCommits; anything else that does not resolve
// gives an error wrapping ErrBadRevision that names rev.
func (r *Repo) Resolve(rev string) (commit, tree string, err error) {
	if err := validRev(rev); err != nil {
		return "", "", err
	}
	if commit, tree, ok := r.resolveID(rev); ok {
		return commit, tree, nil
	}
	if rev == "HEAD" {
		if id, ok := r.headID(); ok {
			if commit, tree, ok := r.resolveID(id); ok {
				return commit, tree, nil
			}
		}
	}
	// One cat-file process resolves both peelings with git's own rules.
	in := rev + "^{commit}\n" + rev + "^{tree}\n"
	out, err := r.git([]byte(in), "cat-file", "--batch-check=%(objectname) %(objecttype)")
	if err != nil {
		return "", "", err
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 2 {
		return "", "", fmt.Errorf("resolve %q: unexpected git output %q", rev, out)
	}
	parse := func(line, typ string) string {
		f := strings.Fields(line)
		if len(f) == 2 && f[1] == typ && len(f[0]) == 40 {
			return f[0]
		}
		return ""
	}
	commit, tree = parse(lines[0], "commit"), parse(lines[1], "tree")
	if tree == "" {
		if r.unbornHead(rev) {
			return "", "", fmt.Errorf("resolve %s: %w", rev, ErrNoCommits)
		}
		if strings.HasSuffix(lines[1], " ambiguous") {
			return "", "", fmt.Errorf("%w %q: ambiguous (use more hex digits)", ErrBadRevision, rev)
		}
		return "", "", fmt.Errorf("%w %q: no commit or tree by that name", ErrBadRevision, rev)
	}
	return commit, tree, nil
}

// unbornHead reports whether rev means HEAD and HEAD points at a branch with
// no commits.
func (r *Repo) unbornHead(rev string) bool {
	if rev != "HEAD" && rev != "@" && !strings.HasPrefix(rev, "HEAD") {
		return false
	}
	if _, err := r.git(nil, "rev-parse", "-q", "--verify", "HEAD"); err == nil {
		return false
	}
	_, err := r.git(nil, "symbolic-ref", "-q", "HEAD")
	return err == nil
}

// Head resolves HEAD; an unborn HEAD gives ErrNoCommits.
func (r *Repo) Head() (commit, tree string, err error) {
	return r.Resolve("HEAD")
}

// RefTips returns the commits that branches, tags, HEAD and other worktrees'
// HEADs point at (tags peeled), sorted and without duplicates. Refs under
// refs/speed/ are excluded. Tags pointing at trees or blobs are skipped here;
// see reachableTrees for those.
func (r *Repo) RefTips() ([]string, error) {
	out, err := r.git(nil, "for-each-ref", "--format=%(objectname) %(objecttype) %(*objectname) %(*objecttype)", "refs/heads", "refs/tags")
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 2 && f[1] == "commit":
			set[f[0]] = true
		case len(f) == 4 && f[3] == "commit":
			set[f[2]] = true
		}
	}
	if c, _, err := r.Head(); err == nil && c != "" {
		set[c] = true
	}
	tips := make([]string, 0, len(set))
	for c := range set {
		tips = append(tips, c)
	}
	sort.Strings(tips)
	return tips, nil
}

// readLines splits NUL- or newline-terminated records.
func splitRecords(data []byte, sep byte) [][]byte {
	var recs [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, sep)
		if i < 0 {
			recs = append(recs, data)
			break
		}
		recs = append(recs, data[:i])
		data = data[i+1:]
	}
	return recs
}

var _ = io.EOF
