package gitstore

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/adler32"
	"io"
	"strconv"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// A packed object is decoded here from the pack file mapped into memory:
// its header gives the type and size, so the content is inflated straight
// into a buffer of that size, by a zlib reader taken from a pool. Going
// through go-git's packfile reader instead copied every object three times
// (a scanner, a growing in-memory object, a reader over it) and made a new
// inflater each time, which was half the cost of reading the few hundred
// store objects of a one-file update. Deltas (by offset or by a base's id
// in the same pack) are applied as git does; git writes the bases of a
// pack's deltas into that pack (index-pack completes thin packs).
//
// An entry is: a type and size header (3 bits of type, then the size in
// little-endian groups of 7 bits, a high bit saying more follow); for an
// offset delta the base's distance back from this entry (big-endian groups
// of 7 bits, each continuation adding one); for a reference delta the
// base's 20-byte id; then the zlib stream of the content or the delta.

// Pack entry types (git's OBJ_*).
const (
	packCommit   = 1
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOfsDelta = 6
	packRefDelta = 7
)

// maxDeltaChain bounds the chain of deltas an object is rebuilt through
// (git's own --depth tops at 4095), so a damaged pack cannot recurse
// without end.
const maxDeltaChain = 10000

// maxObjectSize bounds what one entry may claim, so a damaged header
// cannot make the reader allocate without bound.
const maxObjectSize = 1 << 34

var errPackEntry = errors.New("malformed pack entry")

// packData is a pack file's bytes and how to find a base by id.
type packData struct {
	b    []byte
	find func(plumbing.Hash) (int64, bool) // offset of an object of this pack
}

// objectAt decodes the object whose entry starts at off.
func (p packData) objectAt(off int64) (plumbing.ObjectType, []byte, error) {
	return p.objectAtDepth(off, 0)
}

func (p packData) objectAtDepth(off int64, depth int) (plumbing.ObjectType, []byte, error) {
	if depth > maxDeltaChain {
		return plumbing.InvalidObject, nil, fmt.Errorf("pack entry at %d: delta chain longer than %d", off, maxDeltaChain)
	}
	typ, size, at, err := p.header(off)
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	switch typ {
	case packCommit, packTree, packBlob, packTag:
		data, err := inflateAt(p.b, at, size)
		if err != nil {
			return plumbing.InvalidObject, nil, fmt.Errorf("pack entry at %d: %w", off, err)
		}
		return plumbing.ObjectType(typ), data, nil
	case packOfsDelta:
		back, n := ofsDeltaDistance(p.b[at:])
		if n <= 0 || back <= 0 || back > off {
			return plumbing.InvalidObject, nil, fmt.Errorf("pack entry at %d: %w", off, errPackEntry)
		}
		return p.delta(off-back, at+int64(n), size, depth)
	case packRefDelta:
		if at+20 > int64(len(p.b)) {
			return plumbing.InvalidObject, nil, fmt.Errorf("pack entry at %d: %w", off, errPackEntry)
		}
		var base plumbing.Hash
		copy(base[:], p.b[at:at+20])
		boff, ok := p.find(base)
		if !ok {
			return plumbing.InvalidObject, nil, fmt.Errorf("pack entry at %d: delta base %s is not in the pack", off, base)
		}
		return p.delta(boff, at+20, size, depth)
	default:
		return plumbing.InvalidObject, nil, fmt.Errorf("pack entry at %d: type %d: %w", off, typ, errPackEntry)
	}
}

// delta rebuilds an object from the base at boff and the delta whose zlib
// stream starts at at and inflates to size bytes.
func (p packData) delta(boff, at int64, size uint64, depth int) (plumbing.ObjectType, []byte, error) {
	typ, base, err := p.objectAtDepth(boff, depth+1)
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	d, err := inflateAt(p.b, at, size)
	if err != nil {
		return plumbing.InvalidObject, nil, fmt.Errorf("delta at %d: %w", at, err)
	}
	out, err := applyDelta(base, d)
	if err != nil {
		return plumbing.InvalidObject, nil, fmt.Errorf("delta at %d: %w", at, err)
	}
	return typ, out, nil
}

