package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// The layout of the store and its update protocol are described in doc.go.

const (
	// IndexRef is the ref that holds the store.
	IndexRef = "refs/speed/index"
	// CorruptRefPrefix: Reset keeps a damaged store reachable under
	// refs/speed/corrupt-<n> (delete with `git update-ref -d`).
	CorruptRefPrefix = "refs/speed/corrupt-"

	// FormatVersion is the store layout version, written to the format blob.
	//  1: facts/, trees/<t>-<digest>/<artifact>/<escaped key>/@, meta, seq
	FormatVersion = 1

	maxCommitAttempts = 50
)

var formatBlob = []byte("git-speed store " + strconv.Itoa(FormatVersion) + "\n")

// ErrCorrupt means refs/speed/index holds something that is not a store this
// version can read (not a commit, a foreign tree layout, a missing or
// unreadable object). The caller should rebuild: Reset, then index again.
var ErrCorrupt = errors.New("git-speed store is corrupt")

// ErrNotFound means the store has no such artifact.
var ErrNotFound = errors.New("not in the git-speed store")

// Store is the git-speed store of a repository. It is safe for concurrent
// use, also across processes.
type Store struct {
	r *Repo
	// pinned, when set, is the tip Facts reads instead of reading
	// refs/speed/index again on every call (Pin).
	pinned *snapshot
	// pinnedEmpty is set while the store is pinned with nothing in it:
	// Facts then answers without taking r.mu, which a write holds while
	// it compresses (a first build's workers, each looking up a file's
	// facts, waited 0.8 s in all for their batches of new facts).
	pinnedEmpty atomic.Bool
}

// Store returns the repository's store. Nothing is read until it is used.
func (r *Repo) Store() *Store { return &Store{r: r} }

// TreeInfo describes one indexed tree.
type TreeInfo struct {
	Tree      string    // tree id
	Digest    string    // the caller's config digest
	Seq       int64     // store generation when last put; higher is newer
	Added     time.Time // wall-clock time of the last put (informational)
	Artifacts []string  // artifact names, sorted
	// Snapshot: the tree is a work-tree snapshot that no commit reaches
	// (see Txn.KeepSource).
	Snapshot bool
}

// snapshotEntry marks the per-tree folder of a work-tree snapshot.
const snapshotEntry = "snapshot"

// GCStats reports what GC kept and dropped.
type GCStats struct {
	TreesKept, TreesDropped int
	FactsKept, FactsDropped int
}

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

// snapshot is the state of the store at one tip.
type snapshot struct {
	commit plumbing.Hash // zero when the ref does not exist
	root   plumbing.Hash // zero when the store is empty
	seq    int64
}

// tip reads refs/speed/index and checks the layout. Caller holds r.mu.
func (s *Store) tip() (snapshot, error) {
	var snap snapshot
	ref, err := s.r.storage.Reference(plumbing.ReferenceName(IndexRef))
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return snap, nil
	}
	if err != nil {
		return snap, corrupt("read %s: %v", IndexRef, err)
	}
	if ref.Type() != plumbing.HashReference {
		return snap, corrupt("%s is a symbolic ref", IndexRef)
	}
	snap.commit = ref.Hash()
	if c := s.r.cache; c != nil && c.snap.commit == snap.commit {
		return c.snap, nil
	}
	s.r.cache = nil
	data, err := s.r.readObject(plumbing.CommitObject, snap.commit)
	if err != nil {
		return snap, corrupt("%s points at %s: %v", IndexRef, snap.commit, err)
	}
	if !bytes.HasPrefix(data, []byte("tree ")) || len(data) < 45 {
		return snap, corrupt("%s: commit %s is malformed", IndexRef, snap.commit)
	}
	snap.root = plumbing.NewHash(string(data[5:45]))
	root, err := s.r.readTree(snap.root)
	if err != nil {
		return snap, corrupt("%s: tree of commit %s: %v", IndexRef, snap.commit, err)
	}
	var format, seq *treeEntry
	for i := range root {
		e := &root[i]
		want := ModeFile
		switch e.name {
		case "format":
			format = e
		case "seq":
			seq = e
		case "facts", "trees":
			want = ModeTree
		default:
			return snap, corrupt("%s: unexpected entry %q at the root of commit %s", IndexRef, e.name, snap.commit)
		}
		if e.mode != want {
			return snap, corrupt("%s: root entry %q of commit %s has mode %o", IndexRef, e.name, snap.commit, e.mode)
		}
	}
	if format == nil || format.mode != ModeFile {
		return snap, corrupt("%s: commit %s is not a git-speed store (no format marker)", IndexRef, snap.commit)
	}
	fdata, err := s.r.readObject(plumbing.BlobObject, format.hash)
	if err != nil {
		return snap, corrupt("%s: format marker: %v", IndexRef, err)
	}
	if !bytes.Equal(fdata, formatBlob) {
		return snap, corrupt("%s: store format %q, this git-speed reads %q", IndexRef, strings.TrimSpace(string(fdata)), strings.TrimSpace(string(formatBlob)))
	}
	if seq != nil {
		sdata, err := s.r.readObject(plumbing.BlobObject, seq.hash)
		if err != nil {
			return snap, corrupt("%s: seq: %v", IndexRef, err)
		}
		if snap.seq, err = strconv.ParseInt(strings.TrimSpace(string(sdata)), 10, 64); err != nil {
			return snap, corrupt("%s: seq %q is not a number", IndexRef, sdata)
		}
	}
	s.r.cache = &storeCache{snap: snap, factsShards: nil, shardEntries: map[string]map[string]plumbing.Hash{}}
	return snap, nil
}

