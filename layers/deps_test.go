package layers

import (
	"os/exec"
	"strings"
	"testing"
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
