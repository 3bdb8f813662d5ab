package build

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/git-speed/git-speed/gitstore"
)

// VerifyIndex is `verify --index`: the stored index of a tree, however it
// was reached (a full build, in-place updates commit by commit, parts
// from other machines), must be byte for byte what a full build of the
// tree from nothing stores. It rebuilds the tree in a scratch store that
// reads the repository's objects and writes its own (gitstore.Scratch),
// and compares every artifact, shard by shard, and the facts of every
// file.

// ArtifactDiff names one stored artifact that differs from the rebuild.
type ArtifactDiff struct {
	Artifact string `json:"artifact"` // an artifact's name, or "facts"
	// Shards are the first differing shard keys (facts: paths), at most
	// maxDiffShards; Count is how many differ in all.
	Shards []string `json:"shards"`
	Count  int      `json:"count"`
}

// VerifyIndexResult is what VerifyIndex compared and found.
type VerifyIndexResult struct {
	Tree      string         `json:"tree"`
	Artifacts int            `json:"artifacts"` // artifacts compared
	Shards    int            `json:"shards"`    // shards compared
	Facts     int            `json:"facts"`     // facts entries compared
	Differ    []ArtifactDiff `json:"differ"`
	ElapsedMS int64          `json:"elapsed_ms"`
}

const maxDiffShards = 20

// VerifyIndex rebuilds rev's tree from nothing in a scratch store and
// compares it with the stored index of the tree.
func VerifyIndex(ctx context.Context, repo *gitstore.Repo, rev string, opt Options) (*VerifyIndexResult, error) {
	start := time.Now()
	_, tree, err := repo.Resolve(rev)
	if err != nil {
		return nil, err
	}
	cfg := &opt.Config
	digest := treeDigest(cfg)
	st := repo.Store()
	if ok, err := st.HasTree(tree, digest); err != nil {
		return nil, err
	} else if !ok {
		return nil, fmt.Errorf("%w under these settings: %s; run `git speed index` first", ErrNotIndexed, short(tree))
	}
	scratch, closeScratch, err := repo.Scratch()
	if err != nil {
		return nil, err
	}
	defer closeScratch()
	fresh := opt
	fresh.Force, fresh.Snapshot, fresh.Warn, fresh.Progress, fresh.parts = true, false, nil, opt.Progress, nil
	if _, err := Index(ctx, scratch, tree, fresh); err != nil {
		return nil, fmt.Errorf("rebuild tree %s: %w", short(tree), err)
	}
	other := scratch.Store()
	res := &VerifyIndexResult{Tree: tree}
	names, err := artifactNames(st, tree, digest)
	if err != nil {
		return nil, err
	}
	rebuilt, err := artifactNames(other, tree, digest)
	if err != nil {
		return nil, err
	}
	for _, n := range rebuilt {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		have, err1 := st.Tree(tree, digest, name)
		want, err2 := other.Tree(tree, digest, name)
		if err1 != nil || err2 != nil {
			// Stored on one side only, or unreadable: the whole artifact.
			res.Differ = append(res.Differ, ArtifactDiff{Artifact: name, Shards: []string{"*"}, Count: 1})
			continue
		}
		res.Artifacts++
		d := ArtifactDiff{Artifact: name}
		for _, k := range unionKeys(have, want) {
			res.Shards++
			h, ok1 := have[k]
			w, ok2 := want[k]
			if ok1 != ok2 || !bytes.Equal(h, w) {
				d.Count++
				if len(d.Shards) < maxDiffShards {
					d.Shards = append(d.Shards, k)
				}
			}
		}
		if d.Count > 0 {
			res.Differ = append(res.Differ, d)
		}
	}
	// Facts: the entries each file's key names, by blob id.
	recs, err := mapRecords(other, tree, digest)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, r := range recs {
		if r.Key != "" {
			keys = append(keys, r.Key)
		}
	}
	haveIDs, err := st.FactsIDs(keys)
	if err != nil {
		return nil, err
	}
	wantIDs, err := other.FactsIDs(keys)
	if err != nil {
		return nil, err
	}
	d := ArtifactDiff{Artifact: "facts"}
	for _, r := range recs {
		if r.Key == "" {
			continue
		}
		res.Facts++
		if haveIDs[r.Key] != wantIDs[r.Key] {
			d.Count++
			if len(d.Shards) < maxDiffShards {
				d.Shards = append(d.Shards, r.Path)
			}
		}
	}
	if d.Count > 0 {
		res.Differ = append(res.Differ, d)
	}
	res.ElapsedMS = time.Since(start).Milliseconds()
	return res, nil
}

// artifactNames lists the artifacts stored for tree under digest.
func artifactNames(st *gitstore.Store, tree, digest string) ([]string, error) {
	infos, err := st.Trees()
	if err != nil {
		return nil, err
	}
	for _, in := range infos {
		if in.Tree == tree && in.Digest == digest {
			return append([]string(nil), in.Artifacts...), nil
		}
	}
	return nil, nil
}

func mapRecords(st *gitstore.Store, tree, digest string) ([]mapRecord, error) {
	shards, err := st.Tree(tree, digest, artifactMap)
	if err != nil {
		return nil, err
	}
	return decodeMapShards(shards)
}

func unionKeys(a, b map[string][]byte) []string {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}
