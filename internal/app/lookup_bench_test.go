package app

import (
	"context"
	"os"
	"testing"
)

// BenchmarkWarmLookups measures the calls an agent makes between heavier
// ones, on a long-lived session whose world is warm:
// GIT_SPEED_BENCH_LOOKUP_REPO is an indexed repository with a HEAD commit,
// GIT_SPEED_BENCH_LOOKUP_PATH a file in it, GIT_SPEED_BENCH_LOOKUP_NAME a
// name it defines (bench/mcp.sh sets these for kubernetes).
func BenchmarkWarmLookups(b *testing.B) {
	dir := os.Getenv("GIT_SPEED_BENCH_LOOKUP_REPO")
	if dir == "" {
		b.Skip("set GIT_SPEED_BENCH_LOOKUP_REPO")
	}
	s, err := Open(Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	path, name := os.Getenv("GIT_SPEED_BENCH_LOOKUP_PATH"), os.Getenv("GIT_SPEED_BENCH_LOOKUP_NAME")
	read := func() {
		if _, err := s.Read(ctx, ReadRequest{Path: path, From: 1, To: 60}); err != nil {
			b.Fatal(err)
		}
	}
	symbols := func() {
		if _, err := s.Symbols(ctx, SymbolsRequest{Name: name}); err != nil {
			b.Fatal(err)
		}
	}
	read()
	symbols()
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			read()
		}
	})
	b.Run("symbols", func(b *testing.B) {
		for b.Loop() {
			symbols()
		}
	})
}
