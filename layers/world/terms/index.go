package terms

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/git-speed/git-speed/layers/world"
)

// A tree's term index is stored as shards: DocsShard lists the files (by
// path, with their lengths), and one shard per term bucket (Bucket, 4096
// of them) holds
// the postings of the terms that hash there. A query reads the docs shard
// and the buckets of its terms only, never every file's facts. The bytes
// depend only on the tree's files and their vectors, so a full and an
// incremental index store the same shards.
//
//	docs:   magic 'D', IndexFormat, uvarint n, n × (uvarint shared prefix,
//	        uvarint suffix length, suffix bytes)
//	lens:   magic 'L', IndexFormat, uvarint n, n × uvarint length
//	        (apart from the paths: an edit changes lengths, not paths)
//	bucket: magic 'B', IndexFormat, uvarint terms, per term (sorted):
//	        uvarint length, bytes, uvarint postings, uvarint block bytes,
//	        block of postings (uvarint doc delta, field byte, uvarint count)
const (
	IndexFormat = 1
	DocsShard   = "docs"
	LensShard   = "lens"
	Buckets     = 4096
)

var errIndex = errors.New("malformed term index shard")

// Doc is one file of a tree's term index.
type Doc struct {
	Path string
	Len  uint32 // words of its text (sum of content counts)
}

// Posting is one file's occurrence of a term.
type Posting struct {
	Doc    uint32 // index into the docs shard
	Fields uint8
	Count  uint32
}

// Index is the part of a tree's term index one query needs: every file
// (path and length) and the postings of the query's terms.
type Index struct {
	Docs     []Doc
	Postings map[string][]Posting
}

// Bucket is the shard key of a term: 12 bits of its FNV-1a hash as
// "h/hh" (16 folders of 256 shards). Many small buckets keep an update of
// a few files to the postings of their own terms: a file's few hundred
// terms touch a few hundred small shards, not every posting of the tree.
func Bucket(t string) string { return bucketName(bucketOf(t)) }

// bucketOf is the number of t's bucket: its FNV-1a hash modulo Buckets.
func bucketOf(t string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(t); i++ {
		h ^= uint32(t[i])
		h *= 16777619
	}
	return h % Buckets
}

func bucketName(v uint32) string { return fmt.Sprintf("%x/%02x", v>>8, v&0xff) }

// Length is a file's length for BM25: the sum of its term counts.
func Length(vec []world.Term) uint32 {
	var n uint32
	for _, t := range vec {
		n += t.Count
	}
	return n
}

// Vectors is a tree's files and their term vectors, as Encode reads them:
// rows sorted by path, each vector sorted by term.
type Vectors interface {
	Len() int
	Path(i int) string
	Terms(i int) int
	Term(i, k int) (text string, fields uint8, count uint32)
}

type sliceVectors struct {
	paths []string
	vecs  [][]world.Term
}

func (v sliceVectors) Len() int          { return len(v.paths) }
func (v sliceVectors) Path(i int) string { return v.paths[i] }
func (v sliceVectors) Terms(i int) int   { return len(v.vecs[i]) }
func (v sliceVectors) Term(i, k int) (string, uint8, uint32) {
	t := v.vecs[i][k]
	return t.Text, t.Fields, t.Count
}

// Encode makes the shards of a tree's term index; paths are sorted and
// vecs is parallel to them.
func Encode(paths []string, vecs [][]world.Term) map[string][]byte {
	return EncodeFrom(sliceVectors{paths, vecs})
}

// Interned is Vectors whose terms are numbered 0 to IDs()-1: the term
// index is then built in arrays indexed by number, without a map keyed by
// every term of the tree.
type Interned interface {
	Vectors
	IDs() int
	// Row appends to out the terms of vector i, in order, each as
	// id<<32 | fields<<24 | count: the number of its text, its fields
	// and its count (at most MaxRowCount). The encoder reads a vector
	// in one call, not three a term.
	Row(i int, out []uint64) []uint64
	// Text is the text numbered id; the encoder calls it from several
	// goroutines at once.
	Text(id uint32) string
}

