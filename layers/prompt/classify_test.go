package prompt

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeFiles writes name → content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// run runs a command in dir and returns its combined output; it must fail.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("%s %v succeeded; want a failure:\n%s", name, args, out)
	}
	return string(out)
}

func cutOf(path, from, to string) Budget {
	return Budget{Cuts: []Cut{{Path: path, From: from, To: to, TokensSaved: 300, Reason: "fixture cut"}}}
}

func droppedOf(path string) Manifest {
	return Manifest{Files: []ManifestFile{{Path: path, Distance: 2, Tier: TierDropped, Tokens: 200, Reason: "dropped to fit"}}}
}

func wantKind(t *testing.T, c Classification, kind string) {
	t.Helper()
	if c.Kind != kind {
		b, _ := json.MarshalIndent(c, "", "  ")
		t.Fatalf("kind %s, want %s:\n%s", c.Kind, kind, b)
	}
	if kind != KindUnknown && (c.Confidence <= 0 || len(c.Evidence) == 0 || c.Summary == "") {
		t.Errorf("%s without confidence, evidence or summary: %+v", kind, c)
	}
}

func wantCut(t *testing.T, c Classification, path, by string) {
	t.Helper()
	for _, m := range c.Cuts {
		if m.Path == path && m.By == by {
			for _, e := range c.Evidence {
				if e.Line == m.Line && e.Signal == KindContextCut {
					return
				}
			}
			t.Errorf("cut %s matched on line %d but that line is not in the evidence: %+v", path, m.Line, c.Evidence)
			return
		}
	}
	t.Errorf("no cut match %s by %s in %+v", path, by, c.Cuts)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var goEnv = []string{"GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GO111MODULE=on", "GOPROXY=off"}

// goModule writes a small Go module with one broken package per failure
// kind, compiled and tested for real below.
func goModule(t *testing.T) string {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":                         "module example.com/shop\n\ngo 1.22\n",
		"internal/store/store.go":        "package store\n\n// Store holds carts.\ntype Store struct{ items map[string]int }\n\n// Open returns an empty store.\nfunc Open() *Store { return &Store{} }\n\n// Add puts n of sku in the store.\nfunc (s *Store) Add(sku string, n int) { s.items[sku] += n }\n",
		"internal/cart/cart.go":          "package cart\n\nimport \"example.com/shop/internal/store\"\n\nfunc New() *store.Store {\n\ts := store.OpenReadOnly()\n\ts.Flush()\n\treturn s\n}\n",
		"internal/price/price.go":        "package price\n\nfunc Total(a, b int) int { return a - b }\n",
		"internal/price/price_test.go":   "package price\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif got := Total(2, 3); got != 5 {\n\t\tt.Errorf(\"Total(2, 3) = %d, want 5\", got)\n\t}\n}\n",
		"internal/stock/stock_test.go":   "package stock\n\nimport (\n\t\"testing\"\n\n\t\"example.com/shop/internal/store\"\n)\n\nfunc TestAdd(t *testing.T) {\n\tstore.Open().Add(\"sku-1\", 2)\n}\n",
		"internal/golden/golden_test.go": "package golden\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestGolden(t *testing.T) {\n\tif _, err := os.ReadFile(\"testdata/want.json\"); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n",
		"internal/slow/slow_test.go":     "package slow\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestSlow(t *testing.T) { time.Sleep(time.Hour) }\n",
	})
	return dir
}

