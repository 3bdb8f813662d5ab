package extract

// Asking the go-tree-sitter binding about a node costs one cgo call per
// question (its kind, a field, a child, the step to the next sibling), and
// each call has the runtime check the pointers inside the node it passes.
// gs_dump instead reads a whole subtree in one call, into memory in the C
// heap, and takes the node as plain integers, which cgo does not check.
// The structs repeat the layouts of TSNode and TSTreeCursor from
// tree-sitter's api.h (ABI of go-tree-sitter v0.25.0); TestNodeLayout
// checks they match the binding's Node.

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

typedef struct { uint32_t context[4]; const void *id; const void *tree; } gsNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } gsCursor;

extern void ts_tree_cursor_reset(gsCursor *, gsNode);
extern void ts_tree_cursor_delete(gsCursor *);
extern bool ts_tree_cursor_goto_first_child(gsCursor *);
extern bool ts_tree_cursor_goto_next_sibling(gsCursor *);
extern bool ts_tree_cursor_goto_parent(gsCursor *);
extern gsNode ts_tree_cursor_current_node(const gsCursor *);
extern uint16_t ts_tree_cursor_current_field_id(const gsCursor *);
extern uint16_t ts_node_grammar_symbol(gsNode);
extern uint32_t ts_node_end_byte(gsNode);
extern uint32_t ts_node_child_count(gsNode);
extern uint32_t ts_node_descendant_count(gsNode);
extern void *ts_parser_parse_string(void *parser, const void *old_tree, const char *string, uint32_t length);

// gsRec is one node of a subtree dump: parent is the index of its parent
// in the dump (-1 for the subtree's root), after the index of the first
// node that is not in its subtree.
typedef struct { gsNode node; uint16_t symbol; uint16_t field; uint32_t end; int32_t parent; uint32_t after; } gsRec;

enum { GS_OPAQUE = 1, GS_QUIET = 2, GS_MARK = 4 };

// gs_symbol is the node's kind as the grammar numbers it: its alias (kept
// in context[3] of the node the cursor returns) or its own symbol.
// ts_node_symbol would map that number to the first of the grammar's
// symbols with the same name and namedness (its "public" symbol), a table
// lookup and a call more per node, for nothing: the walkers read kinds by
// name and namedness (language.kinds, named), which the two numbers share.
static inline uint16_t gs_symbol(gsNode n) {
	return n.context[3] ? (uint16_t)n.context[3] : ts_node_grammar_symbol(n);
}

static gsNode gs_node(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uintptr_t id, uintptr_t tree) {
	gsNode n = {{c0, c1, c2, c3}, (const void *)id, (const void *)tree};
	return n;
}

// gs_dump writes the node and everything below it into out in document
// order and returns the number of nodes; when the subtree has more nodes
// than out has room for (max records), it writes nothing and returns the
// number it needs. c is a cursor
// kept between dumps (zeroed memory the first time): reset keeps its
// stack's memory, where a new cursor per dump grew it afresh, and those
// reallocations made glibc consolidate the small blocks a parse had just
// freed. opaque (nopaque symbols long) holds flags per symbol: the
// children of a node whose symbol has GS_OPAQUE are not written (the node
// looks like a leaf), and a leaf with GS_QUIET and no field is not written
// at all (punctuation no walker reads). With marks not NULL, the index
// of every node written whose symbol has GS_MARK is listed in
// marks[1..marks[0]] (marks has room for max+1), so a walker looks for
// such nodes (comments) without a pass over the whole dump.
//
// The walk asks each node for its number of children (ts_node_child_count,
// the count the cursor's steps go through) and steps to a next sibling
// only while one is left: a step past the last child costs the cursor as
// much as a real one (it climbs to the parent and scans on from there), and
// a leaf is not asked for a first child it has not got. The tree's own
// count of its nodes (ts_node_descendant_count) sizes out and checks the
// walk; were the counts ever to disagree with the cursor, gs_dump_steps
// walks by the cursor's answers alone; by_steps asks for that walk at once
// (tests compare the two).
static uint32_t gs_dump_steps(gsCursor *c, gsNode root, gsRec *out, uint32_t max, const uint8_t *opaque, uint32_t nopaque, uint32_t *marks);

// gs_fallbacks counts the dumps gs_dump_steps made (for tests).
static uint64_t gs_fallbacks;

static uint32_t gs_fall_back(gsCursor *c, gsNode root, gsRec *out, uint32_t max, const uint8_t *opaque, uint32_t nopaque, uint32_t *marks) {
	__atomic_fetch_add(&gs_fallbacks, 1, __ATOMIC_RELAXED);
	return gs_dump_steps(c, root, out, max, opaque, nopaque, marks);
}

