package pack

import (
	"testing"
	"unicode/utf8"
)

// parseQuery reads whatever a user or an agent sends.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"fix the cache eviction in cache/lru.go", "", "the of", "parseHTTPRequest_v2()", "\x00\xff", "a.b.c/d..go"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := parseQuery(s)
		if err != nil {
			return
		}
		if !utf8.ValidString(s) || len(q.terms) > MaxQueryTerms || len(q.terms)+len(q.mentions) == 0 {
			t.Fatalf("accepted %q: %+v", s, q)
		}
	})
}
