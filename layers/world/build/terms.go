package build

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"
	"sync"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/terms"
)

// artifactTerms is a tree's inverted term index (package terms): a docs
// shard and one shard per term bucket, read by pack a few buckets at a
// time.
const artifactTerms = "terms"

// withTermVector calls fn with facts given their term vector, made from
// data at extraction time, and the hashes of its terms (for setTerms);
// the vector is dropped after the call (it is the term builder's: fn
// packs and encodes it).
func withTermVector(facts *world.Facts, data []byte, fn func(hashes []uint32)) {
	terms.With(facts, data, func(vec []world.Term, hashes []uint32) {
		facts.Terms = vec
		fn(hashes)
		facts.Terms = nil
	})
}

// plainTerms gives a text file without facts (a language without an
// extractor, prose, data) a term vector of its words, kept in the tree's
// term index only: binary, too large, vendored and generated files get
// none (kubernetes has tens of megabytes of generated code no request is
// answered by).
func plainTerms(f *file, data []byte) {
	if !wantsPlainTerms(f) {
		return
	}
	terms.With(&world.Facts{Lang: f.rec.Lang}, data, func(vec []world.Term, hashes []uint32) { setTerms(f, vec, hashes) })
}

// wantsPlainTerms reports whether plainTerms gives f a vector.
func wantsPlainTerms(f *file) bool {
	return !(f.rec.Has(world.FlagBinary) || f.rec.Has(world.FlagTooLarge) || f.rec.Has(world.FlagVendored) || f.rec.Has(world.FlagGenerated) ||
		f.rec.Has(world.FlagIgnored) || f.rec.Has(world.FlagSymlink) || f.rec.Has(world.FlagSubmodule))
}

// changedTerms drops from two sorted vectors the terms they share
// unchanged, whose postings an edit leaves as they are.
func changedTerms(old, new []world.Term) (o, n []world.Term) {
	i, j := 0, 0
	for i < len(old) || j < len(new) {
		switch {
		case j == len(new) || (i < len(old) && old[i].Text < new[j].Text):
			o = append(o, old[i])
			i++
		case i == len(old) || new[j].Text < old[i].Text:
			n = append(n, new[j])
			j++
		default:
			if old[i] != new[j] {
				o, n = append(o, old[i]), append(n, new[j])
			}
			i, j = i+1, j+1
		}
	}
	return o, n
}

// termTable interns the terms of index runs: a file's vector is held as
// varint term numbers, fields and counts (five bytes a term, most often)
// until the term index is encoded, several times smaller than strings on
// a large tree.
// The table lives while an index run holds it (holdTerms): a process
// that indexes kubernetes and goes on (the MCP server, a test) does not
// keep its 170 thousand terms.
var termTable = struct {
	sync.Mutex
	num   terms.Numbering // pointer-free: the collector does not scan it
	users int
}{}

// holdTerms keeps the term table until release; once no run holds it,
// its terms are dropped. A run releases it when none of its vectors is
// packed any longer.
func holdTerms() (release func()) {
	termTable.Lock()
	termTable.users++
	termTable.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			termTable.Lock()
			defer termTable.Unlock()
			if termTable.users--; termTable.users == 0 {
				termTable.num = terms.Numbering{}
			}
		})
	}
}

const maxPackedCount = terms.MaxRowCount

// setTerms packs f's vector as term numbers, fields and counts; hashes
// are its terms' hashes as terms.With gives them, or nil.
func setTerms(f *file, vec []world.Term, hashes []uint32) {
	sc := packScratch.Get().(*packing)
	// Only the numbering is under the lock; the packing is not.
	// (The numbering copies a new term's bytes: a vector's texts share
	// one string per file, which it must not keep alive.)
	termTable.Lock()
	sc.ids = termTable.num.NumberTerms(vec, hashes, sc.ids[:0])
	termTable.Unlock()
	buf := sc.buf[:0]
	for i, t := range vec {
		buf = binary.AppendUvarint(buf, uint64(sc.ids[i]))
		buf = append(buf, t.Fields)
		buf = binary.AppendUvarint(buf, uint64(min(t.Count, maxPackedCount)))
	}
	f.terms, f.nterms, f.haveTerms = bytes.Clone(buf), len(vec), true
	if cap(buf) <= 1<<20 {
		sc.buf = buf
		packScratch.Put(sc)
	}
}

