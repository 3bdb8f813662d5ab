package gitstore

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
)

// packThreshold: a commit that writes more new objects than this writes
// them as one pack (through `git index-pack`, which names, indexes and
// moves it into place atomically) instead of one loose file each. Writing
// 11k loose objects took seconds (BenchmarkStoreInitial); one pack is one
// file.
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
	var pack bytes.Buffer
	if err := writePack(&pack, p); err != nil {
		return err
	}
	if _, err := r.git(pack.Bytes(), "index-pack", "--stdin"); err != nil {
		return fmt.Errorf("write pack of %d objects: %w", len(p.order), err)
	}
	r.reindex()
	return nil
}

// writePack encodes objects as a version 2 pack without deltas.
func writePack(w io.Writer, p *pendingSet) error {
	sum := sha1.New()
	out := io.MultiWriter(w, sum)
	var hdr [12]byte
	copy(hdr[:4], "PACK")
	binary.BigEndian.PutUint32(hdr[4:], 2)
	binary.BigEndian.PutUint32(hdr[8:], uint32(len(p.order)))
	if _, err := out.Write(hdr[:]); err != nil {
		return err
	}
	zw, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed)
	var stored *zlib.Writer
	for _, h := range p.order {
		o := p.objs[h]
		w := zw
		if o.raw {
			if stored == nil {
				stored, _ = zlib.NewWriterLevel(nil, zlib.NoCompression)
			}
			w = stored
		}
		if err := writePackEntry(out, w, o); err != nil {
			return err
		}
	}
	_, err := w.Write(sum.Sum(nil))
	return err
}

func writePackEntry(out io.Writer, zw *zlib.Writer, o pendingObject) error {
	var typ byte
	switch o.t {
	case plumbing.CommitObject:
		typ = 1
	case plumbing.TreeObject:
		typ = 2
	case plumbing.BlobObject:
		typ = 3
	default:
		return fmt.Errorf("pack: unsupported object type %s", o.t)
	}
	size := uint64(len(o.data))
	var buf []byte
	b := typ<<4 | byte(size&0x0f)
	size >>= 4
	for size > 0 {
		buf = append(buf, b|0x80)
		b = byte(size & 0x7f)
		size >>= 7
	}
	buf = append(buf, b)
	if _, err := out.Write(buf); err != nil {
		return err
	}
	zw.Reset(out)
	if _, err := zw.Write(o.data); err != nil {
		return err
	}
	return zw.Close()
}

var _ hash.Hash = sha1.New()

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