// storeCache remembers the decoded top of the store at one tip, so that
// asking for one facts entry at a time stays cheap (BenchmarkFactsOne). It
// is dropped as soon as refs/speed/index moves. Guarded by r.mu.
type storeCache struct {
	snap         snapshot
	factsShards  map[string]plumbing.Hash            // facts/<xx> tree ids; nil until loaded
	shardEntries map[string]map[string]plumbing.Hash // facts/<xx>/<key> blob ids, per loaded shard
}

// Pin makes Facts read the store as it is now until unpin is called,
// instead of reading refs/speed/index again on every call: for a build
// that asks for the facts of every file one at a time. Facts are keyed by
// content, so a pinned reader misses at most facts that another process
// stores meanwhile, and makes them again. Writes are not affected.
func (s *Store) Pin() (unpin func(), err error) {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	snap, err := s.tip()
	if err != nil {
		return func() {}, err
	}
	s.pinned = &snap
	s.pinnedEmpty.Store(snap.root.IsZero())
	return func() {
		s.r.mu.Lock()
		s.pinned = nil
		s.pinnedEmpty.Store(false)
		s.r.mu.Unlock()
	}, nil
}

// factsShard returns the entries of facts/<sh> at the cached tip. Caller
// holds r.mu and has just called tip().
func (s *Store) factsShard(sh string) (map[string]plumbing.Hash, error) {
	c := s.r.cache
	if c == nil {
		return nil, corrupt("internal: no store snapshot")
	}
	if c.factsShards == nil {
		c.factsShards = map[string]plumbing.Hash{}
		facts, ok, err := s.lookup(c.snap.root, true, "facts")
		if err != nil {
			c.factsShards = nil
			return nil, err
		}
		if ok {
			entries, err := s.r.readTree(facts)
			if err != nil {
				c.factsShards = nil
				return nil, corrupt("read facts/: %v", err)
			}
			for _, e := range entries {
				if e.mode == ModeTree {
					c.factsShards[e.name] = e.hash
				}
			}
		}
	}
	if m, ok := c.shardEntries[sh]; ok {
		return m, nil
	}
	m := map[string]plumbing.Hash{}
	if h, ok := c.factsShards[sh]; ok {
		entries, err := s.r.readTree(h)
		if err != nil {
			return nil, corrupt("read facts/%s: %v", sh, err)
		}
		for _, e := range entries {
			if e.mode == ModeFile {
				m[e.name] = e.hash
			}
		}
	}
	c.shardEntries[sh] = m
	return m, nil
}

// lookup follows names from the root; ok is false when a name is absent.
// A present entry of the wrong kind is corruption. Caller holds r.mu.
func (s *Store) lookup(root plumbing.Hash, wantTree bool, names ...string) (plumbing.Hash, bool, error) {
	return s.lookupIn(nil, root, wantTree, names...)
}

