package build

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/corpus"
	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/scope"
)

// BenchmarkIndexGOROOT measures Layer 1 on the Go distribution's source:
// the parse-only baseline (read and parse the same files on the same
// workers, nothing else), a full index from an empty store, and an
// incremental index after a one-file commit. Run with -benchtime 3x or so.
func BenchmarkIndexGOROOT(b *testing.B) {
	dir := corpus.GoRoot(b)
	repo, err := gitstore.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	cfg := config.Default()
	ctx := context.Background()
	b.Run("parse-only", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := ParseOnly(ctx, repo, "main", Options{Config: cfg}, true); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("full", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			if err := corpus.DropStore(dir); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if _, err := Index(ctx, repo, "main", Options{Config: cfg}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("incremental", func(b *testing.B) {
		if _, err := Index(ctx, repo, "main", Options{Config: cfg}); err != nil {
			b.Fatal(err)
		}
		file := filepath.Join(dir, "net", "http", "server.go")
		orig, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		defer func() {
			os.WriteFile(file, orig, 0o644)
			corpus.Git(dir, "checkout", "-q", "main")
			corpus.Git(dir, "branch", "-q", "-D", "bench-incremental")
		}()
		if err := corpus.Git(dir, "checkout", "-q", "-B", "bench-incremental", "main"); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			data := append(append([]byte(nil), orig...), []byte("\n// bench change "+string(rune('a'+i%26))+"\n")...)
			if err := os.WriteFile(file, data, 0o644); err != nil {
				b.Fatal(err)
			}
			if err := corpus.Git(dir, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qam", "one-file change"); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			res, err := Index(ctx, repo, "HEAD", Options{Config: cfg})
			if err != nil {
				b.Fatal(err)
			}
			if res.Parsed != 1 {
				b.Fatalf("incremental index parsed %d files, want 1", res.Parsed)
			}
		}
	})
}

// BenchmarkScopeGOROOT measures Layer 2 on the GOROOT/src index: loading
// the tree's index, the feature's stored alignment and the five steps for
// a task touching net/http/server.go, at the developer budget.
func BenchmarkScopeGOROOT(b *testing.B) {
	dir := corpus.GoRoot(b)
	repo, err := gitstore.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	cfg := config.Default()
	res, err := Index(context.Background(), repo, "main", Options{Config: cfg})
	if err != nil {
		b.Fatal(err)
	}
	files := fstest.MapFS{
		".speed/features/http/spec.md":      {Data: []byte("# HTTP\n\n- REQ-1: The Server applies ReadHeaderTimeout to every connection in net/http/server.go.\n- REQ-2: Handlers see the connection deadline through the Request context.\n")},
		".speed/features/http/tasks/1.toml": {Data: []byte("id = \"1\"\ntitle = \"Apply read header timeout\"\ndescription = \"Make conn.serve honour ReadHeaderTimeout.\"\nstatus = \"planned\"\nfiles_touched = [\"net/http/server.go\"]\nrequirements = [\"REQ-1\"]\n")},
	}
	f, _, err := feature.LoadFeature(files, "http", feature.Options{})
	if err != nil {
		b.Fatal(err)
	}
	cnt, err := tokens.New("o200k")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w, err := Load(repo, res.Tree, cfg)
		if err != nil {
			b.Fatal(err)
		}
		al, err := w.Alignment(f, nil)
		if err != nil {
			b.Fatal(err)
		}
		r, err := scope.Scope(w, f, "1", scope.Options{Config: cfg, Counter: cnt, Align: al})
		if err != nil {
			b.Fatal(err)
		}
		if len(r.Material.Files) == 0 {
			b.Fatal("empty scope")
		}
		w.Close()
	}
}
