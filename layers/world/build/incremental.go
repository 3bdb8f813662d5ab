package build

import (
	"context"
	"errors"
	"fmt"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
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
// of the folders that file's resolution reads (graph.GoLayout.Needs),
// without their references; it writes those shards and shares every other
// shard with the previous tree.
//
// Go narrows what an interface is: a Go file's imports are read by the
// resolution of its folder's files alone, so an edit that changes only
// them stays in place, resolving that folder's files again and storing the
// layout's Uses anew; and when its definitions change (same package), the files that can
// resolve differently are those reading its folder — the folder's Go
// files and those whose imports reach it (graph.GoLayout.Reads, found
// from every file's imports). resolveReaders resolves them again over the
// folders they read and rewrites their map rows.
//
// Any other change (a file added, deleted or renamed, another language's
// interface changed, a config file such as go.mod edited, a language
// without a folder-local resolver) takes the whole-tree path, which stores
// the same bytes: TestIncrementalStoresWhatFullDoes checks both ways.

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
	// An in-place update allocates a few tens of MB at most (maxInPlace
	// files and the shards they read; up to 150 MB when thousands of
	// readers are resolved again).
	if opt.TuneProcess {
		defer CollectRarely()()
	}
	defer holdTerms()() // the edited files' vectors are packed until patchTerms
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
		if c.From == "" || c.To == "" || c.Mode&0o170000 != 0o100000 || configFile(c.Path) || outputMarker(c.Path) {
			return false, nil
		}
		dirs[shardOf(c.Path)] = true
	}
	// The edited files are read and extracted, as the whole-tree path
	// would, on other cores while this one reads what resolving them
	// needs: the rows and links of their folders, the Go layout, the
	// interfaces of the folders their old imports reach (prefetch).
	cls := newClassifier(cfg)
	files := make([]*file, len(changes))
	for i, c := range changes {
		files[i] = newFile(cls, c.Path, c.Mode, c.To, -1)
	}
	sub := &Result{}
	factsDone := make(chan error, 1)
	go func() { factsDone <- fillFacts(ctx, repo, st, files, cfg, opt, sub, warn) }()
	var factsErr error
	waited := false
	waitFacts := func() error {
		if !waited {
			factsErr, waited = <-factsDone, true
		}
		return factsErr
	}
	defer waitFacts()
	// The summary artifact is read once: its meta and Go layout shards are
	// read here, and it is stored again with the new meta.
	summary, err := st.Tree(prev, digest, artifactMeta)
	if err != nil {
		return false, nil
	}
	m, err := decodeMeta(summary, prev)
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

	var eds []*edited
	for i, c := range changes {
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
		ed.f = files[i]
		eds = append(eds, ed)
	}
	var lay *graph.GoLayout
	prefetched := prefetchInterfaces(st, prev, digest, summary, eds, &lay)
	lap("diff and read shards")
	if err := waitFacts(); err != nil {
		return false, err
	}
	// Output files (output.go) are left to the whole-tree path: a root's
	// flag is given by the tree walk, and a file that becomes output, or
	// stops being so, by its content changes what the tree stores of it.
	for _, ed := range eds {
		if ed.old.Has(world.FlagOutput) || ed.f.rec.Has(world.FlagOutput) {
			return false, nil
		}
	}
	// Folders whose Go definitions changed: the files reading them are
	// resolved again too (resolveReaders).
	changed := map[string]bool{}
	for _, ed := range eds {
		if sameInterface(ed.old, ed.oldLink, ed.f) {
			continue
		}
		if !goDefsChanged(ed.old, ed.oldLink, ed.f) {
			return false, nil
		}
		changed[path.Dir(ed.path)] = true
		m.Symbols += len(ed.f.link.Defs) - len(ed.oldLink.Defs)
	}

	// A Go file's imports are read by its folder's files too (they name
	// types through them, graph.GoLayout.Uses): the folder's files are
	// resolved again and the layout is stored anew.
	var usesDirs []string
	for _, ed := range eds {
		if ed.oldLink != nil && ed.f.link != nil && ed.f.link.Lang == world.LangGo && !sameImports(ed.oldLink.Imports, ed.f.link.Imports) {
			changed[path.Dir(ed.path)] = true
			usesDirs = append(usesDirs, path.Dir(ed.path))
		}
	}

	lap("facts")
	// The term index's patch needs the files' terms, not their edges: it
	// is made on another core while they are resolved.
	type termsPatch struct {
		shards map[string][]byte
		ok     bool
	}
	termsDone := make(chan termsPatch, 1)
	go func() {
		sh, ok := patchTerms(repo, st, prev, digest, cfg, eds) // terms.go
		termsDone <- termsPatch{sh, ok}
	}()
	var tp *termsPatch
	waitTerms := func() termsPatch {
		if tp == nil {
			t := <-termsDone
			tp = &t
		}
		return *tp
	}
	defer waitTerms()
	// Out-edges of files other than the edited ones, resolved again.
	var readers map[string][]outEdge
	if len(changed) > 0 {
		if lay == nil {
			if lay, err = decodeLayout(summary); err != nil {
				return false, nil
			}
		}
		var ok bool
		readers, ok, err = resolveReaders(st, prev, tree, digest, lay, eds, keysOf(changed))
		if err != nil || !ok {
			return false, err
		}
	}
	// Resolve the edited files again, each from the folders it reads.
	for _, ed := range eds {
		l := ed.f.link
		if l == nil {
			continue
		}
		if out, ok := readers[ed.path]; ok {
			ed.f.rec.Out = out
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
			if lay, err = decodeLayout(summary); err != nil {
				return false, nil
			}
		}
		out, ok, err := resolveGoFile(st, prev, tree, digest, lay, ed, eds, prefetched)
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
		m.Edges += certainEdges(ed.f.rec.Out) - certainEdges(ed.old.Out)
	}
	// The readers' rows get their new out-edges, in their folders' shards.
	var more []string
	for p := range readers {
		if d := shardOf(p); byPath[p] == nil && !dirs[d] {
			more = append(more, d)
		}
	}
	if len(more) > 0 {
		sh, err := st.Shards(prev, digest, artifactMap, more)
		if err != nil {
			return false, nil
		}
		for d, b := range sh {
			if recs[d], err = decodeMapShard(b); err != nil {
				return false, nil
			}
		}
	}
	placed := 0
	for d, rs := range recs {
		touched := false
		for k := range rs {
			if out, ok := readers[rs[k].Path]; ok && byPath[rs[k].Path] == nil {
				m.Edges += certainEdges(out) - certainEdges(rs[k].Out)
				rs[k].Out = out
				touched = true
				placed++
			}
		}
		if touched && !dirs[d] {
			newMap[d] = encodeMapShard(rs)
		}
	}
	for p := range readers {
		if byPath[p] == nil {
			placed--
		}
	}
	if placed != 0 {
		return false, nil // a reader without a row: the stored map disagrees with the links
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
	if len(usesDirs) > 0 {
		if lay == nil {
			if lay, err = decodeLayout(summary); err != nil {
				return false, nil
			}
		}
		for _, d := range usesDirs {
			var imps [][]world.Import
			for _, l := range links[shardOf(path.Join(d, "x.go"))] {
				if l.Link != nil && l.Link.Lang == world.LangGo && path.Dir(l.Path) == d && len(l.Link.Imports) > 0 {
					imps = append(imps, l.Link.Imports)
				}
			}
			lay.Refresh(d, imps)
		}
		summary[layoutShard] = encodeLayout(lay)
	}
	if b := summary[layoutShard]; len(b) > 0 && b[0] == '{' {
		// The JSON of a store written before encodeLayout: stored as a
		// whole index of this tree would store it.
		if lay == nil {
			if lay, err = decodeLayout(summary); err != nil {
				return false, nil
			}
		}
		summary[layoutShard] = encodeLayout(lay)
	}
	m.Tree = tree
	if summary["meta"], err = jsonMarshal(m); err != nil {
		return false, err
	}

	tpr := waitTerms()
	if !tpr.ok {
		return false, nil
	}
	tpatch := tpr.shards

	fix := map[string]func(*rowRecord){}
	for _, ed := range eds {
		r := rowRecord{mapRecord: ed.f.rec, defs: linkDefs(ed.f.link)}
		fix[ed.path] = func(row *rowRecord) { *row = r }
	}
	for p, out := range readers {
		if byPath[p] == nil {
			fix[p] = func(row *rowRecord) { row.Out = out }
		}
	}
	rpatch, err := patchRows(st, prev, digest, fix) // rows.go
	if err != nil {
		return false, nil
	}
	dpatch, err := patchDefs(st, prev, digest, eds) // defs.go
	if err != nil {
		return false, nil
	}

	lap("encode")
	txn := st.Begin()
	txn.Uncompressed(uncompressed...)
	for _, f := range files {
		putFacts(txn, f)
	}
	txn.PatchTree(tree, digest, artifactMap, prev, digest, newMap)
	txn.PatchTree(tree, digest, artifactLinks, prev, digest, newLinks)
	txn.PatchTree(tree, digest, artifactRows, prev, digest, rpatch)
	txn.PatchTree(tree, digest, artifactDefs, prev, digest, dpatch)
	txn.PatchTree(tree, digest, artifactTerms, prev, digest, tpatch)
	txn.PutTree(tree, digest, artifactMeta, summary)
	if opt.Snapshot {
		txn.KeepSource(tree, digest)
	}
	if err := txn.Commit(fmt.Sprintf("index %s\n\nin place from %s: %d files edited, parsed %d", tree, prev, len(eds), sub.Parsed)); err != nil {
		return false, err
	}
	warnUnmerged(txn.Unmerged(), warn)
	lap("store")
	res.Base, res.InPlace = prev, true
	res.Files, res.Symbols, res.Edges = m.Files, m.Symbols, m.Edges
	res.Output, res.OutputFiles = m.Output, m.OutputFiles
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
// (but for Go) imports.
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
	// Go resolution reads a file's imports for the files of its folder
	// alone (package graph, GoLayout.Uses): an update that changes them
	// resolves that folder's files again and stores the layout anew;
	// other Go files see its package and definitions, and no other
	// language reads Go files' imports.
	if nl.Lang == world.LangGo {
		return true
	}
	return sameImports(oldLink.Imports, nl.Imports)
}

