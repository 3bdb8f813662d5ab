// Package build is Layer 1's pipeline: for one tree it makes the project
// map, extracts facts of the blobs not seen before (on all cores, cached per
// blob in the store), resolves the code symbol graph and stores it all under
// refs/speed keyed by the tree. It also loads an indexed tree back as a
// World for Layers 2 and 3.
package build

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/trace"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/zeebo/blake3"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/extract"
	"github.com/git-speed/git-speed/layers/world/graph"
)

// Options tune one index run.
type Options struct {
	Config config.Config
	// Force re-extracts every file, ignoring stored facts and artifacts.
	Force bool
	// Warn receives one sentence per problem that does not stop indexing.
	Warn func(msg string)
	// Progress, when set, is called as files are done.
	Progress func(done, total int)
	// Trace, when set, hears how long each phase took (GIT_TRACE).
	Trace func(phase string, d time.Duration)
	// Snapshot marks the tree as a work-tree snapshot that no commit
	// reaches: the store keeps the tree itself beside its index.
	Snapshot bool
	// TuneProcess says the process runs this build alone (a one-shot
	// command): the collector and the memory limit are set for the build
	// while it runs (memory.go). A long-lived process that builds beside
	// other work leaves them as they are.
	TuneProcess bool

	// parts are the facts the tree's parts hold (parts.go), set by Index.
	parts *partFacts
}

// Result is what an index run did.
type Result struct {
	Tree    string `json:"tree"`
	Commit  string `json:"commit,omitempty"`
	Files   int    `json:"files"`
	Parsed  int    `json:"parsed"`
	Reused  int    `json:"reused"`
	Skipped int    `json:"skipped"` // listed without facts: binary, generated, vendored, output, too large, other languages
	// Output are the tree's folders of build output, caches and
	// virtualenvs (output.go); OutputFiles counts the files flagged
	// output, in them or by their own content.
	Output      []OutputRoot `json:"output,omitempty"`
	OutputFiles int          `json:"output_files,omitempty"`
	Symbols     int          `json:"symbols"`
	Edges       int          `json:"edges"`
	UpToDate    bool         `json:"up_to_date"`
	Base        string       `json:"base,omitempty"`     // the indexed tree this run started from
	InPlace     bool         `json:"in_place,omitempty"` // only the edited files were resolved again (see updateInPlace)
	ElapsedMS   int64        `json:"elapsed_ms"`
	Warnings    []string     `json:"warnings,omitempty"`
	// FromParts counts the files whose facts came from the tree's parts
	// (`index --shard K/N`, parts.go); Parts names the parts taken.
	FromParts int      `json:"from_parts,omitempty"`
	Parts     []string `json:"parts,omitempty"`
	// Consolidated: the object database's loose objects and small packs
	// were rolled into one pack after this run (gitstore.Repo.Tidy).
	Consolidated bool `json:"consolidated,omitempty"`
}

// factsKey names a blob's facts in the store: they depend on the blob, the
// language it is read as, the extractor and the settings that shape facts.
func factsKey(blob, lang string, cfg *config.Config) string {
	// (blake3.Sum256 of a short text allocates no hasher: this runs per file.)
	sum := blake3.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%d\x00%d.%d\x00%s", blob, lang, extract.Version, world.FormatVersion, factsFormat, cfg.FactsDigest()))
	return hex.EncodeToString(sum[:20])
}

// treeDigest names the per-tree artifacts of a tree under a configuration.
func treeDigest(cfg *config.Config) string {
	return fmt.Sprintf("f%ds%dl%dw%dd%de%dr%dk%dc%s", world.FormatVersion, shardFormatMap, shardFormatLink, shardFormatRows, shardFormatDefs, extract.Version, graph.Version, classifyVersion, cfg.TreeDigest())
}

// file is one row of the tree being indexed.
type file struct {
	rec     mapRecord
	mode    uint32
	link    *world.Link
	linkEnc []byte // link, encoded in the table of the run that parsed it, until the parses are over (linkTable)
	facts   []byte // encoded facts, when parsed in this run and not yet written
	factsID string // blob id of facts parsed in this run and written already (factsWriter)
	extract bool   // gets facts
	reused  bool
	prevOut []outEdge // out edges in the tree this row was reused from

	// term vector, when known in this run (terms.go)
	terms     []byte // nterms × (uvarint term number, fields byte, uvarint count)
	nterms    int
	haveTerms bool
}