// lookupIn is lookup reading each tree object once into trees (when not
// nil): many lookups below one root share the trees on their paths.
func (s *Store) lookupIn(trees map[plumbing.Hash][]treeEntry, root plumbing.Hash, wantTree bool, names ...string) (plumbing.Hash, bool, error) {
	h := root
	for i, name := range names {
		if h.IsZero() {
			return h, false, nil
		}
		entries, ok := trees[h]
		var err error
		if !ok {
			entries, err = s.r.readTree(h)
			if trees != nil && err == nil {
				trees[h] = entries
			}
		}
		if err != nil {
			return h, false, corrupt("read store tree %s: %v", strings.Join(names[:i], "/"), err)
		}
		found := false
		for _, e := range entries {
			if e.name == name {
				last := i == len(names)-1
				if (!last || wantTree) != (e.mode == ModeTree) {
					return h, false, corrupt("store entry %s has mode %o", strings.Join(names[:i+1], "/"), e.mode)
				}
				h, found = e.hash, true
				break
			}
		}
		if !found {
			return h, false, nil
		}
	}
	return h, true, nil
}

func shard(key string) string { return key[:2] }

func treeDirName(tree, digest string) string { return tree + "-" + digest }

// Facts returns the stored facts for keys; missing keys are absent from the
// map. Unknown or malformed keys are simply missing.
func (s *Store) Facts(keys []string) (map[string][]byte, error) {
	if s.pinnedEmpty.Load() {
		return map[string][]byte{}, nil
	}
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	var snap snapshot
	var err error
	if p := s.pinned; p != nil && (p.root.IsZero() || s.r.cache != nil && s.r.cache.snap.commit == p.commit) {
		snap = *p
	} else if snap, err = s.tip(); err != nil {
		return nil, err
	}
	out := make(map[string][]byte, len(keys))
	if snap.root.IsZero() || len(keys) == 0 {
		return out, nil
	}
	var found []string
	var ids []plumbing.Hash
	for _, k := range keys {
		if validFactsKey(k) != nil {
			continue
		}
		if _, done := out[k]; done {
			continue
		}
		entries, err := s.factsShard(shard(k))
		if err != nil {
			return nil, err
		}
		h, ok := entries[k]
		if !ok {
			continue
		}
		out[k] = nil
		found = append(found, k)
		ids = append(ids, h)
	}
	datas, err := s.r.readBlobs(ids)
	if err != nil {
		return nil, corrupt("read facts: %v", err)
	}
	for i, k := range found {
		out[k] = datas[i]
	}
	return out, nil
}

// HasTree reports whether tree has been indexed under digest.
func (s *Store) HasTree(tree, digest string) (bool, error) {
	if validTreeKey(tree, digest) != nil {
		return false, nil
	}
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	snap, err := s.tip()
	if err != nil {
		return false, err
	}
	_, ok, err := s.lookup(snap.root, true, "trees", shard(tree), treeDirName(tree, digest))
	return ok, err
}

// Tree returns every shard of one artifact of an indexed tree. It returns
// an error wrapping ErrNotFound if the tree or the artifact is not stored.
func (s *Store) Tree(tree, digest, name string) (map[string][]byte, error) {
	if err := validTreeKey(tree, digest); err != nil {
		return nil, err
	}
	if err := validArtifactName(name); err != nil {
		return nil, err
	}
	s.r.mu.Lock()
	snap, err := s.tip()
	if err != nil {
		s.r.mu.Unlock()
		return nil, err
	}
	h, ok, err := s.lookup(snap.root, true, "trees", shard(tree), treeDirName(tree, digest), name)
	if err != nil {
		s.r.mu.Unlock()
		return nil, err
	}
	if !ok {
		s.r.mu.Unlock()
		return nil, fmt.Errorf("artifact %q of tree %s (digest %s): %w", name, tree, digest, ErrNotFound)
	}
	var keys []string
	var ids []plumbing.Hash
	if err := s.listShards(h, nil, &keys, &ids); err != nil {
		s.r.mu.Unlock()
		return nil, err
	}
	var blobs [][]byte
	if len(ids) <= 4*batchThreshold {
		blobs, err = s.r.readBlobs(ids)
		s.r.mu.Unlock()
	} else {
		// Large artifacts are read by git processes on all cores, outside
		// the lock: nothing of go-git is touched.
		s.r.mu.Unlock()
		blobs, err = s.r.readBlobsParallel(ids)
	}
	if err != nil {
		return nil, corrupt("read shards of %q: %v", name, err)
	}
	out := make(map[string][]byte, len(keys))
	s.r.mu.Lock()
	for i, k := range keys {
		out[k] = blobs[i]
		s.r.remember(ids[i])
	}
	s.r.mu.Unlock()
	return out, nil
}

