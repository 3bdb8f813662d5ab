package formats

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// DOCX files are zip archives; word/document.xml is read with archive/zip
// and encoding/xml. Paragraphs styled Heading1–Heading4 (or Title) are
// definitions spanning their section. A DOCX has no lines, so its "lines"
// are its paragraphs: Facts.Lines is the paragraph count and a heading's
// Start and End are paragraph numbers. The archive is read with limits: at
// most maxDocXML bytes of document.xml are inflated (a zip bomb stops
// there, with a warning), and nothing else of the archive is read.

func init() {
	Register("docx", extractDOCX)
}

// maxDocXML bounds the inflated size of word/document.xml.
const maxDocXML = 64 << 20

func extractDOCX(src []byte, opt Options, facts *world.Facts) {
	facts.Lines = 0
	zr, err := zip.NewReader(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		facts.Warning = fmt.Sprintf("not a DOCX archive: %v; no facts", err)
		return
	}
	var doc *zip.File
	for _, f := range zr.File {
		if f.Name == "word/document.xml" {
			doc = f
			break
		}
	}
	if doc == nil {
		facts.Warning = "DOCX archive has no word/document.xml; no facts"
		return
	}
	rc, err := doc.Open()
	if err != nil {
		facts.Warning = fmt.Sprintf("DOCX word/document.xml: %v; no facts", err)
		return
	}
	defer rc.Close()
	lr := &io.LimitedReader{R: rc, N: maxDocXML}
	paras, err := docxParagraphs(lr)
	if lr.N <= 0 {
		facts.Partial = true
		facts.Warning = fmt.Sprintf("DOCX word/document.xml inflates past %d MB; read the first paragraphs only", maxDocXML>>20)
	} else if err != nil {
		facts.Partial = true
		facts.Warning = fmt.Sprintf("DOCX word/document.xml is malformed after paragraph %d: %v; facts are partial", len(paras), err)
	}
	facts.Lines = len(paras)
	headings := make([]docHeading, 0)
	for i, p := range paras {
		if p.level > 0 && p.text != "" {
			headings = append(headings, docHeading{level: p.level, text: p.text, line: i + 1})
		}
	}
	docOutline(facts, headings, len(paras), "paragraph")
}

// docPara is one paragraph of a document: its heading level (0 for body
// text) and its text.
type docPara struct {
	level int
	text  string
}

// docxParagraphs reads the paragraphs of a document.xml stream.
func docxParagraphs(r io.Reader) ([]docPara, error) {
	dec := xml.NewDecoder(r)
	dec.Strict = false
	var paras []docPara
	var cur *docPara
	var text strings.Builder
	inText := false
	for {
		tok, err := dec.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return paras, nil
			}
			return paras, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "p":
				cur = &docPara{}
				text.Reset()
			case "pStyle":
				if cur != nil {
					for _, a := range t.Attr {
						if a.Name.Local == "val" {
							cur.level = docxHeadingLevel(a.Value)
						}
					}
				}
			case "t":
				inText = true
			case "tab":
				text.WriteByte(' ')
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "t":
				inText = false
			case "p":
				if cur != nil {
					cur.text = strings.Join(strings.Fields(text.String()), " ")
					paras = append(paras, *cur)
					cur = nil
				}
			}
		case xml.CharData:
			if inText && cur != nil && text.Len() < 4096 {
				text.Write(t)
			}
		}
	}
}

// docxHeadingLevel maps a paragraph style id to a heading level: Title is
// 1, HeadingN is N (localised ids such as "berschrift1" end in the digit).
func docxHeadingLevel(style string) int {
	s := strings.ToLower(style)
	if s == "title" {
		return 1
	}
	if strings.HasPrefix(s, "heading") || strings.Contains(s, "berschrift") || strings.HasPrefix(s, "titre") {
		n, err := strconv.Atoi(s[len(s)-1:])
		if err == nil && n >= 1 && n <= 4 {
			return n
		}
	}
	return 0
}

// docHeading is a heading of a paged or paragraph document.
type docHeading struct {
	level int
	text  string
	line  int // the paragraph or text line number
	note  string
}

// docOutline turns headings into definitions spanning their sections
// (until the next heading at their level or above) and a skeleton; unit
// names what a "line" is ("paragraph", "line").
func docOutline(facts *world.Facts, hs []docHeading, last int, unit string) {
	var chain []string
	var levels []int
	var sk strings.Builder
	for i, h := range hs {
		for len(levels) > 0 && levels[len(levels)-1] >= h.level {
			levels, chain = levels[:len(levels)-1], chain[:len(chain)-1]
		}
		end := last
		for _, n := range hs[i+1:] {
			if n.level <= h.level {
				end = n.line - 1
				break
			}
		}
		parent := strings.Join(chain, " > ")
		q := h.text
		if parent != "" {
			q = parent + " > " + h.text
		}
		sig := strings.Repeat("#", h.level) + " " + h.text
		facts.Defs = append(facts.Defs, world.Def{Name: h.text, Qualified: q, Parent: parent, Kind: "heading",
			Start: h.line, End: max(end, h.line), Signature: sig})
		if i < maxSkelLines {
			sk.WriteString(sig)
			if h.note != "" {
				sk.WriteString("  # " + h.note)
			} else {
				fmt.Fprintf(&sk, "  # %ss %d-%d", unit, h.line, max(end, h.line))
			}
			sk.WriteByte('\n')
		}
		levels, chain = append(levels, h.level), append(chain, h.text)
	}
	facts.Skeleton = sk.String()
}