// previous is the indexed tree an incremental run starts from: its rows
// and the encoded shards, which folders without changes reuse as they are.
type previous struct {
	tree       string
	digest     string
	files      map[string]*file
	mapShards  map[string][]byte
	linkShards map[string][]byte
	dirty      map[string]bool // folders with an added, changed or deleted path
}

// Index builds Layer 1 for rev's tree (a commit-ish or tree-ish) unless it
// is stored already.
func Index(ctx context.Context, repo *gitstore.Repo, rev string, opt Options) (*Result, error) {
	start := time.Now()
	commit, tree, err := repo.Resolve(rev)
	if err != nil {
		return nil, err
	}
	cfg := &opt.Config
	digest := treeDigest(cfg)
	res := &Result{Tree: tree, Commit: commit}
	warn := func(msg string) {
		res.Warnings = append(res.Warnings, msg)
		if opt.Warn != nil {
			opt.Warn(msg)
		}
	}
	st := repo.Store()
	// A store that is not ours, or is damaged, is set aside and rebuilt.
	if _, err := st.Trees(); errors.Is(err, gitstore.ErrCorrupt) {
		warn(fmt.Sprintf("%v; set aside under %s<n> and rebuilt", err, gitstore.CorruptRefPrefix))
		if err := st.Reset(); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, err
	}
	if !opt.Force {
		ok, err := st.HasTree(tree, digest)
		if err != nil {
			return nil, err
		}
		if ok {
			m, err := loadMeta(st, tree, digest)
			if err == nil {
				res.UpToDate = true
				res.Files, res.Reused, res.Symbols, res.Edges = m.Files, m.WithFacts, m.Symbols, m.Edges
				res.Output, res.OutputFiles = m.Output, m.OutputFiles
				res.ElapsedMS = time.Since(start).Milliseconds()
				return res, nil
			}
			warn(fmt.Sprintf("stored index of tree %s is unreadable (%v); rebuilding it", short(tree), err))
		}
	}

	if !opt.Force {
		if pf := findParts(st, tree, cfg, warn); pf != nil {
			opt.parts = pf
			defer func() {
				res.FromParts, res.Parts = int(pf.used.Load()), pf.refs
			}()
		}
	}
	phase := time.Now()
	lap := func(name string) {
		if opt.Trace != nil {
			opt.Trace(name, time.Since(phase))
		}
		trace.Log(ctx, "phase done", name) // in an execution trace (GIT_SPEED_GOTRACE)
		phase = time.Now()
	}
	if !opt.Force {
		if base := latestTree(st, tree, digest); base != "" {
			done, err := updateInPlace(ctx, repo, st, base, tree, digest, cfg, opt, res, warn)
			if err != nil {
				return nil, err
			}
			if done {
				lap("in place")
				res.ElapsedMS = time.Since(start).Milliseconds()
				return res, nil
			}
			lap("in place (not applicable)")
		}
	}
	files, prev, roots, err := listFiles(repo, st, tree, digest, cfg, opt.Force, warn)
	if err != nil {
		return nil, err
	}
	res.Output = roots
	var heap *heapCap
	if prev != nil {
		res.Base = prev.tree
	}
	switch {
	case !opt.TuneProcess:
	case prev != nil:
		// A re-index allocates little but walks a lot of it: collect less often.
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	default:
		heap = capHeap(heapFloor, heapRatio)
		defer heap.stop()
	}
	res.Files = len(files)

	lap("list files")
	releaseTerms := holdTerms()
	defer releaseTerms()
	flushFacts, linkTab, err := extractFacts(ctx, repo, st, files, cfg, opt, res, warn)
	if err != nil {
		return nil, err
	}
	lap("facts")
	// The parses are over: what tree-sitter's heap keeps free for them
	// would stay resident through the graph and encoding, where the Go
	// heap is largest.
	extract.TrimHeap()
	if heap != nil {
		heap.setRatio(tightRatio)
	}

	// Each artifact is written to the object database as soon as it is
	// final, and what it was made of is let go. A full build's term index
	// is final now, and encoded first, while the links are still bytes
	// (encoding it takes 45 MB more): the term vectors and the term table
	// are let go before the links are decoded for the graph (on kubernetes
	// 75 MB live). (Encoded while the links were decoded, it doubled the
	// CPU of both: with both live, the collector ran against the heap's
	// limit, memory.go; beside the graph it took the build to 364 MiB.)
	// Then the links are final, the rows and definitions once the graph
	// is resolved, then the map; an update's term index last (it may read
	// the stored facts of rows it carries over).
	txn := st.Begin()
	txn.Uncompressed(uncompressed...)
	putTerms := func() error {
		tshards, err := termShards(st, files, prev, warn)
		if err != nil {
			return err
		}
		releaseTerms()
		return putNow(st, txn, tree, digest, artifactTerms, tshards)
	}
	// The last new facts are written while the term index is encoded
	// (on one core, till it is written).
	flushed := make(chan error, 1)
	go func() { flushed <- flushFacts() }()
	if prev == nil {
		if err := putTerms(); err != nil {
			<-flushed
			return nil, err
		}
		lap("terms")
	}
	linkTab.decodeFiles(files)
	lap("decode links")
	var links []linkRecord
	for _, f := range files {
		if f.link != nil {
			links = append(links, linkRecord{Path: f.rec.Path, Link: f.link})
		}
	}
	var (
		linksID            string
		factsErr, linksErr error
		linksOut           = make(chan struct{})
	)
	// The links artifact is encoded and written while the graph is
	// resolved: it only reads the links, and the graph's preparation (its
	// indexes, one language after another) leaves a core free.
	go func() {
		defer close(linksOut)
		if factsErr = <-flushed; factsErr != nil {
			return
		}
		linksID, linksErr = st.WriteShards(linkShards(links, prev), slices.Contains(uncompressed, artifactLinks))
	}()
	defer func() { <-linksOut }() // on a return before the graph is done
	// Once the links are written, the packs written so far (the facts
	// batches, a full build's term index, the links: on kubernetes 60 MB)
	// are final: they are merged into one while the graph and the other
	// artifacts are made. The commit then has only those artifacts' packs
	// and its own left to merge (it did all of it: ~0.1 s after the
	// store's last write).
	merged := make(chan error, 1)
	go func() {
		<-linksOut
		if factsErr != nil || linksErr != nil {
			merged <- nil // the run fails on those
			return
		}
		merged <- st.MergeWritten()
	}()
	mergeWait := sync.OnceValue(func() error { return <-merged })
	defer mergeWait() // on a return before the commit

	// Resolve the graph over every file's link.
	in := graph.Input{Tree: tree, Files: make([]world.FileEntry, len(files)), Links: make([]*world.Link, len(files))}
	byPath := make(map[string]int, len(files))
	for i, f := range files {
		in.Files[i] = f.rec.FileEntry
		in.Links[i] = f.link
		byPath[f.rec.Path] = i
		if f.link != nil {
			res.Symbols += len(f.link.Defs)
		}
	}
	blobs, err := repo.Blobs()
	if err != nil {
		return nil, err
	}
	defer blobs.Close()
	in.Read = func(p string) ([]byte, error) {
		i, ok := byPath[p]
		if !ok {
			return nil, fmt.Errorf("%s: not in the tree", p)
		}
		return blobs.Read(files[i].rec.Blob, cfg.Index.MaxFileBytes)
	}
	in.Warn = warn
	g := graph.Build(in)
	layout := encodeLayout(graph.NewGoLayout(in))
	lap("graph")
	<-linksOut
	if factsErr != nil {
		return nil, factsErr
	}
	if linksErr != nil {
		return nil, fmt.Errorf("write %s of tree %s: %w", artifactLinks, short(tree), linksErr)
	}
	txn.PutTreeID(tree, digest, artifactLinks, linksID)
	lap("links (what the graph left)")
	res.Edges = len(g.Edges)
	for i := range files {
		files[i].rec.Out = nil
	}
	outEdges(g, func(from int, o outEdge) {
		files[from].rec.Out = append(files[from].rec.Out, o)
	})
	in, g, byPath = graph.Input{}, nil, nil // the links are held by files alone from here

	// Store: new facts, then the tree's other artifacts, then one ref update.
	recs := make([]mapRecord, len(files))
	withFacts := 0
	for i, f := range files {
		recs[i] = f.rec
		putFacts(txn, f)
		if f.link != nil {
			withFacts++
		}
	}
	for _, f := range files {
		if f.rec.Has(world.FlagOutput) {
			res.OutputFiles++
		}
	}
	m := meta{Format: world.FormatVersion, Extractor: extract.Version, Tree: tree, Digest: digest,
		Files: len(files), WithFacts: withFacts, Symbols: res.Symbols, Edges: res.Edges, Output: roots, OutputFiles: res.OutputFiles}
	mdata, _ := jsonMarshal(m)
	// The map is encoded on a core of its own while the rows and
	// definitions are (each alone ran on one core). These are the last
	// artifacts to read the links: they let the links go before an
	// update's term index is encoded (on kubernetes 75 MB the collector
	// would mark again in each of its cycles).
	mapOut := make(chan map[string][]byte, 1)
	go func() { mapOut <- mapShards(recs, files, prev) }()
	putRows(txn, tree, digest, files, recs, links, prev) // rows.go, defs.go
	links = nil
	if prev == nil {
		// Every link is encoded: let the collector have them. (termShards
		// reads links only of rows carried over from a previous tree.)
		for _, f := range files {
			f.link = nil
		}
	}
	if prev == nil {
		// Written by the commit, in its pack (on all cores): written now,
		// it was a pack of its own the commit then merged with its own.
		txn.PutTree(tree, digest, artifactMap, <-mapOut)
	} else if err := putNow(st, txn, tree, digest, artifactMap, <-mapOut); err != nil {
		return nil, err
	}
	recs = nil
	txn.PutTree(tree, digest, artifactMeta, map[string][]byte{"meta": mdata, layoutShard: layout})
	if prev != nil {
		if err := putTerms(); err != nil {
			return nil, err
		}
	}
	if opt.Snapshot {
		txn.KeepSource(tree, digest)
	}
	lap("encode")
	warnUnmerged(mergeWait(), warn)
	if err := txn.Commit(fmt.Sprintf("index %s\n\nfiles %d, parsed %d, reused %d", tree, len(files), res.Parsed, res.Reused)); err != nil {
		return nil, err
	}
	warnUnmerged(txn.Unmerged(), warn)
	lap("store")
	res.ElapsedMS = time.Since(start).Milliseconds()
	return res, nil
}