func TestClassifyGoReal(t *testing.T) {
	dir := goModule(t)

	t.Run("build error", func(t *testing.T) {
		log := run(t, dir, goEnv, "go", "build", "./internal/cart")
		c := Classify(log, Budget{}, Manifest{})
		wantKind(t, c, KindBuildError)
		if !contains(c.Symbols, "store.OpenReadOnly") || !contains(c.Files, "internal/cart/cart.go") {
			t.Errorf("names: files %v symbols %v\nlog:\n%s", c.Files, c.Symbols, log)
		}
		// The package that defines the missing symbol was cut to a skeleton:
		// the failure is the context's, not the code's.
		c = Classify(log, cutOf("internal/store/store.go", TierFull, TierSkeleton), Manifest{})
		wantKind(t, c, KindContextCut)
		wantCut(t, c, "internal/store/store.go", "symbol")
		if !contains(c.Also, KindBuildError) {
			t.Errorf("also = %v", c.Also)
		}
	})
	t.Run("go test build failure", func(t *testing.T) {
		log := run(t, dir, goEnv, "go", "test", "-vet=off", "-count=1", "./internal/cart")
		wantKind(t, Classify(log, Budget{}, Manifest{}), KindBuildError)
	})
	t.Run("test failure", func(t *testing.T) {
		log := run(t, dir, goEnv, "go", "test", "-vet=off", "-count=1", "./internal/price")
		c := Classify(log, Budget{}, Manifest{})
		wantKind(t, c, KindTestFailure)
		if !contains(c.Files, "price_test.go") {
			t.Errorf("files %v\nlog:\n%s", c.Files, log)
		}
	})
	t.Run("panic in a cut file", func(t *testing.T) {
		log := run(t, dir, goEnv, "go", "test", "-vet=off", "-count=1", "./internal/stock")
		if !strings.Contains(log, "assignment to entry in nil map") {
			t.Fatalf("unexpected log:\n%s", log)
		}
		wantKind(t, Classify(log, Budget{}, Manifest{}), KindTestFailure)
		// The stack names the store file by its absolute path.
		c := Classify(log, Budget{}, droppedOf("internal/store/store.go"))
		wantKind(t, c, KindContextCut)
		wantCut(t, c, "internal/store/store.go", "path")
	})
	t.Run("missing file", func(t *testing.T) {
		log := run(t, dir, goEnv, "go", "test", "-vet=off", "-count=1", "./internal/golden")
		c := Classify(log, Budget{}, Manifest{})
		wantKind(t, c, KindMissingFile)
		if !contains(c.Files, "testdata/want.json") {
			t.Errorf("files %v\nlog:\n%s", c.Files, log)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		log := run(t, dir, goEnv, "go", "test", "-vet=off", "-count=1", "-timeout=300ms", "./internal/slow")
		wantKind(t, Classify(log, Budget{}, Manifest{}), KindTimeout)
	})
}

func TestClassifyPythonReal(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("needs python3")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"app/__init__.py": "",
		"app/rates.py":    "VAT = 0.2\n",
		"app/pricing.py":  "from app.rates import VAT\n\n\ndef total(net):\n    return round(net * (1 + VAT), 2) + fee\n",
		"run_name.py":     "from app.pricing import total\n\nprint(total(10))\n",
		"run_import.py":   "from app.rates import VAT, DISCOUNT\n",
		"run_module.py":   "import app.store\n",
		"run_file.py":     "open('data/prices.csv').read()\n",
	})
	env := []string{"PYTHONDONTWRITEBYTECODE=1", "PYTHONPATH=" + dir}

	log := run(t, dir, env, py, "run_name.py")
	c := Classify(log, Budget{}, Manifest{})
	wantKind(t, c, KindBuildError)
	if !contains(c.Symbols, "fee") || !contains(c.Files, filepath.Join(dir, "app", "pricing.py")) {
		t.Errorf("names: %v %v\n%s", c.Files, c.Symbols, log)
	}
	// The traceback names app/pricing.py by its absolute path.
	wantCut(t, Classify(log, cutOf("app/pricing.py", TierFull, TierSkeleton), Manifest{}), "app/pricing.py", "path")

	log = run(t, dir, env, py, "run_import.py")
	c = Classify(log, cutOf("app/rates.py", TierFull, TierTruncated), Manifest{})
	wantKind(t, c, KindContextCut)
	wantCut(t, c, "app/rates.py", "module")

	log = run(t, dir, env, py, "run_module.py")
	wantKind(t, Classify(log, Budget{}, Manifest{}), KindBuildError)
	c = Classify(log, Budget{}, droppedOf("app/store.py"))
	wantKind(t, c, KindContextCut)
	wantCut(t, c, "app/store.py", "module")

	log = run(t, dir, env, py, "run_file.py")
	c = Classify(log, Budget{}, Manifest{})
	wantKind(t, c, KindMissingFile)
	if !contains(c.Files, "data/prices.csv") {
		t.Errorf("files %v\n%s", c.Files, log)
	}
}

