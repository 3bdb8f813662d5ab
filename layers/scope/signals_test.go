package scope

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/world/cochange"
)

// Files and definitions the task's text names come at 1 hop with the
// names signal; plain words and names defined in too many files do not.
func TestSignalNames(t *testing.T) {
	w := newFakeP("4b825dc642cb6eb9a060e54bf8d69288fbee4904", []fileSpec{
		{"app/main.go", 3, 4},
		{"app/far/deep.go", 2, 3},
		{"lib/helper.go", 2, 3},
		{"lib/plain.go", 2, 3},
		{"x/a/common.go", 1, 3},
		{"x/b/common.go", 1, 3},
		{"x/c/common.go", 1, 3},
		{"x/d/common.go", 1, 3},
	}, nil)
	f, err := testFeature("svc", "", map[string]string{"t": `id = "t"
title = "Use Helper2 from far/deep.go"
description = "plain words: helper plain common.go; the ` + "`Main1`" + ` entry"
files_touched = ["app/main.go"]
`})
	if err != nil {
		t.Fatal(err)
	}
	_, m := runRule(t, w, f, 1<<20, nil)
	for _, p := range []string{"app/far/deep.go", "lib/helper.go"} {
		e, ok := m[p]
		if !ok || e.Distance != 1 || !reflect.DeepEqual(e.Signals, []string{SignalNames}) || !strings.HasPrefix(e.Reason, "named in the task (") {
			t.Errorf("%s: %+v (in manifest: %v), want 1 hop by names", p, e, ok)
		}
	}
	for _, p := range []string{"lib/plain.go", "x/a/common.go"} {
		if e, ok := m[p]; ok {
			t.Errorf("%s is a candidate (%+v): plain words and ambiguous names name nothing", p, e)
		}
	}
	_, m = runRule(t, w, f, 1<<20, func(o *Options) { o.Off = []string{SignalNames} })
	if _, ok := m["lib/helper.go"]; ok {
		t.Error("names signal off, but lib/helper.go is a candidate")
	}
	if _, err := Scope(w, f, "t", Options{Off: []string{"nope"}}); err == nil || !strings.Contains(err.Error(), `scope signal "nope"`) {
		t.Errorf("unknown signal: %v", err)
	}
}

// Shared test files: conftest.py up the tree of a task's test, a Rust
// crate's tests/util.rs, a Java test mirroring src/main under src/test.
func TestSignalSharedTests(t *testing.T) {
	w := newFakeP("4b825dc642cb6eb9a060e54bf8d69288fbee4904", []fileSpec{
		{"pkg/core.py", 2, 3},
		{"pkg/test_core.py", 2, 3},
		{"pkg/conftest.py", 1, 3},
		{"conftest.py", 1, 3},
		{"other/conftest.py", 1, 3},
		{"crate/src/parse.rs", 2, 3},
		{"crate/tests/util.rs", 1, 3},
		{"crate/tests/common/mod.rs", 1, 3},
		{"src/main/java/org/x/Thing.java", 2, 3},
		{"src/test/java/org/x/ThingTests.java", 2, 3},
		{"lib/response.js", 2, 3},
		{"__tests__/response/body.test.js", 1, 3},
		{"__tests__/request/body.test.js", 1, 3},
		{"tests/response.redirect.test.js", 1, 3},
		{"typings/index.d.ts", 2, 3},
		{"typings/index.test-d.ts", 1, 3},
	}, nil)
	f := ruleFeature(t, `"pkg/core.py", "crate/src/parse.rs", "src/main/java/org/x/Thing.java", "lib/response.js", "typings/index.d.ts"`)
	_, m := runRule(t, w, f, 1<<20, nil)
	for _, p := range []string{"pkg/test_core.py", "pkg/conftest.py", "conftest.py", "crate/tests/util.rs", "crate/tests/common/mod.rs", "src/test/java/org/x/ThingTests.java", "__tests__/response/body.test.js", "tests/response.redirect.test.js", "typings/index.test-d.ts"} {
		if e, ok := m[p]; !ok || e.Distance != 1 || !reflect.DeepEqual(e.Signals, []string{SignalTests}) {
			t.Errorf("%s: %+v (in manifest: %v), want 1 hop by tests", p, e, ok)
		}
	}
	if e, ok := m["__tests__/request/body.test.js"]; ok {
		t.Errorf("__tests__/request/body.test.js is a candidate (%+v): its folder names another file", e)
	}
	if e, ok := m["other/conftest.py"]; ok {
		t.Errorf("other/conftest.py is a candidate (%+v): not up the tree of the test", e)
	}
}

