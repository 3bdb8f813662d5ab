package build

import (
	"sort"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/layers/world"
)

// Open opens the stored index of tree like Load, without reading the
// project map: rows are read one folder shard at a time as Entry, Facts
// and Content need them, and the whole map only when Graph or LoadLinks
// is called. A context pack of a large tree reads a few shards, not
// every row (on kubernetes the map alone takes longer than the pack).
func Open(repo *gitstore.Repo, tree string, cfg config.Config) (*World, error) {
	st := repo.Store()
	digest := treeDigest(&cfg)
	ok, err := st.HasTree(tree, digest)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrNotIndexed
	}
	m, err := loadMeta(st, tree, digest)
	if err != nil {
		return nil, err
	}
	red, err := cfg.Redactor()
	if err != nil {
		return nil, err
	}
	return &World{repo: repo, st: st, tree: tree, digest: digest, cfg: cfg, red: red, meta: m, factCache: map[string]*world.Facts{},
		dirRecs: map[string][]mapRecord{}}, nil
}

// loadMap reads the whole map of an opened World, once. A map that cannot
// be read leaves an empty graph; MapErr says why.
func (w *World) loadMap() {
	w.lazy.Do(func() {
		// The rows artifact holds the map in a few large shards (rows.go).
		shards, err := w.st.Tree(w.tree, w.digest, artifactRows)
		var rows []rowRecord
		if err == nil {
			rows, w.defs, err = decodeRows(shards)
		}
		if err != nil {
			w.mapErr = err
			w.g = &world.Graph{Tree: w.tree}
		} else {
			w.rows = rows
			w.g = graphFromRecords(w.tree, rows, w.meta.Symbols)
		}
		w.mapLoaded.Store(true)
	})
}

// MapErr is why the map of an opened World could not be read, if so.
func (w *World) MapErr() error {
	w.loadMap()
	return w.mapErr
}

// record is the map row of path, or nil: from the whole map once it is
// read, else from the shard of path's folder.
func (w *World) record(path string) *mapRecord {
	if w.mapLoaded.Load() {
		i := w.g.Index(path)
		if i < 0 || i >= len(w.rows) {
			return nil
		}
		return &w.rows[i].mapRecord
	}
	dir := shardOf(path)
	w.mu.Lock()
	recs, ok := w.dirRecs[dir]
	w.mu.Unlock()
	if !ok {
		shards, err := w.st.Shards(w.tree, w.digest, artifactMap, []string{dir})
		if err != nil {
			return nil
		}
		if b, found := shards[dir]; found {
			if recs, err = decodeMapShard(b); err != nil {
				return nil
			}
			sort.Slice(recs, func(i, j int) bool { return recs[i].Path < recs[j].Path })
		}
		w.mu.Lock()
		w.dirRecs[dir] = recs
		w.mu.Unlock()
	}
	i := sort.Search(len(recs), func(i int) bool { return recs[i].Path >= path })
	if i < len(recs) && recs[i].Path == path {
		return &recs[i]
	}
	return nil
}

// Prefetch reads the facts of paths in one batch into the cache, so that
// Facts then answers each without a store lookup of its own.
func (w *World) Prefetch(paths []string) {
	var keys []string
	w.mu.Lock()
	for _, p := range paths {
		w.mu.Unlock()
		r := w.record(p)
		w.mu.Lock()
		if r != nil && r.Key != "" {
			if _, ok := w.factCache[r.Key]; !ok {
				keys = append(keys, r.Key)
			}
		}
	}
	w.mu.Unlock()
	if len(keys) == 0 {
		return
	}
	got, err := w.st.Facts(keys)
	if err != nil {
		return // Facts reports the error when asked
	}
	for k, b := range got {
		if f, err := decodeFacts(b); err == nil {
			w.mu.Lock()
			w.factCache[k] = f
			w.mu.Unlock()
		}
	}
}
