package extract

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestEveryExtractorTakesTinyFiles: an empty file, a lone line break, a
// lone character or NUL is extracted by every tree-sitter extractor
// without a panic (which the recovery turns into a warning and no facts).
func TestEveryExtractorTakesTinyFiles(t *testing.T) {
	langs := slices.Sorted(maps.Keys(registry))
	if len(langs) < 15 {
		t.Fatalf("only %d extractors registered", len(langs))
	}
	for _, lang := range langs {
		for _, src := range []string{"", "\n", "\r\n", " ", "x", "\x00", "{", "\"", "#", "-", "A.()0"} {
			facts, err := Extract(lang, []byte(src), Options{Path: "x"})
			if err != nil {
				t.Fatalf("%s, %q: %v", lang, src, err)
			}
			if strings.Contains(facts.Warning, "failed") {
				t.Errorf("%s, %q: %s", lang, src, facts.Warning)
			}
		}
	}
}
