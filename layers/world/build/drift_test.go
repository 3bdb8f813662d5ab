package build

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/gittest"
)

// driftHistory is a deterministic history of small commits over a tree
// in Go, Python, TypeScript, JavaScript, Rust and Java whose files import
// and call each other: each commit edits a body, adds or removes a
// definition, changes an import, adds, deletes or renames a file.
type driftHistory struct {
	rnd   *rand.Rand
	files map[string]string
	next  int
}

var driftLangs = []string{"go", "py", "ts", "js", "rs", "java"}

// source writes file number id of language lang, calling the files
// numbered in calls (of any language: only its own resolve) and defining
// extra more functions.
func driftSource(lang string, id int, calls []int, extra, salt int) string {
	var b strings.Builder
	switch lang {
	case "go":
		pkg := id % 4
		fmt.Fprintf(&b, "package p%d\n\n", pkg)
		other := (pkg + 1) % 4
		fmt.Fprintf(&b, "import \"example.com/d/go/p%d\"\n\n", other)
		fmt.Fprintf(&b, "// F%d is file %d's.\nfunc F%d(x int) int {\n\ty := x + %d\n", id, id, id, salt)
		for _, c := range calls {
			if c%4 == pkg {
				fmt.Fprintf(&b, "\ty += F%d(y)\n", c)
			} else if c%4 == other {
				fmt.Fprintf(&b, "\ty += p%d.F%d(y)\n", other, c)
			}
		}
		fmt.Fprintf(&b, "\treturn y\n}\n")
		for e := 0; e < extra; e++ {
			fmt.Fprintf(&b, "\n// E%d_%d is more.\nfunc E%d_%d() int { return F%d(%d) }\n", id, e, id, e, id, e)
		}
		fmt.Fprintf(&b, "\nvar _ = p%d.Dummy\n", other)
	case "py":
		for _, c := range calls {
			fmt.Fprintf(&b, "from py.m%d import f%d\n", c, c)
		}
		fmt.Fprintf(&b, "\n\ndef f%d(x):\n    y = x + %d\n", id, salt)
		for _, c := range calls {
			fmt.Fprintf(&b, "    y += f%d(y)\n", c)
		}
		b.WriteString("    return y\n")
		for e := 0; e < extra; e++ {
			fmt.Fprintf(&b, "\n\ndef e%d_%d():\n    return f%d(%d)\n", id, e, id, e)
		}
	case "ts", "js":
		for _, c := range calls {
			if lang == "ts" {
				fmt.Fprintf(&b, "import { t%d } from \"./t%d\";\n", c, c)
			} else {
				fmt.Fprintf(&b, "const { t%d } = require(\"./t%d\");\n", c, c)
			}
		}
		fmt.Fprintf(&b, "\nexport function t%d(x) {\n  let y = x + %d;\n", id, salt)
		for _, c := range calls {
			fmt.Fprintf(&b, "  y += t%d(y);\n", c)
		}
		b.WriteString("  return y;\n}\n")
		for e := 0; e < extra; e++ {
			fmt.Fprintf(&b, "\nexport function e%d_%d() {\n  return t%d(%d);\n}\n", id, e, id, e)
		}
	case "rs":
		for _, c := range calls {
			fmt.Fprintf(&b, "use crate::r%d::r%d;\n", c, c)
		}
		fmt.Fprintf(&b, "\npub fn r%d(x: i64) -> i64 {\n    let mut y = x + %d;\n", id, salt)
		for _, c := range calls {
			fmt.Fprintf(&b, "    y += r%d(y);\n", c)
		}
		b.WriteString("    y\n}\n")
		for e := 0; e < extra; e++ {
			fmt.Fprintf(&b, "\npub fn e%d_%d() -> i64 {\n    r%d(%d)\n}\n", id, e, id, e)
		}
	case "java":
		fmt.Fprintf(&b, "package com.d;\n\npublic class C%d {\n    public static int run(int x) {\n        int y = x + %d;\n", id, salt)
		for _, c := range calls {
			fmt.Fprintf(&b, "        y += C%d.run(y);\n", c)
		}
		b.WriteString("        return y;\n    }\n")
		for e := 0; e < extra; e++ {
			fmt.Fprintf(&b, "\n    public static int e%d() {\n        return run(%d);\n    }\n", e, e)
		}
		b.WriteString("}\n")
	}
	return b.String()
}

func driftPath(lang string, id int) string {
	switch lang {
	case "go":
		return fmt.Sprintf("go/p%d/f%d.go", id%4, id)
	case "py":
		return fmt.Sprintf("py/m%d.py", id)
	case "ts":
		return fmt.Sprintf("web/t%d.ts", id)
	case "js":
		return fmt.Sprintf("web/t%d.js", id)
	case "rs":
		return fmt.Sprintf("rs/src/r%d.rs", id)
	default:
		return fmt.Sprintf("java/com/d/C%d.java", id)
	}
}

