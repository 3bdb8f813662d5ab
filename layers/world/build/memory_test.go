package build

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

var keep [][]byte

// capHeap's limit follows the live heap (ratio times it, never below the
// floor), and stop gives the limit back.
func TestCapHeapFollowsLiveHeap(t *testing.T) {
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Skip("GOMEMLIMIT is set")
	}
	c := capHeap(1<<20, 1.6)
	for i := 0; i < 64; i++ {
		keep = append(keep, make([]byte, 1<<20))
	}
	runtime.GC()
	// The live heap now holds at least 64 MiB: the limit rises past
	// 1.6 × 64 MiB within a few ticks.
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetMemoryLimit(-1) < 64<<20*16/10 {
		if time.Now().After(deadline) {
			t.Fatalf("limit %d after 5 s, want at least %d", debug.SetMemoryLimit(-1), 64<<20*16/10)
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.stop()
	keep = nil
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Fatalf("limit after stop = %d, want none", got)
	}
}
