package build

import (
	"context"
	"testing"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/gittest"
)

// The parse-only baseline parses code with tree-sitter and, unless told
// code only, data formats with their extractors' parsers; files read by a
// scanner (Markdown) are not parsed.
func TestParseOnlyCountsDataParsers(t *testing.T) {
	r := gittest.New(t)
	r.Write("main.go", "package main\n\nfunc main() {}\n")
	r.Write("deploy.yaml", "kind: Deployment\nspec:\n  replicas: 1\n")
	r.Write("bad.yaml", "a: [1, 2\n")
	r.Write("package.json", "{\"name\": \"x\"}\n")
	r.Write("README.md", "# Title\n\nText.\n")
	r.Commit("files")
	repo, err := gitstore.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opt := Options{Config: config.Default()}
	all, err := ParseOnly(ctx, repo, "HEAD", opt, true)
	if err != nil {
		t.Fatal(err)
	}
	if all.Files != 5 || all.Parsed != 4 || all.Data != 3 {
		t.Fatalf("with data: %d files, %d parsed, %d data; want 5, 4, 3", all.Files, all.Parsed, all.Data)
	}
	code, err := ParseOnly(ctx, repo, "HEAD", opt, false)
	if err != nil {
		t.Fatal(err)
	}
	if code.Parsed != 1 || code.Data != 0 || code.Bytes != int64(len("package main\n\nfunc main() {}\n")) {
		t.Fatalf("code only: %d parsed, %d data, %d bytes; want 1, 0, 29", code.Parsed, code.Data, code.Bytes)
	}
}
