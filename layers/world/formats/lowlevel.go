package formats

import (
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// Low level: WebAssembly text (a tokenizer and an S-expression tree of
// its own) and assembly (NASM, MASM, GAS for x86, ARM and RISC-V, through
// a structured line scanner).

func init() {
	Register(world.LangWAT, extractWAT)
	Register(world.LangAssembly, extractAssembly)
}

// ---- WebAssembly text ----

type watNode struct {
	open, close int // offsets of '(' and ')' (close -1 when unclosed)
	atoms       []watAtom
	kids        []*watNode
	order       []int // atoms and kids in source order: index >= 0 atom, < 0 kid -(i+1)
}

type watAtom struct {
	start, end int
	str        bool
}

// watParse builds the S-expression forest of src; bad is the line of the
// first unterminated string, comment or list (0 when there is none).
func watParse(src []byte, li *lines) (top []*watNode, bad int) {
	var stack []*watNode
	fail := func(at int) {
		if bad == 0 {
			bad = li.lineOf(at)
		}
	}
	n := len(src)
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == ';' && i+1 < n && src[i+1] == ';':
			for i < n && src[i] != '\n' {
				i++
			}
		case c == '(' && i+1 < n && src[i+1] == ';':
			depth, e := 1, i+2
			for e < n && depth > 0 {
				if src[e] == '(' && e+1 < n && src[e+1] == ';' {
					depth, e = depth+1, e+2
				} else if src[e] == ';' && e+1 < n && src[e+1] == ')' {
					depth, e = depth-1, e+2
				} else {
					e++
				}
			}
			if depth > 0 {
				fail(i)
			}
			i = e
		case c == '(':
			nd := &watNode{open: i, close: -1}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.kids = append(p.kids, nd)
				p.order = append(p.order, -len(p.kids))
			} else {
				top = append(top, nd)
			}
			stack = append(stack, nd)
			i++
		case c == ')':
			if len(stack) > 0 {
				stack[len(stack)-1].close = i
				stack = stack[:len(stack)-1]
			}
			i++
		case c == '"':
			e := i + 1
			for e < n && src[e] != '"' {
				if src[e] == '\\' {
					e++
				}
				e++
			}
			if e >= n {
				fail(i)
				e = n - 1
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.atoms = append(p.atoms, watAtom{i, e + 1, true})
				p.order = append(p.order, len(p.atoms)-1)
			}
			i = e + 1
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		default:
			e := i
			for e < n && !strings.ContainsRune(" \t\r\n()\";", rune(src[e])) {
				e++
			}
			if e == i {
				e++
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.atoms = append(p.atoms, watAtom{i, e, false})
				p.order = append(p.order, len(p.atoms)-1)
			}
			i = e
		}
	}
	if len(stack) > 0 {
		fail(stack[0].open)
	}
	return top, bad
}

type watScan struct {
	src   []byte
	li    *lines
	facts *world.Facts
	sk    *skel
	count map[string]int // unnamed fields per kind, for func[0] names
	byKey map[string]int // "func:name" → def index, for exports
}

func (w *watScan) atom(a watAtom) string {
	s := string(w.src[a.start:a.end])
	if a.str {
		s = strings.Trim(s, `"`)
	}
	return s
}

// head returns the first atom of a list ("" when none).
func (w *watScan) head(nd *watNode) string {
	if len(nd.order) == 0 || nd.order[0] < 0 {
		return ""
	}
	return w.atom(nd.atoms[nd.order[0]])
}

// name returns the $id that follows a list's keyword, or "".
func (w *watScan) name(nd *watNode) string {
	if len(nd.order) > 1 && nd.order[1] >= 0 {
		if s := w.atom(nd.atoms[nd.order[1]]); strings.HasPrefix(s, "$") {
			return s[1:]
		}
	}
	return ""
}

func (w *watScan) end(nd *watNode) int {
	if nd.close < 0 {
		return w.li.count()
	}
	return w.li.lineOf(nd.close)
}

var watFields = map[string]string{"func": world.KindFunction, "global": world.KindVar, "type": world.KindType,
	"memory": world.KindVar, "table": world.KindVar, "data": world.KindConst, "elem": world.KindConst, "tag": world.KindType}

// watHeader are the parts of a func that are its signature.
var watHeader = map[string]bool{"export": true, "import": true, "type": true, "param": true, "result": true, "local": true}