// warnUnmerged warns when a merge of the packs written (Store.MergeWritten,
// or a commit's: Txn.Unmerged) failed with err.
func warnUnmerged(err error, warn func(string)) {
	if err != nil {
		warn(fmt.Sprintf("packs of this index left unmerged (%v); the store reads them as they are", err))
	}
}

// putNow writes artifact name of tree to the object database at once and
// adds it to txn by its id, so that its shards need not be held until the
// commit.
func putNow(st *gitstore.Store, txn *gitstore.Txn, tree, digest, name string, shards map[string][]byte) error {
	id, err := st.WriteShards(shards, slices.Contains(uncompressed, name))
	if err != nil {
		return fmt.Errorf("write %s of tree %s: %w", name, short(tree), err)
	}
	txn.PutTreeID(tree, digest, name, id)
	return nil
}

func round(w float64) float64 { return float64(int64(w*1000+0.5)) / 1000 }

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// listFiles makes the project map rows of tree and finds its output roots
// (output.go). When a tree indexed under the same settings exists, rows of
// unchanged paths are taken from it with their links, and only the changed
// paths (and rows whose output root changed) are looked at.
func listFiles(repo *gitstore.Repo, st *gitstore.Store, tree, digest string, cfg *config.Config, force bool, warn func(string)) ([]*file, *previous, []OutputRoot, error) {
	cls := newClassifier(cfg)
	var prev *previous
	if !force {
		prev = previousTree(st, tree, digest, warn)
	}
	var files []*file
	if prev != nil {
		changes, err := repo.DiffTrees(prev.tree, tree)
		if err != nil {
			return nil, nil, nil, err
		}
		changed := make(map[string]gitstore.Change, len(changes))
		prev.dirty = map[string]bool{}
		for _, c := range changes {
			changed[c.Path] = c
			prev.dirty[shardOf(c.Path)] = true
		}
		for p, f := range prev.files {
			if _, ok := changed[p]; !ok {
				files = append(files, f)
			}
		}
		for _, c := range changes {
			if c.To == "" {
				continue // deleted
			}
			// The size is learnt when the blob is read.
			files = append(files, newFile(cls, c.Path, c.Mode, c.To, -1))
		}
	} else {
		err := repo.Walk(tree, func(e gitstore.Entry) error {
			files = append(files, newFile(cls, e.Path, e.Mode, e.Blob, e.Size))
			return nil
		})
		if err != nil {
			return nil, nil, nil, err
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rec.Path < files[j].rec.Path })
	roots := markOutputRoots(repo, cls, files, prev, warn)
	return files, prev, roots, nil
}

