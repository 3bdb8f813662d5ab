package formats

import (
	"sort"
	"strconv"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// GameMaker Language (GML, GameMaker 2.3 and later). No Go parser exists,
// so this file has its own: a tokenizer that knows GML's strings ("…",
// verbatim @"…" and @'…', template $"…{expr}…"), comments, hex literals
// ($FF, 0xFF), accessors and # directives, and a structure scanner over
// the tokens that keeps a stack of open braces, each knowing the
// definition it is the body of. It yields script functions
// (function f() {} and f = function() {}), constructors (with their
// parent constructor as a reference), methods and fields of constructors,
// macros (#macro NAME value, #macro Config:NAME value), enums with their
// members, and globals (globalvar x; global.x = …). References are calls,
// new Name(…), Enum.Member uses, macro uses (upper-case names) and
// global.x reads.

func init() { Register(world.LangGML, extractGML) }

type gmlKind uint8

const (
	gmlIdent gmlKind = iota
	gmlNumber
	gmlString
	gmlPunct
	gmlDirective // #macro, #region, #endregion and the like: the word after '#'
	gmlComment
)

type gmlTok struct {
	kind       gmlKind
	start, end int
	line       int
}

// gmlLex splits src into tokens; bad is the line of the first unterminated
// string or comment (0 when there is none). The expressions of template
// strings are tokens too (one level deep).
func gmlLex(src []byte) (toks []gmlTok, bad int) { return gmlLexIn(src, true) }

func gmlLexIn(src []byte, templates bool) (toks []gmlTok, bad int) {
	n := len(src)
	line := 1
	add := func(k gmlKind, s, e, l int) { toks = append(toks, gmlTok{k, s, e, l}) }
	// str scans a string whose opening quote is at q; verbatim strings have
	// no escapes and may span lines. It returns the offset after it.
	str := func(q int, verbatim bool) int {
		quote := src[q]
		i := q + 1
		for i < n {
			c := src[i]
			switch {
			case c == quote:
				return i + 1
			case c == '\\' && !verbatim:
				i += 2
				continue
			case c == '\n':
				if !verbatim {
					if bad == 0 {
						bad = line
					}
					return i
				}
				line++
			}
			i++
		}
		if bad == 0 {
			bad = line
		}
		return n
	}
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < n && src[i+1] == '/':
			e := i
			for e < n && src[e] != '\n' {
				e++
			}
			add(gmlComment, i, e, line)
			i = e
		case c == '/' && i+1 < n && src[i+1] == '*':
			l := line
			e := i + 2
			for e < n && !(src[e] == '*' && e+1 < n && src[e+1] == '/') {
				if src[e] == '\n' {
					line++
				}
				e++
			}
			if e >= n {
				if bad == 0 {
					bad = l
				}
				e = n
			} else {
				e += 2
			}
			add(gmlComment, i, e, l)
			i = e
		case c == '@' && i+1 < n && (src[i+1] == '"' || src[i+1] == '\''):
			l := line
			e := str(i+1, true)
			add(gmlString, i, e, l)
			i = e
		case c == '$' && i+1 < n && src[i+1] == '"':
			l := line
			var exprs [][2]int
			e := gmlTemplate(src, i+1, &line, &bad, &exprs)
			add(gmlString, i, e, l)
			if templates {
				for _, x := range exprs {
					sub, _ := gmlLexIn(src[x[0]:x[1]], false)
					at := l + strings.Count(string(src[i:x[0]]), "\n")
					for _, t := range sub {
						toks = append(toks, gmlTok{t.kind, t.start + x[0], t.end + x[0], t.line + at - 1})
					}
				}
			}
			i = e
		case c == '"' || c == '\'':
			l := line
			e := str(i, false)
			add(gmlString, i, e, l)
			i = e
		case c == '$' && i+1 < n && isHex(src[i+1]):
			e := i + 1
			for e < n && isHex(src[e]) {
				e++
			}
			add(gmlNumber, i, e, line)
			i = e
		case c >= '0' && c <= '9' || c == '.' && i+1 < n && src[i+1] >= '0' && src[i+1] <= '9':
			e := i + 1
			for e < n && (isIdent(src[e]) || src[e] == '.') && src[e] < 0x80 {
				e++
			}
			add(gmlNumber, i, e, line)
			i = e
		case c == '#':
			e := i + 1
			for e < n && isIdent(src[e]) {
				e++
			}
			if e == i+1 {
				add(gmlPunct, i, e, line)
				i = e
				continue
			}
			word := string(src[i+1 : e])
			if word != "macro" {
				// #region, #endregion and unknown directives run to the line's end.
				for e < n && src[e] != '\n' {
					e++
				}
			}
			add(gmlDirective, i, e, line)
			i = e
		case isIdent(c):
			e := i + 1
			for e < n && isIdent(src[e]) {
				e++
			}
			add(gmlIdent, i, e, line)
			i = e
		default:
			add(gmlPunct, i, i+1, line)
			i++
		}
	}
	return toks, bad
}

