package gitstore

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Git file modes as they appear in trees.
const (
	ModeFile    uint32 = 0o100644
	ModeExec    uint32 = 0o100755
	ModeSymlink uint32 = 0o120000
	ModeGitlink uint32 = 0o160000 // a submodule commit
	ModeTree    uint32 = 0o040000
)

// Entry is one file of a tree, as seen by Walk.
type Entry struct {
	Path string // slash separated, relative to the tree root
	Mode uint32 // ModeFile, ModeExec, ModeSymlink or ModeGitlink
	Blob string // hex object id (a commit id for a gitlink)
	Size int64  // object size in bytes for blobs and symlinks; -1 for gitlinks
}

// errStop ends a walk early without reporting an error.
var errStop = errors.New("stop")

// Walk calls fn for every file of tree (recursively), in path order (bytewise
// on the full path, which is git's own tree order). Sizes come from the object
// headers; no blob is read. If fn returns an error, Walk stops and returns it.
func (r *Repo) Walk(tree string, fn func(e Entry) error) error {
	if err := validRev(tree); err != nil {
		return err
	}
	cmd := r.command("ls-tree", "-r", "-l", "-z", "--full-tree", tree+"^{tree}")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	br := bufio.NewReaderSize(stdout, 64<<10)
	var fnErr error
	for {
		rec, err := br.ReadBytes(0)
		if err == io.EOF {
			break
		}
		if err != nil {
			fnErr = err
			break
		}
		e, perr := parseLsTree(rec[:len(rec)-1])
		if perr != nil {
			fnErr = perr
			break
		}
		if fnErr = fn(e); fnErr != nil {
			break
		}
	}
	if fnErr != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return fnErr
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("walk tree %s: %w", tree, &GitError{Args: []string{"ls-tree", tree}, Stderr: stderr.String(), Err: err})
	}
	return nil
}

// parseLsTree parses "<mode> SP <type> SP <id> SP+ <size> TAB <path>".
func parseLsTree(rec []byte) (Entry, error) {
	tab := bytes.IndexByte(rec, '\t')
	if tab < 0 {
		return Entry{}, fmt.Errorf("ls-tree: malformed record %q", rec)
	}
	f := bytes.Fields(rec[:tab])
	if len(f) != 4 {
		return Entry{}, fmt.Errorf("ls-tree: malformed record %q", rec)
	}
	mode, err := strconv.ParseUint(string(f[0]), 8, 32)
	if err != nil {
		return Entry{}, fmt.Errorf("ls-tree: bad mode in %q", rec)
	}
	size := int64(-1)
	// "-" for a tree or submodule; "BAD" for a blob missing from the
	// object database (a damaged repository): its size is unknown, and
	// reading it fails later for that file alone.
	if s := string(f[3]); s != "-" && s != "BAD" {
		if size, err = strconv.ParseInt(string(f[3]), 10, 64); err != nil {
			return Entry{}, fmt.Errorf("ls-tree: bad size in %q", rec)
		}
	}
	return Entry{Path: string(rec[tab+1:]), Mode: uint32(mode), Blob: string(f[2]), Size: size}, nil
}
