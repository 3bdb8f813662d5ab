//go:build linux

package extract

/*
#include <malloc.h>

static void speed_limit_arenas(int n) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
	mallopt(M_ARENA_MAX, n);
#endif
}

static void speed_trim(void) {
#if defined(__GLIBC__)
	malloc_trim(0);
#endif
}
*/
import "C"

import "runtime"

// glibc gives a thread that mallocs while the arenas are busy an arena of
// its own, up to eight per core, and each arena keeps what is freed into
// it. Go runs a cgo call on whichever of its threads is free, so over a
// large build tree-sitter's parses spread over a dozen arenas, each
// keeping room for the largest trees it held. On kubernetes (2 cores) one
// arena instead of the default holds about 45 MB less resident memory, for no
// CPU time measurable: glibc's per-thread caches serve most of
// tree-sitter's small allocations without the arena's lock. One arena per
// four cores bounds the lock's contention on large machines. (musl has
// one heap anyway.)
func init() { C.speed_limit_arenas(C.int(max(runtime.NumCPU()/4, 1))) }

// TrimHeap gives the operating system back the pages tree-sitter's heap
// keeps free: glibc holds what parses freed for the next ones, so a build
// past its parses would otherwise stay as large as their busiest moment.
func TrimHeap() { C.speed_trim() }