// MaxRowCount is the largest count Interned.Row holds.
const MaxRowCount = 1<<24 - 1

// EncodeFrom makes the shards of a tree's term index from v.
func EncodeFrom(v Vectors) map[string][]byte {
	if iv, ok := v.(Interned); ok {
		return encodeInterned(iv)
	}
	out := map[string][]byte{}
	// Postings of all terms share one array, sized by a first pass.
	df := map[string]int{}
	total := 0
	for i := 0; i < v.Len(); i++ {
		for k := 0; k < v.Terms(i); k++ {
			t, _, _ := v.Term(i, k)
			df[t]++
			total++
		}
	}
	all := make([]Posting, total)
	post := make(map[string][]Posting, len(df))
	at := 0
	for t, n := range df {
		post[t] = all[at : at : at+n]
		at += n
	}
	df = nil
	docs := make([]Doc, v.Len())
	for i := range docs {
		docs[i].Path = v.Path(i)
		for k := 0; k < v.Terms(i); k++ {
			t, f, c := v.Term(i, k)
			docs[i].Len += c
			post[t] = append(post[t], Posting{Doc: uint32(i), Fields: f, Count: c})
		}
	}
	for k, b := range EncodeDocs(docs) {
		out[k] = b
	}

	byBucket := map[uint32][]string{}
	for t := range post {
		b := bucketOf(t)
		byBucket[b] = append(byBucket[b], t)
	}
	for b, ts := range byBucket {
		out[bucketName(b)] = encodeBucket(ts, post)
	}
	return out
}

// encodeInterned is EncodeFrom for numbered terms: the same shards.
func encodeInterned(v Interned) map[string][]byte {
	// Postings of all terms share one array: term id's are
	// all[start[id]:start[id+1]], filled in doc order.
	n := v.IDs()
	start := make([]int, n+1)
	var row []uint64
	for i := 0; i < v.Len(); i++ {
		row = v.Row(i, row[:0])
		for _, x := range row {
			start[x>>32+1]++
		}
	}
	for id := 0; id < n; id++ {
		start[id+1] += start[id]
	}
	all := make([]Posting, start[n])
	fill := slices.Clone(start[:n])
	docs := make([]Doc, v.Len())
	for i := range docs {
		docs[i].Path = v.Path(i)
		row = v.Row(i, row[:0])
		for _, x := range row {
			id, c := x>>32, uint32(x&MaxRowCount)
			docs[i].Len += c
			all[fill[id]] = Posting{Doc: uint32(i), Fields: uint8(x >> 24), Count: c}
			fill[id]++
		}
	}
	fill = nil
	out := EncodeDocs(docs)
	var byBucket [Buckets][]uint32
	for id := 0; id < n; id++ {
		if start[id+1] > start[id] {
			b := bucketOf(v.Text(uint32(id)))
			byBucket[b] = append(byBucket[b], uint32(id))
		}
	}
	// The buckets are sorted and encoded on all cores (a tree's index is
	// the serial part of a build's tail: 0.2 s on kubernetes with a core
	// idle), each into its own slot, so the shards do not depend on the
	// schedule.
	var enc [Buckets][]byte
	var next atomic.Int32
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var ts []string
			var ps [][]Posting
			for {
				b := int(next.Add(1) - 1)
				if b >= Buckets {
					return
				}
				ids := byBucket[b]
				if len(ids) == 0 {
					continue
				}
				slices.SortFunc(ids, func(x, y uint32) int { return strings.Compare(v.Text(x), v.Text(y)) })
				ts, ps = ts[:0], ps[:0]
				for _, id := range ids {
					ts = append(ts, v.Text(id))
					ps = append(ps, all[start[id]:start[id+1]])
				}
				enc[b] = appendBucket(ts, ps)
			}
		})
	}
	wg.Wait()
	for b, shard := range enc {
		if shard != nil {
			out[bucketName(uint32(b))] = shard
		}
	}
	return out
}

