package scope

import (
	"fmt"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/world"
)

// fakeWorld is Layer 1 data held in memory: the World interface over
// plain maps, with Go-like files made by genFile.
type fakeWorld struct {
	tree    string
	g       *world.Graph
	facts   map[string]*world.Facts
	content map[string][]byte
}

func (w *fakeWorld) Tree() string        { return w.tree }
func (w *fakeWorld) Graph() *world.Graph { return w.g }
func (w *fakeWorld) Facts(p string) (*world.Facts, error) {
	return w.facts[p], nil
}
func (w *fakeWorld) Content(p string) ([]byte, error) {
	b, ok := w.content[p]
	if !ok {
		return nil, fmt.Errorf("%s: not in tree", p)
	}
	return b, nil
}

// fileSpec describes one generated file: funcs functions of body lines.
type fileSpec struct {
	path  string
	funcs int
	body  int
}

// genFile writes a Go-like file and its facts (definitions and skeleton).
func genFile(fs fileSpec) ([]byte, *world.Facts) {
	var src, skel strings.Builder
	pkg := fs.path[:strings.LastIndexByte(fs.path+"/", '/')]
	if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
		pkg = pkg[i+1:]
	}
	if pkg == "" || strings.Contains(pkg, ".") {
		pkg = "main"
	}
	line := 1
	w := func(s string) { src.WriteString(s + "\n"); line++ }
	w("package " + pkg)
	skel.WriteString("package " + pkg + "\n")
	w("")
	fc := &world.Facts{Lang: "go", Package: pkg}
	stem := strings.TrimSuffix(fs.path[strings.LastIndexByte(fs.path, '/')+1:], ".go")
	stem = strings.NewReplacer("_", "", "-", "", ".", "").Replace(stem)
	for i := 1; i <= fs.funcs; i++ {
		name := fmt.Sprintf("%s%d", strings.ToUpper(stem[:1])+stem[1:], i)
		w(fmt.Sprintf("// %s does step %d of %s.", name, i, stem))
		start := line
		w(fmt.Sprintf("func %s(x int) int {", name))
		for j := 0; j < fs.body; j++ {
			w(fmt.Sprintf("\tx = x*%d + %d // step %d", j+3, i, j))
		}
		w("\treturn x")
		w("}")
		end := line - 1
		fmt.Fprintf(&skel, "\n// %s does step %d of %s.\nfunc %s(x int) int { … } // lines %d-%d\n", name, i, stem, name, start+1, end)
		fc.Defs = append(fc.Defs, world.Def{Name: name, Kind: world.KindFunction, Qualified: name, Start: start, End: end,
			Signature: fmt.Sprintf("func %s(x int) int", name), Exported: true})
	}
	fc.Skeleton = skel.String()
	fc.Lines = line - 1
	fc.Tokens = src.Len() / 3
	fc.SkelToks = len(fc.Skeleton) / 3
	return []byte(src.String()), fc
}

// newFake builds a world from file specs and edges {from, to, refs}.
func newFake(tree string, files []fileSpec, edges [][3]int) *fakeWorld {
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	w := &fakeWorld{tree: tree, g: &world.Graph{Tree: tree}, facts: map[string]*world.Facts{}, content: map[string][]byte{}}
	for _, f := range files {
		src, fc := genFile(f)
		w.content[f.path] = src
		w.facts[f.path] = fc
		w.g.Files = append(w.g.Files, world.FileEntry{Path: f.path, Lang: "go", Size: int64(len(src)), Blob: fmt.Sprintf("%040x", hashString(tree+string(src))),
			Lines: fc.Lines, Tokens: fc.Tokens})
		w.g.Links = append(w.g.Links, fc.Link())
		w.g.Symbols += len(fc.Defs)
	}
	for _, e := range edges {
		w.g.Edges = append(w.g.Edges, world.Edge{From: e[0], To: e[1], Refs: e[2], Weight: float64(e[2])})
	}
	sort.Slice(w.g.Edges, func(i, j int) bool {
		if w.g.Edges[i].From != w.g.Edges[j].From {
			return w.g.Edges[i].From < w.g.Edges[j].From
		}
		return w.g.Edges[i].To < w.g.Edges[j].To
	})
	return w
}

func hashString(s string) uint64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// testFeature builds a feature in memory from task TOML texts and a spec.
func testFeature(name, spec string, tasks map[string]string) (*feature.Feature, error) {
	f := &feature.Feature{Name: name, Spec: &feature.Spec{}}
	if spec != "" {
		f.SpecPath = ".speed/features/" + name + "/spec.md"
		f.SpecRaw = []byte(spec)
		f.Spec, _ = feature.ParseSpec(f.SpecPath, f.SpecRaw)
	}
	var ids []string
	for id := range tasks {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		t, _, err := feature.ParseTask(".speed/features/"+name+"/tasks/"+id+".toml", []byte(tasks[id]), nil)
		if err != nil {
			return nil, err
		}
		f.Tasks = append(f.Tasks, t)
	}
	return f, nil
}

// pe is an edge by path: from uses what to defines.
type pe struct {
	from, to string
	refs     int
}

func newFakeP(tree string, files []fileSpec, edges []pe) *fakeWorld {
	w := newFake(tree, files, nil)
	for _, e := range edges {
		f, t := w.g.Index(e.from), w.g.Index(e.to)
		if f < 0 || t < 0 {
			panic("edge to unknown file " + e.from + " " + e.to)
		}
		w.g.Edges = append(w.g.Edges, world.Edge{From: f, To: t, Refs: e.refs, Weight: float64(e.refs)})
	}
	sort.Slice(w.g.Edges, func(i, j int) bool {
		if w.g.Edges[i].From != w.g.Edges[j].From {
			return w.g.Edges[i].From < w.g.Edges[j].From
		}
		return w.g.Edges[i].To < w.g.Edges[j].To
	})
	return w
}

func sortSlice(es []world.Edge) {
	sort.Slice(es, func(i, j int) bool {
		if es[i].From != es[j].From {
			return es[i].From < es[j].From
		}
		return es[i].To < es[j].To
	})
}
