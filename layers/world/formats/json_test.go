package formats

import (
	"strings"
	"testing"
)

// FuzzJSONScalar checks jsonScalar's reading of the source against the
// string trims it was first written with.
func FuzzJSONScalar(f *testing.F) {
	for _, s := range []string{`: "a"`, ", 12", ":\n true", " \u00a0\"x\"\u2003", ":", "\"multi\nline\"", "\xff:\xfe"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s := strings.TrimLeft(strings.TrimSpace(string(src)), ":, \t\r\n")
		want := "null"
		if s != "" && !strings.Contains(s, "\n") {
			want = s
		}
		if got := jsonScalar(src, 0, int64(len(src)), nil); got != want {
			t.Fatalf("jsonScalar(%q) = %q, want %q", src, got, want)
		}
	})
}
