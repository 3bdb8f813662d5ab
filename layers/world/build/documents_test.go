package build

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
	"github.com/git-speed/git-speed/layers/world"
)

// binaryPDF is a one-page PDF with a heading and body text, plus a stream
// of raw bytes (as compressed images and fonts are) that makes the file
// binary to the project map's test.
func binaryPDF() string {
	content := "BT /F1 20 Tf 72 700 Td (Overview) Tj ET\nBT /F1 10 Tf 72 680 Td (Body text of the spec.) Tj ET\nBT /F1 10 Tf 72 668 Td (More body text here.) Tj ET\n"
	raw := strings.Repeat("\x00\xff\x10\x80", 64)
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(raw), raw),
	}
	var b strings.Builder
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, x)
	return b.String()
}

func docx(t *testing.T, body string) string {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("word/document.xml")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(w, `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>%s</w:body></w:document>`, body)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestDocumentsIndexed indexes a repository holding a PDF, a DOCX, a
// lock file and a .env file: the binary documents are not flagged binary
// and give their headings, the generated lock file gives its packages, a
// DOCX that is not a zip gives a warning and indexing goes on, and the
// stored facts of the .env file hold no value.
func TestDocumentsIndexed(t *testing.T) {
	if !isBinary([]byte(binaryPDF())) {
		t.Fatal("the test PDF must look binary to the project map")
	}
	r := gittest.New(t)
	r.Write("docs/spec.pdf", binaryPDF())
	r.Write("docs/design.docx", docx(t, `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Design</w:t></w:r></w:p><w:p><w:r><w:t>Body.</w:t></w:r></w:p>`))
	r.Write("docs/broken.docx", "this is not a zip archive\n")
	r.Write("Cargo.lock", "[[package]]\nname = \"memchr\"\nversion = \"2.7.4\"\n")
	r.Write(".env", "DB_PASSWORD=hunter2-very-secret\n")
	r.Write("main.go", "package main\n\nfunc main() {}\n")
	r.Commit("docs")
	repo, cfg, res := indexHead(t, r.Dir)
	if res.Parsed != 6 {
		t.Errorf("parsed %d files, want all 6: %+v", res.Parsed, res)
	}
	w, err := Load(repo, res.Tree, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	want := map[string]string{
		"docs/spec.pdf":    "heading Overview",
		"docs/design.docx": "heading Design",
		"Cargo.lock":       "package memchr@2.7.4",
		".env":             "var DB_PASSWORD",
	}
	for p, def := range want {
		e, ok := w.Entry(p)
		if !ok || e.Has(world.FlagBinary) {
			t.Errorf("%s: entry %+v", p, e)
		}
		f, err := w.Facts(p)
		if err != nil || f == nil {
			t.Fatalf("%s: no facts (%v)", p, err)
		}
		var got []string
		for _, d := range f.Defs {
			got = append(got, d.Kind+" "+d.Qualified)
		}
		if !strings.Contains(strings.Join(got, "\n"), def) {
			t.Errorf("%s: defs %q, want %q", p, got, def)
		}
	}
	f, err := w.Facts("docs/broken.docx")
	if err != nil || f == nil || !strings.Contains(f.Warning, "not a DOCX archive") {
		t.Errorf("broken.docx: facts %+v, err %v", f, err)
	}
	f, _ = w.Facts(".env")
	stored, _ := json.Marshal(f)
	if bytes.Contains(stored, []byte("hunter2")) {
		t.Errorf(".env facts keep its value: %s", stored)
	}
}
