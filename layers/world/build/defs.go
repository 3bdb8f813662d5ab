package build

import (
	"slices"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/layers/world"
)

// The defs artifact holds, per file with a link, its definitions' names
// and kinds, in the rows artifact's buckets: all the spec alignment reads
// of links (align.Align), which the first scope of every tree computes.
// Read from the links artifact it meant every folder's shard (kubernetes:
// 3,454 objects, 17 MB) for a tenth of their bytes.
//
// Full and whole-tree builds encode it from the links; an in-place
// update rewrites the buckets of the edited files whose definitions
// changed (patchDefs) and shares the rest.
const (
	artifactDefs    = "defs"
	shardFormatDefs = 1
)

func encodeDefShard(recs []linkRecord) []byte {
	w := borrowWriter()
	defer w.release()
	w.uint(uint64(len(recs)))
	for _, r := range recs {
		w.str(r.Path)
		w.uint(uint64(len(r.Link.Defs)))
		for _, d := range r.Link.Defs {
			w.str(d.Name)
			w.str(d.Kind)
		}
	}
	return w.bytes(shardFormatDefs)
}

// decodeDefShard reads a defs shard as links holding only their
// definitions' names and kinds.
func decodeDefShard(b []byte) ([]linkRecord, error) {
	r := newShardReader(b, shardFormatDefs)
	n := r.count()
	recs := make([]linkRecord, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		p := r.str()
		l := &world.Link{}
		if nd := r.count(); nd > 0 {
			l.Defs = make([]world.LinkDef, nd)
			for j := range l.Defs {
				l.Defs[j] = world.LinkDef{Name: r.str(), Kind: r.str()}
			}
		}
		recs = append(recs, linkRecord{Path: p, Link: l})
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errShard
	}
	return recs, r.err
}

// decodeDefShardWanted reads a defs shard keeping only the definitions
// whose names want keeps (asked once per name of the shard), and only the
// files left with one: what the spec alignment reads (align.Wants) is a
// small part of a large tree's definitions.
func decodeDefShardWanted(b []byte, want func(name string) bool) ([]linkRecord, error) {
	r := newShardReaderInPlace(b, shardFormatDefs) // b is read from the store
	verdict := make([]int8, len(r.ends))           // per string: 0 not asked yet, 1 kept, -1 not
	n := r.count()
	var recs []linkRecord
	for i := 0; i < n && r.err == nil; i++ {
		p := r.index()
		var l *world.Link
		for nd := r.count(); nd > 0 && r.err == nil; nd-- {
			name, kind := r.index(), r.index()
			if r.err != nil {
				break
			}
			if verdict[name] == 0 {
				verdict[name] = -1
				if want(r.strAt(name)) {
					verdict[name] = 1
				}
			}
			if verdict[name] > 0 {
				if l == nil {
					l = &world.Link{}
				}
				l.Defs = append(l.Defs, world.LinkDef{Name: r.strAt(name), Kind: r.strAt(kind)})
			}
		}
		if l != nil && r.err == nil {
			recs = append(recs, linkRecord{Path: r.strAt(p), Link: l})
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errShard
	}
	return recs, r.err
}

// defShards encodes the defs artifact of a whole tree from its links
// (sorted by path).
func defShards(links []linkRecord) map[string][]byte {
	return inBuckets(links, func(r *linkRecord) string { return r.Path }, encodeDefShard)
}

// patchDefs returns the buckets of the defs artifact of prev holding the
// edited files whose definitions changed, with their new definitions.
func patchDefs(st *gitstore.Store, prev, digest string, eds []*edited) (map[string][]byte, error) {
	fix := map[string]func(*linkRecord){}
	for _, ed := range eds {
		if ed.oldLink != nil && ed.f.link != nil && !slices.Equal(ed.oldLink.Defs, ed.f.link.Defs) {
			l := ed.f.link
			fix[ed.path] = func(r *linkRecord) { r.Link = l }
		}
	}
	if len(fix) == 0 {
		return nil, nil
	}
	return patchBuckets(st, prev, digest, artifactDefs, fix, decodeDefShard, encodeDefShard, func(r *linkRecord) string { return r.Path })
}