// EncodeBucket encodes one bucket shard holding the postings of post
// (each sorted by doc), as Encode does.
func EncodeBucket(post map[string][]Posting) []byte {
	ts := make([]string, 0, len(post))
	for t := range post {
		ts = append(ts, t)
	}
	return encodeBucket(ts, post)
}

func encodeBucket(ts []string, post map[string][]Posting) []byte {
	sort.Strings(ts)
	ps := make([][]Posting, len(ts))
	for i, t := range ts {
		ps[i] = post[t]
	}
	return appendBucket(ts, ps)
}

// appendBucket encodes a bucket of the sorted terms ts with their
// postings ps.
func appendBucket(ts []string, post [][]Posting) []byte {
	buf := []byte{'B', IndexFormat}
	buf = binary.AppendUvarint(buf, uint64(len(ts)))
	var block []byte
	for i, t := range ts {
		ps := post[i]
		buf = binary.AppendUvarint(buf, uint64(len(t)))
		buf = append(buf, t...)
		buf = binary.AppendUvarint(buf, uint64(len(ps)))
		block = block[:0]
		last := uint32(0)
		for _, p := range ps {
			block = binary.AppendUvarint(block, uint64(p.Doc-last))
			last = p.Doc
			block = append(block, p.Fields)
			block = binary.AppendUvarint(block, uint64(p.Count))
		}
		buf = binary.AppendUvarint(buf, uint64(len(block)))
		buf = append(buf, block...)
	}
	return buf
}

// EncodeDocs encodes the docs and lens shards, as Encode does.
func EncodeDocs(docs []Doc) map[string][]byte {
	paths := []byte{'D', IndexFormat}
	paths = binary.AppendUvarint(paths, uint64(len(docs)))
	lens := []byte{'L', IndexFormat}
	lens = binary.AppendUvarint(lens, uint64(len(docs)))
	prev := ""
	for _, d := range docs {
		p := d.Path
		n := 0
		for n < len(p) && n < len(prev) && p[n] == prev[n] {
			n++
		}
		paths = binary.AppendUvarint(paths, uint64(n))
		paths = binary.AppendUvarint(paths, uint64(len(p)-n))
		paths = append(paths, p[n:]...)
		lens = binary.AppendUvarint(lens, uint64(d.Len))
		prev = p
	}
	return map[string][]byte{DocsShard: paths, LensShard: lens}
}

type reader struct {
	b   []byte
	err error
}

