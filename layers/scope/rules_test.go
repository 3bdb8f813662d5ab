package scope

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/world"
)

// halfConfig gives code_context exactly half the total and no flows, so a
// test can set the code budget to the token.
func halfConfig() config.Config {
	c := config.Default()
	c.Budget.Shares = config.Shares{CodeContext: 0.5, TaskContext: 0.25, SpecContext: 0.25}
	c.Scope.FlowUnused = false
	return c
}

func ruleFeature(t *testing.T, touched string) *feature.Feature {
	f, err := testFeature("svc", "", map[string]string{"t": `id = "t"
title = "x"
files_touched = [` + touched + `]
`})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func runRule(t *testing.T, w *fakeWorld, f *feature.Feature, code int, mut func(*Options)) (*Result, map[string]FileEntry) {
	t.Helper()
	c4, _ := tokens.New("chars4")
	opt := Options{Config: halfConfig(), Budget: 2 * code, Counter: c4, Policy: PolicySeed, NoExtras: true}
	if mut != nil {
		mut(&opt)
	}
	r, err := Scope(w, f, "t", opt)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, w, r, opt)
	m := map[string]FileEntry{}
	for _, e := range r.Manifest.Files {
		m[e.Path] = e
	}
	return r, m
}

func cutOf(r *Result, p string) *Cut {
	for i := range r.Budget.Cuts {
		if r.Budget.Cuts[i].Path == p {
			return &r.Budget.Cuts[i]
		}
	}
	return nil
}

