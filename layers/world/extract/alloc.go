package extract

/*
#include <stdlib.h>

// Declared here rather than included: the symbol is compiled into
// go-tree-sitter's package and linked into the same binary.
extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));

static void speed_use_libc_allocator(void) { ts_set_allocator(malloc, calloc, realloc, free); }
*/
import "C"

// go-tree-sitter routes every allocation of the C library through Go
// callbacks (C → Go → C.malloc), which costs a cgo callback per malloc
// during parsing. The memory is libc's either way, so pointing tree-sitter
// straight at libc's allocator is equivalent and much cheaper. This runs
// after go-tree-sitter's own init (package initialisation order follows
// imports), before any parser exists.
func init() { C.speed_use_libc_allocator() }
