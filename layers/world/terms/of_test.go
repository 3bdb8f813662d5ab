package terms

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
)

// Of's content pass, which splits each distinct token once, gives the
// vector a plain word-by-word pass gives.
func TestOfCountsLikeWordByWord(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "strings", "*.go"))
	if len(files) == 0 {
		t.Skip("no GOROOT sources")
	}
	for _, f := range files[:min(8, len(files))] {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := acc{}
		Words(src, func(tok string) { want.addWord(tok, Content) })
		var w []world.Term
		for _, e := range want {
			w = append(w, *e)
		}
		got := Of(nil, src)
		if len(got) != len(w) {
			t.Fatalf("%s: %d terms, want %d", f, len(got), len(w))
		}
		byText := map[string]world.Term{}
		for _, e := range w {
			byText[e.Text] = e
		}
		for _, e := range got {
			if !reflect.DeepEqual(e, byText[e.Text]) {
				t.Fatalf("%s: term %+v, want %+v", f, e, byText[e.Text])
			}
		}
	}
}
