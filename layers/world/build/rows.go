package build

import (
	"fmt"
	"hash/fnv"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/layers/world"
)

// The rows artifact is the whole project map again, for the commands that
// read all of it (scope, map, graph): the map artifact has one shard per
// folder (kubernetes: 4,609) so that an update rewrites few of them, but
// reading thousands of small objects back cost a scope or a map most of
// its time. Rows keeps the same records in rowBuckets shards, a folder's
// rows all in the bucket its name hashes to, each row with the number of
// its link's definitions, which is all the repo map's ranking needs of
// the links until it has picked the files it shows (World.Defs).
//
// A bucket depends only on the records of the paths hashed to it, so a
// full build, a whole-tree update and an in-place update store the same
// bytes (TestIncrementalStoresWhatFullDoes); an in-place update rewrites
// the buckets of the edited files' folders only (patchRows).
const (
	artifactRows    = "rows"
	rowBuckets      = 64
	shardFormatRows = 2
)

// rowRecord is one row of the rows artifact: a map record and the number
// of definitions of the file's link, -1 for a file without a link.
type rowRecord struct {
	mapRecord
	defs int
}

// rowBucket names the bucket of path p's folder.
func rowBucket(p string) string { return folderBucket(shardOf(p)) }

// folderBucket names the bucket of a folder ("" for the top).
func folderBucket(dir string) string {
	h := fnv.New32a()
	h.Write([]byte(dir))
	return fmt.Sprintf("%02x", h.Sum32()%rowBuckets)
}

// putRows stores the rows and defs artifacts of a whole tree (recs
// parallel to files, links of the files that have one, all sorted by
// path). After a previous tree, only the buckets holding a changed folder
// or a file whose out-edges changed are encoded, and the others are the
// previous tree's, shared: a whole-tree update encodes what changed.
func putRows(txn *gitstore.Txn, tree, digest string, files []*file, recs []mapRecord, links []linkRecord, prev *previous) {
	if prev == nil {
		txn.PutTree(tree, digest, artifactRows, rowShards(files, recs))
		txn.PutTree(tree, digest, artifactDefs, defShards(links))
		return
	}
	dirtyRows, dirtyDefs := map[string]bool{}, map[string]bool{}
	for d := range prev.dirty {
		dirtyRows[folderBucket(d)] = true
		dirtyDefs[folderBucket(d)] = true
	}
	for i, f := range files {
		if !f.reused || !sameEdges(recs[i].Out, f.prevOut) {
			dirtyRows[rowBucket(recs[i].Path)] = true
		}
	}
	var rows []rowRecord
	for i := range recs {
		if dirtyRows[rowBucket(recs[i].Path)] {
			rows = append(rows, rowRecord{mapRecord: recs[i], defs: linkDefs(files[i].link)})
		}
	}
	var defs []linkRecord
	for _, l := range links {
		if dirtyDefs[rowBucket(l.Path)] {
			defs = append(defs, l)
		}
	}
	rowSh, defSh := encodeRows(rows), defShards(defs)
	// A bucket left empty must go, which a patch cannot do: then the
	// whole artifact is encoded.
	if len(rowSh) < len(dirtyRows) {
		rowSh = rowShards(files, recs)
		txn.PutTree(tree, digest, artifactRows, rowSh)
	} else {
		txn.PatchTree(tree, digest, artifactRows, prev.tree, prev.digest, rowSh)
	}
	if len(defSh) < len(dirtyDefs) {
		txn.PutTree(tree, digest, artifactDefs, defShards(links))
	} else {
		txn.PatchTree(tree, digest, artifactDefs, prev.tree, prev.digest, defSh)
	}
}

// linkDefs is what a row stores of a file's link.
func linkDefs(l *world.Link) int {
	if l == nil {
		return -1
	}
	return len(l.Defs)
}