func readLog(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "logs", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestClassifyCaptured runs the classifier on real output captured from
// tools this machine may not have (see testdata/logs/README.md).
func TestClassifyCaptured(t *testing.T) {
	for _, tc := range []struct {
		log       string
		kind      string
		symbols   []string
		files     []string
		cut       Budget
		dropped   Manifest
		cutPath   string
		cutBy     string
		alsoKinds []string
	}{
		{log: "tsc.txt", kind: KindBuildError, symbols: []string{"Backoff", "Store.count", "./retry"}, files: []string{"src/app.ts"}},
		{log: "tsc.txt", kind: KindContextCut, dropped: droppedOf("src/retry.ts"), cutPath: "src/retry.ts", cutBy: "module"},
		{log: "tsc.txt", kind: KindContextCut, cut: cutOf("src/store.ts", TierFull, TierSkeleton), cutPath: "src/store.ts", cutBy: "symbol"},
		{log: "tsc-pretty.txt", kind: KindBuildError, symbols: []string{"Backoff"}, files: []string{"src/app.ts"}},
		{log: "tsc-pretty.txt", kind: KindContextCut, dropped: droppedOf("src/retry.ts"), cutPath: "src/retry.ts", cutBy: "module"},
		{log: "jest.txt", kind: KindBuildError, symbols: []string{"scale", "./store"}, files: []string{"src/sum.test.js"}, alsoKinds: []string{KindTestFailure}},
		{log: "jest.txt", kind: KindContextCut, dropped: droppedOf("src/store.js"), cutPath: "src/store.js", cutBy: "module"},
		{log: "vitest.txt", kind: KindBuildError, symbols: []string{"scale", "./store.js"}, files: []string{"src/sum.test.js"}, alsoKinds: []string{KindTestFailure}},
		{log: "vitest.txt", kind: KindContextCut, dropped: droppedOf("src/store.js"), cutPath: "src/store.js", cutBy: "module"},
		{log: "pytest.txt", kind: KindBuildError, symbols: []string{"app.store"}, files: []string{"tests/test_store.py"}},
		{log: "pytest.txt", kind: KindContextCut, dropped: droppedOf("app/store.py"), cutPath: "app/store.py", cutBy: "module"},
		{log: "pytest-fail.txt", kind: KindBuildError, symbols: []string{"fee"}, files: []string{"tests/test_pricing.py", "app/pricing.py"}, alsoKinds: []string{KindTestFailure}},
		{log: "pytest-fail.txt", kind: KindContextCut, cut: cutOf("app/pricing.py", TierFull, TierSkeleton), cutPath: "app/pricing.py", cutBy: "path"},
	} {
		t.Run(tc.log+"/"+tc.kind, func(t *testing.T) {
			c := Classify(readLog(t, tc.log), tc.cut, tc.dropped)
			wantKind(t, c, tc.kind)
			for _, s := range tc.symbols {
				if !contains(c.Symbols, s) {
					t.Errorf("symbols %v lack %s", c.Symbols, s)
				}
			}
			for _, f := range tc.files {
				if !contains(c.Files, f) {
					t.Errorf("files %v lack %s", c.Files, f)
				}
			}
			for _, k := range tc.alsoKinds {
				if !contains(c.Also, k) {
					t.Errorf("also %v lacks %s", c.Also, k)
				}
			}
			if tc.cutPath != "" {
				wantCut(t, c, tc.cutPath, tc.cutBy)
			}
		})
	}
}

// TestClassifyTscLive compiles the captured tsc case with a real TypeScript
// installed from npm. It needs the network, so it runs only when
// GIT_SPEED_TEST_NPM=1.
func TestClassifyTscLive(t *testing.T) {
	if os.Getenv("GIT_SPEED_TEST_NPM") != "1" {
		t.Skip("set GIT_SPEED_TEST_NPM=1 to install typescript@5.6.3 from npm")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("needs npm")
	}
	dir := t.TempDir()
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--silent", "typescript@5.6.3")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("npm install failed (no network?): %v\n%s", err, out)
	}
	writeFiles(t, dir, map[string]string{
		"tsconfig.json": `{"compilerOptions":{"strict":true,"noEmit":true,"target":"es2020","module":"commonjs"},"include":["src"]}`,
		"src/app.ts":    "import { Store } from './store';\nimport { retry } from './retry';\n\nexport function main(s: Store): number {\n  return retry(() => s.count(), Backoff.Default);\n}\n",
		"src/store.ts":  "export class Store {\n  size(): number { return 0; }\n}\n",
	})
	log := run(t, dir, nil, filepath.Join(dir, "node_modules", ".bin", "tsc"), "-p", ".", "--pretty", "false")
	if log != readLog(t, "tsc.txt") {
		t.Errorf("live tsc output differs from testdata/logs/tsc.txt:\n%s", log)
	}
	c := Classify(log, Budget{}, droppedOf("src/retry.ts"))
	wantKind(t, c, KindContextCut)
}

