package formats

import (
	"slices"
	"testing"
)

// FuzzMarkdownLinks checks that the link scan finds what the mdLink
// regexp finds, the definition it replaces, on any line.
func FuzzMarkdownLinks(f *testing.F) {
	for _, s := range []string{
		"see [a](b.md) and ![i](img/x.png \"t\")",
		"[x](<a b>) [y](<) [z](<>) [w](< c.md >)",
		"[a [b](c) d](e) ![](f) !![g](h)",
		"[t](u 'title') [t](u (title)) [t](u \"no end",
		"[t](  spaced.md  ) [t](\tx\r) [t]( ) [t]()",
		"](x) [a] (b) [a](b>c) [a](b>) [a](b> \"t\")",
		"[é](ü.md) [\xff](\xfe) [a](b)[c](d)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		var want, got []string
		for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
			want = append(want, m[1]+" "+m[2])
		}
		mdLinks(l, func(image bool, target string) {
			bang := ""
			if image {
				bang = "!"
			}
			got = append(got, bang+" "+target)
		})
		if !slices.Equal(got, want) {
			t.Fatalf("links of %q: scan %q, regexp %q", l, got, want)
		}
	})
}
