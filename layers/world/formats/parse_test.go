package formats

import "testing"

// Parse runs a parser for the formats whose extractors read a file with
// one, and only for those; malformed input is parsed (and rejected) too.
func TestParse(t *testing.T) {
	for lang := range parsers {
		if !Supported(lang) {
			t.Errorf("%s has a parser but no extractor", lang)
		}
	}
	for _, c := range []struct {
		lang, src string
		ok        bool
	}{
		{"yaml", "a: 1\nb: [2, 3]\n", true},
		{"yaml", "a: [1, 2\n", true},
		{"github-actions", "on: push\njobs:\n  build: {}\n", true},
		{"json", "{\"a\": [1, 2], // c\n \"b\": null}", true},
		{"jupyter", "{\"cells\": []}", true},
		{"xml", "<a><b x='1'/></a>", true},
		{"toml", "[a]\nb = 1\n", true},
		{"toml", "[a\n", true},
		{"markdown", "# T\n", false},
		{"dockerfile", "FROM x\n", false},
	} {
		if got := Parse(c.lang, []byte(c.src)); got != c.ok {
			t.Errorf("Parse(%s, %q) = %v, want %v", c.lang, c.src, got, c.ok)
		}
	}
}
