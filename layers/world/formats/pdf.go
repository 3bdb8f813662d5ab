package formats

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/ledongthuc/pdf"

	"github.com/git-speed/git-speed/layers/world"
)

// PDF text is extracted with github.com/ledongthuc/pdf (pure Go). A PDF
// has no source lines, so its "lines" are the lines of its extracted text,
// numbered across pages: Facts.Lines counts them and headings span them.
// Headings come from the document outline (bookmarks) when it has one,
// matched to the text lines they title; otherwise from type size: lines
// set larger than the body text (the size most characters use), the
// largest size H1, down to H4.
//
// The reader is guarded: the page tree and outline are walked here with
// depth and count limits (a cyclic tree ends the walk), a page whose
// Parent chain does not end is skipped, content streams are inflated at
// most maxPDFContent bytes in all (a compression bomb stops there), a
// panic inside the reader is a warning, and a read that takes longer than
// pdfTimeout is abandoned with a warning.

func init() {
	Register("pdf", extractPDF)
}

const (
	maxPDFPages   = 1000
	maxPDFContent = 64 << 20
	pdfTimeout    = 10 * time.Second
)

// pdfLine is one line of extracted text.
type pdfLine struct {
	text string
	size float64
	page int
}

type pdfResult struct {
	lines   []pdfLine
	outline []docHeading // titles and levels; line unset
	warning string
}

func extractPDF(src []byte, opt Options, facts *world.Facts) {
	facts.Lines = 0
	done := make(chan pdfResult, 1)
	go func() {
		var res pdfResult
		defer func() {
			if r := recover(); r != nil {
				res.warning = fmt.Sprintf("PDF reader stopped: %v", r)
			}
			done <- res
		}()
		res = readPDF(src)
	}()
	var res pdfResult
	select {
	case res = <-done:
	case <-time.After(pdfTimeout):
		facts.Warning = fmt.Sprintf("PDF text extraction did not finish in %s; no facts", pdfTimeout)
		return
	}
	if res.warning != "" {
		facts.Warning = res.warning
		facts.Partial = len(res.lines) > 0
		if len(res.lines) == 0 {
			facts.Warning += "; no facts"
		}
	}
	facts.Lines = len(res.lines)
	hs := pdfHeadings(res.lines, res.outline)
	docOutline(facts, hs, len(res.lines), "line")
}

func readPDF(src []byte) (res pdfResult) {
	r, err := pdf.NewReader(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		res.warning = fmt.Sprintf("not a readable PDF: %v", err)
		return res
	}
	root := r.Trailer().Key("Root")
	var pages []pdf.Value
	pdfPages(root.Key("Pages"), 0, &pages)
	if len(pages) >= maxPDFPages {
		res.warning = fmt.Sprintf("PDF has more than %d pages; read the first %d", maxPDFPages, maxPDFPages)
	}
	budget := int64(maxPDFContent)
	for i, pv := range pages {
		if !pdfParentEnds(pv) {
			res.warning = fmt.Sprintf("PDF page %d has a cyclic parent chain; skipped", i+1)
			continue
		}
		n, ok := pdfContentSize(pv.Key("Contents"), budget)
		if !ok {
			res.warning = fmt.Sprintf("PDF content inflates past %d MB at page %d; read the pages before it", maxPDFContent>>20, i+1)
			break
		}
		budget -= n
		res.lines = append(res.lines, pdfTextLines(pdf.Page{V: pv}.Content().Text, i+1)...)
	}
	count := 0
	pdfOutline(root.Key("Outlines").Key("First"), 1, &count, &res.outline)
	return res
}

// pdfPages collects the page objects of a page tree, depth first.
func pdfPages(v pdf.Value, depth int, out *[]pdf.Value) {
	if depth > 32 || len(*out) >= maxPDFPages {
		return
	}
	switch v.Key("Type").Name() {
	case "Page":
		*out = append(*out, v)
	case "Pages":
		kids := v.Key("Kids")
		for i := 0; i < kids.Len() && len(*out) < maxPDFPages; i++ {
			pdfPages(kids.Index(i), depth+1, out)
		}
	}
}

