package extract

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/tools/txtar"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/git-speed/git-speed/layers/world"
)

// TestNodeLayout checks that gsNode/gsRec match the binding's Node and
// that a node's start read from the node itself (startByte, startRow)
// agrees with the binding.
func TestNodeLayout(t *testing.T) {
	if unsafe.Sizeof(sitter.Node{}) != 32 || unsafe.Sizeof(gsNodeWords{}) != 32 {
		t.Fatalf("sitter.Node is %d bytes: the tree-sitter ABI changed", unsafe.Sizeof(sitter.Node{}))
	}
	if unsafe.Sizeof(sitter.Parser{}) != unsafe.Sizeof(uintptr(0)) || unsafe.Sizeof(sitter.Tree{}) != unsafe.Sizeof(uintptr(0)) {
		t.Fatal("sitter.Parser or sitter.Tree is not one pointer: parseBytes must change")
	}
	if r := recSize(); r != unsafe.Sizeof(cRec{}) {
		t.Fatalf("gsRec is %d bytes in C, cRec %d in Go", r, unsafe.Sizeof(cRec{}))
	}
	src := []byte("package p\n\nfunc f(a, b int) (c int) {\n\treturn a + b\n}\n")
	tree := registry[world.LangGo].parse(src, DefaultTimeout)
	defer tree.Close()
	for i, r := range dumpC(tree.RootNode()) {
		if startByte(&r.node) != r.node.StartByte() || startRow(&r.node) != r.node.StartPosition().Row {
			t.Fatalf("node %d (%s): start %d/%d, binding says %d/%d", i, r.node.Kind(),
				startByte(&r.node), startRow(&r.node), r.node.StartByte(), r.node.StartPosition().Row)
		}
	}
}

// TestParseBytes checks that parseBytes builds the tree the binding's
// Parse does, on well-formed, broken and empty input.
func TestParseBytes(t *testing.T) {
	for _, c := range []struct{ lang, src string }{
		{world.LangGo, "package p\n\nfunc f(a, b int) (c int) {\n\treturn a + b\n}\n"},
		{world.LangGo, "package p\nfunc f( {\n"},
		{world.LangGo, ""},
		{world.LangPython, "def f(x):\n    return [y for y in x]\n"},
		{world.LangJavaScript, "const s = `a ${b} \u00e9`; // é\n"},
	} {
		l := registry[c.lang]
		p := l.parser()
		want := p.Parse([]byte(c.src), nil)
		got := parseBytes(p, []byte(c.src))
		l.pool.Put(p)
		if g, w := got.RootNode().ToSexp(), want.RootNode().ToSexp(); g != w {
			t.Errorf("%s %q: parseBytes gives %s, Parse %s", c.lang, c.src, g, w)
		}
		got.Close()
		want.Close()
	}
}

