package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/lex"
)

const mod = "github.com/git-speed/git-speed/"

// The layering rules, checked over transitive imports. They keep cgo and git
// where they belong: Layers 2 and 3 stay pure Go, cheap to build and free of
// I/O. A rule changes only with a reason written beside it.
var rules = []struct {
	pkg       string   // package (relative to the module)
	forbidden []string // import path prefixes it must not reach, even indirectly
}{
	{"layers/world", []string{mod + "gitstore", mod + "layers/world/extract", "github.com/tree-sitter/", "github.com/go-git/"}},
	{"layers/world/graph", []string{mod + "gitstore", mod + "layers/world/extract", "github.com/tree-sitter/", "github.com/go-git/"}},
	{"layers/world/formats", []string{mod + "gitstore", mod + "layers/world/extract", mod + "layers/world/build", "github.com/tree-sitter/", "github.com/go-git/"}},
	{"layers/world/cochange", []string{mod + "gitstore", mod + "layers/world/extract", mod + "layers/world/build", "github.com/tree-sitter/", "github.com/go-git/"}},
	{"layers/world/terms", []string{mod + "gitstore", mod + "layers/world/extract", mod + "layers/world/graph", "github.com/tree-sitter/", "github.com/go-git/"}},
	// Test support of the extractors: facts and text, no parser, no git.
	{"layers/world/worldtest", []string{mod + "gitstore", mod + "layers/world/extract", mod + "layers/world/formats", mod + "layers/world/build", "github.com/tree-sitter/", "github.com/go-git/"}},
	// pack reads an indexed tree through its Source interface: no git, no cgo, no build.
	{"layers/pack", []string{mod + "gitstore", mod + "layers/world/extract", mod + "layers/world/build", mod + "layers/scope", mod + "layers/prompt", "github.com/tree-sitter/", "github.com/go-git/"}},
	// report draws artifacts it is handed: no git, no cgo, no pipeline.
	{"layers/report", []string{mod + "gitstore", mod + "layers/world/extract", mod + "layers/world/build", mod + "layers/prompt", "github.com/tree-sitter/", "github.com/go-git/"}},
	{"layers/world/align", []string{mod + "gitstore", mod + "layers/world/extract", "github.com/tree-sitter/", "github.com/go-git/"}},
	{"layers/feature", []string{mod + "gitstore", mod + "layers/world/extract", "github.com/tree-sitter/", "github.com/go-git/"}},
	{"layers/scope", []string{mod + "gitstore", mod + "layers/world/extract", mod + "layers/world/build", mod + "layers/prompt", "github.com/tree-sitter/", "github.com/go-git/"}},
	{"layers/prompt", []string{mod + "gitstore", mod + "layers/world/extract", mod + "layers/world/build", mod + "layers/world/graph", mod + "layers/scope", "github.com/tree-sitter/", "github.com/go-git/"}},
	// layers/rules is data and text: no git, no world model, no parser.
	{"layers/rules", []string{mod + "gitstore", mod + "layers/world", mod + "layers/scope", mod + "layers/prompt", "github.com/tree-sitter/", "github.com/go-git/"}},
	{"layers/split", []string{mod + "gitstore", mod + "layers/world", mod + "layers/scope", mod + "layers/prompt", "github.com/tree-sitter/", "github.com/go-git/"}},
	// The agent's own context is pure Go: the CLI passes in paths, texts,
	// the repo map and a token counter, so the MCP server can call it too.
	{"layers/agent/...", []string{mod + "gitstore", mod + "layers/world", mod + "layers/scope", mod + "layers/prompt", "github.com/tree-sitter/", "github.com/go-git/"}},
	{"gitstore", []string{mod + "layers/", "github.com/tree-sitter/"}},
	{"internal/config", []string{mod + "layers/", mod + "gitstore", "github.com/tree-sitter/", "github.com/go-git/"}},
	{"internal/tokens", []string{mod + "layers/", mod + "gitstore", "github.com/tree-sitter/", "github.com/go-git/"}},
	{"internal/hooks", []string{mod + "layers/", mod + "gitstore", "github.com/tree-sitter/", "github.com/go-git/"}},
	// The operations layer serves the front ends and is served by nothing
	// in the module but them.
	{"internal/app", []string{mod + "cmd/", mod + "internal/mcpserver"}},
	// The redaction layer is a leaf every layer may use: pure Go, no git, no cgo.
	{"internal/redact", []string{mod + "layers/", mod + "gitstore", mod + "internal/config", "github.com/tree-sitter/", "github.com/go-git/"}},
	// The glob language of settings and rule files: a leaf on the standard library.
	{"internal/pathglob", []string{mod + "layers/", mod + "gitstore", mod + "internal/config", mod + "internal/redact", mod + "internal/tokens", "github.com/tree-sitter/", "github.com/go-git/"}},
	// Regular expressions compiled on first use: a leaf on the standard library.
	{"internal/lazyre", []string{mod + "layers/", mod + "gitstore", mod + "internal/config", mod + "internal/redact", mod + "internal/tokens", "github.com/tree-sitter/", "github.com/go-git/"}},
	// The one word splitter: a leaf on the standard library.
	{"internal/lex", []string{mod + "layers/", mod + "gitstore", mod + "internal/config", mod + "internal/redact", mod + "internal/tokens", "github.com/tree-sitter/", "github.com/go-git/", "github.com/zeebo/"}},
	// The store's compressor: a leaf on the standard library.
	{"internal/deflate", []string{mod + "layers/", mod + "gitstore", mod + "internal/config", mod + "internal/redact", mod + "internal/tokens", "github.com/tree-sitter/", "github.com/go-git/", "github.com/klauspost/"}},
}

