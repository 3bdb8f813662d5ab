package build

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// A full build's live heap grows with the tree (every file's link and term
// vector are held until the graph and the term index are built), and the
// collector's default lets the heap reach twice the live data: 400 MB for
// kubernetes' 200. capHeap lowers that to heapRatio times the live data
// once it passes heapFloor, through a soft memory limit that follows the
// live heap. The limit never falls below heapRatio times what is live, so
// the collector never runs back to back as under a fixed limit a large
// tree outgrows; below the floor nothing changes.
const (
	heapFloor = 256 << 20
	heapRatio = 1.6
)

// capHeap starts following the live heap with a limit of ratio times it,
// floor at least; stop ends it and restores the limit. A limit set by the
// user (GOMEMLIMIT) is left alone.
func capHeap(floor int64, ratio float64) (stop func()) {
	prev := debug.SetMemoryLimit(-1)
	if prev != math.MaxInt64 {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		set := int64(0)
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return
			}
			lim := max(floor, int64(float64(sample[0].Value.Uint64())*ratio))
			if lim != set {
				debug.SetMemoryLimit(lim)
				set = lim
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		debug.SetMemoryLimit(prev)
	}
}