// readShards reads every shard below tree h into out: the trees first,
// then all blobs in one batch. Caller holds r.mu.
func (s *Store) readShards(h plumbing.Hash, prefix []string, out map[string][]byte) error {
	var keys []string
	var ids []plumbing.Hash
	if err := s.listShards(h, prefix, &keys, &ids); err != nil {
		return err
	}
	blobs, err := s.r.readBlobs(ids)
	if err != nil {
		return corrupt("read shards: %v", err)
	}
	for i, k := range keys {
		out[k] = blobs[i]
		s.r.remember(ids[i])
	}
	return nil
}

// listShards collects the keys and blob ids of the shards below tree h;
// prefix holds the decoded key components above h. One `git ls-tree -r`
// lists them all (walking the nested trees object by object through
// go-git took longer than reading the blobs); the blobs are read in one
// batch afterwards.
func (s *Store) listShards(h plumbing.Hash, prefix []string, keys *[]string, ids *[]plumbing.Hash) error {
	// A small artifact (a tree's summary) is walked here: a few trees read
	// in this process cost less than starting git.
	budget := smallArtifact
	k0, i0 := len(*keys), len(*ids)
	if err := s.walkShards(h, prefix, keys, ids, &budget); err == nil {
		return nil
	} else if !errors.Is(err, errLargeArtifact) {
		return err
	}
	*keys, *ids = (*keys)[:k0], (*ids)[:i0]
	out, err := s.r.git(nil, "ls-tree", "-r", "-z", h.String())
	if err != nil {
		return corrupt("read artifact tree %s: %v", h, err)
	}
	for _, rec := range splitRecords(out, 0) {
		tab := bytes.IndexByte(rec, '\t')
		f := bytes.Fields(rec[:max(tab, 0)])
		if tab < 0 || len(f) != 3 {
			return corrupt("artifact tree %s: malformed entry %q", h, rec)
		}
		mode, err := strconv.ParseUint(string(f[0]), 8, 32)
		if err != nil || uint32(mode) != ModeFile || string(f[1]) != "blob" {
			return corrupt("unexpected entry %q in an artifact", rec[tab+1:])
		}
		parts := strings.Split(string(rec[tab+1:]), "/")
		if len(parts) < 1 || parts[len(parts)-1] != "@" || len(prefix)+len(parts) < 2 {
			return corrupt("unexpected entry %q in an artifact", rec[tab+1:])
		}
		comps := append([]string(nil), prefix...)
		for _, p := range parts[:len(parts)-1] {
			c, err := unescapeName(p)
			if err != nil {
				return corrupt("artifact entry: %v", err)
			}
			comps = append(comps, c)
		}
		*keys = append(*keys, strings.Join(comps, "/"))
		*ids = append(*ids, plumbing.NewHash(string(f[2])))
	}
	return nil
}

// smallArtifact is how many trees listShards reads in this process
// before it asks git ls-tree instead. An artifact in buckets (rows,
// defs: 64 shards, 65 trees) is read here in about a millisecond, where
// starting git ls-tree took three to five, holding the store's lock.
const smallArtifact = 80

var errLargeArtifact = errors.New("artifact larger than smallArtifact trees")

// walkShards is listShards reading the trees itself, at most *budget of
// them; errLargeArtifact when there are more.
func (s *Store) walkShards(h plumbing.Hash, prefix []string, keys *[]string, ids *[]plumbing.Hash, budget *int) error {
	if *budget--; *budget < 0 {
		return errLargeArtifact
	}
	entries, err := s.r.readTree(h)
	if err != nil {
		return corrupt("read artifact tree %s: %v", h, err)
	}
	for _, e := range entries {
		if e.name == "@" && e.mode == ModeFile && len(prefix) >= 1 {
			*keys = append(*keys, strings.Join(prefix, "/"))
			*ids = append(*ids, e.hash)
			continue
		}
		if e.mode != ModeTree {
			return corrupt("unexpected entry %q in an artifact", strings.Join(append(append([]string(nil), prefix...), e.name), "/"))
		}
		c, err := unescapeName(e.name)
		if err != nil {
			return corrupt("artifact entry: %v", err)
		}
		if err := s.walkShards(e.hash, append(append([]string(nil), prefix...), c), keys, ids, budget); err != nil {
			return err
		}
	}
	return nil
}