// sameImports compares two import lists by content (a stored link decodes
// empty lists as nil).
func sameImports(a, b []world.Import) bool {
	return slices.EqualFunc(a, b, func(a, b world.Import) bool {
		return a.Path == b.Path && a.Alias == b.Alias && a.Line == b.Line && a.Kind == b.Kind && slices.Equal(a.Names, b.Names)
	})
}

// decodeLayout reads the Go layout from an indexed tree's summary artifact.
func decodeLayout(summary map[string][]byte) (*graph.GoLayout, error) {
	b, ok := summary[layoutShard]
	if !ok {
		return nil, errors.New("the indexed tree has no Go layout")
	}
	return decodeLayoutShard(b)
}

// needShards returns the link shards (folders, "" for the top one) that
// resolving the Go file p with imports imps reads (graph.GoLayout.Needs).
func needShards(lay *graph.GoLayout, p string, imps []world.Import) []string {
	folders := lay.Needs(p, imps)
	for k, d := range folders {
		if d == "." {
			folders[k] = "" // the shard of the top folder
		}
	}
	return folders
}

// prefetchInterfaces reads and decodes, without their references, the
// link shards that resolving the edited Go files would read if their
// imports stay as they were (*lay is decoded for it), while the files are
// parsed. A shard the stored links lack is absent: resolveGoFile reads
// what its new imports need beyond these. Nothing is read when no edited
// file was a Go file with a link, or the summary has no layout.
func prefetchInterfaces(st *gitstore.Store, prev, digest string, summary map[string][]byte, eds []*edited, lay **graph.GoLayout) map[string][]linkRecord {
	var folders []string
	for _, ed := range eds {
		if ed.oldLink == nil || ed.oldLink.Lang != world.LangGo {
			continue
		}
		if *lay == nil {
			l, err := decodeLayout(summary)
			if err != nil {
				return nil
			}
			*lay = l
		}
		folders = append(folders, needShards(*lay, ed.path, ed.oldLink.Imports)...)
	}
	if len(folders) == 0 {
		return nil
	}
	slices.Sort(folders)
	folders = slices.Compact(folders)
	sh, err := st.Shards(prev, digest, artifactLinks, folders)
	if err != nil {
		return nil
	}
	out := make(map[string][]linkRecord, len(sh))
	for d, b := range sh {
		ls, err := decodeLinkShardInterfaces(b)
		if err != nil {
			return nil
		}
		out[d] = ls
	}
	return out
}

