// Package corpus provides the real code bases git-speed's benchmarks run
// on, committed into git repositories: the Go distribution's own source
// ($(go env GOROOT)/src, about 11k files). It is for benchmarks and tests
// only.
package corpus

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// GoRoot returns a repository whose one commit holds a copy of
// GOROOT/src. It is made once per Go version and kept in the temporary
// folder between runs (delete it to rebuild); a benchmark that needs a
// clean store removes refs/speed itself.
func GoRoot(tb testing.TB) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("the GOROOT/src corpus is skipped in -short mode")
	}
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("no git")
	}
	src := filepath.Join(runtime.GOROOT(), "src")
	dir := filepath.Join(os.TempDir(), "git-speed-corpus-goroot-"+strings.ReplaceAll(runtime.Version(), " ", "_"))
	if _, err := os.Stat(filepath.Join(dir, ".git", "refs", "heads", "main")); err == nil {
		return dir
	}
	os.RemoveAll(dir)
	tmp := dir + ".tmp"
	os.RemoveAll(tmp)
	if out, err := exec.Command("cp", "-r", src, tmp).CombinedOutput(); err != nil {
		tb.Fatalf("copy %s: %v\n%s", src, err, out)
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "GOROOT/src"},
	} {
		if err := Git(tmp, args...); err != nil {
			tb.Fatal(err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// Git runs git in dir with an environment that ignores the user's config.
func Git(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_DATE=2005-04-07T22:13:13+0000", "GIT_COMMITTER_DATE=2005-04-07T22:13:13+0000")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// DropStore deletes every ref under refs/speed of the repository at dir,
// so the next index starts from an empty store.
func DropStore(dir string) error {
	out, err := exec.Command("git", "-C", dir, "for-each-ref", "--format=%(refname)", "refs/speed/").Output()
	if err != nil {
		return err
	}
	for _, ref := range strings.Fields(string(out)) {
		if err := Git(dir, "update-ref", "-d", ref); err != nil {
			return err
		}
	}
	return nil
}

// FromEnv returns the value of the environment variable name, which names
// a corpus (a folder or repository of real code) a benchmark or test runs
// on, and skips tb when it is unset; what says what the variable should
// name, for the skip message.
func FromEnv(tb testing.TB, name, what string) string {
	tb.Helper()
	v := os.Getenv(name)
	if v == "" {
		tb.Skipf("set %s to %s", name, what)
	}
	return v
}