// linkShards encodes the links artifact, reusing the previous tree's shard
// of every folder without changes (a link depends only on its file's blob).
func linkShards(links []linkRecord, prev *previous) map[string][]byte {
	if prev == nil {
		return encodeLinkShards(links)
	}
	out := map[string][]byte{}
	var todo []linkRecord
	for _, l := range links {
		dir := shardOf(l.Path)
		if b, ok := prev.linkShards[dir]; ok && !prev.dirty[dir] {
			out[dir] = b
			continue
		}
		todo = append(todo, l)
	}
	for dir, b := range encodeLinkShards(todo) {
		out[dir] = b
	}
	return out
}

// mapShards encodes the map artifact, reusing the previous tree's shard of
// every folder whose paths and outgoing edges are all unchanged.
func mapShards(recs []mapRecord, files []*file, prev *previous) map[string][]byte {
	if prev == nil {
		return encodeMapShards(recs)
	}
	same := map[string]bool{}
	for i, f := range files {
		dir := shardOf(f.rec.Path)
		if _, seen := same[dir]; !seen {
			_, had := prev.mapShards[dir]
			same[dir] = had && !prev.dirty[dir]
		}
		if same[dir] && !(f.reused && sameEdges(recs[i].Out, f.prevOut)) {
			same[dir] = false
		}
	}
	out := map[string][]byte{}
	var todo []mapRecord
	for i := range recs {
		dir := shardOf(recs[i].Path)
		if same[dir] {
			out[dir] = prev.mapShards[dir]
			continue
		}
		todo = append(todo, recs[i])
	}
	for dir, b := range encodeMapShards(todo) {
		out[dir] = b
	}
	return out
}

