package formats

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
)

// fuzzExtract runs lang's extractor on src and checks that it neither
// panics (Extract would turn a panic into a warning naming it) nor gives
// facts outside the file, and that a .env value never shows.
func fuzzExtract(t *testing.T, lang, path string, src []byte) *world.Facts {
	t.Helper()
	code := func(l string, s []byte) *world.Facts { return &world.Facts{Lang: l} }
	facts, ok := Extract(lang, src, Options{Path: path, Code: code})
	if !ok {
		t.Fatalf("no extractor for %s", lang)
	}
	if strings.HasPrefix(facts.Warning, "extractor "+lang+" failed") {
		t.Fatalf("extractor %s panicked: %s", lang, facts.Warning)
	}
	for _, d := range facts.Defs {
		if d.Start < 1 || d.End < d.Start || d.End > max(facts.Lines, 1) {
			t.Fatalf("%s: def %q lines %d-%d outside 1-%d", lang, d.Qualified, d.Start, d.End, facts.Lines)
		}
	}
	for _, im := range facts.Imports {
		if im.Line < 1 || im.Line > max(facts.Lines, 1) {
			t.Fatalf("%s: import %q line %d outside 1-%d", lang, im.Path, im.Line, facts.Lines)
		}
	}
	for _, r := range facts.Refs {
		if r.In < 0 || r.In > len(facts.Defs) {
			t.Fatalf("%s: ref %q in %d of %d defs", lang, r.Name, r.In, len(facts.Defs))
		}
	}
	return facts
}

// seeds are malformed and hostile inputs every fuzz target starts from.
var seeds = []string{"", "\x00\x01\x02\xff\xfe", "\xc3\x28 invalid utf-8 \xa0\xa1", strings.Repeat("{[", 2000), "\n\n\n"}

func addSeeds(f *testing.F, extra ...string) {
	for _, s := range append(seeds, extra...) {
		f.Add([]byte(s))
	}
}

func FuzzJSON(f *testing.F) {
	addSeeds(f, `{"a": {"b": [1, {"c": "d"}]}, "dependencies": {"x": "1"}}`, `{"a": `, `[1, 2,]`, `{"a": 1} {"b": 2}`, `// c
{"a": /* x */ 1,}`)
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzExtract(t, "json", "package.json", src)
		fuzzExtract(t, "jupyter", "n.ipynb", src)
		fuzzExtract(t, "lockfile", "package-lock.json", src)
		fuzzExtract(t, "lockfile", "composer.lock", src)
	})
}

func FuzzYAML(f *testing.F) {
	addSeeds(f, "a: 1\nb:\n  - c: 2\n    d: [x, y]\n", "a: [1\n", "--- !tag &a\nk: *a\n<<: *a\n", "on: push\njobs:\n  b:\n    steps:\n      - uses: x@v1\n    needs: [a]\n",
		"include:\n  - project: p\n    file: [a]\njob:\n  extends: .t\n  needs:\n    - job: x\n", "? complex\n: value\n", "a: |\n  text\n b: 1",
		"\r0:", "a: 1\rb:\r  c: 2\r") // lone CRs: line breaks to the YAML parser, not to the file's line count
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzExtract(t, "yaml", "a.yaml", src)
		fuzzExtract(t, "github-actions", ".github/workflows/ci.yml", src)
		fuzzExtract(t, "gitlab-ci", ".gitlab-ci.yml", src)
		fuzzExtract(t, "lockfile", "pnpm-lock.yaml", src)
	})
}

func FuzzTOML(f *testing.F) {
	addSeeds(f, "[a]\nb = 1\n[[c]]\nd = \"e\"\n", "a = \n", "[dependencies]\nx = { version = \"1\" }\n[dependencies.y]\n", "a.b.c = [1, [2, {x = 3}]]\n", "[[package]]\nname = \"x\"\nversion = \"1\"\n")
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzExtract(t, "toml", "Cargo.toml", src)
		fuzzExtract(t, "toml", "pyproject.toml", src)
		fuzzExtract(t, "lockfile", "Cargo.lock", src)
	})
}

func FuzzXML(f *testing.F) {
	addSeeds(f, `<?xml version="1.0"?><a id="x"><b name="y"/><include href="z.xml"/></a>`, `<a><b></a>`, `<a attr=>`, `<!DOCTYPE x [<!ENTITY e "v">]><a>&e;</a>`, "<a>\n<dependency><groupId>g</groupId><artifactId>a</artifactId></dependency></a>")
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzExtract(t, "xml", "pom.xml", src)
	})
}

func FuzzHTML(f *testing.F) {
	addSeeds(f, `<html><head><title>T</title><script src="a.js"></script></head><body><main id="m"><h1>H</h1></main><script>function f(){}</script></body></html>`, `<div id="x"><nav>`, `</p></p><h2>`, `<script>`, `<style>a{`)
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzExtract(t, "html", "index.html", src)
	})
}

func FuzzMarkdown(f *testing.F) {
	addSeeds(f, "# A\n## B\ntext [l](a.md)\n### C\n", "---\ntitle: x\n", "```\n# no\n", "Title\n===\nSub\n---\n", "[r]: ./x.md\n![i](i.png)\n", "import X from './x'\n# H")
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzExtract(t, "markdown", "README.md", src)
	})
}

func FuzzLineFormats(f *testing.F) {
	addSeeds(f, "A=1\nexport B=\"x\ny\"\n# C=2\n", "ERROR x\nWARN y\nlevel=error z\n", "a@^1:\n  version \"1\"\n", "GEM\n  specs:\n    a (1)\n\nDEPENDENCIES\n  a\n",
		"<template><X/></template>\n<script lang=\"ts\">\nlet a = 1\n", "---\nconst a = 1\n---\n<A/>", "<script>\n")
	f.Fuzz(func(t *testing.T, src []byte) {
		facts := fuzzExtract(t, "env", ".env", src)
		for _, d := range facts.Defs {
			if d.Signature != d.Name+"="+Redacted || d.Doc != "" {
				t.Fatalf(".env def %q shows more than its key: %q", d.Name, d.Signature)
			}
		}
		fuzzExtract(t, "log", "app.log", src)
		fuzzExtract(t, "lockfile", "yarn.lock", src)
		fuzzExtract(t, "lockfile", "Gemfile.lock", src)
		fuzzExtract(t, "lockfile", "", src)
		fuzzExtract(t, "vue", "a.vue", src)
		fuzzExtract(t, "svelte", "a.svelte", src)
		fuzzExtract(t, "astro", "a.astro", src)
	})
}

// docxBytes zips files into a DOCX-shaped archive.
func docxBytes(t testing.TB, files map[string]string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func FuzzDOCX(f *testing.F) {
	addSeeds(f, "PK\x03\x04 not really a zip")
	f.Add(docxBytes(f, map[string]string{"word/document.xml": `<w:document xmlns:w="w"><w:body><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>A</w:t></w:r></w:p></w:body></w:document>`}))
	f.Add(docxBytes(f, map[string]string{"word/document.xml": `<w:document><w:body><w:p><w:r><w:t>unterminated`}))
	f.Add(docxBytes(f, map[string]string{"other.xml": "<a/>"}))
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzExtract(t, "docx", "a.docx", src)
	})
}

func FuzzPDF(f *testing.F) {
	addSeeds(f, "%PDF-1.4\n", "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\nstartxref\n9\n%%EOF\n")
	f.Add(minimalPDF("(Hello) Tj", false))
	f.Add(minimalPDF("(Hello) Tj", true)[:200])
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzExtract(t, "pdf", "a.pdf", src)
	})
}
