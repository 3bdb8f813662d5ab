package gitstore

import (
	"compress/zlib"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
)

// packThreshold: a commit that writes more new objects than this writes
// them as one pack instead of one loose file each. Writing 11k loose
// objects took seconds (BenchmarkStoreInitial); one pack is two files.
const packThreshold = 100

type pendingObject struct {
	t    plumbing.ObjectType
	data []byte
	raw  bool // written as stored blocks (Txn.Uncompressed)
}

// pendingSet collects the new objects of one commit attempt. Caller holds
// r.mu.
type pendingSet struct {
	order []plumbing.Hash
	objs  map[plumbing.Hash]pendingObject
}

// beginPending starts collecting new objects instead of writing them.
func (r *Repo) beginPending() {
	r.pending = &pendingSet{objs: map[plumbing.Hash]pendingObject{}}
}

// endPending stops collecting (dropping anything not flushed).
func (r *Repo) endPending() { r.pending = nil }

// flushPending writes the collected objects: loose when there are few, as
// one pack otherwise.
func (r *Repo) flushPending() error {
	p := r.pending
	if p == nil || len(p.order) == 0 {
		return nil
	}
	r.pending = nil
	defer func() { r.pending = &pendingSet{objs: map[plumbing.Hash]pendingObject{}} }()
	if len(p.order) <= packThreshold {
		for _, h := range p.order {
			o := p.objs[h]
			if _, err := r.writeObjectAs(o.t, o.data, o.raw); err != nil {
				return err
			}
		}
		return nil
	}
	if err := writePackFiles(filepath.Join(r.objs.dir, "pack"), p); err != nil {
		return fmt.Errorf("write pack of %d objects: %w", len(p.order), err)
	}
	r.reindex()
	return nil
}

// writeLoose writes object h as a loose file at zlib level, as git does:
// into a temporary file of its folder, then renamed into place, so that a
// reader (or a kill) never sees half an object.
func (r *Repo) writeLoose(h plumbing.Hash, t plumbing.ObjectType, data []byte, level int) error {
	final := r.objs.loosePath(h)
	dir := filepath.Dir(final)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "tmp_obj_")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after the rename, nothing to remove
	zw, err := zlib.NewWriterLevel(f, level)
	if err == nil {
		fmt.Fprintf(zw, "%s %d\x00", t, len(data))
		_, err = zw.Write(data)
	}
	if err == nil {
		err = zw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o444)
	}
	if err == nil {
		err = os.Rename(f.Name(), final)
	}
	if err != nil {
		return fmt.Errorf("write %s object: %w", t, err)
	}
	return nil
}
