package extract

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/redact"
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

// BenchmarkExtractRedaction measures what redaction adds to extraction:
// net/http's Go files from GOROOT, extracted with the default rules and
// with every path allow-listed (no redaction at all).
func BenchmarkExtractRedaction(b *testing.B) {
	dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	ents, err := os.ReadDir(dir)
	if err != nil {
		b.Skip("no GOROOT source")
	}
	var srcs [][]byte
	size := 0
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".go") {
			src, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err == nil {
				srcs = append(srcs, src)
				size += len(src)
			}
		}
	}
	off, err := redact.New(nil, []string{"**"})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		r    *redact.Redactor
	}{{"redacted", redact.Default()}, {"no-redaction", off}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for i := 0; i < b.N; i++ {
				for _, src := range srcs {
					if _, err := Extract(world.LangGo, src, Options{Path: "net/http/x.go", Redact: c.r}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