// packing is setTerms' scratch: the numbers of a vector's terms, and the
// buffer it packs the vector in before copying it out at its size.
type packing struct {
	ids []uint32
	buf []byte
}

var packScratch = sync.Pool{New: func() any { return new(packing) }}

// unpack decodes a vector setTerms packed, as id<<32 | fields<<24 | count
// (terms.Interned.Row's form), appended to out.
func unpack(out []uint64, b []byte) []uint64 {
	for len(b) > 0 {
		id, n := binary.Uvarint(b)
		fields := b[n]
		c, m := binary.Uvarint(b[n+1:])
		b = b[n+1+m:]
		out = append(out, id<<32|uint64(fields)<<24|c)
	}
	return out
}

// packedVectors gives the term index encoder the rows' packed vectors,
// one row unpacked at a time (the encoder reads them in order).
type packedVectors struct {
	files []*file
	strs  []string
	at    int
	row   []uint64
}

func (v *packedVectors) get(i int) []uint64 {
	if v.at != i || v.row == nil {
		v.row, v.at = unpack(v.row[:0], v.files[i].terms), i
	}
	return v.row
}

func (v *packedVectors) Len() int          { return len(v.files) }
func (v *packedVectors) Path(i int) string { return v.files[i].rec.Path }
func (v *packedVectors) Terms(i int) int   { return v.files[i].nterms }
func (v *packedVectors) Term(i, k int) (string, uint8, uint32) {
	x := v.get(i)[k]
	return v.strs[x>>32], uint8(x >> 24), uint32(x & maxPackedCount)
}

// The vectors' terms are numbered by termTable (terms.Interned), and
// packed as Row gives them.
func (v *packedVectors) IDs() int                         { return len(v.strs) }
func (v *packedVectors) Row(i int, out []uint64) []uint64 { return unpack(out, v.files[i].terms) }
func (v *packedVectors) Text(id uint32) string            { return v.strs[id] }

