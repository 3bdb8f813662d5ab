package align

import (
	"encoding/json"
	"flag"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/world"
)

var update = flag.Bool("update", false, "rewrite testdata goldens")

func testGraph() (*world.Graph, map[string]*world.Facts) {
	files := map[string][]world.Def{
		"gitstore/store.go":  {{Name: "Store", Kind: "struct", Start: 10}, {Name: "Put", Kind: "method", Parent: "Store", Start: 20}, {Name: "Get", Kind: "method", Parent: "Store", Start: 40}},
		"gitstore/diff.go":   {{Name: "DiffTrees", Kind: "function", Start: 5}},
		"auth/session.go":    {{Name: "Session", Kind: "struct", Start: 3}, {Name: "ExpireSessions", Kind: "function", Start: 30}, {Name: "renewSession", Kind: "function", Start: 50}},
		"auth/password.go":   {{Name: "HashPassword", Kind: "function", Start: 7}},
		"web/handler.go":     {{Name: "Serve", Kind: "function", Start: 1}},
		"docs/README.md":     nil,
		"cache/lru_cache.go": {{Name: "LRU", Kind: "struct", Start: 4}, {Name: "Evict", Kind: "method", Start: 9}},
	}
	g := &world.Graph{Tree: "t0"}
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	sortStrings(paths)
	facts := map[string]*world.Facts{}
	for _, p := range paths {
		g.Files = append(g.Files, world.FileEntry{Path: p, Lang: "go"})
		if files[p] == nil {
			g.Links = append(g.Links, nil)
			continue
		}
		fc := &world.Facts{Lang: "go", Defs: files[p]}
		facts[p] = fc
		g.Links = append(g.Links, fc.Link())
	}
	return g, facts
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

const spec = `# Store

## REQ-1: Objects are stored in git
The ` + "`Store`" + ` type in gitstore/store.go keeps objects under refs/speed.

## REQ-2: Diffs between trees
Use DiffTrees to compare two trees.

## REQ-3: Sessions expire
Expired sessions are removed; renew a session on use.

## REQ-4: Billing invoices
Invoices are emailed monthly.

## REQ-5: Login
Handled by the task.
`

func TestAlign(t *testing.T) {
	g, facts := testGraph()
	sp, _ := feature.ParseSpec("spec.md", []byte(spec))
	f := &feature.Feature{Name: "store", Spec: sp, Tasks: []*feature.Task{
		{ID: "t1", Requirements: []string{"REQ-5"}, FilesTouched: []string{"web/handler.go"}},
	}}
	get := func(p string) (*world.Facts, error) { return facts[p], nil }
	a := Align(g, get, f)
	got := map[string]string{}
	for _, c := range a.Requirements {
		got[c.ID] = c.Status
	}
	want := map[string]string{"REQ-1": Aligned, "REQ-2": Aligned, "REQ-3": Aligned, "REQ-4": Unaligned, "REQ-5": Aligned}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	if c := a.Claim("REQ-3"); c == nil || len(c.Files) == 0 || c.Files[0].Path != "auth/session.go" {
		t.Errorf("REQ-3 files %+v", c)
	}
	if cs := a.Touching([]string{"gitstore/diff.go"}); len(cs) != 2 || cs[1].ID != "REQ-2" {
		t.Errorf("touching %+v", cs)
	}
	js, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	js = append(js, '\n')
	golden(t, "alignment.json", js)
	golden(t, "alignment.md", []byte(Render(a)))
	// Deterministic across runs.
	js2, _ := json.MarshalIndent(Align(g, get, f), "", "  ")
	if string(js2)+"\n" != string(js) {
		t.Error("second run differs")
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from golden (go test -update rewrites it):\n%s", name, got)
	}
}

func TestTerms(t *testing.T) {
	if got := partsOf("pkg/parseHTTPRequest_v2.go"); !reflect.DeepEqual(got, []string{"pkg", "parse", "http", "request", "v", "2", "go"}) {
		t.Errorf("splitIdent %v", got)
	}
	if got := terms("The server’s policy—stopped, and `expiredSessions`."); !reflect.DeepEqual(got, []string{"serv", "policy", "stop", "expir", "session"}) {
		t.Errorf("terms %v", got)
	}
}

// An index built for a feature's query answers its terms and names as an
// index of every term and name would: the prefilter on names (mayHold)
// drops no identifier having a term of the query.
func TestQueryIndex(t *testing.T) {
	g, _ := testGraph()
	extra := []string{"Policies", "applyPolicy", "ExpiredSessionsTotal", "stopping_server", "HTTPServerConfig", "cachedLRUEntries", "Ünïcode_Stores"}
	g.Files = append(g.Files, world.FileEntry{Path: "zz/extra.go", Lang: "go"})
	l := &world.Link{Lang: "go"}
	for _, n := range extra {
		l.Defs = append(l.Defs, world.LinkDef{Name: n, Kind: "function"})
	}
	g.Links = append(g.Links, l)
	sp, _ := feature.ParseSpec("spec.md", []byte(spec+"\n## REQ-6: Policy stops\nA policy applies when the server is stopped; cached entries and stores too. `HTTPServerConfig` matters.\n"))
	f := &feature.Feature{Name: "store", Spec: sp}
	q := queryOf(f)
	ix := buildIndex(g, q)
	full := map[string][]int{}
	for i, fe := range g.Files {
		seen := map[string]bool{}
		add := func(ts []string) {
			for _, t := range ts {
				if !seen[t] {
					seen[t] = true
					full[t] = append(full[t], i)
				}
			}
		}
		add(nameTerms(strings.TrimSuffix(fe.Path, path.Ext(fe.Path))))
		if g.Links[i] != nil {
			for _, d := range g.Links[i].Defs {
				add(nameTerms(d.Name))
			}
		}
	}
	if len(q.terms) < 10 {
		t.Fatalf("query terms %v", q.terms)
	}
	for term := range q.terms {
		if !reflect.DeepEqual(ix.terms[term], full[term]) {
			t.Errorf("term %q: files %v, want %v", term, ix.terms[term], full[term])
		}
	}
	for _, want := range []string{"policy", "stop", "serv", "entry", "stor"} {
		if len(ix.terms[want]) == 0 {
			t.Errorf("term %q matched no file (terms %v)", want, q.terms)
		}
	}
	if got := ix.defs["HTTPServerConfig"]; len(got) != 1 || ix.defs["Policies"] != nil {
		t.Errorf("defs %v", ix.defs)
	}
}

// The ASCII path of mayHold answers as the general one.
func FuzzSplitIdent(f *testing.F) {
	for _, s := range []string{"parseHTTPRequest_v2", "pkg/kubelet/kubelet_pods.go", "v2x3Yz", "ABCdef9G", "a1b2", "x__Y--Z..", "SyncPodsXML", "Ünïcode_Stores", ""} {
		f.Add(s)
	}
	q := &query{subs: []string{"pod", "sync", "kubelet", "stor"}}
	q.pairUp()
	short := &query{subs: []string{"ü", "x", "pod"}}
	short.pairUp()
	f.Fuzz(func(t *testing.T, s string) {
		want := false
		for _, sub := range q.subs {
			want = want || strings.Contains(strings.ToLower(s), sub)
		}
		if got := q.mayHold(s); got != want {
			t.Errorf("mayHold(%q) = %v, want %v", s, got, want)
		}
		want = false
		for _, sub := range short.subs {
			want = want || strings.Contains(strings.ToLower(s), sub)
		}
		if got := short.mayHold(s); got != want {
			t.Errorf("short subs: mayHold(%q) = %v, want %v", s, got, want)
		}
	})
}

// Align over links holding only the definitions Wants keeps (what the
// store gives a first scope) is Align over every definition.
func TestWantsKeepsAlignment(t *testing.T) {
	g, facts := testGraph()
	l := &world.Link{Lang: "go"}
	for _, n := range []string{"Policies", "applyPolicy", "ExpiredSessionsTotal", "stopping_server", "HTTPServerConfig", "cachedLRUEntries", "Ünïcode_Stores", "Unrelated", "Unrelated", "zzz"} {
		l.Defs = append(l.Defs, world.LinkDef{Name: n, Kind: "function"})
	}
	g.Files = append(g.Files, world.FileEntry{Path: "zz/extra.go", Lang: "go"})
	g.Links = append(g.Links, l)
	sp, _ := feature.ParseSpec("spec.md", []byte(spec+"\n## REQ-6: Policy stops\nA policy applies when the server is stopped; cached entries and stores too. `HTTPServerConfig` and Evict() matter.\n"))
	f := &feature.Feature{Name: "store", Spec: sp}
	get := func(p string) (*world.Facts, error) { return facts[p], nil }
	want := Align(g, get, f)
	keep := Wants(f)
	fg := *g
	fg.Links = make([]*world.Link, len(g.Links))
	dropped := 0
	for i, l := range g.Links {
		if l == nil {
			continue
		}
		for _, d := range l.Defs {
			if !keep(d.Name) {
				dropped++
				continue
			}
			if fg.Links[i] == nil {
				fg.Links[i] = &world.Link{}
			}
			fg.Links[i].Defs = append(fg.Links[i].Defs, world.LinkDef{Name: d.Name, Kind: d.Kind})
		}
	}
	if dropped == 0 {
		t.Fatal("Wants kept every definition")
	}
	got := Align(&fg, get, f)
	if !reflect.DeepEqual(got, want) {
		a, _ := json.MarshalIndent(got, "", " ")
		b, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("alignment over the kept definitions\n%s\nwant\n%s", a, b)
	}
	if want.Counts.Aligned == 0 {
		t.Errorf("nothing aligned: %+v", want.Counts)
	}
}

// FuzzTermsIn: termsIn gives the words of a name nameTerms gives that the
// query has, in order; named is a look-up in names.
func FuzzTermsIn(f *testing.F) {
	for _, s := range []string{"syncPodsWithRetries", "pkg/kubelet/kubelet_pods", "HTTPServerStopped", "podStatuses2x",
		"__podSyncer__", "Übergröße_pod", "kubeletConfigurationsLongerThanSixtyFourBytesAreSplitNoWhereAtAllReally", "1234podding", "ies", "Bodies", "x", "", "PodSpecs", "kubelet"} {
		f.Add(s)
	}
	q := &query{terms: map[string]bool{}, canon: map[string]string{}}
	for _, t := range []string{"pod", "sync", "kubelet", "status", "retry", "server", "stop", "body", "syncer", "configur", "pad"} {
		q.terms[t], q.canon[t] = true, t
		q.subs = append(q.subs, strings.TrimSuffix(t, "y"))
	}
	q.pairUp()
	q.names = map[string]bool{"kubelet": true, "Sync": true, "x": true, "": true, "PodSpec": true}
	q.headsUp()
	f.Fuzz(func(t *testing.T, s string) {
		if q.named(s) != q.names[s] {
			t.Errorf("named(%q) = %v", s, q.named(s))
		}
		var want []string
		for _, w := range nameTerms(s) {
			if q.terms[w] {
				want = append(want, w)
			}
		}
		if got := q.termsIn(s, nil); !reflect.DeepEqual(got, want) {
			t.Errorf("termsIn(%q) = %q, nameTerms gives %q", s, got, want)
		}
	})
}
