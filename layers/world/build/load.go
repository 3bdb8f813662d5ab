package build

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/redact"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/terms"
)

// ErrNotIndexed is returned by Load for a tree without a stored index.
var ErrNotIndexed = errors.New("tree is not indexed")

// World is an indexed tree as Layers 2 and 3 see it: the project map and
// CSG, with facts and file contents read on demand. It is safe for
// concurrent use.
type World struct {
	repo   *gitstore.Repo
	st     *gitstore.Store
	tree   string
	digest string
	cfg    config.Config
	red    *redact.Redactor
	g      *world.Graph
	rows   []rowRecord // the map's records, parallel to g.Files
	defs   []int       // per file of g: its link's definitions, -1 without a link (rows.go)
	meta   *meta

	mu        sync.Mutex
	loadLinks sync.Mutex // held by the one LoadLinks reading the links
	links     map[string]*world.Link
	factCache map[string]*world.Facts
	blobs     gitstore.BlobReader
	closed    bool        // Close was called: StartContent leaves blobs unset
	termDocs  []terms.Doc // the term index's files, read once (terms.go)

	// An opened (not loaded) World reads the map one folder at a time
	// until something needs the whole graph (lazy.go).
	lazy      sync.Once
	mapLoaded atomic.Bool
	mapErr    error
	dirRecs   map[string][]mapRecord
}

// Load opens the stored index of tree; ErrNotIndexed when there is none.
// It reads the whole project map (Open reads it on demand).
func Load(repo *gitstore.Repo, tree string, cfg config.Config) (*World, error) {
	w, err := Open(repo, tree, cfg)
	if err != nil {
		return nil, err
	}
	if w.loadMap(); w.mapErr != nil {
		return nil, w.mapErr
	}
	return w, nil
}

// Tree is the id of the indexed tree.
func (w *World) Tree() string { return w.tree }

// Graph is the tree's CSG. Its Links are filled by LoadLinks.
func (w *World) Graph() *world.Graph { w.loadMap(); return w.g }

// LoadLinks reads every file's resolution summary into Graph().Links.
func (w *World) LoadLinks() error {
	w.loadMap()
	// One caller reads and decodes the links (hundreds of milliseconds on
	// a large tree) while the others wait on loadLinks, not on w.mu: a
	// call reading a file's content meanwhile is not held up.
	w.loadLinks.Lock()
	defer w.loadLinks.Unlock()
	if w.linksLoaded() {
		return nil
	}
	shards, err := w.st.Tree(w.tree, w.digest, artifactLinks)
	if err != nil {
		return err
	}
	links, err := decodeLinkShards(shards)
	if err != nil {
		return err
	}
	all := make([]*world.Link, len(w.g.Files))
	for i, f := range w.g.Files {
		all[i] = links[f.Path]
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.links, w.g.Links = links, all
	return nil
}

// Entry returns the project map row of path.
func (w *World) Entry(path string) (*world.FileEntry, bool) {
	r := w.record(path)
	if r == nil {
		return nil, false
	}
	return &r.FileEntry, true
}

// Facts returns the facts of path; nil and no error for a file without.
func (w *World) Facts(path string) (*world.Facts, error) {
	r := w.record(path)
	if r == nil {
		return nil, fmt.Errorf("%s: not in tree %s", path, short(w.tree))
	}
	key := r.Key
	if key == "" {
		return nil, nil
	}
	w.mu.Lock()
	if f, ok := w.factCache[key]; ok {
		w.mu.Unlock()
		return f, nil
	}
	w.mu.Unlock()
	got, err := w.st.Facts([]string{key})
	if err != nil {
		return nil, err
	}
	b, ok := got[key]
	if !ok {
		return nil, fmt.Errorf("%s: facts %s missing from the store; run git speed index --force", path, short(key))
	}
	f, err := decodeFacts(b)
	if err != nil {
		return nil, fmt.Errorf("%s: stored facts are corrupt (%v); run git speed index --force", path, err)
	}
	w.mu.Lock()
	w.factCache[key] = f
	w.mu.Unlock()
	return f, nil
}

// Content returns the bytes of path at the tree, redacted: secrets show as
// ***REDACTED(rule)*** (package redact), so scope material and prompts
// never carry them.
func (w *World) Content(path string) ([]byte, error) {
	b, err := w.rawContent(path)
	if err != nil {
		return nil, err
	}
	b, _ = w.red.Bytes(path, b)
	return b, nil
}

// rawContent returns the bytes of path at the tree as stored.
func (w *World) rawContent(path string) ([]byte, error) {
	r := w.record(path)
	if r == nil {
		return nil, fmt.Errorf("%s: not in tree %s", path, short(w.tree))
	}
	w.mu.Lock()
	if w.blobs == nil {
		b, err := w.repo.BlobsWith(gitstore.InProcess)
		if err != nil {
			w.mu.Unlock()
			return nil, err
		}
		w.blobs = b
	}
	blobs := w.blobs
	w.mu.Unlock()
	// The reader is a pool safe for concurrent use: reads of several
	// files at once (a server's calls) do not wait for each other.
	return blobs.Read(r.Blob, 0)
}

// StartContent starts the reader of file contents on another goroutine,
// so that it is ready when Content is first asked rather than started
// then: a scope starts it while it reads the map. The reader reads the
// packs in process (gitstore.InProcess), where a `git cat-file --batch`
// started for the few files a scope reads cost more than their reading;
// objects it cannot read itself still go through cat-file.
func (w *World) StartContent() {
	go func() {
		w.mu.Lock()
		started := w.blobs != nil || w.closed
		w.mu.Unlock()
		if started {
			return
		}
		b, err := w.repo.BlobsWith(gitstore.InProcess)
		if err != nil {
			return // Content reports it when asked
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.blobs != nil || w.closed {
			b.Close()
			return
		}
		w.blobs = b
	}()
}

// Close releases the blob reader.
func (w *World) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	if w.blobs != nil {
		w.blobs.Close()
		w.blobs = nil
	}
	return nil
}

// FactsKeys lists the facts keys a tree's index uses, for gc.
func FactsKeys(st *gitstore.Store, tree, digest string) ([]string, error) {
	shards, err := st.Tree(tree, digest, artifactMap)
	if err != nil {
		return nil, err
	}
	recs, err := decodeMapShards(shards)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, r := range recs {
		if r.Key != "" {
			keys = append(keys, r.Key)
		}
	}
	return keys, nil
}

// TreeStatus is how a tree's stored index stands.
type TreeStatus struct {
	// State: "fresh" (indexed under these settings), "missing" (never
	// indexed), "option-mismatch" (indexed under other settings or by
	// another git-speed version only).
	State string
	Files int
}

// Status tells whether tree is indexed under cfg.
func Status(repo *gitstore.Repo, tree string, cfg config.Config) (TreeStatus, error) {
	st := repo.Store()
	digest := treeDigest(&cfg)
	ok, err := st.HasTree(tree, digest)
	if err != nil {
		return TreeStatus{}, err
	}
	if ok {
		m, err := loadMeta(st, tree, digest)
		if err != nil {
			return TreeStatus{}, err
		}
		return TreeStatus{State: "fresh", Files: m.Files}, nil
	}
	trees, err := st.Trees()
	if err != nil {
		return TreeStatus{}, err
	}
	for _, t := range trees {
		if t.Tree == tree {
			return TreeStatus{State: "option-mismatch"}, nil
		}
	}
	return TreeStatus{State: "missing"}, nil
}
