package build

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/extract"
)

// Indexing shared out across machines (docs/shards.md). IndexPart parses
// one part of a tree, the files whose blob ids fall in it, and stores
// their facts under a ref of its own (gitstore.WritePart). A plain Index
// of the tree then takes the facts of every file a part holds instead of
// parsing it, and stores what a one-machine build stores: the per-tree
// artifacts are made from the facts alone, and facts are the same bytes
// wherever they were made.

// partMeta describes a part: what made it, for which tree and settings.
type partMeta struct {
	Tree        string `json:"tree"`
	Part        int    `json:"part"`
	Of          int    `json:"of"`
	Extractor   int    `json:"extractor"`
	Format      int    `json:"format"`
	FactsFormat int    `json:"facts_format"`
	FactsDigest string `json:"facts_digest"`
	Files       int    `json:"files"`
}

// PartResult is what an IndexPart run did.
type PartResult struct {
	Tree      string   `json:"tree"`
	Commit    string   `json:"commit,omitempty"`
	Ref       string   `json:"ref"`
	Part      int      `json:"part"`
	Of        int      `json:"of"`
	Files     int      `json:"files"`  // the tree's files in this part
	Facts     int      `json:"facts"`  // facts entries the part holds
	Parsed    int      `json:"parsed"` // parsed in this run
	Reused    int      `json:"reused"` // taken from the store
	ElapsedMS int64    `json:"elapsed_ms"`
	Warnings  []string `json:"warnings,omitempty"`
}

// inPart reports whether blob falls in part k of n. The partition is by
// blob id: a file stays in its part while it is unchanged, wherever it
// moves, and SHA-1 ids spread the files evenly.
func inPart(blob string, k, n int) bool {
	if n <= 1 {
		return true
	}
	if len(blob) < 8 {
		return k == 1
	}
	v, err := strconv.ParseUint(blob[:8], 16, 32)
	if err != nil {
		return k == 1
	}
	return int(v%uint64(n)) == k-1
}

// IndexPart parses part k of n of rev's tree (the files whose blobs fall
// in it; facts the store holds already are taken from it) and stores their
// facts as that part (gitstore.PartRef). It updates no other ref.
func IndexPart(ctx context.Context, repo *gitstore.Repo, rev string, k, n int, opt Options) (*PartResult, error) {
	start := time.Now()
	if n < 1 || k < 1 || k > n {
		return nil, fmt.Errorf("part %d of %d: want 1 ≤ K ≤ N", k, n)
	}
	commit, tree, err := repo.Resolve(rev)
	if err != nil {
		return nil, err
	}
	cfg := &opt.Config
	digest := treeDigest(cfg)
	pr := &PartResult{Tree: tree, Commit: commit, Part: k, Of: n}
	warn := func(msg string) {
		pr.Warnings = append(pr.Warnings, msg)
		if opt.Warn != nil {
			opt.Warn(msg)
		}
	}
	st := repo.Store()
	// Every row fresh (no previous tree): the part's files are the tree's,
	// classified as a one-machine build classifies them.
	files, _, _, err := listFiles(repo, st, tree, digest, cfg, true, warn)
	if err != nil {
		return nil, err
	}
	var mine []*file
	for _, f := range files {
		if inPart(f.rec.Blob, k, n) {
			mine = append(mine, f)
		}
	}
	pr.Files = len(mine)
	res := &Result{}
	opt.parts = nil
	if err := fillFacts(ctx, repo, st, mine, cfg, opt, res, warn); err != nil {
		return nil, err
	}
	pr.Parsed, pr.Reused = res.Parsed, res.Reused
	facts := map[string]string{}
	var stored []string
	for _, f := range mine {
		switch {
		case f.rec.Key == "" || f.link == nil:
		case f.factsID != "":
			facts[f.rec.Key] = f.factsID
		default:
			stored = append(stored, f.rec.Key)
		}
	}
	if len(stored) > 0 {
		ids, err := st.FactsIDs(stored)
		if err != nil {
			return nil, err
		}
		for _, key := range stored {
			if id, ok := ids[key]; ok {
				facts[key] = id
			}
		}
	}
	meta, _ := json.Marshal(partMeta{Tree: tree, Part: k, Of: n, Extractor: extract.Version, Format: world.FormatVersion,
		FactsFormat: factsFormat, FactsDigest: cfg.FactsDigest(), Files: len(mine)})
	if pr.Ref, err = st.WritePart(tree, k, n, meta, facts); err != nil {
		return nil, err
	}
	pr.Facts = len(facts)
	pr.ElapsedMS = time.Since(start).Milliseconds()
	return pr, nil
}

