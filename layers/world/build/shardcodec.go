package build

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/terms"
)

// Shards of the map and links artifacts are read back in full on every
// incremental index, so they use a compact binary form rather than JSON
// (which took most of a one-file re-index on a 10k-file tree). A shard is:
//
//	magic byte, format byte,
//	string table: uvarint n, then n × (uvarint len, bytes),
//	uvarint records, then the records, every string as a table index.
//
// Everything is written in the order given, so equal records give equal
// bytes and git stores equal shards once.
const (
	shardMagic      = 0xD5
	shardFormatMap  = 2 // 2: an out-edge's kind after its weight
	shardFormatLink = 2 // 2: a definition's Returns after Exported
)

var errShard = errors.New("malformed shard")

type shardWriter struct {
	// strs numbers the strings in order of first use. It holds no
	// pointer and grows without a map's rehashing, which was a good part
	// of encoding facts and shards.
	strs  terms.Numbering
	body  []byte
	facts *factsCodec // encodeFacts' scratch
	// seen are strings num numbered lately, each with the use of w (how
	// many times it was released before) it was numbered in.
	seen [1 << seenBits]seenString
	use  uint32
}

// uvarintLen is the length of v as a uvarint.
func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// shardWriters are shard writers reused by encodeFacts, which runs once per
// parsed file, and by the encoders of the tree's shards, once per folder
// or bucket: their string tables and bodies keep their room.
var shardWriters = sync.Pool{New: func() any { return new(shardWriter) }}

// borrowWriter returns an empty writer of shardWriters; release gives it
// back.
func borrowWriter() *shardWriter { return shardWriters.Get().(*shardWriter) }

// release empties w and gives it back to shardWriters; a writer grown by a
// large file is dropped instead (emptying a table costs its largest size).
func (w *shardWriter) release() {
	if w.strs.Len() > 4096 || w.strs.Size() > 1<<20 || cap(w.body) > 1<<20 {
		return
	}
	w.strs.Reset()
	w.body = w.body[:0]
	if w.use++; w.use == 0 { // (after four billion uses)
		clear(w.seen[:])
	}
	shardWriters.Put(w)
}

func (w *shardWriter) uint(v uint64) { w.body = binary.AppendUvarint(w.body, v) }

// str writes s as its number. s must stay reachable until w is released
// (the strings of the records or facts being written all do): w knows a
// string by where its bytes are (seen).
func (w *shardWriter) str(s string) { w.uint(uint64(w.num(s))) }

// strNum is str returning the number of s.
func (w *shardWriter) strNum(s string) uint32 {
	n := w.num(s)
	w.uint(uint64(n))
	return n
}