// gmlTemplate scans a template string $"…{expr}…" whose quote is at q,
// skipping nested braces and strings in its expressions.
func gmlTemplate(src []byte, q int, line, bad *int, exprs *[][2]int) int {
	n := len(src)
	depth := 0
	from := 0
	for i := q + 1; i < n; i++ {
		switch c := src[i]; {
		case c == '\n':
			if depth == 0 {
				if *bad == 0 {
					*bad = *line
				}
				return i
			}
			*line++
		case c == '\\' && depth == 0:
			i++
		case c == '{':
			if depth == 0 {
				from = i + 1
			}
			depth++
		case c == '}' && depth > 0:
			depth--
			if depth == 0 {
				*exprs = append(*exprs, [2]int{from, i})
			}
		case c == '"' && depth == 0:
			return i + 1
		case c == '"':
			for i++; i < n && src[i] != '"' && src[i] != '\n'; i++ {
			}
		}
	}
	if *bad == 0 {
		*bad = *line
	}
	return n
}

func isHex(b byte) bool { return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F' }

// gmlKeywords are words that never name a called function or a macro.
var gmlKeywords = map[string]bool{"if": true, "else": true, "while": true, "for": true, "do": true, "until": true,
	"repeat": true, "switch": true, "case": true, "default": true, "break": true, "continue": true, "return": true,
	"exit": true, "with": true, "var": true, "globalvar": true, "function": true, "constructor": true, "static": true,
	"new": true, "delete": true, "try": true, "catch": true, "finally": true, "throw": true, "enum": true, "and": true,
	"or": true, "not": true, "xor": true, "div": true, "mod": true, "self": true, "other": true, "all": true,
	"noone": true, "global": true, "undefined": true, "true": true, "false": true, "begin": true, "end": true,
	"then": true, "pointer_null": true, "pointer_invalid": true, "infinity": true, "NaN": true, "pi": true}

// gmlFrame is one open brace: the body of definition def (index into
// facts.Defs, -1 for a plain block) and the local names bound in it.
type gmlFrame struct {
	open   int // token index of '{'
	def    int
	ctor   bool // the body of a constructor: its assignments are fields
	fn     bool // the body of a function (locals live here)
	locals map[string]bool
	in     int // Ref.In inside this frame
	outer  int // index of the enclosing function frame, -1 for none
}

type gmlScan struct {
	src    []byte
	toks   []gmlTok // without comments
	cmts   []gmlTok
	facts  *world.Facts
	sk     *skel
	li     *lines
	frames []gmlFrame
	enums  map[string]bool
	macros map[string]bool
	global map[string]bool // global.x already defined
	defAt  map[int]bool    // lines where a definition starts
	pair   []int           // pair[i] is the token closing the bracket at i, or -1
	// pendingParams are the parameters of the function whose body opens next.
	pendingParams []string
}

// pairs matches brackets once, so no header or enum costs a scan.
func (g *gmlScan) pairs() {
	g.pair = make([]int, len(g.toks))
	var stack []int
	for i, t := range g.toks {
		g.pair[i] = -1
		if t.kind != gmlPunct {
			continue
		}
		switch c := g.src[t.start]; c {
		case '(', '[', '{':
			stack = append(stack, i)
		case ')', ']', '}':
			want := map[byte]byte{')': '(', ']': '[', '}': '{'}[c]
			for k := len(stack) - 1; k >= 0; k-- {
				if g.src[g.toks[stack[k]].start] == want {
					g.pair[stack[k]] = i
					stack = stack[:k]
					break
				}
			}
		}
	}
}

func (g *gmlScan) text(i int) string {
	if i < 0 || i >= len(g.toks) {
		return ""
	}
	t := g.toks[i]
	return string(g.src[t.start:t.end])
}

func (g *gmlScan) is(i int, s string) bool {
	return i >= 0 && i < len(g.toks) && g.toks[i].kind != gmlString && g.text(i) == s
}

func (g *gmlScan) ident(i int) bool { return i >= 0 && i < len(g.toks) && g.toks[i].kind == gmlIdent }

// in returns the 1-based index of the innermost definition being read.
func (g *gmlScan) in() int {
	if len(g.frames) == 0 {
		return 0
	}
	return g.frames[len(g.frames)-1].in
}

// fnFrame returns the index of the innermost function body, or -1.
func (g *gmlScan) fnFrame() int {
	if k := len(g.frames) - 1; k >= 0 {
		if g.frames[k].fn {
			return k
		}
		return g.frames[k].outer
	}
	return -1
}

// local reports whether name is bound in an enclosing function body
// (looking through at most 32 of them).
func (g *gmlScan) local(name string) bool {
	for k, n := g.fnFrame(), 0; k >= 0 && n < 32; k, n = g.frames[k].outer, n+1 {
		if g.frames[k].locals[name] {
			return true
		}
	}
	return false
}

// bind adds a local name to the innermost function body.
func (g *gmlScan) bind(name string) {
	if k := g.fnFrame(); k >= 0 {
		g.frames[k].locals[name] = true
	}
}

func (g *gmlScan) def(d world.Def) int {
	g.facts.Defs = append(g.facts.Defs, d)
	g.defAt[d.Start] = true
	return len(g.facts.Defs) - 1
}

func (g *gmlScan) ref(name, qual string, line int, kind string) {
	g.facts.Refs = append(g.facts.Refs, world.Ref{Name: name, Qual: qual, Line: line, In: g.in(), Kind: kind})
}

// match returns the index of the token closing the bracket at i, or -1.
func (g *gmlScan) match(i int) int {
	if i < 0 || i >= len(g.pair) {
		return -1
	}
	return g.pair[i]
}

// span returns the source from token a through token b on one line.
func (g *gmlScan) span(a, b int) string {
	if a < 0 || b >= len(g.toks) || b < a {
		return ""
	}
	return oneLine(string(g.src[g.toks[a].start:g.toks[b].end]))
}

func extractGML(src []byte, _ Options, facts *world.Facts) {
	all, bad := gmlLex(src)
	g := &gmlScan{src: src, facts: facts, sk: &skel{src: src}, li: newLines(src), enums: map[string]bool{},
		macros: map[string]bool{}, global: map[string]bool{}, defAt: map[int]bool{}}
	for _, t := range all {
		if t.kind == gmlComment {
			g.cmts = append(g.cmts, t)
		} else {
			g.toks = append(g.toks, t)
		}
	}
	g.pairs()
	// Enum and macro names first, so uses before their definition count.
	for i := range g.toks {
		if g.is(i, "enum") && g.ident(i+1) {
			g.enums[g.text(i+1)] = true
		}
		if g.toks[i].kind == gmlDirective && g.text(i) == "#macro" {
			if name, _ := g.macroName(i); name != "" {
				g.macros[name] = true
			}
		}
	}
	pending := -1 // definition whose body is the next '{'
	pendingCtor := false
	unclosed := 0
	for i := 0; i < len(g.toks); i++ {
		t := g.toks[i]
		word := g.text(i)
		switch t.kind {
		case gmlDirective:
			if word == "#macro" {
				i = g.macro(i)
			}
			continue
		case gmlPunct:
			switch word {
			case "{":
				fr := gmlFrame{open: i, def: pending, ctor: pendingCtor, fn: pending >= 0}
				if pending == -2 { // an anonymous function's body
					fr.def, fr.fn = -1, true
				}
				if fr.fn {
					fr.locals = map[string]bool{}
					for _, p := range g.pendingParams {
						fr.locals[p] = true
					}
				}
				g.pendingParams = nil
				fr.in, fr.outer = g.in(), g.fnFrame()
				if fr.def >= 0 {
					fr.in = fr.def + 1
				}
				g.frames = append(g.frames, fr)
				pending, pendingCtor = -1, false
			case "}":
				if len(g.frames) == 0 {
					continue
				}
				fr := g.frames[len(g.frames)-1]
				g.frames = g.frames[:len(g.frames)-1]
				if fr.def >= 0 {
					d := &facts.Defs[fr.def]
					d.End = t.line
					if !fr.ctor {
						g.sk.elideBody(g.li, g.toks[fr.open].start, t.start, "//")
					}
				}
			case ";":
				pending, g.pendingParams = -1, nil
			}
			continue
		case gmlIdent:
		default:
			continue
		}
		prevDot := g.is(i-1, ".")
		switch {
		case word == "function" && !prevDot:
			var d int
			d, i = g.function(i)
			pending, pendingCtor = d, d >= 0 && facts.Defs[d].Kind == world.KindClass
			if d == -1 {
				pending = -2
			}
			continue
		case word == "enum" && g.ident(i+1):
			i = g.enum(i)
			continue
		case word == "globalvar":
			for j := i + 1; j < len(g.toks) && g.toks[j].line == t.line && !g.is(j, ";"); j++ {
				if g.ident(j) {
					name := g.text(j)
					if !g.global[name] {
						g.global[name] = true
						g.def(world.Def{Name: name, Qualified: "global." + name, Kind: world.KindVar, Start: t.line, End: t.line,
							Exported: true, Signature: "globalvar " + name, Doc: g.doc(t.line)})
					}
				}
				i = j
			}
			continue
		case word == "var" || word == "static" && g.ident(i+1) && !g.is(i+2, "=") && !g.is(i+2, ";"):
			g.vars(i)
			continue
		case word == "global" && g.is(i+1, ".") && g.ident(i+2):
			name := g.text(i + 2)
			assign := g.is(i+3, "=") && !g.is(i+4, "=")
			if assign && !g.global[name] && !g.is(i+4, "function") {
				g.global[name] = true
				sig := "global." + name
				if e := g.lineEnd(i + 4); e >= i+4 {
					sig += " = " + short(g.span(i+4, e))
				}
				g.def(world.Def{Name: name, Qualified: "global." + name, Kind: world.KindVar, Start: t.line, End: t.line,
					Exported: true, Signature: strings.TrimSuffix(sig, ";"), Doc: g.doc(t.line)})
			} else if !assign && !g.is(i+4, "function") {
				kind := world.RefValue
				if g.is(i+3, "(") {
					kind = world.RefCall
				}
				g.ref(name, "global", g.toks[i+2].line, kind)
			}
			i += 2
			continue
		case word == "new" && g.ident(i+1):
			g.ref(g.text(i+1), "", g.toks[i+1].line, world.RefType)
			i++
			continue
		case gmlKeywords[word] || g.toks[i].kind != gmlIdent:
			continue
		}
		// A field or method of the constructor being read.
		if len(g.frames) > 0 && g.frames[len(g.frames)-1].ctor && !prevDot && g.is(i+1, "=") && !g.is(i+2, "=") && !g.is(i+2, "function") {
			fr := g.frames[len(g.frames)-1]
			static := g.is(i-1, "static")
			if g.atStatementStart(i) || static {
				parent := facts.Defs[fr.def].Qualified
				sig := word
				if static {
					sig = "static " + word
				}
				if e := g.lineEnd(i + 2); e >= i+2 {
					sig += " = " + short(strings.TrimSuffix(g.span(i+2, e), ";"))
				}
				g.def(world.Def{Name: word, Qualified: parent + "." + word, Parent: parent, Kind: world.KindField,
					Start: t.line, End: t.line, Exported: true, Signature: sig, Doc: g.doc(t.line)})
			}
		}
		// References.
		switch {
		case g.is(i+1, "(") && !g.is(i-1, "function"):
			if prevDot && g.ident(i-2) {
				q := g.text(i - 2)
				if g.local(q) {
					continue
				}
				kind := world.RefMember
				if g.enums[q] {
					kind = world.RefCall
				}
				g.ref(word, q, t.line, kind)
			} else if !prevDot && !g.local(word) {
				g.ref(word, "", t.line, world.RefCall)
			}
		case !prevDot && g.is(i+1, ".") && g.ident(i+2) && !g.local(word) && (g.enums[word] || gmlTypeName(word)) && !g.is(i+3, "("):
			g.ref(word, "", t.line, world.RefType)
			g.ref(g.text(i+2), word, t.line, world.RefValue)
			i += 2
		case !prevDot && (g.macros[word] || gmlMacroName(word)) && !g.local(word) && !g.is(i+1, "=") && !g.is(i+1, ":"):
			g.ref(word, "", t.line, world.RefValue)
		}
	}
	for k, fr := range g.frames {
		if k == 0 {
			unclosed = g.toks[fr.open].line
		}
		if fr.def >= 0 && facts.Defs[fr.def].End < facts.Defs[fr.def].Start {
			facts.Defs[fr.def].End = facts.Lines
		}
	}
	for i := range facts.Defs {
		if facts.Defs[i].End == 0 {
			facts.Defs[i].End = facts.Defs[i].Start
		}
	}
	switch {
	case bad > 0:
		facts.Partial = true
		facts.Warning = "unterminated string or comment at line " + strconv.Itoa(bad) + "; facts are partial"
	case unclosed > 0:
		facts.Partial = true
		facts.Warning = "unclosed { at line " + strconv.Itoa(unclosed) + "; facts are partial"
	}
	g.comments()
	tidy(facts)
	facts.Skeleton = g.sk.String()
}

// atStatementStart reports whether token i begins a statement (after ';',
// '{', '}' or on a new line).
func (g *gmlScan) atStatementStart(i int) bool {
	if i == 0 {
		return true
	}
	p := g.text(i - 1)
	return p == ";" || p == "{" || p == "}" || g.toks[i-1].line < g.toks[i].line
}

// lineEnd returns the last token index of the statement starting at i on
// its line (before a ';'), or i-1 when there is none.
func (g *gmlScan) lineEnd(i int) int {
	if i >= len(g.toks) {
		return i - 1
	}
	line := g.toks[i].line
	e := i - 1
	for j := i; j < len(g.toks) && g.toks[j].line == line; j++ {
		if g.is(j, ";") {
			break
		}
		e = j
	}
	return e
}

// gmlMacroName reports whether a name is written like a macro: upper case,
// digits and underscores, at least two characters, one a letter.
func gmlMacroName(s string) bool {
	if len(s) < 2 {
		return false
	}
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c == '_' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return letter && !(s[0] >= '0' && s[0] <= '9')
}

// gmlTypeName reports whether a name is written like an enum or
// constructor (Capitalised, not all upper case): Name.Member is then a
// member of it.
func gmlTypeName(s string) bool {
	return s != "" && s[0] >= 'A' && s[0] <= 'Z' && !gmlMacroName(s)
}

// vars binds the names declared by var (or static in a function) at i.
func (g *gmlScan) vars(i int) {
	depth := 0
	expect := true
	for j := i + 1; j < len(g.toks); j++ {
		if g.toks[j].line != g.toks[i].line && depth == 0 && !g.is(j-1, ",") {
			return
		}
		switch {
		case g.toks[j].kind == gmlPunct:
			switch g.text(j) {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth == 0 {
					return
				}
				depth--
			case ",":
				if depth == 0 {
					expect = true
				}
			case ";":
				if depth == 0 {
					return
				}
			}
		case expect && depth == 0 && g.ident(j):
			g.bind(g.text(j))
			expect = false
		}
	}
}

// macroName reads the name of the #macro at i: NAME or Config:NAME.
func (g *gmlScan) macroName(i int) (name, config string) {
	if !g.ident(i+1) || g.toks[i+1].line != g.toks[i].line {
		return "", ""
	}
	if g.is(i+2, ":") && g.ident(i+3) {
		return g.text(i + 3), g.text(i + 1)
	}
	return g.text(i + 1), ""
}

// macro records the #macro at i and returns the index of its last name
// token; its value is read as code (its references count).
func (g *gmlScan) macro(i int) int {
	name, config := g.macroName(i)
	if name == "" {
		return i
	}
	line := g.toks[i].line
	last := i + 1
	if config != "" {
		last = i + 3
	}
	// The value runs to the line's end, continued by a trailing backslash.
	end := line
	for end < g.li.count() && strings.HasSuffix(strings.TrimSpace(g.li.text(end)), "\\") {
		end++
	}
	value := ""
	if last+1 < len(g.toks) && g.toks[last+1].line <= end {
		vs := g.toks[last+1].start
		ve := g.li.end(end)
		value = short(string(g.src[vs:ve]))
	}
	sig := "#macro " + name
	if config != "" {
		sig = "#macro " + config + ":" + name
	}
	if value != "" {
		sig += " " + value
	}
	g.def(world.Def{Name: name, Qualified: name, Kind: world.KindMacro, Start: line, End: end, Exported: true,
		Signature: sig, Doc: g.doc(line)})
	return last
}

// enum records the enum at i with its members and returns the index of
// its closing brace.
func (g *gmlScan) enum(i int) int {
	name := g.text(i + 1)
	line := g.toks[i].line
	if !g.is(i+2, "{") {
		return i + 1
	}
	close := g.match(i + 2)
	last := close
	if close < 0 {
		last = len(g.toks) - 1
	}
	endLine := g.toks[last].line
	parent := name
	g.def(world.Def{Name: name, Qualified: name, Kind: world.KindEnum, Start: line, End: endLine, Exported: true,
		Signature: "enum " + name, Doc: g.doc(line)})
	expect := true
	depth := 0
	for j := i + 3; j < last; j++ {
		switch {
		case g.toks[j].kind == gmlPunct && (g.text(j) == "(" || g.text(j) == "["):
			depth++
		case g.toks[j].kind == gmlPunct && (g.text(j) == ")" || g.text(j) == "]"):
			depth--
		case g.is(j, ",") && depth == 0:
			expect = true
		case expect && g.ident(j):
			m := g.text(j)
			sig := m
			if g.is(j+1, "=") {
				k := j + 2
				for k < last && !(g.is(k, ",") && depth == 0) {
					k++
				}
				sig += " = " + short(g.span(j+2, k-1))
			}
			g.def(world.Def{Name: m, Qualified: parent + "." + m, Parent: parent, Kind: world.KindConst,
				Start: g.toks[j].line, End: g.toks[j].line, Exported: true, Signature: sig})
			expect = false
		case g.ident(j) && (g.enums[g.text(j)] || gmlTypeName(g.text(j))) && g.is(j+1, ".") && g.ident(j+2):
			g.ref(g.text(j), "", g.toks[j].line, world.RefType)
			g.ref(g.text(j+2), g.text(j), g.toks[j].line, world.RefValue)
			j += 2
		case g.ident(j) && gmlMacroName(g.text(j)):
			g.ref(g.text(j), "", g.toks[j].line, world.RefValue)
		}
	}
	if close < 0 {
		return len(g.toks)
	}
	return close
}

// function reads the function at i (the keyword). It returns the index of
// the definition it records (-1 for an anonymous function, which is not a
// definition) and the index of the last token of its header.
func (g *gmlScan) function(i int) (def, last int) {
	j := i + 1
	name := ""
	if g.ident(j) {
		name = g.text(j)
		j++
	}
	if !g.is(j, "(") {
		return -1, i
	}
	pclose := g.match(j)
	if pclose < 0 {
		return -1, i
	}
	params := []string{}
	expect := true
	for k := j + 1; k < pclose; k++ {
		switch {
		case g.is(k, ","):
			expect = true
		case expect && g.ident(k):
			params = append(params, g.text(k))
			expect = false
		}
	}
	hdrEnd := pclose
	parentCtor := ""
	parentLine := 0
	k := pclose + 1
	if g.is(k, ":") && g.ident(k+1) {
		parentCtor, parentLine = g.text(k+1), g.toks[k+1].line
		k += 2
		if g.is(k, "(") {
			if m := g.match(k); m > 0 {
				k = m + 1
			}
		}
		hdrEnd = k - 1
	}
	ctor := false
	if g.is(k, "constructor") {
		ctor = true
		hdrEnd = k
		k++
	}
	// The name of an assigned function: [static] name = function …
	start := i
	static := false
	if name == "" && g.is(i-1, "=") && g.ident(i-2) && !g.is(i-3, ".") {
		name = g.text(i - 2)
		start = i - 2
		if g.is(i-3, "static") {
			static = true
			start = i - 3
		}
	}
	// Where it is: at the top, in a constructor (a method), or in a function.
	var enclosing *gmlFrame
	for f := len(g.frames) - 1; f >= 0; f-- {
		if g.frames[f].fn || g.frames[f].ctor {
			enclosing = &g.frames[f]
			break
		}
	}
	if name == "" || enclosing != nil && !enclosing.ctor && !static && g.text(i-1) == "=" {
		// anonymous, or a function held in a variable inside a function body
		if name != "" {
			g.bind(name)
		}
		g.params(params)
		return -1, hdrEnd
	}
	d := world.Def{Name: name, Qualified: name, Kind: world.KindFunction, Start: g.toks[start].line, Exported: true,
		Doc: g.doc(g.toks[start].line)}
	if ctor {
		d.Kind = world.KindClass
	}
	if enclosing != nil && enclosing.def >= 0 {
		parent := g.facts.Defs[enclosing.def].Qualified
		d.Parent, d.Qualified = parent, parent+"."+name
		if d.Kind == world.KindFunction {
			d.Kind = world.KindMethod
		}
	}
	d.Signature = g.span(start, hdrEnd)
	idx := g.def(d)
	if parentCtor != "" {
		g.facts.Refs = append(g.facts.Refs, world.Ref{Name: parentCtor, Line: parentLine, In: idx + 1, Kind: world.RefType})
	}
	g.params(params)
	return idx, hdrEnd
}

// params are bound in the body about to open: they are kept until its '{'.
func (g *gmlScan) params(ps []string) {
	g.pendingParams = ps
}

// doc returns the first line of the comment block ending on the line above
// line, skipping JSDoc tags other than @description.
func (g *gmlScan) doc(line int) string {
	// the last comment starting before the line
	at := g.li.start(line)
	k := sort.Search(len(g.cmts), func(c int) bool { return g.cmts[c].start >= at }) - 1
	if k < 0 || g.li.lineOf(g.cmts[k].end-1) != line-1 || !g.lineOnlyComment(g.cmts[k]) {
		return ""
	}
	first := k
	for first > 0 && g.cmts[first-1].line == g.cmts[first].line-1 && g.lineOnlyComment(g.cmts[first-1]) {
		first--
	}
	var fallback string
	for c := first; c <= k; c++ {
		text := strings.TrimSpace(strings.TrimLeft(string(g.src[g.cmts[c].start:g.cmts[c].end]), "/*"))
		text = strings.TrimSuffix(text, "*/")
		switch {
		case strings.HasPrefix(text, "@desc"):
			if sp := strings.IndexAny(text, " \t"); sp > 0 {
				return strings.TrimSpace(text[sp:])
			}
		case strings.HasPrefix(text, "@"):
		case fallback == "" && text != "":
			fallback = firstDocLine(text)
		}
	}
	return fallback
}

// lineOnlyComment reports whether nothing but white space precedes c on
// its line.
func (g *gmlScan) lineOnlyComment(c gmlTok) bool {
	s := g.li.start(c.line)
	return strings.TrimSpace(string(g.src[s:c.start])) == ""
}

// comments leaves comments out of the skeleton, except the first line of
// a block right above a definition.
func (g *gmlScan) comments() {
	for k := 0; k < len(g.cmts); k++ {
		c := g.cmts[k]
		if !g.lineOnlyComment(c) {
			g.sk.elide(c.start, c.end, "")
			continue
		}
		last := k
		for last+1 < len(g.cmts) && g.cmts[last+1].line == g.li.lineOf(g.cmts[last].end-1)+1 && g.lineOnlyComment(g.cmts[last+1]) {
			last++
		}
		below := g.li.lineOf(g.cmts[last].end-1) + 1
		if g.defAt[below] && g.doc(below) != "" {
			// keep the first line of the block
			nl := strings.IndexByte(string(g.src[c.start:c.end]), '\n')
			if nl >= 0 {
				g.sk.elide(c.start+nl, c.end, " … */")
			}
			for m := k + 1; m <= last; m++ {
				g.sk.elide(g.cmts[m].start, g.cmts[m].end, "")
			}
		} else {
			for m := k; m <= last; m++ {
				g.sk.elide(g.cmts[m].start, g.cmts[m].end, "")
			}
		}
		k = last
	}
}