// resolveGoFile resolves the edited Go file ed of tree over the links of
// the folders its resolution reads (with the edited files' new links) and
// the tree's go.mod files, and returns its out-edges as the whole-tree
// graph has them.
func resolveGoFile(st *gitstore.Store, prev, tree, digest string, lay *graph.GoLayout, ed *edited, eds []*edited, prefetched map[string][]linkRecord) ([]outEdge, bool, error) {
	folders := needShards(lay, ed.path, ed.f.link.Imports)
	var missing []string
	for _, d := range folders {
		if _, ok := prefetched[d]; !ok {
			missing = append(missing, d)
		}
	}
	sh, err := st.Shards(prev, digest, artifactLinks, missing)
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
		ls, ok := prefetched[d]
		if b, in := sh[d]; !ok && in {
			// Resolution reads the other files' interfaces only.
			if ls, err = decodeLinkShardInterfaces(b); err != nil {
				return nil, false, nil
			}
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
	in.Read = layoutGoMod(lay)
	g := graph.Build(in)
	from := g.Index(ed.path)
	if from < 0 {
		return nil, false, nil
	}
	var out []outEdge
	outEdges(g, func(f int, o outEdge) {
		if f == from {
			out = append(out, o)
		}
	})
	return out, true, nil
}

// goDefsChanged reports whether the new row f differs from the old one,
// as other files' resolution sees it, only in its Go definitions: same
// language, flags, facts and package.
func goDefsChanged(old mapRecord, oldLink *world.Link, f *file) bool {
	if oldLink == nil || f.link == nil || oldLink.Lang != world.LangGo || f.link.Lang != world.LangGo {
		return false
	}
	same := *oldLink
	same.Defs = f.link.Defs
	return sameInterface(old, &same, f)
}

// maxReaders bounds the files resolveReaders resolves again; beyond it the
// whole-tree path is as cheap.
const maxReaders = 4096

// resolveReaders resolves again the edited Go files and every Go file
// whose resolution reads one of the folders changed (graph.GoLayout.Reads),
// over the whole tree's Go interfaces — the other files' links without
// their references — and returns their out-edges by path. ok is false
// when the stored links cannot be read or the readers are too many.
func resolveReaders(st *gitstore.Store, prev, tree, digest string, lay *graph.GoLayout, eds []*edited, changed []string) (map[string][]outEdge, bool, error) {
	all, err := st.Tree(prev, digest, artifactLinks)
	if err != nil {
		return nil, false, nil
	}
	newLink := map[string]*world.Link{}
	for _, e := range eds {
		newLink[e.path] = e.f.link
	}
	// First the imports of every file (the shards decoded on all cores, a
	// few thousand on kubernetes): the readers, and the folders their
	// resolution reads.
	keys := make([]string, 0, len(all))
	for d := range all {
		keys = append(keys, d)
	}
	sort.Strings(keys)
	imports, ok := decodeShards(all, keys, decodeLinkShardImports)
	if !ok {
		return nil, false, nil
	}
	reads := lay.Reads(changed)
	only := map[string]bool{}
	refsOf := map[string]bool{} // folders holding files to resolve again
	var imps []world.Import     // the imports of all of them
	for k, d := range keys {
		for _, l := range imports[k] {
			if nl, ok := newLink[l.Path]; ok {
				l.Link = nl
			} else if l.Link.Lang != world.LangGo || !reads(l.Path, l.Link.Imports) {
				continue
			}
			if l.Link.Lang == world.LangGo {
				only[l.Path] = true
				refsOf[d] = true
				imps = append(imps, l.Link.Imports...)
			}
		}
	}
	if len(only) > maxReaders {
		return nil, false, nil
	}
	// Then the interfaces of the folders those files' resolution reads
	// (graph.GoLayout.Needs, whose import part depends on the imports
	// alone), with references where files are resolved again. Each file
	// sees every candidate of each of its lookups, as in the whole tree.
	needs := lay.Needs(".", imps)
	for k, d := range needs {
		if d == "." {
			needs[k] = "" // the shard of the top folder
		}
	}
	for d := range refsOf {
		needs = append(needs, d)
		// What the folder's other files import (graph.GoLayout.Uses).
		dir := d
		if dir == "" {
			dir = "."
		}
		for _, n := range lay.Needs(path.Join(dir, "x.go"), nil) {
			if n == "." {
				n = ""
			}
			needs = append(needs, n)
		}
	}
	slices.Sort(needs)
	needs = slices.Compact(needs)
	var rows []linkRecord
	for _, d := range needs {
		b, ok := all[d]
		if !ok {
			continue
		}
		decode := decodeLinkShardInterfaces
		if refsOf[d] {
			decode = decodeLinkShard
		}
		ls, err := decode(b)
		if err != nil {
			return nil, false, nil
		}
		for _, l := range ls {
			if nl, ok := newLink[l.Path]; ok {
				l.Link = nl
			}
			if l.Link.Lang == world.LangGo {
				rows = append(rows, l)
			}
		}
	}
	for dir := range lay.Mods {
		rows = append(rows, linkRecord{Path: path.Join(dir, "go.mod")})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Path < rows[j].Path })
	in := graph.Input{Tree: tree, Only: only}
	for _, r := range rows {
		in.Files = append(in.Files, world.FileEntry{Path: r.Path})
		in.Links = append(in.Links, r.Link)
	}
	in.Read = layoutGoMod(lay)
	g := graph.Build(in)
	out := make(map[string][]outEdge, len(only))
	for p := range only {
		out[p] = nil
	}
	outEdges(g, func(from int, o outEdge) {
		p := g.Files[from].Path
		out[p] = append(out[p], o)
	})
	return out, true, nil
}

// layoutGoMod serves the go.mod files of a layout: Go resolution reads a
// go.mod only for its module path, which the layout holds, so no blob is
// read.
func layoutGoMod(lay *graph.GoLayout) func(p string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		if mp, ok := lay.Mods[path.Dir(p)]; ok && path.Base(p) == "go.mod" {
			return []byte("module " + mp + "\n"), nil
		}
		return nil, fmt.Errorf("%s: not a go.mod of the layout", p)
	}
}

// decodeShards decodes the shards keys of all with decode on all cores, in
// the order of keys; ok is false when one does not decode.
func decodeShards(all map[string][]byte, keys []string, decode func([]byte) ([]linkRecord, error)) ([][]linkRecord, bool) {
	out := make([][]linkRecord, len(keys))
	var bad atomic.Bool
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := int(next.Add(1)) - 1; k < len(keys); k = int(next.Add(1)) - 1 {
				ls, err := decode(all[keys[k]])
				if err != nil {
					bad.Store(true)
				}
				out[k] = ls
			}
		}()
	}
	wg.Wait()
	return out, !bad.Load()
}
