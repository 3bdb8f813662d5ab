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
// new page, and a line "@outline <level> <title>" adds a bookmark (level 1
// or 2, a level 2 under the level 1 before it). It stands in for the PDFs
// word processors export, which put each line of text at its position with
// its type size and write the headings' bookmarks.
func buildPDF(layout string) []byte {
	var pages [][]string
	var marks [][2]string // level, title
	cur := []string{}
	for _, l := range strings.Split(strings.TrimRight(layout, "\n"), "\n") {
		if rest, ok := strings.CutPrefix(l, "@outline "); ok {
			level, title, _ := strings.Cut(rest, " ")
			marks = append(marks, [2]string{level, title})
			continue
		}
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
	if len(marks) > 0 {
		objs[0] = fmt.Sprintf("<< /Type /Catalog /Pages 2 0 R /Outlines %d 0 R >>", outline(&objs, marks))
	}

	return formats.PDFFile(objs)
}

// outline adds the bookmark objects of marks and returns the number of the
// outline dictionary: each entry links its first child and next sibling.
func outline(objs *[]string, marks [][2]string) int {
	root := len(*objs) + 1
	*objs = append(*objs, "")
	type item struct {
		title string
		kids  []string
	}
	var top []item
	for _, m := range marks {
		if m[0] == "2" && len(top) > 0 {
			top[len(top)-1].kids = append(top[len(top)-1].kids, m[1])
			continue
		}
		top = append(top, item{title: m[1]})
	}
	// chain writes titles as siblings under parent, children first given.
	var chain func(titles []string, kids [][]string, parent int) int
	chain = func(titles []string, kids [][]string, parent int) int {
		first := len(*objs) + 1
		for range titles {
			*objs = append(*objs, "")
		}
		for i, t := range titles {
			d := fmt.Sprintf("/Title (%s) /Parent %d 0 R", t, parent)
			if i+1 < len(titles) {
				d += fmt.Sprintf(" /Next %d 0 R", first+i+1)
			}
			if kids != nil && len(kids[i]) > 0 {
				d += fmt.Sprintf(" /First %d 0 R", chain(kids[i], nil, first+i))
			}
			(*objs)[first+i-1] = "<< " + d + " >>"
		}
		return first
	}
	titles := make([]string, len(top))
	kids := make([][]string, len(top))
	for i, it := range top {
		titles[i], kids[i] = it.title, it.kids
	}
	first := chain(titles, kids, root)
	(*objs)[root-1] = fmt.Sprintf("<< /Type /Outlines /First %d 0 R /Count %d >>", first, len(marks))
	return root
}
