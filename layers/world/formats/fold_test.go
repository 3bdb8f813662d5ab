package formats

import (
	"strings"
	"testing"
)

// foldByLines is FoldBlankLines written plainly, line by line.
func foldByLines(text string) string {
	var out []string
	blank := true
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if l == "" {
			if !blank {
				out = append(out, "")
			}
			blank = true
			continue
		}
		blank = false
		out = append(out, l)
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n")
}

func TestFoldBlankLines(t *testing.T) {
	for in, want := range map[string]string{
		"":                       "",
		"\n\n":                   "",
		"a":                      "a",
		"\n\na  \n\n\n\tb\t\r\n": "a\n\n\tb",
		"a\r\n\r\n \nb\n":        "a\n\nb",
	} {
		if got := FoldBlankLines(in); got != want {
			t.Errorf("FoldBlankLines(%q) = %q, want %q", in, got, want)
		}
		if got := string(AppendFoldBlankLines([]byte("x\n"), []byte(in))); got != "x\n"+want {
			t.Errorf("AppendFoldBlankLines(x, %q) = %q", in, got)
		}
	}
}

func FuzzFoldBlankLines(f *testing.F) {
	for _, s := range []string{"", "a\n\n\nb", " \n\t\r\nx \n", "\n\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := FoldBlankLines(s), foldByLines(s); got != want {
			t.Fatalf("FoldBlankLines(%q) = %q, want %q", s, got, want)
		}
	})
}
