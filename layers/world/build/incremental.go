package build

import (
	"context"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/graph"
)

// An update in proportion to the change. Resolving a file reads the other
// files' interfaces — language, package, definitions and imports — and the
// set of paths, never their references (the contract of package graph).
// So when a change only edits files in place, keeping every file's
// interface, no file but the edited ones can resolve differently: the new
// tree's graph is the previous one with the edited files' out-edges
// resolved again. updateInPlace does exactly that. It reads the shards of
// the edited files' folders and, to resolve an edited Go file, the links
// of the folders that file's resolution reads (graph.GoLayout.Needs); it
// writes those shards and shares every other shard with the previous
// tree. Any other change (a file added, deleted or renamed, an interface
// changed, a config file such as go.mod edited, a language without a
// folder-local resolver) takes the whole-tree path, which stores the same
// bytes: TestIncrementalStoresWhatFullDoes checks both ways.

// maxInPlace bounds the edited files the in-place update takes on; more
// than that is cheaper to resolve over the whole tree.
const maxInPlace = 64

// layoutShard is the summary artifact's shard holding the tree's Go layout.
const layoutShard = "go"

// configFile reports whether a resolver reads p as configuration (module
// roots, path mappings, workspaces): an edit to it can move any edge.
func configFile(p string) bool {
	switch b := path.Base(p); b {
	case "go.mod", "go.work", "package.json", "composer.json", "Cargo.toml", "pyproject.toml",
		"setup.cfg", "setup.py", "pnpm-workspace.yaml", "lerna.json", "deno.json":
		return true
	default:
		return (strings.HasPrefix(b, "tsconfig") || strings.HasPrefix(b, "jsconfig")) && strings.HasSuffix(b, ".json")
	}
}

// edited is one file of an in-place change.
type edited struct {
	path    string
	old     mapRecord
	oldLink *world.Link
	f       *file // the new row
}

