package gitstore

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// headID reads what HEAD names straight from the repository's files, the
// way git stores it: HEAD in the worktree's git dir, the branch it points
// at as a loose ref or a line of packed-refs in the common dir. A server
// resolves HEAD on every call, and starting git for it cost more than the
// call (a read of 60 lines). It reports false for anything it does not
// read with certainty (a reftable store, an unborn branch, a ref that is
// not a 40-digit id), and Resolve then asks git.
func (r *Repo) headID() (string, bool) {
	if _, err := os.Stat(filepath.Join(r.commonDir, "reftable")); err == nil {
		return "", false
	}
	data, err := os.ReadFile(filepath.Join(r.gitDir, "HEAD"))
	if err != nil {
		return "", false
	}
	for hops := 0; hops < 5; hops++ {
		line := strings.TrimSpace(string(data))
		name, symbolic := strings.CutPrefix(line, "ref: ")
		if !symbolic {
			return line, len(line) == 40 && isLowerHex(line)
		}
		if !strings.HasPrefix(name, "refs/") || strings.Contains(name, "..") {
			return "", false
		}
		data, err = os.ReadFile(filepath.Join(r.refDir(name), filepath.FromSlash(name)))
		if err != nil {
			id, ok := r.packedRef(name)
			return id, ok
		}
	}
	return "", false
}

// refDir is where a loose ref of that name lives: the per-worktree refs
// in the worktree's git dir, the rest in the common dir.
func (r *Repo) refDir(name string) string {
	for _, p := range []string{"refs/worktree/", "refs/bisect/", "refs/rewritten/"} {
		if strings.HasPrefix(name, p) {
			return r.gitDir
		}
	}
	return r.commonDir
}

// packedRef finds name in packed-refs.
func (r *Repo) packedRef(name string) (string, bool) {
	f, err := os.Open(filepath.Join(r.commonDir, "packed-refs"))
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	suffix := []byte(" " + name)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 41+len(name) && bytes.HasSuffix(line, suffix) {
			id := string(line[:40])
			return id, isLowerHex(id)
		}
	}
	return "", false
}
