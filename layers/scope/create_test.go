package scope

import (
	"bytes"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/feature"
)

// placeWorld: a calc package (lexer, parser, ast and their tests), a
// user of it, and unrelated code elsewhere.
func placeWorld() *fakeWorld {
	return newFakeP("5b825dc642cb6eb9a060e54bf8d69288fbee4904", []fileSpec{
		{"calc/ast.go", 20, 6},
		{"calc/doc.go", 0, 0},
		{"calc/lexer.go", 30, 8},
		{"calc/lexer_test.go", 3, 5},
		{"calc/parser.go", 40, 10},
		{"calc/parser_test.go", 3, 5},
		{"cmd/main.go", 2, 4},
		{"other/big.go", 60, 20},
		{"other/token_kind.go", 3, 4},
		{"go.mod", 0, 0},
	}, []pe{
		{"calc/parser.go", "calc/lexer.go", 6},
		{"calc/parser.go", "calc/ast.go", 4},
		{"calc/lexer_test.go", "calc/lexer.go", 5},
		{"calc/parser_test.go", "calc/parser.go", 5},
		{"cmd/main.go", "calc/parser.go", 2},
		{"cmd/main.go", "other/big.go", 3},
	})
}

func scopeTask(t *testing.T, w *fakeWorld, task string, budget int, mut func(*Options)) (*Result, map[string]FileEntry) {
	t.Helper()
	f, err := testFeature("calc", "", map[string]string{"t": task})
	if err != nil {
		t.Fatal(err)
	}
	c4, _ := tokens.New("chars4")
	opt := Options{Budget: budget, Counter: c4}
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

func TestCreateBringsPlace(t *testing.T) {
	w := placeWorld()
	task := "id = \"t\"\ntitle = \"tokens\"\n[files]\ncreate = [\"calc/token.go\"]\n"
	r, m := scopeTask(t, w, task, 32000, nil)
	if e := m["calc/token.go"]; e.Distance != 0 || e.Role != feature.RoleCreate || e.Tier != TierDropped || !strings.Contains(e.Reason, "its place") {
		t.Errorf("created file %+v", e)
	}
	// Its folder, the package's doc.go, the file like it by name
	// elsewhere, the tests beside them and the module: all at 1 hop by
	// the place signal.
	for _, p := range []string{"calc/ast.go", "calc/doc.go", "calc/lexer.go", "calc/parser.go", "calc/lexer_test.go", "other/token_kind.go", "go.mod"} {
		e := m[p]
		if e.Distance != 1 || e.Tier == TierDropped || !containsStr(e.Signals, SignalPlace) {
			t.Errorf("place file %s: %+v", p, e)
		}
	}
	// The walk goes on from the place: who uses the package comes at 2 hops.
	if e := m["cmd/main.go"]; e.Distance != 2 {
		t.Errorf("cmd/main.go %+v", e)
	}
	if len(r.Budget.Places) != 1 {
		t.Fatalf("places %+v", r.Budget.Places)
	}
	pl := r.Budget.Places[0]
	kinds := map[string]string{}
	for _, f := range pl.Files {
		kinds[f.Path] = f.Kind
	}
	if pl.Create != "calc/token.go" || pl.Folder != "calc" || kinds["calc/doc.go"] != placePackage || kinds["other/token_kind.go"] != placeLike ||
		kinds["calc/lexer_test.go"] != placeTest || kinds["calc/ast.go"] != placeFolder || kinds["go.mod"] != placeModule {
		t.Errorf("place %+v", pl)
	}
	if pl.Tokens == 0 || pl.Share < 0.2 || pl.Share != round3(float64(pl.Tokens)/float64(r.Budget.Dimensions.Code.Limit)) {
		t.Errorf("place tokens %d share %v of %d", pl.Tokens, pl.Share, r.Budget.Dimensions.Code.Limit)
	}
	if r.Material.Task.Create[0] != "calc/token.go" || len(r.Material.Task.Modify) != 0 {
		t.Errorf("task roles %+v", r.Material.Task)
	}
	// Off, the place signal leaves a created file with nothing.
	r2, m2 := scopeTask(t, w, task, 32000, func(o *Options) { o.Off = []string{SignalPlace} })
	if len(m2) != 1 || r2.Budget.Dimensions.Code.Used != 0 {
		t.Errorf("place off: %+v", r2.Manifest.Files)
	}
	// Deterministic: the same inputs give the same bytes.
	_, _ = scopeTask(t, w, task, 32000, nil)
	r3, _ := scopeTask(t, w, task, 32000, nil)
	for _, name := range []string{ManifestFile, BudgetFile, MaterialFile} {
		a, _ := r.Encode(name)
		b, _ := r3.Encode(name)
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

// A small budget: the place still fits within it, folder files as
// skeletons, and budget.json says what each got.
func TestCreatePlaceWithinBudget(t *testing.T) {
	w := placeWorld()
	r, m := scopeTask(t, w, "id = \"t\"\n[files]\ncreate = [\"calc/token.go\"]\n", 1200, nil)
	d := r.Budget.Dimensions.Code
	if d.Used > d.Limit || !r.Budget.WithinBudget {
		t.Errorf("over budget %+v", d)
	}
	if r.Budget.Places[0].Tokens == 0 || m["calc/parser.go"].Tier == TierFull {
		t.Errorf("place at a small budget: %+v, parser.go %+v", r.Budget.Places[0], m["calc/parser.go"])
	}
	sum := 0
	for _, f := range r.Budget.Places[0].Files {
		sum += f.Tokens
		if m[f.Path].Tokens != f.Tokens || m[f.Path].Tier != f.Tier {
			t.Errorf("place file %s: %+v against the manifest's %+v", f.Path, f, m[f.Path])
		}
	}
	if sum != r.Budget.Places[0].Tokens {
		t.Errorf("place tokens %d, files sum to %d", r.Budget.Places[0].Tokens, sum)
	}
}

func TestRolesAtDistanceZero(t *testing.T) {
	w := placeWorld()
	r, m := scopeTask(t, w, "id = \"t\"\nfiles_touched = [\"calc/parser.go\"]\n[files]\ncreate = [\"calc/parser_extra_test.go\"]\nread = [\"calc/ast.go\"]\n", 32000, nil)
	for p, role := range map[string]string{"calc/parser.go": feature.RoleModify, "calc/ast.go": feature.RoleRead, "calc/parser_extra_test.go": feature.RoleCreate} {
		if e := m[p]; e.Distance != 0 || e.Role != role {
			t.Errorf("%s: %+v, want role %s at distance 0", p, e, role)
		}
	}
	if e := m["calc/ast.go"]; e.Tier != TierFull || !strings.Contains(e.Reason, "files.read") {
		t.Errorf("read file %+v", e)
	}
	ti := r.Material.Task
	if strings.Join(ti.Create, ",") != "calc/parser_extra_test.go" || strings.Join(ti.Modify, ",") != "calc/parser.go" || strings.Join(ti.Read, ",") != "calc/ast.go" {
		t.Errorf("material task roles %+v", ti)
	}
	for _, f := range r.Material.Files {
		if f.Distance == 0 && f.Role == "" {
			t.Errorf("material file %s has no role", f.Path)
		}
	}
	// A created test file's place: the file it tests is in full.
	found := false
	for _, f := range r.Budget.Places[0].Files {
		if f.Path == "calc/parser_test.go" && f.Kind == placeLike {
			found = true
		}
	}
	if !found {
		t.Errorf("a created test is like the tests beside it: %+v", r.Budget.Places[0].Files)
	}
}

// A files_touched path not in the tree is scoped as a file to create.
func TestAbsentTouchedIsCreated(t *testing.T) {
	w := placeWorld()
	r, m := scopeTask(t, w, "id = \"t\"\nfiles_touched = [\"calc/token.go\"]\n", 32000, nil)
	if m["calc/token.go"].Role != feature.RoleCreate || len(r.Budget.Places) != 1 || m["calc/lexer.go"].Distance != 1 {
		t.Errorf("absent files_touched: %+v %+v", m["calc/token.go"], r.Budget.Places)
	}
	if !strings.Contains(strings.Join(r.Warnings, "\n"), "scoped as a file to create") {
		t.Errorf("warnings %q", r.Warnings)
	}
}

// A file in a new folder lives in the nearest folder that has files of
// its language.
func TestCreateInNewFolder(t *testing.T) {
	w := placeWorld()
	r, _ := scopeTask(t, w, "id = \"t\"\n[files]\ncreate = [\"calc/eval/eval.go\"]\n", 32000, nil)
	if pl := r.Budget.Places[0]; pl.Folder != "calc" || len(pl.Files) < 4 {
		t.Errorf("place of a new folder %+v", pl)
	}
}

func containsStr(xs []string, x string) bool { return contains(xs, x) }

// BenchmarkScopeCreateGOROOT scopes a task that only creates a file in
// one of goroot()'s 400 folders: its place is found among 10,000 files.
func BenchmarkScopeCreateGOROOT(b *testing.B) {
	w := goroot()
	f, err := testFeature("big", "", map[string]string{"t": "id = \"t\"\n[files]\ncreate = [\"pkg200/file_new.go\"]\n"})
	if err != nil {
		b.Fatal(err)
	}
	c := o200k(b)
	counts := NewCounts()
	var r *Result
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r, err = Scope(w, f, "t", Options{Counter: c, Counts: counts}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(r.Budget.Places[0].Tokens), "place_tokens")
	b.ReportMetric(r.Budget.Places[0].Share, "place_share")
}

// A Java class to create: the package's classes, the class like it by
// name, and its test under the src/test mirror.
func TestCreateJavaPlace(t *testing.T) {
	w := newFakeP("6b825dc642cb6eb9a060e54bf8d69288fbee4904", []fileSpec{
		{"src/main/java/a/FooService.java", 5, 5},
		{"src/main/java/a/Model.java", 3, 3},
		{"src/main/java/a/package-info.java", 0, 0},
		{"src/test/java/a/FooServiceTest.java", 3, 3},
		{"pom.xml", 0, 0},
	}, nil)
	r, m := scopeTask(t, w, "id = \"t\"\n[files]\ncreate = [\"src/main/java/a/BarService.java\"]\n", 32000, nil)
	kinds := map[string]string{}
	for _, f := range r.Budget.Places[0].Files {
		kinds[f.Path] = f.Kind
	}
	want := map[string]string{"src/main/java/a/FooService.java": placeLike, "src/main/java/a/Model.java": placeFolder,
		"src/main/java/a/package-info.java": placePackage, "src/test/java/a/FooServiceTest.java": placeTest, "pom.xml": placeModule}
	for p, k := range want {
		if kinds[p] != k || m[p].Distance != 1 {
			t.Errorf("%s: kind %q (want %q), %+v", p, kinds[p], k, m[p])
		}
	}
}
