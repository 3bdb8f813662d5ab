package hooks

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestInstallFreshRepo(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	rep, err := Install(filepath.Join(dir), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := actions(rep), "post-checkout=installed post-merge=installed"; got != want {
		t.Errorf("actions = %q, want %q", got, want)
	}
	if want := filepath.Join(dir, ".git", "hooks"); rep.HooksDir != want {
		t.Errorf("HooksDir = %q, want %q", rep.HooksDir, want)
	}
	for _, name := range Names {
		p := filepath.Join(dir, ".git", "hooks", name)
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o755 {
			t.Errorf("%s mode = %v, want 0755", name, fi.Mode().Perm())
		}
		b := e.read(p)
		if !strings.HasPrefix(b, "#!/bin/sh\n# git-speed hook v1\n") {
			t.Errorf("%s starts %q", name, b[:40])
		}
		if strings.Contains(b, "\r") {
			t.Errorf("%s has CR bytes", name)
		}
		if !strings.Contains(b, "exec git-speed hook "+name+" \"$@\"") {
			t.Errorf("%s does not start `git-speed hook %s`", name, name)
		}
	}
	st, err := Status(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.State != StateInstalled || s.Version != Version || !s.Executable || s.Chained != "" {
			t.Errorf("status %+v", s)
		}
	}
}

func TestStatusBeforeInstall(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	st, err := Status(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.State != StateMissing {
			t.Errorf("status %+v, want missing", s)
		}
	}
}

func TestInstallOutsideRepo(t *testing.T) {
	e := newEnv(t)
	_, err := Install(e.tmp, Options{})
	if err == nil || !strings.Contains(err.Error(), "rev-parse") || !strings.Contains(err.Error(), e.tmp) {
		t.Fatalf("err = %v, want a git rev-parse error naming %s", err, e.tmp)
	}
}

func TestReinstallIsIdempotent(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	hooks := filepath.Join(dir, ".git", "hooks")
	e.write(filepath.Join(hooks, "post-merge"), "#!/bin/sh\necho user\n", 0o755)
	if _, err := Install(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, hooks)
	rep, err := Install(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := actions(rep), "post-checkout=unchanged post-merge=unchanged"; got != want {
		t.Errorf("actions = %q, want %q", got, want)
	}
	if rep.Hooks[1].Chained == "" {
		t.Errorf("second install forgot the chained post-merge")
	}
	if after := snapshot(t, hooks); after != before {
		t.Errorf("second install changed the hooks dir:\n%s\nvs\n%s", before, after)
	}
}

// snapshot lists a folder: name, mode and content of each entry.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, de := range ents {
		fi, err := os.Lstat(filepath.Join(dir, de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(de.Name() + " " + fi.Mode().String() + "\n")
		if fi.Mode().IsRegular() {
			c, _ := os.ReadFile(filepath.Join(dir, de.Name()))
			b.Write(c)
		}
	}
	return b.String()
}

// TestChainPreservesExitStatus: a user hook that exits 3 makes
// `git checkout` exit 3 before and after install, still gets git's
// arguments, and our fake git-speed runs too.
func TestChainPreservesExitStatus(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	marks := e.fakeSpeed(false)
	userLog := filepath.Join(e.tmp, "user.log")
	userHook := "#!/bin/sh\necho \"user $*\" >>'" + userLog + "'\nexit 3\n"
	hook := filepath.Join(dir, ".git", "hooks", "post-checkout")
	e.write(hook, userHook, 0o755)

	// git 2.39 turns any failing post-checkout status into exit 1;
	// what matters is that install changes nothing about it.
	_, codeBefore, _ := e.gitCode(dir, "checkout", "-q", "other")
	if codeBefore == 0 {
		t.Fatalf("before install: git checkout exit 0, want failure")
	}
	rep, err := Install(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := actions(rep), "post-checkout=chained post-merge=installed"; got != want {
		t.Errorf("actions = %q, want %q", got, want)
	}
	if got := e.read(hook + ChainSuffix); got != userHook {
		t.Errorf("chained hook = %q, want the user's", got)
	}
	prev := strings.TrimSpace(e.git(dir, "rev-parse", "HEAD"))
	_, code, stderr := e.gitCode(dir, "checkout", "-q", "main")
	if code != codeBefore {
		t.Fatalf("after install: git checkout exit %d, want %d as before\n%s", code, codeBefore, stderr)
	}

	next := strings.TrimSpace(e.git(dir, "rev-parse", "HEAD"))
	lines := strings.Split(strings.TrimSpace(e.read(userLog)), "\n")
	if len(lines) != 2 || lines[1] != "user "+prev+" "+next+" 1" {
		t.Errorf("user hook log = %q, want second line %q", lines, "user "+prev+" "+next+" 1")
	}
	args := e.read(e.waitFor(filepath.Join(marks, "*.args"), 1)[0])
	if want := "hook=post-checkout\nhook\npost-checkout\n" + prev + "\n" + next + "\n1\n"; args != want {
		t.Errorf("fake git-speed got %q, want %q", args, want)
	}
	if code := hookExit(t, hook, "x", "y", "0"); code != 3 {
		t.Errorf("our hook exits %d, want the user's 3", code)
	}

	// A user hook that succeeds keeps git's exit status 0.
	e.write(hook+ChainSuffix, "#!/bin/sh\nexit 0\n", 0o755)
	if _, code, _ := e.gitCode(dir, "checkout", "-q", "other"); code != 0 {
		t.Errorf("git checkout exit %d with a succeeding user hook", code)
	}
	e.waitFor(filepath.Join(marks, "*.args"), 3) // let the fakes finish before cleanup
}

// TestChainedScriptSeesHookName: a chained sh script runs with $0 naming
// the hook itself, so managers that dispatch on $0 (husky) still work; a
// non-sh hook is executed directly; stdin and arguments pass through.
func TestChainedScriptSeesHookName(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	hooks := filepath.Join(dir, ".git", "hooks")
	out := filepath.Join(e.tmp, "out")
	cases := []struct{ name, body string }{
		{"bin-sh", "#!/bin/sh\necho \"$(basename \"$0\") $# $*\" >'" + out + "'\ncat >>'" + out + "'\nexit 5\n"},
		{"env-sh", "#!/usr/bin/env sh\necho \"$(basename \"$0\") $# $*\" >'" + out + "'\ncat >>'" + out + "'\nexit 5\n"},
		{"other", "#!/bin/sh -e\necho \"x $# $*\" >'" + out + "'\ncat >>'" + out + "'\nexit 5\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hook := filepath.Join(hooks, "post-checkout")
			os.Remove(hook)
			os.Remove(hook + ChainSuffix)
			e.write(hook, c.body, 0o755)
			if _, err := Install(dir, Options{}); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(hook, "a b", "c", "1")
			cmd.Stdin = strings.NewReader("from stdin\n")
			err := cmd.Run()
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 5 {
				t.Fatalf("hook exit = %v, want 5", err)
			}
			first := "post-checkout 3 a b c 1"
			if c.name == "other" {
				first = "x 3 a b c 1"
			}
			if got, want := e.read(out), first+"\nfrom stdin\n"; got != want {
				t.Errorf("chained hook wrote %q, want %q", got, want)
			}
		})
	}
}

// TestNonExecutableUserHookStaysInert: git ignores a hook without the
// executable bit; after chaining it is still ignored, and restored as is.
func TestNonExecutableUserHookStaysInert(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	hook := filepath.Join(dir, ".git", "hooks", "post-checkout")
	e.write(hook, "#!/bin/sh\nexit 7\n", 0o644)
	if _, err := Install(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, code, _ := e.gitCode(dir, "checkout", "-q", "other"); code != 0 {
		t.Errorf("git checkout exit %d, want 0 (the user's hook was never executable)", code)
	}
	if _, err := Uninstall(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(hook)
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("restored hook: %v %v, want mode 0644", fi, err)
	}
}

func TestUninstallRestoresByteForByte(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	hooks := filepath.Join(dir, ".git", "hooks")
	user := "#!/bin/bash\r\n# CRLF, no final newline, odd bytes \xff\xfe\r\nexit 0"
	e.write(filepath.Join(hooks, "post-checkout"), user, 0o750)
	before := snapshot(t, hooks)
	if _, err := Install(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	rep, err := Uninstall(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := actions(rep), "post-checkout=restored post-merge=removed"; got != want {
		t.Errorf("actions = %q, want %q", got, want)
	}
	if after := snapshot(t, hooks); after != before {
		t.Errorf("hooks dir after uninstall differs:\n%q\nvs\n%q", after, before)
	}
	rep, err = Uninstall(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := actions(rep), "post-checkout=foreign post-merge=absent"; got != want {
		t.Errorf("second uninstall: actions = %q, want %q", got, want)
	}
}

func TestUninstallLeavesForeignHooks(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	hooks := filepath.Join(dir, ".git", "hooks")
	e.write(filepath.Join(hooks, "post-merge"), "#!/bin/sh\necho theirs\n", 0o755)
	e.write(filepath.Join(hooks, "post-merge.pre-speed"), "#!/bin/sh\necho older\n", 0o755)
	before := snapshot(t, hooks)
	rep, err := Uninstall(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := actions(rep), "post-checkout=absent post-merge=foreign"; got != want {
		t.Errorf("actions = %q, want %q", got, want)
	}
	if after := snapshot(t, hooks); after != before {
		t.Errorf("uninstall touched foreign hooks")
	}
}

// TestUninstallAfterOursDeleted: the user deleted our script by hand; the
// chained original still comes back.
func TestUninstallAfterOursDeleted(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	hook := filepath.Join(dir, ".git", "hooks", "post-merge")
	e.write(hook, "#!/bin/sh\n", 0o755)
	if _, err := Install(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	os.Remove(hook)
	rep, err := Uninstall(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Hooks[1].Action != Restored || e.read(hook) != "#!/bin/sh\n" {
		t.Errorf("post-merge: %+v", rep.Hooks[1])
	}
}

func TestUpgradeFromOlderVersion(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	hooks := filepath.Join(dir, ".git", "hooks")
	v0 := "#!/bin/sh\n# git-speed hook v0\ngit speed index >/dev/null 2>&1 || true\n"
	e.write(filepath.Join(hooks, "post-checkout"), v0, 0o755)
	e.write(filepath.Join(hooks, "post-checkout.pre-speed"), "#!/bin/sh\necho mine\n", 0o755)
	e.write(filepath.Join(hooks, "post-merge"), v0, 0o755)
	st, err := Status(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st[0].State != StateOutdated || st[0].Version != 0 || st[0].Chained == "" {
		t.Errorf("status before upgrade %+v", st[0])
	}
	rep, err := Install(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := actions(rep), "post-checkout=upgraded post-merge=upgraded"; got != want {
		t.Errorf("actions = %q, want %q", got, want)
	}
	for _, name := range Names {
		if got := e.read(filepath.Join(hooks, name)); got != string(Script(name)) {
			t.Errorf("%s not upgraded: %q", name, got)
		}
	}
	if got := e.read(filepath.Join(hooks, "post-checkout.pre-speed")); got != "#!/bin/sh\necho mine\n" {
		t.Errorf("upgrade touched the chained hook: %q", got)
	}
}

func TestNewerVersionNeedsForce(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	hook := filepath.Join(dir, ".git", "hooks", "post-merge")
	v9 := "#!/bin/sh\n# git-speed hook v9\n"
	e.write(hook, v9, 0o755)
	rep, err := Install(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Hooks[1].Action != Unchanged || e.read(hook) != v9 {
		t.Errorf("a newer hook of ours was replaced without force: %+v", rep.Hooks[1])
	}
	if st, _ := Status(dir, Options{}); st[1].State != StateNewer {
		t.Errorf("status %+v, want newer", st[1])
	}
	rep, err = Install(dir, Options{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Hooks[1].Action != Upgraded || e.read(hook) != string(Script("post-merge")) {
		t.Errorf("force did not replace: %+v", rep.Hooks[1])
	}
}

// TestRefuseUnchainable: a directory where the hook should be is refused
// with an error naming it; --force moves it aside, uninstall moves it back.
func TestRefuseUnchainable(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	hook := filepath.Join(dir, ".git", "hooks", "post-checkout")
	e.write(filepath.Join(hook, "inside"), "keep me\n", 0o644)
	_, err := Install(dir, Options{})
	if err == nil || !strings.Contains(err.Error(), hook) || !strings.Contains(err.Error(), "directory") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("err = %v, want a refusal naming %s", err, hook)
	}
	if fi, err := os.Stat(hook); err != nil || !fi.IsDir() {
		t.Fatal("refused install touched the directory")
	}
	rep, err := Install(dir, Options{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := actions(rep), "post-checkout=chained post-merge=installed"; got != want {
		t.Errorf("actions = %q, want %q", got, want)
	}
	if e.read(filepath.Join(hook+ChainSuffix, "inside")) != "keep me\n" {
		t.Error("directory not kept under .pre-speed")
	}
	if _, code, _ := e.gitCode(dir, "checkout", "-q", "other"); code != 0 {
		t.Errorf("git checkout exit %d with a chained directory", code)
	}
	if _, err := Uninstall(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	if e.read(filepath.Join(hook, "inside")) != "keep me\n" {
		t.Error("directory not restored")
	}
}

func TestRefuseUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root can read any file")
	}
	e := newEnv(t)
	dir := e.repo("r")
	hook := filepath.Join(dir, ".git", "hooks", "post-merge")
	e.write(hook, "#!/bin/sh\n", 0o000)
	if _, err := Install(dir, Options{}); err == nil || !strings.Contains(err.Error(), hook) {
		t.Fatalf("err = %v, want a refusal naming %s", err, hook)
	}
	if _, err := Install(dir, Options{Force: true}); err != nil {
		t.Fatal(err)
	}
}

// TestRefuseDoubleChain: a foreign hook was installed over ours while ours
// still chains an older one; chaining again would lose one of them.
func TestRefuseDoubleChain(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	hooks := filepath.Join(dir, ".git", "hooks")
	e.write(filepath.Join(hooks, "post-merge"), "#!/bin/sh\necho new\n", 0o755)
	e.write(filepath.Join(hooks, "post-merge.pre-speed"), "#!/bin/sh\necho old\n", 0o755)
	before := snapshot(t, hooks)
	for _, force := range []bool{false, true} {
		_, err := Install(dir, Options{Force: force})
		if err == nil || !strings.Contains(err.Error(), "post-merge.pre-speed") {
			t.Errorf("force=%v: err = %v, want a refusal naming post-merge.pre-speed", force, err)
		}
	}
	// post-checkout was installed before the refusal; nothing else moved.
	os.Remove(filepath.Join(hooks, "post-checkout"))
	if after := snapshot(t, hooks); after != before {
		t.Errorf("refused install changed the user's hooks")
	}
}

func TestSymlinkHookIsChained(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	target := filepath.Join(dir, "scripts", "pc.sh")
	out := filepath.Join(e.tmp, "ran")
	e.write(target, "#!/bin/sh\necho ran >'"+out+"'\nexit 4\n", 0o755)
	hook := filepath.Join(dir, ".git", "hooks", "post-checkout")
	if err := os.Symlink("../../scripts/pc.sh", hook); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, code, _ := e.gitCode(dir, "checkout", "-q", "other"); code == 0 {
		t.Errorf("git checkout exit 0, want the linked hook's failure")
	}
	if code := hookExit(t, hook, "x", "y", "0"); code != 4 {
		t.Errorf("our hook exits %d, want the linked hook's 4", code)
	}
	if e.read(out) != "ran\n" {
		t.Error("linked hook did not run")
	}
	if _, err := Uninstall(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	if l, err := os.Readlink(hook); err != nil || l != "../../scripts/pc.sh" {
		t.Errorf("symlink not restored: %q %v", l, err)
	}
}

func TestHooksPathRelative(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	marks := e.fakeSpeed(false)
	e.git(dir, "config", "core.hooksPath", ".husky")
	e.write(filepath.Join(dir, ".husky", "post-merge"), "#!/usr/bin/env sh\nexit 0\n", 0o755)
	sub := filepath.Join(dir, "sub", "deeper")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	rep, err := Install(sub, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, ".husky"); rep.HooksDir != want {
		t.Errorf("HooksDir = %q, want %q", rep.HooksDir, want)
	}
	if got, want := actions(rep), "post-checkout=installed post-merge=chained"; got != want {
		t.Errorf("actions = %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "hooks", "post-checkout")); err == nil {
		t.Error("hook written to .git/hooks despite core.hooksPath")
	}
	e.git(dir, "checkout", "-q", "other")
	e.waitFor(filepath.Join(marks, "*.args"), 1)
}

func TestHooksPathAbsolute(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	marks := e.fakeSpeed(false)
	abs := filepath.Join(e.tmp, "shared-hooks") // does not exist yet
	e.git(dir, "config", "core.hooksPath", abs)
	rep, err := Install(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.HooksDir != abs {
		t.Errorf("HooksDir = %q, want %q", rep.HooksDir, abs)
	}
	e.git(dir, "checkout", "-q", "other")
	e.waitFor(filepath.Join(marks, "*.args"), 1)
	// The log of the background run is in the repository's git dir.
	log := e.waitFor(filepath.Join(dir, ".git", "speed", "hook.log"), 1)[0]
	waitContains(t, log, "fake git-speed ran: hook post-checkout")
}

func TestHuskyNote(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	e.git(dir, "config", "core.hooksPath", ".husky/_")
	rep, err := Install(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "husky") {
		t.Errorf("notes = %q, want a husky warning", rep.Notes)
	}
}

// TestLinkedWorktree: installing from a linked worktree writes into the
// common hooks dir, and a checkout in the worktree runs our hook, which
// logs into the worktree's own git dir.
func TestLinkedWorktree(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	marks := e.fakeSpeed(false)
	wt := filepath.Join(e.tmp, "wt")
	e.git(dir, "worktree", "add", "-q", "--detach", wt, "other")
	rep, err := Install(wt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, ".git", "hooks"); rep.HooksDir != want {
		t.Errorf("HooksDir = %q, want %q", rep.HooksDir, want)
	}
	e.git(wt, "checkout", "-q", "--detach", "main")
	e.waitFor(filepath.Join(marks, "*.args"), 1)
	log := e.waitFor(filepath.Join(dir, ".git", "worktrees", "wt", "speed", "hook.log"), 1)[0]
	waitContains(t, log, "fake git-speed ran")
}

// TestBackgroundDoesNotBlockGit: a git-speed that sleeps 30 s does not
// hold up `git checkout` or `git merge`: both return (with their output
// pipes closed) while the fake is still asleep.
func TestBackgroundDoesNotBlockGit(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	marks := e.fakeSpeed(true)
	if _, err := Install(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	e.git(dir, "checkout", "-q", "other")
	// git has returned. The fake must have started (we wait for its mark)
	// and must still be asleep: its done mark is not written.
	started := e.waitFor(filepath.Join(marks, "*.pids"), 1)
	if done, _ := filepath.Glob(filepath.Join(marks, "*.done")); len(done) != 0 {
		t.Fatalf("git checkout returned only after git-speed finished: %v", done)
	}
	_ = started

	e.git(dir, "checkout", "-q", "-b", "topic")
	e.write(filepath.Join(dir, "b.txt"), "b\n", 0o644)
	e.git(dir, "add", "b.txt")
	e.git(dir, "commit", "-q", "-m", "topic")
	e.git(dir, "checkout", "-q", "main")
	e.git(dir, "merge", "-q", "--no-edit", "topic")
	// The fakes started by checkout and merge are all asleep.
	e.waitFor(filepath.Join(marks, "*.pids"), 4)
	args, _ := filepath.Glob(filepath.Join(marks, "*.args"))
	var sawMerge bool
	for _, a := range args {
		if strings.HasPrefix(e.read(a), "hook=post-merge\nhook\npost-merge\n0\n") {
			sawMerge = true
		}
	}
	if !sawMerge {
		t.Error("post-merge did not start git-speed hook post-merge 0")
	}
	if done, _ := filepath.Glob(filepath.Join(marks, "*.done")); len(done) != 0 {
		t.Fatalf("a git command waited for git-speed: %v", done)
	}
}

// TestNoGitSpeedOnPath: without git-speed the hook does nothing and exits
// with the chained hook's status.
func TestNoGitSpeedOnPath(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	hook := filepath.Join(dir, ".git", "hooks", "post-checkout")
	e.write(hook, "#!/bin/sh\nexit 6\n", 0o755)
	if _, err := Install(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, code, _ := e.gitCode(dir, "checkout", "-q", "other"); code == 0 {
		t.Errorf("git checkout exit 0, want the chained hook's failure")
	}
	if code := hookExit(t, hook, "x", "y", "0"); code != 6 {
		t.Errorf("our hook exits %d, want the chained hook's 6", code)
	}
	os.Remove(hook + ChainSuffix)
	if _, code, stderr := e.gitCode(dir, "checkout", "-q", "main"); code != 0 || stderr != "" {
		t.Errorf("git checkout exit %d, stderr %q; want 0 and silence", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "speed")); err == nil {
		t.Error("hook created .git/speed without git-speed on PATH")
	}
}

// TestRecursionGuard: with GIT_SPEED_HOOK set (as it is for everything a
// hook-started git-speed runs) the hook does not even look for git-speed.
// The shell trace shows it, without waiting for anything.
func TestRecursionGuard(t *testing.T) {
	e := newEnv(t)
	dir := e.repo("r")
	marks := e.fakeSpeed(false)
	if _, err := Install(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(dir, ".git", "hooks", "post-checkout")
	trace := func(guard string) string {
		cmd := exec.Command("sh", "-x", hook, "a", "b", "1")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), EnvHook+"="+guard)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("hook: %v\n%s", err, stderr.String())
		}
		return stderr.String()
	}
	if tr := trace("post-merge"); strings.Contains(tr, "command -v git-speed") {
		t.Errorf("guarded hook looked for git-speed:\n%s", tr)
	}
	if tr := trace(""); !strings.Contains(tr, "command -v git-speed") {
		t.Errorf("unguarded hook did not look for git-speed:\n%s", tr)
	}
	e.waitFor(filepath.Join(marks, "*.args"), 1) // let it finish before cleanup
}

func TestScriptIsPOSIX(t *testing.T) {
	for _, sh := range []string{"sh", "dash", "bash"} {
		path, err := exec.LookPath(sh)
		if err != nil {
			continue
		}
		for _, name := range Names {
			cmd := exec.Command(path, "-n")
			if sh == "bash" {
				cmd = exec.Command(path, "--posix", "-n")
			}
			cmd.Stdin = bytes.NewReader(Script(name))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s -n %s: %v\n%s", sh, name, err, out)
			}
		}
	}
	for _, name := range Names {
		s := Script(name)
		if bytes.Contains(s, []byte("\r")) || bytes.Contains(s, []byte("@NAME@")) {
			t.Errorf("%s: CR or unreplaced placeholder", name)
		}
		if v, ours := ParseMarker(s); !ours || v != Version {
			t.Errorf("%s: marker = %d,%v", name, v, ours)
		}
	}
}

func waitContains(t *testing.T, path, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never contained %q", path, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// hookExit runs a hook file directly and returns its exit status.
func hookExit(t *testing.T, hook string, args ...string) int {
	t.Helper()
	cmd := exec.Command(hook, args...)
	cmd.Dir = filepath.Dir(hook)
	err := cmd.Run()
	if err == nil {
		return 0
	}
	ee, ok := err.(*exec.ExitError)
	if !ok {
		t.Fatalf("%s: %v", hook, err)
	}
	return ee.ExitCode()
}
