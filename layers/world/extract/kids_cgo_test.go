package extract

import (
	"testing"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/git-speed/git-speed/layers/world"
)

// TestNodeLayout checks that gsNode/gsKid match the binding's Node and
// that the C children reader agrees with the binding's own walk.
func TestNodeLayout(t *testing.T) {
	if unsafe.Sizeof(sitter.Node{}) != 32 || unsafe.Sizeof(cKid{}) != 40 {
		t.Fatalf("sitter.Node is %d bytes, cKid %d: the tree-sitter ABI changed", unsafe.Sizeof(sitter.Node{}), unsafe.Sizeof(cKid{}))
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