func sameEdges(a, b []outEdge) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func newFile(cls *classifier, p string, mode uint32, blob string, size int64) *file {
	e, read := cls.byPath(p, mode, size)
	e.Blob = blob
	f := &file{rec: mapRecord{FileEntry: e}, mode: mode}
	f.extract = read // provisional: decided after the content is seen
	return f
}

// latestTree is the most recently indexed tree other than tree under the
// same settings; "" when there is none.
func latestTree(st *gitstore.Store, tree, digest string) string {
	trees, err := st.Trees()
	if err != nil {
		return ""
	}
	latest, seq := "", int64(-1)
	for _, t := range trees {
		if t.Digest == digest && t.Tree != tree && t.Seq > seq {
			latest, seq = t.Tree, t.Seq
		}
	}
	return latest
}

// previousTree finds the most recently indexed tree under the same settings
// and loads its rows, links and shards; nil when there is none.
func previousTree(st *gitstore.Store, tree, digest string, warn func(string)) *previous {
	trees, err := st.Trees()
	if err != nil {
		warn(fmt.Sprintf("cannot list indexed trees (%v); indexing from scratch", err))
		return nil
	}
	sort.Slice(trees, func(i, j int) bool { return trees[i].Seq < trees[j].Seq })
	for i := len(trees) - 1; i >= 0; i-- {
		t := trees[i]
		if t.Digest != digest || t.Tree == tree {
			continue
		}
		prev, err := loadPrevious(st, t.Tree, digest)
		if err != nil {
			warn(fmt.Sprintf("stored index of tree %s is unreadable (%v); not reusing it", short(t.Tree), err))
			continue
		}
		return prev
	}
	return nil
}

func loadPrevious(st *gitstore.Store, tree, digest string) (*previous, error) {
	// The two artifacts are read and decoded at the same time.
	var (
		mshards, lshards map[string][]byte
		recs             []mapRecord
		links            map[string]*world.Link
		merr, lerr       error
		wg               sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		if lshards, lerr = st.Tree(tree, digest, artifactLinks); lerr == nil {
			links, lerr = decodeLinkShards(lshards)
		}
	}()
	if mshards, merr = st.Tree(tree, digest, artifactMap); merr == nil {
		recs, merr = decodeMapShards(mshards)
	}
	wg.Wait()
	if merr != nil {
		return nil, merr
	}
	if lerr != nil {
		return nil, lerr
	}
	p := &previous{tree: tree, digest: digest, files: make(map[string]*file, len(recs)), mapShards: mshards, linkShards: lshards}
	for _, r := range recs {
		out := r.Out
		r.Out = nil
		p.files[r.Path] = &file{rec: r, link: links[r.Path], reused: true, prevOut: out}
	}
	return p, nil
}

func loadMeta(st *gitstore.Store, tree, digest string) (*meta, error) {
	shards, err := st.Tree(tree, digest, artifactMeta)
	if err != nil {
		return nil, err
	}
	return decodeMeta(shards, tree)
}

// decodeMeta reads the summary of tree from its meta artifact's shards.
func decodeMeta(shards map[string][]byte, tree string) (*meta, error) {
	var m meta
	if err := jsonUnmarshal(shards["meta"], &m); err != nil {
		return nil, fmt.Errorf("meta: %w", err)
	}
	if m.Format != world.FormatVersion || m.Tree != tree {
		return nil, errors.New("meta: another format or tree")
	}
	return &m, nil
}

