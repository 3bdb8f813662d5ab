package formats

import (
	"bytes"
	"path"
	"strconv"
	"strings"

	"github.com/git-speed/git-speed/internal/lazyre"
	"github.com/git-speed/git-speed/layers/world"
)

// PowerShell has no tree-sitter grammar in go.mod (no Go binding could be
// had from the module proxy at an exact version), so this is a structured
// hand-written extractor: a scanner blanks comments and strings, braces are
// matched on what is left, and declarations are read line by line.
// It yields functions and filters (with their param block in the
// signature), classes with methods and properties, enums, Import-Module,
// using module/namespace and dot-sourced scripts, and command references
// (Verb-Noun calls, [Type]::Member, $var.Method()).

func init() {
	Register(world.LangPowerShell, func(src []byte, _ Options, facts *world.Facts) { extractPowerShell(src, facts) })
}

// psScan is a PowerShell source with comments and strings blanked.
type psScan struct {
	src  []byte
	code []byte   // src with comment and string bytes replaced by spaces (newlines kept)
	cmts [][2]int // comment spans
	// lineStart[i] is the byte offset of line i+1.
	lineStart []int
	// broken is set by an unterminated string or comment or an unclosed bracket.
	broken bool
	// pair[i] is the offset of the bracket matching the one at i, or -1.
	pair []int32
	// cmtLine[l] reports whether a comment touches line l (1-based).
	cmtLine []bool
}

func newPSScan(src []byte) *psScan {
	s := &psScan{src: src, code: append([]byte(nil), src...)}
	blank := func(a, b int) {
		for i := a; i < b && i < len(s.code); i++ {
			if s.code[i] != '\n' {
				s.code[i] = ' '
			}
		}
	}
	n := len(src)
	atLineStart := func(i int) bool {
		j := i - 1
		for j >= 0 && (src[j] == ' ' || src[j] == '\t') {
			j--
		}
		return j < 0 || src[j] == '\n'
	}
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == '<' && i+1 < n && src[i+1] == '#':
			end := bytes.Index(src[i+2:], []byte("#>"))
			e := n
			if end >= 0 {
				e = i + 2 + end + 2
			} else {
				s.broken = true
			}
			s.cmts = append(s.cmts, [2]int{i, e})
			blank(i, e)
			i = e
		case c == '#':
			e := bytes.IndexByte(src[i:], '\n')
			if e < 0 {
				e = n
			} else {
				e += i
			}
			s.cmts = append(s.cmts, [2]int{i, e})
			blank(i, e)
			i = e
		case c == '@' && i+1 < n && (src[i+1] == '"' || src[i+1] == '\''):
			close := []byte{'\n', src[i+1], '@'}
			end := bytes.Index(src[i+2:], close)
			e := n
			if end >= 0 {
				e = i + 2 + end + 3
			} else {
				s.broken = true
			}
			blank(i, e)
			i = e
		case c == '\'':
			e := i + 1
			for e < n {
				if src[e] == '\'' {
					if e+1 < n && src[e+1] == '\'' {
						e += 2
						continue
					}
					break
				}
				e++
			}
			if e >= n {
				s.broken = true
			}
			blank(i, e+1)
			i = e + 1
		case c == '"':
			e := i + 1
			for e < n && src[e] != '"' {
				if src[e] == '`' {
					e++
				}
				e++
			}
			if e >= n {
				s.broken = true
			}
			blank(i, e+1)
			i = e + 1
		case c == '`':
			i += 2 // escape
		default:
			_ = atLineStart
			i++
		}
	}
	s.lineStart = []int{0}
	for i, b := range src {
		if b == '\n' {
			s.lineStart = append(s.lineStart, i+1)
		}
	}
	s.pair = pairBrackets(s.code)
	s.cmtLine = make([]bool, len(s.lineStart)+2)
	for _, c := range s.cmts {
		for l := s.lineOf(c[0]); l <= s.lineOf(c[1]) && l < len(s.cmtLine); l++ {
			s.cmtLine[l] = true
		}
	}
	return s
}

// lineOf returns the 1-based line of byte offset off.
func (s *psScan) lineOf(off int) int {
	lo, hi := 0, len(s.lineStart)
	for lo+1 < hi {
		m := (lo + hi) / 2
		if s.lineStart[m] <= off {
			lo = m
		} else {
			hi = m
		}
	}
	return lo + 1
}

