package extract

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/tools/txtar"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/git-speed/git-speed/layers/world"
)

// TestNodeLayout checks that gsNode/gsKid match the binding's Node and
// that the C children reader agrees with the binding's own walk.
func TestNodeLayout(t *testing.T) {
	if unsafe.Sizeof(sitter.Node{}) != 32 || unsafe.Sizeof(gsNodeWords{}) != 32 {
		t.Fatalf("sitter.Node is %d bytes: the tree-sitter ABI changed", unsafe.Sizeof(sitter.Node{}))
	}
	if k, r := cSizes(); k != unsafe.Sizeof(cKid{}) || r != unsafe.Sizeof(cRec{}) {
		t.Fatalf("gsKid/gsRec are %d/%d bytes in C, cKid/cRec %d/%d in Go", k, r, unsafe.Sizeof(cKid{}), unsafe.Sizeof(cRec{}))
	}
	src := []byte("package p\n\nfunc f(a, b int) (c int) { return a + b }\n")
	l := registry[world.LangGo]
	tree := l.parse(src, DefaultTimeout)
	defer tree.Close()
	root := tree.RootNode()
	var check func(n *sitter.Node)
	check = func(n *sitter.Node) {
		ks := childrenC(n, nil)
		if uint(len(ks)) != n.ChildCount() {
			t.Fatalf("%s: %d children, binding says %d", n.Kind(), len(ks), n.ChildCount())
		}
		c := n.Walk()
		defer c.Close()
		i := 0
		if c.GotoFirstChild() {
			for {
				k := ks[i]
				cn := c.Node()
				if k.node.Id() != cn.Id() || k.symbol != cn.KindId() || k.field != c.FieldId() || uint(k.end) != cn.EndByte() ||
					startByte(&k.node) != cn.StartByte() || startRow(&k.node) != cn.StartPosition().Row {
					t.Fatalf("child %d of %s differs", i, n.Kind())
				}
				i++
				if !c.GotoNextSibling() {
					break
				}
			}
		}
		for i := range ks {
			check(&ks[i].node)
		}
	}
	check(root)
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
	}
	for lang, src := range cases {
		l := registry[lang]
		tree := l.parse([]byte(src), DefaultTimeout)
		var check func(n *sitter.Node)
		check = func(n *sitter.Node) {
			recs := dumpC(n)
			// The binding's walk, in document order, with parents.
			type want struct {
				id            uintptr
				symbol, field uint16
				end           uint
				parent        int
			}
			var ws []want
			c := n.Walk()
			var rec func(parent int)
			rec = func(parent int) {
				me := len(ws)
				cn := c.Node()
				ws = append(ws, want{cn.Id(), cn.KindId(), c.FieldId(), cn.EndByte(), parent})
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
				if r.node.Id() != w.id || r.symbol != w.symbol || r.end != uint32(w.end) || int(r.parent) != w.parent ||
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

// TestTreeAnswersLikeCgo extracts every golden input and every file of
// the module's own source twice: with the file's tree read in one call
// and the walkers answered from it in Go, and with every question asked
// of tree-sitter. The facts must be the same.
func TestTreeAnswersLikeCgo(t *testing.T) {
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
	// ts_node_child_by_field_id once named "_zod" twice here.
	inputs = append(inputs, input{"type query", world.LangTypeScript,
		[]byte("expectTypeOf<typeof f._zod.optin>().toEqualTypeOf<\"optional\">();\n")})
	if len(inputs) < 100 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	defer func() { readTree = true }()
	for _, in := range inputs {
		if !Supported(in.lang) {
			continue
		}
		readTree = true
		a, errA := Extract(in.lang, in.src, Options{})
		readTree = false
		b, errB := Extract(in.lang, in.src, Options{})
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v / %v", in.name, errA, errB)
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("%s: facts differ:\n tree: %s\n cgo:  %s", in.name, ja, jb)
		}
	}
}
