package worldtest

import (
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
)

// tinyFiles are files too small to hold anything an extractor looks for,
// and two that once panicked one (an empty Perl file, Python's "A.()0").
var tinyFiles = []string{"", "\n", "\r\n", " ", "x", "\x00", "{", "\"", "#", "-", "A.()0"}

// TinyFiles has extract, an extractor package's entry point, extract each
// of a few tiny files as each of langs, and fails the test on a panic,
// which the packages' recovery turns into a warning ("extractor L failed:
// …; no facts").
func TinyFiles(t *testing.T, langs []string, extract func(lang string, src []byte) *world.Facts) {
	t.Helper()
	for _, lang := range langs {
		for _, src := range tinyFiles {
			if w := extract(lang, []byte(src)).Warning; strings.Contains(w, " failed: ") {
				t.Errorf("%s, %q: %s", lang, src, w)
			}
		}
	}
}
