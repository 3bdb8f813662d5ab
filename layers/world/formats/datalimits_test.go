package formats

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/git-speed/git-speed/layers/world"
)

// minimalPDF is a one-page PDF whose content stream is content; cyclic
// makes the page tree's Kids and the page's Parent point back at
// themselves, as a hostile file may.
func minimalPDF(content string, cyclic bool) []byte {
	pages := "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
	page := "<< /Type /Page /Parent 2 0 R /Resources << >> /Contents 4 0 R >>"
	if cyclic {
		pages = "<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 1 >>"
		page = "<< /Type /Page /Parent 3 0 R /Contents 4 0 R >>"
	}
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", pages, page,
		fmt.Sprintf("<< /Length %d >>\nstream\nBT /F1 12 Tf 72 700 Td %s ET\nendstream", len(content)+26, content)}
	return PDFFile(objs)
}

// PDFFile assembles numbered objects (1 is the catalog) into a PDF 1.4
// file with a correct xref table; the external tests use it too.
func PDFFile(objs []string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
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
	return b.Bytes()
}

func TestPDFHostile(t *testing.T) {
	good := minimalPDF("(Hello) Tj", false)
	for name, src := range map[string][]byte{
		"truncated": good[:len(good)/2],
		"cyclic":    minimalPDF("(Hello) Tj", true),
		"not a pdf": []byte("hello, world\n"),
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			f := fuzzExtract(t, "pdf", "x.pdf", src)
			if f.Warning == "" && name != "cyclic" {
				t.Errorf("no warning for a %s PDF", name)
			}
			if time.Since(start) > pdfTimeout/2 {
				t.Errorf("took %s", time.Since(start))
			}
		})
	}
}

func TestDOCXHostile(t *testing.T) {
	t.Run("not a zip", func(t *testing.T) {
		f := fuzzExtract(t, "docx", "a.docx", []byte("just text, not a zip\n"))
		if !strings.Contains(f.Warning, "not a DOCX archive") {
			t.Errorf("warning = %q", f.Warning)
		}
	})
	t.Run("zip bomb", func(t *testing.T) {
		// 200 MB of one paragraph's text deflates to a few hundred KB.
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, _ := zw.Create("word/document.xml")
		w.Write([]byte(`<w:document><w:body><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Big</w:t></w:r></w:p><w:p><w:r><w:t>`))
		chunk := bytes.Repeat([]byte("a"), 1<<20)
		for range 200 {
			w.Write(chunk)
		}
		zw.Close()
		if buf.Len() > 2<<20 {
			t.Fatalf("bomb is %d bytes compressed", buf.Len())
		}
		f := fuzzExtract(t, "docx", "bomb.docx", buf.Bytes())
		if !strings.Contains(f.Warning, "inflates past") {
			t.Errorf("warning = %q", f.Warning)
		}
		if len(f.Defs) != 1 || f.Defs[0].Name != "Big" {
			t.Errorf("defs = %+v, want the heading before the bomb", f.Defs)
		}
	})
}

// TestNotebookManyCells reads a notebook of 100 000 cells in one pass and
// one parse of the joined code.
func TestNotebookManyCells(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"cells": [`)
	for i := range 100000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		if i%2 == 0 {
			fmt.Fprintf(&b, `{"cell_type": "markdown", "source": ["## Step %d\n"]}`, i)
		} else {
			fmt.Fprintf(&b, `{"cell_type": "code", "outputs": [], "source": ["def f%d(x):\n", "    return x\n"]}`, i)
		}
	}
	b.WriteString(`], "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4}`)
	calls := 0
	code := func(lang string, src []byte) *world.Facts {
		calls++
		n := bytes.Count(src, []byte("def "))
		f := &world.Facts{Lang: lang}
		for i := range n {
			f.Defs = append(f.Defs, world.Def{Name: "f", Qualified: "f", Kind: world.KindFunction, Start: 3*i + 1, End: 3*i + 2})
		}
		return f
	}
	start := time.Now()
	facts, _ := Extract("jupyter", []byte(b.String()), Options{Path: "big.ipynb", Code: code})
	if calls != 1 {
		t.Errorf("code read %d times, want once", calls)
	}
	if facts.Warning != "" {
		t.Errorf("warning: %s", facts.Warning)
	}
	if len(facts.Defs) != 50000+maxOutlineDefs+1 {
		t.Errorf("%d defs, want 50000 functions, %d headings and the kernel", len(facts.Defs), maxOutlineDefs)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("100k cells took %s", d)
	}
}

// TestBinaryWithTextExtension feeds random bytes to every text format.
func TestBinaryWithTextExtension(t *testing.T) {
	junk := make([]byte, 64<<10)
	x := uint32(1)
	for i := range junk {
		x = x*1664525 + 1013904223
		junk[i] = byte(x >> 24)
	}
	for _, lang := range []string{"json", "yaml", "toml", "xml", "github-actions", "gitlab-ci", "markdown", "html",
		"jupyter", "env", "log", "lockfile", "vue", "svelte", "astro", "pdf", "docx"} {
		fuzzExtract(t, lang, "x", junk)
	}
}

func TestShownValueHidesCredentials(t *testing.T) {
	for _, tc := range []struct {
		key, value string
		hidden     bool
	}{
		{"url", `"postgres://app:s3cr3t@db:5432/app"`, true},
		{"url", `"https://example.com/a@b"`, false},
		{"gh", `"ghp_abcdefghijklmnopqrstuvwxyz0123456789"`, true},
		{"aws", "AKIAIOSFODNN7EXAMPLE", true},
		{"blob", `"wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY9"`, true},
		{"aws_key_2", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", true},
		{"path", "src/main/java/com/acme/App", false},
		{"password", "x", true},
		{"name", `"@acme/web"`, false},
		{"version", `"1.2.3"`, false},
		{"image", "ghcr.io/acme/web:2.4.1", false},
		{"id", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", false},
	} {
		got := shownValue(tc.key, tc.value)
		if (got == "***") != tc.hidden {
			t.Errorf("shownValue(%q, %q) = %q, hidden want %v", tc.key, tc.value, got, tc.hidden)
		}
	}
}
