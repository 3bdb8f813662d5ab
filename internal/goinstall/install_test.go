package goinstall

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/git-speed/git-speed/internal/gittest"
)

const modulePath = "github.com/git-speed/git-speed"

// run runs name with args in dir under env and returns its stdout; it
// fails the test with stderr when the command fails.
func run(t *testing.T, ctx context.Context, env []string, dir, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.WaitDelay = 5 * time.Second // compilers the go command started may hold the pipes
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	return stdout.Bytes()
}

// withEnv is env with each of set (NAME=VALUE) replacing any earlier value.
func withEnv(env []string, set ...string) []string {
	drop := map[string]bool{}
	for _, kv := range set {
		name, _, _ := strings.Cut(kv, "=")
		drop[name] = true
	}
	var out []string
	for _, kv := range env {
		if name, _, _ := strings.Cut(kv, "="); !drop[name] {
			out = append(out, kv)
		}
	}
	return append(out, set...)
}

// TestGoInstallAtVersion installs cmd/git-speed the way a Go user does,
// `go install MODULE/cmd/git-speed@VERSION`, from a clean module cache and
// GOPATH, with a file-based proxy as the only source: this checkout at a
// pseudo-version (its tracked and untracked, unignored files) and its
// dependencies taken from the local module cache. The go command refuses
// a module whose go.mod has a replace directive, or whose dependencies do
// not declare the paths they are required by (checked with go install -n,
// seconds); then it builds for real and the installed binary indexes a
// repository (3 minutes on two quiet cores the first time, as every
// grammar's C is compiled; seconds once the build cache holds them).
// GIT_SPEED_GOINSTALL_BUILD=0 stops after the loading.
func TestGoInstallAtVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds git-speed from a module proxy (minutes); not in -short")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	// A first run compiles every grammar (minutes on two cores); with
	// -trimpath the build cache keys no longer name the module cache's
	// directory, so later runs reuse those objects and take seconds. The
	// bound stays under go test's own default of ten minutes.
	ctx, cancel := context.WithTimeout(context.Background(), 9*time.Minute)
	defer cancel()
	env := os.Environ()

	root := filepath.Dir(strings.TrimSpace(string(run(t, ctx, env, ".", "go", "env", "GOMOD"))))
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skip("not a git checkout: the module's files are those git lists")
	}
	rev := strings.TrimSpace(string(run(t, ctx, env, root, "git", "rev-parse", "HEAD")))
	secs, err := strconv.ParseInt(strings.TrimSpace(string(run(t, ctx, env, root, "git", "log", "-1", "--format=%ct"))), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	when := time.Unix(secs, 0).UTC()
	version := PseudoVersion(when, rev)
	var files []string
	for _, f := range strings.Split(string(run(t, ctx, env, root, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}

	// The dependencies, from the module cache this checkout builds with
	// (go mod download fills it first if it lacks any).
	deps, err := ReadDownloads(bytes.NewReader(run(t, ctx, env, root, "go", "mod", "download", "-json")))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	for _, d := range deps {
		if err := Add(proxy, d); err != nil {
			t.Fatal(err)
		}
	}
	if err := AddCheckout(proxy, modulePath, version, root, files, when); err != nil {
		t.Fatal(err)
	}

	modcache := filepath.Join(tmp, "modcache")
	bin := filepath.Join(tmp, "bin")
	ienv := withEnv(env,
		"GOPROXY=file://"+filepath.ToSlash(proxy),
		"GOMODCACHE="+modcache, "GOPATH="+filepath.Join(tmp, "gopath"), "GOBIN="+bin,
		"GOSUMDB=off", "GONOSUMDB=*", "GOPRIVATE=", "GONOPROXY=", "GOFLAGS=-mod=mod -trimpath",
		"GOWORK=off", "GOTOOLCHAIN=local", "CGO_ENABLED=1",
		// The grammars' C is most of the build; unoptimised it compiles
		// several times faster, and how it is optimised is not what this
		// test is about.
		"CGO_CFLAGS=-O0")
	// Files in a module cache are read-only; the go command removes its own.
	t.Cleanup(func() {
		c := exec.Command("go", "clean", "-modcache")
		c.Env = ienv
		_ = c.Run()
	})
	outside := filepath.Join(tmp, "cwd")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	// Loading the module at that version from the proxy is where the go
	// command refuses a replace directive or a dependency that declares
	// another path: -n loads, downloads and plans the build, in seconds.
	// (-n prints the plan on stderr.)
	pc := exec.CommandContext(ctx, "go", "install", "-n", modulePath+"/cmd/git-speed@"+version)
	pc.Dir, pc.Env, pc.WaitDelay = outside, ienv, 5*time.Second
	plan, err := pc.CombinedOutput()
	if err != nil {
		t.Fatalf("go install -n …@%s: %v\n%s", version, err, plan)
	}
	if !bytes.Contains(plan, []byte("tree-sitter-go")) {
		t.Fatalf("go install -n planned no tree-sitter build:\n%.2000s", plan)
	}
	if os.Getenv("GIT_SPEED_GOINSTALL_BUILD") == "0" {
		t.Skip("module loading checked; GIT_SPEED_GOINSTALL_BUILD=0 leaves out building and running the binary")
	}
	run(t, ctx, ienv, outside, "go", "install", modulePath+"/cmd/git-speed@"+version)
	exe := filepath.Join(bin, "git-speed")

	r := gittest.New(t)
	r.Write("main.go", "package main\n\nfunc main() { greet(\"world\") }\n")
	r.Write("greet.go", "package main\n\nimport \"fmt\"\n\nfunc greet(who string) { fmt.Println(\"hello\", who) }\n")
	r.Commit("two files")
	out := run(t, ctx, r.Env, r.Dir, exe, "index")
	t.Logf("git-speed index: %s", bytes.TrimSpace(out))
	if refs := r.Git("for-each-ref", "refs/speed"); refs == "" {
		t.Fatalf("the installed binary's index stored nothing under refs/speed")
	}
	if v := run(t, ctx, r.Env, r.Dir, exe, "version"); !bytes.Contains(v, []byte(version)) {
		t.Logf("version does not name %s: %s", version, v)
	}
}
