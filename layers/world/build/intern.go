package build

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"sync"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/terms"
)

// linkTable holds the links of the files a run parses, from their
// extraction until the graph is resolved, without a pointer the collector
// would follow: each link is a file's own run of varints (file.linkEnc)
// naming its strings by number, and the strings are kept once each in a
// pointer-free terms.Numbering. A full build of kubernetes holds
// 500,000 definitions and two million references through the parses: as
// structs of strings they were 75 MB the collector marked in every cycle
// of the facts phase (2-3 s of CPU); as bytes it marks none of them.
// decode gives the links back as world.Link once the parses are over.
//
// The encoding is read only by decode, in the run that wrote it.
type linkTable struct {
	mu sync.Mutex // the zero linkTable is ready
	// strs numbers every distinct string but "" (its number + 1 in an
	// encoding; 0 is "").
	strs terms.Numbering
}

// Which of a link's lists are there (a list present may be empty).
const (
	encDefs = 1 << iota
	encImports
	encRefs
)

// encScratch is room to encode a link in before it is copied to a slice
// of its own size.
var encScratch = sync.Pool{New: func() any { return new([]byte) }}

// encodeLink is l's encoding, in a slice of its size (nil for a nil l).
func (t *linkTable) encodeLink(l *world.Link) []byte {
	if l == nil {
		return nil
	}
	sc := encScratch.Get().(*[]byte)
	*sc = t.encode((*sc)[:0], l)
	b := bytes.Clone(*sc)
	if cap(*sc) <= 1<<16 { // a huge file's room is not kept
		encScratch.Put(sc)
	}
	return b
}

// encode appends l's encoding to dst.
func (t *linkTable) encode(dst []byte, l *world.Link) []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	var flags byte
	if l.Defs != nil {
		flags |= encDefs
	}
	if l.Imports != nil {
		flags |= encImports
	}
	if l.Refs != nil {
		flags |= encRefs
	}
	dst = append(dst, flags)
	dst = t.appendStrs(dst, l.Lang, l.Package)
	dst = binary.AppendUvarint(dst, uint64(len(l.Defs)))
	for i := range l.Defs {
		d := &l.Defs[i]
		dst = t.appendStrs(dst, d.Name, d.Kind, d.Parent, d.Returns)
		exported := byte(0)
		if d.Exported {
			exported = 1
		}
		dst = append(dst, exported)
	}
	dst = t.appendImports(dst, l.Imports)
	dst = binary.AppendUvarint(dst, uint64(len(l.Refs)))
	for i := range l.Refs {
		r := &l.Refs[i]
		dst = t.appendStrs(dst, r.Name, r.Qual, r.Kind)
		dst = binary.AppendVarint(dst, int64(r.Count))
	}
	return dst
}

// appendImports appends the encoding of imports. Caller holds mu.
func (t *linkTable) appendImports(dst []byte, imports []world.Import) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(imports)))
	names := 0
	for i := range imports {
		names += len(imports[i].Names)
	}
	dst = binary.AppendUvarint(dst, uint64(names))
	for i := range imports {
		im := &imports[i]
		dst = t.appendStrs(dst, im.Path, im.Alias, im.Kind)
		dst = binary.AppendVarint(dst, int64(im.Line))
		if im.Names == nil {
			dst = append(dst, 0)
		} else {
			dst = binary.AppendUvarint(dst, uint64(len(im.Names))+1)
		}
		dst = t.appendStrs(dst, im.Names...)
	}
	return dst
}

// appendStrs appends the numbers of strs. Caller holds mu.
func (t *linkTable) appendStrs(dst []byte, strs ...string) []byte {
	for _, s := range strs {
		dst = t.appendStr(dst, s)
	}
	return dst
}

// appendStr appends the number of s, adding s to the table if it is new.
// Caller holds mu.
func (t *linkTable) appendStr(dst []byte, s string) []byte {
	if s == "" {
		return append(dst, 0)
	}
	return binary.AppendUvarint(dst, uint64(t.strs.Number(s))+1)
}

// linkDecoder reads encodings of one table after its last encode: the
// links it gives share one copy of the table's strings.
type linkDecoder struct {
	strs []string // by number, all in one string
}

// decoder is the table's reader. The table must not encode afterwards.
func (t *linkTable) decoder() *linkDecoder {
	t.mu.Lock()
	defer t.mu.Unlock()
	return &linkDecoder{strs: t.strs.Texts()}
}

// decodeFiles gives every file with an encoded link its link, and lets
// the encoding go. A large tree's are decoded on two cores: the next
// phase waits for them.
func (t *linkTable) decodeFiles(files []*file) {
	d := t.decoder()
	decode := func(files []*file) {
		for _, f := range files {
			if f.linkEnc != nil {
				f.link = d.decode(f.linkEnc)
				f.linkEnc = nil
			}
		}
	}
	if len(files) < 4096 || runtime.GOMAXPROCS(0) < 2 {
		decode(files)
		return
	}
	half := len(files) / 2
	done := make(chan struct{})
	go func() {
		defer close(done)
		decode(files[half:])
	}()
	decode(files[:half])
	<-done
}

// decode is the link encode wrote as b. Each list gets the room it needs,
// no more, as Facts.Link makes it.
func (d *linkDecoder) decode(b []byte) *world.Link {
	if b == nil {
		return nil
	}
	r := encReader{b: b[1:], d: d}
	flags := b[0]
	l := &world.Link{Lang: r.str(), Package: r.str()}
	if n := r.uint(); n > 0 || flags&encDefs != 0 {
		l.Defs = make([]world.LinkDef, n)
		for i := range l.Defs {
			l.Defs[i] = world.LinkDef{Name: r.str(), Kind: r.str(), Parent: r.str(), Returns: r.str(), Exported: r.byte() == 1}
		}
	}
	if n, k := r.uint(), r.uint(); n > 0 || flags&encImports != 0 {
		l.Imports = make([]world.Import, n)
		var names []string // the names of every import, in one allocation
		if k > 0 {
			names = make([]string, k)
		}
		for i := range l.Imports {
			im := &l.Imports[i]
			im.Path, im.Alias, im.Kind = r.str(), r.str(), r.str()
			im.Line = int(r.int())
			k := int(r.uint())
			if k == 0 {
				continue
			}
			if k--; k == 0 {
				im.Names = []string{}
				continue
			}
			im.Names = names[:k:k]
			names = names[k:]
			for j := range im.Names {
				im.Names[j] = r.str()
			}
		}
	}
	if n := r.uint(); n > 0 || flags&encRefs != 0 {
		l.Refs = make([]world.LinkRef, n)
		for i := range l.Refs {
			l.Refs[i] = world.LinkRef{Name: r.str(), Qual: r.str(), Kind: r.str(), Count: int(r.int())}
		}
	}
	return l
}

// encReader reads an encoding of a linkTable.
type encReader struct {
	b []byte
	d *linkDecoder
}

func (r *encReader) uint() uint64 {
	v, n := binary.Uvarint(r.b)
	r.b = r.b[n:]
	return v
}

func (r *encReader) int() int64 {
	v, n := binary.Varint(r.b)
	r.b = r.b[n:]
	return v
}

func (r *encReader) byte() byte {
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *encReader) str() string {
	n := r.uint()
	if n == 0 {
		return ""
	}
	return r.d.strs[n-1]
}
