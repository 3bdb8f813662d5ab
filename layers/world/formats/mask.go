package formats

import (
	"bytes"
	"strings"
)

// mask.go gives the line scanners of the code-like formats a view of the
// source with comments and strings blanked, and brackets matched once, so
// a keyword or a brace found in it is never inside a string or a comment.

// syntax says how a format writes comments and strings.
type syntax struct {
	line        []string // line comment leaders: "//", "#", "--", ";"
	blockOpen   string   // "/*", "(;" …; "" for none
	blockClose  string
	nestBlock   bool   // block comments nest (WAT)
	quotes      string // string quote characters: `"'`
	escape      byte   // escape character inside strings (0 for none)
	heredoc     bool   // <<EOF … EOF (HCL, Dockerfile)
	dollarQ     bool   // $tag$ … $tag$ strings (PostgreSQL)
	tripleQ     bool   // """ … """ strings (GraphQL, GDScript)
	multiLine   bool   // quoted strings may span lines (SQL)
	mQuote      bool   // a quote after a name or closing bracket is a transpose (MATLAB)
	nixIndented bool   // two-quote indented strings (Nix)
	lineStart   bool   // line comments only at the start of a line (after blanks)
	// lineCommentAt reports whether a line comment may start at i (nil: always).
	lineCommentAt func(src []byte, i int) bool
}

// masked is a source with comments and strings blanked out (newlines
// kept) and its brackets matched.
type masked struct {
	src    []byte
	code   []byte
	cmts   [][2]int // comment spans
	strs   [][2]int // string spans
	pair   []int32  // pair[i] is the offset of the bracket matching the one at i, or -1
	broken int      // line of the first unterminated string or comment, 0 when none
	li     *lines
}