func TestLayering(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	for _, r := range rules {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", mod+r.pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", r.pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, bad := range r.forbidden {
				if strings.HasPrefix(dep, bad) {
					t.Errorf("%s reaches %s", r.pkg, dep)
				}
			}
		}
	}
}

// Only the extractor package may use cgo's tree-sitter bindings.
func TestTreeSitterOnlyInExtract(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", mod+"...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		for _, im := range f[1:] {
			if strings.HasPrefix(im, "github.com/tree-sitter/") && f[0] != mod+"layers/world/extract" {
				t.Errorf("%s imports %s; tree-sitter stays in layers/world/extract", f[0], im)
			}
			if strings.HasPrefix(im, "github.com/go-git/") && f[0] != mod+"gitstore" {
				t.Errorf("%s imports %s; git stays behind gitstore", f[0], im)
			}
		}
	}
}

// The two front ends are thin: they reach the layers through the
// operations layer (internal/app), never the store, the index or the
// pipeline steps themselves. Their direct imports are checked; types and
// constants of a layer (pack.DefaultBudget, session.Kinds) they may name.
func TestFrontEndsThin(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	rules := map[string][]string{
		"cmd/git-speed":      {mod + "gitstore", mod + "layers/world/build", mod + "layers/scope", mod + "layers/world/graph", mod + "layers/prompt", mod + "layers/feature", "github.com/go-git/"},
		"internal/mcpserver": {mod + "gitstore", mod + "layers/", mod + "cmd/"},
	}
	for pkg, forbidden := range rules {
		out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", mod+pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		for _, im := range strings.Fields(string(out)) {
			for _, bad := range forbidden {
				if strings.HasPrefix(im, bad) {
					t.Errorf("%s imports %s; it goes through internal/app", pkg, im)
				}
			}
		}
	}
}

// internal/lex is the one word splitter: no other package splits
// identifiers, stems words or keeps a list of stop words of its own. A
// function named like one (stem…, splitIdent…, splitCamel…) or a word list
// holding six or more of lex's stop words (a map or slice literal of
// words, or a literal of lower-case words alone, as strings.Fields reads)
// outside it is a second copy of the mechanism. (A language's keywords are
// no stop words: the check counts English function words alone.)
func TestOneWordSplitter(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{.Dir}} {{join .GoFiles \" \"}}", mod+"...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	funcName := regexp.MustCompile(`^(?i)(stem\w*|splitIdent\w*|splitCamel\w*)$`)
	word := regexp.MustCompile(`^[a-z]+$`)
	prose := map[string]bool{}
	for _, w := range strings.Fields("the and with that this from into when then than have been were would should could which their there these they what where must") {
		if !lex.IsStop(w) && !lex.IsFiller(w) {
			t.Fatalf("%q is no longer a stop word of lex: the check needs words that are", w)
		}
		prose[w] = true
	}
	stops := func(words []string) int {
		n := 0
		for _, w := range words {
			if prose[w] {
				n++
			}
		}
		return n
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[0] == mod+"internal/lex" {
			continue
		}
		for _, name := range f[2:] {
			file := filepath.Join(f[1], name)
			ast1, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(ast1, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncDecl:
					if n.Recv == nil && funcName.MatchString(n.Name.Name) {
						t.Errorf("%s: func %s: word splitting and stemming live in internal/lex", file, n.Name.Name)
					}
				case *ast.CompositeLit:
					var words []string
					for _, e := range n.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							e = kv.Key
						}
						if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
							if s, err := strconv.Unquote(lit.Value); err == nil {
								words = append(words, s)
							}
						}
					}
					if stops(words) >= 6 {
						t.Errorf("%s: a list of stop words; they live in internal/lex", file)
					}
					return false
				case *ast.BasicLit:
					if n.Kind != token.STRING {
						return true
					}
					s, err := strconv.Unquote(n.Value)
					if err != nil {
						return true
					}
					ws := strings.Fields(s)
					for _, w := range ws {
						if !word.MatchString(w) {
							return true
						}
					}
					if stops(ws) >= 6 {
						t.Errorf("%s: a list of stop words; they live in internal/lex", file)
					}
				}
				return true
			})
		}
	}
}
