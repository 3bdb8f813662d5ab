package formats_test

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/git-speed/git-speed/layers/world/formats"
)

// buildPDF writes a small but complete PDF 1.4 file (catalog, page tree,
// one Helvetica font, uncompressed content streams, a correct xref table)
// from a text layout: each line is "<size> <text>", a line "---" starts a
// new page. It stands in for the PDFs word processors export, which put
// each line of text at its position with its type size.
func buildPDF(layout string) []byte {
	var pages [][]string
	cur := []string{}
	for _, l := range strings.Split(strings.TrimRight(layout, "\n"), "\n") {
		if l == "---" {
			pages = append(pages, cur)
			cur = []string{}
			continue
		}
		cur = append(cur, l)
	}
	pages = append(pages, cur)

	var objs []string
	add := func(s string) int { objs = append(objs, s); return len(objs) }
	add("<< /Type /Catalog /Pages 2 0 R >>")
	add("") // the page tree, filled in below
	add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	var kids []string
	for _, p := range pages {
		var c strings.Builder
		y := 760.0
		for _, l := range p {
			size, text, _ := strings.Cut(l, " ")
			sz, _ := strconv.ParseFloat(size, 64)
			y -= sz * 1.6
			text = strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(text)
			fmt.Fprintf(&c, "BT /F1 %g Tf 72 %.1f Td (%s) Tj ET\n", sz, y, text)
		}
		content := add(fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", c.Len(), c.String()))
		page := add(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", content))
		kids = append(kids, fmt.Sprintf("%d 0 R", page))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))

	return formats.PDFFile(objs)
}
