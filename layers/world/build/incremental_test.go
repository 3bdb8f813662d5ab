package build

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/gittest"
)

// TestIncrementalStoresWhatFullDoes replays a history of edits, indexing
// each commit from the one before (in place where it can, over the whole
// tree where it cannot), and requires every stored artifact to be the same
// bytes as a full index of the same tree in a store that never saw the
// earlier commits.
func TestIncrementalStoresWhatFullDoes(t *testing.T) {
	r := gittest.New(t)
	for p, c := range map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.22\n",
		"a/a.go":          "package a\n\n// T is a thing.\ntype T struct{ N int }\n\n// M is a method.\nfunc (t *T) M() int { return t.N }\n\nfunc F() *T { return &T{} }\n",
		"a/a2.go":         "package a\n\nfunc G() int { return F().M() }\n",
		"b/b.go":          "package b\n\nimport \"example.com/m/a\"\n\nfunc B() int { return a.G() }\n",
		"b/b_test.go":     "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) { B() }\n",
		"main.go":         "package main\n\nimport \"example.com/m/b\"\n\nfunc main() { b.B() }\n",
		"vendor/x/y/y.go": "package y\n\nfunc Y() {}\n",
		"c/c1.go":         "package c\n\nimport \"example.com/m/a\"\n\ntype S struct{ t *a.T }\n",
		"c/c2.go":         "package c\n\nfunc (s S) K() int { return 1 }\n",
		"py/mod.py":       "def f():\n    return 1\n",
		"py/use.py":       "from mod import f\n\ndef g():\n    return f()\n",
		"NOTES.txt":       "m\n",
		"README.md":       "# m\n\nA module.\n\n## Use\n\nCall B.\n",
		// body.test.js reaches helper.js by a weak edge: response is a
		// property set on the module's export, not a bound export.
		"js/helper.js":    "module.exports = (x) => x;\nmodule.exports.response = (x) => x;\n",
		"js/body.test.js": "const response = require('./helper').response;\nresponse(1);\n",
		"js/setup.js":     "process.env.X = '1';\n",
		// Build output (output.go): web/dist by package.json, app/out not
		// yet (no src/ beside it), tools/build a Go package.
		"web/package.json":     `{"name": "web", "main": "dist/index.js"}`,
		"web/src/index.ts":     "export const a = 1;\n",
		"web/dist/index.js":    "exports.a = 1;\n",
		"app/out/main.js":      "exports.m = 1;\n",
		"app/out/util.js":      "exports.u = 1;\n",
		"tools/build/build.go": "package build\n\nfunc B() int { return 1 }\n",
	} {
		r.Write(p, c)
	}
	r.Git("add", "-A")
	r.Commit("init")
	repo, err := gitstore.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	ctx := context.Background()
	if _, err := Index(ctx, repo, "HEAD", Options{Config: cfg}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name    string
		edit    func()
		inPlace bool
	}{
		{"body of a Go file gains a call", func() {
			r.Write("b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nfunc B() int { return a.G() + a.F().M() }\n")
		}, true},
		{"body of a Go file loses its calls", func() {
			r.Write("main.go", "package main\n\nimport \"example.com/m/b\"\n\nfunc main() { println(\"no calls\") }\n")
		}, true},
		{"two Go files in two folders", func() {
			r.Write("a/a2.go", "package a\n\nfunc G() int { return 2 }\n")
			r.Write("b/b_test.go", "package b\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/a\"\n)\n\nfunc TestB(t *testing.T) { B(); a.G() }\n")
		}, true}, // b_test.go gains an import, which only its own resolution reads
		{"a Go file drops an import and its use", func() {
			r.Write("main.go", "package main\n\nfunc main() { println(\"no calls\") }\n")
		}, true},
		{"a Go file imports a package it did not", func() {
			r.Write("main.go", "package main\n\nimport (\n\t\"example.com/m/a\"\n\t\"example.com/m/b\"\n)\n\nfunc main() { println(\"no calls\"); b.B(); a.F().M() }\n")
		}, true},
		{"a file without facts", func() { r.Write("NOTES.txt", "m\n\nmore\n") }, true},
		{"prose under the same headings", func() { r.Write("README.md", "# m\n\nA small module.\n\n## Use\n\nCall B, then G.\n") }, true},
		{"a heading is added", func() { r.Write("README.md", "# m\n\nA small module.\n\n## Use\n\nCall B.\n\n## More\n") }, false},
		{"a definition is added", func() {
			r.Write("a/a.go", "package a\n\n// T is a thing.\ntype T struct{ N int }\n\n// M is a method.\nfunc (t *T) M() int { return t.N }\n\nfunc F() *T { return &T{} }\n\nfunc H() {}\n")
		}, true}, // its folder's and its importers' files are resolved again
		{"a definition other folders use is removed, a method added", func() {
			r.Write("a/a.go", "package a\n\n// T is a thing.\ntype T struct{ N int }\n\n// M is a method.\nfunc (t *T) M() int { return t.N }\n\nfunc (t *T) P() {}\n\nfunc H() {}\n")
			r.Write("b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nfunc B() int { var t a.T; t.P(); return a.G() + a.F().M() }\n")
		}, true},
		{"a definition comes back", func() {
			r.Write("a/a.go", "package a\n\n// T is a thing.\ntype T struct{ N int }\n\n// M is a method.\nfunc (t *T) M() int { return t.N }\n\nfunc (t *T) P() {}\n\nfunc F() *T { return &T{} }\n\nfunc H() {}\n")
		}, true},
		{"a Python body", func() { r.Write("py/use.py", "from mod import f\n\ndef g():\n    return f() + 1\n") }, false},
		{"a file is added", func() { r.Write("a/new.go", "package a\n\nfunc N() { H() }\n") }, false},
		{"go.mod is edited", func() { r.Write("go.mod", "module example.com/m\n\ngo 1.23\n") }, false},
		{"a body after the slow paths", func() {
			r.Write("a/new.go", "package a\n\nfunc N() { H(); G() }\n")
		}, true},
		{"a JavaScript file gains an import for its effects alone (a weak edge)", func() {
			r.Write("js/body.test.js", "require('./setup');\nconst response = require('./helper').response;\nresponse(1);\n")
		}, false},
		{"the member a weak edge reached becomes an export (a certain edge)", func() {
			r.Write("js/helper.js", "function response(x) { return x }\nmodule.exports = { response };\n")
		}, false},
		{"a Go body reaches a type through another file's import", func() {
			// c2.go imports nothing: s.t's type is named in c1.go.
			r.Write("c/c2.go", "package c\n\nfunc (s S) K() int { return s.t.M() }\n")
		}, true},
		{"a file of an output root is edited", func() { r.Write("web/dist/index.js", "exports.a = 2;\n") }, false},
		{"a src/ beside out/ makes it output", func() {
			r.Write("app/src/main.ts", "export const m = 1;\n")
			r.Write("app/src/util.ts", "export const u = 1;\n")
		}, false},
		{"a Go file of a package named build", func() { r.Write("tools/build/build.go", "package build\n\nfunc B() int { return 2 }\n") }, true},
		{"a script becomes minified", func() {
			r.Write("js/setup.js", strings.Repeat("process.env.X='1';var a=function(b){return b+1};", 40)+"\n")
		}, false},
		{"the src/ beside out/ goes", func() {
			r.Git("rm", "-q", "app/src/main.ts", "app/src/util.ts")
		}, false},
	}
	// The weak edges after some steps (nil for the others: not checked).
	weakAfter := map[string][]string{
		"a JavaScript file gains an import for its effects alone (a weak edge)": {"js/body.test.js->js/helper.js", "js/body.test.js->js/setup.js"},
		"the member a weak edge reached becomes an export (a certain edge)":     {"js/body.test.js->js/setup.js"},
	}
	for _, s := range steps {
		s.edit()
		r.Git("add", "-A")
		r.Commit(s.name)
		res, err := Index(ctx, repo, "HEAD", Options{Config: cfg})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if res.InPlace != s.inPlace {
			t.Errorf("%s: in place %v, want %v", s.name, res.InPlace, s.inPlace)
		}
		compareWithFull(t, s.name, r, repo, res.Tree, cfg)
		if want := weakAfter[s.name]; want != nil {
			w, err := Load(repo, res.Tree, cfg)
			if err != nil {
				t.Fatal(err)
			}
			g := w.Graph()
			var weak []string
			for _, e := range g.Weak {
				weak = append(weak, g.Files[e.From].Path+"->"+g.Files[e.To].Path)
			}
			w.Close()
			if !slices.Equal(weak, want) {
				t.Errorf("%s: weak edges %v, want %v", s.name, weak, want)
			}
		}
	}
}

