package main

import (
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestInterspersed(t *testing.T) {
	app := newApp(io.Discard, io.Discard)
	for _, tc := range []struct{ in, want string }{
		{"git-speed scope F T --json", "git-speed scope --json F T"},
		{"git-speed --speed-dir x scope F T --budget 100 --json", "git-speed --speed-dir x scope --budget 100 --json F T"},
		{"git-speed render developer F T --log f.txt --out=o.md", "git-speed render --log f.txt --out=o.md developer F T"},
		{"git-speed hooks install --force", "git-speed hooks install --force"},
		{"git-speed map --focus a.go --mention X", "git-speed map --focus a.go --mention X"},
		{"git-speed symbols -- -weird --json", "git-speed symbols -- -weird --json"},
		{"git-speed hook post-checkout a b 1", "git-speed hook post-checkout a b 1"},
		{"git-speed nosuch --x y", "git-speed nosuch --x y"},
		{"git-speed render developer F T --session", "git-speed render --session=current developer F T"},
		{"git-speed render developer F T --session --json", "git-speed render --session=current --json developer F T"},
		{"git-speed render developer F T --session s1", "git-speed render --session s1 developer F T"},
		{"git-speed context --session -- x", "git-speed context --session=current -- x"},
	} {
		got := interspersed(app, strings.Fields(tc.in))
		if !reflect.DeepEqual(got, strings.Fields(tc.want)) {
			t.Errorf("%s\n got %s\nwant %s", tc.in, strings.Join(got, " "), tc.want)
		}
	}
}
