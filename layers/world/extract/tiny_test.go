package extract

import (
	"maps"
	"slices"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/worldtest"
)

// TestEveryExtractorTakesTinyFiles: every tree-sitter extractor takes an
// empty file, a lone line break, character or NUL without a panic.
func TestEveryExtractorTakesTinyFiles(t *testing.T) {
	langs := slices.Sorted(maps.Keys(registry))
	if len(langs) < 15 {
		t.Fatalf("only %d extractors registered", len(langs))
	}
	worldtest.TinyFiles(t, langs, func(lang string, src []byte) *world.Facts {
		facts, err := Extract(lang, src, Options{Path: "x"})
		if err != nil {
			t.Fatalf("%s, %q: %v", lang, src, err)
		}
		return facts
	})
}