// fillFacts reads the content of every new row, completes its project map
// entry and gives it facts: from the store when the blob was seen before,
// from the extractor otherwise. It runs on cfg.Index.Workers goroutines.
// trimEvery is how many files fillFacts takes between giving back the
// pages tree-sitter's heap keeps free. A large file's parse leaves its
// tree's room free in glibc's heap, which keeps it: on kubernetes about
// 35 MB resident by the end of the parses. Given back every thousand or
// so files, it costs a few page faults when a parse needs the room again.
const trimEvery = 1024

func fillFacts(ctx context.Context, repo *gitstore.Repo, st *gitstore.Store, files []*file, cfg *config.Config, opt Options, res *Result, warn func(string)) error {
	flush, links, err := extractFacts(ctx, repo, st, files, cfg, opt, res, warn)
	if err != nil {
		return err
	}
	links.decodeFiles(files)
	return flush()
}

// extractFacts is fillFacts but for the writing of the last batch of new
// facts, which flush does: a full build writes it while the graph is
// resolved; and but for the links of the files it parsed, which it
// leaves encoded in links until links.decodeFiles.
func extractFacts(ctx context.Context, repo *gitstore.Repo, st *gitstore.Store, files []*file, cfg *config.Config, opt Options, res *Result, warn func(string)) (flush func() error, links *linkTable, err error) {
	// Stored facts are looked up one file at a time: read the store's ref once.
	if unpin, err := st.Pin(); err == nil {
		defer unpin()
	}
	var todo []*file
	for _, f := range files {
		if f.reused {
			if f.link != nil {
				res.Reused++
			} else {
				res.Skipped++
			}
			continue
		}
		if !f.extract && !f.rec.Has(world.FlagTooLarge) {
			res.Skipped++
			continue
		}
		todo = append(todo, f)
	}
	todo = parseOrder(todo)
	workers := cfg.Index.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = max(1, min(workers, len(todo)))
	// A few files (an in-place update) are read in process: starting a
	// cat-file per worker cost more than reading them.
	backend := gitstore.CatFile
	if len(todo) <= maxInPlace {
		backend = gitstore.InProcess
	}
	fw := newFactsWriter(st)
	names := new(linkTable)
	var (
		mu       sync.Mutex
		firstErr error
		done     int
		next     int
	)
	take := func() *file {
		mu.Lock()
		defer mu.Unlock()
		if next >= len(todo) || firstErr != nil {
			return nil
		}
		f := todo[next]
		next++
		return f
	}
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}
	blobs, err := repo.BlobsWith(backend)
	if err != nil {
		return nil, nil, err
	}
	defer blobs.Close()
	ready, stopReading := readAhead(blobs, take, cfg, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cur := &fetchedReader{blobs: blobs}
			for x := range ready {
				if err := ctx.Err(); err != nil {
					fail(err)
					return
				}
				f := x.f
				cur.x = x
				parsed, reused, err := oneFile(cur, st, f, cfg, opt.Force, opt.parts, names, warn, &mu)
				cur.x = fetched{}
				if err != nil {
					fail(err)
					return
				}
				if parsed {
					if err := fw.add(f); err != nil {
						fail(err)
						return
					}
				}
				mu.Lock()
				switch {
				case parsed:
					res.Parsed++
				case reused:
					res.Reused++
				default:
					res.Skipped++
				}
				done++
				trim := done%trimEvery == 0
				if opt.Progress != nil {
					opt.Progress(done, len(todo))
				}
				mu.Unlock()
				if trim {
					extract.TrimHeap()
				}
			}
		}()
	}
	wg.Wait()
	stopReading()
	if firstErr != nil {
		fw.wait()
		return nil, nil, firstErr
	}
	return fw.flush, names, nil
}

// largeFile is the size from which parseOrder puts a file ahead.
const largeFile = 128 << 10