func (r *reader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errIndex
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) take(n uint64) []byte {
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.err = errIndex
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) byte() byte {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func header(b []byte, magic byte) (*reader, error) {
	if len(b) < 2 || b[0] != magic || b[1] != IndexFormat {
		return nil, errIndex
	}
	return &reader{b: b[2:]}, nil
}

// DecodeDocs reads the docs and lens shards.
func DecodeDocs(shards map[string][]byte) ([]Doc, error) {
	r, err := header(shards[DocsShard], 'D')
	if err != nil {
		return nil, err
	}
	l, err := header(shards[LensShard], 'L')
	if err != nil {
		return nil, err
	}
	n := r.uint()
	if n > uint64(len(r.b)) || l.uint() != n {
		return nil, errIndex
	}
	docs := make([]Doc, 0, n)
	prev := ""
	for i := uint64(0); i < n && r.err == nil && l.err == nil; i++ {
		shared := r.uint()
		if shared > uint64(len(prev)) {
			return nil, errIndex
		}
		suffix := r.take(r.uint())
		p := prev[:shared] + string(suffix)
		docs = append(docs, Doc{Path: p, Len: uint32(l.uint())})
		prev = p
	}
	if r.err == nil && (len(r.b) != 0 || len(l.b) != 0) {
		r.err = errIndex
	}
	if r.err == nil {
		r.err = l.err
	}
	return docs, r.err
}

// FindDocs returns the number of files of a docs shard and the position
// of each of paths in it (-1 when absent), without making every path: an
// in-place update looks up its few files in a list of tens of thousands.
func FindDocs(docs []byte, paths []string) (int, []int, error) {
	r, err := header(docs, 'D')
	if err != nil {
		return 0, nil, err
	}
	n := r.uint()
	if n > uint64(len(r.b)) {
		return 0, nil, errIndex
	}
	at := make([]int, len(paths))
	for k := range at {
		at[k] = -1
	}
	var cur []byte
	for i := uint64(0); i < n && r.err == nil; i++ {
		shared := r.uint()
		if shared > uint64(len(cur)) {
			return 0, nil, errIndex
		}
		cur = append(cur[:shared], r.take(r.uint())...)
		for k, p := range paths {
			if at[k] < 0 && p == string(cur) {
				at[k] = int(i)
			}
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errIndex
	}
	return int(n), at, r.err
}

// SetLens returns the lens shard with the lengths of the files at the
// positions of set changed (what EncodeDocs would write for them).
func SetLens(lens []byte, set map[int]uint32) ([]byte, error) {
	l, err := header(lens, 'L')
	if err != nil {
		return nil, err
	}
	n := l.uint()
	if n > uint64(len(l.b)) {
		return nil, errIndex
	}
	out := make([]byte, 0, len(lens)+4*len(set))
	out = binary.AppendUvarint(append(out, 'L', IndexFormat), n)
	for i := 0; i < int(n) && l.err == nil; i++ {
		v := uint32(l.uint()) // as DecodeDocs reads it
		if w, ok := set[i]; ok {
			v = w
		}
		out = binary.AppendUvarint(out, uint64(v))
	}
	if l.err == nil && len(l.b) != 0 {
		l.err = errIndex
	}
	return out, l.err
}

// DecodeBucket reads the postings of the terms of one bucket shard that
// want accepts (all of them when want is nil). ndocs bounds doc indexes.
func DecodeBucket(b []byte, ndocs int, want func(term string) bool) (map[string][]Posting, error) {
	r, err := header(b, 'B')
	if err != nil {
		return nil, err
	}
	n := r.uint()
	out := map[string][]Posting{}
	for i := uint64(0); i < n && r.err == nil; i++ {
		t := string(r.take(r.uint()))
		np := r.uint()
		block := r.take(r.uint())
		if r.err != nil {
			break
		}
		if want != nil && !want(t) {
			continue
		}
		if np > uint64(len(block)) {
			return nil, errIndex
		}
		br := &reader{b: block}
		ps := make([]Posting, 0, np)
		doc := uint64(0)
		for j := uint64(0); j < np && br.err == nil; j++ {
			doc += br.uint()
			p := Posting{Doc: uint32(doc), Fields: br.byte(), Count: uint32(br.uint())}
			if doc >= uint64(ndocs) {
				return nil, errIndex
			}
			ps = append(ps, p)
		}
		if br.err != nil || len(br.b) != 0 {
			return nil, errIndex
		}
		out[t] = ps
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errIndex
	}
	if r.err != nil {
		return nil, r.err
	}
	return out, nil
}

// Decode reads a whole term index back into paths and vectors, the
// inverse of Encode (used to carry unchanged files into a new tree).
func Decode(shards map[string][]byte) (paths []string, vecs [][]world.Term, err error) {
	docs, err := DecodeDocs(shards)
	if err != nil {
		return nil, nil, fmt.Errorf("term index: files: %w", err)
	}
	vecs = make([][]world.Term, len(docs))
	keys := make([]string, 0, len(shards))
	for k := range shards {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == DocsShard || k == LensShard {
			continue
		}
		post, err := DecodeBucket(shards[k], len(docs), nil)
		if err != nil {
			return nil, nil, fmt.Errorf("term index: bucket %s: %w", k, err)
		}
		for t, ps := range post {
			for _, p := range ps {
				vecs[p.Doc] = append(vecs[p.Doc], world.Term{Text: t, Fields: p.Fields, Count: p.Count})
			}
		}
	}
	paths = make([]string, len(docs))
	for i, d := range docs {
		paths[i] = d.Path
		sort.Slice(vecs[i], func(a, b int) bool { return vecs[i][a].Text < vecs[i][b].Text })
	}
	return paths, vecs, nil
}
