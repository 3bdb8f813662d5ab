package extract

// Reading a node's children costs one cgo call per child and per question
// asked of it through the go-tree-sitter binding (the node, its kind, its
// field, the step to the next sibling). gsKids asks all of them in C, one
// call per parent. The two structs below repeat the layouts of TSNode and
// TSTreeCursor from tree-sitter's api.h (ABI of go-tree-sitter v0.25.0);
// TestNodeLayout checks they match the binding's Node.

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

typedef struct { uint32_t context[4]; const void *id; const void *tree; } gsNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } gsCursor;

extern gsCursor ts_tree_cursor_new(gsNode);
extern void ts_tree_cursor_delete(gsCursor *);
extern bool ts_tree_cursor_goto_first_child(gsCursor *);
extern bool ts_tree_cursor_goto_next_sibling(gsCursor *);
extern gsNode ts_tree_cursor_current_node(const gsCursor *);
extern uint16_t ts_tree_cursor_current_field_id(const gsCursor *);
extern uint16_t ts_node_symbol(gsNode);
extern uint32_t ts_node_end_byte(gsNode);

typedef struct { gsNode node; uint16_t symbol; uint16_t field; uint32_t end; } gsKid;

// gs_kids writes up to max children of parent into out and returns how
// many there are (more than max when out was too small).
static uint32_t gs_kids(gsNode parent, gsKid *out, uint32_t max) {
	gsCursor c = ts_tree_cursor_new(parent);
	uint32_t n = 0;
	if (ts_tree_cursor_goto_first_child(&c)) {
		do {
			if (n < max) {
				gsNode node = ts_tree_cursor_current_node(&c);
				out[n].node = node;
				out[n].symbol = ts_node_symbol(node);
				out[n].field = ts_tree_cursor_current_field_id(&c);
				out[n].end = ts_node_end_byte(node);
			}
			n++;
		} while (ts_tree_cursor_goto_next_sibling(&c));
	}
	ts_tree_cursor_delete(&c);
	return n;
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// cKid is gsKid on the Go side.
type cKid struct {
	node   sitter.Node
	symbol uint16
	field  uint16
	end    uint32
}

// cBuf is scratch memory in the C heap for gs_kids: memory the Go
// runtime neither scans nor checks on each cgo call.
type cBuf struct {
	p   unsafe.Pointer
	cap int
}

// children returns n's children, valid until the next call on b.
func (b *cBuf) children(n *sitter.Node) []cKid {
	if b.p == nil {
		b.grow(64)
	}
	for {
		got := int(C.gs_kids(*(*C.gsNode)(unsafe.Pointer(n)), (*C.gsKid)(b.p), C.uint32_t(b.cap)))
		if got <= b.cap {
			if got == 0 {
				return nil
			}
			return unsafe.Slice((*cKid)(b.p), got)
		}
		b.grow(got)
	}
}

func (b *cBuf) grow(n int) {
	b.free()
	b.p = C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(cKid{})))
	if b.p == nil {
		panic("extract: out of memory")
	}
	b.cap = n
}

func (b *cBuf) free() {
	if b.p != nil {
		C.free(b.p)
		b.p, b.cap = nil, 0
	}
}

// childrenC returns n's children as a fresh Go slice (for tests).
func childrenC(n *sitter.Node, _ []cKid) []cKid {
	var b cBuf
	defer b.free()
	return append([]cKid(nil), b.children(n)...)
}

// startByte and startRow read a node's start from the node itself
// (TSNode.context holds start byte, row and column), without a cgo call.
func startByte(n *sitter.Node) uint { return uint((*[4]uint32)(unsafe.Pointer(n))[0]) }
func startRow(n *sitter.Node) uint  { return uint((*[4]uint32)(unsafe.Pointer(n))[1]) }
