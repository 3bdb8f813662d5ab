package formats

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/git-speed/git-speed/layers/world"
)

// elide.go holds what the code-like formats (schemas, infrastructure, low
// level, scripts, GML, PowerShell, INI) share: a skeleton made by cutting
// byte ranges out of the source, a line index, and small text helpers.

// cut replaces src[start:end] in the skeleton by marker ("" drops it).
type cut struct {
	start, end int
	marker     string
}

// skel builds a skeleton from a source and the ranges left out of it.
type skel struct {
	src  []byte
	cuts []cut
}

// elide leaves src[start:end] out of the skeleton, replacing it by marker.
func (s *skel) elide(start, end int, marker string) {
	if start < 0 {
		start = 0
	}
	if end > len(s.src) {
		end = len(s.src)
	}
	if end > start {
		s.cuts = append(s.cuts, cut{start, end, marker})
	}
}

// elideBody replaces the bracketed body src[open:close+1] ('{' … '}' or
// another pair) by "{ … }" and a comment naming its lines, leader being the
// format's line comment. A short one-line body stays as written. Closing
// punctuation right after the body (";", ",", ")") stays before the
// comment; other code after it on its line gets a block comment (blockOK)
// or none.
func (s *skel) elideBody(li *lines, open, close int, leader string) {
	if open < 0 || close <= open || close >= len(s.src) {
		return
	}
	a, b := li.lineOf(open), li.lineOf(close)
	o, c := string(s.src[open]), string(s.src[close])
	what := "lines " + strconv.Itoa(a) + "-" + strconv.Itoa(b)
	if a == b {
		what = "line " + strconv.Itoa(a)
	}
	end := close + 1
	rest := s.src[end:li.end(b)]
	tail := strings.TrimRight(string(rest), " \t\r")
	marker := o + " … " + c
	switch {
	case strings.Trim(tail, ";,)") == "":
		marker += tail + " " + leader + " " + what
		end += len(tail)
	case leader == "//":
		marker += " /* " + what + " */"
	}
	if a == b && end-open <= len(marker) {
		return
	}
	s.elide(open, end, marker)
}

// elideLines replaces whole lines from..to (1-based, inclusive) by one line
// "indent<leader> … lines from-to".
func (s *skel) elideLines(li *lines, from, to int, indent, leader string) {
	if from < 1 || to < from || from > li.count() {
		return
	}
	if to > li.count() {
		to = li.count()
	}
	start, end := li.start(from), li.end(to)
	if end < len(s.src) {
		end++ // the newline
	}
	m := indent + leader + " … lines " + strconv.Itoa(from) + "-" + strconv.Itoa(to) + "\n"
	if from == to {
		m = indent + leader + " … line " + strconv.Itoa(from) + "\n"
	}
	s.elide(start, end, m)
}

// String applies the cuts to the source, drops lines left blank by them
// and folds runs of blank lines; cuts nested in an earlier one are ignored.
func (s *skel) String() string {
	cuts := s.cuts
	sort.Slice(cuts, func(i, j int) bool {
		if cuts[i].start != cuts[j].start {
			return cuts[i].start < cuts[j].start
		}
		return cuts[i].end > cuts[j].end
	})
	var b strings.Builder
	pos := 0
	for _, c := range cuts {
		if c.start < pos {
			continue
		}
		if c.marker == "" {
			c = s.wholeLine(c, pos)
		}
		b.Write(s.src[pos:c.start])
		b.WriteString(c.marker)
		pos = c.end
	}
	b.Write(s.src[pos:])
	r := FoldBlankLines(b.String())
	if r == "" {
		return ""
	}
	return r + "\n"
}

// FoldBlankLines is how every skeleton, of code or of a format, ends up
// once its cuts are made: trailing white space dropped from each line,
// leading blank lines dropped, runs of blank lines folded into one, and no
// final newline (the caller adds one).
func FoldBlankLines(text string) string {
	return string(AppendFoldBlankLines(nil, unsafe.Slice(unsafe.StringData(text), len(text))))
}

// AppendFoldBlankLines appends text folded as FoldBlankLines folds it to
// dst, for callers that build a skeleton in a buffer of their own.
func AppendFoldBlankLines(dst, text []byte) []byte {
	start := len(dst)
	blank := true
	for more := true; more; {
		l := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			l, text = text[:i], text[i+1:]
		} else {
			more = false
		}
		l = bytes.TrimRight(l, " \t\r")
		if len(l) == 0 {
			if !blank {
				dst = append(dst, '\n')
			}
			blank = true
			continue
		}
		blank = false
		dst = append(dst, l...)
		dst = append(dst, '\n')
	}
	for len(dst) > start && dst[len(dst)-1] == '\n' {
		dst = dst[:len(dst)-1]
	}
	return dst
}