func encodeRowShard(rows []rowRecord) []byte {
	w := borrowWriter()
	defer w.release()
	w.uint(uint64(len(rows)))
	for i := range rows {
		w.mapRecord(&rows[i].mapRecord)
		w.uint(uint64(rows[i].defs + 1))
	}
	return w.bytes(shardFormatRows)
}

func decodeRowShard(b []byte) ([]rowRecord, error) {
	return readRows(newShardReader(b, shardFormatRows))
}

// decodeRowShardInPlace is decodeRowShard of bytes read from the store,
// its strings pointing into them (newShardReaderInPlace).
func decodeRowShardInPlace(b []byte) ([]rowRecord, error) {
	return readRows(newShardReaderInPlace(b, shardFormatRows))
}

func readRows(r *shardReader) ([]rowRecord, error) {
	n := r.count()
	rows := make([]rowRecord, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		m := r.mapRecord()
		rows = append(rows, rowRecord{mapRecord: m, defs: int(r.uint()) - 1})
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errShard
	}
	return rows, r.err
}

// encodeRows groups rows (sorted by path) into their buckets.
func encodeRows(rows []rowRecord) map[string][]byte {
	return inBuckets(rows, func(r *rowRecord) string { return r.Path }, encodeRowShard)
}

// inBuckets groups records (sorted by path) by the bucket of their
// folder and encodes each group.
func inBuckets[T any](recs []T, pathOf func(*T) string, encode func([]T) []byte) map[string][]byte {
	return encodeGroups(groupBy(recs, func(r *T) string { return rowBucket(pathOf(r)) }), encode)
}

// rowShards encodes the rows artifact of a whole tree: recs parallel to
// files, sorted by path.
func rowShards(files []*file, recs []mapRecord) map[string][]byte {
	rows := make([]rowRecord, len(recs))
	for i := range recs {
		rows[i] = rowRecord{mapRecord: recs[i], defs: linkDefs(files[i].link)}
	}
	return encodeRows(rows)
}

// patchRows returns the buckets of the rows artifact of prev that hold
// the paths of fix, each of those rows changed by its function.
func patchRows(st *gitstore.Store, prev, digest string, fix map[string]func(*rowRecord)) (map[string][]byte, error) {
	return patchBuckets(st, prev, digest, artifactRows, fix, decodeRowShard, encodeRowShard, func(r *rowRecord) string { return r.Path })
}

// patchBuckets rewrites the buckets of an artifact in the rows' buckets
// (rows, defs) that hold the paths of fix, each record of those paths
// changed by its function; every path must have a record.
func patchBuckets[T any](st *gitstore.Store, prev, digest, artifact string, fix map[string]func(*T), decode func([]byte) ([]T, error), encode func([]T) []byte, pathOf func(*T) string) (map[string][]byte, error) {
	var keys []string
	for p := range fix {
		keys = append(keys, rowBucket(p))
	}
	sh, err := st.Shards(prev, digest, artifact, keys)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	found := 0
	for key, b := range sh {
		recs, err := decode(b)
		if err != nil {
			return nil, shardError(artifact, key, err)
		}
		for k := range recs {
			if f := fix[pathOf(&recs[k])]; f != nil {
				f(&recs[k])
				found++
			}
		}
		out[key] = encode(recs)
	}
	if found != len(fix) {
		return nil, fmt.Errorf("the %s artifact of tree %s lacks %d of the %d paths to patch", artifact, short(prev), len(fix)-found, len(fix))
	}
	return out, nil
}

// decodeRows decodes every bucket of the rows artifact, as read from the
// store (their strings point into them): the records sorted by path, and
// their links' definition counts apart.
func decodeRows(shards map[string][]byte) ([]rowRecord, []int, error) {
	rows, err := decodeAll(artifactRows, shards, decodeRowShardInPlace, func(r *rowRecord) string { return r.Path })
	if err != nil {
		return nil, nil, err
	}
	defs := make([]int, len(rows))
	for i := range rows {
		defs[i] = rows[i].defs
	}
	return rows, defs, nil
}
