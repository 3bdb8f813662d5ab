package scope

import (
	"fmt"
	"math"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"weak"

	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/world"
)

// cand is one candidate file.
type cand struct {
	idx   int // index in Graph.Files; -1 when absent from the tree
	path  string
	entry *world.FileEntry
	dist  int
	rel   float64 // relevance to the task's files; higher first
	rank  int     // 1-based position by relevance within its distance
	why   string  // why it is a candidate

	plan    string // tier the hop rules give it
	planWhy string
	tier    string // tier delivered
	tierWhy string

	full, skel           int // tokens of the full text and of the skeleton
	fullExact, skelExact bool
	noSkel               bool // there is no skeleton to give

	content  string // what is delivered
	fullText string // the file's text, once read
	read     bool   // fullText has been read
	kind     byte   // cache form of fullText: 'f', or 'r' when redacted
	start    int
	end      int
	pointer  string
	tokens   int // tokens delivered
	isTestOf string
	extra    bool   // delivered full beyond its plan, from budget left over
	signals  uint8  // bit k set: Signals[k] made it a candidate
	role     string // distance 0: the task's role for it (feature.RoleCreate …)
}

const (
	sigGraph uint8 = 1 << iota
	sigTests
	sigNames
	sigCoChange
	sigPlace
)

// signalList names the signals of c, in Signals order.
func (c *cand) signalList() []string {
	var out []string
	for k, name := range Signals {
		if c.signals&(1<<k) != 0 {
			out = append(out, name)
		}
	}
	return out
}

// adjacency is the graph's edges per file, both ways. An edge index k
// below len(Graph.Edges) is a certain edge; above, Graph.Weak[k-len(Edges)]
// (edgeAt).
type adjacency struct {
	out    [][]int32          // edge indexes with From == file (what the file uses)
	in     [][]int32          // edge indexes with To == file (who uses the file)
	tested map[string][]int32 // test files by the subject they test: family + ":" + stem
	defs   map[string][]int32 // files by the names they define, once asked (definers)
	// folderTests: test files by the folder they sit in under a test
	// folder, family + ":" + folder (js:response for __tests__/response/body.test.js),
	// or by the first part of a dotted name (js:command for tests/command.parse.test.js).
	folderTests map[string][]int32
}

// The adjacency of the graph scoped last, kept for the next scope of the
// same graph (a render scopes a task several times; a server scopes many
// tasks of one tree). It holds the graph weakly and is dropped when the
// graph is collected, so a long-lived process keeps no graph alive.
var (
	adjMu    sync.Mutex
	adjGraph weak.Pointer[world.Graph]
	adjCache *adjacency
)

// adjacencyOf builds (or reuses, for the same graph) the per-file edge lists.
func adjacencyOf(g *world.Graph) *adjacency {
	adjMu.Lock()
	defer adjMu.Unlock()
	if adjGraph.Value() == g && adjCache != nil && len(adjCache.out) == len(g.Files) {
		return adjCache
	}
	n := len(g.Files)
	a := &adjacency{out: make([][]int32, n), in: make([][]int32, n)}
	outN := make([]int32, n)
	inN := make([]int32, n)
	for k := 0; k < len(g.Edges)+len(g.Weak); k++ {
		e := edgeAt(g, int32(k))
		if e.From < 0 || e.From >= n || e.To < 0 || e.To >= n || e.From == e.To {
			continue
		}
		outN[e.From]++
		inN[e.To]++
	}
	// One backing array each way, cut per file: two allocations, not two
	// per file.
	total := 0
	for i := 0; i < n; i++ {
		total += int(outN[i])
	}
	outs, ins := make([]int32, total), make([]int32, total)
	for i, o := 0, 0; i < n; i++ {
		a.out[i] = outs[o : o : o+int(outN[i])]
		o += int(outN[i])
	}
	for i, o := 0, 0; i < n; i++ {
		a.in[i] = ins[o : o : o+int(inN[i])]
		o += int(inN[i])
	}
	for k := 0; k < len(g.Edges)+len(g.Weak); k++ {
		e := edgeAt(g, int32(k))
		if e.From < 0 || e.From >= n || e.To < 0 || e.To >= n || e.From == e.To {
			continue
		}
		a.out[e.From] = append(a.out[e.From], int32(k))
		a.in[e.To] = append(a.in[e.To], int32(k))
	}
	a.tested = map[string][]int32{}
	a.folderTests = map[string][]int32{}
	for i := range g.Files {
		p := g.Files[i].Path
		if subj := testSubject(p); subj != "" {
			a.tested[subj] = append(a.tested[subj], int32(i))
			if f := testFolder(p); f != "" {
				k := langFamily(path.Ext(p)) + ":" + f
				a.folderTests[k] = append(a.folderTests[k], int32(i))
			} else if fam, s, ok := strings.Cut(subj, ":"); ok && strings.Contains(s, ".") {
				// command.parse.test.js: a test of command.js's parse.
				k := fam + ":" + s[:strings.IndexByte(s, '.')]
				a.folderTests[k] = append(a.folderTests[k], int32(i))
			}
		}
	}
	if adjGraph.Value() != g {
		runtime.AddCleanup(g, dropAdjacency, a)
	}
	adjGraph, adjCache = weak.Make(g), a
	return a
}

