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

// CollectRarely inside CollectRarely leaves collection off, and the outer
// restore brings back what was before.
func TestCollectRarelyNested(t *testing.T) {
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Skip("GOMEMLIMIT is set")
	}
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	outer := CollectRarely()
	inner := CollectRarely()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("inside the inner call: GC percent %d, want off", p)
	}
	inner()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("after the inner restore: GC percent %d, want off", p)
	}
	if l := debug.SetMemoryLimit(-1); l != shortRunHeap {
		t.Errorf("memory limit %d, want %d", l, shortRunHeap)
	}
	outer()
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("after the outer restore: GC percent %d, want 100", p)
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("after the outer restore: memory limit %d", l)
	}
}
