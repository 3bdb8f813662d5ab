package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"git-speed": func() { os.Exit(Main()) },
	})
}

// TestScript runs the end-to-end scripts in testdata/script: each drives
// the real git binary, which dispatches `git speed` to this test binary
// installed on PATH as git-speed.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup:               isolatedGit,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"browsercheck": browserCheck, "unpage": unpage},
		Condition: func(cond string) (bool, error) {
			if cond == "chromium" {
				return chromium() != "", nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

// isolatedGit gives each script a git with no system or user config, a
// HOME of its own, main as the default branch and fixed dates, so commit
// ids are the same on every run.
func isolatedGit(e *testscript.Env) error {
	home := filepath.Join(e.WorkDir, ".home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	cfg := "[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n[protocol \"file\"]\n\tallow = always\n[advice]\n\tdetachedHead = false\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(cfg), 0o644); err != nil {
		return err
	}
	set := map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C",
		"GIT_AUTHOR_NAME": "Speed Tester", "GIT_AUTHOR_EMAIL": "tester@example.com", "GIT_AUTHOR_DATE": "2005-04-07T22:13:13+0000",
		"GIT_COMMITTER_NAME": "Speed Tester", "GIT_COMMITTER_EMAIL": "tester@example.com", "GIT_COMMITTER_DATE": "2005-04-07T22:13:13+0000",
	}
	for k, v := range set {
		e.Setenv(k, v)
	}
	// Scripts may copy this repository's own example feature.
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return err
	}
	e.Setenv("SPEED_SRC", strings.ReplaceAll(root, `\`, "/"))
	return nil
}