func TestCutRules(t *testing.T) {
	w := smallWorld()
	f := ruleFeature(t, `"svc/service.go"`)
	// Everything fits: every file at its planned tier, no cuts.
	r, all := runRule(t, w, f, 1<<20, nil)
	if len(r.Budget.Cuts) != 0 {
		t.Fatalf("cuts with room to spare: %+v", r.Budget.Cuts)
	}
	want := map[string]string{
		"svc/service.go": TierFull, "svc/service_test.go": TierFull, "store/store.go": TierFull, "app/handler.go": TierFull,
		"store/big.go":    TierSkeleton, // over full_line_limit: planned as a skeleton, not a cut
		"util/strings.go": TierSkeleton, "app/handler_test.go": TierSkeleton, "cmd/main.go": TierSkeleton,
		"util/log.go": TierDropped, // 3 hops
	}
	for p, tier := range want {
		if all[p].Tier != tier {
			t.Errorf("%s: %s, want %s", p, all[p].Tier, tier)
		}
	}
	if !strings.Contains(all["util/log.go"].Reason, "beyond scope.max_hops (2)") {
		t.Errorf("3-hop reason %q", all["util/log.go"].Reason)
	}
	d0 := all["svc/service.go"].Tokens
	d1 := all["svc/service_test.go"].Tokens + all["store/store.go"].Tokens + all["app/handler.go"].Tokens + all["store/big.go"].Tokens
	d2 := all["util/strings.go"].Tokens + all["app/handler_test.go"].Tokens + all["cmd/main.go"].Tokens

	t.Run("2-hop dropped first", func(t *testing.T) {
		r, m := runRule(t, w, f, d0+d1+d2-all["util/strings.go"].Tokens/2, nil)
		for _, p := range []string{"svc/service_test.go", "store/store.go", "app/handler.go", "store/big.go"} {
			if m[p].Tier != all[p].Tier {
				t.Errorf("1-hop %s cut to %s before the 2-hop files", p, m[p].Tier)
			}
		}
		dropped := 0
		for _, p := range []string{"util/strings.go", "app/handler_test.go", "cmd/main.go"} {
			if m[p].Tier == TierDropped {
				dropped++
				if c := cutOf(r, p); c == nil || !strings.Contains(c.Reason, "2-hop file dropped") {
					t.Errorf("%s: cut %+v", p, c)
				}
			}
		}
		if dropped == 0 {
			t.Error("no 2-hop file dropped")
		}
	})
	t.Run("1-hop downgraded next", func(t *testing.T) {
		r, m := runRule(t, w, f, d0+d1-all["store/store.go"].Tokens/2, nil)
		down := 0
		for _, p := range []string{"svc/service_test.go", "store/store.go", "app/handler.go"} {
			switch m[p].Tier {
			case TierSkeleton:
				down++
				if c := cutOf(r, p); c == nil || c.From != TierFull || c.To != TierSkeleton || c.TokensSaved <= 0 || !strings.Contains(c.Reason, "downgraded") {
					t.Errorf("%s: cut %+v", p, c)
				}
			case TierDropped, TierTruncated:
				t.Errorf("1-hop %s %s while downgrading would do", p, m[p].Tier)
			}
		}
		if down == 0 {
			t.Error("no 1-hop file downgraded")
		}
	})
	t.Run("truncate last", func(t *testing.T) {
		r, m := runRule(t, w, f, d0+68, nil)
		trunc := 0
		for p, e := range m {
			if e.Tier == TierTruncated {
				trunc++
				c := cutOf(r, p)
				if c == nil || !strings.Contains(c.Reason, "read lines") || e.Distance != 1 {
					t.Errorf("%s: truncated with cut %+v", p, c)
				}
			}
		}
		if trunc == 0 {
			t.Errorf("nothing truncated: %+v", m)
		}
		for _, mf := range r.Material.Files {
			if mf.Tier == TierTruncated && (mf.End < 1 || !strings.Contains(mf.Pointer, mf.Path)) {
				t.Errorf("truncated file %+v", mf)
			}
		}
	})
	t.Run("distance 0 over budget", func(t *testing.T) {
		r, m := runRule(t, w, f, d0/2, nil)
		if r.Budget.WithinBudget || !strings.Contains(r.Budget.OverBudget, "distance 0") {
			t.Errorf("budget %+v", r.Budget)
		}
		if m["svc/service.go"].Tier != TierFull {
			t.Error("distance 0 cut")
		}
		// The touched file comes beyond the budget; its neighbours still
		// come, as skeletons only, within code_context.
		kept := 0
		for p, e := range m {
			if e.Distance > 0 && e.Tier == TierFull {
				t.Errorf("%s in full while distance 0 alone is over budget", p)
			}
			if e.Distance > 0 && e.Tier != TierDropped {
				kept++
			}
		}
		if kept == 0 {
			t.Error("no neighbour delivered beside an over-budget task file")
		}
		if r.Budget.OutsideBudget != m["svc/service.go"].Tokens {
			t.Errorf("outside_budget %d, want the touched file's %d tokens", r.Budget.OutsideBudget, m["svc/service.go"].Tokens)
		}
		if len(r.Warnings) == 0 || !strings.Contains(strings.Join(r.Warnings, "\n"), "over budget") {
			t.Errorf("warnings %q", r.Warnings)
		}
	})
	t.Run("max_hops 1", func(t *testing.T) {
		_, m := runRule(t, w, f, 1<<20, func(o *Options) { o.Config.Scope.MaxHops = 1 })
		if e := m["util/strings.go"]; e.Tier != TierDropped || !strings.Contains(e.Reason, "beyond scope.max_hops (1)") {
			t.Errorf("2 hops with max_hops 1: %+v", e)
		}
		if _, listed := m["util/log.go"]; listed {
			t.Error("3 hops listed with max_hops 1")
		}
	})
	t.Run("flows", func(t *testing.T) {
		r, _ := runRule(t, w, f, 1000, func(o *Options) { o.Config.Scope.FlowUnused = true })
		if len(r.Budget.Flows) != 2 || r.Budget.Dimensions.Code.Limit != 1000+sumFlows(r.Budget) {
			t.Errorf("flows %+v, dims %+v", r.Budget.Flows, r.Budget.Dimensions)
		}
		r, _ = runRule(t, w, f, 1000, nil)
		if len(r.Budget.Flows) != 0 || r.Budget.Dimensions.Code.Limit != 1000 {
			t.Errorf("no-flow %+v %+v", r.Budget.Flows, r.Budget.Dimensions)
		}
	})
	t.Run("extras", func(t *testing.T) {
		// The seed policy never gives more than the plan: extras are the
		// value policy's.
		r, m := runRule(t, w, f, 1<<20, func(o *Options) { o.NoExtras = false })
		if e := m["util/strings.go"]; e.Tier != TierSkeleton {
			t.Errorf("seed policy gave a 2-hop file more than its skeleton: %+v", e)
		}
		r, m = runRule(t, w, f, 1<<20, func(o *Options) { o.NoExtras, o.Policy = false, PolicyValue })
		for _, p := range []string{"util/strings.go", "app/handler_test.go", "cmd/main.go", "store/big.go"} {
			if e := m[p]; e.Tier != TierFull || !strings.Contains(e.Reason, "budget left over") {
				t.Errorf("extra %s: %+v", p, e)
			}
		}
		if m["util/log.go"].Tier != TierDropped || len(r.Budget.Cuts) != 0 {
			t.Errorf("extras went beyond max_hops or cut: %+v", r.Budget.Cuts)
		}
	})
	t.Run("value policy", func(t *testing.T) {
		_, m := runRule(t, w, f, d0+d1-all["store/store.go"].Tokens/2, func(o *Options) { o.Policy = PolicyValue })
		for _, p := range []string{"svc/service_test.go", "store/store.go", "app/handler.go"} {
			if m[p].Tier == TierDropped {
				t.Errorf("value policy dropped 1-hop %s", p)
			}
		}
	})
}

