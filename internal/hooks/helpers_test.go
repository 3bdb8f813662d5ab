package hooks

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testEnv isolates git for one test: HOME in a temp dir, no system config,
// fixed identities and dates, and a PATH holding only git, the shell tools
// and a private bin folder where tests put a fake git-speed.
type testEnv struct {
	t   *testing.T
	bin string // on PATH first; fake git-speed goes here
	tmp string
}

func newEnv(t *testing.T) *testEnv {
	t.Helper()
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found on PATH")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("sh not found on PATH")
	}
	tmp := t.TempDir()
	home := filepath.Join(tmp, "home")
	bin := filepath.Join(tmp, "bin")
	for _, d := range []string{home, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	t.Setenv("GIT_TERMINAL_PROMPT", "0")
	t.Setenv("LC_ALL", "C")
	t.Setenv("GIT_AUTHOR_NAME", "Test Author")
	t.Setenv("GIT_AUTHOR_EMAIL", "author@example.com")
	t.Setenv("GIT_AUTHOR_DATE", "2024-01-01T00:00:00Z")
	t.Setenv("GIT_COMMITTER_NAME", "Test Committer")
	t.Setenv("GIT_COMMITTER_EMAIL", "committer@example.com")
	t.Setenv("GIT_COMMITTER_DATE", "2024-01-01T00:00:00Z")
	t.Setenv(EnvHook, "")
	for _, v := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	t.Setenv("PATH", strings.Join([]string{bin, filepath.Dir(gitPath), "/usr/bin", "/bin"}, string(os.PathListSeparator)))
	e := &testEnv{t: t, bin: bin, tmp: tmp}
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return e
}

// git runs git in dir and fails the test on error; it returns stdout.
func (e *testEnv) git(dir string, args ...string) string {
	e.t.Helper()
	out, code, stderr := e.gitCode(dir, args...)
	if code != 0 {
		e.t.Fatalf("git %s in %s: exit %d\n%s", strings.Join(args, " "), dir, code, stderr)
	}
	return out
}

// gitCode runs git in dir with stdout and stderr on pipes and returns its
// exit code. Because both are pipes, it also proves that nothing a hook
// left running in the background still holds them open.
func (e *testEnv) gitCode(dir string, args ...string) (stdout string, code int, stderr string) {
	e.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var o, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &se
	err := cmd.Run()
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			e.t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return o.String(), ee.ExitCode(), se.String()
	}
	return o.String(), 0, se.String()
}

// repo makes a repository with two commits on main (a.txt changes) and a
// branch "other" at the first commit.
func (e *testEnv) repo(name string) string {
	e.t.Helper()
	dir := filepath.Join(e.tmp, name)
	e.git(e.tmp, "init", "-q", dir)
	e.write(filepath.Join(dir, "a.txt"), "one\n", 0o644)
	e.git(dir, "add", "a.txt")
	e.git(dir, "commit", "-q", "-m", "first")
	e.git(dir, "branch", "other")
	e.write(filepath.Join(dir, "a.txt"), "two\n", 0o644)
	e.git(dir, "commit", "-q", "-am", "second")
	return dir
}

func (e *testEnv) write(path, content string, mode os.FileMode) {
	e.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		e.t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		e.t.Fatal(err)
	}
}

func (e *testEnv) read(path string) string {
	e.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

// fakeSpeed puts a git-speed on PATH that records its arguments and
// GIT_SPEED_HOOK in marks/<n>.args, then, if sleep is set, sleeps 30 s
// before writing marks/<n>.done. It returns the marks folder.
func (e *testEnv) fakeSpeed(sleep bool) string {
	e.t.Helper()
	marks := filepath.Join(e.tmp, "marks")
	if err := os.MkdirAll(marks, 0o755); err != nil {
		e.t.Fatal(err)
	}
	body := "#!/bin/sh\n" +
		"marks='" + marks + "'\n" +
		"n=$$\n" +
		"echo \"fake git-speed ran: $*\"\n" +
		"printf '%s\\n' \"hook=$GIT_SPEED_HOOK\" \"$@\" >\"$marks/$n.tmp\"\n" +
		"mv \"$marks/$n.tmp\" \"$marks/$n.args\"\n"
	if sleep {
		body += "sleep 30 &\n" +
			"echo \"$n $!\" >\"$marks/$n.pids\"\n" +
			"wait\n" +
			"echo done >\"$marks/$n.done\"\n"
	}
	e.write(filepath.Join(e.bin, "git-speed"), body, 0o755)
	e.t.Cleanup(func() { killFakes(marks) })
	return marks
}

// killFakes ends the sleeping fakes this test started, by pid.
func killFakes(marks string) {
	files, _ := filepath.Glob(filepath.Join(marks, "*.pids"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, p := range strings.Fields(string(b)) {
			var pid int
			for _, c := range p {
				pid = pid*10 + int(c-'0')
			}
			if pid > 1 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
}

// waitFor polls until glob matches at least n files and returns them. It
// only waits for something the test needs; no assertion depends on how long
// that took.
func (e *testEnv) waitFor(glob string, n int) []string {
	e.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		m, _ := filepath.Glob(glob)
		if len(m) >= n {
			return m
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s: want %d files, have %d", glob, n, len(m))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func actions(rep Report) string {
	var s []string
	for _, h := range rep.Hooks {
		s = append(s, h.Name+"="+string(h.Action))
	}
	return strings.Join(s, " ")
}
