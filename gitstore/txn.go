package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// Txn collects entries to add to the store; Commit adds them all at once.
// A Txn is not safe for concurrent use; use one per writer.
type Txn struct {
	s     *Store
	facts map[string][]byte
	trees map[[2]string]map[string]map[string][]byte // {tree,digest} -> name -> shards
	// sources are trees whose own objects the store keeps reachable: work-
	// tree snapshots, which no commit holds.
	sources map[[2]string]bool
	patches map[[2]string]map[string]patch         // {tree,digest} -> name -> patch
	factIDs map[string]plumbing.Hash               // facts already in the object database (WriteBlobs)
	treeIDs map[[2]string]map[string]plumbing.Hash // artifacts already in the object database (WriteShards)
	raw     map[string]bool                        // artifacts written uncompressed (Uncompressed)
	err     error
	now     func() time.Time
	// unmerged is why the commit left the packs it wrote unmerged.
	unmerged error
}

// Begin starts a transaction.
func (s *Store) Begin() *Txn {
	return &Txn{s: s, facts: map[string][]byte{}, trees: map[[2]string]map[string]map[string][]byte{}, now: time.Now}
}

// PutFacts adds the facts for key, a lowercase hex string (4 to 200 digits)
// the caller derives from blob id, extractor version and config digest. An
// invalid key makes Commit fail naming it. The Txn keeps data as it is (no
// copy, to keep a large index's memory down): the caller must not change it.
func (t *Txn) PutFacts(key string, data []byte) {
	if err := validFactsKey(key); err != nil {
		t.fail(err)
		return
	}
	t.facts[key] = data
}

// KeepSource marks tree, indexed under digest, as a work-tree snapshot
// that no commit reaches, and keeps the tree itself reachable from this
// work tree's own ref SnapshotRef, so git's gc cannot prune its blobs. The
// ref is outside refs/speed/, so pushing the store never publishes
// uncommitted files. Store.GC drops every snapshot's index but the newest.
func (t *Txn) KeepSource(tree, digest string) {
	if err := validTreeKey(tree, digest); err != nil {
		t.fail(err)
		return
	}
	if t.sources == nil {
		t.sources = map[[2]string]bool{}
	}
	t.sources[[2]string{tree, digest}] = true
}

// PutTree adds artifact name ([a-z0-9._-], not "meta") of tree under digest
// ([a-z0-9], 1 to 128 characters). Shard keys are arbitrary strings (the
// caller uses folder paths; "" is allowed); each shard is stored as its own
// blob, so shards equal to ones already stored cost nothing. Putting an
// artifact again replaces it. The Txn keeps shards as given: the caller
// must not change the map or its slices afterwards.
func (t *Txn) PutTree(tree, digest, name string, shards map[string][]byte) {
	if !t.validArtifact(tree, digest, name) {
		return
	}
	k := [2]string{tree, digest}
	if t.trees[k] == nil {
		t.trees[k] = map[string]map[string][]byte{}
	}
	// Kept as given, not copied (a large tree's artifacts are tens of
	// megabytes): the caller must not change shards after the call.
	t.trees[k][name] = shards
}

// Uncompressed has the new shards of the artifacts names (put or patched
// by this Txn) written as zlib stored blocks: read back at the speed of a
// copy rather than of inflating, for about twice their compressed size on
// disk. For artifacts read widely by small updates (links: a one-file
// update reads those of every folder its file imports).
func (t *Txn) Uncompressed(names ...string) {
	if t.raw == nil {
		t.raw = map[string]bool{}
	}
	for _, n := range names {
		t.raw[n] = true
	}
}

// validArtifact reports whether tree, digest and name can name an
// artifact; when not, Commit will fail naming the fault.
func (t *Txn) validArtifact(tree, digest, name string) bool {
	if err := validTreeKey(tree, digest); err != nil {
		t.fail(err)
		return false
	}
	if err := validArtifactName(name); err != nil {
		t.fail(err)
		return false
	}
	return true
}

func (t *Txn) fail(err error) {
	if t.err == nil {
		t.err = err
	}
}

// Unmerged is why Commit left the packs written for the transaction
// unmerged, nil when it merged them or had none to merge: the store reads
// them as they are, and the caller may warn.
func (t *Txn) Unmerged() error { return t.unmerged }

