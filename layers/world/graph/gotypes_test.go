package graph

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/extract"
)

// codeBase is one Go code base measured against go/types.
type codeBase struct {
	name    string
	root    string // module root (the directory go list runs in)
	pattern string // go list pattern, relative to root
	prefix  string // only files under this slash path (relative to root) count; "" for all
	copy    bool   // copy to a writable temp dir first (module cache dirs are read-only)
}

func codeBases(t *testing.T) []codeBase {
	goroot := runtime.GOROOT()
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		goroot = strings.TrimSpace(string(out))
	}
	modcache := filepath.Join(os.Getenv("HOME"), "go", "pkg", "mod")
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		modcache = strings.TrimSpace(string(out))
	}
	wd, _ := os.Getwd()
	repo := filepath.Clean(filepath.Join(wd, "..", "..", ".."))
	return []codeBase{
		{name: "git-speed", root: repo, pattern: "./..."},
		{name: "std net/http", root: filepath.Join(goroot, "src"), pattern: "./net/http/...", prefix: "net/http/"},
		{name: "std go/...", root: filepath.Join(goroot, "src"), pattern: "./go/...", prefix: "go/"},
		{name: "go-toml/v2", root: filepath.Join(modcache, "github.com/pelletier/go-toml/v2@v2.4.3"), pattern: "./...", copy: true},
		{name: "urfave/cli/v2", root: filepath.Join(modcache, "github.com/urfave/cli/v2@v2.27.7"), pattern: "./...", copy: true},
		{name: "go-git/v5", root: filepath.Join(modcache, "github.com/go-git/go-git/v5@v5.19.3"), pattern: "./...", copy: true},
	}
}

type edgeSet map[[2]string]bool

// typesEdges loads the code base with go/packages (tests included) and
// returns the exact file-level reference graph: A→B when an identifier of
// A uses an object declared in B (both in the code base, A ≠ B), and the
// files go/types saw (slash paths relative to root).
func typesEdges(t *testing.T, cb codeBase, root string) (edgeSet, []string) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedTypes |
			packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedCompiledGoFiles,
		Dir:   root,
		Tests: true,
		Env:   append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off"),
		Fset:  token.NewFileSet(),
	}
	pkgs, err := packages.Load(cfg, cb.pattern)
	if err != nil {
		t.Fatalf("%s: load: %v", cb.name, err)
	}
	rel := func(abs string) (string, bool) {
		r, err := filepath.Rel(root, abs)
		if err != nil || strings.HasPrefix(r, "..") {
			return "", false
		}
		r = filepath.ToSlash(r)
		if !strings.HasPrefix(r, cb.prefix) || !strings.HasSuffix(r, ".go") {
			return "", false
		}
		return r, true
	}
	edges := edgeSet{}
	files := map[string]bool{}
	for _, p := range pkgs {
		for _, f := range p.GoFiles {
			if r, ok := rel(f); ok {
				files[r] = true
			}
		}
		if p.TypesInfo == nil {
			continue
		}
		add := func(id *ast.Ident, obj types.Object) {
			if obj == nil || !obj.Pos().IsValid() {
				return
			}
			if _, ok := obj.(*types.PkgName); ok {
				return
			}
			from, ok1 := rel(cfg.Fset.Position(id.Pos()).Filename)
			to, ok2 := rel(cfg.Fset.Position(obj.Pos()).Filename)
			if ok1 && ok2 && from != to && files[from] {
				edges[[2]string{from, to}] = true
			}
		}
		for id, obj := range p.TypesInfo.Uses {
			add(id, obj)
		}
		for sel, s := range p.TypesInfo.Selections {
			add(sel.Sel, s.Obj())
		}
	}
	// Edges only between files go/types saw (cgo or build-tag variants aside).
	for e := range edges {
		if !files[e[0]] || !files[e[1]] {
			delete(edges, e)
		}
	}
	list := make([]string, 0, len(files))
	for f := range files {
		list = append(list, f)
	}
	sort.Strings(list)
	return edges, list
}

// buildInput reads files (relative to root) and makes Links with link.
func buildInput(t *testing.T, root string, files []string, link func(src []byte) *world.Link) Input {
	all := append([]string(nil), files...)
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
		all = append(all, "go.mod")
	}
	sort.Strings(all)
	in := Input{Tree: "test", Read: func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, filepath.FromSlash(p))) }}
	for _, p := range all {
		in.Files = append(in.Files, world.FileEntry{Path: p, Lang: world.DetectLang(p, nil)})
		if p == "go.mod" {
			in.Links = append(in.Links, nil)
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		in.Links = append(in.Links, link(src))
	}
	return in
}

