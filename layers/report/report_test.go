package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/pack"
	"github.com/git-speed/git-speed/layers/scope"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// smallScope is a scope of three candidates: the task's own file, a
// neighbour given as its skeleton and one dropped, with its cut.
func smallScope(t testing.TB, path, reason string) ScopeInput {
	m := scope.Manifest{Feature: "pay", Task: "2", Stage: "developer", Tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4904", Tokenizer: "o200k", BudgetTokens: 2000,
		Files: []scope.FileEntry{
			{Path: "pay/charge.go", Distance: 0, Tier: scope.TierFull, Tokens: 420, Reason: "files_touched: full, never cut (3 definitions)", Relevance: 1, Signals: []string{"touched"}},
			{Path: "pay/ledger.go", Distance: 1, Tier: scope.TierSkeleton, Tokens: 130, Reason: "uses Ledger.Add; skeleton", Relevance: 0.5, Signals: []string{"graph", "co-change"}},
			{Path: path, Distance: 2, Tier: scope.TierDropped, Tokens: 0, Reason: reason, Relevance: 0.125, Signals: []string{"graph"}},
		}}
	b := scope.Budget{Feature: "pay", Task: "2", Stage: "developer", Tree: m.Tree, Total: 2000,
		Dimensions:   scope.Dimensions{Code: scope.Dimension{Limit: 1200, Used: 550}, Task: scope.Dimension{Limit: 300, Used: 120}, Spec: scope.Dimension{Limit: 300, Used: 80}, Reserve: scope.Reserve{Limit: 200}},
		Flows:        []scope.Flow{{From: "task_context", To: "code_context", Tokens: 180}},
		WithinBudget: true, RemainingTokens: 1050,
		Cuts:   []scope.Cut{{Path: path, From: scope.TierSkeleton, To: scope.TierDropped, TokensSaved: 310, Reason: reason, Dimension: "code_context"}},
		Inputs: map[string]string{"pay/charge.go": "aa"}, Digest: "0123456789abcdef0123",
		Redactions: scope.Redactions{ByRule: map[string]int{}}}
	mj, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	bj, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return ScopeInput{Feature: "pay", Task: "2", Title: "Charge once", Manifest: &m, Budget: &b, ManifestJSON: mj, BudgetJSON: bj}
}

func smallPack(t testing.TB) PackInput {
	p := &pack.Pack{Name: "pack", Workspace: ".", Tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4904", Query: "where are charges made idempotent?", Terms: []string{"charg", "idempot"},
		Items: []pack.Item{
			{Path: "pay/charge.go", Language: "go", Score: 3.5, Reason: "defines Charge", Evidence: []string{"definition Charge", "path charge"}, Symbols: []string{"Charge"}, LineRange: "1-20", Snippet: "func Charge() {}"},
			{Path: "pay/ledger.go", Language: "go", Score: 1.25, Reason: "used by charge.go", Evidence: []string{"graph: used by pay/charge.go"}, Symbols: []string{"Ledger"}, LineRange: "1-9", Snippet: "type Ledger struct{}"},
		},
		Budget: pack.Budget{MaxItems: 8, Tokens: 1500, Counter: "o200k"}, OpenQuestions: []string{}, Tokens: 210, Candidates: 5}
	js, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return PackInput{Pack: p, JSON: js}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (go test ./layers/report -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what was drawn (go test ./layers/report -update rewrites it); got:\n%s", p, got)
	}
}

func TestGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Scope(&b, smallScope(t, "pay/refund.go", "2-hop file dropped: budget full")); err != nil {
		t.Fatal(err)
	}
	golden(t, "scope.html.golden", b.Bytes())
	b.Reset()
	if err := Scope(&b, ScopeInput{Feature: "pay", Task: "9", Failure: `feature pay has no task "9" (tasks: 1, 2)`}); err != nil {
		t.Fatal(err)
	}
	golden(t, "failure.html.golden", b.Bytes())
	b.Reset()
	if err := Pack(&b, smallPack(t)); err != nil {
		t.Fatal(err)
	}
	golden(t, "pack.html.golden", b.Bytes())
	b.Reset()
	g := Graph{Tree: "4b825dc642cb", Edges: []Edge{{From: "pay/charge.go", To: "pay/ledger.go", Refs: 12}, {From: "pay/refund.go", To: "pay/charge.go", Refs: 1}, {From: "docs/pay.md", To: "pay/charge.go", Refs: 2, Weak: true}},
		Groups: []Group{{Name: "pay", Files: []string{"pay/charge.go", "pay/ledger.go", "pay/refund.go"}}}}
	if err := DOT(&b, g); err != nil {
		t.Fatal(err)
	}
	golden(t, "graph.dot.golden", b.Bytes())
}

