package scope

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/feature"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func smallWorld() *fakeWorld {
	return newFakeP("4b825dc642cb6eb9a060e54bf8d69288fbee4904", []fileSpec{
		{"app/handler.go", 3, 5},
		{"app/handler_test.go", 2, 3},
		{"cmd/main.go", 1, 4},
		{"store/big.go", 100, 27},
		{"store/store.go", 5, 8},
		{"svc/service.go", 4, 6},
		{"svc/service_test.go", 2, 4},
		{"util/log.go", 2, 3},
		{"util/strings.go", 3, 4},
	}, []pe{
		{"app/handler.go", "svc/service.go", 4},
		{"app/handler_test.go", "app/handler.go", 2},
		{"svc/service_test.go", "svc/service.go", 6},
		{"svc/service.go", "store/store.go", 5},
		{"svc/service.go", "store/big.go", 1},
		{"store/store.go", "util/strings.go", 3},
		{"util/strings.go", "util/log.go", 2},
		{"cmd/main.go", "app/handler.go", 1},
	})
}

const smallSpec = `# Service

The service layer sits between the handlers and the store.

## REQ-1: Service steps
Service1 runs the first step and calls the store.

## REQ-2: Logging
Every step is logged by util/log.go.

## Notes

Handlers validate input before calling the service.
`

func smallFeature(t testing.TB) *feature.Feature {
	f, err := testFeature("svc", smallSpec, map[string]string{
		"t1": `id = "t1"
title = "Store layer"
status = "done"
files_touched = ["store/store.go"]
[[decisions]]
summary = "Store keeps values in memory"
detail = "A map guarded by a mutex; no persistence yet."
files = ["store/store.go"]
`,
		"t2": `id = "t2"
title = "Service steps"
description = "Add a fifth step to the service and test it."
depends_on = ["t1"]
files_touched = ["svc/service.go"]
requirements = ["REQ-1"]
acceptance = ["Service5 returns the input unchanged for zero"]
`,
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func o200k(t testing.TB) tokens.Counter {
	c, err := tokens.New("o200k")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestGolden(t *testing.T) {
	w := smallWorld()
	f := smallFeature(t)
	opt := Options{Stage: "developer", Budget: 4000, Counter: o200k(t)}
	r, err := Scope(w, f, "t2", opt)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := r.Write(dir); err != nil {
		t.Fatal(err)
	}
	ctx := filepath.Join(dir, ".speed/features/svc/context/task-t2")
	for _, name := range []string{ManifestFile, BudgetFile, MaterialFile} {
		got, err := os.ReadFile(filepath.Join(ctx, name))
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "small."+name, got)
	}
	golden(t, "small.summary.txt", []byte(r.Summary()))
	checkInvariants(t, w, r, opt)

	// A second run writes the same bytes.
	r2, err := Scope(w, f, "t2", opt)
	if err != nil {
		t.Fatal(err)
	}
	dir2 := t.TempDir()
	if err := r2.Write(dir2); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{ManifestFile, BudgetFile, MaterialFile} {
		a, _ := os.ReadFile(filepath.Join(ctx, name))
		b, _ := os.ReadFile(filepath.Join(dir2, ".speed/features/svc/context/task-t2", name))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between runs", name)
		}
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it); got:\n%s", name, got)
	}
}

// checkInvariants checks the properties every result must have.
func checkInvariants(t testing.TB, w *fakeWorld, r *Result, opt Options) {
	t.Helper()
	b := r.Budget
	// Distance 0 is never cut and always full.
	for _, f := range r.Manifest.Files {
		if f.Distance == 0 && w.g.Index(f.Path) >= 0 && f.Tier != TierFull {
			t.Fatalf("distance-0 file %s delivered %s", f.Path, f.Tier)
		}
	}
	for _, c := range b.Cuts {
		for _, f := range r.Manifest.Files {
			if f.Path == c.Path && f.Distance == 0 {
				t.Fatalf("distance-0 file %s cut", c.Path)
			}
		}
	}
	// Within budget unless distance 0 alone exceeds it.
	d := b.Dimensions
	if b.OverBudget == "" {
		if !b.WithinBudget || d.Code.Used > d.Code.Limit || d.Task.Used > d.Task.Limit || d.Spec.Used > d.Spec.Limit {
			t.Fatalf("over budget without a reason: %+v", d)
		}
		if d.Code.Used+d.Task.Used+d.Spec.Used+d.Reserve.Limit > b.Total {
			t.Fatalf("total exceeded: %+v of %d", d, b.Total)
		}
	} else if b.WithinBudget {
		t.Fatalf("over_budget %q but within_budget", b.OverBudget)
	}
	if d.Code.Limit+d.Task.Limit+d.Spec.Limit+d.Reserve.Limit-sumFlows(b) != b.Total {
		t.Fatalf("limits %+v do not add up to %d", d, b.Total)
	}
	// Tokens used are the sum of what material holds.
	sum := 0
	for _, f := range r.Material.Files {
		sum += f.Tokens
		if opt.Counter != nil {
			want := opt.Counter.Count(f.Content)
			if f.Pointer != "" && f.Tier != TierFull {
				want += opt.Counter.Count(f.Pointer)
			}
			if f.Tokens != want && f.Distance != 0 {
				t.Fatalf("%s: tokens %d, content counts %d", f.Path, f.Tokens, want)
			}
		}
		if f.Tier == TierTruncated && !strings.Contains(f.Pointer, "read lines") {
			t.Fatalf("%s truncated without a pointer: %q", f.Path, f.Pointer)
		}
	}
	if sum != d.Code.Used {
		t.Fatalf("code used %d, material files sum to %d", d.Code.Used, sum)
	}
	// Every removed token is accounted for by a cut.
	cut := map[string]Cut{}
	for _, c := range b.Cuts {
		if c.Dimension == DimCode {
			if _, dup := cut[c.Path]; dup {
				t.Fatalf("two cuts for %s", c.Path)
			}
			cut[c.Path] = c
		}
	}
	for _, f := range r.Manifest.Files {
		c, ok := cut[f.Path]
		planned := plannedTier(f, opt)
		if planned == TierDropped || f.Distance == 0 {
			if ok {
				t.Fatalf("cut of unplanned %s", f.Path)
			}
			continue
		}
		if f.Tier == TierFull && strings.Contains(f.Reason, "budget left over") {
			if ok {
				t.Fatalf("cut of an extra %s", f.Path)
			}
			continue
		}
		if f.Tier != planned && !ok {
			t.Fatalf("%s planned %s delivered %s without a cut", f.Path, planned, f.Tier)
		}
		if ok && (c.From != planned || c.To != f.Tier || c.TokensSaved < 0) {
			t.Fatalf("cut %+v does not match %s → %s", c, planned, f.Tier)
		}
	}
}

func sumFlows(b Budget) int {
	n := 0
	for _, f := range b.Flows {
		n += f.Tokens
	}
	return n
}

func plannedTier(f FileEntry, opt Options) string {
	cfg := opt.Config
	if cfg.Budget == (config.Budget{}) {
		cfg = config.Default()
	}
	switch {
	case f.Distance > cfg.Scope.MaxHops:
		return TierDropped
	case strings.Contains(f.Reason, "full_line_limit"), strings.Contains(f.Reason, "co-change alone"), strings.Contains(f.Reason, "place of a file to create: skeleton"):
		return TierSkeleton
	case f.Distance == 1:
		return TierFull
	}
	return TierSkeleton
}
