package pathglob

import (
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	cases := []struct {
		glob, path string
		want       bool
	}{
		{"*.pb.go", "api/v1/x.pb.go", true},
		{"*.pb.go", "x.pb.go", true},
		{"*.go", "a/b.gox", false},
		{"gen/*.go", "pkg/gen/a.go", true},
		{"gen/*.go", "pkg/gen/sub/a.go", false},
		{"gen/*.go", "pkg/xgen/a.go", false},
		{"testdata/**", "testdata", true},
		{"testdata/**", "a/testdata/b/c.txt", true},
		{"testdata/**", "a/testdatax/c.txt", false},
		{"a/b/**", "x/a/b/c", true},
		{"a/b/**", "a/c/b/d", false},
		{"a/**/b.go", "a/b.go", true},
		{"a/**/b.go", "a/x/y/b.go", true},
		{"a/**/b.go", "a/x/y/c.go", false},
		{"**/*.min.js", "web/x.min.js", true},
		{"**", "anything/at/all", true},
		{"foo**bar", "fooxbar", true},
		{"foo**bar", "foo/bar", false},
		{"[", "[", false},
		{"", "a", false},
		{"vendor/**", "vendor", true},
		{"docs/*.md", "docs/a.md", true},
	}
	for _, c := range cases {
		if got := Match(c.glob, c.path); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.glob, c.path, got, c.want)
		}
	}
}

func TestValid(t *testing.T) {
	for _, g := range []string{"*.go", "a/**", "**/x", "[a-z]*.py"} {
		if err := Valid(g); err != nil {
			t.Errorf("Valid(%q) = %v", g, err)
		}
	}
	for _, g := range []string{"", "[", "a/[z-a/b"} {
		if err := Valid(g); err == nil {
			t.Errorf("Valid(%q) = nil, want an error", g)
		}
	}
}

// FuzzMatch checks that Match ends quickly on any input, never panics, and
// that a glob always matches the path it spells when it has no special
// characters.
func FuzzMatch(f *testing.F) {
	for _, s := range [][2]string{{"a/**/b", "a/x/b"}, {"**/**/**/**/**/x", strings.Repeat("a/", 40) + "y"}, {"[", "["}, {"*.go", "x.go"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, g, p string) {
		Match(g, p)
		if g != "" && !strings.ContainsAny(g, `*?[\`) && !strings.HasPrefix(g, "/") && !strings.HasSuffix(g, "/") && !strings.Contains(g, "//") {
			if !Match(g, g) || !Match(g, "top/"+g) {
				t.Errorf("literal glob %q does not match itself", g)
			}
		}
	})
}