// Co-change partners come at 1 hop, as skeletons when co-change alone
// brought them; the digest covers the partners taken.
func TestSignalCoChange(t *testing.T) {
	w := newFakeP("4b825dc642cb6eb9a060e54bf8d69288fbee4904", []fileSpec{
		{"a/a.go", 2, 3},
		{"b/b.go", 2, 3},
		{"c/c.go", 2, 3},
		{"d/d.go", 2, 3},
	}, []pe{{"a/a.go", "c/c.go", 2}})
	hist := [][]string{{"a/a.go", "b/b.go"}, {"a/a.go", "b/b.go", "c/c.go"}, {"a/a.go", "d/d.go"}, {"b/b.go", "d/d.go"}}
	f := ruleFeature(t, `"a/a.go"`)
	r, m := runRule(t, w, f, 1<<20, func(o *Options) { o.CoChange = cochange.Mine(hist, cochange.Options{}) })
	if e := m["b/b.go"]; e.Distance != 1 || e.Tier != TierSkeleton || !reflect.DeepEqual(e.Signals, []string{SignalCoChange}) || !strings.HasPrefix(e.Reason, "changed with a/a.go in 2 of its 3 commits") {
		t.Errorf("b/b.go: %+v, want a 1-hop skeleton by co-change", e)
	}
	if e := m["c/c.go"]; e.Tier != TierFull || !reflect.DeepEqual(e.Signals, []string{SignalGraph}) {
		t.Errorf("c/c.go: %+v, want full by graph alone (one shared commit is too few)", e)
	}
	if _, ok := m["d/d.go"]; ok {
		t.Error("d/d.go shares one commit with the task file, yet is a candidate")
	}
	if r.Budget.Inputs["cochange"] == "" {
		t.Error("no cochange input in the digest")
	}
	r2, m2 := runRule(t, w, f, 1<<20, func(o *Options) {
		o.CoChange = cochange.Mine(hist, cochange.Options{})
		o.Off = []string{SignalCoChange}
	})
	if _, ok := m2["b/b.go"]; ok || r2.Budget.Inputs["cochange"] != "" {
		t.Error("co-change off, yet it brought b/b.go or entered the digest")
	}
}

func FuzzNamedFiles(f *testing.F) {
	f.Add("Use `Helper2` from far/deep.go and lib/ or x.y.z: Main1.run")
	f.Add("``` `` ` a_b_c ./app/main.go")
	w := newFakeP("4b825dc642cb6eb9a060e54bf8d69288fbee4904", []fileSpec{
		{"app/main.go", 3, 4}, {"app/far/deep.go", 2, 3}, {"lib/helper.go", 2, 3},
	}, nil)
	f.Fuzz(func(t *testing.T, text string) {
		s := &state{g: w.g, task: &feature.Task{Title: text, Description: text}}
		got := s.namedFiles()
		if !sort.SliceIsSorted(got, func(a, b int) bool { return got[a].file < got[b].file }) {
			t.Fatalf("not sorted: %v", got)
		}
		for _, n := range got {
			if n.file < 0 || n.file >= len(w.g.Files) || n.name == "" {
				t.Fatalf("bad named file %+v", n)
			}
		}
	})
}

func TestWords(t *testing.T) {
	got := words("run `git speed status` or `parseArgs`, then x.go")
	want := []word{{"run", false}, {"git", false}, {"speed", false}, {"status", false}, {"or", false}, {"parseArgs", true}, {",", false}, {"then", false}, {"x.go", false}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("words = %v, want %v", got, want)
	}
}
