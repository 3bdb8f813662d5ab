package build

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/gittest"
	"github.com/git-speed/git-speed/layers/world"
)

func TestShardRoundTrip(t *testing.T) {
	recs := []mapRecord{
		{FileEntry: world.FileEntry{Path: "a/b.go", Lang: "go", Size: 120, Blob: "0123456789abcdef0123456789abcdef01234567", Lines: 9, Tokens: 40},
			Key: "ffee", Out: []outEdge{{To: "a/c.go", Refs: 3, Weight: 2.5}, {To: "d.go", Refs: 1, Weight: 0.333}}},
		{FileEntry: world.FileEntry{Path: "a/big.bin", Size: -1, Blob: "aa", Flags: []world.Flag{{Name: world.FlagBinary, Reason: "NUL"}}}},
	}
	got, err := decodeMapShard(encodeMapShard(recs))
	if err != nil || !reflect.DeepEqual(got, recs) {
		t.Fatalf("map round trip: %v\n%+v\n%+v", err, got, recs)
	}
	links := []linkRecord{{Path: "x.py", Link: &world.Link{Lang: "python", Package: "p",
		Defs:    []world.LinkDef{{Name: "f", Kind: "function", Exported: true}, {Name: "m", Kind: "method", Parent: "C"}},
		Imports: []world.Import{{Path: "..a", Names: []string{"b", "c"}, Line: 3}, {Path: "os", Alias: "o", Line: 1, Kind: "k"}},
		Refs:    []world.LinkRef{{Name: "b", Count: 2}, {Name: "path", Qual: "o", Kind: "member", Count: 1}}}}}
	gotL, err := decodeLinkShard(encodeLinkShard(links))
	if err != nil || !reflect.DeepEqual(gotL, links) {
		t.Fatalf("link round trip: %v\n%+v", err, gotL[0].Link)
	}
	if _, err := decodeMapShard([]byte("{}")); err == nil {
		t.Fatal("JSON accepted as a binary shard")
	}
}