func extractLink(src []byte) *world.Link {
	f, err := extract.Extract(world.LangGo, src, extract.Options{})
	if err != nil || f == nil {
		return nil
	}
	return f.Link()
}

type score struct {
	edges, truth, hit int
}

func (s score) precision() float64 {
	if s.edges == 0 {
		return 0
	}
	return float64(s.hit) / float64(s.edges)
}

func (s score) recall() float64 {
	if s.truth == 0 {
		return 0
	}
	return float64(s.hit) / float64(s.truth)
}

func compare(g *world.Graph, truth edgeSet) score {
	s := score{truth: len(truth)}
	for _, e := range g.Edges {
		s.edges++
		if truth[[2]string{g.Files[e.From].Path, g.Files[e.To].Path}] {
			s.hit++
		}
	}
	return s
}

// bareName is the baseline of name-matching tools: every reference linked
// to every other file defining that name.
func bareName(in Input) *world.Graph {
	g := &world.Graph{Files: in.Files}
	defs := map[string][]int{}
	for i, l := range in.Links {
		if l == nil {
			continue
		}
		for _, d := range l.Defs {
			if fs := defs[d.Name]; len(fs) == 0 || fs[len(fs)-1] != i {
				defs[d.Name] = append(fs, i)
			}
		}
	}
	seen := map[[2]int]bool{}
	for i, l := range in.Links {
		if l == nil {
			continue
		}
		for _, r := range l.Refs {
			for _, j := range defs[r.Name] {
				if j != i && !seen[[2]int{i, j}] {
					seen[[2]int{i, j}] = true
					g.Edges = append(g.Edges, world.Edge{From: i, To: j, Refs: 1, Weight: 1})
				}
			}
		}
	}
	return g
}

// TestGoTypesPrecisionRecall measures Build's Go edges against the exact
// file-level reference graph of go/types on real code bases. Run it with
//
//	go test ./layers/world/graph -run TestGoTypesPrecisionRecall -v
//
// to print the table.
func TestGoTypesPrecisionRecall(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and type-checks several code bases")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	haveExtract := extract.Supported(world.LangGo)
	if !haveExtract {
		t.Log("the Go extractor is not registered yet: measuring with the go/ast reference extractor only")
	}
	var rows []string
	row := func(cb, ext string, files int, truth int, s, base score) {
		rows = append(rows, fmt.Sprintf("%-14s %-8s %6d %7d %7d   %.3f  %.3f   %.3f  %.3f",
			cb, ext, files, truth, s.edges, s.precision(), s.recall(), base.precision(), base.recall()))
	}
	for _, cb := range codeBases(t) {
		if only := os.Getenv("GRAPH_CODEBASE"); only != "" && !strings.Contains(cb.name, only) {
			continue
		}
		if _, err := os.Stat(cb.root); err != nil {
			t.Logf("%s: %v; skipped", cb.name, err)
			continue
		}
		root := cb.root
		if cb.copy {
			root = copyTree(t, cb.root)
		}
		truth, files := typesEdges(t, cb, root)
		if len(files) == 0 {
			t.Errorf("%s: go/packages saw no files", cb.name)
			continue
		}
		type variant struct {
			name string
			link func([]byte) *world.Link
		}
		vs := []variant{{"go/ast", astLink}}
		if haveExtract {
			vs = append([]variant{{"extract", extractLink}}, vs...)
		}
		for k, v := range vs {
			in := buildInput(t, root, files, v.link)
			s := compare(Build(in), truth)
			base := compare(bareName(in), truth)
			row(cb.name, v.name, len(files), len(truth), s, base)
			if os.Getenv("GRAPH_DUMP") != "" {
				dumpDiff(t, Build(in), truth)
			}
			if k == 0 && (s.precision() < 0.99 || s.recall() < 0.87) {
				t.Errorf("%s (%s): precision %.3f recall %.3f; want ≥ 0.99 and ≥ 0.87", cb.name, v.name, s.precision(), s.recall())
			}
		}
	}
	t.Logf("\ncode base      links     files   truth   edges   prec   recall  | bare-name prec  recall\n%s", strings.Join(rows, "\n"))
}

