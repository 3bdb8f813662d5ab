package graph

import (
	"fmt"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// maxMapSigs bounds the signatures shown for one file.
const maxMapSigs = 24

// mapFile is one file of the repo map: its heading, then its imports and
// signatures, a line each (the imports line first, as Umbra lists them).
type mapFile struct {
	head string
	sigs []string
}

// RepoMap renders a markdown map of g: files in rank order, each with its
// most important signatures (exported first, then by how much other files
// use them). It never exceeds budget tokens as counted by count and, when
// the tree has enough material, uses at least 90 % of it. facts returns a
// file's facts (signatures); a file whose facts fail to load is listed
// without signatures. The output is deterministic.
func RepoMap(g *world.Graph, rank []float64, facts func(path string) (*world.Facts, error), budget int, count func(string) int) (string, error) {
	all := func(_, _ []int) ([]*world.Link, error) { return g.Links, nil }
	return repoMap(g, rank, LinkDefs(g), len(g.Links), all, facts, budget, count)
}

// LinkDefs is, per file of g, the number of definitions of its link, -1
// for a file without one.
func LinkDefs(g *world.Graph) []int {
	defs := make([]int, len(g.Files))
	for i := range defs {
		defs[i] = -1
		if i < len(g.Links) && g.Links[i] != nil {
			defs[i] = len(g.Links[i].Defs)
		}
	}
	return defs
}

// Uses returns links parallel to a graph's Files in which those of users
// hold at least their references' names and counts and those of used at
// least their definitions' names and parents: what counting how much
// users use the names used files define reads (a file can be both).
// Other files' links may be nil.
type Uses func(users, used []int) ([]*world.Link, error)

// RepoMapOf is RepoMap over a graph whose Links are not loaded: defs
// is LinkDefs of the graph as stored, and links gives those of the shown
// files (used) and their heaviest users. The map is the same as
// RepoMap's.
func RepoMapOf(g *world.Graph, rank []float64, defs []int, links Uses, facts func(path string) (*world.Facts, error), budget int, count func(string) int) (string, error) {
	if len(defs) != len(g.Files) {
		return "", fmt.Errorf("repo map: %d definition counts for %d files", len(defs), len(g.Files))
	}
	return repoMap(g, rank, defs, len(g.Files), links, facts, budget, count)
}

// repoMap renders the map; links returns at least nlinks links.
func repoMap(g *world.Graph, rank []float64, defs []int, nlinks int, links Uses, facts func(path string) (*world.Facts, error), budget int, count func(string) int) (string, error) {
	if budget <= 0 {
		return "", fmt.Errorf("repo map: budget %d tokens is not positive", budget)
	}
	if count == nil {
		return "", fmt.Errorf("repo map: no token counter")
	}
	order := make([]int, 0, len(g.Files))
	for i := range g.Files {
		if defs[i] > 0 {
			order = append(order, i)
		}
	}
	score := func(i int) float64 {
		if i < len(rank) {
			return rank[i]
		}
		return 0
	}
	sort.SliceStable(order, func(a, b int) bool {
		ra, rb := score(order[a]), score(order[b])
		if ra != rb {
			return ra > rb
		}
		return order[a] < order[b]
	})
	want := make([]bool, len(g.Files))
	for _, i := range order {
		want[i] = true
	}
	var used []map[string]int
	var err error
	const title = "# Repository map\n"
	// Gather files in rank order until their lines, counted one by one,
	// comfortably exceed the budget; the exact cut is found below.
	var files []mapFile
	units := 0
	est := count(title)
	for _, i := range order {
		if est > budget+budget/4+64 {
			break
		}
		mf := mapFile{head: "\n## " + g.Files[i].Path + "\n"}
		if used == nil {
			// Counted once, for the files the map can show at most.
			est2 := 0
			for k, j := range order {
				if k > 0 && est2 > budget+budget/4+64 { // the most the loop below can show
					for _, r := range order[k:] {
						want[r] = false
					}
					break
				}
				est2 += count(g.Files[j].Path) + 8
			}
			if used, err = usedOf(g, defs, nlinks, want, links); err != nil {
				return "", err
			}
		}
		if facts != nil {
			if f, err := facts(g.Files[i].Path); err == nil && f != nil {
				mf.sigs = signatures(f, used[i])
				if imp := importsLine(f.Imports); imp != "" {
					mf.sigs = append([]string{imp}, mf.sigs...)
				}
			}
		}
		est += count(mf.head)
		for _, s := range mf.sigs {
			est += count(s)
		}
		files = append(files, mf)
		units += 1 + len(mf.sigs)
	}
	// The map says what it leaves out as build output (world.FlagOutput),
	// when that fits.
	footer := leftOut(g, defs)
	if count(title+footer) > budget {
		footer = ""
	}
	render := func(n int) string {
		var b strings.Builder
		b.WriteString(title)
		for _, f := range files {
			if n <= 0 {
				break
			}
			b.WriteString(f.head)
			n--
			for _, s := range f.sigs {
				if n <= 0 {
					break
				}
				b.WriteString(s)
				n--
			}
		}
		b.WriteString(footer)
		return b.String()
	}
	if count(title) > budget {
		return "", nil
	}
	// Largest prefix of units that fits.
	lo, hi := 0, units
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if count(render(mid)) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	out := render(lo)
	if count(out) > budget { // counts need not be monotone; stay safe
		for lo > 0 && count(out) > budget {
			lo--
			out = render(lo)
		}
		if count(out) > budget {
			return "", nil
		}
	}
	return out, nil
}

// signatures returns a file's signature lines, most important first.
func signatures(f *world.Facts, used map[string]int) []string {
	type sig struct {
		text  string
		exp   bool
		uses  int
		start int
	}
	var ss []sig
	seen := map[string]bool{}
	for _, d := range f.Defs {
		if d.Kind == world.KindField || d.Kind == world.KindProperty || d.Kind == world.KindKey {
			continue
		}
		t := d.Signature
		if t == "" {
			t = d.Kind + " " + firstNonEmpty(d.Qualified, d.Name)
		}
		t = strings.Join(strings.Fields(t), " ")
		if len(t) > 160 {
			t = t[:157] + "..."
		}
		if seen[t] {
			continue
		}
		seen[t] = true
		ss = append(ss, sig{text: "    " + t + "\n", exp: d.Exported, uses: used[d.Name], start: d.Start})
	}
	sort.SliceStable(ss, func(i, j int) bool {
		a, b := ss[i], ss[j]
		if a.exp != b.exp {
			return a.exp
		}
		if a.uses != b.uses {
			return a.uses > b.uses
		}
		return a.start < b.start
	})
	if len(ss) > maxMapSigs {
		ss = ss[:maxMapSigs]
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.text
	}
	return out
}

// leftOut is the map's closing line on the files flagged build output,
// caches or virtualenvs that it does not show (they have no definitions
// unless index.output is "parse"): how many, under which folders; "" when
// there are none.
func leftOut(g *world.Graph, defs []int) string {
	n, byContent := 0, 0
	var dirs []string
	seen := map[string]bool{}
	for i := range g.Files {
		e := &g.Files[i]
		if defs[i] > 0 || !e.Has(world.FlagOutput) {
			continue
		}
		n++
		dir := ""
		for _, f := range e.Flags {
			if f.Name == world.FlagOutput {
				if rest, ok := strings.CutPrefix(f.Reason, "under "); ok {
					dir, _, _ = strings.Cut(rest, ": ")
				}
			}
		}
		switch {
		case dir == "":
			byContent++
		case !seen[dir]:
			seen[dir] = true
			dirs = append(dirs, dir)
		}
	}
	if n == 0 {
		return ""
	}
	sort.Strings(dirs)
	var parts []string
	for k, d := range dirs {
		if k == 4 {
			parts = append(parts, fmt.Sprintf("%d more folders", len(dirs)-4))
			break
		}
		parts = append(parts, "`"+d+"`")
	}
	if byContent > 0 {
		parts = append(parts, fmt.Sprintf("%d more by their content", byContent))
	}
	return fmt.Sprintf("\n_Left out as build output, caches or virtualenvs: %d files (%s)._\n", n, strings.Join(parts, ", "))
}

// maxImportsLine bounds the imports line of a file, in bytes.
const maxImportsLine = 160

// importsLine lists a file's imports as written, each once, in the order
// the file has them, on one line of at most maxImportsLine bytes ending
// with how many more there are; "" when the file imports nothing.
func importsLine(imps []world.Import) string {
	var paths []string
	seen := map[string]bool{}
	for _, im := range imps {
		if im.Path != "" && !seen[im.Path] {
			seen[im.Path] = true
			paths = append(paths, strings.Join(strings.Fields(im.Path), " "))
		}
	}
	if len(paths) == 0 {
		return ""
	}
	const lead = "    imports: "
	line := lead
	for k, p := range paths {
		more := ""
		if left := len(paths) - k - 1; left > 0 {
			more = fmt.Sprintf(", … (%d more)", left)
		}
		sep := ""
		if k > 0 {
			sep = ", "
		}
		if k > 0 && len(line)+len(sep)+len(p)+len(more) > maxImportsLine {
			line += fmt.Sprintf(", … (%d more)", len(paths)-k)
			break
		}
		line += sep + p
	}
	return line + "\n"
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// usedOf is usedNames over the links the loader gives for the files the
// counted edges join; n is how many links there are.
func usedOf(g *world.Graph, defs []int, n int, want []bool, links Uses) ([]map[string]int, error) {
	edges := usedEdges(g, n, want)
	var users, used []int
	isUser, isUsed := map[int]bool{}, map[int]bool{}
	for _, e := range edges {
		if !isUser[e.From] && defs[e.From] >= 0 {
			isUser[e.From] = true
			users = append(users, e.From)
		}
		if !isUsed[e.To] && defs[e.To] >= 0 {
			isUsed[e.To] = true
			used = append(used, e.To)
		}
	}
	sort.Ints(users)
	sort.Ints(used)
	ls, err := links(users, used)
	if err != nil {
		return nil, err
	}
	if len(ls) < n {
		return nil, fmt.Errorf("repo map: links of %d files, want %d", len(ls), n)
	}
	return countUses(g, ls, edges, false), nil
}
