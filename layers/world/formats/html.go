package formats

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/git-speed/git-speed/layers/world"
)

// HTML is read with golang.org/x/net/html's tokenizer: landmarks (header,
// nav, main, aside, footer, form, article, section), elements with an id
// (#id) or a role, headings H1–H4 and the title, and script and style
// blocks are definitions with the lines they span. Script src and link
// href are imports; inline scripts and styles are read as JavaScript and
// CSS through Options.Code, their facts moved to the file's lines.

func init() {
	Register("html", extractHTML)
}

var htmlLandmarks = map[atom.Atom]bool{atom.Header: true, atom.Nav: true, atom.Main: true, atom.Aside: true,
	atom.Footer: true, atom.Form: true, atom.Article: true, atom.Section: true}

// htmlOpen is an element still open while the tokenizer reads on.
type htmlOpen struct {
	name  string
	def   int // index in facts.Defs, -1 when the element is not one
	depth int // definitions open around it, for the skeleton's indent
}

func extractHTML(src []byte, opt Options, facts *world.Facts) {
	ls := newLineStarts(src)
	z := html.NewTokenizer(bytes.NewReader(src))
	off := 0
	var stack []htmlOpen
	depth := func() int {
		if len(stack) == 0 {
			return 0
		}
		return stack[len(stack)-1].depth
	}
	depths := map[int]int{} // def index → indent
	var text strings.Builder
	textFor := -1 // def whose name is its text (headings, title)
	type block struct {
		lang  string
		start int // byte offset of the content
		def   int
	}
	var raw *block
	var embeds []string
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		rawTok := z.Raw()
		tokStart := off
		off += len(rawTok)
		line := ls.line(tokStart)
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			a := tok.DataAtom
			attr := map[string]string{}
			for _, at := range tok.Attr {
				attr[at.Key] = at.Val
			}
			def := -1
			add := func(kind, name, sig string) {
				if len(facts.Defs) >= maxOutlineDefs {
					return
				}
				facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: name, Kind: kind, Start: line, End: line, Signature: sig})
				def = len(facts.Defs) - 1
				depths[def] = depth()
			}
			sig := htmlTagSig(tok.Data, attr)
			switch {
			case attr["id"] != "":
				add("id", "#"+attr["id"], sig)
			case htmlLandmarks[a]:
				add("landmark", tok.Data, sig)
			case attr["role"] != "":
				add("role", attr["role"], sig)
			case a == atom.H1 || a == atom.H2 || a == atom.H3 || a == atom.H4 || a == atom.Title:
				add("heading", tok.Data, sig)
				text.Reset()
				textFor = def
			case a == atom.Script || a == atom.Style:
				add(tok.Data, tok.Data, sig)
			}
			switch a {
			case atom.Script:
				if s := attr["src"]; s != "" {
					facts.Imports = append(facts.Imports, world.Import{Path: s, Line: line, Kind: "script"})
				} else if t := attr["type"]; t == "" || t == "module" || strings.Contains(t, "javascript") {
					raw = &block{lang: world.LangJavaScript, start: off, def: def}
				}
			case atom.Style:
				raw = &block{lang: world.LangCSS, start: off, def: def}
			case atom.Link:
				if h := attr["href"]; h != "" {
					kind := attr["rel"]
					if kind == "" {
						kind = "link"
					}
					facts.Imports = append(facts.Imports, world.Import{Path: h, Line: line, Kind: kind})
				}
			}
			if tt == html.StartTagToken && !htmlVoid(a) {
				d := depth()
				if def >= 0 {
					d++
				}
				stack = append(stack, htmlOpen{name: tok.Data, def: def, depth: d})
			}
		case html.TextToken:
			if raw != nil && raw.def >= 0 && opt.Code != nil && len(facts.Defs) < maxOutlineDefs {
				code := rawTok
				base := ls.line(tokStart) - 1
				sk := embedCode(facts, opt.Code(raw.lang, code), func(l int) int { return base + l }, facts.Defs[raw.def].Qualified)
				if sk != "" {
					embeds = append(embeds, sk)
				}
			}
			if textFor >= 0 && text.Len() < 200 {
				text.Write(rawTok)
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			raw = nil
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i].name != string(name) {
					continue
				}
				for _, o := range stack[i:] {
					if o.def >= 0 {
						facts.Defs[o.def].End = max(facts.Defs[o.def].Start, ls.line(max(0, off-1)))
					}
				}
				stack = stack[:i]
				break
			}
			if textFor >= 0 && len(facts.Defs) > textFor {
				if s := strings.Join(strings.Fields(html.UnescapeString(text.String())), " "); s != "" {
					d := &facts.Defs[textFor]
					d.Name, d.Qualified = s, s
					d.Signature += " " + s
				}
				textFor = -1
			}
		}
	}
	if err := z.Err(); err != nil && err.Error() != "EOF" {
		facts.Partial = true
		facts.Warning = fmt.Sprintf("HTML read stopped at line %d: %v", ls.line(off), err)
	}
	last := ls.line(max(0, len(src)-1))
	for _, o := range stack {
		if o.def >= 0 {
			facts.Defs[o.def].End = max(facts.Defs[o.def].Start, last)
		}
	}
	var sk strings.Builder
	n := 0
	for i, d := range facts.Defs {
		dep, ok := depths[i]
		if !ok {
			continue // embedded code's definitions are in its skeleton below
		}
		if n++; n > maxSkelLines {
			break
		}
		sk.WriteString(strings.Repeat("  ", dep))
		sk.WriteString(d.Signature)
		sk.WriteString(lineMark(d.Start, d.End))
		sk.WriteByte('\n')
	}
	for _, e := range embeds {
		sk.WriteString("\n")
		sk.WriteString(e)
	}
	facts.Skeleton = sk.String()
}

// htmlTagSig is a start tag with its identifying attributes only.
func htmlTagSig(name string, attr map[string]string) string {
	var b strings.Builder
	b.WriteString("<" + name)
	for _, k := range []string{"id", "role", "aria-label", "src", "href", "type"} {
		if v, ok := attr[k]; ok {
			if len(v) > maxShownValue {
				v = "…"
			}
			fmt.Fprintf(&b, " %s=%q", k, v)
		}
	}
	b.WriteString(">")
	return b.String()
}

// htmlVoid reports elements that have no end tag.
func htmlVoid(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img, atom.Input, atom.Link, atom.Meta,
		atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}
