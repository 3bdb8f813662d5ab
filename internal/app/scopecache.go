package app

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
// build. Scope keeps, under <git-common-dir>/speed/cache/scopes/, one
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

func (s *Session) scopeCacheDir() string { return s.agentDir(filepath.Join("cache", "scopes")) }

// scopeKey digests the recipe of one scope; f is the feature as loaded.
func (s *Session) scopeKey(tree, commit string, f *feature.Feature, task string, so scopeOptions) string {
	h := blake3.New()
	fmt.Fprintf(h, "scope-v%d\x00%d\x00%s\x00%s\x00%s\x00", scopeRecordVersion, scope.Version, buildIdentity(), tree, commit)
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d\x00%v\x00", s.speedDir, task, so.stage, so.budget, so.strict)
	fmt.Fprintf(h, "%v\x00%d:", s.cfgRaw != nil, len(s.cfgRaw))
	h.Write(s.cfgRaw)
	fmt.Fprintf(h, "%s\x00%d:", f.Name, len(f.SpecRaw))
	h.Write(f.SpecRaw)
	fmt.Fprintf(h, "\x00%s\x00", f.SpecPath)
	fmt.Fprintf(h, "%s\x00%d:", f.FilePath, len(f.FileRaw))
	h.Write(f.FileRaw)
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

// scopeKeyOf returns the recipe's key of a scope at so.rev, or "" when it
// cannot be had cheaply: the work tree, a tree not indexed yet (the full
// run indexes it and says so), a feature or task that does not load (the
// full run reports why). Loading the feature reports its warnings, as the
// full run would. With a key, so holds the tree opened and its commit for
// the full run (the caller closes so.opened).
func (o *op) scopeKeyOf(featureName, task string, so *scopeOptions) string {
	if so.rev == worktreeRev {
		return ""
	}
	// The commit's history gives the co-change signal (coChange).
	commit, tree, err := o.repo.Resolve(so.rev)
	if err != nil {
		return ""
	}
	w, err := build.Open(o.repo, tree, o.cfg)
	if err != nil {
		return ""
	}
	f, err := o.loadFeature(featureName, w, so.strict)
	if err != nil || f.Task(task) == nil {
		w.Close()
		return ""
	}
	so.opened, so.commit = w, commit
	return o.scopeKey(tree, commit, f, task, *so)
}

// cachedScope returns the record of key when the task's context folder
// holds the very artifacts it names.
func (s *Session) cachedScope(key, featureName, task string) (*scopeRecord, bool) {
	if key == "" {
		return nil, false
	}
	b, err := os.ReadFile(filepath.Join(s.scopeCacheDir(), key+".json"))
	if err != nil {
		return nil, false
	}
	var rec scopeRecord
	if json.Unmarshal(b, &rec) != nil || rec.Version != scopeRecordVersion {
		return nil, false
	}
	dir := filepath.Join(s.top, filepath.FromSlash(s.ContextDir(featureName, task)))
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
func (s *Session) keepScope(key string, res *scope.Result, digests map[string]string) {
	rec := scopeRecord{Version: scopeRecordVersion, Artifacts: digests, Summary: res.Summary(), Warnings: res.Warnings}
	if !res.Budget.WithinBudget {
		rec.OverBudget = res.Budget.OverBudget
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return
	}
	cdir := s.scopeCacheDir()
	if err := os.MkdirAll(cdir, 0o755); err != nil {
		return
	}
	if writeFileAtomic(filepath.Join(cdir, key+".json"), b) == nil {
		pruneOldest(cdir, ".json", scopeCacheKeep)
	}
}