func (r *shardReader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.err = errShard
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

// termShards encodes the terms artifact of a tree: every file with facts
// or plain text, and its vector. Vectors of rows carried over from the previous tree come
// from that tree's artifact (or, failing that, from their stored facts),
// so the bytes equal those of a full index of the same tree.
func termShards(st *gitstore.Store, files []*file, prev *previous, warn func(string)) (map[string][]byte, error) {
	var old map[string][]world.Term
	need := false
	for _, f := range files {
		if f.reused {
			need = true
			break
		}
	}
	if need && prev != nil {
		shards, err := st.Tree(prev.tree, treeDigestOf(prev), artifactTerms)
		if err == nil {
			paths, vecs, derr := terms.Decode(shards)
			if derr == nil {
				old = make(map[string][]world.Term, len(paths))
				// (decoded vectors are packed as they are taken)
				for i, p := range paths {
					old[p] = vecs[i]
				}
			} else {
				warn(fmt.Sprintf("term index of tree %s is unreadable (%v); reading the files' facts instead", short(prev.tree), derr))
			}
		}
	}
	var missing []*file
	for _, f := range files {
		if f.haveTerms || !f.reused {
			continue
		}
		if v, ok := old[f.rec.Path]; ok {
			setTerms(f, v, nil)
		} else if f.link != nil {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		keys := make([]string, len(missing))
		for i, f := range missing {
			keys[i] = f.rec.Key
		}
		stored, err := st.Facts(keys)
		if err != nil {
			return nil, err
		}
		for _, f := range missing {
			b, ok := stored[f.rec.Key]
			if !ok {
				return nil, fmt.Errorf("%s: facts %s missing from the store; run git speed index --force", f.rec.Path, short(f.rec.Key))
			}
			facts, err := decodeFacts(b)
			if err != nil {
				return nil, fmt.Errorf("%s: stored facts are corrupt (%v); run git speed index --force", f.rec.Path, err)
			}
			setTerms(f, facts.Terms, nil)
		}
	}
	var rows []*file
	for _, f := range files {
		if f.haveTerms {
			rows = append(rows, f)
		}
	}
	termTable.Lock()
	strs := termTable.num.Texts()
	termTable.Unlock()
	out := terms.EncodeFrom(&packedVectors{files: rows, strs: strs})
	for _, f := range rows {
		f.terms = nil
	}
	return out, nil
}

// treeDigestOf is the digest the previous tree was indexed under: the
// same as this run's, since only such trees are reused.
func treeDigestOf(p *previous) string { return p.digest }

// Terms reads the docs of the tree's term index and the postings of want.
func (w *World) Terms(want []string) (*terms.Index, error) {
	keys := map[string]bool{}
	wanted := map[string]bool{}
	for _, t := range want {
		keys[terms.Bucket(t)] = true
		wanted[t] = true
	}
	w.mu.Lock()
	docs := w.termDocs
	w.mu.Unlock()
	if docs == nil {
		keys[terms.DocsShard], keys[terms.LensShard] = true, true
	}
	list := make([]string, 0, len(keys))
	for k := range keys {
		list = append(list, k)
	}
	sort.Strings(list)
	shards, err := w.st.Shards(w.tree, w.digest, artifactTerms, list)
	if err != nil {
		return nil, fmt.Errorf("term index of tree %s: %w; run git speed index --force", short(w.tree), err)
	}
	if docs == nil {
		if docs, err = terms.DecodeDocs(shards); err != nil {
			return nil, fmt.Errorf("term index of tree %s: %w; run git speed index --force", short(w.tree), err)
		}
		w.mu.Lock()
		w.termDocs = docs
		w.mu.Unlock()
	}
	ix := &terms.Index{Docs: docs, Postings: map[string][]terms.Posting{}}
	for _, k := range list {
		if k == terms.DocsShard || k == terms.LensShard {
			continue
		}
		b, ok := shards[k]
		if !ok {
			continue // no term of the tree falls in this bucket
		}
		post, err := terms.DecodeBucket(b, len(docs), func(t string) bool { return wanted[t] })
		if err != nil {
			return nil, fmt.Errorf("term index of tree %s, bucket %s: %w; run git speed index --force", short(w.tree), k, err)
		}
		for t, ps := range post {
			ix.Postings[t] = ps
		}
	}
	return ix, nil
}

// patchTerms gives the shards of the terms artifact that change when the
// edited files keep their paths and get new content: the docs shard (their
// lengths) and the buckets of their old and new terms. ok is false when
// the patch cannot say the same as a full index would (a file joins or
// leaves the index, a bucket empties); the caller then indexes the tree.
func patchTerms(repo *gitstore.Repo, st *gitstore.Store, prev, digest string, cfg *config.Config, eds []*edited) (map[string][]byte, bool) {
	red, err := cfg.Redactor()
	if err != nil {
		return nil, false
	}
	sh, err := st.Shards(prev, digest, artifactTerms, []string{terms.DocsShard, terms.LensShard})
	if err != nil {
		return nil, false
	}
	// The edited files' places in the docs shard, found without making
	// every path, and their new lengths written into the lens shard.
	paths := make([]string, len(eds))
	for k, ed := range eds {
		paths[k] = ed.path
	}
	oldLens := sh[terms.LensShard]
	ndocs, at, err := terms.FindDocs(sh[terms.DocsShard], paths)
	if err != nil {
		return nil, false
	}
	lens := map[int]uint32{}
	type change struct {
		doc      uint32
		old, new []world.Term
	}
	var changes []change
	buckets := map[string]bool{}
	var blobs gitstore.BlobReader
	defer func() {
		if blobs != nil {
			blobs.Close()
		}
	}()
	for k, ed := range eds {
		i := at[k]
		in := i >= 0
		if in != ed.f.haveTerms {
			return nil, false
		}
		if !in {
			continue
		}
		c := change{doc: uint32(i), new: unpackTerms(ed.f.terms)}
		if ed.old.Key != "" {
			got, err := st.Facts([]string{ed.old.Key})
			if err != nil || got[ed.old.Key] == nil {
				return nil, false
			}
			f, err := decodeFacts(got[ed.old.Key])
			if err != nil {
				return nil, false
			}
			c.old = f.Terms
		} else {
			if blobs == nil {
				if blobs, err = repo.Blobs(); err != nil {
					return nil, false
				}
			}
			data, err := blobs.Read(ed.old.Blob, 0)
			if err != nil {
				return nil, false
			}
			clean, _ := red.Bytes(ed.path, data) // as plainTerms took them
			c.old = terms.Of(&world.Facts{Lang: ed.old.Lang}, clean)
		}
		// Only the terms whose posting changes move: an edit of a few
		// lines of a large file touches a few buckets, not thousands.
		lens[i] = terms.Length(c.new)
		c.old, c.new = changedTerms(c.old, c.new)
		for _, t := range c.old {
			buckets[terms.Bucket(t.Text)] = true
		}
		for _, t := range c.new {
			buckets[terms.Bucket(t.Text)] = true
		}
		changes = append(changes, c)
	}
	keys := make([]string, 0, len(buckets))
	for b := range buckets {
		keys = append(keys, b)
	}
	sort.Strings(keys)
	sh, err = st.Shards(prev, digest, artifactTerms, keys)
	if err != nil {
		return nil, false
	}
	post := map[string]map[string][]terms.Posting{}
	for _, k := range keys {
		post[k] = map[string][]terms.Posting{}
		if b, ok := sh[k]; ok {
			if post[k], err = terms.DecodeBucket(b, ndocs, nil); err != nil {
				return nil, false
			}
		}
	}
	for _, c := range changes {
		for _, t := range c.old {
			m := post[terms.Bucket(t.Text)]
			ps := m[t.Text]
			j := sort.Search(len(ps), func(j int) bool { return ps[j].Doc >= c.doc })
			if j < len(ps) && ps[j].Doc == c.doc {
				ps = append(ps[:j:j], ps[j+1:]...)
			}
			if len(ps) == 0 {
				delete(m, t.Text)
			} else {
				m[t.Text] = ps
			}
		}
		for _, t := range c.new {
			m := post[terms.Bucket(t.Text)]
			ps := m[t.Text]
			j := sort.Search(len(ps), func(j int) bool { return ps[j].Doc >= c.doc })
			ps = append(ps[:j:j], append([]terms.Posting{{Doc: c.doc, Fields: t.Fields, Count: t.Count}}, ps[j:]...)...)
			m[t.Text] = ps
		}
	}
	lensShard, err := terms.SetLens(oldLens, lens)
	if err != nil {
		return nil, false
	}
	out := map[string][]byte{terms.LensShard: lensShard}
	for _, k := range keys {
		if len(post[k]) == 0 {
			return nil, false // a shard would go: a whole index drops it
		}
		out[k] = terms.EncodeBucket(post[k])
	}
	return out, true
}

// unpackTerms turns a packed vector back into terms.
func unpackTerms(b []byte) []world.Term {
	packed := unpack(nil, b)
	termTable.Lock()
	defer termTable.Unlock()
	out := make([]world.Term, len(packed))
	for i, x := range packed {
		out[i] = world.Term{Text: termTable.num.Text(uint32(x >> 32)), Fields: uint8(x >> 24), Count: uint32(x & maxPackedCount)}
	}
	return out
}
