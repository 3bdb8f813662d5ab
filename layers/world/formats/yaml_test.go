package formats

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// yamlWalkPlainly is yamlWalk as first written (every test through
// yamlPairs and yamlItems), the oracle of FuzzYAMLWalk.
func yamlWalkPlainly(out *outline, n ast.Node, p string, depth int) {
	if depth > maxOutlineDepth {
		return
	}
	if items := yamlItems(n); items != nil {
		for i, it := range items {
			if i >= 50 {
				break
			}
			if yamlPairs(it) != nil {
				yamlWalkPlainly(out, it, p+"["+strconv.Itoa(i)+"]", depth)
			}
		}
		return
	}
	for _, mv := range yamlPairs(n) {
		k := yamlKey(mv)
		if k == "" || k == "<<" {
			continue
		}
		e := keyEntry{name: k, path: joinPath(p, k), parent: p, depth: depth, start: yamlLine(mv.Key)}
		v := yamlUnwrap(mv.Value)
		_, seq := v.(*ast.SequenceNode)
		switch {
		case yamlPairs(v) != nil:
			e.shape = "{…}"
		case yamlItems(v) != nil || seq:
			e.shape = "[" + strconv.Itoa(len(yamlItems(v))) + "]"
		default:
			e.value = shownValue(k, yamlScalar(v))
		}
		if e.start == 0 {
			continue
		}
		if out.add(e) < 0 {
			return
		}
		if e.shape != "" {
			yamlWalkPlainly(out, v, e.path, depth+1)
		}
	}
}

// FuzzYAMLWalk checks that yamlWalk collects what the plain walk does.
func FuzzYAMLWalk(f *testing.F) {
	for _, s := range []string{"a: 1\nb:\n  - c: 2\n    d: [x, y]\n", "a: {}\nb: []\nc: !t {}\nd: &x []\ne: !t &y {k: v}\n",
		"--- !tag &a\nk: *a\n<<: *a\n", "? complex\n: value\n", "a: |\n  text\nb: \"q\\n\"\nc: 'x'\npassword: hunter2\n",
		"- a: 1\n- [b]\n- c: {d: {e: {f: {g: {h: 1}}}}}\n", "a: !!map\n  b: !!seq\n  - 1\n", "k: !a !b {x: 1}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := parser.ParseBytes(src, 0)
		if err != nil || file == nil {
			return
		}
		var got, want outline
		for _, d := range file.Docs {
			if d == nil || d.Body == nil {
				continue
			}
			yamlWalk(&got, d.Body, "", 0)
			yamlWalkPlainly(&want, d.Body, "", 0)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("yamlWalk collected\n%+v\nwant\n%+v", got, want)
		}
	})
}