// parseOrder is the order the workers take files in. In path order a
// large file parsed last kept one worker busy after the other had
// finished, and the last five thousand files (kubernetes' vendor/, read
// only to be counted) left both waiting on git cat-file, one blob at a
// time: about the last second of the parses ran on one core. So the large
// files come first, and the files most likely read but not parsed
// (vendored, generated, too large: by path) are spread evenly among the
// others, whose parses hide their reads. Each group keeps its path order,
// which keeps git cat-file's reads of neighbouring blobs together.
// Nothing stored depends on the order.
func parseOrder(files []*file) []*file {
	var large, heavy, light []*file
	for _, f := range files {
		switch {
		case f.rec.Has(world.FlagTooLarge) || f.rec.Has(world.FlagVendored) || f.rec.Has(world.FlagGenerated):
			light = append(light, f)
		case f.rec.Size >= largeFile:
			large = append(large, f)
		default:
			heavy = append(heavy, f)
		}
	}
	out := append(make([]*file, 0, len(files)), large...)
	if len(heavy) == 0 {
		return append(out, light...)
	}
	j := 0
	for i, f := range heavy {
		out = append(out, f)
		// after i+1 of the heavy files, as many of the light ones
		for k := (i + 1) * len(light) / len(heavy); j < k; j++ {
			out = append(out, light[j])
		}
	}
	return out
}

// readLimit is how much of f's blob is read: its head alone when it is
// known to be too large.
func readLimit(f *file, cfg *config.Config) int64 {
	if f.rec.Has(world.FlagTooLarge) {
		return headBytes
	}
	return cfg.Index.MaxFileBytes + 1
}

// readyPerWorker is how many files per worker readAhead keeps read and
// waiting. One file ahead of each worker was not enough: on kubernetes
// the workers waited 2.4 s in all for their next blob (a run of small files
// parses faster than git cat-file answers one at a time, and a large blob
// takes a while to come), while the read goroutines sat blocked on a
// worker still busy with its current file. A few files each take a few
// hundred kilobytes at most (a blob is read up to index.max_file_bytes).
const readyPerWorker = 4

// fetched is a file taken by readAhead, with its blob read.
type fetched struct {
	f     *file
	limit int64
	data  []byte
	err   error
}

// readAhead takes files with take and reads their blobs from blobs on
// n goroutines, into the channel it returns, until take has no more (the
// channel is then closed) or stop is called; stop waits for the
// goroutines. Every worker takes from the one channel, so that no file
// waits behind another worker's long parse.
func readAhead(blobs gitstore.BlobReader, take func() *file, cfg *config.Config, n int) (ready <-chan fetched, stop func()) {
	ch := make(chan fetched, n*readyPerWorker)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := take(); f != nil; f = take() {
				x := fetched{f: f, limit: readLimit(f, cfg)}
				x.data, x.err = blobs.Read(f.rec.Blob, x.limit)
				select {
				case ch <- x:
				case <-done:
					return
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(ch)
	}()
	var once sync.Once
	return ch, func() {
		once.Do(func() { close(done) })
		wg.Wait()
	}
}

// fetchedReader is a worker's BlobReader: the blob read ahead for its
// current file, any other from blobs.
type fetchedReader struct {
	blobs gitstore.BlobReader
	x     fetched
}

// Read returns the blob read ahead for the current file, or reads id.
func (r *fetchedReader) Read(id string, limit int64) ([]byte, error) {
	if x := r.x; x.f != nil && x.f.rec.Blob == id && x.limit == limit {
		r.x = fetched{}
		return x.data, x.err
	}
	return r.blobs.Read(id, limit)
}

// Close does nothing: blobs is closed by the run that made it.
func (r *fetchedReader) Close() error { return nil }

// factsBatch is how many bytes of new facts are written to the object
// database at once while a build goes on: a full build of a large tree
// would otherwise hold all of them until its commit.
var factsBatch = 8 << 20

// factsWriter writes the facts of parsed files in batches as they come.
// A full batch is written on a goroutine of its own while the workers go
// on parsing: the worker that filled it used to wait for its compression,
// whose last part (the pack file, its index) runs on one core. One batch
// is written at a time; a worker that fills the next one meanwhile waits
// for it, so at most two batches are held.
type factsWriter struct {
	st      *gitstore.Store
	mu      sync.Mutex
	batch   []*file
	size    int
	err     error         // the first failed write's
	writing chan struct{} // holds a token while a batch is written
	wg      sync.WaitGroup
}

func newFactsWriter(st *gitstore.Store) *factsWriter {
	return &factsWriter{st: st, writing: make(chan struct{}, 1)}
}

func (w *factsWriter) add(f *file) error {
	w.mu.Lock()
	w.batch = append(w.batch, f)
	w.size += len(f.facts)
	if w.size < factsBatch || w.err != nil {
		err := w.err
		w.mu.Unlock()
		return err
	}
	b := w.batch
	w.batch, w.size = nil, 0
	w.mu.Unlock()
	w.writing <- struct{}{}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		err := w.write(b)
		<-w.writing
		if err != nil {
			w.mu.Lock()
			if w.err == nil {
				w.err = err
			}
			w.mu.Unlock()
		}
	}()
	return nil
}

