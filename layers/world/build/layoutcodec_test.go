package build

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/graph"
)

// testLayout is the layout of a small tree with two modules, a vendor/
// folder and folders importing each other.
func testLayout() *graph.GoLayout {
	files := []string{"go.mod", "a/a.go", "a/b/b.go", "tools/go.mod", "tools/t.go", "vendor/x.org/y/y.go", "c/c.go"}
	imports := map[string][]world.Import{
		"a/a.go":     {{Path: "example.com/m/a/b"}, {Path: "x.org/y"}},
		"tools/t.go": {{Path: "example.com/m/a"}, {Path: "fmt"}},
		"c/c.go":     {{Path: "a/b"}},
	}
	mods := map[string]string{"go.mod": "module example.com/m\n", "tools/go.mod": "module example.com/tools\n"}
	in := graph.Input{Read: func(p string) ([]byte, error) { return []byte(mods[p]), nil }}
	for _, p := range files {
		in.Files = append(in.Files, world.FileEntry{Path: p})
		var l *world.Link
		if p[len(p)-3:] == ".go" {
			l = &world.Link{Lang: world.LangGo, Package: "p", Imports: imports[p]}
		}
		in.Links = append(in.Links, l)
	}
	return graph.NewGoLayout(in)
}

// TestLayoutCodec: the layout reads back as it was, from its binary form
// and from the JSON that stores written before it hold; equal layouts
// encode to equal bytes.
func TestLayoutCodec(t *testing.T) {
	lay := testLayout()
	if len(lay.Uses) == 0 || len(lay.Mods) != 2 {
		t.Fatalf("the fixture's layout has no uses or not two modules: %+v", lay)
	}
	b := encodeLayout(lay)
	got, err := decodeLayoutShard(b)
	if err != nil || !reflect.DeepEqual(got, lay) {
		t.Fatalf("decode = %+v, %v; want %+v", got, err, lay)
	}
	if again := encodeLayout(got); !bytes.Equal(again, b) {
		t.Fatal("a decoded layout encodes to other bytes")
	}
	js, err := json.Marshal(lay)
	if err != nil {
		t.Fatal(err)
	}
	old, err := decodeLayoutShard(js)
	if err != nil || !reflect.DeepEqual(old, lay) {
		t.Fatalf("decode of JSON = %+v, %v; want %+v", old, err, lay)
	}
	for _, bad := range [][]byte{nil, b[:len(b)-1], append(append([]byte(nil), b...), 0), {'{', '"'}} {
		if _, err := decodeLayoutShard(bad); err == nil {
			t.Errorf("decode of %d damaged bytes succeeded", len(bad))
		}
	}
}

// FuzzLayoutShard: arbitrary bytes decode to a layout or an error, and a
// decoded layout encodes to bytes that decode to it again.
func FuzzLayoutShard(f *testing.F) {
	f.Add(encodeLayout(testLayout()))
	f.Add(encodeLayout(&graph.GoLayout{}))
	f.Add([]byte(`{"dirs":["a"],"uses":{"a":[0]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		lay, err := decodeLayoutShard(b)
		if err != nil {
			return
		}
		again, err := decodeLayoutShard(encodeLayout(lay))
		if err != nil || !reflect.DeepEqual(normal(again), normal(lay)) {
			t.Fatalf("%+v encodes to a layout that reads as %+v, %v", lay, again, err)
		}
	})
}

// normal makes the empty parts of a layout nil (JSON may give them
// empty, the binary form nil, or the other way round).
func normal(l *graph.GoLayout) *graph.GoLayout {
	c := graph.GoLayout{}
	if len(l.Dirs) > 0 {
		c.Dirs = l.Dirs
	}
	if len(l.Mods) > 0 {
		c.Mods = l.Mods
	}
	for k, v := range l.Uses {
		if c.Uses == nil {
			c.Uses = map[string][]int{}
		}
		if len(v) == 0 {
			v = nil
		}
		c.Uses[k] = v
	}
	return &c
}
