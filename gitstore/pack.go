package gitstore

import (
	"compress/zlib"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

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
	base, err := writePackFiles(filepath.Join(r.objs.dir, "pack"), p, r.sharedPerm())
	if err != nil {
		return fmt.Errorf("write pack of %d objects: %w", len(p.order), err)
	}
	r.written = append(r.written, base)
	r.reindex()
	return nil
}

// sharedPerm returns core.sharedRepository as git's adjust_shared_perm
// uses it: 0 (umask, the default) leaves files as created; 0660 (group,
// true, 1) or 0664 (all, world, everybody, 2) adds those bits; an octal
// mode 0xxx, stored negative, sets the file's bits to it. Write bits are
// never added to a read-only file. Read once, from the repository's own
// config file.
func (r *Repo) sharedPerm() int {
	if !r.sharedRead {
		r.sharedRead = true
		if cfg, err := r.storage.Config(); err == nil {
			r.shared = parseSharedPerm(cfg.Raw.Section("core").Option("sharedRepository"))
		}
	}
	return r.shared
}

// parseSharedPerm reads a core.sharedRepository value (see sharedPerm);
// a value git would refuse leaves files as created.
func parseSharedPerm(v string) int {
	switch strings.ToLower(v) {
	case "", "umask", "false", "no", "off":
		return 0
	case "group", "true", "yes", "on":
		return 0o660
	case "all", "world", "everybody":
		return 0o664
	}
	i, err := strconv.ParseUint(v, 8, 32)
	switch {
	case err != nil:
		return 0
	case i == 0 || i == 1 || i == 2:
		return [...]int{0, 0o660, 0o664}[i]
	case i&0o600 != 0o600:
		return 0 // git refuses a mode that takes the owner's access
	}
	return -int(i & 0o666)
}

// sharedMode is git's calc_shared_perm: mode adjusted to shared.
func sharedMode(mode fs.FileMode, shared int) fs.FileMode {
	tweak := fs.FileMode(shared)
	if shared < 0 {
		tweak = fs.FileMode(-shared)
	}
	if mode&0o200 == 0 {
		tweak &^= 0o222
	}
	if mode&0o100 != 0 {
		tweak |= (tweak & 0o444) >> 2
	}
	if shared < 0 {
		return mode&^0o777 | tweak
	}
	return mode | tweak
}

// objectDir makes dir, a folder of loose objects, when missing, as git
// does: 0777 less the umask, then under core.sharedRepository the file
// modes with the read bits copied to the search bits, and set-group-id when
// the group gets any access.
func (r *Repo) objectDir(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	shared := r.sharedPerm()
	if shared == 0 {
		return nil
	}
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	m := sharedMode(st.Mode().Perm(), shared)
	m |= (m & 0o444) >> 2
	if m&0o060 != 0 {
		m |= fs.ModeSetgid
	}
	return os.Chmod(dir, m)
}

// writeLoose writes object h as a loose file at zlib level, as git does:
// into a temporary file of its folder, then renamed into place, so that a
// reader (or a kill) never sees half an object.
func (r *Repo) writeLoose(h plumbing.Hash, t plumbing.ObjectType, data []byte, level int) error {
	final := r.objs.loosePath(h)
	dir := filepath.Dir(final)
	if err := r.objectDir(dir); err != nil {
		return err
	}
	f, err := createTemp(dir, "tmp_obj_")
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
		err = placeFile(f.Name(), final, r.sharedPerm())
	}
	if err != nil {
		return fmt.Errorf("write %s object: %w", t, err)
	}
	return nil
}