// updateInPlace indexes tree as prev with the changes edited in place. It
// returns false, with nothing written, when the change is not of that
// kind; the caller then takes the whole-tree path.
func updateInPlace(ctx context.Context, repo *gitstore.Repo, st *gitstore.Store, prev, tree, digest string, cfg *config.Config, opt Options, res *Result, warn func(string)) (bool, error) {
	phase := time.Now()
	lap := func(name string) {
		if opt.Trace != nil {
			opt.Trace("in place: "+name, time.Since(phase))
		}
		phase = time.Now()
	}
	changes, err := repo.DiffTrees(prev, tree)
	if err != nil || len(changes) == 0 || len(changes) > maxInPlace {
		return false, nil
	}
	dirs := map[string]bool{}
	for _, c := range changes {
		if c.From == "" || c.To == "" || c.Mode&0o170000 != 0o100000 || configFile(c.Path) {
			return false, nil
		}
		dirs[shardOf(c.Path)] = true
	}
	m, err := loadMeta(st, prev, digest)
	if err != nil {
		return false, nil
	}
	mapSh, linkSh, err := readShards(st, prev, digest, keysOf(dirs))
	if err != nil {
		return false, nil
	}
	recs := map[string][]mapRecord{}
	links := map[string][]linkRecord{}
	for d := range dirs {
		if recs[d], err = decodeMapShard(mapSh[d]); err != nil {
			return false, nil
		}
		if b, ok := linkSh[d]; ok {
			if links[d], err = decodeLinkShard(b); err != nil {
				return false, nil
			}
		}
	}

	lap("diff and read shards")
	// The edited files, read and extracted as the whole-tree path would.
	cls := newClassifier(cfg)
	var eds []*edited
	for _, c := range changes {
		d := shardOf(c.Path)
		ed := &edited{path: c.Path}
		k := sort.Search(len(recs[d]), func(k int) bool { return recs[d][k].Path >= c.Path })
		if k == len(recs[d]) || recs[d][k].Path != c.Path {
			return false, nil
		}
		ed.old = recs[d][k]
		for _, l := range links[d] {
			if l.Path == c.Path {
				ed.oldLink = l.Link
			}
		}
		ed.f = newFile(cls, c.Path, c.Mode, c.To, -1)
		eds = append(eds, ed)
	}
	files := make([]*file, len(eds))
	for i, ed := range eds {
		files[i] = ed.f
	}
	sub := &Result{}
	if err := fillFacts(ctx, repo, st, files, cfg, opt, sub, func(msg string) { warn(msg) }); err != nil {
		return false, err
	}
	for _, ed := range eds {
		if !sameInterface(ed.old, ed.oldLink, ed.f) {
			return false, nil
		}
	}

	lap("facts")
	// Resolve the edited files again, each from the folders it reads.
	var lay *graph.GoLayout
	for _, ed := range eds {
		l := ed.f.link
		if l == nil {
			continue
		}
		if l.Lang != world.LangGo {
			// A language linked by name alone draws edges only from its
			// references: a file without any has none (a README, a YAML
			// file); with some, the names' definers anywhere count.
			if !graph.HasResolver(l.Lang) && len(l.Refs) == 0 {
				ed.f.rec.Out = nil
				continue
			}
			return false, nil
		}
		if lay == nil {
			if lay, err = loadLayout(st, prev, digest); err != nil {
				return false, nil
			}
		}
		out, ok, err := resolveGoFile(st, prev, tree, digest, lay, ed, eds)
		if err != nil || !ok {
			return false, err
		}
		ed.f.rec.Out = out
	}

	lap("resolve")
	// New rows and links in the edited folders; every other shard is shared.
	newMap := map[string][]byte{}
	newLinks := map[string][]byte{}
	byPath := map[string]*edited{}
	for _, ed := range eds {
		byPath[ed.path] = ed
		m.Edges += len(ed.f.rec.Out) - len(ed.old.Out)
	}
	for d := range dirs {
		rs := recs[d]
		for k := range rs {
			if ed := byPath[rs[k].Path]; ed != nil {
				rs[k] = ed.f.rec
			}
		}
		newMap[d] = encodeMapShard(rs)
		ls := links[d]
		for k := range ls {
			if ed := byPath[ls[k].Path]; ed != nil {
				ls[k].Link = ed.f.link
			}
		}
		if len(ls) > 0 {
			newLinks[d] = encodeLinkShard(ls)
		}
	}
	summary, err := st.Tree(prev, digest, artifactMeta)
	if err != nil {
		return false, nil
	}
	m.Tree = tree
	if summary["meta"], err = jsonMarshal(m); err != nil {
		return false, err
	}

	tpatch, ok := patchTerms(repo, st, prev, digest, cfg, eds) // terms.go
	if !ok {
		return false, nil
	}

	rpatch, err := patchRows(st, prev, digest, eds) // rows.go
	if err != nil {
		return false, nil
	}

	lap("encode")
	txn := st.Begin()
	for _, f := range files {
		putFacts(txn, f)
	}
	txn.PatchTree(tree, digest, artifactMap, prev, digest, newMap)
	txn.PatchTree(tree, digest, artifactLinks, prev, digest, newLinks)
	txn.PatchTree(tree, digest, artifactRows, prev, digest, rpatch)
	txn.PatchTree(tree, digest, artifactDefs, prev, digest, nil) // defs.go: definitions kept
	txn.PatchTree(tree, digest, artifactTerms, prev, digest, tpatch)
	txn.PutTree(tree, digest, artifactMeta, summary)
	if opt.Snapshot {
		txn.KeepSource(tree, digest)
	}
	if err := txn.Commit(fmt.Sprintf("index %s\n\nin place from %s: %d files edited, parsed %d", tree, prev, len(eds), sub.Parsed)); err != nil {
		return false, err
	}
	lap("store")
	res.Base, res.InPlace = prev, true
	res.Files, res.Symbols, res.Edges = m.Files, m.Symbols, m.Edges
	res.Parsed = sub.Parsed
	res.Reused = m.WithFacts - sub.Parsed
	res.Skipped = m.Files - m.WithFacts
	return true, nil
}

func keysOf(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// readShards reads the map and links shards of folders of an indexed tree.
func readShards(st *gitstore.Store, tree, digest string, folders []string) (maps, links map[string][]byte, err error) {
	var wg sync.WaitGroup
	var lerr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		links, lerr = st.Shards(tree, digest, artifactLinks, folders)
	}()
	maps, err = st.Shards(tree, digest, artifactMap, folders)
	wg.Wait()
	if err == nil {
		err = lerr
	}
	return maps, links, err
}