// num is the number of s in w's table. A string whose bytes are where
// those of a string numbered before were, as long, is that string: its
// number comes from seen without hashing it. The strings of links all
// slice one string of the run's link table, each distinct one once, and
// a folder's links name the same ones again and again.
func (w *shardWriter) num(s string) uint32 {
	if len(s) == 0 {
		return w.strs.Number(s)
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	e := &w.seen[(uint64(p)^uint64(len(s)))*0x9E3779B97F4A7C15>>(64-seenBits)]
	if e.at == p && e.len == uint32(len(s)) && e.use == w.use {
		return e.n
	}
	n := w.strs.Number(s)
	*e = seenString{at: p, len: uint32(len(s)), use: w.use, n: n}
	return n
}

// seenBits is the log2 of the entries of shardWriter.seen.
const seenBits = 10

// seenString is a string w numbered: where its bytes are, their length,
// w's use it was numbered in and its number. Only an entry of w's current
// use counts: a string of an earlier one may be gone and its memory
// holding another.
type seenString struct {
	at       uintptr
	len, use uint32
	n        uint32
}

func (w *shardWriter) bool(b bool) {
	if b {
		w.body = append(w.body, 1)
	} else {
		w.body = append(w.body, 0)
	}
}

func (w *shardWriter) bytes(format byte) []byte {
	strs := uint32(w.strs.Len())
	n := 2 + uvarintLen(uint64(strs)) + w.strs.Size() + len(w.body)
	for i := uint32(0); i < strs; i++ {
		n += uvarintLen(uint64(len(w.strs.Bytes(i))))
	}
	out := make([]byte, 0, n)
	out = append(out, shardMagic, format)
	out = binary.AppendUvarint(out, uint64(strs))
	for i := uint32(0); i < strs; i++ {
		s := w.strs.Bytes(i)
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return append(out, w.body...)
}

// shardReader decodes a shard. Its strings are made on first use, so a
// decode that skips fields (decodeLinkShardInterfaces, decodeLinkUses)
// allocates only the strings it returns.
type shardReader struct {
	b    []byte
	tab  []byte   // the string table's bytes
	ends []uint32 // string i's entry (uvarint length, bytes) ends at ends[i]
	strs []string // made on first use
	err  error
	// shared: strings slice one string of the whole table (made on the
	// first use), one allocation rather than one per string, for shards
	// whose strings live as long as each other (map rows, links).
	shared bool
	whole  string
	// inPlace: whole is the table's bytes themselves, not a copy
	// (newShardReaderInPlace).
	inPlace bool
}

// newShardReader reads a shard whose strings live as long as each other
// (map rows, links).
func newShardReader(b []byte, format byte) *shardReader { return readShard(b, format, true, false) }

// newShardReaderInPlace is newShardReader making no copy of the string
// table: its strings point into b, which must never change afterwards
// (bytes read from the store, each read fresh). A first scope of
// kubernetes decodes 12 MB of rows and definitions, and copying their
// tables was a tenth of what it allocated.
func newShardReaderInPlace(b []byte, format byte) *shardReader {
	return readShard(b, format, true, true)
}

// newOwnShardReader reads a shard whose strings are kept apart (facts: a
// file's link outlives its skeleton), each its own allocation.
func newOwnShardReader(b []byte, format byte) *shardReader { return readShard(b, format, false, false) }

func readShard(b []byte, format byte, shared, inPlace bool) *shardReader {
	r := &shardReader{b: b, shared: shared, inPlace: inPlace}
	if len(b) < 2 || b[0] != shardMagic || b[1] != format {
		r.err = errShard
		return r
	}
	r.b = b[2:]
	n := r.uint()
	if n > uint64(len(r.b)) || len(r.b) > math.MaxUint32 {
		r.err = errShard
		return r
	}
	r.tab = r.b
	r.ends = make([]uint32, 0, n)
	for i := uint64(0); i < n && r.err == nil; i++ {
		l := r.uint()
		if l > uint64(len(r.b)) {
			r.err = errShard
			break
		}
		r.b = r.b[l:]
		r.ends = append(r.ends, uint32(len(r.tab)-len(r.b)))
	}
	if !inPlace { // in place, a string costs no more made again than kept
		r.strs = make([]string, len(r.ends))
	}
	return r
}

func (r *shardReader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errShard
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a length and checks it against what is left, so a damaged
// shard cannot make the reader allocate without bound.
func (r *shardReader) count() int {
	n := r.uint()
	if n > uint64(len(r.b)) {
		r.err = errShard
		return 0
	}
	return int(n)
}

func (r *shardReader) str() string {
	i := r.index()
	if r.err != nil {
		return ""
	}
	return r.strAt(i)
}

// strAt makes (once) the string of table index i, which index checked.
func (r *shardReader) strAt(i uint64) string {
	if !r.inPlace {
		if s := r.strs[i]; s != "" {
			return s
		}
	}
	start, end := uint32(0), r.ends[i]
	if i > 0 {
		start = r.ends[i-1]
	}
	_, n := binary.Uvarint(r.tab[start:end]) // checked by readShard
	var s string
	if r.shared {
		if r.whole == "" {
			if t := r.tab[:r.ends[len(r.ends)-1]]; r.inPlace {
				r.whole = unsafe.String(unsafe.SliceData(t), len(t))
			} else {
				r.whole = string(t)
			}
		}
		s = r.whole[start+uint32(n) : end]
	} else {
		s = string(r.tab[start+uint32(n) : end])
	}
	if !r.inPlace {
		r.strs[i] = s
	}
	return s
}

// index reads a string's table index without making the string.
func (r *shardReader) index() uint64 {
	i := r.uint()
	if r.err != nil {
		return 0
	}
	if i >= uint64(len(r.ends)) {
		r.err = errShard
		return 0
	}
	return i
}

func (r *shardReader) bool() bool {
	if r.err != nil || len(r.b) == 0 {
		r.err = errShard
		return false
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v != 0
}

func encodeMapShard(recs []mapRecord) []byte {
	w := borrowWriter()
	defer w.release()
	w.uint(uint64(len(recs)))
	for i := range recs {
		w.mapRecord(&recs[i])
	}
	return w.bytes(shardFormatMap)
}

// mapRecord writes one row of the map (and of the rows artifact, rows.go).
func (w *shardWriter) mapRecord(r *mapRecord) {
	w.str(r.Path)
	w.str(r.Lang)
	w.uint(uint64(r.Size + 1)) // -1 (unknown) is stored as 0
	w.str(r.Blob)
	w.uint(uint64(r.Lines))
	w.uint(uint64(r.Tokens))
	w.uint(uint64(len(r.Flags)))
	for _, f := range r.Flags {
		w.str(f.Name)
		w.str(f.Reason)
	}
	w.str(r.Key)
	w.uint(uint64(len(r.Out)))
	for _, o := range r.Out {
		w.str(o.To)
		w.uint(uint64(o.Refs))
		w.uint(math.Float64bits(o.Weight))
		w.uint(uint64(o.Kind))
	}
}

func decodeMapShard(b []byte) ([]mapRecord, error) {
	r := newShardReader(b, shardFormatMap)
	n := r.count()
	recs := make([]mapRecord, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		recs = append(recs, r.mapRecord())
	}
	return recs, r.err
}

// mapRecord reads what shardWriter.mapRecord wrote.
func (r *shardReader) mapRecord() mapRecord {
	var m mapRecord
	m.Path = r.str()
	m.Lang = r.str()
	m.Size = int64(r.uint()) - 1
	m.Blob = r.str()
	m.Lines = int(r.uint())
	m.Tokens = int(r.uint())
	if nf := r.count(); nf > 0 {
		m.Flags = make([]world.Flag, nf)
		for j := range m.Flags {
			m.Flags[j] = world.Flag{Name: r.str(), Reason: r.str()}
		}
	}
	m.Key = r.str()
	if no := r.count(); no > 0 {
		m.Out = make([]outEdge, no)
		for j := range m.Out {
			m.Out[j] = outEdge{To: r.str(), Refs: int(r.uint()), Weight: math.Float64frombits(r.uint()), Kind: world.EdgeKind(r.uint())}
		}
	}
	return m
}

func encodeLinkShard(recs []linkRecord) []byte {
	w := borrowWriter()
	defer w.release()
	w.uint(uint64(len(recs)))
	for _, rec := range recs {
		l := rec.Link
		w.str(rec.Path)
		w.str(l.Lang)
		w.str(l.Package)
		w.uint(uint64(len(l.Defs)))
		for _, d := range l.Defs {
			w.str(d.Name)
			w.str(d.Kind)
			w.str(d.Parent)
			w.bool(d.Exported)
			w.str(d.Returns)
		}
		w.imports(l.Imports)
		w.uint(uint64(len(l.Refs)))
		for _, rf := range l.Refs {
			w.str(rf.Name)
			w.str(rf.Qual)
			w.str(rf.Kind)
			w.uint(uint64(rf.Count))
		}
	}
	return w.bytes(shardFormatLink)
}

func decodeLinkShard(b []byte) ([]linkRecord, error) { return decodeLinks(b, linkAll) }

// decodeLinkShardInterfaces decodes a links shard without the references:
// what resolving another file reads of these (see package graph).
func decodeLinkShardInterfaces(b []byte) ([]linkRecord, error) {
	return decodeLinks(b, linkInterfaces)
}

// decodeLinkShardImports decodes a links shard's languages, packages and
// imports only: enough to tell which files read a folder.
func decodeLinkShardImports(b []byte) ([]linkRecord, error) { return decodeLinks(b, linkImports) }

// What decodeLinks decodes of each link.
const (
	linkAll        = iota
	linkInterfaces // no references
	linkImports    // no references, no definitions
)

// decodeLinks decodes what of every record.
func decodeLinks(b []byte, what int) ([]linkRecord, error) {
	r := newShardReader(b, shardFormatLink)
	n := r.count()
	recs := make([]linkRecord, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		p := r.str()
		l := &world.Link{Lang: r.str(), Package: r.str()}
		if nd := r.count(); what == linkImports {
			for j := 0; j < nd && r.err == nil; j++ {
				r.skip(3)
				r.bool()
				r.skip(1)
			}
		} else if nd > 0 {
			l.Defs = make([]world.LinkDef, nd)
			for j := range l.Defs {
				l.Defs[j] = world.LinkDef{Name: r.str(), Kind: r.str(), Parent: r.str(), Exported: r.bool(), Returns: r.str()}
			}
		}
		l.Imports = r.imports()
		if nr := r.count(); what != linkAll {
			for j := 0; j < nr && r.err == nil; j++ {
				r.skip(3)
				r.uint()
			}
		} else if nr > 0 {
			l.Refs = make([]world.LinkRef, nr)
			for j := range l.Refs {
				l.Refs[j] = world.LinkRef{Name: r.str(), Qual: r.str(), Kind: r.str(), Count: int(r.uint())}
			}
		}
		recs = append(recs, linkRecord{Path: p, Link: l})
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errShard
	}
	return recs, r.err
}

func (w *shardWriter) imports(imps []world.Import) {
	w.uint(uint64(len(imps)))
	for _, im := range imps {
		w.str(im.Path)
		w.str(im.Alias)
		w.uint(uint64(len(im.Names)))
		for _, n := range im.Names {
			w.str(n)
		}
		w.uint(uint64(im.Line))
		w.str(im.Kind)
	}
}

func (r *shardReader) imports() []world.Import {
	n := r.count()
	if n == 0 {
		return nil
	}
	imps := make([]world.Import, n)
	for i := range imps {
		im := world.Import{Path: r.str(), Alias: r.str()}
		if nn := r.count(); nn > 0 {
			im.Names = make([]string, nn)
			for k := range im.Names {
				im.Names[k] = r.str()
			}
		}
		im.Line = int(r.uint())
		im.Kind = r.str()
		imps[i] = im
	}
	return imps
}

// shardError names the artifact and shard a decode failed in.
func shardError(artifact, dir string, err error) error {
	return fmt.Errorf("%s shard %q: %w", artifact, dir, err)
}

// skip reads n string indexes without making the strings.
func (r *shardReader) skip(n int) {
	for k := 0; k < n && r.err == nil; k++ {
		r.index()
	}
}

// skipUses steps over a link's imports and references.
func (r *shardReader) skipUses() {
	r.skipImports()
	for nr := r.count(); nr > 0 && r.err == nil; nr-- {
		r.skip(3)
		r.uint()
	}
}

// skipImports steps over a link's imports.
func (r *shardReader) skipImports() {
	for ni := r.count(); ni > 0 && r.err == nil; ni-- {
		r.skip(2)
		r.skip(r.count())
		r.uint()
		r.skip(1)
	}
}

// skipDefs steps over a link's definitions.
func (r *shardReader) skipDefs() {
	for nd := r.count(); nd > 0 && r.err == nil; nd-- {
		r.skip(3)
		r.bool()
		r.skip(1)
	}
}

// decodeLinkUses decodes of a links shard what counting uses reads
// (World.UsesOf): for a path role calls a user, its references' names
// and counts; for one it calls used, its definitions' names and parents.
// It steps over everything else and over other records.
func decodeLinkUses(b []byte, role func(path string) (user, used bool)) ([]linkRecord, error) {
	r := newShardReader(b, shardFormatLink)
	n := r.count()
	var recs []linkRecord
	for i := 0; i < n && r.err == nil; i++ {
		p := r.str()
		user, used := role(p)
		r.skip(2) // language, package
		if !user && !used {
			r.skipDefs()
			r.skipUses()
			continue
		}
		l := &world.Link{}
		if !used {
			r.skipDefs()
		} else if nd := r.count(); nd > 0 {
			l.Defs = make([]world.LinkDef, nd)
			for j := range l.Defs {
				name := r.str()
				r.skip(1) // kind
				l.Defs[j] = world.LinkDef{Name: name, Parent: r.str()}
				r.bool()
				r.skip(1) // returns
			}
		}
		r.skipImports()
		if nr := r.count(); !user {
			for ; nr > 0 && r.err == nil; nr-- {
				r.skip(3)
				r.uint()
			}
		} else if nr > 0 {
			l.Refs = make([]world.LinkRef, nr)
			for j := range l.Refs {
				name := r.str()
				r.skip(2) // qualifier, kind
				l.Refs[j] = world.LinkRef{Name: name, Count: int(r.uint())}
			}
		}
		recs = append(recs, linkRecord{Path: p, Link: l})
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errShard
	}
	return recs, r.err
}