// match returns the offset of the bracket closing the one at open, or
// len(src)-1 when it is never closed.
func (s *psScan) match(open int) int {
	if open < 0 || open >= len(s.code) {
		return len(s.code) - 1
	}
	switch s.code[open] {
	case '{', '(', '[':
	default:
		return open
	}
	if p := s.pair[open]; p >= 0 {
		return int(p)
	}
	s.broken = true
	return len(s.code) - 1
}

// paramEnd returns the offset just after the attributes and param(...)
// block that open a body at open (a "{"), or open+1 when there is none.
func (s *psScan) paramEnd(open, close int) int {
	p := s.nextCode(open + 1)
	for p >= 0 && p < close && s.code[p] == '[' {
		p = s.nextCode(s.match(p) + 1)
	}
	if p >= 0 && p < close && len(s.code) >= p+5 && strings.EqualFold(string(s.code[p:p+5]), "param") {
		if q := s.nextCode(p + 5); q >= 0 && s.code[q] == '(' {
			return s.match(q) + 1
		}
	}
	return open + 1
}

// nextCode returns the offset of the first non-space byte of code at or
// after i, or -1.
func (s *psScan) nextCode(i int) int {
	for ; i < len(s.code); i++ {
		if b := s.code[i]; b != ' ' && b != '\t' && b != '\r' && b != '\n' {
			return i
		}
	}
	return -1
}

var (
	psFuncRe   = lazyre.New(`(?im)^[ \t]*(function|filter|workflow)[ \t]+([\w\-.:]+)`)
	psClassRe  = lazyre.New(`(?im)^[ \t]*(class|enum|interface)[ \t]+([\w.]+)([ \t]*:[ \t]*([\w., \t]+))?`)
	psMethodRe = lazyre.New(`(?i)^[ \t]*((?:(?:static|hidden)[ \t]+)*)(\[[^\]]+\][ \t]*)?(\w+)[ \t]*\(`)
	psPropRe   = lazyre.New(`(?i)^[ \t]*((?:(?:static|hidden)[ \t]+)*)((?:\[[^\]]+\][ \t]*)*)\$(\w+)`)
	psImportRe = lazyre.New(`(?im)^[ \t]*(Import-Module|using[ \t]+module|using[ \t]+namespace|using[ \t]+assembly)[ \t]+(.*)$`)
	psDotRe    = lazyre.New(`(?m)^[ \t]*\.[ \t]+`)
	psExportRe = lazyre.New(`(?im)^[ \t]*Export-ModuleMember\b(.*)$`)
	psCmdRe    = lazyre.New(`(?:^|[^\w$\-.])([A-Za-z]+-[A-Za-z][A-Za-z0-9]*)\b`)
	psStaticRe = lazyre.New(`\[([A-Za-z_][\w.]*)(?:\[[^\]]*\])?\]::(\w+)`)
	psTypeRe   = lazyre.New(`\[([A-Za-z_][\w.]*)(?:\[[^\]]*\])?\]`)
	psMemberRe = lazyre.New(`\$(\w+)\.(\w+)\(`)
)

var psKeywords = map[string]bool{"if": true, "elseif": true, "foreach": true, "for": true, "while": true, "switch": true,
	"catch": true, "until": true, "return": true, "throw": true, "param": true, "trap": true}

// psBuiltinTypes are type accelerators that never name a project type.
var psBuiltinTypes = map[string]bool{"string": true, "int": true, "bool": true, "switch": true, "object": true, "array": true,
	"hashtable": true, "void": true, "long": true, "double": true, "datetime": true, "char": true, "byte": true,
	"psobject": true, "pscustomobject": true, "scriptblock": true, "cmdletbinding": true, "parameter": true,
	"outputtype": true, "ordered": true, "ref": true, "regex": true, "decimal": true, "float": true, "xml": true,
	"validateset": true, "validatenotnullorempty": true, "validatenotnull": true, "alias": true, "type": true,
	"guid": true, "uri": true, "version": true, "timespan": true, "securestring": true, "pscredential": true,
	"int32": true, "int64": true, "uint32": true, "single": true, "validaterange": true, "validatepattern": true,
	"validatescript": true, "allownull": true, "allowemptystring": true, "supportswildcards": true}

type psDef struct {
	idx        int // index in facts.Defs (0-based)
	start, end int // byte offsets of the whole definition
}

