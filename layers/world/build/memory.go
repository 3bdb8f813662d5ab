package build

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

// A full build's live heap grows with the tree (every file's link, encoded
// through the parses, and term vector are held until the graph and the
// term index are built), and the
// collector's default lets the heap reach twice the live data. capHeap
// lowers that to a ratio of the live data once it passes a floor, through
// a soft memory limit that follows the live heap. The limit never falls
// below the ratio times what is live, so the collector never runs back to
// back as under a fixed limit a large tree outgrows; below the floor
// nothing changes.
//
// The floor is what a tree the size of kubernetes stays under: its live
// heap peaks at about 160 MB once the links are decoded for the graph
// (through the parses it stays near 60 MB), and a limit of 224 MiB keeps the
// whole process under 300 MiB resident (tree-sitter's heap and the mapped
// binary are the rest). Past the floor the ratio rules. While facts are
// extracted (most of the build's CPU and allocation) it is heapRatio:
// collecting more often there costs more CPU than the memory it saves.
// The phases after it (graph, encoding, term index) are short and hold
// the most: there it is tightRatio.
//
// (GOGC is left as it is: raising it while the heap is small saved a
// kubernetes build a few early cycles, but a smaller tree's heap then grew
// to the floor: GOROOT's peak went from 244 to 285 MiB, a thousand-file
// tree's from 133 to 166.)
const (
	heapFloor  = 224 << 20
	heapRatio  = 1.5
	tightRatio = 1.3
)

// heapCap is a soft memory limit that follows the live heap.
type heapCap struct {
	ratio    atomic.Uint64 // math.Float64bits of the ratio
	done     chan struct{}
	finished chan struct{}
	prev     int64
}

// capHeap starts following the live heap with a limit of ratio times it,
// floor at least; stop ends it and restores the limit. A limit set by the
// user (GOMEMLIMIT) is left alone.
func capHeap(floor int64, ratio float64) *heapCap {
	c := &heapCap{prev: debug.SetMemoryLimit(-1)}
	if c.prev != math.MaxInt64 {
		return c
	}
	c.ratio.Store(math.Float64bits(ratio))
	c.done, c.finished = make(chan struct{}), make(chan struct{})
	debug.SetMemoryLimit(floor) // from now, not from the first tick
	go func() {
		defer close(c.finished)
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		set := floor
		for {
			select {
			case <-c.done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return
			}
			r := math.Float64frombits(c.ratio.Load())
			lim := max(floor, int64(float64(sample[0].Value.Uint64())*r))
			if lim != set {
				debug.SetMemoryLimit(lim)
				set = lim
			}
		}
	}()
	return c
}

// setRatio makes the limit ratio times the live heap from the next tick.
func (c *heapCap) setRatio(ratio float64) {
	if c.done != nil {
		c.ratio.Store(math.Float64bits(ratio))
	}
}

// stop ends following the live heap and restores the limit.
func (c *heapCap) stop() {
	if c.done == nil {
		return
	}
	close(c.done)
	<-c.finished
	debug.SetMemoryLimit(c.prev)
}

// shortRunHeap is the heap a short run that keeps most of what it
// allocates (an in-place update, a computed map) lets grow before
// collecting.
const shortRunHeap = 512 << 20

// CollectRarely sets the collector for such a run: no collection below
// shortRunHeap, or, when the user set a limit (GOMEMLIMIT), that limit and
// a collection at 400 % growth. The returned function restores what was.
// Collecting as the heap first grows from nothing was a tenth of an
// in-place update's CPU and a twentieth of a map's. Called again before
// that function runs (a scope inside a command that already set it), it
// changes nothing: it once read its own limit as the user's.
func CollectRarely() (restore func()) {
	p := debug.SetGCPercent(-1)
	if p < 0 {
		return func() {} // collection is off already
	}
	debug.SetGCPercent(p)
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		prev := debug.SetGCPercent(400)
		return func() { debug.SetGCPercent(prev) }
	}
	prevLimit := debug.SetMemoryLimit(shortRunHeap)
	prevPercent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}
}
