package app

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/graph"
)

// starterFeature is the feature git speed init writes to start from.
const starterFeature = "first-feature"

// starterFile picks the file the starter task names: a tracked source
// file of the repository itself (a language with import resolution), the
// shallowest first, then in path order; else the first tracked file; ""
// when nothing is tracked. Vendored and test-data folders are passed over.
func starterFile(ctx context.Context, top string) string {
	cmd := exec.CommandContext(ctx, "git", "ls-files", "-z")
	cmd.Dir = top
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f == "" || strings.HasPrefix(f, ".speed/") {
			continue
		}
		skip := false
		for _, part := range strings.Split(f, "/") {
			switch part {
			case "vendor", "node_modules", "third_party", "testdata":
				skip = true
			}
		}
		if fi, err := os.Lstat(filepath.Join(top, filepath.FromSlash(f))); skip || err != nil || !fi.Mode().IsRegular() {
			continue
		}
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool {
		di, dj := strings.Count(files[i], "/"), strings.Count(files[j], "/")
		if di != dj {
			return di < dj
		}
		return files[i] < files[j]
	})
	for _, f := range files {
		if graph.HasResolver(world.DetectLang(f, nil)) {
			return f
		}
	}
	if len(files) > 0 {
		return files[0]
	}
	return ""
}

// writeStarter writes speedDir/features/first-feature: a spec template
// and one task naming file (a file the repository has; none when "").
func writeStarter(speedDir, file string) error {
	dir := filepath.Join(speedDir, "features", starterFeature)
	if err := os.MkdirAll(filepath.Join(dir, "tasks"), 0o755); err != nil {
		return err
	}
	spec := "# First feature\n\n" +
		"Say what the feature is for and who needs it. git-speed hands this spec, the task and the\n" +
		"files it scopes to each stage's prompt. Rename the folder to the feature's name.\n\n" +
		"## Requirements\n\n" +
		"- REQ-1: One thing the feature must do, said so that a test can check it.\n\n" +
		"## Design\n\n" +
		"How the feature fits the code: the files it changes and the choices already made.\n"
	var files []string
	title := "First task"
	if file != "" {
		files = []string{file}
		title = "First task: change " + file
	}
	var task bytes.Buffer
	task.Write(taskTOML("1", title, "Say what to change and why. files_touched names the files the task edits; git\n"+
		"speed task add FEATURE --title … --files a,b writes more tasks like this one.", files, nil, []string{"REQ-1"}))
	if err := os.WriteFile(filepath.Join(dir, "spec.md"), []byte(spec), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "tasks", "1.toml"), task.Bytes(), 0o644)
}