func extractPowerShell(src []byte, facts *world.Facts) {
	s := newPSScan(src)
	sk := &skel{src: src}
	var defs []psDef
	add := func(d world.Def, start, end int) int {
		facts.Defs = append(facts.Defs, d)
		defs = append(defs, psDef{len(facts.Defs) - 1, start, end})
		return len(facts.Defs) - 1
	}
	// body returns the offsets of the { and } of the body starting after i.
	body := func(i int) (int, int) {
		j := s.nextCode(i)
		for j >= 0 && s.code[j] != '{' {
			if s.code[j] == '(' { // method parameters
				j = s.nextCode(s.match(j) + 1)
				continue
			}
			if s.code[j] == '\n' || j-i > 400 {
				return -1, -1
			}
			j++
		}
		if j < 0 {
			return -1, -1
		}
		return j, s.match(j)
	}
	// elide leaves a body out of the skeleton, keeping a leading param block.
	elide := func(open, close int, indent string) {
		from := s.paramEnd(open, close)
		if s.nextCode(from) < 0 || s.nextCode(from) >= close {
			return
		}
		if s.lineOf(open) == s.lineOf(close) && close-open <= maxValue {
			return // a short one-line body says as much as a marker
		}
		last := close - 1
		for last > from && (s.code[last] == ' ' || s.code[last] == '\t' || s.code[last] == '\r' || s.code[last] == '\n') {
			last--
		}
		a, b := s.lineOf(s.nextCode(from)), s.lineOf(last)
		sk.elide(from, close, "\n"+indent+"    # … lines "+strconv.Itoa(a)+"-"+strconv.Itoa(b)+"\n"+indent)
	}
	indentOf := func(off int) string {
		ls := s.lineStart[s.lineOf(off)-1]
		e := ls
		for e < len(src) && (src[e] == ' ' || src[e] == '\t') {
			e++
		}
		return string(src[ls:e])
	}
	// Functions and filters.
	for _, m := range psFuncRe.FindAllSubmatchIndex(s.code, -1) {
		name := string(src[m[4]:m[5]])
		if i := strings.LastIndexByte(name, ':'); i >= 0 {
			name = name[i+1:]
		}
		open, close := body(m[5])
		end := m[5]
		if close > 0 {
			end = close + 1
		}
		sig := oneLine(string(s.code[m[2]:m[5]]))
		if open > 0 {
			sig = oneLine(string(src[m[2]:open]))
			if pe := s.paramEnd(open, close); pe > open+1 {
				p := s.nextCode(open + 1)
				sig += " " + oneLine(psStripComments(s, p, pe))
			}
		}
		d := world.Def{Name: name, Qualified: name, Kind: world.KindFunction, Start: s.lineOf(m[0] + len(indentOf(m[0]))), End: s.lineOf(end - 1),
			Exported: true, Signature: sig, Doc: psDoc(s, m[0], open, close)}
		add(d, m[0], end)
		if open > 0 {
			elide(open, close, indentOf(m[0]))
		}
	}
	// Classes and enums, with members (they do not nest).
	classEnd := -1
	for _, m := range psClassRe.FindAllSubmatchIndex(s.code, -1) {
		if m[0] < classEnd {
			continue
		}
		kw := strings.ToLower(string(src[m[2]:m[3]]))
		name := string(src[m[4]:m[5]])
		open, close := body(m[5])
		end := m[1]
		if close > 0 {
			end = close + 1
		}
		kind := world.KindClass
		if kw == "enum" {
			kind = world.KindEnum
		} else if kw == "interface" {
			kind = world.KindInterface
		}
		d := world.Def{Name: name, Qualified: name, Kind: kind, Start: s.lineOf(m[0] + len(indentOf(m[0]))), End: s.lineOf(end - 1), Exported: true,
			Signature: oneLine(string(s.code[m[2]:m[1]])), Doc: psDoc(s, m[0], open, close)}
		ci := add(d, m[0], end)
		classEnd = end
		if m[8] >= 0 {
			for _, b := range strings.Split(string(src[m[8]:m[9]]), ",") {
				if b = strings.TrimSpace(b); b != "" {
					facts.Refs = append(facts.Refs, world.Ref{Name: afterLast(b, "."), Qual: strings.TrimSuffix(strings.TrimSuffix(b, afterLast(b, ".")), "."),
						Line: s.lineOf(m[8]), In: ci + 1, Kind: world.RefType})
				}
			}
		}
		if open < 0 || kind == world.KindEnum {
			if kind == world.KindEnum && open > 0 {
				for _, l := range strings.Split(string(s.code[open+1:close]), "\n") {
					if f := strings.Fields(l); len(f) > 0 {
						n := strings.TrimRight(strings.SplitN(f[0], "=", 2)[0], " ")
						if n != "" {
							add(world.Def{Name: n, Qualified: name + "." + n, Parent: name, Kind: world.KindConst,
								Start: s.lineOf(open + 1 + strings.Index(string(s.code[open+1:close]), l)), End: 0, Exported: true, Signature: strings.TrimSpace(l)}, open, close)
						}
					}
				}
			}
			continue
		}
		// members: lines at depth 1 inside the class body
		depth, lineDepth := 0, 0
		ls := open + 1
		for i := open + 1; i <= close && i < len(s.code); i++ {
			if i != close && s.code[i] != '\n' {
				switch s.code[i] {
				case '{', '(':
					depth++
				case '}', ')':
					depth--
				}
				continue
			}
			lineEnd := i
			lineCode := string(s.code[ls:lineEnd])
			startDepth := lineDepth
			lineDepth = depth
			if startDepth == 0 {
				if mm := psMethodRe.FindStringSubmatchIndex(lineCode); mm != nil && !psKeywords[strings.ToLower(lineCode[mm[6]:mm[7]])] {
					mname := lineCode[mm[6]:mm[7]]
					mo, mc := body(ls + mm[7])
					mend := ls + mm[1]
					if mc > 0 {
						mend = mc + 1
					}
					sig := oneLine(lineCode[mm[0]:])
					if mo > 0 && mo < lineEnd {
						sig = oneLine(string(src[ls+mm[0] : mo]))
					}
					md := world.Def{Name: mname, Qualified: name + "." + mname, Parent: name, Kind: world.KindMethod,
						Start: s.lineOf(ls), End: s.lineOf(mend - 1), Exported: !strings.Contains(strings.ToLower(lineCode[mm[2]:mm[3]]), "hidden"),
						Signature: sig, Doc: psDoc(s, ls, mo, mc)}
					add(md, ls, mend)
					if mo > 0 {
						elide(mo, mc, indentOf(ls))
					}
				} else if pm := psPropRe.FindStringSubmatchIndex(lineCode); pm != nil {
					pname := lineCode[pm[6]:pm[7]]
					sig := strings.TrimSpace(lineCode)
					if eq := strings.Index(sig, "="); eq >= 0 {
						sig = strings.TrimSpace(sig[:eq])
					}
					pd := world.Def{Name: pname, Qualified: name + "." + pname, Parent: name, Kind: world.KindProperty,
						Start: s.lineOf(ls), End: s.lineOf(ls), Exported: !strings.Contains(strings.ToLower(lineCode[pm[2]:pm[3]]), "hidden"),
						Signature: oneLine(sig)}
					add(pd, ls, lineEnd)
				}
			}
			ls = i + 1
		}
	}
	// fix enum constant end lines
	for i := range facts.Defs {
		if facts.Defs[i].End < facts.Defs[i].Start {
			facts.Defs[i].End = facts.Defs[i].Start
		}
	}
	// Imports.
	for _, m := range psImportRe.FindAllSubmatchIndex(s.code, -1) {
		kw := strings.ToLower(strings.Join(strings.Fields(string(src[m[2]:m[3]])), " "))
		arg := psFirstArg(string(src[m[4]:m[5]]))
		if arg == "" {
			continue
		}
		kind := map[string]string{"import-module": "module", "using module": "module", "using namespace": "namespace", "using assembly": "assembly"}[kw]
		facts.Imports = append(facts.Imports, world.Import{Path: arg, Line: s.lineOf(m[2]), Kind: kind})
	}
	for _, m := range psDotRe.FindAllSubmatchIndex(s.code, -1) {
		// the path may be a string (blanked in code): read it from src
		// the path may be a string (blanked in code): read it from src
		tail := src[m[1]:]
		if i := bytes.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[:i]
		}
		rest := strings.TrimLeft(strings.TrimLeft(string(src[m[0]:m[1]]), " \t")[1:], " \t") + string(tail)
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			rest = rest[:i]
		}
		if p := psFirstArg(rest); p != "" {
			facts.Imports = append(facts.Imports, world.Import{Path: p, Line: s.lineOf(m[0] + len(indentOf(m[0]))), Kind: "dot"})
		}
	}
	sortImports(facts)
	// References.
	in := func(off int) int {
		best, size := 0, -1
		for _, d := range defs {
			if d.start <= off && off < d.end && (size < 0 || d.end-d.start < size) {
				best, size = d.idx+1, d.end-d.start
			}
		}
		return best
	}
	for _, m := range psCmdRe.FindAllSubmatchIndex(s.code, -1) {
		name := string(src[m[2]:m[3]])
		ln := s.lineOf(m[2])
		if psDefinesAt(facts, name, ln) {
			continue
		}
		r := world.Ref{Name: name, Line: ln, In: in(m[2]), Kind: world.RefCall}
		if strings.EqualFold(name, "Import-Module") {
			continue
		}
		facts.Refs = append(facts.Refs, r)
	}
	statics := map[int]bool{}
	for _, m := range psStaticRe.FindAllSubmatchIndex(s.code, -1) {
		typ := string(src[m[2]:m[3]])
		statics[m[0]] = true
		if psBuiltinTypes[strings.ToLower(typ)] {
			continue
		}
		facts.Refs = append(facts.Refs, world.Ref{Name: string(src[m[4]:m[5]]), Qual: typ, Line: s.lineOf(m[0]), In: in(m[0]), Kind: world.RefCall})
	}
	for _, m := range psTypeRe.FindAllSubmatchIndex(s.code, -1) {
		typ := string(src[m[2]:m[3]])
		if statics[m[0]] || psBuiltinTypes[strings.ToLower(typ)] || psBuiltinTypes[strings.ToLower(afterLast(typ, "."))] {
			continue
		}
		if i := s.nextCode(m[1]); i >= 0 && s.code[i] == '(' && m[1] == i { // attribute such as [Parameter(...)]
			continue
		}
		facts.Refs = append(facts.Refs, world.Ref{Name: afterLast(typ, "."), Qual: strings.TrimSuffix(strings.TrimSuffix(typ, afterLast(typ, ".")), "."),
			Line: s.lineOf(m[0]), In: in(m[0]), Kind: world.RefType})
	}
	for _, m := range psMemberRe.FindAllSubmatchIndex(s.code, -1) {
		facts.Refs = append(facts.Refs, world.Ref{Name: string(src[m[4]:m[5]]), Qual: string(src[m[2]:m[3]]), Line: s.lineOf(m[0]), In: in(m[0]), Kind: world.RefMember})
	}
	tidy(facts)
	psExports(s, facts)
	if s.broken {
		facts.Partial = true
		facts.Warning = "unterminated string, comment or bracket; facts are partial"
	}
	// Skeleton: comments out, except the first line of a # block right above a definition.
	for _, c := range s.cmts {
		keep := false
		next := s.nextCode(c[1])
		if next >= 0 && s.lineOf(next)-s.lineOf(c[1]) <= 1 && bytes.HasPrefix(src[c[0]:], []byte("#")) && !bytes.HasPrefix(src[c[0]:], []byte("#>")) {
			prevBlank := c[0] == 0 || s.lineOf(c[0]) == 1 || !psCommentOnLine(s, s.lineOf(c[0])-1)
			keep = prevBlank && psIsDefAt(facts, s.lineOf(next))
		}
		if keep {
			continue
		}
		if bytes.HasPrefix(src[c[0]:], []byte("#")) && psLineIsOnly(s, c[0], c[1]) {
			st := s.lineStart[s.lineOf(c[0])-1]
			e := c[1]
			if e < len(src) {
				e++
			}
			sk.elide(st, e, "")
			continue
		}
		sk.elide(c[0], c[1], "")
	}
	facts.Skeleton = sk.String()
}