func extractWAT(src []byte, _ Options, facts *world.Facts) {
	li := newLines(src)
	top, bad := watParse(src, li)
	w := &watScan{src: src, li: li, facts: facts, sk: &skel{src: src}, count: map[string]int{}, byKey: map[string]int{}}
	var fields []*watNode
	for _, t := range top {
		if w.head(t) == "module" {
			if nm := w.name(t); nm != "" {
				facts.Package = nm
			}
			fields = append(fields, t.kids...)
		} else {
			fields = append(fields, t) // a module's fields written bare
		}
	}
	var exports []*watNode
	for _, f := range fields {
		kw := w.head(f)
		switch kw {
		case "import":
			w.importField(f)
		case "export":
			exports = append(exports, f)
		case "start":
			if len(f.order) > 1 && f.order[1] >= 0 {
				facts.Refs = append(facts.Refs, world.Ref{Name: strings.TrimPrefix(w.atom(f.atoms[f.order[1]]), "$"),
					Line: li.lineOf(f.open), Kind: world.RefCall})
			}
		default:
			if kind, ok := watFields[kw]; ok {
				w.field(f, kw, kind)
			}
		}
	}
	for _, e := range exports {
		if len(e.kids) == 0 || len(e.atoms) < 2 {
			continue
		}
		k := e.kids[0]
		target := ""
		if len(k.order) > 1 && k.order[1] >= 0 {
			target = strings.TrimPrefix(w.atom(k.atoms[k.order[1]]), "$")
		}
		if i, ok := w.byKey[w.head(k)+":"+target]; ok {
			facts.Defs[i].Exported = true
		}
		facts.Refs = append(facts.Refs, world.Ref{Name: target, Line: li.lineOf(e.open), Kind: world.RefValue})
	}
	if bad > 0 {
		facts.Partial = true
		facts.Warning = "unterminated string, comment or list at line " + itoa(bad) + "; facts are partial"
	}
	m := maskSource(src, syntax{line: []string{";;"}, blockOpen: "(;", blockClose: ";)", nestBlock: true, quotes: `"`, escape: '\\'})
	m.dropComments(w.sk, docStarts(facts, func(d *world.Def) bool { return d.Doc != "" }))
	facts.Skeleton = w.sk.String()
	tidy(facts)
}

func (w *watScan) field(f *watNode, kw, kind string) {
	name := w.name(f)
	if name == "" {
		name = kw + "[" + itoa(w.count[kw]) + "]"
	}
	w.count[kw]++
	line := w.li.lineOf(f.open)
	exported := false
	// The signature: the keyword, name and header lists (params, results …).
	sigEnd := f.open + 1
	bodyFrom := -1
	for _, o := range f.order {
		if o >= 0 {
			if bodyFrom >= 0 {
				continue
			}
			own := o == f.order[0] || len(f.order) > 1 && o == f.order[1] && strings.HasPrefix(w.atom(f.atoms[o]), "$")
			if kw == "func" && !own {
				bodyFrom = f.atoms[o].start // the first instruction
				continue
			}
			sigEnd = f.atoms[o].end
			continue
		}
		k := f.kids[-o-1]
		h := w.head(k)
		if h == "export" {
			exported = true
		}
		if bodyFrom < 0 && (watHeader[h] || kw != "func") {
			sigEnd = k.close + 1
			if k.close < 0 {
				sigEnd = len(w.src)
			}
			continue
		}
		if bodyFrom < 0 {
			bodyFrom = k.open
		}
	}
	if sigEnd > len(w.src) || sigEnd < f.open {
		sigEnd = len(w.src)
	}
	sig := clip(oneLine(string(w.src[f.open:sigEnd]))+")", 160)
	d := world.Def{Name: name, Qualified: name, Kind: kind, Start: line, End: w.end(f), Exported: exported, Signature: sig,
		Doc: watDoc(w.src, w.li, line)}
	w.facts.Defs = append(w.facts.Defs, d)
	in := len(w.facts.Defs)
	w.byKey[kw+":"+name] = in - 1
	if bodyFrom >= 0 && f.close > bodyFrom {
		a, b := w.li.lineOf(bodyFrom), w.li.lineOf(f.close)
		if b > a || f.close-bodyFrom > maxValue {
			w.sk.elide(bodyFrom, f.close, "(; … lines "+itoa(a)+"-"+itoa(b)+" ;)")
		}
	}
	if kw == "func" || kw == "global" || kw == "elem" {
		w.refs(f, in, map[string]bool{})
	}
}