// flush writes the last batch, once the batches on their way are written.
func (w *factsWriter) flush() error {
	w.wg.Wait()
	w.mu.Lock()
	b, err := w.batch, w.err
	w.batch, w.size = nil, 0
	w.mu.Unlock()
	if err != nil {
		return err
	}
	return w.write(b)
}

// wait waits for the batches on their way, when a run stops early.
func (w *factsWriter) wait() { w.wg.Wait() }

func (w *factsWriter) write(b []*file) error {
	if len(b) == 0 {
		return nil
	}
	blobs := make([][]byte, len(b))
	for i, f := range b {
		blobs[i] = f.facts
	}
	ids, err := w.st.WriteBlobs(blobs)
	if err != nil {
		return fmt.Errorf("write facts: %w", err)
	}
	for i, f := range b {
		f.factsID, f.facts = ids[i], nil
	}
	return nil
}

// putFacts adds f's new facts, written already or not, to txn.
func putFacts(txn *gitstore.Txn, f *file) {
	switch {
	case f.factsID != "":
		txn.PutFactsID(f.rec.Key, f.factsID)
	case f.facts != nil:
		txn.PutFacts(f.rec.Key, f.facts)
		f.facts = nil
	}
}

// oneFile reads one new row's blob, finishes its entry and finds its facts.
func oneFile(blobs gitstore.BlobReader, st *gitstore.Store, f *file, cfg *config.Config, force bool, parts *partFacts, names *linkTable, warn func(string), mu *sync.Mutex) (parsed, reused bool, err error) {
	limit := readLimit(f, cfg)
	data, err := blobs.Read(f.rec.Blob, limit)
	if err != nil {
		mu.Lock()
		warn(fmt.Sprintf("%s: cannot read blob %s (%v); listed without facts", f.rec.Path, short(f.rec.Blob), err))
		mu.Unlock()
		return false, false, nil
	}
	cls := newClassifier(cfg)
	if f.rec.Size < 0 { // size not known from the tree walk
		if int64(len(data)) > cfg.Index.MaxFileBytes {
			f.rec.Size = int64(len(data))
			f.rec.Flags = append(f.rec.Flags, world.Flag{Name: world.FlagTooLarge, Reason: "larger than index.max_file_bytes"})
			f.rec.Tokens = tokens.Estimate(f.rec.Lang, f.rec.Size)
		} else {
			f.rec.Size = int64(len(data))
		}
	}
	f.extract = cls.byContent(&f.rec.FileEntry, data, extract.Supported)
	red, err := cfg.Redactor()
	if err != nil {
		return false, false, err
	}
	if !f.extract {
		// Terms are stored: they are taken from the redacted text.
		if wantsPlainTerms(f) && !(f.rec.Has(world.FlagOutput) && cfg.Index.Output == "skip") {
			clean, _ := red.Bytes(f.rec.Path, data)
			plainTerms(f, clean)
		}
		return false, false, nil
	}
	f.rec.Key = factsKey(f.rec.Blob, f.rec.Lang, cfg)
	if !force {
		stored, err := st.Facts([]string{f.rec.Key})
		if err == nil {
			if b, ok := stored[f.rec.Key]; ok {
				facts, err := decodeFacts(b)
				if err == nil {
					f.linkEnc = names.encodeLinkOf(facts)
					setTerms(f, facts.Terms, nil)
					return false, true, nil
				}
			}
		}
		if parts.use(blobs, f, names) {
			return false, true, nil
		}
	}
	// Facts and terms are both taken from the redacted text, redacted once.
	clean, _ := red.Bytes(f.rec.Path, data)
	facts, err := extract.Extract(f.rec.Lang, clean, extract.Options{Timeout: cfg.Index.ParseTimeout.D(), Path: f.rec.Path, Redact: red, Redacted: true})
	if err != nil {
		return false, false, fmt.Errorf("%s: %w", f.rec.Path, err)
	}
	if facts.Warning != "" && !facts.Partial {
		mu.Lock()
		warn(fmt.Sprintf("%s: %s", f.rec.Path, facts.Warning))
		mu.Unlock()
	}
	withTermVector(facts, clean, func(hashes []uint32) {
		setTerms(f, facts.Terms, hashes)
		f.facts, f.linkEnc = encodeFactsLink(facts, names)
	})
	extract.Release(facts) // its references are encoded and linked
	return true, false, nil
}