func maskSource(src []byte, sx syntax) *masked {
	m := &masked{src: src, code: append([]byte(nil), src...), li: newLines(src)}
	n := len(src)
	blank := func(a, b int) {
		for i := a; i < b && i < n; i++ {
			if m.code[i] != '\n' {
				m.code[i] = ' '
			}
		}
	}
	bad := func(at int) {
		if m.broken == 0 {
			m.broken = m.li.lineOf(at)
		}
	}
	atLineStart := func(i int) bool {
		j := i - 1
		for j >= 0 && (src[j] == ' ' || src[j] == '\t') {
			j--
		}
		return j < 0 || src[j] == '\n'
	}
outer:
	for i := 0; i < n; {
		c := src[i]
		if sx.blockOpen != "" && bytes.HasPrefix(src[i:], []byte(sx.blockOpen)) {
			depth, e := 1, i+len(sx.blockOpen)
			for e < n && depth > 0 {
				switch {
				case bytes.HasPrefix(src[e:], []byte(sx.blockClose)):
					depth--
					e += len(sx.blockClose)
				case sx.nestBlock && bytes.HasPrefix(src[e:], []byte(sx.blockOpen)):
					depth++
					e += len(sx.blockOpen)
				default:
					e++
				}
			}
			if depth > 0 {
				bad(i)
			}
			m.cmts = append(m.cmts, [2]int{i, e})
			blank(i, e)
			i = e
			continue
		}
		for _, lc := range sx.line {
			if bytes.HasPrefix(src[i:], []byte(lc)) && (!sx.lineStart || atLineStart(i)) &&
				(sx.lineCommentAt == nil || sx.lineCommentAt(src, i)) {
				e := bytes.IndexByte(src[i:], '\n')
				if e < 0 {
					e = n
				} else {
					e += i
				}
				m.cmts = append(m.cmts, [2]int{i, e})
				blank(i, e)
				i = e
				continue outer
			}
		}
		switch {
		case sx.nixIndented && bytes.HasPrefix(src[i:], []byte("''")):
			e := i + 2
			for e < n {
				if src[e] == '\'' && e+1 < n && src[e+1] == '\'' {
					if e+2 < n && (src[e+2] == '\'' || src[e+2] == '$' || src[e+2] == '\\') {
						e += 3 // an escape
						continue
					}
					break
				}
				e++
			}
			end := n
			if e >= n {
				bad(i)
			} else {
				end = e + 2
			}
			m.strs = append(m.strs, [2]int{i, end})
			blank(i+2, end-2)
			i = end
		case sx.tripleQ && bytes.HasPrefix(src[i:], []byte(`"""`)):
			e := bytes.Index(src[i+3:], []byte(`"""`))
			end := n
			if e < 0 {
				bad(i)
			} else {
				end = i + 3 + e + 3
			}
			m.strs = append(m.strs, [2]int{i, end})
			blank(i+1, end-1)
			i = end
		case sx.heredoc && c == '<' && i+2 < n && src[i+1] == '<' && (isIdent(src[i+2]) || src[i+2] == '-' || src[i+2] == '~'):
			j := i + 2
			for j < n && (src[j] == '-' || src[j] == '~' || src[j] == '"' || src[j] == '\'') {
				j++
			}
			k := j
			for k < n && isIdent(src[k]) {
				k++
			}
			tag := string(src[j:k])
			if tag == "" {
				i = k
				continue
			}
			// the body runs from the next line to a line that is just the tag
			nl := bytes.IndexByte(src[k:], '\n')
			if nl < 0 {
				i = n
				continue
			}
			p := k + nl + 1
			end := n
			for p < n {
				q := bytes.IndexByte(src[p:], '\n')
				le := n
				if q >= 0 {
					le = p + q
				}
				if string(bytes.TrimSpace(src[p:le])) == tag {
					end = le
					break
				}
				if q < 0 {
					break
				}
				p = le + 1
			}
			if end == n {
				bad(i)
			}
			m.strs = append(m.strs, [2]int{k + nl + 1, end})
			blank(k+nl+1, end)
			i = end
		case sx.dollarQ && c == '$':
			j := i + 1
			for j < n && isIdent(src[j]) && src[j] != '$' {
				j++
			}
			if j >= n || src[j] != '$' || j > i+1 && src[i+1] >= '0' && src[i+1] <= '9' {
				i++
				continue
			}
			tag := src[i : j+1]
			e := bytes.Index(src[j+1:], tag)
			end := n
			if e < 0 {
				bad(i)
			} else {
				end = j + 1 + e + len(tag)
			}
			m.strs = append(m.strs, [2]int{i, end})
			blank(i+len(tag), end-len(tag))
			i = end
		case sx.mQuote && c == '\'' && i > 0 && (isIdent(src[i-1]) || bytes.IndexByte([]byte(")]}'."), src[i-1]) >= 0):
			i++ // a transpose
		case bytes.IndexByte([]byte(sx.quotes), c) >= 0:
			e := i + 1
			for e < n && src[e] != c {
				if sx.escape != 0 && src[e] == sx.escape {
					e++
				} else if src[e] == '\n' && c != '`' && !sx.multiLine {
					break
				}
				e++
			}
			if e >= n || src[e] != c {
				bad(i)
				if e > n {
					e = n
				}
				m.strs = append(m.strs, [2]int{i, e})
				blank(i+1, e)
				i = e
				continue
			}
			m.strs = append(m.strs, [2]int{i, e + 1})
			blank(i+1, e)
			i = e + 1
		default:
			i++
		}
	}
	m.pair = pairBrackets(m.code)
	return m
}

// pairBrackets matches the brackets of code once, so nested or unclosed
// bodies cost nothing more: pair[i] is the offset of the bracket matching
// the one at i, or -1. A closer pops to the nearest opener of its kind
// (within 64 levels); openers it skips stay unmatched.
func pairBrackets(code []byte) []int32 {
	pair := make([]int32, len(code))
	var stack []int
	for i, b := range code {
		pair[i] = -1
		switch b {
		case '{', '(', '[':
			stack = append(stack, i)
		case '}', ')', ']':
			want := byte('{')
			if b == ')' {
				want = '('
			} else if b == ']' {
				want = '['
			}
			for k := len(stack) - 1; k >= 0 && k >= len(stack)-64; k-- {
				if code[stack[k]] == want {
					pair[stack[k]], pair[i] = int32(i), int32(stack[k])
					stack = stack[:k]
					break
				}
			}
		}
	}
	return pair
}

