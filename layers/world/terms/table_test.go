package terms

import (
	"fmt"
	"testing"
)

// A table holds what a map does, across growth and resets (emptying by
// generation, and giving its memory up past keep).
func TestTableLikeMap(t *testing.T) {
	var tb table
	for round := 0; round < 5; round++ {
		want := map[string]int32{}
		n := 50 + round*3000
		for i := 0; i < n; i++ {
			k := fmt.Sprintf("k%d_%d", i%(n/2+1), round)
			p, found := tb.upsert([]byte(k))
			v, ok := want[k]
			if found != ok || found && *p != v {
				t.Fatalf("round %d: %q found %v value %d, want %v %d", round, k, found, *p, ok, v)
			}
			*p = int32(i)
			want[k] = int32(i)
		}
		if tb.n != len(want) {
			t.Fatalf("round %d: %d keys, want %d", round, tb.n, len(want))
		}
		tb.reset(4000)
		if p, found := tb.upsert([]byte(fmt.Sprintf("k0_%d", round))); found || *p != 0 {
			t.Fatalf("round %d: a key survived reset", round)
		}
		tb.reset(4000)
	}
}
