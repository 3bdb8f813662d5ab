package extract

import (
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// goldenInputs returns the input file of every golden of lang.
func goldenInputs(t testing.TB, lang string) [][]byte {
	files, _ := filepath.Glob(filepath.Join("testdata", lang, "*.txtar"))
	sort.Strings(files)
	var out [][]byte
	for _, p := range files {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(ar.Files) > 0 {
			out = append(out, ar.Files[0].Data)
		}
	}
	return out
}

// FuzzExtractMore checks that the extractors of moreLangs
// never panic, keep every line number in range and are deterministic.
func FuzzExtractMore(f *testing.F) {
	for i, lang := range moreLangs {
		for _, src := range goldenInputs(f, lang) {
			f.Add(uint8(i), src)
		}
		f.Add(uint8(i), []byte("{\n}\n)(\"'\n<# #\n[x\n"))
	}
	f.Fuzz(func(t *testing.T, li uint8, src []byte) {
		lang := moreLangs[int(li)%len(moreLangs)]
		a, err := extractMore(lang, src)
		if err != nil {
			t.Fatal(err)
		}
		if a.Warning != "" && strings.Contains(a.Warning, "failed") {
			t.Fatalf("%s: extractor panicked: %s", lang, a.Warning)
		}
		checkFacts(t, lang, src, a)
		b, _ := extractMore(lang, src)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: two extractions differ", lang)
		}
	})
}
