package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestTerms(t *testing.T) {
	got := strings.Join(Terms("parseHTTPRequest max_file_bytes v2Alpha and the x"), " ")
	want := "parsehttprequest parse http request max_file_bytes max file bytes v2alpha alpha"
	if got != want {
		t.Errorf("Terms = %q\nwant    %q", got, want)
	}
}

func TestStoreAndSearch(t *testing.T) {
	s := &Store{Dir: t.TempDir(), Now: func() time.Time { return time.Unix(1700000000, 0) }}
	for _, text := range []string{
		"The hook runner must never fail a git command; log errors to speed/hook.log",
		"parseHTTPRequest keeps the body reader open until the handler returns",
		"Tests build real repositories with gittest, never a mock of git",
		"Token budgets are counted with o200k, not chars/4",
	} {
		if _, err := s.Add(text, nil, ""); err != nil {
			t.Fatal(err)
		}
	}
	ms, warns, err := s.List()
	if err != nil || len(warns) != 0 || len(ms) != 4 || ms[3].ID != "m4" {
		t.Fatal(ms, warns, err)
	}
	hits, err := Search(ms, "why does the http request parser keep the body open?", SearchOptions{})
	if err != nil || len(hits) == 0 || hits[0].ID != "m2" {
		t.Fatalf("hits %+v %v", hits, err)
	}
	again, _ := Search(ms, "why does the http request parser keep the body open?", SearchOptions{})
	if len(again) != len(hits) || again[0].Score != hits[0].Score {
		t.Error("search is not deterministic")
	}
	if err := s.Forget("m2"); err != nil {
		t.Fatal(err)
	}
	if err := s.Forget("m2"); err == nil || !strings.Contains(err.Error(), "no memory m2") {
		t.Errorf("forget twice: %v", err)
	}
	// A crash mid-append, then an add: the broken line is skipped, ids go on.
	f, _ := os.OpenFile(filepath.Join(s.Dir, fileName), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"op":"add","n":9`)
	f.Close()
	m, err := s.Add("hooks chain with existing ones", []string{"hooks"}, "s1")
	if err != nil || m.ID != "m5" {
		t.Fatal(m, err)
	}
	ms, warns, _ = s.List()
	if len(ms) != 4 || len(warns) != 1 {
		t.Fatalf("%d memories, warnings %v", len(ms), warns)
	}
	hits, _ = Search(ms, "hook", SearchOptions{Top: 1})
	if len(hits) != 1 || hits[0].ID != "m5" && hits[0].ID != "m1" {
		t.Errorf("top 1: %+v", hits)
	}
	// Dense vectors: cosine of what the embedder returns.
	embed := func(s string) ([]float64, error) {
		return []float64{float64(strings.Count(s, "git")), float64(strings.Count(s, "o200k")), 1}, nil
	}
	hits, err = Search(ms, "o200k o200k", SearchOptions{Embed: embed})
	if err != nil || hits[0].ID != "m4" {
		t.Errorf("dense: %+v %v", hits, err)
	}
}

func FuzzTerms(f *testing.F) {
	f.Add("parseHTTPRequest max_file_bytes")
	f.Add("__x__ 9lives ÀbcDéf")
	f.Fuzz(func(t *testing.T, s string) {
		for _, term := range Terms(s) {
			if len(term) < 2 || strings.ContainsAny(term, " \t\n") {
				t.Fatalf("bad term %q", term)
			}
		}
	})
}
