package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/git-speed/git-speed/internal/redact/redacttest"
	"github.com/git-speed/git-speed/layers/report"
)

// TestSecretCorpus runs every command over a repository planted with fake
// secrets of many kinds (internal/redact/redacttest: code, config, .env,
// notebooks, logs, a task and a spec) and checks that no planted secret
// reaches any output: stdout, stderr and every artifact written.
func TestSecretCorpus(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/secrets",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup:               isolatedGit,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"plant":   plantSecrets,
			"noleaks": noLeaks,
			"decoys":  decoysKept,
			"unpage":  unpage,
			// tryexec runs a command whose success depends on which
			// extractors exist; its output is checked all the same.
			"tryexec": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) == 0 {
					ts.Fatalf("usage: tryexec COMMAND ARGS...")
				}
				_ = ts.Exec(args[0], args[1:]...)
			},
		},
	})
}

// plantSecrets DIR writes the corpus under DIR, a feature "leak" whose task
// touches every planted file and whose texts hold secrets too, and a
// failure log with a token at $WORK/fail.log.
func plantSecrets(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: plant DIR")
	}
	files, secrets := redacttest.Corpus()
	byKind := map[string]string{}
	for _, s := range secrets {
		byKind[s.Kind] = s.Value
	}
	root := ts.MkAbs(args[0])
	var paths []string
	for p, text := range files {
		paths = append(paths, p)
		write(ts, filepath.Join(root, filepath.FromSlash(p)), text)
	}
	sort.Strings(paths)
	quoted := make([]string, len(paths))
	for i, p := range paths {
		quoted[i] = fmt.Sprintf("%q", p)
	}
	feat := filepath.Join(root, ".speed", "features", "leak")
	write(ts, filepath.Join(feat, "spec.md"), "# Leak\n\n## Requirements\n\n- REQ-1: The client connects with the slack token "+byKind["slack-token"]+".\n\n## Design\n\nThe deploy key is "+byKind["github-oauth"]+" for now.\n")
	write(ts, filepath.Join(feat, "tasks", "1.toml"), fmt.Sprintf("id = \"1\"\ntitle = \"Rotate the keys\"\ndescription = \"\"\"\nReplace %s with a fresh key.\n\"\"\"\nstatus = \"planned\"\nfiles_touched = [%s]\nrequirements = [\"REQ-1\"]\nacceptance = [\"no token like %s remains\"]\n\n[[decisions]]\nsummary = \"keep the stripe key %s\"\ndetail = \"until the rotation\"\nfiles = [\"internal/pay/pay.go\"]\n",
		byKind["github-pat"], strings.Join(quoted, ", "), byKind["npm-token"], byKind["stripe-key"]))
	// The agent's own context: an instruction file, a tool output, a note.
	write(ts, filepath.Join(root, "AGENTS.md"), "# Agents\n\nUse the staging token "+byKind["gitlab-pat"]+" for CI.\n")
	write(ts, filepath.Join(ts.Getenv("WORK"), "tool-output.txt"), "$ env\nSTRIPE_KEY="+byKind["stripe-key"]+"\nHOME=/root\n")
	ts.Setenv("LEAK_TOKEN", byKind["github-pat"])
	ts.Setenv("LEAK_KEY", "aws_secret_access_key="+byKind["aws-secret-access-key"])
	write(ts, filepath.Join(ts.Getenv("WORK"), "fail.log"), "--- FAIL: TestConnect (0.01s)\n    settings_test.py:12: auth failed for "+byKind["github-app-token"]+"\nFAIL\n")
}

func write(ts *testscript.TestScript, file, text string) {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		ts.Fatalf("%v", err)
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		ts.Fatalf("%v", err)
	}
}

// noLeaks FILE|DIR... fails when a planted secret appears in one of the
// files (stdout and stderr name the last command's output), or in any file
// below a directory. With !, it checks that some secret does appear, which
// proves the check can fail.
func noLeaks(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: noleaks FILE|DIR...")
	}
	_, secrets := redacttest.Corpus()
	found := []string{}
	check := func(name, text string) {
		if kinds := redacttest.Leaks(text, secrets); len(kinds) > 0 {
			found = append(found, fmt.Sprintf("%s: %s", name, strings.Join(kinds, ", ")))
		}
	}
	for _, a := range args {
		if a == "stdout" || a == "stderr" {
			check(a, ts.ReadFile(a))
			continue
		}
		p := ts.MkAbs(a)
		st, err := os.Stat(p)
		if err != nil {
			ts.Fatalf("%v", err)
		}
		if !st.IsDir() {
			check(a, ts.ReadFile(a))
			continue
		}
		filepath.WalkDir(p, func(f string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, err := os.ReadFile(f)
				if err != nil {
					ts.Fatalf("%v", err)
				}
				check(f, string(b))
			}
			return nil
		})
	}
	switch {
	case neg && len(found) == 0:
		ts.Fatalf("no planted secret found in %v", args)
	case !neg && len(found) > 0:
		ts.Fatalf("secrets leaked:\n%s", strings.Join(found, "\n"))
	}
}

// decoysKept FILE... fails unless every decoy of the corpus (a placeholder,
// a public key, a variable where a secret could be) shows in the files,
// as it is or as a JSON string holds it: what looks like a secret and is
// not is never redacted.
func decoysKept(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: decoys FILE...")
	}
	var text strings.Builder
	for _, a := range args {
		text.WriteString(ts.ReadFile(a))
	}
	var lost []string
	for _, d := range redacttest.Generate().Decoys {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(d.Needle)
		escaped := strings.TrimSuffix(strings.TrimSpace(b.String()), `"`)[1:]
		if !strings.Contains(text.String(), d.Needle) && !strings.Contains(text.String(), escaped) {
			lost = append(lost, fmt.Sprintf("%s (%s): %q", d.Kind, d.Path, d.Needle))
		}
	}
	if len(lost) > 0 {
		ts.Fatalf("decoys redacted or missing:\n%s", strings.Join(lost, "\n"))
	}
}

// unpage PAGE DIR writes the JSON documents a report page embeds
// (gzip+base64, which noleaks cannot read as they are) into DIR, one file
// each.
func unpage(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: unpage PAGE DIR")
	}
	page := []byte(ts.ReadFile(args[0]))
	dir := ts.MkAbs(args[1])
	ts.Check(os.MkdirAll(dir, 0o755))
	n := 0
	for _, id := range []string{report.BudgetID, report.ManifestID, report.PackID, report.FailureID} {
		if data, ok := report.Decode(page, id); ok {
			ts.Check(os.WriteFile(filepath.Join(dir, id), data, 0o644))
			n++
		}
	}
	if n == 0 {
		ts.Fatalf("%s embeds no JSON", args[0])
	}
}