// TestDump checks gs_dump against the binding's own cursor walk on every
// subtree of real files: document order, parent, field, symbol, end, and
// the index after each subtree.
func TestDump(t *testing.T) {
	cases := map[string]string{
		world.LangGo:         "package p\n\n// f adds.\nfunc f(a, b int) (c int) { return a + b }\n\ntype T struct{ x, y int }\n",
		world.LangPython:     "import os\n\nclass A(B):\n    def m(self, x):\n        return [y for y in x if y]\n",
		world.LangPHP:        "<?php\nnamespace N;\nuse A\\B;\nclass C extends B { public function f($x) { return g($x) + 1; } }\n",
		world.LangJavaScript: "import a from './a'\nexport function f(x) {\n  return a(x, () => { x++ })\n}\nconst y = {",
		world.LangLua:        "local m = require('m')\nfunction M.f(a) return m.g(a) end\n",
		world.LangKotlin:     "package p\nclass A(val b: Int) { fun f(x: Int) = x + b }\n",
		world.LangSwift:      "import F\nstruct S { var a: Int; func f() -> Int { a } }\n",
		world.LangScala:      "package p\nobject O:\n  def f(x: Int): Int =\n    x + 1\n",
		world.LangZig:        "const std = @import(\"std\");\npub fn f(a: u8) u8 { return a; }\n",
		world.LangDart:       "import 'a.dart';\nclass C { int f(int x) => x.abs(); }\n",
		world.LangHaskell:    "module M where\nf :: Int -> Int\nf x = x + 1\n",
	}
	for lang, src := range cases {
		l := registry[lang]
		l.loadTables()
		tree := l.parse([]byte(src), DefaultTimeout)
		var check func(n *sitter.Node)
		check = func(n *sitter.Node) {
			recs := dumpC(n)
			if steps := dumpSteps(n, symbolSet{}); !slices.Equal(recs, steps) {
				t.Fatalf("%s %s: the counted dump and the stepped one differ", lang, n.Kind())
			}
			// The binding's walk, in document order, with parents.
			type want struct {
				id     uintptr
				kind   string
				named  bool
				field  uint16
				end    uint
				parent int
			}
			var ws []want
			c := n.Walk()
			var rec func(parent int)
			rec = func(parent int) {
				me := len(ws)
				cn := c.Node()
				ws = append(ws, want{cn.Id(), cn.Kind(), cn.IsNamed(), c.FieldId(), cn.EndByte(), parent})
				if c.GotoFirstChild() {
					for {
						rec(me)
						if !c.GotoNextSibling() {
							break
						}
					}
					c.GotoParent()
				}
			}
			rec(-1)
			c.Close()
			if len(recs) != len(ws) {
				t.Fatalf("%s %s: dump has %d nodes, the binding's walk %d", lang, n.Kind(), len(recs), len(ws))
			}
			for i, r := range recs {
				w := ws[i]
				// A record's symbol is the grammar's number for the kind
				// (gs_symbol), not always the binding's KindId: the kind's
				// name and namedness are what must agree.
				kind, named := r.node.Kind(), r.node.IsNamed()
				if int(r.symbol) < len(l.kinds) {
					kind, named = l.kinds[r.symbol], l.named[r.symbol]
				}
				if r.node.Id() != w.id || kind != w.kind || named != w.named || r.end != uint32(w.end) || int(r.parent) != w.parent ||
					(i > 0 && r.field != w.field) {
					t.Fatalf("%s: node %d (%s) differs: %+v, want %+v", lang, i, r.node.Kind(), r, w)
				}
				after := i + 1
				for after < len(ws) {
					p := ws[after].parent
					for p > i {
						p = ws[p].parent
					}
					if p != i {
						break
					}
					after++
				}
				if int(r.after) != after {
					t.Fatalf("%s: node %d (%s): after %d, want %d", lang, i, r.node.Kind(), r.after, after)
				}
			}
			for i := range recs {
				if i > 0 && recs[i].parent == 0 {
					check(&recs[i].node)
				}
			}
		}
		check(tree.RootNode())
		tree.Close()
	}
}

// TestDumpCountedIsStepped checks, on every golden input, that gs_dump's
// walk by child counts gives what its fallback, the walk by the cursor's
// steps alone, gives: the counts tree-sitter keeps are those the cursor
// goes by.
func TestDumpCountedIsStepped(t *testing.T) {
	archives, _ := filepath.Glob(filepath.Join("testdata", "*", "*.txtar"))
	n, fallbacks := 0, dumpFallbacks()
	for _, p := range archives {
		a, err := txtar.ParseFile(p)
		l := registry[filepath.Base(filepath.Dir(p))]
		if err != nil || len(a.Files) == 0 || l == nil {
			continue
		}
		l.loadTables()
		tree := l.parse(a.Files[0].Data, DefaultTimeout)
		for _, op := range []symbolSet{{}, l.opaque} {
			if got, want := dumpWith(tree.RootNode(), op), dumpSteps(tree.RootNode(), op); !slices.Equal(got, want) {
				t.Errorf("%s: the counted dump has %d nodes, the stepped one %d, or they differ", p, len(got), len(want))
			}
		}
		tree.Close()
		n++
	}
	if n < 20 {
		t.Fatalf("only %d golden inputs", n)
	}
	if d := dumpFallbacks() - fallbacks; d != 0 {
		t.Errorf("%d dumps fell back on the stepped walk: the counts disagreed with the cursor", d)
	}
}

