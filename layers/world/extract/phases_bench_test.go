package extract

import (
	"runtime"
	"testing"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/git-speed/git-speed/layers/world"
)

// BenchmarkPhasesDir extracts every code file under EXTRACT_DIR per
// iteration, as extract does, and reports the time of each step apart:
// parse-ms (tree-sitter), dump-ms (gs_dump, file.tree) and walk-ms (the
// language's walker and the skeleton, file.finish), per iteration. Each
// tree is dumped and walked right after its parse, with the caches as
// warm as in a build; redaction and formats are left out.
func BenchmarkPhasesDir(b *testing.B) {
	_, names, srcs := dirFiles(b)
	startBench(b, srcs)
	var parse, dump, walk time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, src := range srcs {
			l := registry[names[j]]
			t0 := time.Now()
			tree := l.parse(src, DefaultTimeout)
			if tree == nil {
				b.Fatalf("parse of a %s file stopped", names[j])
			}
			t1 := time.Now()
			facts := &world.Facts{Lang: l.name, Lines: countLines(src)}
			f := newFile(l, src, tree.RootNode(), facts)
			f.tree()
			t2 := time.Now()
			l.walk(f)
			f.finish()
			t3 := time.Now()
			f.close()
			tree.Close()
			Release(facts)
			parse, dump, walk = parse+t1.Sub(t0), dump+t2.Sub(t1), walk+t3.Sub(t2)
		}
	}
	n := float64(b.N) * float64(time.Millisecond)
	b.ReportMetric(float64(parse)/n, "parse-ms/op")
	b.ReportMetric(float64(dump)/n, "dump-ms/op")
	b.ReportMetric(float64(walk)/n, "walk-ms/op")
}

// BenchmarkWalkDir is BenchmarkPhasesDir's walk alone: every code file
// under EXTRACT_DIR is parsed once, then each iteration dumps and walks
// every tree again, so a CPU profile (-cpuprofile) sees the walkers and
// the shared accessors of file.go without the parse drowning them.
func BenchmarkWalkDir(b *testing.B) {
	_, names, srcs := dirFiles(b)
	startBench(b, srcs)
	trees := make([]*sitter.Tree, len(srcs))
	for j, src := range srcs {
		if trees[j] = registry[names[j]].parse(src, DefaultTimeout); trees[j] == nil {
			b.Fatalf("parse of a %s file stopped", names[j])
		}
	}
	defer func() {
		for _, t := range trees {
			t.Close()
		}
	}()
	// The thread's CPU time as well as the wall time: on a shared machine
	// the wall time counts the waits for a core too.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var walk, cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, src := range srcs {
			l := registry[names[j]]
			facts := &world.Facts{Lang: l.name, Lines: countLines(src)}
			f := newFile(l, src, trees[j].RootNode(), facts)
			f.tree()
			t0, c0 := time.Now(), threadCPU()
			l.walk(f)
			f.finish()
			walk, cpu = walk+time.Since(t0), cpu+threadCPU()-c0
			f.close()
			Release(facts)
		}
	}
	b.ReportMetric(float64(walk)/float64(b.N)/float64(time.Millisecond), "walk-ms/op")
	b.ReportMetric(float64(cpu)/float64(b.N)/float64(time.Millisecond), "walk-cpu-ms/op")
}