// Commit writes every object, then moves refs/speed/index from the tip it
// built on to the new commit with git's compare-and-swap. If another writer
// got there first, it rebuilds on the new tip (a union: nothing either
// writer added is lost) and retries. An empty Txn commits nothing. A store
// that is not readable gives ErrCorrupt (see Reset).
func (t *Txn) Commit(message string) error {
	if t.err != nil {
		return fmt.Errorf("store commit: %w", t.err)
	}
	if len(t.facts) == 0 && len(t.trees) == 0 && len(t.patches) == 0 && len(t.factIDs) == 0 && len(t.treeIDs) == 0 {
		return nil
	}
	r := t.s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	r.beginPending()
	defer r.endPending()
	// Whatever the outcome, the packs written for it (with WriteBlobs and
	// WriteShards before) become one; a failed merge leaves them readable
	// (Unmerged says why).
	defer func() { t.unmerged = r.mergeWritten() }()

	// Content does not depend on the tip: write it once.
	factBlobs := map[string]plumbing.Hash{}
	for k, v := range t.facts {
		h, err := r.writeObject(plumbing.BlobObject, v)
		if err != nil {
			return fmt.Errorf("store commit: %w", err)
		}
		factBlobs[k] = h
	}
	for k, h := range t.factIDs {
		factBlobs[k] = h
	}
	artifacts := map[[2]string]map[string]plumbing.Hash{}
	for k, arts := range t.trees {
		artifacts[k] = map[string]plumbing.Hash{}
		for name, shards := range arts {
			h, err := r.writeShards(shards, t.raw[name])
			if err != nil {
				return fmt.Errorf("store commit: artifact %s of tree %s: %w", name, k[0], err)
			}
			artifacts[k][name] = h
		}
	}
	for k, arts := range t.treeIDs {
		if artifacts[k] == nil {
			artifacts[k] = map[string]plumbing.Hash{}
		}
		for name, h := range arts {
			artifacts[k][name] = h
		}
	}
	if err := t.writePatches(artifacts); err != nil {
		return fmt.Errorf("store commit: %w", err)
	}
	for k := range t.sources {
		// Before the store names it, so that no stored snapshot is ever
		// left without its blobs.
		if _, err := r.git(nil, "update-ref", "-m", "git-speed: work-tree snapshot", r.SnapshotRef(), k[0]); err != nil {
			return fmt.Errorf("store commit: keep snapshot %s: %w", k[0], err)
		}
	}
	if message == "" {
		message = fmt.Sprintf("git-speed: %d facts, %d trees", len(t.facts), len(t.trees))
	}

	var lastErr error
	for attempt := 0; attempt < maxCommitAttempts; attempt++ {
		snap, err := t.s.tip()
		if err != nil {
			return err
		}
		e := &edit{}
		e.setBlob(r.mustBlob(formatBlob), "format")
		seq := snap.seq
		if len(artifacts) > 0 {
			seq++
			e.setBlob(r.mustBlob([]byte(strconv.FormatInt(seq, 10)+"\n")), "seq")
		}
		for k, h := range factBlobs {
			e.setBlob(h, "facts", shard(k), k)
		}
		meta := r.mustBlob(formatMeta(seq, t.now()))
		for k, arts := range artifacts {
			dir := treeDirName(k[0], k[1])
			e.setBlob(meta, "trees", shard(k[0]), dir, "meta")
			for name, h := range arts {
				e.setTree(h, "trees", shard(k[0]), dir, name)
			}
			if t.sources[k] {
				e.setBlob(r.mustBlob([]byte("work-tree snapshot\n")), "trees", shard(k[0]), dir, snapshotEntry)
			}
		}
		if r.writeErr != nil {
			return fmt.Errorf("store commit: %w", r.takeWriteErr())
		}
		root, err := r.apply(snap.root, e)
		if err != nil {
			return corrupt("rebuild store on %s: %v", snap.commit, err)
		}
		if root == snap.root {
			return nil
		}
		c, err := r.writeCommit(root, snap.commit, message, t.now())
		if err == nil {
			err = r.flushPending()
		}
		if err != nil {
			return fmt.Errorf("store commit: %w", err)
		}
		if lastErr = r.casRef(IndexRef, c, snap.commit, message); lastErr == nil {
			return nil
		}
		// Lost the race (or the lock was busy): back off a little and retry
		// on whatever the tip is now.
		r.mu.Unlock()
		time.Sleep(time.Duration(attempt+1) * 5 * time.Millisecond)
		r.mu.Lock()
	}
	return fmt.Errorf("store commit: gave up after %d attempts: %w", maxCommitAttempts, lastErr)
}