// close returns the offset of the bracket matching the one at open, or -1.
func (m *masked) close(open int) int {
	if open < 0 || open >= len(m.pair) {
		return -1
	}
	return int(m.pair[open])
}

// next returns the offset of the first byte of code at or after i that is
// not white space, or -1.
func (m *masked) next(i int) int {
	for ; i >= 0 && i < len(m.code); i++ {
		if b := m.code[i]; b != ' ' && b != '\t' && b != '\r' && b != '\n' {
			return i
		}
	}
	return -1
}

// braceAfter returns the '{' that opens a body at or after i before any of
// stop (";" for a declaration without a body) and its match; -1, -1 when
// there is none.
func (m *masked) braceAfter(i int, stop string) (open, close int) {
	for ; i >= 0 && i < len(m.code); i++ {
		switch b := m.code[i]; {
		case b == '{':
			return i, m.close(i)
		case bytes.IndexByte([]byte(stop), b) >= 0:
			return -1, -1
		case b == '(' || b == '[':
			if c := m.close(i); c > i {
				i = c
			}
		}
	}
	return -1, -1
}

// lineCode returns line n of the masked code, trimmed.
func (m *masked) lineCode(n int) string {
	return string(bytes.TrimSpace(m.code[m.li.start(n):m.li.end(n)]))
}

// docAbove returns the first line of the comment block that ends on the
// line right above line n (comments alone on their lines).
func (m *masked) docAbove(n int) string {
	if n <= 1 {
		return ""
	}
	first := 0
	for l := n - 1; l >= 1; l-- {
		if m.lineCode(l) != "" || !m.commentOnly(l) {
			break
		}
		first = l
	}
	if first == 0 {
		return ""
	}
	var b []string
	for l := first; l < n; l++ {
		b = append(b, m.li.text(l))
	}
	return firstDocLine(strings.Join(b, "\n"))
}

// commentOnly reports whether line n holds a comment and nothing else.
func (m *masked) commentOnly(n int) bool {
	s, e := m.li.start(n), m.li.end(n)
	if len(bytes.TrimSpace(m.code[s:e])) != 0 {
		return false
	}
	return len(bytes.TrimSpace(m.src[s:e])) != 0 && m.inComment(s+len(m.src[s:e])-len(bytes.TrimLeft(m.src[s:e], " \t")))
}

// inComment reports whether offset i is inside a comment.
func (m *masked) inComment(i int) bool {
	lo, hi := 0, len(m.cmts)
	for lo < hi {
		mid := (lo + hi) / 2
		if m.cmts[mid][1] <= i {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo < len(m.cmts) && m.cmts[lo][0] <= i
}

// dropComments leaves every comment out of sk, except the first line of a
// block right above a line for which keep is true.
func (m *masked) dropComments(sk *skel, keep func(line int) bool) {
	for k := 0; k < len(m.cmts); k++ {
		c := m.cmts[k]
		l := m.li.lineOf(c[0])
		if !m.commentOnly(l) {
			sk.elide(c[0], c[1], "")
			continue
		}
		last := k
		for last+1 < len(m.cmts) && m.li.lineOf(m.cmts[last+1][0]) == m.li.lineOf(m.cmts[last][1]-1)+1 &&
			m.commentOnly(m.li.lineOf(m.cmts[last+1][0])) {
			last++
		}
		below := m.li.lineOf(m.cmts[last][1]-1) + 1
		from := k
		if keep != nil && keep(below) {
			if nl := bytes.IndexByte(m.src[c[0]:c[1]], '\n'); nl >= 0 {
				sk.elide(c[0]+nl, c[1], " … "+m.src2(c))
			}
			from = k + 1
		}
		for x := from; x <= last; x++ {
			sk.elide(m.cmts[x][0], m.cmts[x][1], "")
		}
		k = last
	}
}

// src2 returns the closing of a block comment that was cut after its first
// line ("*/", "-}", ";)"), or "".
func (m *masked) src2(c [2]int) string {
	t := bytes.TrimRight(m.src[c[0]:c[1]], " \t\r\n")
	for _, close := range []string{"*/", "-}", ";)", "%}"} {
		if bytes.HasSuffix(t, []byte(close)) {
			return close
		}
	}
	return ""
}