// psStripComments returns src[a:b] with comments removed (strings kept).
func psStripComments(s *psScan, a, b int) string {
	out := []byte(string(s.src[a:b]))
	for _, c := range s.cmts {
		for i := c[0]; i < c[1]; i++ {
			if i >= a && i < b && out[i-a] != '\n' {
				out[i-a] = ' '
			}
		}
	}
	return string(out)
}

// psFirstArg returns the first argument of a command line: a quoted string
// or a bare word (after -Name), without quotes.
func psFirstArg(rest string) string {
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(strings.ToLower(rest), "-name ") {
		rest = strings.TrimSpace(rest[6:])
	}
	if rest == "" {
		return ""
	}
	if q := rest[0]; q == '"' || q == '\'' {
		if i := strings.IndexByte(rest[1:], q); i >= 0 {
			return rest[1 : 1+i]
		}
		return ""
	}
	f := strings.Fields(rest)
	if len(f) == 0 || strings.HasPrefix(f[0], "-") || strings.HasPrefix(f[0], "#") {
		return ""
	}
	return strings.TrimRight(f[0], ";")
}

// psDoc returns the doc line of a definition at off: a # comment block
// right above it, or the .SYNOPSIS of comment-based help above or at the
// start of its body.
func psDoc(s *psScan, off, open, close int) string {
	ln := s.lineOf(off)
	for i := len(s.cmts) - 1; i >= 0; i-- {
		c := s.cmts[i]
		if c[1] > off {
			if open > 0 && c[0] > open && c[0] < close && s.nextCode(open+1) >= c[1] && bytes.HasPrefix(s.src[c[0]:], []byte("<#")) {
				return psHelp(string(s.src[c[0]:c[1]]))
			}
			continue
		}
		if ln-s.lineOf(c[1]) > 1 {
			return ""
		}
		first := i
		for first > 0 && s.lineOf(s.cmts[first][0])-s.lineOf(s.cmts[first-1][1]) == 1 && psLineIsOnly(s, s.cmts[first-1][0], s.cmts[first-1][1]) {
			first--
		}
		return psHelp(string(s.src[s.cmts[first][0]:s.cmts[first][1]]))
	}
	return ""
}

