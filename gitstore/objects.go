package gitstore

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// Raw object access: reads through r.objs (packs.go), writes of loose
// objects through go-git's storage. Callers hold r.mu.

// treeEntry is one entry of a git tree object.
type treeEntry struct {
	name string
	mode uint32 // ModeTree or ModeFile (the store writes nothing else)
	hash plumbing.Hash
}

// readObject returns the raw content of an object, checking its type.
// A missing object after a repack by another process triggers one re-index.
func (r *Repo) readObject(t plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	if r.pending != nil {
		if o, ok := r.pending.objs[h]; ok {
			if o.t != t {
				return nil, fmt.Errorf("object %s is a %s, not a %s", h, o.t, t)
			}
			return o.data, nil
		}
	}
	typ, data, err := r.getObject(h)
	// Another process may be adding a pack (its index appears before the
	// pack can be opened) or repacking: look at the packs again and retry
	// a few times before calling the object missing.
	for try := 0; try < 5 && (errors.Is(err, plumbing.ErrObjectNotFound) || errors.Is(err, dotgit.ErrPackfileNotFound)); try++ {
		if try > 0 {
			time.Sleep(time.Duration(try) * 10 * time.Millisecond)
		}
		r.reindex()
		typ, data, err = r.getObject(h)
	}
	if err != nil {
		return nil, err
	}
	if typ != t {
		return nil, fmt.Errorf("object %s is a %s, not a %s", h, typ, t)
	}
	return data, nil
}

// getObject reads an object through r.objs (packs.go), or through go-git
// when the repository has a pack index of another version.
func (r *Repo) getObject(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	if !r.objs.goGit {
		return r.objs.read(h)
	}
	obj, err := r.storage.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	return contentOf(obj)
}

// hasObject reports whether the object database holds h.
func (r *Repo) hasObject(h plumbing.Hash) bool {
	if !r.objs.goGit {
		return r.objs.has(h, true)
	}
	return r.storage.HasEncodedObject(h) == nil
}

// seenObject reports whether the object database held h when its pack
// folder was last listed, or holds it as a loose file: a miss does not list
// the folder again. It decides whether an object must be written, where a
// stale answer costs at most a second copy of an object; listing the
// folder again for each of a kubernetes build's 67k new objects cost 1.4 s.
func (r *Repo) seenObject(h plumbing.Hash) bool {
	if !r.objs.goGit {
		return r.objs.has(h, false)
	}
	return r.storage.HasEncodedObject(h) == nil
}

// reindex makes the next reads look at the pack folder again.
func (r *Repo) reindex() {
	r.storage.Reindex()
	r.objs.scanned = false
}

// maxTrees bounds the decoded trees a Repo keeps (see readTree).
const maxTrees = 1 << 14

// readTree decodes a tree object. Entries keep git's order; the slice is
// the caller's. Looking up many shards of an artifact walks the same
// trees again and again, so decoded trees are kept (a tree never changes
// under its id), up to maxTrees of them.
func (r *Repo) readTree(h plumbing.Hash) ([]treeEntry, error) {
	if es, ok := r.trees[h]; ok {
		return slices.Clone(es), nil
	}
	es, err := r.decodeTree(h)
	if err != nil {
		return nil, err
	}
	if r.trees == nil || len(r.trees) >= maxTrees {
		r.trees = map[plumbing.Hash][]treeEntry{}
	}
	r.trees[h] = es
	return slices.Clone(es), nil
}

func (r *Repo) decodeTree(h plumbing.Hash) ([]treeEntry, error) {
	data, err := r.readObject(plumbing.TreeObject, h)
	if err != nil {
		return nil, err
	}
	var entries []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		if sp < 0 {
			return nil, fmt.Errorf("tree %s: malformed entry", h)
		}
		mode, err := strconv.ParseUint(string(data[:sp]), 8, 32)
		if err != nil {
			return nil, fmt.Errorf("tree %s: bad mode %q", h, data[:sp])
		}
		data = data[sp+1:]
		nul := bytes.IndexByte(data, 0)
		if nul < 0 || len(data) < nul+1+20 {
			return nil, fmt.Errorf("tree %s: malformed entry", h)
		}
		var id plumbing.Hash
		copy(id[:], data[nul+1:nul+21])
		entries = append(entries, treeEntry{name: string(data[:nul]), mode: uint32(mode), hash: id})
		data = data[nul+21:]
	}
	return entries, nil
}

// writeObject stores an object unless it already exists and returns its id.
func (r *Repo) writeObject(t plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	return r.writeObjectAs(t, data, false)
}

// writeObjectAs writes an object, its zlib stream made of stored blocks
// when raw (Txn.Uncompressed) and a new object.
func (r *Repo) writeObjectAs(t plumbing.ObjectType, data []byte, raw bool) (plumbing.Hash, error) {
	return r.writeHashed(objectID(t, data), t, data, raw)
}

