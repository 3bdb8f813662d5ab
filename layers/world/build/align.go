package build

import (
	"encoding/json"
	"fmt"

	"github.com/zeebo/blake3"

	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/world/align"
)

// Alignment returns the spec alignment of feature f with this tree: a
// Layer 1 artifact per tree and feature, stored beside the tree's index
// under a digest of the feature's files, so it is computed once per tree
// and spec/task revision. A failure to store it only costs recomputation;
// warn hears of it.
func (w *World) Alignment(f *feature.Feature, warn func(string)) (*align.Alignment, error) {
	a, keep, err := w.AlignmentUnkept(f)
	if keep != nil {
		keep(warn)
	}
	return a, err
}

// AlignmentUnkept is Alignment leaving the storing to the caller: keep,
// when not nil (the alignment was computed, not read), stores it, telling
// warn of a failure. Storing takes the store's lock, so a scope keeps the
// alignment once it reads the store no more.
func (w *World) AlignmentUnkept(f *feature.Feature) (a *align.Alignment, keep func(warn func(string)), err error) {
	name := "align-" + featureDigest(f)
	if shards, err := w.st.Tree(w.tree, w.digest, name); err == nil {
		var a align.Alignment
		if err := json.Unmarshal(shards["alignment"], &a); err == nil && a.Version == align.Version && a.Tree == w.tree {
			return &a, nil, nil
		}
	}
	g, err := w.defsGraph(align.Wants(f)) // linksof.go
	if err != nil {
		return nil, nil, err
	}
	a = align.Align(g, w.Facts, f)
	data, err := json.Marshal(a)
	if err != nil {
		return nil, nil, err
	}
	keep = func(warn func(string)) {
		txn := w.st.Begin()
		txn.PutTree(w.tree, w.digest, name, map[string][]byte{"alignment": data})
		if err := txn.Commit(fmt.Sprintf("align %s with %s", f.Name, w.tree)); err != nil && warn != nil {
			warn(fmt.Sprintf("could not store the alignment of %s (%v); it will be computed again", f.Name, err))
		}
	}
	return a, keep, nil
}

// featureDigest names a revision of a feature's files for alignment.
func featureDigest(f *feature.Feature) string {
	h := blake3.New()
	fmt.Fprintf(h, "align-v%d\x00%s\x00%s\x00", align.Version, f.Name, f.SpecRaw)
	for _, t := range f.Tasks {
		fmt.Fprintf(h, "%s\x00%s\x00", t.Path, t.Raw)
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:20]
}