// wholeLine widens a dropping cut that leaves only white space on its
// lines to take those lines whole; it never reaches back before pos.
func (s *skel) wholeLine(c cut, pos int) cut {
	a := c.start
	for a > pos && (s.src[a-1] == ' ' || s.src[a-1] == '\t') {
		a--
	}
	if a > 0 && s.src[a-1] != '\n' {
		return c
	}
	e := c.end
	for e < len(s.src) && (s.src[e] == ' ' || s.src[e] == '\t' || s.src[e] == '\r') {
		e++
	}
	if e < len(s.src) && s.src[e] != '\n' {
		return c
	}
	if e < len(s.src) {
		e++
	}
	return cut{a, e, ""}
}

// lines indexes the line starts of a source.
type lines struct {
	src   []byte
	first []int // first[i] is the offset of line i+1
}

func newLines(src []byte) *lines {
	li := &lines{src: src, first: []int{0}}
	for i, b := range src {
		if b == '\n' && i+1 < len(src) {
			li.first = append(li.first, i+1)
		}
	}
	return li
}

// count is the number of lines.
func (li *lines) count() int {
	if len(li.src) == 0 {
		return 0
	}
	return len(li.first)
}

// lineOf returns the 1-based line of byte offset off.
func (li *lines) lineOf(off int) int {
	return sort.Search(len(li.first), func(i int) bool { return li.first[i] > off })
}

// start returns the offset of line n's first byte.
func (li *lines) start(n int) int {
	if n < 1 {
		return 0
	}
	if n > len(li.first) {
		return len(li.src)
	}
	return li.first[n-1]
}

// end returns the offset of line n's newline (or the end of the source).
func (li *lines) end(n int) int {
	if n < len(li.first) {
		return li.first[n] - 1
	}
	if len(li.src) > 0 && li.src[len(li.src)-1] == '\n' {
		return len(li.src) - 1
	}
	return len(li.src)
}

// text returns line n without its line break.
func (li *lines) text(n int) string {
	return strings.TrimRight(string(li.src[li.start(n):li.end(n)]), "\r")
}

// maxValue is the longest value kept in a signature or skeleton, in bytes.
const maxValue = 60

// short returns v, or "…" when it is longer than maxValue or spans lines.
func short(v string) string {
	v = strings.TrimSpace(v)
	if len(v) > maxValue || strings.ContainsAny(v, "\n") {
		return "…"
	}
	return v
}

// oneLine folds runs of white space into one space and trims the ends.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// firstDocLine returns the first non-empty line of a comment without its
// leader.
func firstDocLine(c string) string {
	for _, l := range strings.Split(c, "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimLeft(l, "/*#!-;%")
		l = strings.TrimSuffix(strings.TrimSpace(l), "*/")
		l = strings.TrimSpace(strings.TrimPrefix(l, "*"))
		if l != "" && l != `"""` && l != "'''" {
			return l
		}
	}
	return ""
}

// joinQual joins a parent's qualified name and a name with a dot.
func joinQual(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// afterLast returns the part of s after the last sep.
func afterLast(s, sep string) string {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[i+len(sep):]
	}
	return s
}

// tidy drops repeated and empty references and names a definition whose
// name could not be read "(anonymous)".
func tidy(facts *world.Facts) {
	seen := make(map[world.Ref]bool, len(facts.Refs))
	out := facts.Refs[:0]
	for _, r := range facts.Refs {
		if r.Name != "" && !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	facts.Refs = out
	imps := facts.Imports[:0]
	for _, i := range facts.Imports {
		if strings.TrimSpace(i.Path) != "" {
			imps = append(imps, i)
		}
	}
	facts.Imports = imps
	for i := range facts.Defs {
		d := &facts.Defs[i]
		if d.Name == "" {
			d.Name = "(anonymous)"
			d.Qualified = joinQual(d.Parent, d.Name)
		}
		if d.End > facts.Lines {
			d.End = facts.Lines
		}
		if d.Start > d.End {
			d.Start = d.End
		}
		if d.Start < 1 {
			d.Start = 1
		}
		if d.End < d.Start {
			d.End = d.Start
		}
	}
	for i := range facts.Refs {
		if r := &facts.Refs[i]; r.Line > facts.Lines {
			r.Line = facts.Lines
		}
	}
}

// isIdent reports whether b may be part of an identifier.
func isIdent(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

func itoa(i int) string { return strconv.Itoa(i) }

// clip cuts s to at most n bytes on a character boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + " …"
}

// docStarts returns the first lines of the definitions for which ok is
// true, for skeleton rules that keep the doc line above them.
func docStarts(facts *world.Facts, ok func(d *world.Def) bool) func(line int) bool {
	set := map[int]bool{}
	for i := range facts.Defs {
		if ok(&facts.Defs[i]) {
			set[facts.Defs[i].Start] = true
		}
	}
	return func(line int) bool { return set[line] }
}