// header reads the type and size of the entry at off and returns where
// what follows them starts.
func (p packData) header(off int64) (typ byte, size uint64, at int64, err error) {
	if off < 12 || off >= int64(len(p.b)) {
		return 0, 0, 0, fmt.Errorf("pack entry at %d: %w", off, errPackEntry)
	}
	c := p.b[off]
	typ = (c >> 4) & 7
	size = uint64(c & 15)
	at = off + 1
	for shift := uint(4); c&0x80 != 0; shift += 7 {
		if at >= int64(len(p.b)) || shift > 57 {
			return 0, 0, 0, fmt.Errorf("pack entry at %d: %w", off, errPackEntry)
		}
		c = p.b[at]
		at++
		size |= uint64(c&0x7f) << shift
	}
	if size > maxObjectSize {
		return 0, 0, 0, fmt.Errorf("pack entry at %d: size %d: %w", off, size, errPackEntry)
	}
	return typ, size, at, nil
}

// ofsDeltaDistance reads an offset delta's distance to its base and the
// bytes it took; n is 0 when b ends first or the distance overflows.
func ofsDeltaDistance(b []byte) (int64, int) {
	var v int64
	for i := 0; i < len(b) && i < 9; i++ {
		c := b[i]
		if i > 0 {
			v++
		}
		v = v<<7 | int64(c&0x7f)
		if c&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}

// inflaters are zlib readers kept between objects: making one costs more
// than inflating a small object.
var inflaters sync.Pool

// inflater returns a zlib reader of src from the pool, or a new one.
func inflater(src io.Reader) (io.ReadCloser, error) {
	if v := inflaters.Get(); v != nil {
		zr := v.(io.ReadCloser)
		if err := zr.(zlib.Resetter).Reset(src, nil); err != nil {
			return nil, err
		}
		return zr, nil
	}
	return zlib.NewReader(src)
}

// inflateAt inflates the zlib stream starting at b[at:], which must give
// exactly size bytes (its checksum is checked).
func inflateAt(b []byte, at int64, size uint64) ([]byte, error) {
	if at < 0 || at > int64(len(b)) {
		return nil, errPackEntry
	}
	// zlib inflates at most about 1032 bytes out of one: a size beyond
	// that is a damaged header, not an allocation to make.
	if size > uint64(int64(len(b))-at)*1100+64 {
		return nil, errPackEntry
	}
	if out, ok := inflateStored(b[at:], size); ok {
		return out, nil
	}
	return inflate(bytes.NewReader(b[at:]), size)
}

// inflateStored reads a zlib stream made only of stored blocks (what
// Txn.Uncompressed writes) with one copy of each block and its checksum
// checked, where the inflater copied every byte twice: the rows and
// definitions a first scope reads are 12 MB on kubernetes. ok is false
// for any other stream, or a damaged one: inflate reads it then, and says
// what is wrong.
func inflateStored(b []byte, size uint64) (out []byte, ok bool) {
	// zlib header: deflate, no preset dictionary, a valid check.
	if len(b) < 2 || b[0]&0x0f != 8 || b[1]&0x20 != 0 || (uint16(b[0])<<8|uint16(b[1]))%31 != 0 {
		return nil, false
	}
	if size > uint64(len(b)) {
		return nil, false
	}
	out = make([]byte, 0, size)
	p := 2
	for {
		// A stored block after another starts on a byte: three header
		// bits, padding, then LEN and its complement NLEN.
		if p+5 > len(b) || b[p]>>1&3 != 0 {
			return nil, false
		}
		final := b[p]&1 != 0
		n := int(binary.LittleEndian.Uint16(b[p+1:]))
		if uint16(n) != ^binary.LittleEndian.Uint16(b[p+3:]) {
			return nil, false
		}
		p += 5
		if p+n > len(b) || uint64(len(out)+n) > size {
			return nil, false
		}
		out = append(out, b[p:p+n]...)
		p += n
		if final {
			break
		}
	}
	if uint64(len(out)) != size || p+4 > len(b) || binary.BigEndian.Uint32(b[p:]) != adler32.Checksum(out) {
		return nil, false
	}
	return out, true
}

// inflate reads a zlib stream from src that must give exactly size bytes.
func inflate(src io.Reader, size uint64) ([]byte, error) {
	zr, err := inflater(src)
	if err != nil {
		return nil, err
	}
	out := make([]byte, size)
	_, err = io.ReadFull(zr, out)
	if err == nil {
		// The stream must end here; reading its end checks the checksum.
		var one [1]byte
		if n, e := zr.Read(one[:]); n != 0 {
			err = errors.New("zlib stream longer than its object")
		} else if e != io.EOF {
			err = e
		}
	}
	if err == nil {
		inflaters.Put(zr)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// applyDelta rebuilds an object from its base and a git delta: the base's
// and the result's sizes (uvarints), then instructions, each copying a
// range of the base (high bit set; the low bits say which offset and size
// bytes follow) or inserting the next 1 to 127 bytes of the delta.
func applyDelta(base, d []byte) ([]byte, error) {
	bsize, n := binary.Uvarint(d)
	if n <= 0 || bsize != uint64(len(base)) {
		return nil, errors.New("delta does not fit its base")
	}
	d = d[n:]
	rsize, n := binary.Uvarint(d)
	if n <= 0 || rsize > maxObjectSize {
		return nil, errPackEntry
	}
	d = d[n:]
	// The result grows as the instructions give bytes: a damaged size
	// cannot make it allocate more than they do.
	out := make([]byte, 0, min(rsize, uint64(len(base))+uint64(len(d))))
	for len(d) > 0 {
		op := d[0]
		d = d[1:]
		switch {
		case op&0x80 != 0:
			var off, size uint64
			var ok bool
			if off, d, ok = copyField(op, 4, d); !ok {
				return nil, errPackEntry
			}
			if size, d, ok = copyField(op>>4, 3, d); !ok {
				return nil, errPackEntry
			}
			if size == 0 {
				size = 0x10000
			}
			if off+size > uint64(len(base)) || uint64(len(out))+size > rsize {
				return nil, errPackEntry
			}
			out = append(out, base[off:off+size]...)
		case op != 0:
			if int(op) > len(d) || uint64(len(out))+uint64(op) > rsize {
				return nil, errPackEntry
			}
			out = append(out, d[:op]...)
			d = d[op:]
		default:
			return nil, errPackEntry // reserved
		}
	}
	if uint64(len(out)) != rsize {
		return nil, errors.New("delta gives fewer bytes than it says")
	}
	return out, nil
}

// looseObject decodes a loose object file: the zlib stream of a header
// ("blob 123" and a NUL byte) and the content.
func looseObject(raw []byte) (plumbing.ObjectType, []byte, error) {
	// The header is inflated first, from a stream of its own, then the
	// whole stream again into a buffer of the size it gives: both are a
	// few microseconds next to making a reader per object.
	zr, err := inflater(bytes.NewReader(raw))
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	var head [32]byte
	n, _ := io.ReadFull(zr, head[:])
	inflaters.Put(zr)
	nul := bytes.IndexByte(head[:n], 0)
	sp := bytes.IndexByte(head[:max(nul, 0)], ' ')
	if nul < 0 || sp < 0 {
		return plumbing.InvalidObject, nil, errors.New("malformed header")
	}
	t, err := plumbing.ParseObjectType(string(head[:sp]))
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	size, err := strconv.ParseUint(string(head[sp+1:nul]), 10, 64)
	if err != nil || size > uint64(len(raw))*1100+64 {
		return plumbing.InvalidObject, nil, errors.New("malformed header")
	}
	all, err := inflate(bytes.NewReader(raw), uint64(nul)+1+size)
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	return t, all[nul+1:], nil
}

// copyField reads a copy instruction's offset (n = 4) or size (n = 3): of
// its n little-endian bytes, those whose bit is set in the low bits of bits
// follow in d, the others are zero.
func copyField(bits byte, n uint, d []byte) (uint64, []byte, bool) {
	var v uint64
	for i := uint(0); i < n; i++ {
		if bits&(1<<i) != 0 {
			if len(d) == 0 {
				return 0, d, false
			}
			v |= uint64(d[0]) << (8 * i)
			d = d[1:]
		}
	}
	return v, d, true
}
