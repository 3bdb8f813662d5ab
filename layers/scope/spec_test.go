package scope

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world/align"
)

func TestTruncateText(t *testing.T) {
	const m = TruncMarker
	text := "First sentence here. Second one follows! Third?\n\nSecond paragraph, long enough.\n\nThird paragraph."
	for _, tc := range []struct {
		name  string
		limit int // bytes the result may take
		want  string
		ok    bool
	}{
		{"two paragraphs", 120, "First sentence here. Second one follows! Third?\n\nSecond paragraph, long enough.\n\n" + m, true},
		{"one paragraph", 95, "First sentence here. Second one follows! Third?\n\n" + m, true},
		{"two sentences", 85, "First sentence here. Second one follows! " + m, true},
		{"one sentence", 65, "First sentence here. " + m, true},
		{"nothing fits", 40, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := truncateText(text, func(s string) bool { return len(s) <= tc.limit })
			if got != tc.want || ok != tc.ok {
				t.Errorf("got %q, %v\nwant %q, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
	// One sentence that does not fit cannot be truncated.
	if got, ok := truncateText("no boundary at all in this text", func(s string) bool { return len(s) < 20 }); ok {
		t.Errorf("got %q", got)
	}
}

func TestSplitSentences(t *testing.T) {
	for in, want := range map[string]string{
		"A b. C d! E f? G":            "A b.|C d!|E f?|G",
		"Version 1.2 is out. Next.":   "Version 1.2 is out.|Next.",
		"Wrapped\nline. And\n  more.": "Wrapped line.|And more.",
		"":                            "",
	} {
		if got := strings.Join(splitSentences(in), "|"); got != want {
			t.Errorf("splitSentences(%q) = %q, want %q", in, got, want)
		}
	}
}

// A task that cites no requirement, in a spec alignment says nothing
// about: requirements come by keyword, take at most half of spec_context,
// and the one that does not fit whole is truncated at a sentence boundary.
func TestKeywordSpecNarrowing(t *testing.T) {
	w := smallWorld()
	long := strings.Repeat("The billing ledger keeps every invoice line in order. ", 30)
	spec := "# Billing\n\n## REQ-1: Invoice ledger\n" + long + "\n\n## REQ-2: Unrelated export\nCSV export of users.\n\n" +
		"## REQ-3: Invoice totals\nTotals of an invoice are summed in cents from the ledger.\n\n## Design\n\nThe ledger is append-only; invoices reference ledger lines.\n"
	f, err := testFeature("svc", spec, map[string]string{
		"t": "id = \"t\"\ntitle = \"Invoice ledger totals\"\nfiles_touched = [\"svc/service.go\"]\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := runRule(t, w, f, 1000, nil) // spec_context 500
	var ids []string
	reqTokens := 0
	for _, it := range r.Material.Spec {
		ids = append(ids, it.ID)
		reqTokens += (len(specRendering(it)) + 3) / 4
		if !strings.HasPrefix(it.Reason, "keywords: ") {
			t.Errorf("%s: reason %q", it.ID, it.Reason)
		}
	}
	if strings.Join(ids, ",") != "REQ-3,REQ-1" {
		t.Fatalf("requirements %v %+v", ids, r.Material.Spec)
	}
	if reqTokens > 250 {
		t.Errorf("requirements take %d tokens, more than half of 500", reqTokens)
	}
	var truncated bool
	for _, it := range r.Material.Spec {
		if it.ID == "REQ-1" {
			truncated = strings.HasSuffix(it.Text, "in order. "+TruncMarker)
		}
	}
	if !truncated {
		t.Errorf("REQ-1 not truncated at a sentence: %+v", r.Material.Spec)
	}
	c := cutOf(r, ".speed/features/svc/spec.md#REQ-1")
	if c == nil || c.To != TierTruncated || c.TokensSaved <= 0 || !strings.Contains(c.Reason, "half of spec_context") {
		t.Errorf("cut %+v", c)
	}
	if len(r.Material.SpecParagraphs) != 1 || !strings.Contains(r.Material.SpecParagraphs[0].Text, "append-only") {
		t.Errorf("paragraphs %+v", r.Material.SpecParagraphs)
	}
	// A cited requirement is not held to half.
	f.Tasks[0].Requirements = []string{"REQ-1"}
	r, _ = runRule(t, w, f, 1000, nil)
	if len(r.Material.Spec) != 1 || r.Material.Spec[0].ID != "REQ-1" || len(specRendering(r.Material.Spec[0]))/4 <= 250 {
		t.Errorf("cited: %+v", r.Material.Spec)
	}
}

// An alignment given later (AlignLater) gives the artifacts an alignment
// given first does; its error is Scope's, whatever else fails, and it is
// asked for on every path.
func TestAlignLater(t *testing.T) {
	w := smallWorld()
	f := smallFeature(t)
	a := align.Align(w.Graph(), w.Facts, f)
	opt := Options{Stage: "developer", Budget: 4000, Counter: o200k(t)}
	first := opt
	first.Align = a
	want, err := Scope(w, f, "t2", first)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	later := opt
	later.AlignLater = func() (*align.Alignment, error) { calls++; return a, nil }
	got, err := Scope(w, f, "t2", later)
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 {
		t.Error("AlignLater was not asked")
	}
	for _, name := range []string{ManifestFile, BudgetFile, MaterialFile} {
		x, _ := want.Encode(name)
		y, _ := got.Encode(name)
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs with the alignment given later:\n%s\n%s", name, x, y)
		}
	}
	failing := opt
	failing.AlignLater = func() (*align.Alignment, error) { calls++; return nil, errors.New("the store is gone") }
	for _, task := range []string{"t2", "no-such-task"} {
		calls = 0
		if _, err := Scope(w, f, task, failing); err == nil || err.Error() != "the store is gone" || calls == 0 {
			t.Errorf("task %s: got %v after %d calls, want the alignment's error", task, err, calls)
		}
	}
}
