//go:build linux

package extract

/*
#include <malloc.h>

static void speed_limit_arenas(int n) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
	mallopt(M_ARENA_MAX, n);
#endif
}
*/
import "C"

import "runtime"

// glibc gives a thread that mallocs while the arenas are busy an arena of
// its own, up to eight per core, and each arena keeps what is freed into
// it. Go runs a cgo call on whichever of its threads is free, so over a
// large build tree-sitter's parses spread over a dozen arenas, each
// keeping room for the largest tree it held: on kubernetes 45 MB of
// resident memory more than one arena per core. No more parses than cores
// run at once (index.workers defaults to the core count), so one arena a
// core is as many as are ever busy together. (musl has one heap anyway.)
func init() { C.speed_limit_arenas(C.int(max(runtime.NumCPU(), 1))) }