// dropAdjacency forgets a, the adjacency of a graph that was collected.
func dropAdjacency(a *adjacency) {
	adjMu.Lock()
	defer adjMu.Unlock()
	if adjCache == a {
		adjGraph, adjCache = weak.Pointer[world.Graph]{}, nil
	}
}

// Relevance weights.
const (
	calleeWeight = 1.0 // the task's files use what the neighbour defines
	callerWeight = 1.0 // the neighbour uses what the task's files define
	hopDecay     = 0.5 // per hop beyond the first
	sameDirBoost = 2.0 // neighbour in the folder (package) of a task file
	testBonus    = 2.0 // test file of a task file, or the file a task test tests
	genDamp      = 0.3 // generated or vendored neighbour
	maxBeyond    = 50  // files beyond max_hops listed in the manifest
	nameTests    = 1   // test files elsewhere in the tree named after a task file, nearest first
	folderTests  = 6   // test files in a test folder named after a task file
	namedBonus   = 3.0 // file named (or whose definition is named) in the task's text
	coWeight     = 4.0 // times the co-change score (the share of a task file's changes)
	coMin        = 2   // fewest commits a co-change partner shares with the task file
	coMax        = 12  // co-change partners per task file
	coFloor      = 0.1 // lowest co-change score that makes a candidate
)

// edgeAt is the edge of adjacency index k: certain, then weak.
func edgeAt(g *world.Graph, k int32) *world.Edge {
	if int(k) < len(g.Edges) {
		return &g.Edges[k]
	}
	return &g.Weak[int(k)-len(g.Edges)]
}

// weakDamp scales a weak edge's weight (world.EdgeWeak: a link a reader
// follows that no declaration binds) below a certain edge of the same
// references: the walk reaches through it, at lower relevance.
const weakDamp = 0.5

func edgeWeight(e *world.Edge) float64 {
	w := e.Weight
	if w <= 0 {
		w = float64(e.Refs)
	}
	if w <= 0 {
		w = 1
	}
	if e.Kind == world.EdgeWeak {
		return weakDamp * math.Log2(1+w)
	}
	return math.Log2(1 + w)
}