// sameInterface reports whether the new row f keeps what other files'
// resolution and the tree's summary see of the old one: its language,
// flags, whether it has facts, and its link's package, definitions and
// imports.
func sameInterface(old mapRecord, oldLink *world.Link, f *file) bool {
	if old.Lang != f.rec.Lang || (old.Key == "") != (f.rec.Key == "") || (oldLink == nil) != (f.link == nil) {
		return false
	}
	if len(old.Flags) != len(f.rec.Flags) {
		return false
	}
	for i := range old.Flags {
		if old.Flags[i].Name != f.rec.Flags[i].Name {
			return false
		}
	}
	if oldLink == nil {
		return true
	}
	nl := f.link
	if oldLink.Lang != nl.Lang || oldLink.Package != nl.Package || !slices.Equal(oldLink.Defs, nl.Defs) {
		return false
	}
	// A stored link decodes empty lists as nil: compare by content.
	return slices.EqualFunc(oldLink.Imports, nl.Imports, func(a, b world.Import) bool {
		return a.Path == b.Path && a.Alias == b.Alias && a.Line == b.Line && a.Kind == b.Kind && slices.Equal(a.Names, b.Names)
	})
}

// loadLayout reads the Go layout stored with an indexed tree.
func loadLayout(st *gitstore.Store, tree, digest string) (*graph.GoLayout, error) {
	sh, err := st.Shards(tree, digest, artifactMeta, []string{layoutShard})
	if err != nil {
		return nil, err
	}
	b, ok := sh[layoutShard]
	if !ok {
		return nil, fmt.Errorf("tree %s has no Go layout", short(tree))
	}
	var lay graph.GoLayout
	if err := jsonUnmarshal(b, &lay); err != nil {
		return nil, err
	}
	return &lay, nil
}

// resolveGoFile resolves the edited Go file ed of tree over the links of
// the folders its resolution reads (with the edited files' new links) and
// the tree's go.mod files, and returns its out-edges as the whole-tree
// graph has them.
func resolveGoFile(st *gitstore.Store, prev, tree, digest string, lay *graph.GoLayout, ed *edited, eds []*edited) ([]outEdge, bool, error) {
	folders := lay.Needs(ed.path, ed.f.link.Imports)
	for k, d := range folders {
		if d == "." {
			folders[k] = "" // the shard of the top folder
		}
	}
	sh, err := st.Shards(prev, digest, artifactLinks, folders)
	if err != nil {
		return nil, false, nil
	}
	newLink := map[string]*world.Link{}
	for _, e := range eds {
		newLink[e.path] = e.f.link
	}
	type row struct {
		path string
		link *world.Link
	}
	var rows []row
	for _, d := range folders {
		b, ok := sh[d]
		if !ok {
			continue
		}
		ls, err := decodeLinkShard(b)
		if err != nil {
			return nil, false, nil
		}
		for _, l := range ls {
			if nl, ok := newLink[l.Path]; ok {
				l.Link = nl
			}
			rows = append(rows, row{l.Path, l.Link})
		}
	}
	for dir := range lay.Mods {
		rows = append(rows, row{path: path.Join(dir, "go.mod")})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].path < rows[j].path })
	in := graph.Input{Tree: tree, Only: map[string]bool{ed.path: true}}
	for k, r := range rows {
		if k > 0 && r.path == rows[k-1].path {
			continue
		}
		in.Files = append(in.Files, world.FileEntry{Path: r.path})
		in.Links = append(in.Links, r.link)
	}
	// Go resolution reads a go.mod only for its module path, which the
	// layout holds: no blob is read.
	in.Read = func(p string) ([]byte, error) {
		if mp, ok := lay.Mods[path.Dir(p)]; ok && path.Base(p) == "go.mod" {
			return []byte("module " + mp + "\n"), nil
		}
		return nil, fmt.Errorf("%s: not a go.mod of the layout", p)
	}
	g := graph.Build(in)
	from := g.Index(ed.path)
	if from < 0 {
		return nil, false, nil
	}
	var out []outEdge
	for _, e := range g.Edges {
		if e.From == from {
			out = append(out, outEdge{To: g.Files[e.To].Path, Refs: e.Refs, Weight: round(e.Weight)})
		}
	}
	return out, true, nil
}