func (h *driftHistory) newFile() (string, string) {
	lang := driftLangs[h.rnd.IntN(len(driftLangs))]
	id := h.next
	h.next++
	var calls []int
	for i := 0; i < 1+h.rnd.IntN(3) && id > 0; i++ {
		calls = append(calls, h.rnd.IntN(id))
	}
	return driftPath(lang, id), driftSource(lang, id, calls, h.rnd.IntN(2), h.rnd.IntN(100))
}

func (h *driftHistory) paths() []string {
	var ps []string
	for p := range h.files {
		if strings.Count(p, "/") > 0 && !strings.HasSuffix(p, ".toml") && !strings.HasSuffix(p, ".mod") && !strings.HasSuffix(p, "dummy.go") {
			ps = append(ps, p)
		}
	}
	sort.Strings(ps)
	return ps
}

// step changes the tree as one commit does and says what it did.
func (h *driftHistory) step() (set map[string]string, del []string, what string) {
	set = map[string]string{}
	ps := h.paths()
	pick := ps[h.rnd.IntN(len(ps))]
	switch op := h.rnd.IntN(20); {
	case op < 9: // a body edit
		set[pick] = strings.Replace(h.files[pick], "+ ", fmt.Sprintf("+ %d + ", h.rnd.IntN(1000)), 1)
		what = "edit"
	case op < 11: // a definition added
		set[pick] = h.files[pick] + driftExtra(pick, h.rnd.IntN(1000))
		what = "define"
	case op < 12: // an import line changed or added at the top
		set[pick] = driftImport(pick, h.rnd.IntN(h.next)) + h.files[pick]
		what = "import"
	case op < 15:
		p, src := h.newFile()
		set[p] = src
		what = "add"
	case op < 17:
		if len(ps) > 20 {
			del = append(del, pick)
			what = "delete"
		} else {
			set[pick] = h.files[pick] + "\n"
			what = "edit"
		}
	case op < 19: // a rename within its folder (same language and package)
		dir := pick[:strings.LastIndex(pick, "/")+1]
		to := dir + "moved_" + pick[len(dir):]
		if _, ok := h.files[to]; ok {
			to = dir + "again_" + pick[len(dir):]
		}
		del = append(del, pick)
		set[to] = h.files[pick]
		what = "rename"
	default: // several files at once
		for i := 0; i < 3; i++ {
			q := ps[h.rnd.IntN(len(ps))]
			set[q] = strings.Replace(h.files[q], "+ ", fmt.Sprintf("+ %d + ", h.rnd.IntN(1000)), 1)
		}
		what = "edit3"
	}
	for p, s := range set {
		h.files[p] = s
	}
	for _, p := range del {
		delete(h.files, p)
	}
	return set, del, what
}

func driftExtra(p string, n int) string {
	switch {
	case strings.HasSuffix(p, ".go"):
		return fmt.Sprintf("\n// X%d is added.\nfunc X%d() int { return %d }\n", n, n, n)
	case strings.HasSuffix(p, ".py"):
		return fmt.Sprintf("\n\ndef x%d():\n    return %d\n", n, n)
	case strings.HasSuffix(p, ".ts"), strings.HasSuffix(p, ".js"):
		return fmt.Sprintf("\nexport function x%d() {\n  return %d;\n}\n", n, n)
	case strings.HasSuffix(p, ".rs"):
		return fmt.Sprintf("\npub fn x%d() -> i64 {\n    %d\n}\n", n, n)
	default:
		return fmt.Sprintf("\nclass X%d {\n    int v() { return %d; }\n}\n", n, n)
	}
}

func driftImport(p string, n int) string {
	switch {
	case strings.HasSuffix(p, ".go"):
		return "" // Go imports stay inside the package clause's block
	case strings.HasSuffix(p, ".py"):
		return fmt.Sprintf("from py.m%d import f%d\n", n, n)
	case strings.HasSuffix(p, ".ts"):
		return fmt.Sprintf("import { t%d } from \"./t%d\";\n", n, n)
	case strings.HasSuffix(p, ".js"):
		return fmt.Sprintf("const { t%d } = require(\"./t%d\");\n", n, n)
	case strings.HasSuffix(p, ".rs"):
		return fmt.Sprintf("use crate::r%d::r%d;\n", n, n)
	default:
		return ""
	}
}

