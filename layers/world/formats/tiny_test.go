package formats

import (
	"maps"
	"slices"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/worldtest"
)

// TestEveryExtractorTakesTinyFiles: every format's extractor takes an
// empty file, a lone line break, character or NUL without a panic (an
// empty Perl file once panicked).
func TestEveryExtractorTakesTinyFiles(t *testing.T) {
	langs := slices.Sorted(maps.Keys(registry))
	if len(langs) < 20 {
		t.Fatalf("only %d extractors registered", len(langs))
	}
	worldtest.TinyFiles(t, langs, func(lang string, src []byte) *world.Facts {
		facts, ok := Extract(lang, src, Options{Path: "x"})
		if !ok {
			t.Fatalf("%s: no extractor", lang)
		}
		return facts
	})
}
