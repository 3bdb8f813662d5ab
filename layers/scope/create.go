package scope

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/internal/lex"
	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/world"
)

// A file the task creates has no text and no edges, but it has a place:
// the folder it will live in, the package or module it joins, the files
// most like it by name and kind, and the tests beside them. Each comes at
// 1 hop with the place signal; the walk goes on from them, so their own
// neighbours come at 2 hops. budget.json lists each created file's place
// with the tokens it was given (Budget.Places).

// Kinds of place file.
const (
	placeFolder  = "folder"  // a file of the folder it will live in
	placePackage = "package" // the file of the package or module it joins (__init__.py, mod.rs, index.ts, package-info.java, doc.go)
	placeModule  = "module"  // the manifest of the module it joins (go.mod, Cargo.toml, package.json, pyproject.toml, pom.xml)
	placeLike    = "like"    // a file like it by name and kind
	placeTest    = "test"    // a test beside the folder's files or the files like it
	placeSubject = "subject" // the file a created test file tests
)

// Relevance bonuses of place files, and how many of each.
const (
	placeBonusPackage = 3.0
	placeBonusSubject = 4.0
	placeBonusModule  = 1.0
	placeBonusLike    = 2.0 // plus 2 × name similarity
	placeBonusFolder  = 1.0 // plus name similarity
	placeBonusTest    = 1.5
	placeMaxFolder    = 40 // folder files per created file, most like it first
	placeMaxLike      = 3  // files like it elsewhere in the tree
	placeFullLike     = 2  // … of which this many planned in full (the rest skeletons)
	placeMaxTests     = 3
)

// placeFile is one file of a created file's place.
type placeFile struct {
	file   int    // Graph.Files index
	create string // the created file
	kind   string // placeFolder …
	why    string
	bonus  float64
	skel   bool // planned as a skeleton (its API), not in full
}

// Place is, in budget.json, the place a file the task creates will live
// in and what of it the scope delivered.
type Place struct {
	Create string      `json:"create"`
	Folder string      `json:"folder"` // the folder it lives in, or the nearest one that exists
	Files  []PlaceFile `json:"files"`
	Tokens int         `json:"tokens"` // delivered, summed over Files
	Share  float64     `json:"share"`  // Tokens over code_context's limit
}