func FuzzShardDecode(f *testing.F) {
	f.Add(encodeMapShard([]mapRecord{{FileEntry: world.FileEntry{Path: "a", Blob: "b"}, Out: []outEdge{{To: "c", Refs: 1}}}}))
	f.Add(encodeLinkShard([]linkRecord{{Path: "a", Link: &world.Link{Lang: "go", Refs: []world.LinkRef{{Name: "x", Count: 1}}}}}))
	f.Add(encodeLinkShard([]linkRecord{
		{Path: "a/a.go", Link: &world.Link{Lang: "go", Package: "a", Defs: []world.LinkDef{{Name: "T", Kind: "type", Exported: true}, {Name: "M", Kind: "method", Parent: "T"}},
			Imports: []world.Import{{Path: "fmt", Names: []string{"x"}, Line: 3}}, Refs: []world.LinkRef{{Name: "Println", Qual: "fmt", Kind: "call", Count: 2}, {Name: "T", Count: 1}}}},
		{Path: "a/b.go", Link: &world.Link{Lang: "go", Package: "a", Refs: []world.LinkRef{{Name: "M", Qual: "T", Count: 1}}}},
	}))
	f.Add(encodeRowShard([]rowRecord{{mapRecord: mapRecord{FileEntry: world.FileEntry{Path: "a/b.go", Lang: "go", Blob: "bb"}, Key: "k"}, defs: 2}}))
	f.Add(encodeDefShard([]linkRecord{{Path: "a/b.go", Link: &world.Link{Defs: []world.LinkDef{{Name: "Sync", Kind: "func"}, {Name: "pods", Kind: "var"}}}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		// In place (strings into a copy of b, as read from the store),
		// rows and wanted definitions decode as with copied strings.
		rows, err := decodeRowShard(b)
		inPlace, err2 := decodeRowShardInPlace(append([]byte(nil), b...))
		if (err == nil) != (err2 == nil) || !reflect.DeepEqual(rows, inPlace) {
			t.Fatalf("rows in place: %v, %v", err, err2)
		}
		all := func(string) bool { return true }
		if defs, err := decodeDefShard(b); err == nil {
			wanted, err := decodeDefShardWanted(append([]byte(nil), b...), all)
			var some []linkRecord
			for _, r := range defs {
				if len(r.Link.Defs) > 0 {
					some = append(some, r)
				}
			}
			if err != nil || len(wanted) != len(some) || (len(some) > 0 && !reflect.DeepEqual(wanted, some)) {
				t.Fatalf("every definition wanted: %v, %d records of %d", err, len(wanted), len(some))
			}
		}
		if recs, err := decodeMapShard(b); err == nil {
			if again, err := decodeMapShard(encodeMapShard(recs)); err != nil || !reflect.DeepEqual(again, recs) {
				t.Fatalf("map shard does not round-trip: %v", err)
			}
		}
		if recs, err := decodeLinkShard(b); err == nil {
			if _, err := decodeLinkShard(encodeLinkShard(recs)); err != nil {
				t.Fatalf("link shard does not round-trip: %v", err)
			}
			// Without references, the same records less their references.
			ifs, err := decodeLinkShardInterfaces(b)
			if err != nil || len(ifs) != len(recs) {
				t.Fatalf("interfaces of a valid link shard: %d records, %v", len(ifs), err)
			}
			imps, err := decodeLinkShardImports(b)
			if err != nil || len(imps) != len(recs) {
				t.Fatalf("imports of a valid link shard: %d records, %v", len(imps), err)
			}
			for k := range recs {
				want := *recs[k].Link
				want.Refs = nil
				if ifs[k].Path != recs[k].Path || !reflect.DeepEqual(*ifs[k].Link, want) {
					t.Fatalf("record %d: interfaces %+v, want %+v", k, *ifs[k].Link, want)
				}
				want.Defs = nil
				if imps[k].Path != recs[k].Path || !reflect.DeepEqual(*imps[k].Link, want) {
					t.Fatalf("record %d: imports %+v, want %+v", k, *imps[k].Link, want)
				}
			}
		}
	})
}

func TestClassifier(t *testing.T) {
	cfg := config.Default()
	cfg.Index.Ignore = []string{"docs/**", "*.min.js", "testdata/*.golden"}
	cfg.Index.MaxFileBytes = 100
	c := newClassifier(&cfg)
	for _, tc := range []struct {
		path    string
		mode    uint32
		size    int64
		content string
		flags   string
		facts   bool
	}{
		{"main.go", 0o100644, 20, "package main\n", "", true},
		{"vendor/x/y.go", 0o100644, 20, "package y\n", "vendored", false},
		{"pkg/zz_generated.deepcopy.go", 0o100644, 20, "package p\n", "generated", false},
		{"pkg/gen.go", 0o100644, 60, "// Code generated by stringer. DO NOT EDIT.\n\npackage p\n", "generated", false},
		{"link", modeSymlink, 5, "", "symlink", false},
		{"sub", modeGitlink, -1, "", "submodule", false},
		{"docs/a/b.md", 0o100644, 5, "", "ignored", false},
		{"web/app.min.js", 0o100644, 5, "", "ignored", false},
		{"img.png", 0o100644, 8, "\x89PNG\x00\x00\x00\x00", "binary", false},
		{"manual/spec.pdf", 0o100644, 12, "%PDF-1.4\n\x00\xe2\xe3", "", true},
		{"manual/spec.docx", 0o100644, 8, "PK\x03\x04\x00\x00\x00\x00", "", true},
		{"Cargo.lock", 0o100644, 30, "[[package]]\nname = \"a\"\n", "generated", true},
		{"package-lock.json", 0o100644, 10, "{}\n", "generated", true},
		{"big.go", 0o100644, 1000, "package big\n", "too_large", false},
		{"script", 0o100755, 30, "#!/usr/bin/env python3\nprint(1)\n", "", true},
	} {
		e, read := c.byPath(tc.path, tc.mode, tc.size)
		facts := false
		if read {
			facts = c.byContent(&e, []byte(tc.content), func(string) bool { return true })
		}
		var names []string
		for _, f := range e.Flags {
			names = append(names, f.Name)
		}
		if got := strings.Join(names, ","); got != tc.flags || facts != tc.facts {
			t.Errorf("%s: flags %q facts %v, want %q %v", tc.path, got, facts, tc.flags, tc.facts)
		}
	}
	e, _ := c.byPath("script", 0o100755, 30)
	c.byContent(&e, []byte("#!/bin/sh\necho\n"), func(string) bool { return true })
	if e.Lang != "bash" {
		t.Errorf("shebang language = %q", e.Lang)
	}
}

// artifacts returns every stored shard of tree, for byte comparison.
func artifacts(t *testing.T, repo *gitstore.Repo, tree string, cfg config.Config) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	digest := treeDigest(&cfg)
	for _, name := range []string{artifactMap, artifactLinks, artifactRows, artifactDefs, artifactMeta, artifactTerms} {
		shards, err := repo.Store().Tree(tree, digest, name)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range shards {
			out[name+":"+k] = v
		}
	}
	return out
}

// An incremental index must store exactly what a full index of the same
// tree stores: the graph is a function of the tree, not of history.
func TestIncrementalEqualsFull(t *testing.T) {
	r := gittest.New(t)
	r.Write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.Write("a/a.go", "package a\n\n// A is used by b.\nfunc A() int { return 1 }\n")
	r.Write("b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nfunc B() int { return a.A() }\n")
	r.Write("c/c.py", "from d import helper\n\ndef c():\n    return helper()\n")
	r.Write("d.py", "def helper():\n    return 2\n")
	r.Write("README.md", "# m\n")
	r.Commit("one")
	repo, err := gitstore.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	ctx := context.Background()
	res, err := Index(ctx, repo, "HEAD", Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if res.Parsed != 5 || res.Files != 6 {
		t.Fatalf("first index: %+v", res)
	}
	r.Write("a/a.go", "package a\n\n// A is used by b.\nfunc A() int { return 1 }\n\n// Z is new.\nfunc Z() int { return A() }\n")
	r.Write("b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nfunc B() int { return a.A() + a.Z() }\n")
	r.Remove("d.py")
	r.Write("e/e.go", "package e\n\nimport \"example.com/m/b\"\n\nvar E = b.B()\n")
	r.Commit("two")
	res, err = Index(ctx, repo, "HEAD", Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if res.Parsed != 3 || res.Base == "" {
		t.Fatalf("incremental index parsed %d (base %q), want 3 from the first tree", res.Parsed, res.Base)
	}
	incr := artifacts(t, repo, res.Tree, cfg)
	if _, err := Index(ctx, repo, "HEAD", Options{Config: cfg, Force: true}); err != nil {
		t.Fatal(err)
	}
	full := artifacts(t, repo, res.Tree, cfg)
	if !reflect.DeepEqual(keys(incr), keys(full)) {
		t.Fatalf("shards differ: %v vs %v", keys(incr), keys(full))
	}
	for k := range full {
		if !bytes.Equal(incr[k], full[k]) {
			t.Errorf("shard %s differs between incremental and full index", k)
		}
	}
	w, err := Load(repo, res.Tree, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	g := w.Graph()
	var edges []string
	for _, e := range g.Edges {
		edges = append(edges, fmt.Sprintf("%s->%s", g.Files[e.From].Path, g.Files[e.To].Path))
	}
	want := []string{"b/b.go->a/a.go", "e/e.go->b/b.go"}
	if !reflect.DeepEqual(edges, want) {
		t.Errorf("edges %v, want %v", edges, want)
	}
	if f, err := w.Facts("a/a.go"); err != nil || f == nil || !strings.Contains(f.Skeleton, "func Z() int") {
		t.Errorf("facts of a/a.go: %v %+v", err, f)
	}
	if st, err := Status(repo, res.Tree, cfg); err != nil || st.State != "fresh" || st.Files != 6 {
		t.Errorf("status %+v %v", st, err)
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestFactsRoundTrip(t *testing.T) {
	f := &world.Facts{Lang: "go", Package: "p",
		Defs:     []world.Def{{Name: "F", Kind: "function", Qualified: "F", Start: 3, End: 9, Signature: "func F()", Exported: true, Doc: "F does."}},
		Imports:  []world.Import{{Path: "fmt", Line: 2}, {Path: "x/y", Alias: "z", Names: []string{"a"}, Line: 3, Kind: "k"}},
		Refs:     []world.Ref{{Name: "Println", Qual: "fmt", Line: 5, In: 1, Kind: "call"}, {Name: "G", Line: 4}, {Name: "H", Line: 40}},
		Skeleton: "package p\n", Lines: 40, Tokens: 100, SkelToks: 10, Partial: true, Warning: "w",
		Terms: []world.Term{{Text: "fmt", Fields: 33, Count: 2}, {Text: "println", Fields: 1, Count: 1}}}
	b, err := encodeFacts(f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeFacts(b)
	if err != nil || !reflect.DeepEqual(got, f) {
		t.Fatalf("facts round trip: %v\n%+v\n%+v", err, got, f)
	}
	if _, err := decodeFacts(b[:len(b)-1]); err == nil {
		t.Fatal("truncated facts accepted")
	}
}

// indexHead indexes HEAD of the repository in dir with the default
// settings.
func indexHead(t *testing.T, dir string) (*gitstore.Repo, config.Config, *Result) {
	t.Helper()
	repo, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	res, err := Index(context.Background(), repo, "HEAD", Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return repo, cfg, res
}

// TestParseOrder: the large files come first, the files likely read but
// not parsed are spread among the rest, each group in its order, and
// every file is taken once.
func TestParseOrder(t *testing.T) {
	var files []*file
	mk := func(p string, size int64, flag string) {
		f := &file{rec: mapRecord{FileEntry: world.FileEntry{Path: p, Size: size}}}
		if flag != "" {
			f.rec.Flags = []world.Flag{{Name: flag}}
		}
		files = append(files, f)
	}
	for i := range 12 {
		mk(fmt.Sprintf("a/%02d.go", i), 100, "")
	}
	mk("b/big.json", largeFile, "")
	mk("b/huge.go", 10*largeFile, world.FlagTooLarge)
	for i := range 6 {
		mk(fmt.Sprintf("vendor/%02d.go", i), 100, world.FlagVendored)
	}
	mk("z/zz_generated.deepcopy.go", 2*largeFile, world.FlagGenerated)
	got := parseOrder(files)
	var order []string
	for _, f := range got {
		order = append(order, f.rec.Path)
	}
	// 12 heavy files, 8 light ones: two light ones every three heavy ones
	want := []string{"b/big.json",
		"a/00.go", "a/01.go", "b/huge.go", "a/02.go", "vendor/00.go",
		"a/03.go", "a/04.go", "vendor/01.go", "a/05.go", "vendor/02.go",
		"a/06.go", "a/07.go", "vendor/03.go", "a/08.go", "vendor/04.go",
		"a/09.go", "a/10.go", "vendor/05.go", "a/11.go", "z/zz_generated.deepcopy.go"}
	if !reflect.DeepEqual(order, want) {
		t.Errorf("parseOrder:\n got %q\nwant %q", order, want)
	}
	if got := parseOrder(files[12:]); len(got) != len(files)-12 {
		t.Errorf("parseOrder without small files to parse took %d files of %d", len(got), len(files)-12)
	}
}

// TestSameStoreAnySchedule indexes one tree from an empty store on one
// worker and on several, a few times each, with facts written in many
// small batches: the store must hold the same bytes every time, whatever
// order the workers took the files in and the batches were written in.
func TestSameStoreAnySchedule(t *testing.T) {
	r := gittest.New(t)
	r.Write("go.mod", "module example.com/m\n\ngo 1.22\n")
	for p := range 5 {
		for f := range 6 {
			var b strings.Builder
			fmt.Fprintf(&b, "package p%d\n\n", p)
			if p > 0 {
				fmt.Fprintf(&b, "import \"example.com/m/p%d\"\n\n", p-1)
			}
			fmt.Fprintf(&b, "// F%d is one of package p%d's functions.\nfunc F%d(n int) int {\n", f, p, f)
			if p > 0 {
				fmt.Fprintf(&b, "\treturn p%d.F%d(n) + %d\n}\n", p-1, f, f)
			} else {
				fmt.Fprintf(&b, "\treturn n * %d\n}\n", f)
			}
			r.Write(fmt.Sprintf("p%d/f%d.go", p, f), b.String())
		}
	}
	for v := range 8 {
		r.Write(fmt.Sprintf("vendor/example.org/v/v%d.go", v), fmt.Sprintf("package v\n\nfunc V%d() {}\n", v))
	}
	r.Write("p0/zz_generated.deepcopy.go", "// Code generated by hand. DO NOT EDIT.\n\npackage p0\n\nfunc Copy() {}\n")
	var big strings.Builder
	big.WriteString("package big\n\nimport \"example.com/m/p4\"\n\n")
	for i := 0; big.Len() < largeFile+1000; i++ {
		fmt.Fprintf(&big, "// Big%d calls into p4.\nfunc Big%d() int { return p4.F%d(%d) }\n\n", i, i, i%6, i)
	}
	r.Write("big/big.go", big.String())
	r.Write("tool.py", "from os import path\n\ndef join(a, b):\n    return path.join(a, b)\n")
	r.Write("README.md", "# m\n\nPackages p0 to p4.\n")
	r.Write("data.json", `{"name": "m", "packages": [0, 1, 2, 3, 4]}`)
	r.Git("add", "-A")
	r.Commit("init")
	repo, err := gitstore.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { factsBatch = n }(factsBatch)
	factsBatch = 2 << 10
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first string
	for run := range 6 {
		procs := []int{1, 4}[run%2]
		runtime.GOMAXPROCS(procs)
		cfg := config.Default()
		cfg.Index.Workers = procs
		r.Git("update-ref", "-d", gitstore.IndexRef)
		res, err := Index(context.Background(), repo, "HEAD", Options{Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		if res.Parsed == 0 || res.Base != "" {
			t.Fatalf("run %d: parsed %d files from base %q; want a full build", run, res.Parsed, res.Base)
		}
		var kept []string
		for _, l := range strings.Split(r.Git("ls-tree", "-r", gitstore.IndexRef), "\n") {
			if !strings.HasSuffix(l, "/meta") {
				kept = append(kept, l)
			}
		}
		got := strings.Join(kept, "\n")
		if len(kept) < res.Parsed {
			t.Fatalf("run %d: the store lists %d files for %d parsed", run, len(kept), res.Parsed)
		}
		if run == 0 {
			first = got
			continue
		}
		if got != first {
			t.Fatalf("run %d (GOMAXPROCS %d) stored other bytes than run 0 (GOMAXPROCS 1):\n%s\nwant\n%s", run, procs, got, first)
		}
	}
}