func TestClassifyAgentAndSpec(t *testing.T) {
	ctx := loadFixture(t)
	for _, tc := range []struct {
		name, log, kind string
		cutPath, by     string
	}{
		{"request for a cut file", "I tried to add the retry, but I need to see internal/cache/cache.go in full: the Put body was elided.\n", KindContextCut, "internal/cache/cache.go", "path"},
		{"request for a dropped file", "Please provide the contents of `cmd/fetchd/main.go` so I can wire the flag.\n", KindContextCut, "cmd/fetchd/main.go", "path"},
		{"request for a file never selected", "I don't have the contents of internal/retry/policy.go, which the task mentions.\n", KindMissingFile, "", ""},
		{"symbol from a skeleton", "internal/fetch/fetch.go:31:12: undefined: cache.PutTTL\n", KindContextCut, "internal/cache/cache.go", "symbol"},
		{"requirement unmet", "Review: REQ-4 is not met: the backoff sleep ignores ctx.\n", KindSpecGap, "", ""},
		{"acceptance unmet", "FAIL acceptance: cancelling ctx during a backoff wait returns ctx.Err() — it returned nil\n", KindSpecGap, "", ""},
		{"nothing recognisable", "All good here, nothing to report.\n", KindUnknown, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ctx.Classify(tc.log)
			wantKind(t, c, tc.kind)
			if tc.cutPath != "" {
				wantCut(t, c, tc.cutPath, tc.by)
			}
			if tc.kind == KindSpecGap && !strings.Contains(tc.name, "acceptance") && !contains(c.Requirements, "REQ-4") {
				t.Errorf("requirements %v", c.Requirements)
			}
		})
	}
	// Without the material, REQ-style ids are still recognised.
	c := Classify("FR-12 not satisfied: export still writes CSV\n", Budget{}, Manifest{})
	wantKind(t, c, KindSpecGap)
	if !contains(c.Requirements, "FR-12") {
		t.Errorf("requirements %v", c.Requirements)
	}
}

func TestClassifyDeterministic(t *testing.T) {
	ctx := loadFixture(t)
	log := readLog(t, "jest.txt") + readLog(t, "tsc.txt") + readLog(t, "pytest-fail.txt")
	a, b := ctx.Classify(log), ctx.Classify(log)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs differ")
	}
	ja, _ := json.Marshal(a)
	var back Classification
	if err := json.Unmarshal(ja, &back); err != nil || !reflect.DeepEqual(a, back) {
		t.Fatalf("JSON round trip: %v", err)
	}
	if len(a.Evidence) > maxEvidence {
		t.Errorf("%d evidence lines", len(a.Evidence))
	}
}

func FuzzClassify(f *testing.F) {
	for _, n := range []string{"tsc.txt", "tsc-pretty.txt", "jest.txt", "vitest.txt", "pytest.txt", "pytest-fail.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata", "logs", n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("x.go:1:2: undefined: a.B\n")
	f.Add("I need to see `Foo` in a/b.go")
	kinds := map[string]bool{KindUnknown: true}
	for _, k := range kindOrder {
		kinds[k] = true
	}
	budget := Budget{Cuts: []Cut{{Path: "a/b.go", From: TierFull, To: TierSkeleton}}}
	manifest := Manifest{Files: []ManifestFile{{Path: "src/x.ts", Tier: TierDropped}}}
	f.Fuzz(func(t *testing.T, log string) {
		c := Classify(log, budget, manifest)
		if !kinds[c.Kind] {
			t.Fatalf("kind %q", c.Kind)
		}
		lines := strings.Count(log, "\n") + 1
		prev := 0
		for _, e := range c.Evidence {
			if e.Line <= prev || e.Line > lines {
				t.Fatalf("evidence line %d (prev %d, %d lines)", e.Line, prev, lines)
			}
			prev = e.Line
		}
		if c.Confidence < 0 || c.Confidence > 1 {
			t.Fatalf("confidence %v", c.Confidence)
		}
	})
}