// The page embeds exactly the artifacts it was given, and the same inputs
// draw the same bytes.
func TestEmbedsTheArtifacts(t *testing.T) {
	in := smallScope(t, "pay/refund.go", "dropped")
	var a, b bytes.Buffer
	if err := Scope(&a, in); err != nil {
		t.Fatal(err)
	}
	if err := Scope(&b, in); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("the same scope drew two different pages")
	}
	for id, want := range map[string][]byte{BudgetID: in.BudgetJSON, ManifestID: in.ManifestJSON} {
		got, ok := Decode(a.Bytes(), id)
		if !ok || !bytes.Equal(got, want) {
			t.Errorf("%s: the page embeds %q, want the artifact given", id, got)
		}
	}
	if _, ok := Decode(a.Bytes(), PackID); ok {
		t.Error("a scope page embeds a pack")
	}
	for _, s := range []string{"<svg", "tier-skeleton", "pay/ledger.go: skeleton, 130 tokens, distance 1", "budget 2,000", "180 unused task_context tokens flowed to code_context."} {
		if !strings.Contains(a.String(), s) {
			t.Errorf("the page does not say %q", s)
		}
	}
	for _, s := range []string{"http://", "https://", "src=", "@import"} {
		if strings.Contains(strings.ReplaceAll(a.String(), `xmlns="http://www.w3.org/2000/svg"`, ""), s) {
			t.Errorf("the page reaches outside itself: %q", s)
		}
	}
}

// What the page says itself is escaped: a path that is markup stays text.
func TestEscapes(t *testing.T) {
	evil := `x/</script><script>alert(1)</script>.go`
	in := smallScope(t, evil, `<img src=x onerror=alert(1)>`)
	in.Title = "<b>bold</b>"
	var b bytes.Buffer
	if err := Scope(&b, in); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"<script>alert", "<img", "<b>bold"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q unescaped", bad)
		}
	}
	if got := strings.Count(page, "<script"); got != 3 {
		t.Errorf("the page has %d script elements, want its own 3", got)
	}
}

func TestFailurePage(t *testing.T) {
	var b bytes.Buffer
	msg := `feature pay has no task "9" (tasks: 1, 2)`
	if err := Scope(&b, ScopeInput{Feature: "pay", Task: "9", Failure: msg}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `feature pay has no task &#34;9&#34; (tasks: 1, 2)`) || !strings.Contains(b.String(), "The scope failed") {
		t.Errorf("the failure page does not say why:\n%s", b.String())
	}
	data, ok := Decode(b.Bytes(), FailureID)
	var f struct{ Error string }
	if !ok || json.Unmarshal(data, &f) != nil || f.Error != msg {
		t.Errorf("the failure page embeds %q", data)
	}
}

func TestDOTFocus(t *testing.T) {
	g := Graph{Tree: "t", Edges: []Edge{{From: "a", To: "b", Refs: 1}, {From: "b", To: "c", Refs: 1}, {From: "c", To: "d", Refs: 1}, {From: "x \"q\"", To: "a", Refs: 3}}}
	g.Focus, g.Depth = []string{"b"}, 1
	var b bytes.Buffer
	if err := DOT(&b, g); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, s := range []string{`"a" -> "b"`, `"b" -> "c"`, `"b" [fillcolor="#ffd966", penwidth=2];`} {
		if !strings.Contains(out, s) {
			t.Errorf("depth 1 around b lacks %s:\n%s", s, out)
		}
	}
	for _, s := range []string{`"d"`, `"x \"q\""`} {
		if strings.Contains(out, s) {
			t.Errorf("depth 1 around b draws %s:\n%s", s, out)
		}
	}
	g.Depth = 2
	b.Reset()
	if err := DOT(&b, g); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"x \"q\"" -> "a" [label="3"`) || !strings.Contains(b.String(), `"c" -> "d"`) {
		t.Errorf("depth 2 around b lacks the files two edges away:\n%s", b.String())
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 37620: "37,620", 8272276: "8,272,276", -37619: "-37,619"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// Whatever a path or a reason holds, the page escapes it and embeds the
// artifact unchanged.
func FuzzScopePage(f *testing.F) {
	f.Add("pay/refund.go", "2-hop file dropped")
	f.Add("</script><script>x()</script>", "<!-- -->")
	f.Add("a\"b'c&d", "\u2028\x00]]>")
	f.Fuzz(func(t *testing.T, path, reason string) {
		in := smallScope(t, path, reason)
		var b bytes.Buffer
		if err := Scope(&b, in); err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(strings.ToLower(b.String()), "<script"); got != 3 {
			t.Fatalf("the page has %d script elements, want its own 3", got)
		}
		got, ok := Decode(b.Bytes(), ManifestID)
		if !ok || !bytes.Equal(got, in.ManifestJSON) {
			t.Fatal("the page does not embed the manifest given")
		}
	})
}