// refs records calls, global uses and type uses in a field's body.
func (w *watScan) refs(nd *watNode, in int, locals map[string]bool) {
	prev := ""
	for _, o := range nd.order {
		if o < 0 {
			k := nd.kids[-o-1]
			switch w.head(k) {
			case "param", "local":
				if nm := w.name(k); nm != "" {
					locals[nm] = true
				}
				continue
			case "type":
				if nm := w.name(k); nm != "" {
					w.facts.Refs = append(w.facts.Refs, world.Ref{Name: nm, Line: w.li.lineOf(k.open), In: in, Kind: world.RefType})
				}
				continue
			}
			w.refs(k, in, locals)
			prev = ""
			continue
		}
		a := w.atom(nd.atoms[o])
		if strings.HasPrefix(a, "$") && !locals[a[1:]] {
			own := len(nd.order) > 1 && nd.order[1] == o && watFields[w.head(nd)] != ""
			kind := ""
			switch {
			case own:
			case prev == "call" || prev == "return_call" || prev == "ref.func":
				kind = world.RefCall
			case prev == "global.get" || prev == "global.set" || w.head(nd) == "elem":
				kind = world.RefValue
			}
			if kind != "" {
				w.facts.Refs = append(w.facts.Refs, world.Ref{Name: a[1:], Line: w.li.lineOf(nd.atoms[o].start), In: in, Kind: kind})
			}
		}
		prev = a
	}
}

func (w *watScan) importField(f *watNode) {
	var strs []string
	for _, a := range f.atoms {
		if a.str {
			strs = append(strs, w.atom(a))
		}
	}
	if len(strs) < 2 {
		return
	}
	line := w.li.lineOf(f.open)
	w.facts.Imports = append(w.facts.Imports, world.Import{Path: strs[0], Names: []string{strs[1]}, Line: line})
	if len(f.kids) == 0 {
		return
	}
	k := f.kids[0]
	kw := w.head(k)
	kind, ok := watFields[kw]
	if !ok {
		return
	}
	name := w.name(k)
	if name == "" {
		name = kw + "[" + itoa(w.count[kw]) + "]"
	}
	w.count[kw]++
	end := f.close + 1
	if f.close < 0 {
		end = len(w.src)
	}
	w.facts.Defs = append(w.facts.Defs, world.Def{Name: name, Qualified: name, Kind: kind, Start: line, End: w.end(f),
		Signature: clip(oneLine(string(w.src[f.open:end])), 160), Doc: watDoc(w.src, w.li, line)})
	w.byKey[kw+":"+name] = len(w.facts.Defs) - 1
}

// watDoc is the first line of the ;; comment block right above line.
func watDoc(src []byte, li *lines, line int) string {
	first := 0
	for l := line - 1; l >= 1; l-- {
		if !strings.HasPrefix(strings.TrimSpace(li.text(l)), ";;") {
			break
		}
		first = l
	}
	if first == 0 {
		return ""
	}
	return firstDocLine(li.text(first))
}

// ---- Assembly ----

type asmScan struct {
	li       *lines
	facts    *world.Facts
	sk       *skel
	nasm     bool            // NASM/MASM syntax (';' comments, section, global)
	globals  map[string]bool // declared global or .type @function
	funcs    map[string]bool
	section  string
	secDef   int // index of the open section's def, -1 for none
	labelDef int // index of the open label's def, -1 for none
	body     [2]int
	macro    int // index of the open macro's def, -1 for none
}

// asmJumps are the mnemonics whose operand names code: calls and jumps.
var asmJumps = map[string]bool{"call": true, "callq": true, "calll": true, "jmp": true, "jmpq": true, "bl": true, "blx": true,
	"b": true, "jal": true, "j": true, "tail": true, "bsr": true, "bra": true, "jsr": true}