// pdfParentEnds reports whether a page's Parent chain ends within a
// sane depth (the reader follows it without a limit).
func pdfParentEnds(v pdf.Value) bool {
	for range 64 {
		if v.IsNull() {
			return true
		}
		v = v.Key("Parent")
	}
	return false
}

// pdfContentSize inflates a page's content streams to count their bytes,
// stopping at limit; ok is false past it.
func pdfContentSize(v pdf.Value, limit int64) (n int64, ok bool) {
	streams := []pdf.Value{v}
	if v.Kind() == pdf.Array {
		streams = streams[:0]
		for i := 0; i < v.Len() && i < 1024; i++ {
			streams = append(streams, v.Index(i))
		}
	}
	for _, s := range streams {
		if s.Kind() != pdf.Stream {
			continue
		}
		rc := s.Reader()
		m, _ := io.Copy(io.Discard, io.LimitReader(rc, limit-n+1))
		rc.Close()
		n += m
		if n > limit {
			return n, false
		}
	}
	return n, true
}

// pdfOutline collects bookmark titles with their depth, at most 2000.
func pdfOutline(v pdf.Value, level int, count *int, out *[]docHeading) {
	for ; v.Kind() == pdf.Dict && *count < 2000 && level <= 8; v = v.Key("Next") {
		*count++
		if t := strings.Join(strings.Fields(v.Key("Title").Text()), " "); t != "" {
			*out = append(*out, docHeading{level: min(level, 4), text: t})
		}
		pdfOutline(v.Key("First"), level+1, count, out)
	}
}

// pdfTextLines joins a page's glyphs into lines: a new line starts when
// the baseline moves by more than half the type size; a gap wider than a
// fifth of it is a space.
func pdfTextLines(ts []pdf.Text, page int) []pdfLine {
	var out []pdfLine
	var b strings.Builder
	var size, y, endX float64
	flush := func() {
		if t := strings.Join(strings.Fields(b.String()), " "); t != "" {
			out = append(out, pdfLine{text: t, size: math.Round(size*10) / 10, page: page})
		}
		b.Reset()
		size = 0
	}
	for i, t := range ts {
		if i > 0 && math.Abs(t.Y-y) > math.Max(t.FontSize, 1)/2 {
			flush()
		} else if i > 0 && t.X-endX > math.Max(t.FontSize, 1)/5 {
			b.WriteByte(' ')
		}
		if b.Len() < 1024 {
			b.WriteString(t.S)
		}
		size = math.Max(size, t.FontSize)
		y, endX = t.Y, t.X+t.W
	}
	flush()
	return out
}

// pdfHeadings finds the headings among the text lines: the outline's
// titles where they appear in the text, or else lines set larger than the
// body text.
func pdfHeadings(lines []pdfLine, outline []docHeading) []docHeading {
	var hs []docHeading
	if len(outline) > 0 {
		from := 0
		for _, o := range outline {
			for i := from; i < len(lines); i++ {
				if strings.EqualFold(lines[i].text, o.text) {
					hs = append(hs, docHeading{level: o.level, text: o.text, line: i + 1, note: fmt.Sprintf("page %d", lines[i].page)})
					from = i + 1
					break
				}
			}
		}
		if len(hs) > 0 {
			return hs
		}
	}
	chars := map[float64]int{}
	for _, l := range lines {
		chars[l.size] += len(l.text)
	}
	body, most := 0.0, -1
	for s, n := range chars {
		if n > most || n == most && s < body {
			body, most = s, n
		}
	}
	var sizes []float64
	for s := range chars {
		if s >= body*1.15 && s > body {
			sizes = append(sizes, s)
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(sizes)))
	level := map[float64]int{}
	for i, s := range sizes {
		level[s] = min(i+1, 4)
	}
	for i, l := range lines {
		lv := level[l.size]
		if lv == 0 || len(l.text) > 120 || !strings.ContainsFunc(l.text, unicode.IsLetter) {
			continue
		}
		hs = append(hs, docHeading{level: lv, text: l.text, line: i + 1, note: fmt.Sprintf("page %d", l.page)})
	}
	return hs
}
