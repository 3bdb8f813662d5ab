// Package pathglob owns the one glob language of git-speed's settings and
// rule files: index.ignore, secrets.allow and the **Files** globs of
// security rules all match repository paths through Match, so a glob means
// the same thing wherever a user writes it.
//
// A glob is matched part by part against a slash-separated path relative to
// the repository's top, and it may match the path's end: "*.pb.go",
// "gen/*.go" and "testdata/**" match at any depth. Within a part,
// path.Match's syntax applies ("*" never crosses a slash); a part "**"
// stands for any number of folders, none included, so "dir/**" is dir and
// everything below it and "a/**/b.go" is a/b.go, a/x/b.go, a/x/y/b.go; a
// "**" inside a longer part is a "*".
package pathglob

import (
	"fmt"
	"path"
	"strings"
)

// Valid returns an error saying what is wrong with glob g, or nil.
func Valid(g string) error {
	if g == "" {
		return fmt.Errorf("empty glob")
	}
	for _, part := range strings.Split(g, "/") {
		if _, err := path.Match(star(part), ""); err != nil {
			return fmt.Errorf("bad glob %q: %v", g, err)
		}
	}
	return nil
}

// Match reports whether glob g matches path p or an ending of p that starts
// after a slash. A malformed glob matches nothing.
func Match(g, p string) bool {
	if g == "" {
		return false
	}
	gs := append([]string{"**"}, strings.Split(g, "/")...)
	ps := strings.Split(p, "/")
	// ok[j] after row i: gs[i:] matches ps[j:]. Filled from the end, so the
	// cost is len(gs)*len(ps) matches whatever the number of "**".
	ok := make([]bool, len(ps)+1)
	ok[len(ps)] = true
	next := make([]bool, len(ps)+1)
	for i := len(gs) - 1; i >= 0; i-- {
		for j := len(ps); j >= 0; j-- {
			switch {
			case gs[i] == "**":
				next[j] = ok[j] || (j < len(ps) && next[j+1])
			case j == len(ps):
				next[j] = false
			default:
				m, err := path.Match(star(gs[i]), ps[j])
				next[j] = err == nil && m && ok[j+1]
			}
		}
		ok, next = next, ok
	}
	return ok[0]
}

// star reads a "**" inside a part as "*".
func star(part string) string {
	return strings.ReplaceAll(part, "**", "*")
}