// walk is step 2: breadth-first over the edges both ways from the task's
// files, with relevance, to max_hops+1 (that last ring is listed dropped).
func (s *state) walk() {
	g := s.g
	adj := adjacencyOf(g)
	s.adj = adj
	n := len(g.Files)
	maxHops := s.cfg.Scope.MaxHops
	// Per file of the graph, dense: a walk on a large tree reaches
	// thousands of files, and maps of them cost more than the walk.
	dist := make([]int32, n) // -1: not reached
	for i := range dist {
		dist[i] = -1
	}
	var reached []int // the files with a distance, in the order reached
	rel := make([]float64, n)
	best := make([]float64, n) // strongest single contribution, for the reason
	// A file's reason: why's text, or when that is "", the edge from via
	// (its index + 1) named viaDir: made into text only for the files
	// the manifest lists (reason), as most files reached are not.
	why := make([]string, n)
	via := make([]int32, n)
	viaDir := make([]string, n)
	reason := func(v int) string {
		if why[v] != "" || via[v] == 0 {
			return why[v]
		}
		up, dir := g.Files[via[v]-1].Path, viaDir[v]
		if dist[v] == 1 {
			return dir + " " + up
		}
		return fmt.Sprintf("%d hops, via %s (%s it)", dist[v], up, strings.TrimSuffix(dir, " of"))
	}
	d0dirs := map[string]bool{}
	for _, i := range s.touched {
		dist[i] = 0
		reached = append(reached, i)
		rel[i] = 1
		d0dirs[path.Dir(g.Files[i].Path)] = true
	}
	sig := make([]uint8, n)
	var testOf []testLink
	if s.opt.on(SignalTests) {
		testOf = s.testLinks()
	}
	useGraph := s.opt.on(SignalGraph)
	tests := map[int]string{} // test files of the task's files → the file they test
	frontier := append([]int(nil), s.touched...)
	for _, c := range s.creates {
		d0dirs[s.nearestFolder(path.Dir(c), langFamily(path.Ext(c)))] = true
	}
	placeSkel := map[int]string{} // place files planned as skeletons → why
	for d := 1; d <= maxHops+1 && (len(frontier) > 0 || d == 1 && len(s.creates) > 0); d++ {
		var next []int
		contrib := func(u, v int, w float64, dir string) {
			if dv := dist[v]; dv >= 0 && int(dv) < d {
				return
			}
			if dist[v] < 0 {
				dist[v] = int32(d)
				reached = append(reached, v)
				next = append(next, v)
			}
			damp := 1.0
			if d > 1 {
				damp = math.Log2(2+float64(len(adj.out[u])+len(adj.in[u]))) * math.Pow(1/hopDecay, float64(d-1))
			}
			c := rel[u] * w / damp
			rel[v] += c
			sig[v] |= sigGraph
			if c > best[v] {
				best[v] = c
				why[v], via[v], viaDir[v] = "", int32(u)+1, dir // at d, dist[v]: reason
			}
		}
		sort.Ints(frontier)
		for _, u := range frontier {
			if !useGraph {
				break
			}
			for _, k := range adj.out[u] {
				e := edgeAt(g, k)
				contrib(u, e.To, edgeWeight(e)*calleeWeight, dirName("callee of", e))
			}
			for _, k := range adj.in[u] {
				e := edgeAt(g, k)
				contrib(u, e.From, edgeWeight(e)*callerWeight, dirName("caller of", e))
			}
		}
		if d == 1 {
			for _, tl := range testOf {
				if dist[tl.file] == 0 {
					continue
				}
				if dist[tl.file] < 0 {
					dist[tl.file] = 1
					reached = append(reached, tl.file)
					next = append(next, tl.file)
				}
				rel[tl.file] += testBonus
				sig[tl.file] |= sigTests
				why[tl.file] = tl.why
				if strings.HasPrefix(tl.why, "test of ") {
					tests[tl.file] = strings.TrimPrefix(tl.why, "test of ")
				}
				best[tl.file] = math.Inf(1)
			}
			// Files the task's text names, and co-change partners, come
			// at 1 hop.
			pull := func(i int, bonus float64, reason string, bit uint8) {
				if dist[i] == 0 {
					return
				}
				if dist[i] < 0 {
					dist[i] = 1
					reached = append(reached, i)
					next = append(next, i)
				}
				rel[i] += bonus
				sig[i] |= bit
				if bonus > best[i] {
					best[i] = bonus
					why[i] = reason
				}
			}
			if s.opt.on(SignalNames) {
				for _, nm := range s.namedFiles() {
					pull(nm.file, namedBonus, "named in the task ("+nm.name+")", sigNames)
				}
			}
			// The places of the files the task creates (create.go).
			if s.opt.on(SignalPlace) {
				s.findPlaces()
				for _, pf := range s.places {
					pull(pf.file, pf.bonus, pf.why, sigPlace)
					if pf.skel {
						if _, ok := placeSkel[pf.file]; !ok {
							placeSkel[pf.file] = pf.why
						}
					} else {
						placeSkel[pf.file] = ""
					}
				}
			}
			if s.opt.on(SignalCoChange) && s.opt.CoChange != nil {
				for _, t := range s.touched {
					tp := g.Files[t].Path
					n := s.opt.CoChange.Changes(tp)
					for _, pt := range s.opt.CoChange.Partners(tp, coMin, coMax) {
						if pt.Score < coFloor {
							break
						}
						s.coUsed = append(s.coUsed, fmt.Sprintf("%s %s %d %.3f", tp, pt.Path, pt.Commits, pt.Score))
						if i := g.Index(pt.Path); i >= 0 && g.Files[i].Parsed() {
							pull(i, coWeight*pt.Score, fmt.Sprintf("changed with %s in %d of its %d commits", tp, pt.Commits, n), sigCoChange)
						}
					}
				}
			}
		}
		frontier = next
	}
	var maxRank float64
	if len(s.opt.Rank) == n {
		for _, r := range s.opt.Rank {
			maxRank = math.Max(maxRank, r)
		}
	}
	for _, i := range reached {
		d := int(dist[i])
		if d == 0 {
			continue
		}
		fe := &g.Files[i]
		r := rel[i]
		if d0dirs[path.Dir(fe.Path)] {
			r *= sameDirBoost
		}
		if fe.Has(world.FlagGenerated) || fe.Has(world.FlagVendored) {
			r *= genDamp
		}
		if maxRank > 0 {
			r *= 1 + 0.5*s.opt.Rank[i]/maxRank
		}
		rel[i] = r
	}
	// Candidates: d0 in files_touched order, then by distance and relevance.
	for _, i := range s.touched {
		fe := &g.Files[i]
		s.cands = append(s.cands, &cand{idx: i, path: fe.Path, entry: fe, dist: 0, rel: 1, why: "files_touched", role: s.roles[fe.Path],
			plan: TierFull, planWhy: "distance 0: the task's file, full and never cut"})
	}
	for _, p := range s.absent {
		c := &cand{idx: -1, path: p, dist: 0, why: "files_touched", role: s.roles[p],
			plan: TierDropped, planWhy: "distance 0 but absent from the tree: nothing to show (the task creates it)"}
		if c.role == feature.RoleRead {
			c.planWhy = "distance 0, to read, but absent from the tree: nothing to show"
		} else if n := s.placeCount(p); n > 0 || s.opt.on(SignalPlace) {
			c.planWhy = fmt.Sprintf("distance 0, to create: nothing to show yet; its place (%d files, in %s) comes at 1 hop", n, s.nearestFolder(path.Dir(p), langFamily(path.Ext(p))))
		}
		s.cands = append(s.cands, c)
	}
	var rest []*cand
	for _, i := range reached {
		d := int(dist[i])
		if d == 0 {
			continue
		}
		fe := &g.Files[i]
		c := &cand{idx: i, path: fe.Path, entry: fe, dist: d, rel: rel[i], isTestOf: tests[i], signals: sig[i]}
		switch {
		case d > maxHops:
			c.plan, c.planWhy = TierDropped, fmt.Sprintf("%d hops: beyond scope.max_hops (%d)", d, maxHops)
		case !fe.Parsed():
			c.plan, c.planWhy = TierDropped, "not readable as text ("+flagNames(fe)+")"
		case fe.Has(world.FlagOutput) && s.cfg.Index.Output != "parse":
			c.plan, c.planWhy = TierDropped, "build output, a cache or a virtualenv ("+flagReason(fe, world.FlagOutput)+"): left out (index.output = \"parse\" keeps it)"
		case d == 1 && sig[i]&^sigCoChange == 0:
			c.plan, c.planWhy = TierSkeleton, "1 hop by co-change alone: skeleton"
		case d == 1 && sig[i]&^(sigCoChange|sigPlace) == 0 && placeSkel[i] != "":
			c.plan, c.planWhy = TierSkeleton, "1 hop, of the place of a file to create: skeleton"
		case d == 1 && s.cfg.Scope.FullLineLimit > 0 && fe.Lines > s.cfg.Scope.FullLineLimit:
			c.plan, c.planWhy = TierSkeleton, fmt.Sprintf("1 hop, %d lines > scope.full_line_limit (%d): skeleton", fe.Lines, s.cfg.Scope.FullLineLimit)
		case d == 1:
			c.plan, c.planWhy = TierFull, "1 hop: full"
		default:
			c.plan, c.planWhy = TierSkeleton, "2 hops: skeleton"
		}
		rest = append(rest, c)
	}
	sort.Slice(rest, func(a, b int) bool {
		x, y := rest[a], rest[b]
		if x.dist != y.dist {
			return x.dist < y.dist
		}
		if x.rel != y.rel {
			return x.rel > y.rel
		}
		return x.path < y.path
	})
	rank, prev := 0, -1
	beyond := 0
	for _, c := range rest {
		if c.dist != prev {
			rank, prev = 0, c.dist
		}
		rank++
		c.rank = rank
		if c.dist > maxHops {
			beyond++
			if beyond > maxBeyond {
				s.unlisted++
				continue
			}
		}
		c.why = reason(c.idx)
		s.cands = append(s.cands, c)
	}
}

