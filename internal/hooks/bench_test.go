package hooks

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkHookForeground measures what git waits for: our post-checkout
// script from start to exit, with a chained user hook, with and without
// git-speed on PATH (the fake exits at once; it runs in the background),
// against the user's hook run alone.
func BenchmarkHookForeground(b *testing.B) {
	for _, mode := range []string{"user-hook-alone", "no-git-speed", "git-speed"} {
		withSpeed := mode == "git-speed"
		name := mode
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			bin := filepath.Join(dir, "bin")
			os.MkdirAll(bin, 0o755)
			hooks := filepath.Join(dir, "hooks")
			os.MkdirAll(hooks, 0o755)
			hook := filepath.Join(hooks, "post-checkout")
			os.WriteFile(hook+ChainSuffix, []byte("#!/bin/sh\nexit 0\n"), 0o755)
			os.WriteFile(hook, Script("post-checkout"), 0o755)
			if withSpeed {
				os.WriteFile(filepath.Join(bin, "git-speed"), []byte("#!/bin/sh\nexit 0\n"), 0o755)
			}
			git, err := exec.LookPath("git")
			if err != nil {
				b.Skip("git not found")
			}
			env := append(os.Environ(), "PATH="+strings.Join([]string{bin, filepath.Dir(git), "/usr/bin", "/bin"}, ":"), EnvHook+"=")
			// The hook asks git for the git dir in the background: give it one.
			exec.Command("git", "init", "-q", filepath.Join(dir, "r")).Run()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				path := hook
				if mode == "user-hook-alone" {
					path = hook + ChainSuffix // the baseline: what git ran before install
				}
				cmd := exec.Command(path, "a", "b", "1")
				cmd.Dir = filepath.Join(dir, "r")
				cmd.Env = env
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			time.Sleep(200 * time.Millisecond) // let background fakes end before TempDir cleanup
		})
	}
}

// BenchmarkRunSameTree measures Run deciding to skip a checkout whose
// trees are equal (one git rev-parse).
func BenchmarkRunSameTree(b *testing.B) {
	dir := b.TempDir()
	run := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir,
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
		out, err := cmd.Output()
		if err != nil {
			b.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q")
	run("commit", "-q", "--allow-empty", "-m", "1")
	run("commit", "-q", "--allow-empty", "-m", "2")
	c1, c2 := run("rev-parse", "HEAD~1"), run("rev-parse", "HEAD")
	opts := RunOptions{GitDir: filepath.Join(dir, ".git"), Index: func(context.Context) error { b.Fatal("indexed"); return nil }}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if out, _ := RunOutcome(context.Background(), "post-checkout", []string{c1, c2, "1"}, opts); out != OutcomeSkipped {
			b.Fatal(out)
		}
	}
}