// Trees lists the indexed trees, oldest first (by Seq, then tree id and
// digest).
func (s *Store) Trees() ([]TreeInfo, error) {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	snap, err := s.tip()
	if err != nil {
		return nil, err
	}
	infos, _, err := s.listTrees(snap.root)
	return infos, err
}

// listTrees returns every per-tree folder with its info and tree id.
// Caller holds r.mu.
func (s *Store) listTrees(root plumbing.Hash) ([]TreeInfo, []plumbing.Hash, error) {
	trees, ok, err := s.lookup(root, true, "trees")
	if err != nil || !ok {
		return nil, nil, err
	}
	shards, err := s.r.readTree(trees)
	if err != nil {
		return nil, nil, corrupt("read trees/: %v", err)
	}
	type item struct {
		info TreeInfo
		h    plumbing.Hash
	}
	var items []item
	for _, sh := range shards {
		if sh.mode != ModeTree {
			return nil, nil, corrupt("trees/%s is not a folder", sh.name)
		}
		dirs, err := s.r.readTree(sh.hash)
		if err != nil {
			return nil, nil, corrupt("read trees/%s: %v", sh.name, err)
		}
		for _, d := range dirs {
			tree, digest, ok := strings.Cut(d.name, "-")
			if !ok || d.mode != ModeTree || validTreeKey(tree, digest) != nil || shard(tree) != sh.name {
				return nil, nil, corrupt("unexpected entry trees/%s/%s", sh.name, d.name)
			}
			info := TreeInfo{Tree: tree, Digest: digest}
			entries, err := s.r.readTree(d.hash)
			if err != nil {
				return nil, nil, corrupt("read trees/%s/%s: %v", sh.name, d.name, err)
			}
			for _, e := range entries {
				if e.name == "meta" && e.mode == ModeFile {
					data, err := s.r.readObject(plumbing.BlobObject, e.hash)
					if err != nil {
						return nil, nil, corrupt("read trees/%s/%s/meta: %v", sh.name, d.name, err)
					}
					info.Seq, info.Added = parseMeta(data)
				} else if e.name == snapshotEntry && e.mode == ModeFile {
					info.Snapshot = true
				} else if e.mode == ModeTree {
					info.Artifacts = append(info.Artifacts, e.name)
				}
			}
			sort.Strings(info.Artifacts)
			items = append(items, item{info, d.hash})
		}
	}
	sort.Slice(items, func(i, j int) bool {
		a, b := items[i].info, items[j].info
		if a.Seq != b.Seq {
			return a.Seq < b.Seq
		}
		if a.Tree != b.Tree {
			return a.Tree < b.Tree
		}
		return a.Digest < b.Digest
	})
	infos := make([]TreeInfo, len(items))
	hashes := make([]plumbing.Hash, len(items))
	for i, it := range items {
		infos[i], hashes[i] = it.info, it.h
	}
	return infos, hashes, nil
}

func formatMeta(seq int64, t time.Time) []byte {
	return []byte(fmt.Sprintf("seq %d\ntime %d\n", seq, t.Unix()))
}

func parseMeta(data []byte) (seq int64, added time.Time) {
	for _, line := range strings.Split(string(data), "\n") {
		k, v, _ := strings.Cut(line, " ")
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			continue
		}
		switch k {
		case "seq":
			seq = n
		case "time":
			added = time.Unix(n, 0).UTC()
		}
	}
	return seq, added
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func validFactsKey(key string) error {
	if len(key) < 4 || len(key) > 200 || !isLowerHex(key) {
		return fmt.Errorf("facts key %q: want 4 to 200 lowercase hex digits", key)
	}
	return nil
}

func validTreeKey(tree, digest string) error {
	if !isHexID(tree) {
		return fmt.Errorf("tree %q: want a 40-digit hex tree id", tree)
	}
	if digest == "" || len(digest) > 128 {
		return fmt.Errorf("digest %q: want 1 to 128 characters [a-z0-9]", digest)
	}
	for i := 0; i < len(digest); i++ {
		if c := digest[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return fmt.Errorf("digest %q: want 1 to 128 characters [a-z0-9]", digest)
		}
	}
	return nil
}

func validArtifactName(name string) error {
	if name == "" || name == "meta" || name == snapshotEntry || len(name) > 100 || name[0] == '.' {
		return fmt.Errorf("artifact name %q: want [a-z0-9._-], not starting with '.', and not \"meta\"", name)
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("artifact name %q: want [a-z0-9._-], not starting with '.', and not \"meta\"", name)
		}
	}
	return nil
}