func TestAbsentAndStrict(t *testing.T) {
	w := smallWorld()
	f := ruleFeature(t, `"svc/service.go", "svc/new.go"`)
	r, m := runRule(t, w, f, 1<<20, nil)
	if e := m["svc/new.go"]; e.Distance != 0 || e.Tier != TierDropped || e.Role != feature.RoleCreate || !strings.Contains(e.Reason, "to create") {
		t.Errorf("absent file %+v", e)
	}
	if !strings.Contains(strings.Join(r.Warnings, "\n"), "svc/new.go is not in tree") {
		t.Errorf("warnings %q", r.Warnings)
	}
	c4, _ := tokens.New("chars4")
	if _, err := Scope(w, f, "t", Options{Counter: c4, Strict: true}); err == nil || !strings.Contains(err.Error(), "svc/new.go is not in tree") {
		t.Errorf("strict: %v", err)
	}
	if _, err := Scope(w, f, "nope", Options{Counter: c4}); err == nil || !strings.Contains(err.Error(), `no task "nope"`) {
		t.Errorf("unknown task: %v", err)
	}
	if _, err := Scope(w, f, "t", Options{Counter: c4, Stage: "tester"}); err == nil || !strings.Contains(err.Error(), "unknown stage") {
		t.Errorf("bad stage: %v", err)
	}
}

func TestTaskAndSpecCuts(t *testing.T) {
	w := smallWorld()
	long := strings.Repeat("word ", 400)
	f, err := testFeature("svc", "## REQ-1: a\n"+long+"\n\n## REQ-2: b\nshort service text\n", map[string]string{
		"a": "id = \"a\"\nstatus = \"done\"\n[[decisions]]\nsummary = \"s1\"\ndetail = \"" + long + "\"\n[[decisions]]\nsummary = \"s2\"\n",
		"t": "id = \"t\"\ntitle = \"service\"\ndepends_on = [\"a\"]\nrequirements = [\"REQ-1\", \"REQ-2\"]\nfiles_touched = [\"svc/service.go\"]\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := runRule(t, w, f, 1000, nil) // task and spec get 500 each
	var got []string
	for _, c := range r.Budget.Cuts {
		if c.Dimension != DimCode {
			got = append(got, c.Dimension+" "+c.Path)
		}
	}
	want := "spec_context .speed/features/svc/spec.md#REQ-1|task_context .speed/features/svc/tasks/a.toml#decisions[0]"
	if strings.Join(got, "|") != want {
		t.Errorf("cuts %q, want %q", got, want)
	}
	if len(r.Material.Decisions) != 1 || r.Material.Decisions[0].Summary != "s2" || len(r.Material.Spec) != 1 || r.Material.Spec[0].ID != "REQ-2" {
		t.Errorf("material %+v %+v", r.Material.Decisions, r.Material.Spec)
	}
}

func TestMapSkeleton(t *testing.T) {
	src := strings.Split("package p\n\n// A does.\nfunc A() {\n\tx()\n}\n\nfunc B() int {\n\treturn 1\n}\n", "\n")
	skel := []string{"package p\n", "\n", "// A does.\n", "func A() { … } // lines 4-6\n", "func B() int { … } // lines 8-10\n"}
	got := mapSkeleton(skel, src)
	want := []int{1, 1, 3, 4, 8}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("mapSkeleton = %v, want %v", got, want)
		}
	}
}

