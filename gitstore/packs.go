package gitstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// Objects are read the way git reads them: a loose object from its file,
// a packed one by searching each pack's .idx file in place (mapped into
// memory, a binary search inside one fan-out bucket) and decoding it from
// the pack. go-git's storage would first decode every .idx of the
// repository into memory, which costs in proportion to the repository's
// history on every command (23 ms of a 130 ms one-file index on the
// kubernetes corpus). Object folders borrowed through
// objects/info/alternates are searched after the repository's own (go-git
// did not find them when the path is absolute); a pack index of another
// version than 2 sends every read through go-git as before.

// objects finds and reads objects of one object database. Caller holds
// r.mu.
type objects struct {
	dir     string // the objects folder
	scanned bool
	packs   []*packIdx
	byName  map[string]*packIdx
	// alternates: object folders this one borrows from
	// (objects/info/alternates), searched after it.
	alternates []*objects
	// goGit: a pack index other than version 2; go-git reads the objects.
	goGit bool
}

// maxAlternates bounds the chain of borrowed object folders, as git does.
const maxAlternates = 5

func newObjects(dir string) *objects { return newObjectsAt(dir, 0) }

func newObjectsAt(dir string, depth int) *objects {
	o := &objects{dir: dir, byName: map[string]*packIdx{}}
	data, err := os.ReadFile(filepath.Join(dir, "info", "alternates"))
	if err != nil || depth >= maxAlternates {
		return o
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, `"`) {
			o.goGit = true // a quoted path: left to go-git
			continue
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(dir, line) // relative to this objects folder
		}
		o.alternates = append(o.alternates, newObjectsAt(filepath.Clean(line), depth+1))
	}
	return o
}

// rescan lists the pack folder again, keeping the packs already open.
func (o *objects) rescan() {
	o.scanned = true
	for _, a := range o.alternates {
		a.scanned = false
	}
	names, _ := filepath.Glob(filepath.Join(o.dir, "pack", "pack-*.idx"))
	sort.Strings(names)
	byName := make(map[string]*packIdx, len(names))
	packs := make([]*packIdx, 0, len(names))
	for _, n := range names {
		p := o.byName[n]
		if p == nil {
			p = &packIdx{idx: n}
		}
		byName[n] = p
		packs = append(packs, p)
	}
	for n, p := range o.byName {
		if byName[n] == nil {
			p.close() // repacked away
		}
	}
	o.packs, o.byName = packs, byName
}

// close unmaps the packs and their indexes, and those of the alternates.
func (o *objects) close() {
	for _, p := range o.packs {
		p.close()
	}
	for _, a := range o.alternates {
		a.close()
	}
}

// find returns the pack holding h and its offset there.
func (o *objects) find(h plumbing.Hash) (*packIdx, int64, bool) {
	if !o.scanned {
		o.rescan()
	}
	for _, p := range o.packs {
		if off, ok := p.find(h); ok {
			return p, off, true
		}
		if p.bad {
			o.goGit = true // an index this reader does not know
		}
	}
	return nil, 0, false
}

// loosePath is the file of loose object h.
func (o *objects) loosePath(h plumbing.Hash) string {
	s := h.String()
	return filepath.Join(o.dir, s[:2], s[2:])
}

// has reports whether h is in the object database or one it borrows
// from. again: look at the pack folders again before saying no; a writer
// deciding whether to write an object does not (Repo.seenObject).
func (o *objects) has(h plumbing.Hash, again bool) bool {
	if _, err := os.Stat(o.loosePath(h)); err == nil {
		return true
	}
	if _, _, ok := o.find(h); ok {
		return true
	}
	if again {
		o.rescan()
		if _, _, ok := o.find(h); ok {
			return true
		}
	}
	for _, a := range o.alternates {
		if a.has(h, again) {
			return true
		}
	}
	return false
}

