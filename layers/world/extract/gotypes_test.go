package extract

import (
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
)

var goTypesPkgs = flag.String("gotypes", "", "comma-separated GOROOT/src package dirs (e.g. net/http,go/ast) to compare Go refs with go/types")

// TestGoRefsVsGoTypes compares the Go extractor's references with what
// go/types records as uses of package-level objects, imported objects,
// fields and methods, by (line, name). It reports recall (uses go/types
// sees that the extractor also has) and precision (extractor refs that are
// such uses). Run: go test -run TestGoRefsVsGoTypes -gotypes net/http,go/ast
func TestGoRefsVsGoTypes(t *testing.T) {
	if *goTypesPkgs == "" {
		t.Skip("run with -gotypes pkg,pkg")
	}
	roots := corpusRoots(world.LangGo)
	if len(roots) == 0 {
		t.Skip("no GOROOT")
	}
	var tp, fn, fp int
	for _, pkg := range strings.Split(*goTypesPkgs, ",") {
		dir := filepath.Join(roots[0], pkg)
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool {
			ok, _ := build.Default.MatchFile(dir, fi.Name())
			return ok && !strings.HasSuffix(fi.Name(), "_test.go")
		}, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pkgs {
			var files []*ast.File
			var names []string
			for name, f := range p.Files {
				files = append(files, f)
				names = append(names, name)
			}
			sort.Strings(names)
			conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil), Error: func(error) {}}
			info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
			tpkg, _ := conf.Check(p.Name, fset, files, info)
			want := map[string]map[string]int{} // file → "line name" → count
			for id, obj := range info.Uses {
				if obj == nil || obj.Pkg() == nil {
					continue // builtins, nil, universe
				}
				keep := false
				switch o := obj.(type) {
				case *types.PkgName:
				case *types.Var:
					keep = o.IsField() || o.Parent() == tpkg.Scope() || o.Pkg() != tpkg
				case *types.Func:
					keep = o.Pkg() != tpkg || o.Parent() == tpkg.Scope() || o.Type().(*types.Signature).Recv() != nil
				case *types.TypeName:
					keep = o.Parent() == tpkg.Scope() || o.Pkg() != tpkg
				case *types.Const:
					keep = o.Parent() == tpkg.Scope() || o.Pkg() != tpkg
				}
				if !keep {
					continue
				}
				pos := fset.Position(id.Pos())
				m := want[pos.Filename]
				if m == nil {
					m = map[string]int{}
					want[pos.Filename] = m
				}
				m[fmt.Sprintf("%d %s", pos.Line, id.Name)]++
			}
			for _, name := range names {
				src, _ := os.ReadFile(name)
				facts, err := Extract(world.LangGo, src, Options{})
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]int{}
				for _, r := range facts.Refs {
					got[fmt.Sprintf("%d %s", r.Line, r.Name)]++
				}
				w := want[name]
				var missed, extra []string
				for k, n := range w {
					g := got[k]
					if g >= n {
						tp += n
					} else {
						tp += g
						fn += n - g
						missed = append(missed, k)
					}
				}
				for k, n := range got {
					if n > w[k] {
						fp += n - w[k]
						extra = append(extra, k)
					}
				}
				sort.Strings(missed)
				sort.Strings(extra)
				if testing.Verbose() && (len(missed) > 0 || len(extra) > 0) {
					t.Logf("%s: missed %d %v; extra %d %v", filepath.Base(name), len(missed), head(missed, 8), len(extra), head(extra, 8))
				}
			}
		}
	}
	t.Logf("go/types uses matched %d, missed %d, extra %d: recall %.1f%%, precision %.1f%%",
		tp, fn, fp, 100*float64(tp)/float64(tp+fn), 100*float64(tp)/float64(tp+fp))
}

func head(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