// PlaceFile is one file of a Place.
type PlaceFile struct {
	Path   string `json:"path"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
	Tier   string `json:"tier"`
	Tokens int    `json:"tokens"`
}

// findPlaces fills s.places for every file the task creates.
func (s *state) findPlaces() {
	for _, c := range s.creates {
		s.places = append(s.places, s.placeOf(c)...)
	}
}

// placeOf is the place of the created file c.
func (s *state) placeOf(c string) []placeFile {
	g := s.g
	ext := path.Ext(c)
	fam := langFamily(ext)
	isTest := testSubject(c) != ""
	words := nameWords(c)
	var out []placeFile
	seen := map[int]bool{}
	add := func(i int, kind, why string, bonus float64, skel bool) {
		if i < 0 || seen[i] || !g.Files[i].Parsed() || g.Files[i].Has(world.FlagOutput) {
			return
		}
		seen[i] = true
		out = append(out, placeFile{file: i, create: c, kind: kind, why: why, bonus: bonus, skel: skel})
	}
	dir := path.Dir(c)
	folder := s.nearestFolder(dir, fam)
	where := folder + "/"
	if folder == "." {
		where = "the top folder"
	}
	// The package or module it joins.
	for _, p := range packageFiles(folder, dir, ext) {
		add(g.Index(p), placePackage, "the package "+c+" joins", placeBonusPackage, false)
	}
	if isTest {
		// A test file: the file it tests, when it exists.
		b := path.Base(c)
		stem := strings.TrimSuffix(b, ext)
		for _, suf := range []string{"_test", ".test", ".spec", "_spec", "Tests", "Test"} {
			if strings.HasSuffix(stem, suf) && len(stem) > len(suf) {
				add(g.Index(path.Join(dir, strings.TrimSuffix(stem, suf)+ext)), placeSubject, c+" will test it", placeBonusSubject, false)
			}
		}
		if strings.HasPrefix(stem, "test_") {
			add(g.Index(path.Join(dir, strings.TrimPrefix(stem, "test_")+ext)), placeSubject, c+" will test it", placeBonusSubject, false)
		}
	}
	// Its folder's files of the same language family, most like it first.
	type scored struct {
		i     int
		sim   float64 // name similarity
		score float64 // … plus nearness in the tree, for ranking
	}
	var sib []scored
	for _, i := range folderFiles(g, folder) {
		if langFamily(path.Ext(g.Files[i].Path)) == fam {
			sim := similarity(words, nameWords(g.Files[i].Path))
			sib = append(sib, scored{i, sim, sim})
		}
	}
	sort.SliceStable(sib, func(a, b int) bool { return sib[a].sim > sib[b].sim })
	// Files like it: the same extension, tests for a test, by name,
	// nearest first; in its folder or anywhere in the tree.
	var like []scored
	for i := range g.Files {
		p := g.Files[i].Path
		if path.Ext(p) != ext || (testSubject(p) != "") != isTest || g.Files[i].Has(world.FlagVendored) || g.Files[i].Has(world.FlagGenerated) {
			continue
		}
		sim := similarity(words, nameWords(p))
		if sim == 0 {
			continue
		}
		near := float64(sharedPrefix(c, p)) / float64(strings.Count(c, "/")+1)
		like = append(like, scored{i, sim, sim + 0.5*near})
	}
	sort.SliceStable(like, func(a, b int) bool {
		if like[a].score != like[b].score {
			return like[a].score > like[b].score
		}
		return g.Files[like[a].i].Path < g.Files[like[b].i].Path
	})
	for k, l := range like {
		if k >= placeMaxLike {
			break
		}
		add(l.i, placeLike, fmt.Sprintf("like %s by name and kind (name similarity %.2f)", c, l.sim), placeBonusLike+2*l.sim, k >= placeFullLike)
	}
	for k, sb := range sib {
		if k >= placeMaxFolder {
			break
		}
		kind, why, bonus := placeFolder, "in "+where+", where "+c+" will live: its API", placeBonusFolder+sb.sim
		if testSubject(g.Files[sb.i].Path) != "" && !isTest {
			kind, why, bonus = placeTest, "a test in "+where+", where "+c+" will live", placeBonusTest
		}
		add(sb.i, kind, why, bonus, true)
	}
	// Tests of the files like it and of its folder's, when they are not
	// in its folder (tests/, src/test mirrors).
	if !isTest {
		n := 0
		for _, pf := range append([]placeFile(nil), out...) {
			if pf.kind != placeLike && pf.kind != placeFolder {
				continue
			}
			p := g.Files[pf.file].Path
			stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
			key := langFamily(path.Ext(p)) + ":" + strings.ToLower(strings.TrimLeft(stem, "_"))
			for _, t := range s.adj.tested[key] {
				if n >= placeMaxTests {
					break
				}
				if !seen[int(t)] {
					n++
				}
				why := "a test of " + p + ", which is like " + c
				if pf.kind == placeFolder {
					why = "a test of " + p + ", in the folder " + c + " will live in"
				}
				add(int(t), placeTest, why, placeBonusTest, true)
			}
		}
	}
	// The manifest of the module it joins, nearest up the tree.
	for d := dir; ; d = path.Dir(d) {
		found := false
		for _, m := range moduleManifests(fam) {
			p := m
			if d != "." {
				p = d + "/" + m
			}
			if i := g.Index(p); i >= 0 {
				add(i, placeModule, "the manifest of the module "+c+" joins", placeBonusModule, g.Files[i].Lines > 200)
				found = true
				break
			}
		}
		if found || d == "." || d == "/" {
			break
		}
	}
	return out
}

// nearestFolder is dir when the tree has files of family fam in it, else
// the nearest folder up the tree that has ("." for the top).
func (s *state) nearestFolder(dir, fam string) string {
	for d := dir; ; d = path.Dir(d) {
		for _, i := range folderFiles(s.g, d) {
			if langFamily(path.Ext(s.g.Files[i].Path)) == fam {
				return d
			}
		}
		if d == "." || d == "/" {
			return "."
		}
	}
}

// folderFiles is the indexes of the files directly in folder dir ("."
// for the top), from the sorted file list.
func folderFiles(g *world.Graph, dir string) []int {
	prefix := dir + "/"
	if dir == "." || dir == "" {
		prefix = ""
	}
	lo := sort.Search(len(g.Files), func(i int) bool { return g.Files[i].Path >= prefix })
	var out []int
	for i := lo; i < len(g.Files) && strings.HasPrefix(g.Files[i].Path, prefix); i++ {
		if !strings.Contains(g.Files[i].Path[len(prefix):], "/") {
			out = append(out, i)
		}
	}
	return out
}

// packageFiles names the files that make folder a package or module a
// file of extension ext joins: the folder's own (__init__.py, mod.rs, lib.rs,
// index.ts, package-info.java, doc.go) and, for Rust, the parent module's
// file (src/foo.rs for src/foo/bar.rs).
func packageFiles(folder, dir, ext string) []string {
	j := func(n string) string {
		if folder == "." {
			return n
		}
		return folder + "/" + n
	}
	switch langFamily(ext) {
	case "py":
		return []string{j("__init__.py")}
	case "rs":
		out := []string{j("mod.rs"), j("lib.rs"), j("main.rs")}
		if folder == dir && folder != "." {
			out = append(out, folder+".rs")
		}
		return out
	case "js":
		return []string{j("index.ts"), j("index.tsx"), j("index.js"), j("index.mjs"), j("index.cjs")}
	case "java":
		return []string{j("package-info.java")}
	case "go":
		return []string{j("doc.go")}
	}
	return nil
}

// moduleManifests names the manifests of a module of family fam.
func moduleManifests(fam string) []string {
	switch fam {
	case "go":
		return []string{"go.mod"}
	case "rs":
		return []string{"Cargo.toml"}
	case "js":
		return []string{"package.json"}
	case "py":
		return []string{"pyproject.toml", "setup.py", "setup.cfg"}
	case "java":
		return []string{"pom.xml", "build.gradle", "build.gradle.kts"}
	}
	return nil
}

// nameWords is the words of a file's name (lex.Split of its stem, test
// affixes and one-letter parts left out).
func nameWords(p string) map[string]bool {
	b := path.Base(p)
	stem := strings.TrimSuffix(b, path.Ext(b))
	out := map[string]bool{}
	for _, part := range strings.FieldsFunc(stem, func(r rune) bool { return r == '-' || r == '.' || r == '_' || r == ' ' }) {
		for _, w := range lex.Split(part) {
			if len(w) > 1 && w != "test" && w != "tests" && w != "spec" {
				out[w] = true
			}
		}
	}
	return out
}

// similarity is the Jaccard index of two names' words.
func similarity(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return float64(n) / float64(len(a)+len(b)-n)
}

// placeRecord is Budget.Places: for each created file, its place as
// delivered.
func (s *state) placeRecord(codeLimit int) []Place {
	if len(s.places) == 0 && len(s.creates) == 0 {
		return nil
	}
	byIdx := map[int]*cand{}
	for _, c := range s.cands {
		if c.idx >= 0 {
			byIdx[c.idx] = c
		}
	}
	var out []Place
	for _, cr := range s.creates {
		pl := Place{Create: cr, Folder: s.nearestFolder(path.Dir(cr), langFamily(path.Ext(cr))), Files: []PlaceFile{}}
		for _, pf := range s.places {
			if pf.create != cr {
				continue
			}
			c := byIdx[pf.file]
			if c == nil {
				continue
			}
			pl.Files = append(pl.Files, PlaceFile{Path: c.path, Kind: pf.kind, Reason: pf.why, Tier: c.tier, Tokens: c.tokens})
			pl.Tokens += c.tokens
		}
		if codeLimit > 0 {
			pl.Share = round3(float64(pl.Tokens) / float64(codeLimit))
		}
		out = append(out, pl)
	}
	return out
}

// placeCount is the number of place files of the created file c.
func (s *state) placeCount(c string) int {
	n := 0
	for _, pf := range s.places {
		if pf.create == c {
			n++
		}
	}
	return n
}

// roleKey is the task file's key that names a distance-0 file c.
func (s *state) roleKey(c *cand) string {
	for _, p := range s.task.FilesTouched {
		if p == c.path {
			return "files_touched"
		}
	}
	if c.role == "" {
		return "files_touched"
	}
	k := "files." + c.role
	switch c.role {
	case feature.RoleRead:
		k += " (read only: no security rules)"
	case feature.RoleCreate:
		k += " (already in the tree)"
	}
	return k
}