// TestDumpOpaque checks that a dump leaving out the children of Go's
// string literals and its quiet tokens without a field is the full dump
// without those.
func TestDumpOpaque(t *testing.T) {
	l := registry[world.LangGo]
	l.loadTables()
	src := []byte("package p\n\nimport \"fmt\"\n\nfunc f() { fmt.Println(\"a\\tb\", `raw`, g(\"c\")) }\n")
	tree := l.parse(src, DefaultTimeout)
	defer tree.Close()
	full := dumpC(tree.RootNode())
	// The full dump without the subtrees below string literals and the
	// quiet leaves, indexes renumbered.
	var want []cRec
	newIdx := make([]int32, len(full))
	quiet := 0
	for i := 0; i < len(full); {
		r := full[i]
		newIdx[i] = int32(len(want))
		if r.parent >= 0 {
			r.parent = newIdx[r.parent]
		}
		if k := l.kinds[r.symbol]; !l.named[r.symbol] && slices.Contains(l.quiet, k) && r.field == 0 && r.after == uint32(i+1) {
			quiet++
			i++
			continue
		}
		want = append(want, r)
		if k := l.kinds[r.symbol]; k == "interpreted_string_literal" || k == "raw_string_literal" {
			if r.after == uint32(i+1) {
				t.Fatalf("string literal %d has no children: nothing is left out", i)
			}
			i = int(r.after)
		} else {
			i++
		}
	}
	for i := len(want) - 1; i >= 0; i-- { // after: past the renumbered subtree
		want[i].after = uint32(i + 1)
		for j := i + 1; j < len(want) && isBelow(want, j, i); j++ {
			want[i].after = uint32(j + 1)
		}
	}
	got := dumpWith(tree.RootNode(), l.opaque)
	if quiet == 0 {
		t.Fatal("no quiet token: nothing is left out")
	}
	if len(got) != len(want) || len(got) >= len(full) {
		t.Fatalf("dump has %d nodes, want %d (of %d)", len(got), len(want), len(full))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("node %d (%s): %+v, want %+v", i, l.kinds[got[i].symbol], got[i], want[i])
		}
	}
}

// isBelow reports whether recs[j] is in the subtree of recs[i].
func isBelow(recs []cRec, j, i int) bool {
	for p := int(recs[j].parent); p >= 0; p = int(recs[p].parent) {
		if p == i {
			return true
		}
	}
	return false
}

// TestTreeHoldsEveryNode extracts every golden input and every file of
// the module's own source: every node a walker asks about must be in the
// file's tree (file.at panics otherwise, and the facts would be empty with
// an "extractor failed" warning).
func TestTreeHoldsEveryNode(t *testing.T) {
	type input struct {
		name, lang string
		src        []byte
	}
	var inputs []input
	archives, _ := filepath.Glob(filepath.Join("testdata", "*", "*.txtar"))
	for _, p := range archives {
		a, err := txtar.ParseFile(p)
		if err != nil || len(a.Files) == 0 {
			continue
		}
		inputs = append(inputs, input{p, filepath.Base(filepath.Dir(p)), a.Files[0].Data})
	}
	filepath.WalkDir(filepath.Join("..", "..", ".."), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err == nil {
			inputs = append(inputs, input{p, world.LangGo, src})
		}
		return nil
	})
	if len(inputs) < 100 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	for _, in := range inputs {
		if !Supported(in.lang) {
			continue
		}
		facts, err := Extract(in.lang, in.src, Options{})
		if err != nil {
			t.Fatalf("%s: %v", in.name, err)
		}
		if strings.Contains(facts.Warning, "failed") {
			t.Errorf("%s: %s", in.name, facts.Warning)
		}
	}
}