// read returns the type and content of h; plumbing.ErrObjectNotFound when
// neither a loose file nor a pack (after looking again) holds it.
func (o *objects) read(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	if t, data, err := o.readLoose(h); !errors.Is(err, os.ErrNotExist) {
		return t, data, err
	}
	p, off, ok := o.find(h)
	if !ok {
		o.rescan()
		if p, off, ok = o.find(h); !ok {
			// It may have been packed (and its loose file pruned) meanwhile.
			if t, data, err := o.readLoose(h); !errors.Is(err, os.ErrNotExist) {
				return t, data, err
			}
			for _, a := range o.alternates {
				if t, data, err := a.read(h); !errors.Is(err, plumbing.ErrObjectNotFound) {
					return t, data, err
				}
			}
			return plumbing.InvalidObject, nil, plumbing.ErrObjectNotFound
		}
	}
	return p.read(h, off)
}

func (o *objects) readLoose(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	raw, err := os.ReadFile(o.loosePath(h))
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	t, data, err := looseObject(raw)
	if err != nil {
		return plumbing.InvalidObject, nil, fmt.Errorf("loose object %s: %w", h, err)
	}
	return t, data, nil
}

// packIdx is one pack and its version 2 .idx file, opened on first use.
type packIdx struct {
	idx    string // path of the .idx file
	opened bool
	bad    bool   // not a version 2 index (or unreadable): go-git reads instead
	data   []byte // the .idx file
	unmap  func() error
	n      uint32
	pf     *packfile.Packfile
	// the .pack file, mapped on first read (packBad: it could not be,
	// go-git reads it)
	packData  []byte
	unmapPack func() error
	packBad   bool
}

const (
	idxHeader = 8 // magic and version
	idxFanout = 256 * 4
)

func (p *packIdx) open() {
	p.opened = true
	data, unmap, err := mapFile(p.idx)
	if errors.Is(err, os.ErrNotExist) {
		return // merged or repacked away since listed: find says no
	}
	if err != nil {
		p.bad = true
		return
	}
	p.data, p.unmap = data, unmap
	if len(data) < idxHeader+idxFanout || !bytes.Equal(data[:4], []byte{0xff, 't', 'O', 'c'}) || binary.BigEndian.Uint32(data[4:8]) != 2 {
		p.bad = true
		return
	}
	p.n = binary.BigEndian.Uint32(data[idxHeader+idxFanout-4:])
	// names, CRCs, offsets, then the pack's and the index's checksums
	if uint64(len(data)) < uint64(idxHeader+idxFanout)+uint64(p.n)*28+40 {
		p.bad = true
	}
}

// find returns the pack offset of h.
func (p *packIdx) find(h plumbing.Hash) (int64, bool) {
	if !p.opened {
		p.open()
	}
	if p.bad || p.data == nil {
		return 0, false
	}
	fan := func(b int) uint32 { return binary.BigEndian.Uint32(p.data[idxHeader+4*b:]) }
	lo, hi := uint32(0), fan(int(h[0]))
	if h[0] > 0 {
		lo = fan(int(h[0]) - 1)
	}
	if hi > p.n || lo > hi {
		return 0, false
	}
	names := p.data[idxHeader+idxFanout:]
	k := lo + uint32(sort.Search(int(hi-lo), func(i int) bool {
		at := (lo + uint32(i)) * 20
		return bytes.Compare(names[at:at+20], h[:]) >= 0
	}))
	if k >= hi || !bytes.Equal(names[k*20:k*20+20], h[:]) {
		return 0, false
	}
	offs := names[p.n*24:] // after the names and the CRCs
	off := binary.BigEndian.Uint32(offs[4*k:])
	if off&0x80000000 == 0 {
		return int64(off), true
	}
	large := offs[4*p.n:]
	at := uint64(off&0x7fffffff) * 8
	if at+8 > uint64(len(large)) {
		return 0, false
	}
	return int64(binary.BigEndian.Uint64(large[at:])), true
}

