package scope

import (
	"bytes"
	"math"
	"math/rand"
	"reflect"
	"testing"
)

// fill sets every exported field of v (a pointer) to a random value: nil,
// empty and full lists and maps, zero and odd numbers, strings that need
// escaping. A field added to an artifact type is filled too, so the
// comparison below fails until the encoder writes it.
func fill(rng *rand.Rand, v reflect.Value) {
	strs := []string{"", "plain", `q"uote\back`, "tab\tnl\ncr\r", "\x00\x01\x1f\b\f", "<a href=\"x\">&amp;</a>", "ünï😀", "bad\xff\xfeutf8", "line\u2028para\u2029", "x\x7fy"}
	floats := []float64{0, 1, -1, 0.5, 0.333, 1e-7, -2.5e-9, 1e21, 3e22, 123456.789, 1e20}
	switch v.Kind() {
	case reflect.String:
		v.SetString(strs[rng.Intn(len(strs))] + strs[rng.Intn(len(strs))])
	case reflect.Int, reflect.Int64:
		v.SetInt([]int64{0, 1, -3, 42, 1 << 40}[rng.Intn(5)])
	case reflect.Float64:
		v.SetFloat(floats[rng.Intn(len(floats))])
	case reflect.Bool:
		v.SetBool(rng.Intn(2) == 0)
	case reflect.Slice:
		switch rng.Intn(4) {
		case 0: // nil
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			n := 1 + rng.Intn(3)
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := 0; i < n; i++ {
				fill(rng, s.Index(i))
			}
			v.Set(s)
		}
	case reflect.Map:
		switch rng.Intn(3) {
		case 0: // nil
		default:
			m := reflect.MakeMap(v.Type())
			for i := rng.Intn(4); i > 0; i-- {
				k := reflect.New(v.Type().Key()).Elem()
				e := reflect.New(v.Type().Elem()).Elem()
				fill(rng, k)
				fill(rng, e)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(rng, v.Field(i))
			}
		}
	}
}

func sameAsJSON(t *testing.T, r *Result) {
	t.Helper()
	for name, v := range map[string]any{ManifestFile: r.Manifest, BudgetFile: r.Budget, MaterialFile: r.Material} {
		got, err := r.Encode(name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := encodeJSON(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s differs from encoding/json:\n%s\nwant\n%s", name, got, want)
		}
	}
}

// The artifacts' own encoder writes what encoding/json writes, for every
// field of every artifact type.
func TestEncodeAsJSON(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	for i := 0; i < 2000; i++ {
		var r Result
		fill(rng, reflect.ValueOf(&r.Manifest).Elem())
		fill(rng, reflect.ValueOf(&r.Budget).Elem())
		fill(rng, reflect.ValueOf(&r.Material).Elem())
		sameAsJSON(t, &r)
	}
	var zero Result
	sameAsJSON(t, &zero)
}

// A number encoding/json cannot write is an error, as it was.
func TestEncodeNaN(t *testing.T) {
	r := &Result{Manifest: Manifest{Files: []FileEntry{{Path: "a", Relevance: math.NaN()}}}}
	if _, err := r.Encode(ManifestFile); err == nil {
		t.Fatal("NaN relevance encoded")
	}
}

func FuzzEncodeAsJSON(f *testing.F) {
	f.Add("plain", 0.5, 3)
	f.Add("q\"\\\x00\u2028\xff<>&", 1e-7, -1)
	f.Add("ünï😀\t\n", 3e22, 1<<30)
	f.Fuzz(func(t *testing.T, s string, x float64, n int) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		r := &Result{
			Manifest: Manifest{Feature: s, Files: []FileEntry{{Path: s, Reason: s, Relevance: x, Tokens: n, Signals: []string{s}}}, Unlisted: n},
			Budget:   Budget{OverBudget: s, Cuts: []Cut{{Path: s, Reason: s, TokensSaved: n, Estimated: n%2 == 0}}, Inputs: map[string]string{s: s, "b": s}, Redactions: Redactions{ByRule: map[string]int{s: n}}},
			Material: Material{Task: TaskInfo{Title: s, FilesTouched: []string{s}}, Files: []File{{Path: s, Content: s, Start: n}}, Spec: []SpecItem{{Text: s}}},
		}
		sameAsJSON(t, r)
	})
}
