package pack_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/git-speed/git-speed/layers/pack"
)

const prose = "When the configuration file is missing the loader returns an empty map and the\n" +
	"caller never learns that nothing was read, so defaults silently win over what the user\n" +
	"expected. This change makes the loader report the missing file to the caller instead."

func TestStatement(t *testing.T) {
	for _, tc := range []struct {
		name, msg, want string
		ok              bool
	}{
		{"prose body", "fix: report a missing config file\n\n" + prose + "\n\nSigned-off-by: A <a@b.c>\nFixes: #12", prose, true},
		{"subject only", "fix: report a missing config file", "", false},
		{"short body", "fix: report a missing file\n\nThe loader was quiet.", "", false},
		{"changelog", "release 1.2\n\n- add a flag for the loader and the writer\n- fix the path of the cache in the reader and the writer\n- report errors of the config loader to the caller\n" +
			"- drop the old parser of the configuration files everywhere", "", false},
		{"merge quotes the PR", "Merge pull request #7 from a/b\n\nReport a missing config file\n\n" + prose, prose, true},
		{"quoted code is left out", "fix: loader\n\n" + prose + "\n\n```go\nfunc main() {}\n```\n    indented code", prose, true},
	} {
		got, ok := pack.Statement(tc.msg)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: got %q, %v", tc.name, got, ok)
		}
	}
}

// Statement reads commit messages of any repository.
func FuzzStatement(f *testing.F) {
	for _, s := range []string{"", "a", "fix\n\n" + prose, "Merge pull request #1 from x/y\n", "x\n```\n" + prose, "\xff\n\n\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		got, ok := pack.Statement(msg)
		if !ok {
			if got != "" {
				t.Fatalf("refused but returned %q", got)
			}
			return
		}
		if strings.TrimSpace(got) != got || len(got) >= len(msg) || (utf8.ValidString(msg) && !utf8.ValidString(got)) {
			t.Fatalf("statement %q of %q", got, msg)
		}
	})
}
