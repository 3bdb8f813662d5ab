package extract

import (
	"strings"
	"testing"
)

// FuzzFoldSpace checks foldSpace against strings.Fields joined by spaces.
func FuzzFoldSpace(f *testing.F) {
	for _, s := range []string{"", " ", "func f(a int) error", "func f(\n\ta int,\n) error ", " a  b ", "a\tb", "a \nb",
		"x\u00a0y", "x\u0085 y", "é  ü", "\v\f\r", "a b c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := foldSpace(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("foldSpace(%q) = %q, want %q", s, got, want)
		}
	})
}
