package pack

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// parseQuery reads whatever a user or an agent sends: any text is a
// query or one sentence of error, the terms are capped, and what was cut
// is said.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"fix the cache eviction in cache/lru.go", "", "the of", "parseHTTPRequest_v2()", "\x00\xff", "a.b.c/d..go",
		"--width 1 --range 3", "Traceback (most recent call last):\n  File \"a/b.py\", line 3, in load_config\n    raise KeyError('x')\nKeyError: 'x'",
		"#0 0x00007f3a2b1c in ?? ()", "at Object.parse (lib/parse.js:10:5)", "```go\nfunc main() {}\n```\nwhy", strings.Repeat("word ", 100) + "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := parseQuery(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: an error of more than one line: %v", s, err)
			}
			return
		}
		if !utf8.ValidString(s) || len(q.terms) > MaxQueryTerms || len(q.terms)+len(q.mentions) == 0 || len(q.mentions) > maxMentions {
			t.Fatalf("accepted %q: %+v", s, q)
		}
		if q.read.Bytes != len(s) || q.read.Used != len(q.terms) || q.read.Terms < q.read.Used || (q.read.Terms > MaxQueryTerms) != (q.read.Cut != "") {
			t.Fatalf("%q: read %+v", s, q.read)
		}
	})
}