// extractAssembly reads NASM, MASM and GAS sources line by line:
// sections (modules), global labels (functions in code sections, variables
// in data), macros (%macro/.macro/MACRO), constants (equ, .equ, .set,
// %define, #define), externs and includes (imports) and the targets of
// calls and jumps (references). Instruction runs are elided in the
// skeleton.
func extractAssembly(src []byte, _ Options, facts *world.Facts) {
	a := &asmScan{li: newLines(src), facts: facts, sk: &skel{src: src}, globals: map[string]bool{}, funcs: map[string]bool{},
		secDef: -1, labelDef: -1, macro: -1}
	n := a.li.count()
	clean := make([]string, n+1)
	for l := 1; l <= n; l++ {
		clean[l] = a.strip(a.li.text(l))
		t := strings.ToLower(clean[l])
		if strings.HasPrefix(t, "section ") || strings.HasPrefix(t, "global ") || strings.HasPrefix(t, "extern ") ||
			strings.HasPrefix(t, "%") || strings.Contains(t, " proc") || strings.HasPrefix(strings.TrimSpace(a.li.text(l)), ";") {
			a.nasm = true
		}
	}
	// Declarations first: which labels are global, which are functions.
	for l := 1; l <= n; l++ {
		f := strings.Fields(strings.ReplaceAll(clean[l], ",", " "))
		if len(f) < 2 {
			continue
		}
		switch strings.ToLower(f[0]) {
		case "global", ".globl", ".global", "public", "globl":
			for _, s := range f[1:] {
				a.globals[strings.Split(s, ":")[0]] = true
			}
		case ".type":
			if len(f) >= 3 && strings.Contains(f[2], "function") {
				a.funcs[f[1]] = true
			}
		}
	}
	for l := 1; l <= n; l++ {
		a.line(l, clean[l])
	}
	a.closeLabel(n)
	a.closeSection(n)
	if a.macro >= 0 {
		facts.Partial = true
		facts.Warning = "macro without its end at line " + itoa(facts.Defs[a.macro].Start) + "; facts are partial"
	}
	// Comment lines leave the skeleton, except the first above a definition.
	starts := docStarts(facts, func(d *world.Def) bool { return d.Doc != "" })
	for l := 1; l <= n; l++ {
		if clean[l] != "" || strings.TrimSpace(a.li.text(l)) == "" {
			continue
		}
		e := l
		for e < n && clean[e+1] == "" && strings.TrimSpace(a.li.text(e+1)) != "" {
			e++
		}
		from := l
		if starts(e + 1) {
			from = l + 1
		}
		for k := from; k <= e; k++ {
			a.sk.elide(a.li.start(k), a.li.end(k), "")
		}
		l = e
	}
	facts.Skeleton = a.sk.String()
	tidy(facts)
}

// strip removes a line's comment (strings kept whole).
func (a *asmScan) strip(s string) string {
	inStr := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inStr != 0 {
			if c == '\\' {
				i++
			} else if c == inStr {
				inStr = 0
			}
			continue
		}
		switch {
		case c == '"' || c == '\'' && !(i > 0 && isIdent(s[i-1])):
			inStr = c
		case c == ';':
			return strings.TrimSpace(s[:i])
		case c == '/' && i+1 < len(s) && (s[i+1] == '/' || s[i+1] == '*'):
			return strings.TrimSpace(s[:i])
		case (c == '#' || c == '@') && strings.TrimSpace(s[:i]) == "" && !asmDirectiveAt(s, i):
			return ""
		case c == '#' && i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') && i+1 < len(s) && s[i+1] == ' ':
			return strings.TrimSpace(s[:i])
		}
	}
	return strings.TrimSpace(s)
}

// asmDirectiveAt reports whether a '#' at i starts a C preprocessor line.
func asmDirectiveAt(s string, i int) bool {
	if s[i] != '#' {
		return false
	}
	r := strings.TrimSpace(s[i+1:])
	for _, d := range []string{"include", "define", "if", "ifdef", "ifndef", "else", "endif", "elif", "undef"} {
		if strings.HasPrefix(r, d) {
			return true
		}
	}
	return false
}

func (a *asmScan) closeLabel(last int) {
	if a.labelDef >= 0 {
		d := &a.facts.Defs[a.labelDef]
		d.End = a.lastCode(d.Start, last)
		a.elideBody(a.labelDef)
	}
	a.labelDef = -1
}

func (a *asmScan) closeSection(last int) {
	if a.secDef >= 0 {
		d := &a.facts.Defs[a.secDef]
		d.End = a.lastCode(d.Start, last)
	}
	a.secDef = -1
}

// lastCode is the last line in from..to with something on it.
func (a *asmScan) lastCode(from, to int) int {
	for l := to; l > from; l-- {
		if strings.TrimSpace(a.li.text(l)) != "" {
			return l
		}
	}
	return from
}