func TestOddInputs(t *testing.T) {
	w := smallWorld()
	// A binary file and a .env file among the task's files.
	w.g.Files = append(w.g.Files,
		world.FileEntry{Path: "assets/logo.png", Size: 100, Blob: "png", Flags: []world.Flag{{Name: world.FlagBinary, Reason: "NUL byte"}}},
		world.FileEntry{Path: "deploy/.env", Size: 30, Lines: 2, Blob: "env"})
	w.g.Links = append(w.g.Links, nil, nil)
	w.content["deploy/.env"] = []byte("API_KEY=hunter2\nDEBUG=1\n")
	w.content["assets/logo.png"] = []byte("\x89PNG\x00")
	sort.Slice(w.g.Files, func(i, j int) bool { return w.g.Files[i].Path < w.g.Files[j].Path })
	w.g.Edges = nil // indexes moved; edges do not matter here
	f := ruleFeature(t, `"assets/logo.png", "deploy/.env"`)
	r, m := runRule(t, w, f, 1<<20, nil)
	if m["assets/logo.png"].Tier != TierFull || m["deploy/.env"].Tier != TierFull {
		t.Fatalf("manifest %+v", m)
	}
	for _, mf := range r.Material.Files {
		switch mf.Path {
		case "assets/logo.png":
			if mf.Content != "" || !strings.Contains(mf.Pointer, "not shown") {
				t.Errorf("binary delivered: %+v", mf)
			}
		case "deploy/.env":
			if strings.Contains(mf.Content, "hunter2") || !strings.Contains(mf.Content, "API_KEY=***REDACTED(env-value)***") {
				t.Errorf("secret delivered: %q", mf.Content)
			}
		}
	}
	if rd := r.Budget.Redactions; rd.Count != 2 || rd.ByRule["env-value"] != 2 {
		t.Errorf("budget.json redactions %+v, want 2 env-value", rd)
	}
	// No files at all.
	f = ruleFeature(t, "")
	r, _ = runRule(t, w, f, 1000, nil)
	if len(r.Manifest.Files) != 0 || !r.Budget.WithinBudget {
		t.Errorf("empty task: %+v", r.Manifest)
	}
}

// TestLeadersFirst: with the value policy, the file most of the task's
// neighbours lead to comes before many small files of little relevance,
// even at 2 hops; the seed's order keeps every 1-hop file first.
func TestLeadersFirst(t *testing.T) {
	files := []fileSpec{{"core/seed.go", 2, 3}, {"lib/shared.go", 8, 6}}
	var edges []pe
	for i := 0; i < 30; i++ {
		p := fmt.Sprintf("small/s%02d.go", i)
		files = append(files, fileSpec{p, 1, 2})
		edges = append(edges, pe{p, "core/seed.go", 1}, pe{p, "lib/shared.go", 3})
	}
	w := newFakeP("5b825dc642cb6eb9a060e54bf8d69288fbee4904", files, edges)
	f := ruleFeature(t, `"core/seed.go"`)
	_, all := runRule(t, w, f, 1<<20, nil)
	if all["lib/shared.go"].Distance != 2 || all["lib/shared.go"].Tier != TierSkeleton {
		t.Fatalf("shared.go with room to spare: %+v", all["lib/shared.go"])
	}
	code := all["core/seed.go"].Tokens
	for p, e := range all {
		if strings.HasPrefix(p, "small/") {
			code += e.Tokens
		}
	}
	code -= code / 4 // the small files alone more than fill what is left
	value := func(o *Options) { o.Policy = PolicyValue }
	r, m := runRule(t, w, f, code, value)
	if e := m["lib/shared.go"]; e.Tier != TierSkeleton {
		t.Errorf("value policy: the most relevant 2-hop file is %s: %+v, cuts %+v", e.Tier, e, cutOf(r, "lib/shared.go"))
	}
	dropped := 0
	for p, e := range m {
		if strings.HasPrefix(p, "small/") && e.Tier == TierDropped {
			dropped++
		}
	}
	if dropped == 0 {
		t.Error("value policy: every small 1-hop file fits; the budget tests nothing")
	}
	if _, m := runRule(t, w, f, code, nil); m["lib/shared.go"].Tier != TierDropped {
		t.Errorf("seed policy: 2-hop shared.go %s before every 1-hop file is in", m["lib/shared.go"].Tier)
	}
}
