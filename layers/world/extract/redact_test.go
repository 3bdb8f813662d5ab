package extract

import (
	"encoding/json"
	"sort"
	"testing"

	"github.com/git-speed/git-speed/internal/redact/redacttest"
	"github.com/git-speed/git-speed/layers/world"
)

// Facts store no secret: every file of the seeded corpus that has an
// extractor gives facts (names, signatures, doc lines, imports, references,
// skeleton) free of every planted secret, and line numbers that still fit
// the file.
func TestFactsHoldNoSecret(t *testing.T) {
	files, secrets := redacttest.Corpus()
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	extracted := 0
	for _, p := range paths {
		src := []byte(files[p])
		lang := world.DetectLang(p, src)
		if !Supported(lang) {
			continue
		}
		facts, err := Extract(lang, src, Options{Path: p})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		extracted++
		b, err := json.Marshal(facts)
		if err != nil {
			t.Fatal(err)
		}
		if leaks := redacttest.Leaks(string(b), secrets); len(leaks) > 0 {
			t.Errorf("%s (%s): facts hold %v:\n%s", p, lang, leaks, b)
		}
		if facts.Lines != countLines(src) {
			t.Errorf("%s: %d lines in facts, %d in the file", p, facts.Lines, countLines(src))
		}
	}
	if extracted < 5 {
		t.Errorf("only %d corpus files have an extractor", extracted)
	}
}