// elideBody replaces the instruction lines of a label by one line.
func (a *asmScan) elideBody(i int) {
	d := a.facts.Defs[i]
	if d.End <= d.Start {
		return
	}
	lead := "#"
	if a.nasm {
		lead = ";"
	}
	a.sk.elideLines(a.li, d.Start+1, d.End, "    ", lead)
}

func (a *asmScan) def(d world.Def) int {
	d.Doc = a.doc(d.Start)
	a.facts.Defs = append(a.facts.Defs, d)
	return len(a.facts.Defs) - 1
}

func (a *asmScan) doc(line int) string {
	first := 0
	for l := line - 1; l >= 1; l-- {
		t := strings.TrimSpace(a.li.text(l))
		if t == "" || !(strings.HasPrefix(t, ";") || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") && !asmDirectiveAt(t, 0) || strings.HasPrefix(t, "@")) {
			break
		}
		first = l
	}
	if first == 0 {
		return ""
	}
	return firstDocLine(a.li.text(first))
}

func (a *asmScan) line(l int, t string) {
	if t == "" {
		return
	}
	f := strings.Fields(strings.ReplaceAll(t, ",", " , "))
	kw := strings.ToLower(f[0])
	arg := func(i int) string {
		if i < len(f) {
			return strings.Trim(f[i], `"'<>`)
		}
		return ""
	}
	in := 0
	if a.labelDef >= 0 {
		in = a.labelDef + 1
	}
	// Macros end first: their bodies are not read.
	if a.macro >= 0 {
		if kw == "%endmacro" || kw == ".endm" || kw == "endm" || kw == ".endmacro" {
			a.facts.Defs[a.macro].End = l
			lead := "#"
			if a.nasm {
				lead = ";"
			}
			a.sk.elideLines(a.li, a.facts.Defs[a.macro].Start+1, l-1, "    ", lead)
			a.macro = -1
		}
		return
	}
	if kw == "%macro" || kw == ".macro" || kw == "%define" || kw == "%assign" || kw == "#define" || kw == ".equ" || kw == ".set" ||
		len(f) >= 3 && (strings.EqualFold(f[1], "equ") || f[1] == "=") || len(f) > 1 && strings.EqualFold(f[1], "macro") {
		a.closeLabel(l - 1)
	}
	switch {
	case kw == "%macro" || kw == ".macro":
		a.macro = a.def(world.Def{Name: strings.TrimSuffix(arg(1), ","), Qualified: strings.TrimSuffix(arg(1), ","), Kind: world.KindMacro,
			Start: l, End: l, Exported: true, Signature: oneLine(t)})
		return
	case len(f) > 1 && strings.EqualFold(f[1], "macro"):
		a.macro = a.def(world.Def{Name: f[0], Qualified: f[0], Kind: world.KindMacro, Start: l, End: l, Exported: true, Signature: oneLine(t)})
		return
	case kw == "section" || kw == "segment" || kw == ".section" || kw == ".text" || kw == ".data" || kw == ".bss" ||
		kw == ".rodata" || kw == "[section":
		name := kw
		if kw == "section" || kw == "segment" || kw == ".section" || kw == "[section" {
			name = strings.TrimSuffix(strings.TrimSuffix(arg(1), "]"), ",")
		}
		if name == "" {
			return
		}
		a.closeLabel(l - 1)
		a.closeSection(l - 1)
		a.section = name
		a.secDef = a.def(world.Def{Name: name, Qualified: name, Kind: world.KindModule, Start: l, End: l, Exported: true, Signature: oneLine(t)})
		return
	case kw == "extern" || kw == ".extern" || kw == "extrn" || kw == "import":
		for _, s := range f[1:] {
			if s = strings.Split(s, ":")[0]; s != "," && s != "" {
				a.facts.Imports = append(a.facts.Imports, world.Import{Path: s, Line: l, Kind: "extern"})
			}
		}
		return
	case kw == "%include" || kw == ".include" || kw == "include" || kw == "#include" || kw == ".incbin" || kw == "incbin":
		if p := arg(1); p != "" {
			a.facts.Imports = append(a.facts.Imports, world.Import{Path: p, Line: l, Kind: "include"})
		}
		return
	case kw == "%define" || kw == "%assign" || kw == "#define" || kw == "%xdefine":
		if p := arg(1); p != "" {
			name := strings.SplitN(p, "(", 2)[0]
			a.def(world.Def{Name: name, Qualified: name, Kind: world.KindConst, Start: l, End: l, Exported: true, Signature: clip(oneLine(t), 100)})
		}
		return
	case kw == ".equ" || kw == ".set" || kw == ".equiv":
		if p := strings.TrimSuffix(arg(1), ","); p != "" {
			a.def(world.Def{Name: p, Qualified: p, Kind: world.KindConst, Start: l, End: l, Exported: true, Signature: clip(oneLine(t), 100)})
		}
		return
	case len(f) >= 3 && (strings.EqualFold(f[1], "equ") || f[1] == "="):
		a.def(world.Def{Name: f[0], Qualified: f[0], Kind: world.KindConst, Start: l, End: l, Exported: true, Signature: clip(oneLine(t), 100)})
		return
	case strings.HasPrefix(kw, ".") || strings.HasPrefix(kw, "%") || strings.HasPrefix(kw, "#"):
		return // other directives
	}
	// A label: name: (possibly followed by an instruction), or MASM name PROC.
	label := ""
	rest := ""
	if i := strings.IndexByte(t, ':'); i > 0 && asmLabelName(t[:i]) {
		label, rest = t[:i], strings.TrimSpace(t[i+1:])
	} else if len(f) >= 2 && strings.EqualFold(f[1], "proc") {
		label = f[0]
	} else if len(f) >= 2 && strings.EqualFold(f[1], "endp") {
		a.closeLabel(l)
		return
	}
	if label != "" && !strings.HasPrefix(label, ".") && !strings.HasPrefix(label, "$") && !strings.HasPrefix(label, "@@") &&
		strings.Trim(label, "0123456789") != "" {
		a.closeLabel(l - 1)
		kind := world.KindVar
		sec := strings.ToLower(a.section)
		if a.funcs[label] || sec == "" || strings.Contains(sec, "text") || strings.Contains(sec, "code") || len(f) >= 2 && strings.EqualFold(f[1], "proc") {
			kind = world.KindFunction
		}
		if a.funcs[label] {
			kind = world.KindFunction
		}
		parent := ""
		if a.secDef >= 0 {
			parent = ""
		}
		a.labelDef = a.def(world.Def{Name: label, Qualified: label, Parent: parent, Kind: kind, Start: l, End: l,
			Exported: a.globals[label], Signature: clip(oneLine(t), 100)})
		if rest == "" {
			return
		}
		f = strings.Fields(strings.ReplaceAll(rest, ",", " , "))
		kw = strings.ToLower(f[0])
		in = a.labelDef + 1
	}
	if len(f) >= 2 && (asmJumps[kw] || strings.HasPrefix(kw, "j") && len(kw) <= 4 && a.nasm || strings.HasPrefix(kw, "b.") || kw == "cbz" || kw == "cbnz") {
		target := f[1]
		if kw == "cbz" || kw == "cbnz" || strings.HasPrefix(kw, "b.") && len(f) > 3 {
			target = f[len(f)-1]
		}
		for i := 1; i < len(f)-1 && asmSize[strings.ToLower(target)]; i++ {
			target = f[i+1]
		}
		target = strings.TrimSuffix(strings.TrimSuffix(target, "@PLT"), "@plt")
		target = strings.TrimPrefix(target, "near ")
		if asmLabelName(target) && !strings.HasPrefix(target, ".") && strings.Trim(target, "0123456789bf") != "" && !asmRegister(target) {
			a.facts.Refs = append(a.facts.Refs, world.Ref{Name: target, Line: l, In: in, Kind: world.RefCall})
		}
	}
}

// asmSize are the words that may stand before a jump's target.
var asmSize = map[string]bool{"near": true, "far": true, "short": true, "qword": true, "dword": true, "ptr": true}

// asmLabelName reports whether s is written like a label.
func asmLabelName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isIdent(c) || c == '.' || c == '$' || c == '@' || c == '?') {
			return false
		}
	}
	return !(s[0] >= '0' && s[0] <= '9') || strings.Trim(s, "0123456789") == ""
}

// asmRegister reports whether s names a common register (an indirect jump).
func asmRegister(s string) bool {
	s = strings.ToLower(s)
	if len(s) >= 2 && (s[0] == 'x' || s[0] == 'w' || s[0] == 'r') && strings.Trim(s[1:], "0123456789") == "" {
		return true
	}
	switch s {
	case "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "eax", "ebx", "ecx", "edx", "esi", "edi", "lr", "ra", "pc":
		return true
	}
	return false
}