// mapPack maps the pack file, once; one that is not a pack is marked
// packBad (go-git reads it). An error only for a pack file gone.
func (p *packIdx) mapPack() error {
	if p.packData != nil || p.packBad {
		return nil
	}
	name := strings.TrimSuffix(p.idx, ".idx") + ".pack"
	data, unmap, err := mapFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s: %w", name, plumbing.ErrObjectNotFound)
	}
	if err != nil || len(data) < 12+20 || !bytes.Equal(data[:4], []byte("PACK")) {
		if unmap != nil {
			unmap()
		}
		p.packBad = true
	} else {
		p.packData, p.unmapPack = data, unmap
	}
	return nil
}

// read decodes the object at off, which find gave for h: from the pack
// mapped into memory (packentry.go) where files are mapped, through
// go-git elsewhere.
func (p *packIdx) read(h plumbing.Hash, off int64) (plumbing.ObjectType, []byte, error) {
	name := strings.TrimSuffix(p.idx, ".idx") + ".pack"
	if mapsFiles && !p.packBad {
		if err := p.mapPack(); err != nil {
			return plumbing.InvalidObject, nil, err
		}
		if p.packData != nil {
			pd := packData{b: p.packData, find: p.find}
			typ, data, err := pd.objectAt(off)
			if err != nil {
				return plumbing.InvalidObject, nil, fmt.Errorf("%s in %s: %w", h, filepath.Base(name), err)
			}
			return typ, data, nil
		}
	}
	if p.pf == nil {
		f, err := osfs.New(filepath.Dir(name)).Open(filepath.Base(name))
		if errors.Is(err, os.ErrNotExist) {
			return plumbing.InvalidObject, nil, fmt.Errorf("%s: %w", name, plumbing.ErrObjectNotFound)
		}
		if err != nil {
			return plumbing.InvalidObject, nil, err
		}
		// No file system: objects come back whole, in memory. No delta
		// base cache: it is keyed by id, and bases are found by offset.
		p.pf = packfile.NewPackfileWithCache(packIndex{p}, nil, f, nil, 0)
	}
	obj, err := p.pf.Get(h)
	if err != nil {
		return plumbing.InvalidObject, nil, fmt.Errorf("%s in %s: %w", h, filepath.Base(p.idx), err)
	}
	return contentOf(obj)
}

// contentOf returns the type and content of a go-git object.
func contentOf(obj plumbing.EncodedObject) (plumbing.ObjectType, []byte, error) {
	rc, err := obj.Reader()
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	return obj.Type(), data, err
}

func (p *packIdx) close() {
	if p.pf != nil {
		p.pf.Close()
		p.pf = nil
	}
	if p.unmap != nil {
		p.unmap()
		p.unmap = nil
	}
	if p.unmapPack != nil {
		p.unmapPack()
		p.unmapPack = nil
	}
	p.data, p.opened, p.packData, p.packBad = nil, false, nil, false
}

// packIndex is the part of go-git's idxfile.Index a pack read by offset
// uses: finding an object's offset. The id of the object at an offset
// (FindHash) serves go-git's delta base cache only, which is off.
type packIndex struct{ p *packIdx }

var errNoListing = errors.New("pack index: listing not supported")

func (x packIndex) Contains(h plumbing.Hash) (bool, error) {
	_, ok := x.p.find(h)
	return ok, nil
}

func (x packIndex) FindOffset(h plumbing.Hash) (int64, error) {
	off, ok := x.p.find(h)
	if !ok {
		return 0, plumbing.ErrObjectNotFound
	}
	return off, nil
}

func (x packIndex) FindCRC32(plumbing.Hash) (uint32, error)     { return 0, errNoListing }
func (x packIndex) FindHash(int64) (plumbing.Hash, error)       { return plumbing.ZeroHash, nil }
func (x packIndex) Count() (int64, error)                       { return int64(x.p.n), nil }
func (x packIndex) Entries() (idxfile.EntryIter, error)         { return nil, errNoListing }
func (x packIndex) EntriesByOffset() (idxfile.EntryIter, error) { return nil, errNoListing }