static uint64_t gs_fallback_count(void) { return __atomic_load_n(&gs_fallbacks, __ATOMIC_RELAXED); }

static uint32_t gs_dump(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uintptr_t id, uintptr_t tree,
		uintptr_t outp, uint32_t max, uintptr_t cursor, uintptr_t opaquep, uint32_t nopaque, uintptr_t marksp, int by_steps) {
	gsRec *out = (gsRec *)outp;
	uint32_t *marks = (uint32_t *)marksp;
	gsCursor *c = (gsCursor *)cursor;
	const uint8_t *opaque = (const uint8_t *)opaquep;
	gsNode root = gs_node(c0, c1, c2, c3, id, tree);
	if (by_steps) return gs_dump_steps(c, root, out, max, opaque, nopaque, marks); // (tests)
	uint32_t want = ts_node_descendant_count(root); // before opaque subtrees are left out
	if (want > max) return want;
	if (marks) marks[0] = 0;
	ts_tree_cursor_reset(c, root);
	uint32_t n = 0;
	int32_t cur = -1; // index of the parent of the cursor's node
	for (;;) {
		if (n >= want) return gs_fall_back(c, root, out, max, opaque, nopaque, marks);
		gsNode node = ts_tree_cursor_current_node(c);
		uint16_t sym = gs_symbol(node);
		uint8_t flags = sym < nopaque ? opaque[sym] : 0;
		uint32_t kids = ts_node_child_count(node);
		uint16_t field = ts_tree_cursor_current_field_id(c);
		if (kids == 0 && field == 0 && (flags & GS_QUIET)) {
			want--; // not written; its parent still counts it as a child
		} else {
			gsRec *r = &out[n];
			r->node = node;
			r->symbol = sym;
			r->field = field;
			r->end = ts_node_end_byte(node);
			r->parent = cur;
			r->after = n + 1;
			if (kids > 0 && (flags & GS_OPAQUE)) {
				want -= ts_node_descendant_count(node) - 1;
				kids = 0;
			}
			if ((flags & GS_MARK) && marks) marks[++marks[0]] = n;
			n++;
		}
		if (kids > 0) {
			if (!ts_tree_cursor_goto_first_child(c)) return gs_fall_back(c, root, out, max, opaque, nopaque, marks);
			out[n - 1].after = kids; // while a node is open: its children still to visit
			cur = (int32_t)(n - 1);
			continue;
		}
		// Close the nodes whose last child this was, then step on.
		while (cur >= 0 && --out[cur].after == 0) {
			out[cur].after = n;
			ts_tree_cursor_goto_parent(c);
			cur = out[cur].parent;
		}
		if (cur < 0) break;
		if (!ts_tree_cursor_goto_next_sibling(c)) return gs_fall_back(c, root, out, max, opaque, nopaque, marks);
	}
	if (n != want) return gs_fall_back(c, root, out, max, opaque, nopaque, marks);
	return n;
}

// gs_dump_steps is gs_dump by the cursor's steps alone: it tries a first
// child at every node and a next sibling after every subtree. It returns
// the number of nodes, more than max when out was too small (then out
// holds nothing usable).
static uint32_t gs_dump_steps(gsCursor *c, gsNode root, gsRec *out, uint32_t max, const uint8_t *opaque, uint32_t nopaque, uint32_t *marks) {
	ts_tree_cursor_reset(c, root);
	if (marks) marks[0] = 0;
	uint32_t n = 0;
	int32_t cur = -1; // index of the parent of the cursor's node while n <= max
	for (;;) {
		gsNode node = ts_tree_cursor_current_node(c);
		uint16_t sym = gs_symbol(node);
		uint8_t flags = sym < nopaque ? opaque[sym] : 0;
		uint16_t field = ts_tree_cursor_current_field_id(c);
		if (n < max) {
			out[n].node = node;
			out[n].symbol = sym;
			out[n].field = field;
			out[n].end = ts_node_end_byte(node);
			out[n].parent = cur;
			out[n].after = n + 1;
		}
		bool mark = (flags & GS_MARK) && marks && n < max;
		if (!(flags & GS_OPAQUE) && ts_tree_cursor_goto_first_child(c)) {
			if (n < max) cur = (int32_t)n;
			if (mark) marks[++marks[0]] = n;
			n++;
			continue;
		}
		// A leaf: step to the next sibling, climbing as needed; a node
		// climbed to has had its whole subtree written. A quiet leaf is
		// not kept (the next node overwrites its record).
		if (!(field == 0 && (flags & GS_QUIET))) {
			if (mark) marks[++marks[0]] = n;
			n++;
		}
		bool more = false;
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(c)) { more = true; break; }
			if (!ts_tree_cursor_goto_parent(c)) break;
			if (cur >= 0) { // cur < max: it was written
				out[cur].after = n;
				cur = out[cur].parent;
			}
		}
		if (!more) break;
	}
	return n;
}

