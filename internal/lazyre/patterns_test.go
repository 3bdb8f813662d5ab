package lazyre

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every constant pattern the program gives New compiles: MustCompile at
// initialisation used to say so at every start, a first use says so only
// when it comes.
func TestProgramPatternsCompile(t *testing.T) {
	files, err := filepath.Glob("../../layers/*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../../layers/*/*/*.go")
	files = append(files, more...)
	checked := 0
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "New" {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "lazyre" {
				return true
			}
			pat, ok := constString(call.Args[0])
			if !ok {
				return true // built at run time (a quoted name): not the program's own
			}
			checked++
			if _, err := regexp.Compile(pat); err != nil {
				t.Errorf("%s: %v", file, err)
			}
			return true
		})
	}
	if checked < 100 {
		t.Errorf("found %d constant patterns; the extractors and the classifier have over a hundred", checked)
	}
}

// constString is the value of a string literal or a sum of them.
func constString(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		a, ok := constString(e.X)
		if !ok {
			return "", false
		}
		b, ok := constString(e.Y)
		return a + b, ok
	case *ast.ParenExpr:
		return constString(e.X)
	}
	return "", false
}