// compareWithFull indexes tree from scratch in a clone and compares every
// stored artifact of it with repo's.
func compareWithFull(t *testing.T, step string, r *gittest.Repo, repo *gitstore.Repo, tree string, cfg config.Config) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "clone")
	r.Git("clone", "-q", "--no-local", r.Dir, dir)
	clone, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Index(context.Background(), clone, tree, Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if res.Parsed == 0 || res.Base != "" {
		t.Fatalf("%s: the clone's index was not a full build: %+v", step, res)
	}
	digest := treeDigest(&cfg)
	for _, name := range []string{artifactMap, artifactLinks, artifactRows, artifactDefs, artifactMeta, artifactTerms} {
		inc, err := repo.Store().Tree(tree, digest, name)
		if err != nil {
			t.Fatal(err)
		}
		full, err := clone.Store().Tree(tree, digest, name)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for k := range full {
			keys = append(keys, k)
		}
		for k := range inc {
			if _, ok := full[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !bytes.Equal(inc[k], full[k]) {
				t.Errorf("%s: artifact %s, shard %q differs between the incremental and the full index", step, name, k)
			}
		}
	}
}

// TestInPlaceStoresLayoutOfOldStores: a store written before the Go layout
// had its binary form holds it as JSON; an in-place update from it reads
// that and stores what a full index of the new tree stores.
func TestInPlaceStoresLayoutOfOldStores(t *testing.T) {
	r := gittest.New(t)
	r.Write("go.mod", "module example.com/m\n")
	r.Write("a/a.go", "package a\n\nfunc F() int { return 1 }\n")
	r.Write("b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nfunc B() int { return a.F() }\n")
	r.Git("add", "-A")
	r.Commit("init")
	repo, err := gitstore.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	ctx := context.Background()
	first, err := Index(ctx, repo, "HEAD", Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	// The summary as an older version wrote it: the layout as JSON.
	digest := treeDigest(&cfg)
	st := repo.Store()
	summary, err := st.Tree(first.Tree, digest, artifactMeta)
	if err != nil {
		t.Fatal(err)
	}
	lay, err := decodeLayoutShard(summary[layoutShard])
	if err != nil {
		t.Fatal(err)
	}
	if summary[layoutShard], err = jsonMarshal(lay); err != nil {
		t.Fatal(err)
	}
	txn := st.Begin()
	txn.PutTree(first.Tree, digest, artifactMeta, summary)
	if err := txn.Commit("an older store's layout"); err != nil {
		t.Fatal(err)
	}
	r.Write("b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nfunc B() int { return a.F() + 1 }\n")
	r.Git("add", "-A")
	r.Commit("body")
	res, err := Index(ctx, repo, "HEAD", Options{Config: cfg})
	if err != nil || !res.InPlace {
		t.Fatalf("index = %+v, %v; want in place", res, err)
	}
	compareWithFull(t, "from a JSON layout", r, repo, res.Tree, cfg)
}
