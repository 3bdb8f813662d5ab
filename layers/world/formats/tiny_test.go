package formats

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestEveryExtractorTakesTinyFiles: an empty file, a lone line break, a
// lone character or NUL is extracted by every extractor of a format
// without a panic (which the recovery turns into a warning and no facts).
// An empty Perl file once did panic.
func TestEveryExtractorTakesTinyFiles(t *testing.T) {
	langs := slices.Sorted(maps.Keys(registry))
	if len(langs) < 20 {
		t.Fatalf("only %d extractors registered", len(langs))
	}
	for _, lang := range langs {
		for _, src := range []string{"", "\n", "\r\n", " ", "x", "\x00", "{", "\"", "#", "-"} {
			facts, ok := Extract(lang, []byte(src), Options{Path: "x"})
			if !ok {
				t.Fatalf("%s: no extractor", lang)
			}
			if strings.HasPrefix(facts.Warning, "extractor ") {
				t.Errorf("%s, %q: %s", lang, src, facts.Warning)
			}
		}
	}
}