// psHelp returns the first line of a comment; for comment-based help, the
// first line after .SYNOPSIS (or .DESCRIPTION).
func psHelp(c string) string {
	if strings.HasPrefix(c, "<#") {
		lines := strings.Split(strings.TrimSuffix(strings.TrimPrefix(c, "<#"), "#>"), "\n")
		for i, l := range lines {
			t := strings.ToUpper(strings.TrimSpace(l))
			if t == ".SYNOPSIS" || t == ".DESCRIPTION" {
				for _, n := range lines[i+1:] {
					if n = strings.TrimSpace(n); n != "" {
						return n
					}
				}
			}
		}
		for _, l := range lines {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, ".") {
				return l
			}
		}
		return ""
	}
	return firstDocLine(c)
}

func psLineIsOnly(s *psScan, a, b int) bool {
	ls := s.lineStart[s.lineOf(a)-1]
	return strings.TrimSpace(string(s.src[ls:a])) == ""
}

func psCommentOnLine(s *psScan, ln int) bool { return ln >= 0 && ln < len(s.cmtLine) && s.cmtLine[ln] }

func psIsDefAt(facts *world.Facts, ln int) bool {
	for _, d := range facts.Defs {
		if d.Start == ln {
			return true
		}
	}
	return false
}

func psDefinesAt(facts *world.Facts, name string, ln int) bool {
	for _, d := range facts.Defs {
		if d.Start == ln && strings.EqualFold(d.Name, name) {
			return true
		}
	}
	return false
}

