package gitstore

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// An incremental index changes a few shards of a tree's artifacts. Reading
// and writing only those keeps an update in proportion to the change:
// Shards reads the named shards of a stored artifact, and Txn.PatchTree
// stores an artifact as a stored one with some shards replaced, rewriting
// only the tree objects on their paths.

// Shards returns the shards of artifact name of tree under digest whose
// keys are in keys; keys the artifact lacks are absent from the map. It
// returns an error wrapping ErrNotFound if the artifact is not stored.
func (s *Store) Shards(tree, digest, name string, keys []string) (map[string][]byte, error) {
	if err := validTreeKey(tree, digest); err != nil {
		return nil, err
	}
	if err := validArtifactName(name); err != nil {
		return nil, err
	}
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	snap, err := s.tip()
	if err != nil {
		return nil, err
	}
	art, ok, err := s.lookup(snap.root, true, "trees", shard(tree), treeDirName(tree, digest), name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("artifact %q of tree %s (digest %s): %w", name, tree, digest, ErrNotFound)
	}
	var found []string
	var ids []plumbing.Hash
	seen := map[string]bool{}
	trees := map[plumbing.Hash][]treeEntry{} // shared by the keys' paths
	for _, k := range keys {
		if seen[k] {
			continue
		}
		seen[k] = true
		h, ok, err := s.lookupIn(trees, art, false, append(splitKey(k), "@")...)
		if err != nil {
			return nil, err
		}
		if ok {
			found = append(found, k)
			ids = append(ids, h)
		}
	}
	blobs, err := r.readBlobs(ids)
	if err != nil {
		return nil, corrupt("read shards of %q: %v", name, err)
	}
	out := make(map[string][]byte, len(found))
	for i, k := range found {
		out[k] = blobs[i]
		r.remember(ids[i])
	}
	return out, nil
}

// patch is an artifact stored as another tree's artifact with some shards
// replaced.
type patch struct {
	baseTree, baseDigest string
	shards               map[string][]byte
}

// PatchTree adds artifact name of tree under digest as the same artifact
// of baseTree under baseDigest (which must be stored) with the given shards
// put in place of, or beside, the base's. Shards not given are shared with
// the base as they are.
func (t *Txn) PatchTree(tree, digest, name, baseTree, baseDigest string, shards map[string][]byte) {
	for _, err := range []error{validTreeKey(tree, digest), validTreeKey(baseTree, baseDigest), validArtifactName(name)} {
		if err != nil {
			t.fail(err)
			return
		}
	}
	k := [2]string{tree, digest}
	if t.patches == nil {
		t.patches = map[[2]string]map[string]patch{}
	}
	if t.patches[k] == nil {
		t.patches[k] = map[string]patch{}
	}
	t.patches[k][name] = patch{baseTree: baseTree, baseDigest: baseDigest, shards: shards}
}

// writePatches writes the patched artifacts of t into artifacts, reading
// their bases at the store's tip. Caller holds r.mu.
func (t *Txn) writePatches(artifacts map[[2]string]map[string]plumbing.Hash) error {
	if len(t.patches) == 0 {
		return nil
	}
	r := t.s.r
	snap, err := t.s.tip()
	if err != nil {
		return err
	}
	for k, arts := range t.patches {
		if artifacts[k] == nil {
			artifacts[k] = map[string]plumbing.Hash{}
		}
		for name, p := range arts {
			base, ok, err := t.s.lookup(snap.root, true, "trees", shard(p.baseTree), treeDirName(p.baseTree, p.baseDigest), name)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("artifact %q of tree %s to patch: %w", name, p.baseTree, ErrNotFound)
			}
			e := &edit{}
			for key, data := range p.shards {
				h, err := r.writeObjectAs(plumbing.BlobObject, data, t.raw[name])
				if err != nil {
					return err
				}
				e.setBlob(h, append(splitKey(key), "@")...)
			}
			h, err := r.apply(base, e)
			if err != nil {
				return fmt.Errorf("patch artifact %q of tree %s: %w", name, k[0], err)
			}
			artifacts[k][name] = h
		}
	}
	return nil
}

// WriteBlobs writes blobs into the object database now, as one pack when
// there are many, and returns their ids. A large index writes its facts
// this way in batches as they are made, so that they need not all be held
// in memory until the store's commit; the objects stay unreferenced (and
// git's gc may prune them) until a Txn that names them commits.
func (s *Store) WriteBlobs(blobs [][]byte) ([]string, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	r.beginPending()
	defer r.endPending()
	ids := make([]string, len(blobs))
	hashes := objectIDs(plumbing.BlobObject, blobs)
	for i, b := range blobs {
		if _, err := r.writeHashed(hashes[i], plumbing.BlobObject, b, false); err != nil {
			return nil, err
		}
		ids[i] = hashes[i].String()
	}
	if err := r.flushPending(); err != nil {
		return nil, err
	}
	for _, h := range hashes {
		r.remember(h)
	}
	return ids, nil
}

// PutFactsID adds the facts for key as the blob id, written before with
// WriteBlobs.
func (t *Txn) PutFactsID(key, id string) {
	if err := validFactsKey(key); err != nil {
		t.fail(err)
		return
	}
	if !isHexID(id) {
		t.fail(fmt.Errorf("facts %s: %q is not an object id", key, id))
		return
	}
	if t.factIDs == nil {
		t.factIDs = map[string]plumbing.Hash{}
	}
	t.factIDs[key] = plumbing.NewHash(id)
}

// WriteShards writes one artifact's shards into the object database now,
// as Commit would write them, and returns the id of the artifact's tree
// for Txn.PutTreeID. A large index writes each artifact this way once it
// is final, so that its bytes need not be held until the store's commit;
// the objects stay unreferenced (and git's gc may prune them) until a Txn
// that names them commits.
func (s *Store) WriteShards(shards map[string][]byte, uncompressed bool) (string, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	r.beginPending()
	defer r.endPending()
	h, err := r.writeShards(shards, uncompressed)
	if err != nil {
		return "", err
	}
	if err := r.flushPending(); err != nil {
		return "", err
	}
	return h.String(), nil
}

// PutTreeID adds artifact name of tree under digest as the artifact tree
// id, written before with WriteShards (see PutTree).
func (t *Txn) PutTreeID(tree, digest, name, id string) {
	if !t.validArtifact(tree, digest, name) {
		return
	}
	if !isHexID(id) {
		t.fail(fmt.Errorf("artifact %s of tree %s: %q is not an object id", name, tree, id))
		return
	}
	k := [2]string{tree, digest}
	if t.treeIDs == nil {
		t.treeIDs = map[[2]string]map[string]plumbing.Hash{}
	}
	if t.treeIDs[k] == nil {
		t.treeIDs[k] = map[string]plumbing.Hash{}
	}
	t.treeIDs[k][name] = plumbing.NewHash(id)
}
