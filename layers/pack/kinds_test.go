package pack

import "testing"

func TestRequestKind(t *testing.T) {
	for _, c := range []struct {
		text string
		want reqKind
	}{
		{"cache: evict the oldest entry first", reqCommit},
		{"fix(router): keep the trailing slash\n\nThe router dropped it.", reqCommit},
		{"Add --width to the render command", reqCommit},
		{"PolyFit is not robust to missing data\n```python\nso.Plot([1, None]).add(so.PolyFit())\n```\nLinAlgError: SVD did not converge", reqBug},
		{"Crash on empty input\nTraceback (most recent call last):\n  File \"/usr/lib/python3/site-packages/pkg/mod.py\", line 3, in f\nValueError", reqBug},
		{"separability_matrix returns the wrong result for nested models; expected output differs and the test fails", reqBug},
		{"It would be nice to have an option to set the width of the bars", reqFeature},
		{"Support for reading gzip files would be great", reqFeature},
		{"the header widget", reqCommit},
	} {
		if got := requestKind(c.text); got != c.want {
			t.Errorf("%q: %v, want %v", c.text, got, c.want)
		}
	}
}

func TestKindOfFile(t *testing.T) {
	for p, want := range map[string]fileKind{
		"seaborn/_core/plot.py":                 fileSource,
		"lib/router.js":                         fileSource,
		"src/main/java/org/a/Parser.java":       fileSource,
		"src/test/java/org/a/ParserTest.java":   fileTest,
		"tests/test_plot.py":                    fileTest,
		"pkg/cache_test.go":                     fileTest,
		"src/a.spec.ts":                         fileTest,
		"CHANGELOG.md":                          fileChangelog,
		"CHANGES":                               fileChangelog,
		"docs/changelog/12345.bugfix.rst":       fileChangelog,
		"doc/whatsnew/v0.12.1.rst":              fileChangelog,
		"docs/api.rst":                          fileDocs,
		"README.md":                             fileDocs,
		"testdata/input.json":                   fileFixture,
		"test/fixtures/app/index.js":            fileFixture,
		"src/__snapshots__/render.test.ts.snap": fileFixture,
		"static/site.css":                       fileStyle,
		"package.json":                          fileBuild,
		".github/workflows/ci.yml":              fileBuild,
		"Cargo.toml":                            fileBuild,
		"examples/basic/main.go":                fileExample,
		"docs/conf.py":                          fileSource,
		"src/latest.java":                       fileSource,
	} {
		if got := kindOfFile(p); got != want {
			t.Errorf("%s: %v, want %v", p, got, want)
		}
	}
}

func TestFramesAndNames(t *testing.T) {
	text := "Traceback (most recent call last):\n" +
		"  File \"/home/u/.venv/lib/python3.11/site-packages/seaborn/_core/plot.py\", line 820, in plot\n" +
		"  File \"<stdin>\", line 1, in <module>\n" +
		"    at Object.parse (/app/node_modules/semver/classes/range.js:12:5)\n" +
		"    at org.jsoup.parser.Tokeniser.read(Tokeniser.java:60)\n" +
		"panic: x\n\tpkg/cache/lru.go:42 +0x1d\n"
	got := frames(text)
	want := []string{"/home/u/.venv/lib/python3.11/site-packages/seaborn/_core/plot.py", "<stdin>",
		"/app/node_modules/semver/classes/range.js", "org/jsoup/parser/Tokeniser.java", "pkg/cache/lru.go"}
	if len(got) != len(want) {
		t.Fatalf("frames %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("frame %d: %q, want %q", i, got[i], want[i])
		}
	}
	tf := newTreeFiles([]string{"classes/range.js", "seaborn/_core/plot.py", "seaborn/plot.py", "src/main/java/org/jsoup/parser/Tokeniser.java",
		"astropy/io/fits/header.py", "astropy/io/fits/__init__.py", "astropy/modeling/separable.py"})
	for f, want := range map[string]string{
		want[0]: "seaborn/_core/plot.py", want[2]: "classes/range.js", want[3]: "src/main/java/org/jsoup/parser/Tokeniser.java",
	} {
		hit, _ := tf.bySuffix(f)
		if len(hit) != 1 || tf.paths[hit[0]] != want {
			t.Errorf("%s: %v, want %s", f, hit, want)
		}
	}
	if hit, _ := tf.bySuffix("<stdin>"); hit != nil {
		t.Errorf("<stdin> resolved to %v", hit)
	}
	if hit, _ := tf.bySuffix("plot.py"); hit != nil {
		t.Errorf("an ambiguous bare name resolved to %v", hit)
	}
	for name, want := range map[string]string{
		"astropy.io.fits.Header":          "astropy/io/fits/__init__.py",
		"astropy.io.fits.header.Card":     "astropy/io/fits/header.py",
		"astropy.modeling.separable":      "astropy/modeling/separable.py",
		"astropy.modeling.separable.core": "astropy/modeling/separable.py",
	} {
		hit, _ := tf.byDotted(name)
		if len(hit) != 1 || tf.paths[hit[0]] != want {
			t.Errorf("%s: %v, want %s", name, hit, want)
		}
	}
	if hit, _ := tf.byDotted("e.g"); hit != nil {
		t.Errorf("e.g resolved to %v", hit)
	}
}