func copyTree(t *testing.T, src string) string {
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		r, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, r)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// astLink is a reference extractor built on go/parser (syntax only, no
// types): what a tree-sitter Go extractor can emit. Bare references are
// the identifiers the parser leaves unresolved in the file (so locals and
// same-file declarations are not references); selectors on an import name
// are qualified by it; other selectors and composite literal keys are
// member references.
func astLink(src []byte) *world.Link {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if f == nil {
		return nil
	}
	_ = err
	facts := &world.Facts{Lang: world.LangGo, Package: f.Name.Name}
	imports := map[string]bool{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		i := world.Import{Path: p}
		name := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			i.Alias = im.Name.Name
			name = im.Name.Name
		}
		imports[name] = true
		facts.Imports = append(facts.Imports, i)
	}
	def := func(name, kind, parent string) {
		if name != "_" {
			facts.Defs = append(facts.Defs, world.Def{Name: name, Kind: kind, Parent: parent, Exported: ast.IsExported(name)})
		}
	}
	recvName := func(e ast.Expr) string {
		for {
			switch x := e.(type) {
			case *ast.StarExpr:
				e = x.X
			case *ast.IndexExpr:
				e = x.X
			case *ast.IndexListExpr:
				e = x.X
			case *ast.Ident:
				return x.Name
			default:
				return ""
			}
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) > 0 {
				def(d.Name.Name, world.KindMethod, recvName(d.Recv.List[0].Type))
			} else {
				def(d.Name.Name, world.KindFunction, "")
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					switch tt := s.Type.(type) {
					case *ast.StructType:
						def(s.Name.Name, world.KindStruct, "")
						for _, fl := range tt.Fields.List {
							if len(fl.Names) == 0 {
								def(recvName(fl.Type), world.KindField, s.Name.Name)
								if se, ok := fl.Type.(*ast.SelectorExpr); ok {
									def(se.Sel.Name, world.KindField, s.Name.Name)
								} else if st, ok := fl.Type.(*ast.StarExpr); ok {
									if se, ok := st.X.(*ast.SelectorExpr); ok {
										def(se.Sel.Name, world.KindField, s.Name.Name)
									}
								}
							}
							for _, n := range fl.Names {
								def(n.Name, world.KindField, s.Name.Name)
							}
						}
					case *ast.InterfaceType:
						def(s.Name.Name, world.KindInterface, "")
						for _, m := range tt.Methods.List {
							for _, n := range m.Names {
								def(n.Name, world.KindMethod, s.Name.Name)
							}
						}
					default:
						def(s.Name.Name, world.KindType, "")
					}
				case *ast.ValueSpec:
					kind := world.KindVar
					if d.Tok == token.CONST {
						kind = world.KindConst
					}
					for _, n := range s.Names {
						def(n.Name, kind, "")
					}
				}
			}
		}
	}
	unresolved := map[*ast.Ident]bool{}
	for _, id := range f.Unresolved {
		unresolved[id] = true
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && x.Obj == nil && imports[x.Name] && unresolved[x] {
				facts.Refs = append(facts.Refs, world.Ref{Name: n.Sel.Name, Qual: x.Name, Kind: world.RefValue})
				return false
			}
			facts.Refs = append(facts.Refs, world.Ref{Name: n.Sel.Name, Qual: exprQual(n.X), Kind: world.RefMember})
		case *ast.CompositeLit:
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok && id.Obj == nil && !unresolved[id] {
						facts.Refs = append(facts.Refs, world.Ref{Name: id.Name, Kind: world.RefMember})
					}
				}
			}
		case *ast.Ident:
			if unresolved[n] && n.Name != "_" && !imports[n.Name] {
				facts.Refs = append(facts.Refs, world.Ref{Name: n.Name, Kind: world.RefValue})
			}
		}
		return true
	})
	return facts.Link()
}

// exprQual names the value a selector selects from, as written, when it
// is a plain name; "" otherwise.
func exprQual(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func dumpDiff(t *testing.T, g *world.Graph, truth edgeSet) {
	got := map[[2]string]bool{}
	for _, e := range g.Edges {
		k := [2]string{g.Files[e.From].Path, g.Files[e.To].Path}
		got[k] = true
		if !truth[k] {
			t.Logf("FP %s -> %s refs=%d w=%.2f", k[0], k[1], e.Refs, e.Weight)
		}
	}
	for k := range truth {
		if !got[k] {
			t.Logf("FN %s -> %s", k[0], k[1])
		}
	}
}
