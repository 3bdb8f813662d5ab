package prompt

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Layer 3 is pure rendering: it must not reach git, tree-sitter or the
// graph (see layers/doc.go). This rule may change only with the lead.
var forbidden = []string{
	"github.com/git-speed/git-speed/gitstore",
	"github.com/git-speed/git-speed/layers/world/extract",
	"github.com/git-speed/git-speed/layers/world/graph",
	"github.com/git-speed/git-speed/layers/world/build",
	"github.com/tree-sitter/",
	"github.com/go-git/",
}

func TestImports(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			for _, bad := range forbidden {
				if strings.HasPrefix(p, bad) {
					t.Errorf("%s imports %s", f, p)
				}
			}
		}
	}
}