// writeShards stores one artifact as a tree and returns its id.
func (r *Repo) writeShards(shards map[string][]byte, raw bool) (plumbing.Hash, error) {
	e := &edit{}
	keys := make([]string, 0, len(shards))
	for k := range shards {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	data := make([][]byte, len(keys))
	for i, k := range keys {
		data[i] = shards[k]
	}
	ids := objectIDs(plumbing.BlobObject, data)
	for i, k := range keys {
		h, err := r.writeHashed(ids[i], plumbing.BlobObject, data[i], raw)
		if err != nil {
			return h, err
		}
		e.setBlob(h, append(splitKey(k), "@")...)
	}
	return r.apply(plumbing.ZeroHash, e)
}

// mustBlob writes a small blob; a failure is kept and reported by the caller
// through takeWriteErr.
func (r *Repo) mustBlob(data []byte) plumbing.Hash {
	h, err := r.writeObject(plumbing.BlobObject, data)
	if err != nil && r.writeErr == nil {
		r.writeErr = err
	}
	return h
}

func (r *Repo) takeWriteErr() error {
	err := r.writeErr
	r.writeErr = nil
	return err
}

// writeCommit writes a store commit (parent may be zero).
func (r *Repo) writeCommit(tree, parent plumbing.Hash, message string, now time.Time) (plumbing.Hash, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "tree %s\n", tree)
	if !parent.IsZero() {
		fmt.Fprintf(&b, "parent %s\n", parent)
	}
	sig := fmt.Sprintf("git-speed <git-speed@localhost> %d +0000", now.Unix())
	fmt.Fprintf(&b, "author %s\ncommitter %s\n\n%s\n", sig, sig, strings.TrimRight(message, "\n"))
	return r.writeObject(plumbing.CommitObject, b.Bytes())
}

// casRef moves ref from old (zero: must not exist) to new with git's lock
// file, failing if it holds anything else.
func (r *Repo) casRef(ref string, new, old plumbing.Hash, message string) error {
	oldArg := old.String()
	if old.IsZero() {
		oldArg = strings.Repeat("0", 40)
	}
	_, err := r.git(nil, "update-ref", "--no-deref", "-m", firstLine(message), ref, new.String(), oldArg)
	return err
}

// Reset points refs/speed/index at a fresh, empty store. The old value, if
// it names an existing object, stays reachable under refs/speed/corrupt-<n>
// (n = 1, 2, …) for inspection; a value naming a missing object is dropped.
func (s *Store) Reset() error {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	var old plumbing.Hash
	ref, err := r.storage.Reference(plumbing.ReferenceName(IndexRef))
	switch {
	case err == nil && ref.Type() == plumbing.HashReference:
		old = ref.Hash()
	case err == nil || !errors.Is(err, plumbing.ErrReferenceNotFound):
		// A symbolic or unreadable ref: delete it with git.
		if _, derr := r.git(nil, "update-ref", "--no-deref", "-d", IndexRef); derr != nil {
			return fmt.Errorf("reset store: %w", derr)
		}
	}
	root, err := r.writeTree([]treeEntry{{name: "format", mode: ModeFile, hash: r.mustBlob(formatBlob)}})
	if err == nil {
		err = r.takeWriteErr()
	}
	if err != nil {
		return fmt.Errorf("reset store: %w", err)
	}
	c, err := r.writeCommit(root, plumbing.ZeroHash, "git-speed: reset store", time.Now())
	if err != nil {
		return fmt.Errorf("reset store: %w", err)
	}
	if !old.IsZero() && r.hasObject(old) {
		for n := 1; ; n++ {
			name := CorruptRefPrefix + strconv.Itoa(n)
			if _, err := r.storage.Reference(plumbing.ReferenceName(name)); err == nil {
				continue
			}
			if err := r.casRef(name, old, plumbing.ZeroHash, "git-speed: keep corrupt store"); err != nil {
				return fmt.Errorf("reset store: %w", err)
			}
			break
		}
	}
	if err := r.casRef(IndexRef, c, old, "git-speed: reset store"); err != nil {
		return fmt.Errorf("reset store: %w", err)
	}
	return nil
}
