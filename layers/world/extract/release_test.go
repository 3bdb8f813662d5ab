package extract

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
)

// Facts extracted after others were released (their reference slices
// reused) equal facts extracted without any release.
func TestReleaseKeepsFactsTheSame(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "strings", "*.go"))
	if len(files) < 4 {
		t.Skip("no GOROOT sources")
	}
	var srcs [][]byte
	for _, p := range files[:min(12, len(files))] {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, b)
	}
	var want []any
	for _, src := range srcs {
		f, err := Extract("go", src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, f)
	}
	for round := 0; round < 3; round++ {
		for i, src := range srcs {
			f, err := Extract("go", src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(any(f), want[i]) {
				t.Fatalf("round %d, %s: facts differ after releases", round, files[i])
			}
			Release(f)
			if f.Refs != nil {
				t.Fatalf("Release left Refs set")
			}
		}
	}
}
