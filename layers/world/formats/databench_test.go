package formats_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world/extract"
)

// benchInputs builds a real-shaped input of about 1 MB per format (the
// shapes of the goldens, repeated the way big files of each kind grow:
// more manifests, packages, cells, pages, log lines).
func benchInputs(b *testing.B) map[string]struct {
	path string
	src  []byte
} {
	const n = 4000
	var s strings.Builder
	out := map[string]struct {
		path string
		src  []byte
	}{}
	add := func(lang, path string, src []byte) {
		out[lang] = struct {
			path string
			src  []byte
		}{path, src}
	}

	s.WriteString("{\n  \"packages\": {\n")
	for i := range n {
		fmt.Fprintf(&s, "    \"node_modules/pkg%d\": {\n      \"version\": \"1.%d.0\",\n      \"resolved\": \"https://registry.npmjs.org/pkg%d/-/pkg%d-1.%d.0.tgz\",\n      \"dependencies\": {\"a\": \"^1\", \"b\": \"^2\"}\n    },\n", i, i, i, i, i)
	}
	s.WriteString("    \"last\": {}\n  }\n}\n")
	add("json", "data/registry.json", []byte(s.String()))
	add("lockfile", "package-lock.json", []byte(s.String()))
	s.Reset()

	for i := range n / 4 {
		fmt.Fprintf(&s, "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web%d\n  labels:\n    app: web\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: web\n          image: \"ghcr.io/acme/web:%d\"\n          env:\n            - name: MODE\n              value: prod\n", i, i)
	}
	add("yaml", "deploy/all.yaml", []byte(s.String()))
	s.Reset()

	s.WriteString("name: CI\non:\n  push:\n    branches: [main]\njobs:\n")
	for i := range n / 8 {
		fmt.Fprintf(&s, "  job%d:\n    runs-on: ubuntu-latest\n    needs: [job%d]\n    steps:\n      - uses: actions/checkout@v4\n      - name: Test %d\n        run: |\n          go test ./...\n          go vet ./...\n", i, max(i-1, 0), i)
	}
	add("github-actions", ".github/workflows/ci.yml", []byte(s.String()))
	s.Reset()

	for i := range n {
		fmt.Fprintf(&s, "[[package]]\nname = \"crate%d\"\nversion = \"0.%d.1\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"8e60d3430d3a69478ad0993f19238d2df97c507009a52b3c10addcd7f6bcb916\"\ndependencies = [\n \"memchr\",\n]\n\n", i, i)
	}
	add("toml", "vendor.toml", []byte(s.String()))
	s.Reset()

	s.WriteString("<?xml version=\"1.0\"?>\n<project>\n  <dependencies>\n")
	for i := range n {
		fmt.Fprintf(&s, "    <dependency id=\"d%d\">\n      <groupId>org.acme</groupId>\n      <artifactId>lib%d</artifactId>\n      <version>1.%d</version>\n    </dependency>\n", i, i, i)
	}
	s.WriteString("  </dependencies>\n</project>\n")
	add("xml", "pom.xml", []byte(s.String()))
	s.Reset()

	for i := range n / 2 {
		fmt.Fprintf(&s, "## Section %d\n\nSome text with a [link](docs/page%d.md) and `code`.\n\n```go\nfunc f() {}\n```\n\n### Detail %d\n\nMore text here, a paragraph long enough to look like prose in a manual.\n\n", i, i, i)
	}
	add("markdown", "docs/manual.md", []byte(s.String()))
	s.Reset()

	s.WriteString("<!doctype html>\n<html><head><title>Big</title><link rel=\"stylesheet\" href=\"a.css\"></head><body>\n")
	for i := range n / 2 {
		fmt.Fprintf(&s, "<section id=\"s%d\">\n  <h2>Part %d</h2>\n  <p>Text of the part, with <a href=\"#s%d\">a link</a>.</p>\n  <div role=\"note\">note</div>\n</section>\n", i, i, i)
	}
	s.WriteString("</body></html>\n")
	add("html", "site/big.html", []byte(s.String()))
	s.Reset()

	s.WriteString("{\"cells\": [\n")
	for i := range n / 2 {
		if i > 0 {
			s.WriteString(",\n")
		}
		if i%2 == 0 {
			fmt.Fprintf(&s, " {\"cell_type\": \"markdown\", \"metadata\": {}, \"source\": [\"## Step %d\\n\", \"\\n\", \"Explains the step.\"]}", i)
		} else {
			fmt.Fprintf(&s, " {\"cell_type\": \"code\", \"metadata\": {}, \"outputs\": [], \"source\": [\"import os\\n\", \"def step%d(x):\\n\", \"    return os.path.join(x, 'a')\\n\"]}", i)
		}
	}
	s.WriteString("\n], \"metadata\": {\"kernelspec\": {\"name\": \"python3\", \"language\": \"python\"}}, \"nbformat\": 4}\n")
	add("jupyter", "nb/big.ipynb", []byte(s.String()))
	s.Reset()

	for i := range n * 4 {
		fmt.Fprintf(&s, "SERVICE_%d_URL=https://svc%d.internal.example.com/api\n", i, i)
	}
	add("env", ".env", []byte(s.String()))
	s.Reset()

	for i := range n * 4 {
		switch i % 10 {
		case 3:
			fmt.Fprintf(&s, "2026-11-20T10:%02d:%02dZ ERROR db: connection refused (attempt %d)\n", i/60%60, i%60, i)
		case 7:
			fmt.Fprintf(&s, "2026-11-20T10:%02d:%02dZ WARN slow query took %dms\n", i/60%60, i%60, i)
		default:
			fmt.Fprintf(&s, "2026-11-20T10:%02d:%02dZ INFO request handled path=/api/v1/items/%d status=200\n", i/60%60, i%60, i)
		}
	}
	add("log", "logs/app.log", []byte(s.String()))
	s.Reset()

	s.WriteString("<template>\n  <div>\n")
	for i := range 200 {
		fmt.Fprintf(&s, "    <ItemRow :item=\"items[%d]\" @select=\"pick(%d)\" />\n", i, i)
	}
	s.WriteString("  </div>\n</template>\n\n<script setup lang=\"ts\">\nimport { ref } from 'vue'\nimport ItemRow from './ItemRow.vue'\n")
	for i := range 200 {
		fmt.Fprintf(&s, "function pick%d(n: number): void {\n  selected.value = n + %d\n}\n", i, i)
	}
	s.WriteString("const selected = ref(0)\n</script>\n\n<style scoped>\n.row { color: red; }\n</style>\n")
	add("vue", "web/List.vue", []byte(s.String()))
	s.Reset()

	for p := range 100 {
		if p > 0 {
			s.WriteString("---\n")
		}
		fmt.Fprintf(&s, "18 Chapter %d\n", p)
		for l := range 40 {
			fmt.Fprintf(&s, "11 Body text line %d of chapter %d, set in the body size like most of the page.\n", l, p)
		}
	}
	add("pdf", "docs/book.pdf", buildPDF(s.String()))
	s.Reset()

	s.WriteString(`<?xml version="1.0"?><w:document xmlns:w="w"><w:body>`)
	for i := range n {
		if i%20 == 0 {
			fmt.Fprintf(&s, `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Part %d</w:t></w:r></w:p>`, i)
		}
		fmt.Fprintf(&s, `<w:p><w:r><w:t>Paragraph %d of body text, long enough to look like a real document sentence.</w:t></w:r></w:p>`, i)
	}
	s.WriteString(`</w:body></w:document>`)
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create("word/document.xml")
	w.Write([]byte(s.String()))
	zw.Close()
	add("docx", "docs/big.docx", zb.Bytes())
	return out
}

// BenchmarkFormat measures each extractor's throughput through
// extract.Extract, as the index calls it: MB/s of input by the wall clock
// and MB/cpu-s by the process's CPU time (the honest figure on a machine
// shared with other work).
func BenchmarkFormat(b *testing.B) {
	inputs := benchInputs(b)
	for _, lang := range []string{"json", "yaml", "github-actions", "toml", "xml", "markdown", "html", "jupyter", "env", "log",
		"lockfile", "vue", "pdf", "docx"} {
		in := inputs[lang]
		b.Run(lang, func(b *testing.B) {
			b.SetBytes(int64(len(in.src)))
			cpu0 := cpuTime()
			for b.Loop() {
				f, err := extract.Extract(lang, in.src, extract.Options{Path: in.path})
				if err != nil || f.Warning != "" || len(f.Defs) == 0 {
					b.Fatalf("%s: err %v, warning %q, %d defs", lang, err, f.Warning, len(f.Defs))
				}
			}
			if cpu := cpuTime() - cpu0; cpu > 0 {
				b.ReportMetric(float64(len(in.src))*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
			}
		})
	}
}
