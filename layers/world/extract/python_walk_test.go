package extract

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/git-speed/git-speed/layers/world"
)

// pyOwnSample reaches the places where the Python walker reads names
// over the source and copies what goes into a fact: tuple targets at
// module level and under global, docstrings, long one-line and
// multi-line assignments, self attributes, member chains past four,
// typed receivers, with/except bindings, comprehensions, decorators.
const pyOwnSample = `"""Module doc.

More lines.
"""
import os.path
from pkg import Thing, make as mk

a, b = 1, 2
LIMIT = {"k": [1,   2, 3]}
TABLE = {
    "a": 1,
    "b": 2,
}
x: Thing = Thing()
long_name = "` + "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy" + `"

@mk()
def built():
    """Built doc."""
    global a, b
    a, b = b, a
    return Thing()

class Pool(Thing):
    """Pool doc."""
    size: int = 3

    def __init__(self, conn: Thing, n):
        self.conn = conn
        self.items = [i for i in range(n) for j in range(i)]
        self.big = {
            "k": n,
        }
        self.label = "` + "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz" + `"

    @property
    def first(self) -> "Thing":
        return self.conn.a.b.c.d.e.f

    def run(self, t: Thing):
        with Thing() as th, open(os.path.join("a", "b")) as fh:
            th.go(fh)
        try:
            t.x.y.z.w.v()
        except ValueError as e:
            e.args.count()
        for k, v in {1: 2}.items():
            mk(k, v, key=Thing)
        Thing(size=1).first.conn.go()
        super().run(t)
        return Pool(t, 1)

if __name__ == "__main__":
    built()
`

// TestPythonFactsOwnTheirStrings checks that no fact of a Python file
// shares the source's memory: the walker keys its own maps by strings
// over the source (keyText), while facts outlive the source. Each file's
// facts are rendered, its source overwritten, and the facts rendered
// again. The files: pyOwnSample, the first file of each
// testdata/python archive and, when EXTRACT_DIR is set, the Python files
// under it.
func TestPythonFactsOwnTheirStrings(t *testing.T) {
	names, srcs := []string{"sample"}, [][]byte{[]byte(pyOwnSample)}
	archives, err := filepath.Glob(filepath.Join("testdata", "python", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatal(err)
		}
		names, srcs = append(names, a), append(srcs, ar.Files[0].Data)
	}
	if os.Getenv("EXTRACT_DIR") != "" {
		paths, langs, dir := dirFiles(t)
		for j := range paths {
			if langs[j] == world.LangPython {
				names, srcs = append(names, paths[j]), append(srcs, dir[j])
			}
		}
	}
	for i, src := range srcs {
		buf := bytes.Clone(src)
		facts, err := Extract(world.LangPython, buf, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 && (len(facts.Defs) < 10 || len(facts.Refs) < 20) {
			t.Fatalf("%s: too few facts to tell anything: %d defs, %d refs", names[i], len(facts.Defs), len(facts.Refs))
		}
		want, err := json.Marshal(facts)
		if err != nil {
			t.Fatal(err)
		}
		for k := range buf {
			buf[k] = '\x01'
		}
		got, err := json.Marshal(facts)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			k := 0
			for k < len(got) && k < len(want) && got[k] == want[k] {
				k++
			}
			lo := max(k-80, 0)
			t.Errorf("%s: facts changed with the source overwritten, at byte %d:\n got %q\nwant %q", names[i], k,
				got[lo:min(k+40, len(got))], want[lo:min(k+40, len(want))])
		}
	}
}