// dirName is how a file reached through e relates to the file it was
// reached from, with "weak" before it for a weak edge.
func dirName(dir string, e *world.Edge) string {
	if e.Kind == world.EdgeWeak {
		switch dir {
		case "callee of":
			return "weak callee of"
		case "caller of":
			return "weak caller of"
		}
		return "weak " + dir
	}
	return dir
}

// flagReason is the reason of fe's flag name.
func flagReason(fe *world.FileEntry, name string) string {
	for _, f := range fe.Flags {
		if f.Name == name {
			return f.Reason
		}
	}
	return ""
}

func flagNames(fe *world.FileEntry) string {
	var ns []string
	for _, f := range fe.Flags {
		ns = append(ns, f.Name)
	}
	return strings.Join(ns, ", ")
}

type testLink struct {
	file int
	why  string
}

// testLinks finds the test files of the task's files, and the files a
// task's test file tests, by the naming conventions of the common
// languages.
func (s *state) testLinks() []testLink {
	var out []testLink
	seen := map[int]bool{}
	for _, i := range s.touched {
		seen[i] = true
	}
	addIf := func(p, why string) {
		if i := s.g.Index(p); i >= 0 && !seen[i] {
			seen[i] = true
			out = append(out, testLink{i, why})
		}
	}
	for _, i := range s.touched {
		p := s.g.Files[i].Path
		dir, base := path.Split(p)
		ext := path.Ext(base)
		stem := strings.TrimSuffix(base, ext)
		for _, tp := range []string{
			dir + stem + "_test" + ext, dir + stem + ".test" + ext, dir + stem + ".spec" + ext,
			dir + "test_" + stem + ext, dir + stem + "_spec" + ext, dir + stem + "Test" + ext, dir + stem + "Tests" + ext,
			dir + "tests/test_" + stem + ext, dir + "__tests__/" + stem + ".test" + ext,
			strings.Replace(dir, "src/main/", "src/test/", 1) + stem + "Test" + ext,
			strings.Replace(dir, "src/main/", "src/test/", 1) + stem + "Tests" + ext,
			strings.Replace(dir, "src/main/", "src/test/", 1) + "Test" + stem + ext,
			strings.Replace(dir, "/src/", "/tests/", 1) + "test_" + stem + ext,
		} {
			if tp != p {
				addIf(tp, "test of "+p)
			}
		}
		// A declaration file's type tests (tsd): index.test-d.ts for
		// index.d.ts, and the other way round.
		if d, ok := strings.CutSuffix(base, ".d.ts"); ok {
			addIf(dir+d+".test-d.ts", "test of "+p)
		} else if d, ok := strings.CutSuffix(base, ".test-d.ts"); ok {
			addIf(dir+d+".d.ts", p+" tests it")
		}
		// Test files elsewhere in the tree named after the file
		// (tests/test_core.py for src/pkg/_core.py), nearest first.
		if testSubject(p) == "" {
			key := langFamily(ext) + ":" + strings.ToLower(strings.TrimLeft(stem, "_"))
			ms := append([]int32(nil), s.adj.tested[key]...)
			sort.SliceStable(ms, func(a, b int) bool {
				return sharedPrefix(p, s.g.Files[ms[a]].Path) > sharedPrefix(p, s.g.Files[ms[b]].Path)
			})
			for k, m := range ms {
				if k >= nameTests {
					break
				}
				addIf(s.g.Files[m].Path, "test of "+p)
			}
		}
		// Test files in a test folder named after the file
		// (__tests__/response/body.test.js for lib/response.js), or
		// whose dotted name starts with it (tests/command.parse.test.js
		// for lib/command.js): the most often changed first, when
		// history is known.
		if testSubject(p) == "" && len(stem) >= 3 {
			key := langFamily(ext) + ":" + strings.ToLower(strings.TrimLeft(stem, "_"))
			ms := append([]int32(nil), s.adj.folderTests[key]...)
			sort.SliceStable(ms, func(a, b int) bool {
				return s.opt.CoChange.Changes(s.g.Files[ms[a]].Path) > s.opt.CoChange.Changes(s.g.Files[ms[b]].Path)
			})
			for k, m := range ms {
				if k >= folderTests {
					break
				}
				addIf(s.g.Files[m].Path, "test of "+p+" (in a test folder named after it)")
			}
		}
		// A test file: the file it tests.
		for _, suf := range []string{"_test", ".test", ".spec", "_spec", "Tests", "Test"} {
			if strings.HasSuffix(stem, suf) && len(stem) > len(suf) {
				addIf(dir+strings.TrimSuffix(stem, suf)+ext, p+" tests it")
			}
		}
		if strings.HasPrefix(stem, "test_") {
			addIf(dir+strings.TrimPrefix(stem, "test_")+ext, p+" tests it")
		}
		// Rust: the crate's shared integration-test helpers.
		if ext == ".rs" {
			root := ""
			if k := strings.LastIndex(p, "src/"); k >= 0 && (k == 0 || p[k-1] == '/') {
				root = p[:k]
			} else if k := strings.LastIndex(p, "tests/"); k >= 0 && (k == 0 || p[k-1] == '/') {
				root = p[:k]
			} else {
				continue
			}
			for _, h := range []string{"tests/util.rs", "tests/utils.rs", "tests/common.rs", "tests/common/mod.rs", "tests/util/mod.rs", "tests/support/mod.rs"} {
				if root+h != p {
					addIf(root+h, "shared test file of "+p)
				}
			}
		}
	}
	// Python: conftest.py up the tree of every test found so far (and of
	// a task file that is a test).
	var pyTests []string
	for _, i := range s.touched {
		if p := s.g.Files[i].Path; strings.HasSuffix(p, ".py") && testSubject(p) != "" {
			pyTests = append(pyTests, p)
		}
	}
	for _, tl := range out {
		if p := s.g.Files[tl.file].Path; strings.HasSuffix(p, ".py") && testSubject(p) != "" {
			pyTests = append(pyTests, p)
		}
	}
	for _, p := range pyTests {
		for d := path.Dir(p); ; d = path.Dir(d) {
			cf := "conftest.py"
			if d != "." && d != "/" {
				cf = d + "/conftest.py"
			}
			addIf(cf, "shared test file of "+p)
			if d == "." || d == "/" {
				break
			}
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].file < out[b].file })
	return out
}

