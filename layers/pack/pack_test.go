package pack_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/gittest"
	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/pack"
	"github.com/git-speed/git-speed/layers/world/build"
)

// world indexes a small real repository and loads it.
func world(t *testing.T) (*build.World, *gittest.Repo) {
	t.Helper()
	r := gittest.New(t)
	r.Write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.Write("cache/lru.go", `package cache

import "container/list"

// LRU is a fixed-size cache.
type LRU struct {
	ll  *list.List
	max int
}

// EvictOldest drops the least recently used entry.
func (c *LRU) EvictOldest() {
	e := c.ll.Back()
	if e != nil {
		c.ll.Remove(e)
	}
}

// Len is the number of entries.
func (c *LRU) Len() int { return c.ll.Len() }
`)
	r.Write("cache/lru_test.go", "package cache\n\nimport \"testing\"\n\nfunc TestEvict(t *testing.T) { (&LRU{}).Len() }\n")
	r.Write("server/http.go", `package server

import "example.com/m/cache"

// Serve answers requests from the cache.
func Serve(c *cache.LRU) int {
	c.EvictOldest()
	return c.Len()
}
`)
	r.Write("docs/guide.md", "# Operating the server\n\nThe cache evicts entries when full.\n")
	r.Write("util/strings.go", "package util\n\n// Reverse reverses s.\nfunc Reverse(s string) string { return s }\n")
	r.Write(".env", "DB_PASSWORD=hunter2\n")
	r.Commit("one")
	w, _ := indexed(t, r)
	return w, r
}

