package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/corpus"
)

// BenchmarkScopeFirst measures the first `git speed scope` of a task on a
// freshly indexed tree, in process: its spec alignment not stored yet and
// the kept scopes emptied before each run. GIT_SPEED_BENCH_SCOPE names an
// indexed repository holding the feature (bench/live.sh's kubernetes copy,
// with its .speed-bench feature); GIT_SPEED_BENCH_SCOPE_REV the revision
// (default k8s-v1.36.0-tree). Without the variable the benchmark skips.
// The store's ref is put back as it was found after each run.
func BenchmarkScopeFirst(b *testing.B) {
	dir := corpus.FromEnv(b, "GIT_SPEED_BENCH_SCOPE", "an indexed repository holding the bench feature")
	rev := os.Getenv("GIT_SPEED_BENCH_SCOPE_REV")
	if rev == "" {
		rev = "k8s-v1.36.0-tree"
	}
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out))
	}
	// The store as indexed: below the alignments stored since.
	fresh := git("rev-parse", "refs/speed/index")
	for strings.HasPrefix(git("log", "-1", "--format=%s", fresh), "align ") {
		fresh = git("rev-parse", fresh+"^")
	}
	tip := git("rev-parse", "refs/speed/index")
	defer git("update-ref", "refs/speed/index", tip)
	scopes := filepath.Join(git("rev-parse", "--path-format=absolute", "--git-common-dir"), "speed", "cache", "scopes")
	wd, err := os.Getwd()
	if err != nil {
		b.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		b.Fatal(err)
	}
	defer os.Chdir(wd)
	args := []string{"git-speed", "--speed-dir", ".speed-bench", "scope", "bench", "1", "--rev", rev}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		git("update-ref", "refs/speed/index", fresh)
		os.RemoveAll(scopes)
		b.StartTimer()
		if code := run(args, io.Discard, io.Discard); code != exitOK {
			b.Fatalf("scope exited %d", code)
		}
	}
}