// sortImports orders imports by line, then path.
func sortImports(facts *world.Facts) {
	imps := facts.Imports
	for i := 1; i < len(imps); i++ {
		for j := i; j > 0 && (imps[j].Line < imps[j-1].Line || imps[j].Line == imps[j-1].Line && imps[j].Path < imps[j-1].Path); j-- {
			imps[j], imps[j-1] = imps[j-1], imps[j]
		}
	}
}

// psExports applies Export-ModuleMember -Function lists: when a module
// names its exports, only those functions are exported.
func psExports(s *psScan, facts *world.Facts) {
	var pats []string
	found := false
	for _, m := range psExportRe.FindAllSubmatchIndex(s.code, -1) {
		found = true
		args := strings.Fields(strings.NewReplacer(",", " ", "'", " ", `"`, " ").Replace(string(s.src[m[2]:m[3]])))
		on := len(args) > 0 && !strings.HasPrefix(args[0], "-") // positional: functions
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				on = strings.EqualFold(a, "-Function")
				continue
			}
			if on {
				pats = append(pats, strings.ToLower(a))
			}
		}
	}
	if !found {
		return
	}
	for i := range facts.Defs {
		d := &facts.Defs[i]
		if d.Kind != world.KindFunction {
			continue
		}
		d.Exported = false
		for _, p := range pats {
			if ok, _ := path.Match(p, strings.ToLower(d.Name)); ok {
				d.Exported = true
			}
		}
	}
}