// TestFieldsBelowHiddenNodes: ts_node_child_by_field_id (tree-sitter
// 0.25) answers with the object of f._zod.optin in a TypeScript type query
// when asked for its property, so the walker once named "_zod" twice.
// Fields are read as the tree cursor reports them.
func TestFieldsBelowHiddenNodes(t *testing.T) {
	src := []byte("expectTypeOf<typeof f._zod.optin>().toEqualTypeOf<\"optional\">();\n")
	facts, err := Extract(world.LangTypeScript, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range facts.Refs {
		if q, _, _ := strings.Cut(r.Qual, ":"); q == "f" {
			got = append(got, r.Name)
		}
	}
	if strings.Join(got, " ") != "_zod optin" {
		t.Fatalf("refs qualified by f: %q, want _zod and optin", got)
	}
}

// TestDumpMarks checks, on every golden input of a language that marks
// kinds (walkedMarking), that the dump lists exactly the nodes of those
// kinds, in document order, by both of gs_dump's walks, and that the
// comments of PHP and C are read from that list (marksCover).
func TestDumpMarks(t *testing.T) {
	archives, _ := filepath.Glob(filepath.Join("testdata", "*", "*.txtar"))
	n := 0
	for _, p := range archives {
		a, err := txtar.ParseFile(p)
		l := registry[filepath.Base(filepath.Dir(p))]
		if err != nil || len(a.Files) == 0 || l == nil || len(l.marked) == 0 {
			continue
		}
		l.loadTables()
		tree := l.parse(a.Files[0].Data, DefaultTimeout)
		for _, steps := range []bool{false, true} {
			var b cBuf
			recs := b.dumpBy(tree.RootNode(), l.opaque, steps)
			var want []uint32
			for i := range recs {
				if s := int(recs[i].symbol); s < len(l.kinds) && slices.Contains(l.marked, l.kinds[s]) {
					want = append(want, uint32(i))
				}
			}
			if got := b.marked(); !slices.Equal(got, want) {
				t.Errorf("%s (steps %v): marks %v, want %v", p, steps, got, want)
			}
			b.free()
		}
		tree.Close()
		n++
	}
	if n < 3 {
		t.Fatalf("only %d golden inputs of languages that mark kinds", n)
	}
	isComment := func(k string) bool { return k == "comment" }
	for _, lang := range []string{world.LangPHP, world.LangC, world.LangCPP} {
		if !registry[lang].marksCover("comments", isComment) {
			t.Errorf("%s: comments are not all marked", lang)
		}
	}
	if !registry[world.LangPHP].marksCover("requires", isPHPRequire) {
		t.Error("php: requires are not all marked")
	}
	if registry[world.LangGo].marksCover("comments", isComment) {
		t.Error("go: comments are said to be marked")
	}
}

// TestNodeArenaBounded: a walker asking for one node's children once per
// child (a long list) gets the right children every time, and the file's
// node arena stays within a bound of the tree's size instead of growing
// with the square of the list.
func TestNodeArenaBounded(t *testing.T) {
	const n = 3000
	var src strings.Builder
	src.WriteString("x = [")
	for i := range n {
		fmt.Fprintf(&src, "a%d, ", i)
	}
	src.WriteString("]\n")
	l := registry[world.LangPython]
	tree := l.parse([]byte(src.String()), DefaultTimeout)
	if tree == nil {
		t.Fatal("parse stopped")
	}
	defer tree.Close()
	facts := &world.Facts{Lang: l.name}
	f := newFile(l, []byte(src.String()), tree.RootNode(), facts)
	defer f.close()
	recs := f.tree()
	var list *sitter.Node
	for i := range recs {
		if f.recKind(&recs[i]) == "list" {
			list = &recs[i].node
			break
		}
	}
	if list == nil {
		t.Fatal("no list in the tree")
	}
	first := f.named(list)
	for i := range n {
		kids := f.named(list)
		if len(kids) != n || f.text(kids[i]) != fmt.Sprint("a", i) {
			t.Fatalf("ask %d: %d children, child %d is %q", i, len(kids), i, f.text(kids[min(i, len(kids)-1)]))
		}
		if limit := 2*len(f.recs) + 1024 + n; len(f.nodes) > limit {
			t.Fatalf("ask %d: node arena holds %d, more than %d", i, len(f.nodes), limit)
		}
	}
	if f.text(first[n-1]) != fmt.Sprint("a", n-1) {
		t.Error("a slice handed out before the arena was begun again changed")
	}
}