// gs_cursor_new returns zeroed memory for a cursor; gs_cursor_free frees
// a cursor's stack and the cursor.
static uintptr_t gs_cursor_new(void) { return (uintptr_t)calloc(1, sizeof(gsCursor)); }
static void gs_cursor_free(uintptr_t c) {
	ts_tree_cursor_delete((gsCursor *)c);
	free((void *)c);
}
*/
import "C"

import (
	"slices"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// parseBytes parses src with p, as the binding's Parser.Parse would, but
// hands tree-sitter the bytes themselves: Parse reads its input through a
// Go callback that copies the rest of the file into fresh C memory on each
// call the lexer makes, which cost a tenth of a full build's parse time
// in callbacks, copies and glibc's consolidation of the freed copies. src
// is only read during the call (tree-sitter keeps no pointer into it). A
// nil tree means the parse stopped (timeout).
func parseBytes(p *sitter.Parser, src []byte) *sitter.Tree {
	var s *C.char
	if len(src) > 0 {
		s = (*C.char)(unsafe.Pointer(&src[0]))
	} else {
		s = (*C.char)(unsafe.Pointer(&empty[0]))
	}
	t := C.ts_parser_parse_string(*(*unsafe.Pointer)(unsafe.Pointer(p)), nil, s, C.uint32_t(len(src)))
	if t == nil {
		return nil
	}
	tree := new(sitter.Tree)
	*(*unsafe.Pointer)(unsafe.Pointer(tree)) = t
	return tree
}

var empty = [1]byte{}

// cRec is gsRec on the Go side.
type cRec struct {
	node   sitter.Node
	symbol uint16
	field  uint16
	end    uint32
	parent int32
	after  uint32
}

// gsNodeWords is a TSNode seen as the integers gs_dump takes.
type gsNodeWords struct {
	ctx      [4]uint32
	id, tree uintptr
}

func words(n *sitter.Node) *gsNodeWords { return (*gsNodeWords)(unsafe.Pointer(n)) }

// cBuf is memory in the C heap for gs_dump: memory the Go runtime neither
// scans nor checks on each cgo call.
type cBuf struct {
	p      unsafe.Pointer
	size   uintptr     // bytes
	cursor C.uintptr_t // gs_dump's tree cursor, kept with the buffer
	// marks is gs_dump's list of the marked nodes (a count, then indexes),
	// room for size/recBytes+1 of them; allocated with p for a set
	// that marks symbols.
	marks unsafe.Pointer
}

// dump returns n and every node below it in document order, valid until
// the next call on b, but for what opaque's flags leave out: the children
// of opaque nodes and quiet leaves without a field (see language.opaque).
func (b *cBuf) dump(n *sitter.Node, opaque symbolSet) []cRec { return b.dumpBy(n, opaque, false) }

// dumpBy is dump, by gs_dump_steps' walk when steps.
func (b *cBuf) dumpBy(n *sitter.Node, opaque symbolSet, steps bool) []cRec {
	by := C.int(0)
	if steps {
		by = 1
	}
	const rec = unsafe.Sizeof(cRec{})
	// Trees have about one node per 3–7 bytes of source: sized so, one
	// call is enough nearly always (gs_dump says how many it needs).
	if want := (uintptr(n.EndByte()-startByte(n))/2 + 64) * rec; b.size < want {
		b.grow(want)
	}
	w := words(n)
	if b.cursor == 0 {
		if b.cursor = C.gs_cursor_new(); b.cursor == 0 {
			panic("extract: out of memory")
		}
	}
	if opaque.marks && b.marks == nil {
		b.growMarks()
	}
	for {
		max := b.size / rec
		var marks unsafe.Pointer
		if opaque.marks {
			marks = b.marks
		}
		got := uintptr(C.gs_dump(C.uint32_t(w.ctx[0]), C.uint32_t(w.ctx[1]), C.uint32_t(w.ctx[2]), C.uint32_t(w.ctx[3]),
			C.uintptr_t(w.id), C.uintptr_t(w.tree), C.uintptr_t(uintptr(b.p)), C.uint32_t(max), b.cursor,
			C.uintptr_t(uintptr(opaque.p)), C.uint32_t(opaque.n), C.uintptr_t(uintptr(marks)), by))
		if got <= max {
			return unsafe.Slice((*cRec)(b.p), got)
		}
		b.grow(got * rec)
	}
}

// symbolSet is gs_dump's flags for a grammar's symbols: one byte per
// symbol (dumpOpaque, dumpQuiet, dumpMark), in the C heap for the life of
// the process.
type symbolSet struct {
	p     unsafe.Pointer
	n     int
	marks bool // some symbol has dumpMark
}

// Flags of a symbolSet (GS_OPAQUE and GS_QUIET in gs_dump).
const (
	dumpOpaque byte = 1 // a node whose children are left out
	dumpQuiet  byte = 2 // a leaf left out when it has no field
	dumpMark   byte = 4 // a node listed apart (cBuf.marked)
)

// newSymbolSet returns the set of the flags in flags, indexed by symbol.
func newSymbolSet(flags []byte) symbolSet {
	if len(flags) == 0 {
		return symbolSet{}
	}
	p := C.calloc(C.size_t(len(flags)), 1)
	if p == nil {
		panic("extract: out of memory")
	}
	copy(unsafe.Slice((*byte)(p), len(flags)), flags)
	return symbolSet{p, len(flags), slices.ContainsFunc(flags, func(f byte) bool { return f&dumpMark != 0 })}
}

// spareBufs keeps the C memory of tree dumps between files (file.tree):
// glibc maps a large block afresh on each malloc, and every page of it
// then costs a fault.
var spareBufs = make(chan cBuf, 16)

// takeBuf returns a spare buffer, or an empty one.
func takeBuf() cBuf {
	select {
	case b := <-spareBufs:
		return b
	default:
		return cBuf{}
	}
}

// keepBuf hands b back for another file, or frees it.
func keepBuf(b cBuf) {
	if b.p == nil && b.cursor == 0 {
		return
	}
	if b.size <= 64<<20 {
		select {
		case spareBufs <- b:
			return
		default:
		}
	}
	b.free()
}

func (b *cBuf) grow(size uintptr) {
	if b.p != nil {
		C.free(b.p)
		b.p, b.size = nil, 0
	}
	b.p = C.malloc(C.size_t(size))
	if b.p == nil {
		panic("extract: out of memory")
	}
	b.size = size
	if b.marks != nil {
		b.growMarks() // room for as many marks as records
	}
}

// growMarks sizes b.marks for b's records.
func (b *cBuf) growMarks() {
	if b.marks != nil {
		C.free(b.marks)
	}
	if b.marks = C.malloc(C.size_t((b.size/recBytes + 1) * 4)); b.marks == nil {
		panic("extract: out of memory")
	}
}

// marked returns the indexes of the marked nodes of the last dump (which
// must have been made with a set that marks symbols), in document order.
func (b *cBuf) marked() []uint32 {
	if b.marks == nil {
		return nil
	}
	n := *(*uint32)(b.marks)
	return unsafe.Slice((*uint32)(unsafe.Add(b.marks, 4)), n)
}

func (b *cBuf) free() {
	if b.p != nil {
		C.free(b.p)
		b.p, b.size = nil, 0
	}
	if b.marks != nil {
		C.free(b.marks)
		b.marks = nil
	}
	if b.cursor != 0 {
		C.gs_cursor_free(b.cursor)
		b.cursor = 0
	}
}

// recSize returns the size of gsRec as C lays it out (for tests).
func recSize() uintptr { return uintptr(C.sizeof_gsRec) }

// dumpC returns n's subtree as a fresh Go slice (for tests).
func dumpC(n *sitter.Node) []cRec { return dumpWith(n, symbolSet{}) }

// dumpWith is dumpC leaving out what opaque's flags say.
func dumpWith(n *sitter.Node, opaque symbolSet) []cRec {
	var b cBuf
	defer b.free()
	return append([]cRec(nil), b.dump(n, opaque)...)
}

// dumpFallbacks returns how many dumps were made by gs_dump_steps
// because the counts disagreed with the cursor (for tests).
func dumpFallbacks() uint64 { return uint64(C.gs_fallback_count()) }

// dumpSteps is dumpWith by gs_dump_steps, the walk gs_dump falls back
// on (for tests).
func dumpSteps(n *sitter.Node, opaque symbolSet) []cRec {
	var b cBuf
	defer b.free()
	return append([]cRec(nil), b.dumpBy(n, opaque, true)...)
}

// startByte and startRow read a node's start from the node itself
// (TSNode.context holds start byte, row and column), without a cgo call.
func startByte(n *sitter.Node) uint { return uint((*[4]uint32)(unsafe.Pointer(n))[0]) }
func startRow(n *sitter.Node) uint  { return uint((*[4]uint32)(unsafe.Pointer(n))[1]) }