// writeHashed is writeObjectAs for an object whose id h is known.
func (r *Repo) writeHashed(h plumbing.Hash, t plumbing.ObjectType, data []byte, raw bool) (plumbing.Hash, error) {
	if r.known[h] {
		return h, nil
	}
	if p := r.pending; p != nil {
		if _, ok := p.objs[h]; ok {
			return h, nil
		}
	}
	if r.seenObject(h) {
		r.remember(h)
		return h, nil
	}
	if p := r.pending; p != nil {
		p.objs[h] = pendingObject{t, data, raw}
		p.order = append(p.order, h)
		return h, nil
	}
	level := zlib.BestSpeed // git's core.looseCompression by default
	if raw {
		level = zlib.NoCompression
	}
	return h, r.writeLoose(h, t, data, level)
}

// entryKey is the name git sorts a tree entry by: trees sort as "name/".
func entryKey(e treeEntry) string {
	if e.mode == ModeTree {
		return e.name + "/"
	}
	return e.name
}

// writeTree sorts entries in git order, encodes and stores them.
func (r *Repo) writeTree(entries []treeEntry) (plumbing.Hash, error) {
	sort.Slice(entries, func(i, j int) bool { return entryKey(entries[i]) < entryKey(entries[j]) })
	var buf bytes.Buffer
	for _, e := range entries {
		buf.WriteString(strconv.FormatUint(uint64(e.mode), 8))
		buf.WriteByte(' ')
		buf.WriteString(e.name)
		buf.WriteByte(0)
		buf.Write(e.hash[:])
	}
	return r.writeObject(plumbing.TreeObject, buf.Bytes())
}

// edit describes changes to a tree: at each name, either a blob, a whole
// subtree, or nested edits applied to the existing subtree.
type edit struct {
	blob *plumbing.Hash
	tree *plumbing.Hash
	kids map[string]*edit
}

// at returns the edit node for a slash-free path of names, creating nodes.
func (e *edit) at(names ...string) *edit {
	n := e
	for _, name := range names {
		if n.kids == nil {
			n.kids = map[string]*edit{}
		}
		k := n.kids[name]
		if k == nil {
			k = &edit{}
			n.kids[name] = k
		}
		n = k
	}
	return n
}

func (e *edit) setBlob(h plumbing.Hash, names ...string) { e.at(names...).blob = &h }
func (e *edit) setTree(h plumbing.Hash, names ...string) { e.at(names...).tree = &h }

// apply writes the tree that results from applying e to base (ZeroHash for
// none) and returns its id.
func (r *Repo) apply(base plumbing.Hash, e *edit) (plumbing.Hash, error) {
	var entries []treeEntry
	if !base.IsZero() {
		var err error
		if entries, err = r.readTree(base); err != nil {
			return base, err
		}
	}
	index := map[string]int{}
	for i, en := range entries {
		index[en.name] = i
	}
	set := func(en treeEntry) {
		if i, ok := index[en.name]; ok {
			entries[i] = en
		} else {
			index[en.name] = len(entries)
			entries = append(entries, en)
		}
	}
	names := make([]string, 0, len(e.kids))
	for name := range e.kids {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		k := e.kids[name]
		switch {
		case k.blob != nil:
			set(treeEntry{name: name, mode: ModeFile, hash: *k.blob})
		case k.tree != nil:
			set(treeEntry{name: name, mode: ModeTree, hash: *k.tree})
		default:
			var sub plumbing.Hash
			if i, ok := index[name]; ok {
				if entries[i].mode != ModeTree {
					return base, fmt.Errorf("entry %q of tree %s is not a folder (mode %o)", name, base, entries[i].mode)
				}
				sub = entries[i].hash
			}
			h, err := r.apply(sub, k)
			if err != nil {
				return h, err
			}
			set(treeEntry{name: name, mode: ModeTree, hash: h})
		}
	}
	return r.writeTree(entries)
}

// objectID is git's id of an object: SHA-1 over "<type> <size>\x00" and the
// content. go-git's plumbing.ComputeHash uses a collision-detecting SHA-1,
// about twice as slow; the ids are the same for any content that is not a
// crafted collision, and the store only hashes content it wrote itself.
func objectID(t plumbing.ObjectType, data []byte) plumbing.Hash {
	h := sha1.New()
	h.Write(t.Bytes())
	h.Write([]byte{' '})
	h.Write([]byte(strconv.Itoa(len(data))))
	h.Write([]byte{0})
	h.Write(data)
	var id plumbing.Hash
	copy(id[:], h.Sum(nil))
	return id
}

// objectIDs returns the ids of objects of type t with contents data,
// hashed on all cores: a full build's commit hashed 40 MB of artifact
// shards on one core while the other idled.
func objectIDs(t plumbing.ObjectType, data [][]byte) []plumbing.Hash {
	ids := make([]plumbing.Hash, len(data))
	n := min(runtime.GOMAXPROCS(0), len(data)/64+1)
	if n < 2 {
		for i, d := range data {
			ids[i] = objectID(t, d)
		}
		return ids
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(data); i = int(next.Add(1) - 1) {
				ids[i] = objectID(t, data[i])
			}
		})
	}
	wg.Wait()
	return ids
}

// remember notes that object h exists. Caller holds r.mu.
func (r *Repo) remember(h plumbing.Hash) {
	if r.known == nil {
		r.known = map[plumbing.Hash]bool{}
	}
	r.known[h] = true
}
