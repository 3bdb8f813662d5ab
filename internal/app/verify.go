package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/scope"
)

// VerifyResult is one artifact's verdict.
type VerifyResult struct {
	File   string `json:"file"`
	Status string `json:"status"` // ok | differs | skipped
	Detail string `json:"detail,omitempty"`
}

// Verify re-derives every committed Layer 2/3 artifact (of every task
// context folder, or those of a feature, or of one task) from its recorded
// inputs and compares bytes. A *MismatchError says how many differ.
func (s *Session) Verify(ctx context.Context, featureName, task string) ([]VerifyResult, error) {
	if s.top == "" {
		return nil, errors.New("verify needs a work tree; this is a bare repository")
	}
	dirs, err := s.contextDirs(featureName, task)
	if err != nil {
		return nil, err
	}
	var results []VerifyResult
	for _, d := range dirs {
		rs, err := s.op(ctx).verifyDir(d.feature, d.task)
		if err != nil {
			return nil, err
		}
		results = append(results, rs...)
	}
	bad := 0
	for _, r := range results {
		if r.Status == "differs" {
			bad++
		}
	}
	if bad > 0 {
		return results, &MismatchError{fmt.Sprintf("%d artifact(s) differ from what their recorded inputs give", bad)}
	}
	return results, nil
}

type taskDir struct{ feature, task string }

// contextDirs lists the task context folders that hold a manifest.
func (s *Session) contextDirs(featureName, task string) ([]taskDir, error) {
	root := filepath.Join(s.top, filepath.FromSlash(path.Join(s.speedDir, "features")))
	features, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		if featureName != "" {
			return nil, fmt.Errorf("no feature %s: %s/ does not exist", featureName, s.featureDir(featureName))
		}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []taskDir
	found := false
	for _, f := range features {
		if !f.IsDir() || (featureName != "" && f.Name() != featureName) {
			continue
		}
		found = true
		tasks, _ := os.ReadDir(filepath.Join(root, f.Name(), "context"))
		for _, t := range tasks {
			id, ok := strings.CutPrefix(t.Name(), "task-")
			if !ok || !t.IsDir() || (task != "" && id != task) {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, f.Name(), "context", t.Name(), scope.ManifestFile)); err == nil {
				out = append(out, taskDir{f.Name(), id})
			}
		}
	}
	if featureName != "" && !found {
		return nil, fmt.Errorf("no feature %s: %s/ does not exist", featureName, s.featureDir(featureName))
	}
	if task != "" && len(out) == 0 {
		return nil, fmt.Errorf("no scoped context for task %s of %s: run git speed scope %s %s", task, featureName, featureName, task)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].feature != out[j].feature {
			return out[i].feature < out[j].feature
		}
		return out[i].task < out[j].task
	})
	return out, nil
}

// verifyDir re-derives one task folder's artifacts and prompts.
func (o *op) verifyDir(featureName, task string) ([]VerifyResult, error) {
	rel := o.ContextDir(featureName, task)
	dir := filepath.Join(o.top, filepath.FromSlash(rel))
	read := func(name string) []byte {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return b
	}
	var man struct {
		Stage string `json:"stage"`
		Tree  string `json:"tree"`
	}
	var bud struct {
		Total  int               `json:"total"`
		Inputs map[string]string `json:"inputs"`
	}
	if err := json.Unmarshal(read(scope.ManifestFile), &man); err != nil || man.Tree == "" {
		return []VerifyResult{{File: path.Join(rel, scope.ManifestFile), Status: "differs", Detail: "not a manifest git-speed can read"}}, nil
	}
	if err := json.Unmarshal(read(scope.BudgetFile), &bud); err != nil {
		return []VerifyResult{{File: path.Join(rel, scope.BudgetFile), Status: "differs", Detail: "not a budget.json git-speed can read"}}, nil
	}
	var out []VerifyResult
	o.focusTask = task
	res, release, err := o.runScope(featureName, task, scopeOptions{stage: man.Stage, budget: bud.Total, rev: man.Tree})
	o.focusTask = ""
	var te *feature.TaskError
	if errors.As(err, &te) {
		// One broken task file fails its own artifacts, not the others'.
		return []VerifyResult{{File: path.Join(rel, scope.ManifestFile), Status: "differs",
			Detail: "cannot be derived again: " + strings.ReplaceAll(te.Error(), "\n", "; ")}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	release()
	changed := changedInputs(bud.Inputs, res.Budget.Inputs)
	for _, name := range []string{scope.ManifestFile, scope.BudgetFile, scope.MaterialFile} {
		want, err := res.Encode(name)
		if err != nil {
			return nil, err
		}
		out = append(out, compareArtifact(path.Join(rel, name), read(name), want, changed))
	}
	records, err := readRenders(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path.Join(rel, rendersFile), err)
	}
	for _, stage := range config.Stages {
		have := read(stage + ".md")
		if have == nil {
			continue
		}
		file := path.Join(rel, stage+".md")
		rec, ok := records[stage]
		switch {
		case !ok:
			out = append(out, VerifyResult{File: file, Status: "skipped", Detail: "no record of how it was rendered in " + rendersFile})
			continue
		case rec.Log:
			out = append(out, VerifyResult{File: file, Status: "skipped", Detail: "depends on the --log given to render"})
			continue
		case rec.Session != "":
			out = append(out, VerifyResult{File: file, Status: "skipped", Detail: "depends on session " + rec.Session + ", which moves on"})
			continue
		case rec.Fallback:
			out = append(out, VerifyResult{File: file, Status: "skipped", Detail: "rendered from a fallback context, after scoping failed"})
			continue
		case rec.Worktree:
			out = append(out, VerifyResult{File: file, Status: "skipped", Detail: "rendered from the work tree, which is not recorded"})
			continue
		}
		ro := renderOptions{scopeOptions: scopeOptions{rev: rec.Tree, budget: rec.Budget}, base: rec.Base, baseNote: rec.BaseNote, noFallback: true}
		_, rendered, err := o.renderStage(stage, featureName, task, ro)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		out = append(out, compareArtifact(file, have, []byte(rendered.Text), changed))
	}
	return out, nil
}

// changedInputs names the recorded inputs whose digest differs now.
func changedInputs(recorded, now map[string]string) []string {
	var names []string
	for k, v := range now {
		if recorded[k] != v {
			names = append(names, k)
		}
	}
	for k := range recorded {
		if _, ok := now[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	return names
}

func compareArtifact(file string, have, want []byte, changed []string) VerifyResult {
	if string(have) == string(want) {
		return VerifyResult{File: file, Status: "ok"}
	}
	hl, wl := strings.Split(string(have), "\n"), strings.Split(string(want), "\n")
	line := 1
	for line <= len(hl) && line <= len(wl) && hl[line-1] == wl[line-1] {
		line++
	}
	detail := fmt.Sprintf("first difference at line %d", line)
	if len(changed) > 0 {
		detail += "; inputs changed since: " + strings.Join(changed, ", ")
	}
	return VerifyResult{File: file, Status: "differs", Detail: detail}
}