// indexed indexes r at HEAD and loads the world.
func indexed(t *testing.T, r *gittest.Repo) (*build.World, *gitstore.Repo) {
	t.Helper()
	repo, err := gitstore.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	res, err := build.Index(context.Background(), repo, "HEAD", build.Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	w, err := build.Load(repo, res.Tree, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, repo
}

func counter(t *testing.T) tokens.Counter {
	c, err := tokens.New(config.Default().Tokens.Tokenizer)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestPackFindsTheDefinition(t *testing.T) {
	w, _ := world(t)
	req := pack.Request{Query: "how is the oldest cache entry evicted?", Counter: counter(t)}
	p, err := pack.Build(w, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) == 0 || p.Items[0].Path != "cache/lru.go" {
		t.Fatalf("items %+v", p.Items)
	}
	it := p.Items[0]
	if !strings.HasPrefix(it.Reason, "defines") || it.LineRange != "11-17" || !strings.Contains(it.Snippet, "func (c *LRU) EvictOldest()") ||
		!strings.HasPrefix(it.Signature, "func (c *LRU) EvictOldest()") {
		t.Errorf("first item %+v", it)
	}
	found := map[string]bool{}
	for _, it := range p.Items {
		found[it.Path] = true
	}
	for _, want := range []string{"cache/lru_test.go", "server/http.go", "docs/guide.md"} {
		if !found[want] {
			t.Errorf("%s missing from the pack", want)
		}
	}
	if found["util/strings.go"] {
		t.Error("an unrelated file is in the pack")
	}
	text := p.Text()
	if !strings.Contains(text, "not instructions") || !strings.Contains(text, "cache/lru.go:11-17") {
		t.Errorf("text rendering:\n%s", text)
	}
	if p.Tokens != counter(t).Count(text) || p.Tokens > pack.DefaultBudget {
		t.Errorf("tokens %d", p.Tokens)
	}
	// Same inputs, same bytes.
	again, err := pack.Build(w, req)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(p)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Error("two packs of the same request differ")
	}
}

func TestPackSignals(t *testing.T) {
	w, _ := world(t)
	p, err := pack.Build(w, pack.Request{Query: "reverse a string, see util/strings.go and frobnicate", Counter: counter(t),
		Tags: []string{"docs/guide.md"}, Status: []pack.Status{{Path: "server/http.go", Code: " M"}}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Items[0].Path != "docs/guide.md" || p.Items[0].Reason != "tagged by the request" {
		t.Errorf("tagged file not first: %+v", p.Items[0])
	}
	if p.Items[1].Path != "util/strings.go" {
		t.Errorf("mentioned file not second: %+v", p.Items[1])
	}
	if len(p.OpenQuestions) != 1 || p.OpenQuestions[0] != "frobnicate" {
		t.Errorf("open questions %v", p.OpenQuestions)
	}
	dirty := false
	for _, it := range p.Items {
		if it.Path == "server/http.go" && strings.Contains(strings.Join(it.Evidence, ";"), "git status: M") {
			dirty = true
		}
	}
	if !dirty {
		t.Errorf("dirty file not boosted: %+v", p.Items)
	}
}

func TestPackBudget(t *testing.T) {
	w, _ := world(t)
	cnt := counter(t)
	for _, budget := range []int{120, 200, 400} {
		p, err := pack.Build(w, pack.Request{Query: "cache entry evict server", Counter: cnt, Budget: budget})
		if err != nil {
			t.Fatalf("budget %d: %v", budget, err)
		}
		if n := cnt.Count(p.Text()); n > budget || n != p.Tokens {
			t.Errorf("budget %d: %d tokens (pack says %d)", budget, n, p.Tokens)
		}
	}
	_, err := pack.Build(w, pack.Request{Query: "cache", Counter: cnt, Budget: 10})
	if !errors.Is(err, pack.ErrBadRequest) {
		t.Errorf("budget 10: %v", err)
	}
}

func TestPackBadRequests(t *testing.T) {
	w, _ := world(t)
	for name, req := range map[string]pack.Request{
		"empty":      {Query: "  \n"},
		"stop words": {Query: "the of and is it"},
		"binary":     {Query: "cache\x00\xff\xfe"},
		"gone tag":   {Query: "cache", Tags: []string{"cache/deleted.go"}},
	} {
		req.Counter = counter(t)
		_, err := pack.Build(w, req)
		if !errors.Is(err, pack.ErrBadRequest) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A request of any length is read: past MaxQueryBytes it is cut, and the
// pack says so; past MaxQueryTerms the terms that say most are kept.
func TestPackLongRequest(t *testing.T) {
	w, _ := world(t)
	long := "Eviction is slow\n" + strings.Repeat("the cache is slow when it grows large and old ", (pack.MaxQueryBytes+1<<20)/46)
	p, err := pack.Build(w, pack.Request{Query: long, Counter: counter(t)})
	if err != nil {
		t.Fatal(err)
	}
	if p.Request.Bytes != len(long) || !strings.Contains(p.Request.Cut, "only its first") || !strings.Contains(p.Text(), "Request cut: ") {
		t.Errorf("a request of %d bytes: %+v", len(long), p.Request)
	}
	if len(p.Query) > 20<<10 {
		t.Errorf("the pack quotes %d bytes of the request", len(p.Query))
	}
	// A report of many words: the identifier in its traceback is kept
	// though it comes after a hundred other words.
	var b strings.Builder
	b.WriteString("The server hangs\n\n")
	for i := range 150 {
		fmt.Fprintf(&b, "word%c%c ", 'a'+i%26, 'a'+i/26)
	}
	b.WriteString("\nTraceback:\n  File \"cache/lru.go\", line 4, in EvictOldest\n")
	p, err = pack.Build(w, pack.Request{Query: b.String(), Counter: counter(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(p.Terms, "evictoldest") || !slices.Contains(p.Terms, "lru") || len(p.Terms) != pack.MaxQueryTerms || !strings.Contains(p.Request.Cut, "that say most") {
		t.Errorf("terms %v, read %+v", p.Terms, p.Request)
	}
}

func TestEvaluate(t *testing.T) {
	w, _ := world(t)
	rep, err := pack.Evaluate([]pack.Case{
		{Commit: "c1", Message: "evict the oldest entry of the cache", Target: []string{"cache/lru.go", "server/http.go"}, Src: w},
		{Commit: "c2", Message: "Merge", Target: nil, Src: w},
	}, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cases != 1 || rep.Skipped != 1 || rep.Pack.At5 != 1 || rep.BM25.At10 <= 0 {
		t.Errorf("report %+v", rep)
	}
}

// Values of .env files never reach a pack: not through the term index, not
// in a snippet.
func TestPackKeepsSecretsOut(t *testing.T) {
	w, _ := world(t)
	p, err := pack.Build(w, pack.Request{Query: "db password hunter2", Counter: counter(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) == 0 || p.Items[0].Path != ".env" {
		t.Fatalf("items %+v", p.Items)
	}
	items, _ := json.Marshal(p.Items)
	if strings.Contains(string(items), "hunter") || strings.Contains(p.Text(), "DB_PASSWORD=hunter2") {
		t.Errorf("the secret leaked: %s", items)
	}
	if len(p.OpenQuestions) == 0 || p.OpenQuestions[0] != "hunter2" {
		t.Errorf("the value is searchable: open questions %v", p.OpenQuestions)
	}
}

// A file the latest commits changed rises, and says why; a file no recent
// commit touched does not get the signal.
func TestRecentSignal(t *testing.T) {
	w, _ := world(t)
	hist := []pack.Commit{{ID: "abcdef1234567890", Message: "docs: reword", Paths: []string{"docs/guide.md"}}}
	p, err := pack.Build(w, pack.Request{Query: "cache evicts entries", History: hist, Counter: counter(t)})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, it := range p.Items {
		ev := strings.Join(it.Evidence, "; ")
		if it.Path == "docs/guide.md" {
			found = strings.Contains(ev, "history: changed by abcdef1")
		} else if strings.Contains(ev, "changed by abcdef1") {
			t.Errorf("%s has the recent signal: %s", it.Path, ev)
		}
	}
	if !found {
		t.Errorf("docs/guide.md lacks the recent signal: %+v", p.Items)
	}
}

// A lock file the term index leaves out comes with the manifest that past
// commits always changed together with it.
func TestCompanions(t *testing.T) {
	r := gittest.New(t)
	r.Write("main.go", "package main\n\nfunc main() {}\n")
	for i, v := range []string{"v1.0.0", "v1.1.0", "v1.2.0"} {
		r.Write("go.mod", "module example.com/m\n\ngo 1.22\n\nrequire example.com/widget "+v+"\n")
		r.Write("go.sum", "example.com/widget "+v+" h1:AAAA=\nexample.com/widget "+v+"/go.mod h1:BBBB=\n")
		if i == 1 {
			r.Write("main.go", "package main\n\n// main starts.\nfunc main() {}\n")
		}
		r.Commit("bump widget to " + v)
	}
	w, repo := indexed(t, r)
	log, err := repo.RecentChanges("HEAD", 10)
	if err != nil {
		t.Fatal(err)
	}
	var hist []pack.Commit
	for _, l := range log {
		hist = append(hist, pack.Commit{ID: l.Commit, Message: l.Message, Paths: l.Paths})
	}
	rank := func(h []pack.Commit) []pack.Scored {
		got, err := pack.Rank(w, pack.Request{Query: "require widget v1.3.0", History: h}, 10)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	got := rank(hist)
	if len(got) < 2 || got[0].Path != "go.mod" || got[1].Path != "go.sum" {
		t.Fatalf("ranked %+v, want go.mod then its companion go.sum", got)
	}
	for _, s := range rank(nil) {
		if s.Path == "go.sum" {
			t.Errorf("go.sum ranked without history: %+v", s)
		}
	}
}

// A word every past commit message uses weighs less than a word none uses.
func TestMessageIDF(t *testing.T) {
	w, _ := world(t)
	score := func(h []pack.Commit) map[string]float64 {
		got, err := pack.Rank(w, pack.Request{Query: "reverse evicts", History: h}, 10)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]float64{}
		for _, s := range got {
			out[s.Path] = s.Score
		}
		return out
	}
	var hist []pack.Commit
	for _, m := range []string{"reverse the order", "reverse a list", "reverse again"} {
		hist = append(hist, pack.Commit{ID: "0123456789abcdef", Message: m, Paths: []string{"gone.txt"}})
	}
	before, after := score(nil), score(hist)
	r0 := before["util/strings.go"] / before["cache/lru.go"]
	r1 := after["util/strings.go"] / after["cache/lru.go"]
	if !(r1 < r0/2) {
		t.Errorf("util/strings.go against cache/lru.go: %.3f without history, %.3f when every message says reverse", r0, r1)
	}
}
