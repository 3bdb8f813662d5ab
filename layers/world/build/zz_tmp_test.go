package build

import (
	"os"
	"testing"
	"time"
	"syscall"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/scope"
)

func cpuNow() time.Time {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Unix(0, ru.Utime.Nano()+ru.Stime.Nano())
}

func TestZZScope(t *testing.T) {
	dir := os.Getenv("ZZ_REPO")
	if dir == "" {
		t.Skip()
	}
	repo, _ := gitstore.Open(dir)
	_, tree, _ := repo.Resolve("k8s-v1.36.0-tree")
	cfg := config.Default()
	f, _, err := feature.LoadFeature(os.DirFS(dir), "bench", feature.Options{Dir: ".speed-bench/features"})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		t0 := cpuNow()
		cnt, _ := tokens.New("o200k")
		t1 := cpuNow()
		w, err := Load(repo, tree, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t2 := cpuNow()
		al, err := w.Alignment(f, nil)
		if err != nil {
			t.Fatal(err)
		}
		t3 := cpuNow()
		r, err := scope.Scope(w, f, "1", scope.Options{Config: cfg, Counter: cnt, Align: al})
		if err != nil {
			t.Fatal(err)
		}
		t4 := cpuNow()
		n := 0
		for _, name := range []string{scope.ManifestFile, scope.BudgetFile, scope.MaterialFile} {
			b, _ := r.Encode(name)
			n += len(b)
		}
		t5 := cpuNow()
		t.Logf("tok %v load %v align %v scope %v encode %v (%d bytes)", t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3), t5.Sub(t4), n)
		w.Close()
	}
}
