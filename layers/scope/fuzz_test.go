package scope

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"

	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/feature"
)

// randomWorld makes a world of n Go-like files with random sizes and
// random edges, from seed.
func randomWorld(seed int64, n int) *fakeWorld {
	rng := rand.New(rand.NewSource(seed))
	var files []fileSpec
	for i := 0; i < n; i++ {
		files = append(files, fileSpec{fmt.Sprintf("d%d/f%03d.go", rng.Intn(4), i), 1 + rng.Intn(8), rng.Intn(40)})
	}
	var edges [][3]int
	for i := 0; i < n*2; i++ {
		a, b := rng.Intn(n), rng.Intn(n)
		if a != b {
			edges = append(edges, [3]int{a, b, 1 + rng.Intn(9)})
		}
	}
	return newFake(fmt.Sprintf("tree%d", seed), files, edges)
}

func FuzzScopeProperties(f *testing.F) {
	f.Add(int64(1), uint16(3000), uint8(5), uint8(0))
	f.Add(int64(7), uint16(200), uint8(20), uint8(1))
	f.Add(int64(42), uint16(60000), uint8(30), uint8(2))
	f.Add(int64(3), uint16(900), uint8(12), uint8(3))
	c4, _ := tokens.New("chars4")
	f.Fuzz(func(t *testing.T, seed int64, budget uint16, nfiles uint8, knobs uint8) {
		n := 2 + int(nfiles)%40
		w := randomWorld(seed, n)
		rng := rand.New(rand.NewSource(seed ^ 0x5eed))
		touched := ""
		for i := 0; i < 1+rng.Intn(3); i++ {
			if i > 0 {
				touched += ", "
			}
			touched += fmt.Sprintf("%q", w.g.Files[rng.Intn(n)].Path)
		}
		fe, err := testFeature("f", "## REQ-1: steps\nF001 runs step one.\n\nDesign words about steps.\n", map[string]string{
			"t": "id = \"t\"\ntitle = \"steps\"\nrequirements = [\"REQ-1\"]\nfiles_touched = [" + touched + "]\n",
		})
		if err != nil {
			t.Fatal(err)
		}
		cfg := config.Default()
		cfg.Scope.MaxHops = int(knobs) % 3
		cfg.Scope.FullLineLimit = 20 + int(knobs)*7
		cfg.Scope.FlowUnused = knobs&4 == 0
		opt := Options{Config: cfg, Budget: 1 + int(budget), Counter: c4}
		if knobs&8 != 0 {
			opt.Policy = PolicyValue
		}
		r, err := Scope(w, fe, "t", opt)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, w, r, opt)
		r2, err := Scope(w, fe, "t", opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{ManifestFile, BudgetFile, MaterialFile} {
			a, _ := r.Encode(name)
			b, _ := r2.Encode(name)
			if !bytes.Equal(a, b) {
				t.Fatalf("%s differs between runs", name)
			}
		}
	})
}

var _ = feature.Dir