// langFamily groups extensions whose files test one another.
func langFamily(ext string) string {
	switch ext {
	case ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs":
		return "js"
	case ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh":
		return "c"
	}
	return strings.TrimPrefix(ext, ".")
}

// testSubject is what a test file tests, as family:stem ("py:core" for
// tests/test_core.py, "js:hooks" for test/hooks.ts), or "" for a file
// that is not a test by its name or folder.
func testSubject(p string) string {
	dir, base := path.Split(p)
	ext := path.Ext(base)
	if ext == "" {
		return ""
	}
	stem := strings.TrimSuffix(base, ext)
	subj := ""
	switch {
	case strings.HasPrefix(stem, "test_") && len(stem) > 5:
		subj = stem[5:]
	case strings.HasSuffix(stem, "_test"), strings.HasSuffix(stem, ".test"), strings.HasSuffix(stem, ".spec"), strings.HasSuffix(stem, "_spec"):
		subj = stem[:len(stem)-5]
	case strings.HasSuffix(stem, "Tests") && len(stem) > 5:
		subj = stem[:len(stem)-5]
	case strings.HasSuffix(stem, "Test") && len(stem) > 4:
		subj = stem[:len(stem)-4]
	default:
		for rest := strings.TrimSuffix(dir, "/"); ; {
			d, tail, more := strings.Cut(rest, "/")
			if isTestDir(d) {
				subj = stem
				break
			}
			if !more {
				break
			}
			rest = tail
		}
	}
	if subj == "__init__" || subj == "conftest" {
		return ""
	}
	subj = strings.ToLower(strings.TrimLeft(subj, "_"))
	if subj == "" || subj == "index" || subj == "main" {
		return ""
	}
	return langFamily(ext) + ":" + subj
}

// testFolder is the folder a test file sits in below a test folder
// ("response" for __tests__/response/body.test.js), lower case, or "".
func testFolder(p string) string {
	dir := path.Dir(p)
	last := dir[strings.LastIndexByte(dir, '/')+1:]
	for rest := dir; ; {
		d, tail, more := strings.Cut(rest, "/")
		if !more {
			return "" // d is the last folder, which does not count
		}
		if isTestDir(d) {
			return strings.ToLower(strings.TrimLeft(last, "_"))
		}
		rest = tail
	}
}

// isTestDir reports whether a folder name makes the files below it tests.
func isTestDir(d string) bool {
	return d == "test" || d == "tests" || d == "__tests__" || d == "spec"
}

// sharedPrefix is the number of leading path elements a and b share.
func sharedPrefix(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return n
}
