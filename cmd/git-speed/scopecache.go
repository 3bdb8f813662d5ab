package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/zeebo/blake3"

	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/scope"
	"github.com/git-speed/git-speed/layers/world/build"
)

// A task's Layer 2 artifacts are a pure function of the tree, the commit
// whose history gives the co-change signal, speed.toml, the feature's
// files, the task, the stage, the budget, --strict and the git-speed
// build. `scope` keeps, under <git-common-dir>/speed/cache/scopes/, one
// small record per recipe (a digest of all of these): the digests of the
// three artifacts it wrote, its summary and its warnings. Asked for the
// same scope again while the task's context folder still holds those
// bytes, it answers from the record without loading the world: the output
// is the one a full run would give, byte for byte.
const scopeCacheKeep = 64

// scopeRecord is what the cache keeps of one scope.
type scopeRecord struct {
	Version    int               `json:"version"`
	Artifacts  map[string]string `json:"artifacts"` // file name → blake3 of its bytes
	Summary    string            `json:"summary"`
	Warnings   []string          `json:"warnings"`
	OverBudget string            `json:"over_budget"` // "" when within budget
}

const scopeRecordVersion = 1

func (e *env) scopeCacheDir() string { return e.agentDir(filepath.Join("cache", "scopes")) }

// scopeKey digests the recipe of one scope; f is the feature as loaded.
func (e *env) scopeKey(tree, commit string, f *feature.Feature, task string, o scopeOptions) string {
	h := blake3.New()
	fmt.Fprintf(h, "scope-v%d\x00%d\x00%s\x00%s\x00%s\x00", scopeRecordVersion, scope.Version, buildIdentity(), tree, commit)
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d\x00%v\x00", e.speedDir, task, o.stage, o.budget, o.strict)
	fmt.Fprintf(h, "%v\x00%d:", e.cfgRaw != nil, len(e.cfgRaw))
	h.Write(e.cfgRaw)
	fmt.Fprintf(h, "%s\x00%d:", f.Name, len(f.SpecRaw))
	h.Write(f.SpecRaw)
	fmt.Fprintf(h, "\x00%s\x00", f.SpecPath)
	for _, t := range f.Tasks {
		fmt.Fprintf(h, "task\x00%s\x00%d:", t.Path, len(t.Raw))
		h.Write(t.Raw)
	}
	for _, b := range f.Broken {
		fmt.Fprintf(h, "broken\x00%s\x00%s\x00", b.File, b.ID)
		for _, x := range b.Errs {
			fmt.Fprintf(h, "%s\x00", x)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func digestHex(b []byte) string {
	sum := blake3.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// scopeKeyOf returns the recipe's key of a scope at o.rev, or "" when it
// cannot be had cheaply: the work tree, a tree not indexed yet (the full
// run indexes it and says so), a feature or task that does not load (the
// full run reports why). Loading the feature prints its warnings, as the
// full run would. With a key, o holds the tree opened and its commit for
// the full run (the caller closes o.opened).
func (e *env) scopeKeyOf(featureName, task string, o *scopeOptions) string {
	if o.rev == worktreeRev {
		return ""
	}
	// The commit's history gives the co-change signal (coChange).
	commit, tree, err := e.repo.Resolve(o.rev)
	if err != nil {
		return ""
	}
	w, err := build.Open(e.repo, tree, e.cfg)
	if err != nil {
		return ""
	}
	f, err := e.loadFeature(featureName, w, o.strict)
	if err != nil || f.Task(task) == nil {
		w.Close()
		return ""
	}
	o.opened, o.commit = w, commit
	return e.scopeKey(tree, commit, f, task, *o)
}

// cachedScope returns the record of key when the task's context folder
// holds the very artifacts it names.
func (e *env) cachedScope(key, featureName, task string) (*scopeRecord, bool) {
	b, err := os.ReadFile(filepath.Join(e.scopeCacheDir(), key+".json"))
	if err != nil {
		return nil, false
	}
	var rec scopeRecord
	if json.Unmarshal(b, &rec) != nil || rec.Version != scopeRecordVersion {
		return nil, false
	}
	dir := filepath.Join(e.top, filepath.FromSlash(e.contextDir(featureName, task)))
	for _, name := range []string{scope.ManifestFile, scope.BudgetFile, scope.MaterialFile} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || rec.Artifacts[name] == "" || digestHex(data) != rec.Artifacts[name] {
			return nil, false
		}
	}
	return &rec, true
}

// keepScope records under key a scope whose artifacts were written with
// these digests. A cache that cannot be written only costs the next run
// its speed.
func (e *env) keepScope(key string, res *scope.Result, digests map[string]string) {
	rec := scopeRecord{Version: scopeRecordVersion, Artifacts: digests, Summary: res.Summary(), Warnings: res.Warnings}
	if !res.Budget.WithinBudget {
		rec.OverBudget = res.Budget.OverBudget
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return
	}
	cdir := e.scopeCacheDir()
	if err := os.MkdirAll(cdir, 0o755); err != nil {
		return
	}
	if writeFileAtomic(filepath.Join(cdir, key+".json"), b) == nil {
		pruneOldest(cdir, ".json", scopeCacheKeep)
	}
}