// partFacts are the facts the parts of a tree hold, for the files of an
// Index run (oneFile asks it after the store).
type partFacts struct {
	ids  map[string]string         // facts key → blob id
	from map[string]*gitstore.Part // facts key → its part
	refs []string                  // the parts taken, by ref
	used atomic.Int64
	warn func(string)
	mu   sync.Mutex
	bad  map[string]bool // parts found damaged while read
}

// findParts reads the parts stored for tree and names, through warn, each
// that is missing, stale, damaged or made by another git-speed or under
// other settings; their files are parsed here. Nil when tree has no
// parts.
func findParts(st *gitstore.Store, tree string, cfg *config.Config, warn func(string)) *partFacts {
	parts, err := st.Parts(tree)
	if err != nil {
		warn(fmt.Sprintf("cannot list the parts of tree %s (%v); parsing their files here", short(tree), err))
		return nil
	}
	if len(parts) == 0 {
		return nil
	}
	pf := &partFacts{ids: map[string]string{}, from: map[string]*gitstore.Part{}, warn: warn, bad: map[string]bool{}}
	have := map[int]map[int]bool{} // N → K → listed
	for i := range parts {
		p := &parts[i]
		if p.N > 0 {
			if have[p.N] == nil {
				have[p.N] = map[int]bool{}
			}
			have[p.N][p.K] = true
		}
		if p.Err != nil {
			warn(fmt.Sprintf("%s (%s) is damaged: %v; its files are parsed here", p.Name(), p.Ref, p.Err))
			continue
		}
		var m partMeta
		if err := json.Unmarshal(p.Meta, &m); err != nil {
			warn(fmt.Sprintf("%s (%s) is damaged: its description is not JSON (%v); its files are parsed here", p.Name(), p.Ref, err))
			continue
		}
		switch {
		case m.Tree != tree:
			warn(fmt.Sprintf("%s (%s) is stale: it holds tree %s; its files are parsed here", p.Name(), p.Ref, short(m.Tree)))
			continue
		case m.Part != p.K || m.Of != p.N:
			warn(fmt.Sprintf("%s (%s) is damaged: it says it is part %d-of-%d; its files are parsed here", p.Name(), p.Ref, m.Part, m.Of))
			continue
		case m.Extractor != extract.Version || m.Format != world.FormatVersion || m.FactsFormat != factsFormat:
			warn(fmt.Sprintf("%s (%s) was made by another git-speed (extractor version %d, world format %d, facts format %d; this one writes %d, %d, %d): rejected, its files are parsed here",
				p.Name(), p.Ref, m.Extractor, m.Format, m.FactsFormat, extract.Version, world.FormatVersion, factsFormat))
			continue
		case m.FactsDigest != cfg.FactsDigest():
			warn(fmt.Sprintf("%s (%s) was made under other settings (facts digest %s, here %s): rejected, its files are parsed here",
				p.Name(), p.Ref, m.FactsDigest, cfg.FactsDigest()))
			continue
		}
		pf.refs = append(pf.refs, p.Ref)
		for key, id := range p.Facts {
			pf.ids[key] = id
			pf.from[key] = p
		}
	}
	for n, ks := range have {
		for k := 1; k <= n; k++ {
			if !ks[k] {
				warn(fmt.Sprintf("part %d-of-%d of tree %s is missing (no %s); its files are parsed here", k, n, short(tree), gitstore.PartRef(tree, k, n)))
			}
		}
	}
	return pf
}

// use gives f the facts a part holds for it; false when no part does, or
// the part's facts cannot be read (the part is then named damaged and
// none of its other facts are used).
func (pf *partFacts) use(blobs gitstore.BlobReader, f *file, names *linkTable) bool {
	if pf == nil {
		return false
	}
	id, ok := pf.ids[f.rec.Key]
	if !ok {
		return false
	}
	p := pf.from[f.rec.Key]
	pf.mu.Lock()
	bad := pf.bad[p.Ref]
	pf.mu.Unlock()
	if bad {
		return false
	}
	b, err := blobs.Read(id, 0)
	var facts *world.Facts
	if err == nil {
		facts, err = decodeFacts(b)
	}
	if err != nil {
		pf.mu.Lock()
		if !pf.bad[p.Ref] {
			pf.bad[p.Ref] = true
			pf.warn(fmt.Sprintf("%s (%s) is damaged: the facts of %s (blob %s) are unreadable (%v); its files are parsed here", p.Name(), p.Ref, f.rec.Path, short(id), err))
		}
		pf.mu.Unlock()
		return false
	}
	f.linkEnc = names.encodeLinkOf(facts)
	setTerms(f, facts.Terms, nil)
	f.factsID = id
	pf.used.Add(1)
	return true
}
