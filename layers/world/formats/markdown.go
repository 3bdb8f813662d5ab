package formats

import (
	"strings"

	"github.com/git-speed/git-speed/internal/lazyre"
	"github.com/git-speed/git-speed/layers/world"
)

// Markdown (.md, .mdx) is read by a structured line scanner (CommonMark's
// block rules for what matters here): ATX and setext headings H1–H4 are
// definitions spanning their section, qualified by the headings above them
// ("Install > From source"); fenced code and front matter are skipped.
// Links and images to files of the repository (relative targets) and MDX
// imports are imports.

func init() {
	Register("markdown", extractMarkdown)
}

var (
	mdATX     = lazyre.New(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	mdFence   = lazyre.New("^ {0,3}(```+|~~~+)")
	mdSetext  = lazyre.New(`^ {0,3}(=+|-+)[ \t]*$`)
	mdLink    = lazyre.New(`(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)`)
	mdRefDef  = lazyre.New(`^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)
	mdxImport = lazyre.New(`^import\s+(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]`)
)

var mdEmphasis = strings.NewReplacer("**", "", "__", "", "`", "")

// mdHeading is one heading while sections are being closed.
type mdHeading struct {
	level int
	def   int // index in facts.Defs
}

func extractMarkdown(src []byte, opt Options, facts *world.Facts) {
	lines := strings.Split(string(src), "\n")
	var stack []mdHeading
	var chain []string
	lastContent := 0
	closeTo := func(level, before int) {
		for len(stack) > 0 && stack[len(stack)-1].level >= level {
			d := &facts.Defs[stack[len(stack)-1].def]
			d.End = max(d.Start, before)
			stack = stack[:len(stack)-1]
			chain = chain[:len(chain)-1]
		}
	}
	addHeading := func(level, line int, text string) {
		closeTo(level, lastContent)
		if level > 4 || text == "" {
			return
		}
		parent := strings.Join(chain, " > ")
		q := text
		if parent != "" {
			q = parent + " > " + text
		}
		facts.Defs = append(facts.Defs, world.Def{Name: text, Qualified: q, Parent: parent, Kind: "heading",
			Start: line, End: line, Signature: strings.Repeat("#", level) + " " + text})
		stack = append(stack, mdHeading{level: level, def: len(facts.Defs) - 1})
		chain = append(chain, text)
	}
	fence := ""
	prevPara := false // the previous line is paragraph text (a setext candidate)
	paraBefore := 0   // the last content line before that paragraph line
	start := 0
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for i := 1; i < len(lines); i++ {
			if t := strings.TrimSpace(lines[i]); t == "---" || t == "..." {
				start = i + 1
				break
			}
		}
	}
	for i := start; i < len(lines); i++ {
		ln := i + 1
		l := strings.TrimRight(lines[i], "\r")
		t := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
			lastContent = ln
			continue
		}
		lead := strings.TrimLeft(l, " ")
		first := byte(0)
		if lead != "" {
			first = lead[0]
		}
		if m := mdMatch(first == '`' || first == '~', mdFence, l); m != nil {
			fence = m[1]
			prevPara = false
			lastContent = ln
			continue
		}
		if t == "" {
			prevPara = false
			continue
		}
		if m := mdMatch(first == '#', mdATX, l); m != nil {
			addHeading(len(m[1]), ln, mdText(m[2]))
			prevPara = false
			lastContent = ln
			continue
		}
		if prevPara {
			if m := mdMatch(first == '=' || first == '-', mdSetext, l); m != nil {
				level := 1
				if m[1][0] == '-' {
					level = 2
				}
				// The paragraph line above is the heading.
				lastContent = paraBefore
				addHeading(level, ln-1, mdText(strings.TrimSpace(lines[i-1])))
				if level <= 4 && len(facts.Defs) > 0 && facts.Defs[len(facts.Defs)-1].Start == ln-1 {
					facts.Defs[len(facts.Defs)-1].End = ln
				}
				prevPara = false
				lastContent = ln
				continue
			}
		}
		prevPara = !strings.HasPrefix(l, "    ") && !mdBlockStart(lead)
		paraBefore = lastContent
		lastContent = ln
		if m := mdMatch(first == 'i', mdxImport, l); m != nil {
			facts.Imports = append(facts.Imports, world.Import{Path: m[1], Line: ln, Kind: "import"})
			continue
		}
		if !strings.Contains(l, "](") && first != '[' {
			continue
		}
		mdLinks(l, func(image bool, target string) {
			if p := localTarget(target); p != "" {
				kind := "link"
				if image {
					kind = "image"
				}
				facts.Imports = append(facts.Imports, world.Import{Path: p, Line: ln, Kind: kind})
			}
		})
		if m := mdRefDef.FindStringSubmatch(l); m != nil {
			if p := localTarget(m[1]); p != "" {
				facts.Imports = append(facts.Imports, world.Import{Path: p, Line: ln, Kind: "link"})
			}
		}
	}
	closeTo(1, lastContent)
	var sk strings.Builder
	for i, d := range facts.Defs {
		if i >= maxSkelLines {
			break
		}
		sk.WriteString(d.Signature)
		sk.WriteString(lineMark(d.Start, d.End))
		sk.WriteByte('\n')
	}
	facts.Skeleton = sk.String()
}

// mdLinks calls fn with the target of every inline link and image of
// line l, as mdLink finds them (leftmost first, one after another), by
// a scan: the regexp's backtracking was most of a Markdown file's time.
func mdLinks(l string, fn func(image bool, target string)) {
	for i := 0; i < len(l); {
		b := i
		if l[b] == '!' && b+1 < len(l) && l[b+1] == '[' {
			b++
		}
		if l[b] != '[' {
			i++
			continue
		}
		target, end, ok := mdLinkAt(l, b+1)
		if !ok {
			i++
			continue
		}
		fn(b > i, target)
		i = end
	}
}

// mdLinkAt reads a link whose text starts at l[p] (after its '['): the
// text up to the first ']', then '(', spaces, the target (in <> or not),
// an optional title and ')'. end is where the link ends.
func mdLinkAt(l string, p int) (target string, end int, ok bool) {
	j := strings.IndexByte(l[p:], ']')
	if j < 0 {
		return "", 0, false
	}
	k := p + j + 1
	if k >= len(l) || l[k] != '(' {
		return "", 0, false
	}
	k++
	for k < len(l) && mdSpace(l[k]) {
		k++
	}
	if k < len(l) && l[k] == '<' {
		if target, end, ok := mdLinkTail(l, k+1); ok {
			return target, end, true
		}
	}
	return mdLinkTail(l, k)
}

// mdLinkTail reads a link's target from l[p], then an optional '>', an
// optional title (spaces, then a quote or '(' and anything up to ')') and
// the closing ')'.
func mdLinkTail(l string, p int) (target string, end int, ok bool) {
	q := p
	for q < len(l) && !mdSpace(l[q]) && l[q] != ')' && l[q] != '>' {
		q++
	}
	if q == p {
		return "", 0, false
	}
	target = l[p:q]
	if q < len(l) && l[q] == '>' {
		q++
	}
	if q < len(l) && mdSpace(l[q]) {
		r := q
		for r < len(l) && mdSpace(l[r]) {
			r++
		}
		if r < len(l) && (l[r] == '"' || l[r] == '\'' || l[r] == '(') {
			if e := strings.IndexByte(l[r+1:], ')'); e >= 0 {
				return target, r + 1 + e + 1, true
			}
		}
	}
	if q < len(l) && l[q] == ')' {
		return target, q + 1, true
	}
	return "", 0, false
}

// mdSpace reports whether c is a space as the regexps' \s.
func mdSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// mdMatch runs re on l only when the cheap test ok passed.
func mdMatch(ok bool, re *lazyre.Regexp, l string) []string {
	if !ok {
		return nil
	}
	return re.FindStringSubmatch(l)
}

// mdBlockStart reports whether a line (without its indent) starts a list
// item, quote, heading, table row or HTML block rather than paragraph text.
func mdBlockStart(lead string) bool {
	if lead == "" {
		return false
	}
	switch lead[0] {
	case '-', '*', '+', '>', '#', '|', '<':
		return true
	}
	i := 0
	for i < len(lead) && lead[i] >= '0' && lead[i] <= '9' {
		i++
	}
	return i > 0 && i < len(lead) && (lead[i] == '.' || lead[i] == ')')
}

// mdText is a heading's text without emphasis markers and link syntax.
func mdText(s string) string {
	s = mdLink.ReplaceAllStringFunc(s, func(m string) string {
		if i := strings.IndexByte(m, ']'); i > 0 {
			return strings.TrimLeft(m[:i], "![")
		}
		return m
	})
	s = mdEmphasis.Replace(s)
	return strings.TrimSpace(s)
}

// localTarget is a link target that names a file of the repository (no
// scheme, not a bare anchor), without its #fragment or ?query; "" for
// anything else.
func localTarget(t string) string {
	if t == "" || t[0] == '#' || strings.Contains(t, "://") || strings.HasPrefix(t, "//") {
		return ""
	}
	if i := strings.IndexByte(t, ':'); i > 0 && !strings.ContainsAny(t[:i], "/.") {
		return "" // mailto:, data:, tel:, javascript:
	}
	if i := strings.IndexAny(t, "#?"); i >= 0 {
		t = t[:i]
	}
	return t
}