// writeDriftHistory commits the history with one git fast-import and
// returns the commits, oldest first.
func writeDriftHistory(t *testing.T, r *gittest.Repo, commits int) []string {
	t.Helper()
	h := &driftHistory{rnd: rand.New(rand.NewPCG(28, 4)), files: map[string]string{
		"go.mod":           "module example.com/d\n\ngo 1.22\n",
		"rs/Cargo.toml":    "[package]\nname = \"d\"\nversion = \"0.1.0\"\n",
		"README.md":        "# drift\n\nA history to replay.\n",
		"go/p0/dummy.go":   "package p0\n\n// Dummy is read by every package.\nvar Dummy = 0\n",
		"go/p1/dummy.go":   "package p1\n\n// Dummy is read by every package.\nvar Dummy = 0\n",
		"go/p2/dummy.go":   "package p2\n\n// Dummy is read by every package.\nvar Dummy = 0\n",
		"go/p3/dummy.go":   "package p3\n\n// Dummy is read by every package.\nvar Dummy = 0\n",
		"web/package.json": "{\"name\": \"web\"}\n",
	}}
	for i := 0; i < 36; i++ {
		p, s := h.newFile()
		h.files[p] = s
	}
	var b strings.Builder
	blob := func(op, p, s string) { fmt.Fprintf(&b, "M 100644 inline %s\ndata %d\n%s\n", p, len(s), s) }
	commit := func(n int, msg string) {
		fmt.Fprintf(&b, "commit refs/heads/main\nmark :%d\ncommitter Drift <drift@example.com> %d +0000\ndata %d\n%s\n", n, 1700000000+n, len(msg), msg)
		if n > 1 {
			fmt.Fprintf(&b, "from :%d\n", n-1)
		}
	}
	commit(1, "start")
	ps := make([]string, 0, len(h.files))
	for p := range h.files {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	for _, p := range ps {
		blob("M", p, h.files[p])
	}
	for n := 2; n <= commits; n++ {
		set, del, what := h.step()
		commit(n, what)
		for _, p := range del {
			fmt.Fprintf(&b, "D %s\n", p)
		}
		keys := make([]string, 0, len(set))
		for p := range set {
			keys = append(keys, p)
		}
		sort.Strings(keys)
		for _, p := range keys {
			blob("M", p, set[p])
		}
	}
	if _, err := r.GitInput([]byte(b.String()), "fast-import", "--quiet"); err != nil {
		t.Fatal(err)
	}
	return strings.Fields(r.Git("rev-list", "--reverse", "main"))
}

// TestNoDrift replays a few hundred commits through the index one by one
// (in-place updates where they apply, the whole-tree path otherwise) and,
// at checkpoints, rebuilds the tree from nothing and compares every
// artifact and facts entry (VerifyIndex): an index kept up to date
// commit by commit stores exactly what a full build stores.
// driftCommits is the length of TestNoDrift's history: 120 commits cost
// about 20 s of CPU; -drift.commits=600 replays a longer one (and
// bench/drift.sh a real one of any length).
var driftCommits = flag.Int("drift.commits", 120, "commits TestNoDrift replays")

func TestNoDrift(t *testing.T) {
	r := gittest.New(t)
	n := *driftCommits
	if testing.Short() {
		n = 50
	}
	commits := writeDriftHistory(t, r, n)
	repo, err := gitstore.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	ctx := context.Background()
	inPlace := 0
	for i, c := range commits {
		res, err := Index(ctx, repo, c, Options{Config: cfg})
		if err != nil {
			t.Fatalf("commit %d: %v", i, err)
		}
		if res.InPlace {
			inPlace++
		}
		if i > 0 && !res.UpToDate && res.Base == "" && !res.InPlace {
			t.Fatalf("commit %d was not indexed from the one before: %+v", i, res)
		}
		if i%40 == 39 || i == len(commits)-1 {
			v, err := VerifyIndex(ctx, repo, c, Options{Config: cfg})
			if err != nil {
				t.Fatalf("verify commit %d: %v", i, err)
			}
			if len(v.Differ) > 0 || v.Artifacts < 5 || v.Facts < 30 {
				t.Fatalf("commit %d (%s): %d artifacts, %d shards, %d facts compared; differ: %+v", i, c[:12], v.Artifacts, v.Shards, v.Facts, v.Differ)
			}
		}
	}
	// In place: Go files' edits (docs/incremental.md); the rest takes
	// the whole-tree path from the tree before.
	if inPlace < len(commits)/20 {
		t.Errorf("only %d of %d updates were in place", inPlace, len(commits))
	}
	t.Logf("%d commits, %d updated in place", len(commits), inPlace)
}

// TestVerifyIndexNamesDrift: an artifact changed in the store is named.
func TestVerifyIndexNamesDrift(t *testing.T) {
	r := gittest.New(t)
	commits := writeDriftHistory(t, r, 2)
	repo, err := gitstore.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	ctx := context.Background()
	if _, err := Index(ctx, repo, commits[1], Options{Config: cfg}); err != nil {
		t.Fatal(err)
	}
	_, tree, _ := repo.Resolve(commits[1])
	digest := treeDigest(&cfg)
	rows, err := repo.Store().Tree(tree, digest, artifactMap)
	if err != nil {
		t.Fatal(err)
	}
	var some string
	for k := range rows {
		if some == "" || k < some {
			some = k
		}
	}
	rows[some] = append(append([]byte(nil), rows[some]...), 0)
	txn := repo.Store().Begin()
	txn.PutTree(tree, digest, artifactMap, rows)
	if err := txn.Commit("drift on purpose"); err != nil {
		t.Fatal(err)
	}
	v, err := VerifyIndex(ctx, repo, commits[1], Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Differ) != 1 || v.Differ[0].Artifact != artifactMap || v.Differ[0].Count != 1 || v.Differ[0].Shards[0] != some {
		t.Fatalf("differ %+v, want map shard %q", v.Differ, some)
	}
}
