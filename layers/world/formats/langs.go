package formats

import (
	"bytes"
	"strings"

	"github.com/git-speed/git-speed/internal/lazyre"
	"github.com/git-speed/git-speed/layers/world"
)

// langs.go: Solidity, Perl, R, Erlang and Clojure, languages without a
// tree-sitter grammar here, read by structured scanners over the masked
// source: declarations at statement starts, bodies found by matched
// brackets (Erlang forms by their final full stop, Clojure by top-level
// S-expressions) and elided in the skeleton.

func init() {
	Register(world.LangSolidity, extractSolidity)
	Register(world.LangPerl, extractPerl)
	Register(world.LangR, extractR)
	Register(world.LangErlang, extractErlang)
	Register(world.LangClojure, extractClojure)
}

// ---- shared ----

// callable reports whether a definition has a body whose calls are its own.
func callable(d *world.Def) bool {
	switch d.Kind {
	case world.KindFunction, world.KindMethod, world.KindMacro:
		return true
	}
	return false
}

// innermost maps every line to the 1-based index of the innermost callable
// definition spanning it (0 for none).
func innermost(facts *world.Facts, n int) []int {
	in := make([]int, n+2)
	for i := range facts.Defs {
		d := &facts.Defs[i]
		if !callable(d) {
			continue
		}
		for l := d.Start; l <= d.End && l <= n; l++ {
			if l >= 1 && (in[l] == 0 || facts.Defs[in[l]-1].Start <= d.Start) {
				in[l] = i + 1
			}
		}
	}
	return in
}

// scanRefs adds a reference of kind for every match of re in the masked
// code: group 1 is a qualifier (may be empty), group 2 the name. Names in
// stop and a definition's own name on its first line are left out. Lines
// without need (a text every match holds) are not searched.
func scanRefs(facts *world.Facts, m *masked, in []int, re *lazyre.Regexp, need, kind string, stop map[string]bool) {
	starts := map[int]map[string]bool{}
	for _, d := range facts.Defs {
		if starts[d.Start] == nil {
			starts[d.Start] = map[string]bool{}
		}
		starts[d.Start][d.Name] = true
	}
	n := m.li.count()
	for l := 1; l <= n; l++ {
		code := string(m.code[m.li.start(l):m.li.end(l)])
		if !strings.Contains(code, need) {
			continue
		}
		for _, mm := range re.FindAllStringSubmatch(code, -1) {
			name := mm[2]
			if name == "" || stop[name] || mm[1] == "" && starts[l][name] {
				continue
			}
			facts.Refs = append(facts.Refs, world.Ref{Name: name, Qual: mm[1], Line: l, In: in[l], Kind: kind})
		}
	}
}

// stopSet makes a set of words.
func stopSet(words string) map[string]bool {
	s := map[string]bool{}
	for _, w := range strings.Fields(words) {
		s[w] = true
	}
	return s
}

// codeAt returns the offset of the first non-blank byte of line l in the
// masked code, or the line's end.
func codeAt(m *masked, l int) int {
	s, e := m.li.start(l), m.li.end(l)
	for s < e && (m.code[s] == ' ' || m.code[s] == '\t' || m.code[s] == '\r') {
		s++
	}
	return s
}

// semiAfter returns the offset of the first ';' at or after i outside
// brackets, or -1.
func (m *masked) semiAfter(i int) int {
	for ; i >= 0 && i < len(m.code); i++ {
		switch b := m.code[i]; b {
		case ';':
			return i
		case '(', '[', '{':
			if c := m.close(i); c > i {
				i = c
			}
		}
	}
	return -1
}

// endScan marks facts partial when the mask met an unterminated string
// or comment, leaves comments out of the skeleton but the first line of
// a definition's doc comment, and tidies the facts.
func endScan(m *masked, sk *skel, facts *world.Facts) {
	if m.broken > 0 && facts.Warning == "" {
		facts.Partial = true
		facts.Warning = "unterminated string or comment at line " + itoa(m.broken) + "; facts are partial"
	}
	m.dropComments(sk, docStarts(facts, func(d *world.Def) bool { return d.Doc != "" }))
	facts.Skeleton = sk.String()
	tidy(facts)
}

var quotedRe = lazyre.New(`["']([^"'\n]+)["']`)

// ---- Solidity ----

var (
	solDeclRe = lazyre.New(`^(?:abstract\s+)?(contract|interface|library|function|event|struct|enum|modifier|error|constructor|fallback|receive)\b\s*([A-Za-z_$][\w$]*)?`)
	solCallRe = lazyre.New(`(?:^|[^\w$.])()([A-Za-z_$][\w$]*)\s*\(`)
	solMemRe  = lazyre.New(`\.()([A-Za-z_$][\w$]*)\s*\(`)
	solStop   = stopSet(`if for while return require assert revert emit keccak256 sha256 abi new uint uint8 uint16 uint32 uint64 uint128 uint256 int int256
		address payable bytes bytes32 bytes4 string bool type function modifier event error constructor returns catch try unchecked mapping`)
)

// extractSolidity reads contracts, interfaces and libraries with their
// functions, modifiers, events, errors, structs (fields) and enums
// (values); imports; inherited contracts and calls as references.
func extractSolidity(src []byte, _ Options, facts *world.Facts) {
	m := maskSource(src, syntax{line: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: `"'`, escape: '\\'})
	sk := &skel{src: src}
	n := m.li.count()
	type ctr struct {
		name  string
		close int
	}
	var stack []ctr
	skip := -1
	for l := 1; l <= n; l++ {
		at := codeAt(m, l)
		if at <= skip {
			continue
		}
		for len(stack) > 0 && at > stack[len(stack)-1].close {
			stack = stack[:len(stack)-1]
		}
		code := m.lineCode(l)
		if code == "" {
			continue
		}
		if strings.HasPrefix(code, "import ") || strings.HasPrefix(code, "import{") || strings.HasPrefix(code, "import\"") {
			end := m.semiAfter(at)
			if end < 0 {
				end = m.li.end(l)
			}
			solImport(string(src[at:end]), l, facts)
			skip = end
			continue
		}
		mm := solDeclRe.FindStringSubmatch(code)
		if mm == nil {
			continue
		}
		kw, name := mm[1], mm[2]
		if name == "" {
			if kw != "constructor" && kw != "fallback" && kw != "receive" {
				continue
			}
			name = kw
		}
		open, close := m.braceAfter(at, ";")
		sigEnd, endOff := open, close
		if open < 0 {
			sigEnd = m.semiAfter(at)
			if sigEnd < 0 {
				sigEnd = m.li.end(l)
			}
			endOff = sigEnd
		} else if close < 0 {
			endOff = len(src) - 1
			if facts.Warning == "" {
				facts.Partial = true
				facts.Warning = kw + " " + name + " at line " + itoa(l) + " has no closing brace; facts are partial"
			}
		}
		sig := clip(oneLine(stripComments(m, at, sigEnd)), 200)
		parent := ""
		if len(stack) > 0 {
			parent = stack[len(stack)-1].name
		}
		kind := map[string]string{"contract": world.KindClass, "interface": world.KindInterface, "library": world.KindModule,
			"function": world.KindFunction, "event": world.KindField, "struct": world.KindStruct, "enum": world.KindEnum,
			"modifier": world.KindFunction, "error": world.KindType, "constructor": world.KindMethod, "fallback": world.KindMethod,
			"receive": world.KindMethod}[kw]
		if kind == world.KindFunction && parent != "" {
			kind = world.KindMethod
		}
		exported := !strings.Contains(" "+sig+" ", " private ") && !strings.Contains(" "+sig+" ", " internal ")
		facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: joinQual(parent, name), Parent: parent, Kind: kind,
			Start: l, End: m.li.lineOf(endOff), Exported: exported, Signature: sig, Doc: m.docAbove(l)})
		idx := len(facts.Defs)
		switch kw {
		case "contract", "interface", "library":
			if i := strings.Index(sig, " is "); i >= 0 {
				for _, b := range strings.Split(sig[i+4:], ",") {
					if b = mFirstWord(strings.TrimSpace(b)); b != "" {
						facts.Refs = append(facts.Refs, world.Ref{Name: b, Line: l, In: idx, Kind: world.RefType})
					}
				}
			}
			if open >= 0 {
				c := close
				if c < 0 {
					c = len(src)
				}
				stack = append(stack, ctr{joinQual(parent, name), c})
			}
			continue
		case "struct", "enum":
			if open >= 0 && close > open {
				solMembers(m, src, open, close, kw, joinQual(parent, name), facts)
			}
		default:
			if open >= 0 && close > open {
				sk.elideBody(m.li, open, close, "//")
			}
		}
		if endOff > skip {
			skip = endOff
		}
	}
	in := innermost(facts, n)
	scanRefs(facts, m, in, solCallRe, "(", world.RefCall, solStop)
	scanRefs(facts, m, in, solMemRe, ".", world.RefMember, solStop)
	endScan(m, sk, facts)
}

// stripComments returns src[a:b] with its comments left out.
func stripComments(m *masked, a, b int) string {
	if b > len(m.src) {
		b = len(m.src)
	}
	if a >= b {
		return ""
	}
	out := make([]byte, 0, b-a)
	for i := a; i < b; i++ {
		if !m.inComment(i) {
			out = append(out, m.src[i])
		}
	}
	return string(out)
}

// solImport reads one import statement: import "p"; import "p" as X;
// import * as X from "p"; import {A, B as C} from "p".
func solImport(st string, l int, facts *world.Facts) {
	q := quotedRe.FindStringSubmatch(st)
	if q == nil {
		return
	}
	imp := world.Import{Path: q[1], Line: l, Kind: "import"}
	if o, c := strings.IndexByte(st, '{'), strings.IndexByte(st, '}'); o >= 0 && c > o {
		for _, nm := range strings.Split(st[o+1:c], ",") {
			if f := strings.Fields(nm); len(f) > 0 {
				imp.Names = append(imp.Names, f[0])
			}
		}
	} else if i := strings.Index(st, " as "); i >= 0 {
		imp.Alias = mFirstWord(strings.TrimSpace(st[i+4:]))
	}
	facts.Imports = append(facts.Imports, imp)
}

// solMembers adds a struct's fields or an enum's values.
func solMembers(m *masked, src []byte, open, close int, kw, parent string, facts *world.Facts) {
	sep, kind := byte(';'), world.KindField
	if kw == "enum" {
		sep, kind = ',', world.KindConst
	}
	from := open + 1
	for i := open + 1; i <= close; i++ {
		if m.code[i] != sep && i != close {
			continue
		}
		item := strings.TrimSpace(string(m.code[from:i]))
		at := from + strings.Index(string(m.code[from:i]), item)
		from = i + 1
		if item == "" {
			continue
		}
		f := strings.Fields(item)
		name := f[len(f)-1]
		if kw == "enum" {
			name = f[0]
		}
		if name == "" || !isIdent(name[0]) {
			continue
		}
		l := m.li.lineOf(at)
		facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: joinQual(parent, name), Parent: parent, Kind: kind,
			Start: l, End: m.li.lineOf(at + len(item) - 1), Exported: true, Signature: clip(oneLine(string(src[at:at+len(item)])), 100)})
	}
}

// ---- Perl ----

var (
	plPackageRe = lazyre.New(`^package\s+([\w:]+)\s*(?:[\d.v_]+\s*)?([;{])?`)
	plSubRe     = lazyre.New(`^sub\s+([\w:']+)`)
	plUseRe     = lazyre.New(`^(use|no|require)\s+([A-Za-z_][\w:]*)`)
	plConstRe   = lazyre.New(`^use\s+constant\s+([A-Za-z_]\w*)\s*=>`)
	plCallRe    = lazyre.New(`(?:^|[^\w:$@%&>])(?:([A-Za-z_]\w*(?:::\w+)*)::)?([A-Za-z_]\w*)\s*\(`)
	plMethRe    = lazyre.New(`->()([A-Za-z_]\w*)\s*\(?`)
	plStop      = stopSet(`if elsif unless while until for foreach return my our local print printf die warn push pop shift unshift
		splice keys values each defined exists delete scalar ref bless join split map grep sort reverse open close sprintf
		length substr index lc uc chomp chop wantarray eval do sub qw qq q m s tr y croak confess carp sleep exit sprintf`)
	plPragmas = stopSet(`strict warnings utf8 feature vars integer lib constant overload bytes less sort open locale diagnostics`)
)

// extractPerl reads packages (statement and block forms), subs (bodies
// elided), use constant; use/require as imports (parent/base name the
// classes inherited, also type references); function and method calls.
// POD and everything after __END__/__DATA__ are documentation, not code.
func extractPerl(src []byte, _ Options, facts *world.Facts) {
	m := maskSource(src, syntax{line: []string{"#"}, quotes: `"'`, escape: '\\', heredoc: true,
		lineCommentAt: func(src []byte, i int) bool { return i == 0 || src[i-1] != '$' }})
	sk := &skel{src: src}
	n := m.li.count()
	// POD blocks and the data section become comments.
	for l := 1; l <= n; l++ {
		t := m.li.text(l)
		if t == "__END__" || t == "__DATA__" {
			blankLines(m, l, n)
			if l < n {
				sk.elideLines(m.li, l+1, n, "", "#")
			}
			n = l
			break
		}
		if len(t) > 1 && t[0] == '=' && isIdent(t[1]) {
			e := l
			for e < n && !strings.HasPrefix(m.li.text(e), "=cut") {
				e++
			}
			blankLines(m, l, e)
			l = e
		}
	}
	pkg, pkgClose := "main", -1
	outer := "main"
	skip := -1
	for l := 1; l <= n; l++ {
		at := codeAt(m, l)
		if pkgClose >= 0 && at > pkgClose {
			pkg, pkgClose = outer, -1
		}
		if at <= skip {
			continue
		}
		code := m.lineCode(l)
		if code == "" {
			continue
		}
		if mm := plPackageRe.FindStringSubmatch(code); mm != nil {
			end, endOff := n, -1
			if mm[2] == "{" {
				o, c := m.braceAfter(at, ";")
				if c > o {
					end, endOff = m.li.lineOf(c), c
				}
			}
			facts.Defs = append(facts.Defs, world.Def{Name: afterLast(mm[1], "::"), Qualified: mm[1], Kind: world.KindModule, Start: l,
				End: end, Exported: true, Signature: "package " + mm[1], Doc: m.docAbove(l)})
			if facts.Package == "" {
				facts.Package = mm[1]
			}
			if endOff >= 0 {
				outer, pkgClose = pkg, endOff
			} else {
				outer = mm[1]
			}
			pkg = mm[1]
			continue
		}
		if mm := plSubRe.FindStringSubmatch(code); mm != nil {
			name := strings.ReplaceAll(mm[1], "'", "::")
			parent := pkg
			if i := strings.LastIndex(name, "::"); i >= 0 {
				parent, name = name[:i], name[i+2:]
			}
			open, close := m.braceAfter(at, ";")
			sigEnd, endOff := open, close
			if open < 0 || close < 0 {
				sigEnd = m.li.end(l)
				endOff = sigEnd
			}
			if open >= 0 && close < 0 && facts.Warning == "" {
				facts.Partial = true
				facts.Warning = "sub " + name + " at line " + itoa(l) + " has no closing brace; facts are partial"
			}
			sig := strings.TrimSuffix(clip(oneLine(stripComments(m, at, sigEnd)), 200), ";")
			kind := world.KindFunction
			facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: parent + "::" + name, Parent: parent, Kind: kind,
				Start: l, End: m.li.lineOf(endOff), Exported: !strings.HasPrefix(name, "_"), Signature: sig, Doc: m.docAbove(l)})
			if open >= 0 && close > open {
				sk.elideBody(m.li, open, close, "#")
				skip = close
			}
			continue
		}
		if mm := plConstRe.FindStringSubmatch(code); mm != nil {
			facts.Defs = append(facts.Defs, world.Def{Name: mm[1], Qualified: pkg + "::" + mm[1], Parent: pkg, Kind: world.KindConst,
				Start: l, End: l, Exported: true, Signature: clip(oneLine(m.li.text(l)), 100)})
			continue
		}
		if mm := plUseRe.FindStringSubmatch(code); mm != nil && !plPragmas[mm[2]] {
			end := m.semiAfter(at)
			if end < 0 {
				end = m.li.end(l)
			}
			st := string(src[at:end])
			if mm[2] == "parent" || mm[2] == "base" {
				rest := strings.NewReplacer("qw", " ", "(", " ", ")", " ", "'", " ", `"`, " ", ",", " ").Replace(st[len(mm[0]):])
				for _, b := range strings.Fields(rest) {
					if b != "-norequire" && isIdent(b[0]) {
						facts.Imports = append(facts.Imports, world.Import{Path: b, Line: l, Kind: mm[2]})
						facts.Refs = append(facts.Refs, world.Ref{Name: afterLast(b, "::"), Qual: strings.TrimSuffix(b, "::"+afterLast(b, "::")), Line: l, Kind: world.RefType})
					}
				}
				continue
			}
			imp := world.Import{Path: mm[2], Line: l, Kind: mm[1]}
			facts.Imports = append(facts.Imports, imp)
			continue
		}
		if strings.HasPrefix(code, "require ") {
			if q := quotedRe.FindStringSubmatch(m.li.text(l)); q != nil {
				facts.Imports = append(facts.Imports, world.Import{Path: q[1], Line: l, Kind: "require"})
			}
		}
	}
	in := innermost(facts, n)
	codeEnd := 0 // where the code before any data section ends (none in an empty file)
	if n > 0 {
		codeEnd = m.li.end(n)
	}
	mm := &masked{src: m.src, code: m.code[:codeEnd], li: newLines(src[:codeEnd])}
	scanRefs(facts, mm, in, plCallRe, "(", world.RefCall, plStop)
	scanRefs(facts, mm, in, plMethRe, "->", world.RefMember, plStop)
	endScan(m, sk, facts)
}

// blankLines turns lines a..b into a comment of the masked source.
func blankLines(m *masked, a, b int) {
	s, e := m.li.start(a), m.li.end(b)
	for i := s; i < e; i++ {
		if m.code[i] != '\n' {
			m.code[i] = ' '
		}
	}
	// keep comment spans sorted and disjoint
	keep := m.cmts[:0]
	for _, c := range m.cmts {
		if c[1] <= s || c[0] >= e {
			keep = append(keep, c)
		}
	}
	m.cmts = keep
	k := 0
	for k < len(m.cmts) && m.cmts[k][0] < s {
		k++
	}
	m.cmts = append(m.cmts, [2]int{})
	copy(m.cmts[k+1:], m.cmts[k:])
	m.cmts[k] = [2]int{s, e}
}

// ---- R ----

var (
	rFuncRe    = lazyre.New(`^([A-Za-z.][\w.]*|` + "`[^`]+`" + `)\s*(?:<<?-|=)\s*function\b`)
	rClassRe   = lazyre.New(`^([A-Za-z.][\w.]*)\s*(?:<<?-|=)\s*(?:R6::|methods::)?(R6Class|setRefClass)\s*\(`)
	rMethodRe  = lazyre.New(`^([A-Za-z.][\w.]*)\s*=\s*function\b`)
	rS4Re      = lazyre.New(`^(setClass|setGeneric|setMethod)\s*\(\s*["']([^"']+)["'](?:\s*,\s*(?:signature\s*\(\s*)?["']([^"']+)["'])?`)
	rImportRe  = lazyre.New(`\b(library|require|requireNamespace|loadNamespace|source|sys\.source)\s*\(\s*(?:package\s*=\s*)?(?:["']([^"'\n]+)["']|([A-Za-z.][\w.]*))`)
	rCallRe    = lazyre.New(`(?:^|[^\w.$@])(?:([A-Za-z.][\w.]*):::?)?([A-Za-z.][\w.]*)\s*\(`)
	rPrivRe    = lazyre.New(`\bprivate\s*=\s*list\s*\(`)
	rInheritRe = lazyre.New(`\b(?:inherit|contains)\s*=\s*(?:["'])?([A-Za-z.][\w.]*)`)
	rNewRe     = lazyre.New(`()\b([A-Za-z.][\w.]*)\$new\s*\(`)
	rStop      = stopSet(`if for while repeat function return c list length paste paste0 print cat stop warning message is.null
		invisible library require requireNamespace source switch vapply sapply lapply seq_along seq_len names nrow ncol
		data.frame matrix vector character numeric integer logical sum mean max min rep which any all identical inherits
		tryCatch on.exit match.arg missing setClass setGeneric setMethod setRefClass R6Class new structure class unlist`)
)

// extractR reads functions (name <- function), R6 and reference classes
// (their methods, private ones unexported), S4 setClass/setGeneric/
// setMethod; library/require/source as imports; calls (pkg::f qualified)
// and Class$new() as references.
func extractR(src []byte, _ Options, facts *world.Facts) {
	m := maskSource(src, syntax{line: []string{"#"}, quotes: "\"'`", escape: '\\', multiLine: true})
	sk := &skel{src: src}
	n := m.li.count()
	type class struct {
		name         string
		close        int
		privA, privB int
	}
	var cls []class
	skip := -1
	for l := 1; l <= n; l++ {
		at := codeAt(m, l)
		for len(cls) > 0 && at > cls[len(cls)-1].close {
			cls = cls[:len(cls)-1]
		}
		raw := m.li.text(l)
		for _, mm := range rImportRe.FindAllStringSubmatch(string(m.code[m.li.start(l):m.li.end(l)]), -1) {
			p := mm[3]
			if q := rImportRe.FindStringSubmatch(raw[strings.Index(string(m.code[m.li.start(l):m.li.end(l)]), mm[0]):]); q != nil && q[2] != "" {
				p = q[2]
			}
			if p != "" && (mm[3] == "" || mm[1] != "source") {
				facts.Imports = append(facts.Imports, world.Import{Path: p, Line: l, Kind: mm[1]})
			}
		}
		if at <= skip {
			continue
		}
		code := m.lineCode(l)
		if code == "" {
			continue
		}
		if mm := rClassRe.FindStringSubmatch(code); mm != nil {
			open := at + strings.Index(code, mm[2]) + len(mm[2])
			for open < len(m.code) && m.code[open] != '(' {
				open++
			}
			close := m.close(open)
			end := close
			if close < 0 {
				end = len(src) - 1
			}
			sig := mm[1] + " <- " + mm[2] + "(…)"
			facts.Defs = append(facts.Defs, world.Def{Name: mm[1], Qualified: mm[1], Kind: world.KindClass, Start: l,
				End: m.li.lineOf(end), Exported: true, Signature: sig, Doc: rDoc(m, l)})
			c := class{name: mm[1], close: end, privA: -1, privB: -1}
			body := string(m.code[open:end])
			if i := rPrivRe.FindStringIndex(body); i != nil {
				c.privA = open + i[1] - 1
				c.privB = m.close(c.privA)
			}
			if i := rInheritRe.FindStringSubmatchIndex(string(src[open:end])); i != nil {
				facts.Refs = append(facts.Refs, world.Ref{Name: string(src[open+i[2] : open+i[3]]), Line: m.li.lineOf(open + i[2]),
					In: len(facts.Defs), Kind: world.RefType})
			}
			cls = append(cls, c)
			continue
		}
		if mm := rS4Re.FindStringSubmatch(raw[at-m.li.start(l):]); mm != nil {
			kind, name, parent := world.KindClass, mm[2], ""
			switch mm[1] {
			case "setGeneric":
				kind = world.KindFunction
			case "setMethod":
				kind, parent = world.KindMethod, mm[3]
			}
			end := l
			if o := strings.IndexByte(string(m.code[at:m.li.end(l)]), '('); o >= 0 {
				if c := m.close(at + o); c > 0 {
					end = m.li.lineOf(c)
					if f := strings.Index(string(m.code[at:c]), "function"); f >= 0 {
						if po := m.next(at + f + len("function")); po >= 0 && m.code[po] == '(' {
							if b := m.next(m.close(po) + 1); m.close(po) > 0 && b >= 0 && b < c && m.code[b] == '{' {
								sk.elideBody(m.li, b, m.close(b), "#")
							}
						}
					}
					skip = c
				}
			}
			facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: joinQual(parent, name), Parent: parent, Kind: kind,
				Start: l, End: end, Exported: true, Signature: clip(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(raw), "{")), 120), Doc: rDoc(m, l)})
			continue
		}
		var name, parent string
		kind, exported := world.KindFunction, true
		if len(cls) > 0 {
			if mm := rMethodRe.FindStringSubmatch(code); mm != nil {
				c := cls[len(cls)-1]
				name, parent, kind = mm[1], c.name, world.KindMethod
				exported = !(at > c.privA && at < c.privB)
			}
		} else if mm := rFuncRe.FindStringSubmatch(code); mm != nil {
			name = strings.Trim(mm[1], "`")
			exported = !strings.HasPrefix(name, ".")
		}
		if name == "" {
			continue
		}
		fn := at + strings.Index(code, "function")
		open := m.next(fn + len("function"))
		if open < 0 || m.code[open] != '(' {
			continue
		}
		pc := m.close(open)
		if pc < 0 {
			if facts.Warning == "" {
				facts.Partial = true
				facts.Warning = "function " + name + " at line " + itoa(l) + " has no closing parenthesis; facts are partial"
			}
			pc = m.li.end(l) - 1
		}
		sig := clip(oneLine(stripComments(m, at, pc+1)), 200)
		end := pc
		if b := m.next(pc + 1); b >= 0 && m.code[b] == '{' {
			if c := m.close(b); c > b {
				end = c
				sk.elideBody(m.li, b, c, "#")
			} else {
				end = len(src) - 1
			}
		} else if b >= 0 {
			end = m.li.end(m.li.lineOf(b)) - 1
		}
		facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: joinQual(parent, name), Parent: parent, Kind: kind,
			Start: l, End: m.li.lineOf(end), Exported: exported, Signature: sig, Doc: rDoc(m, l)})
		skip = end
	}
	in := innermost(facts, n)
	scanRefs(facts, m, in, rCallRe, "(", world.RefCall, rStop)
	scanRefs(facts, m, in, rNewRe, "$new", world.RefType, nil)
	endScan(m, sk, facts)
}

// rDoc is the comment above line l, roxygen's #' leader left out.
func rDoc(m *masked, l int) string {
	return strings.TrimSpace(strings.TrimPrefix(m.docAbove(l), "'"))
}

// ---- Erlang ----

var (
	erlFuncRe   = lazyre.New(`^([a-z][\w@]*|'[^']*')\s*\(`)
	erlAttrRe   = lazyre.New(`^-\s*([a-z_]+)\s*\(?`)
	erlExportRe = lazyre.New(`([a-z][\w@]*|'[^']*')\s*/\s*(\d+)`)
	erlCallRe   = lazyre.New(`(?:^|[^\w@?#'.:\-])(?:([a-z][\w@]*):)?([a-z][\w@]*)\s*\(`)
	erlRecRe    = lazyre.New(`#()([a-z][\w@]*)\s*[{.]`)
	erlMacroRe  = lazyre.New(`\?()([A-Za-z_][\w@]*)`)
	erlStop     = stopSet(`fun case of if receive after when end try catch begin and or not andalso orelse div rem band bor
		is_atom is_list is_integer is_binary is_tuple is_map is_function is_pid length element setelement hd tl self
		spawn throw error exit apply size tuple_size map_size`)
)

// extractErlang reads the module, functions (name/arity, every clause;
// exported per -export or export_all), records (fields), macros, types;
// -include/-include_lib, -import and -behaviour as imports; local and
// remote calls, record and macro uses as references.
func extractErlang(src []byte, _ Options, facts *world.Facts) {
	m := maskSource(erlChars(src), syntax{line: []string{"%"}, quotes: `"'`, escape: '\\', multiLine: true})
	m.src = src
	m.li = newLines(src)
	sk := &skel{src: src}
	n := m.li.count()
	mod := ""
	exports := map[string]bool{}
	exportAll := false
	var funcs []int
	last := -1 // index of the previous function, to join its clauses
	for start := m.next(0); start >= 0; {
		depth, e := 0, start
		for ; e < len(m.code); e++ {
			b := m.code[e]
			if b == '(' || b == '[' || b == '{' {
				depth++
			} else if b == ')' || b == ']' || b == '}' {
				depth--
			} else if b == '.' && depth <= 0 && (e+1 == len(m.code) || strings.IndexByte(" \t\r\n", m.code[e+1]) >= 0) {
				break
			}
		}
		if e >= len(m.code) {
			e = len(m.code) - 1
			if facts.Warning == "" && strings.TrimSpace(string(m.code[start:])) != "" {
				facts.Partial = true
				facts.Warning = "form at line " + itoa(m.li.lineOf(start)) + " does not end with a full stop; facts are partial"
			}
		}
		ft := string(m.code[start : e+1])
		raw := string(src[start : e+1])
		l, endL := m.li.lineOf(start), m.li.lineOf(e)
		next := m.next(e + 1)
		if mm := erlAttrRe.FindStringSubmatch(ft); mm != nil {
			last = -1
			arg := ""
			if q := quotedRe.FindStringSubmatch(raw); q != nil {
				arg = q[1]
			}
			word := func() string {
				i := strings.IndexByte(ft, '(')
				if i < 0 {
					return ""
				}
				w := strings.TrimSpace(ft[i+1:])
				if strings.HasPrefix(w, "'") && arg != "" {
					return arg
				}
				return mFirstWord(w)
			}
			switch mm[1] {
			case "module":
				mod = word()
				facts.Package = mod
				facts.Defs = append(facts.Defs, world.Def{Name: mod, Qualified: mod, Kind: world.KindModule, Start: l, End: n,
					Exported: true, Signature: "-module(" + mod + ")", Doc: m.docAbove(l)})
			case "export":
				for _, x := range erlExportRe.FindAllStringSubmatch(ft, -1) {
					exports[x[1]+"/"+x[2]] = true
				}
			case "compile":
				if strings.Contains(ft, "export_all") {
					exportAll = true
				}
			case "include", "include_lib":
				if arg != "" {
					facts.Imports = append(facts.Imports, world.Import{Path: arg, Line: l, Kind: mm[1]})
				}
			case "behaviour", "behavior":
				if w := word(); w != "" {
					facts.Imports = append(facts.Imports, world.Import{Path: w, Line: l, Kind: "behaviour"})
				}
			case "import":
				if w := word(); w != "" {
					imp := world.Import{Path: w, Line: l, Kind: "import"}
					for _, x := range erlExportRe.FindAllStringSubmatch(ft, -1) {
						imp.Names = append(imp.Names, x[1]+"/"+x[2])
					}
					facts.Imports = append(facts.Imports, imp)
				}
			case "record":
				name := word()
				facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: name, Kind: world.KindStruct, Start: l, End: endL,
					Exported: true, Signature: "-record(" + name + ")", Doc: m.docAbove(l)})
				if o := strings.IndexByte(ft, '{'); o >= 0 {
					erlFields(m, src, start+o, name, facts)
				}
			case "define":
				name := word()
				sig := clip(oneLine(stripComments(m, start, e)), 100)
				facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: name, Kind: world.KindMacro, Start: l, End: endL,
					Exported: true, Signature: sig, Doc: m.docAbove(l)})
			case "type", "opaque":
				name := mFirstWord(strings.TrimSpace(ft[len(mm[0]):]))
				facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: name, Kind: world.KindType, Start: l, End: endL,
					Exported: true, Signature: clip(oneLine(stripComments(m, start, e)), 120), Doc: m.docAbove(l)})
			}
		} else if mm := erlFuncRe.FindStringSubmatch(ft); mm != nil {
			name := mm[1]
			if strings.HasPrefix(name, "'") {
				name = strings.Trim(mFirstWordQ(raw), "'")
			}
			open := start + len(mm[0]) - 1
			arity := erlArity(m, open)
			key := name + "/" + itoa(arity)
			head := m.li.end(l)
			if c := m.close(open); c > 0 && c < e {
				if a := strings.Index(string(m.code[c:e]), "->"); a >= 0 {
					head = c + a
				}
			}
			sig := clip(oneLine(stripComments(m, start, head)), 150)
			facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: joinErl(mod, key), Parent: mod, Kind: world.KindFunction,
				Start: l, End: endL, Signature: sig, Doc: m.docAbove(l)})
			last = len(facts.Defs) - 1
			funcs = append(funcs, last)
			if endL > m.li.lineOf(head) {
				sk.elideLines(m.li, m.li.lineOf(head)+1, endL, "    ", "%")
			}
		} else {
			last = -1
		}
		_ = last
		if next < 0 || next <= e {
			break
		}
		start = next
	}
	for _, i := range funcs {
		d := &facts.Defs[i]
		d.Exported = exportAll || exports[afterLast(d.Qualified, ":")]
	}
	in := innermost(facts, n)
	scanRefs(facts, m, in, erlCallRe, "(", world.RefCall, erlStop)
	scanRefs(facts, m, in, erlRecRe, "#", world.RefType, nil)
	scanRefs(facts, m, in, erlMacroRe, "?", world.RefValue, stopSet("MODULE LINE FILE MODULE_STRING FUNCTION_NAME FUNCTION_ARITY"))
	keep := facts.Refs[:0]
	for _, r := range facts.Refs {
		// Uses in attributes (-spec, -type) are not calls, nor is the head
		// of a function's later clause.
		if r.In != 0 && !(r.Qual == "" && r.Name == facts.Defs[r.In-1].Name && strings.HasPrefix(m.lineCode(r.Line), r.Name+"(")) {
			keep = append(keep, r)
		}
	}
	facts.Refs = keep
	endScan(m, sk, facts)
}

// joinErl names a function mod:name/arity.
func joinErl(mod, key string) string {
	if mod == "" {
		return key
	}
	return mod + ":" + key
}

// mFirstWordQ returns a leading quoted atom of s ('…'), or "".
func mFirstWordQ(s string) string {
	if len(s) > 1 && s[0] == '\'' {
		if e := strings.IndexByte(s[1:], '\''); e >= 0 {
			return s[:e+2]
		}
	}
	return ""
}

// erlChars replaces Erlang character literals ($x, $\x) outside strings
// and comments by plain letters, so a $" or $% does not open a string or
// a comment when masking; offsets are kept.
func erlChars(src []byte) []byte {
	out := append([]byte(nil), src...)
	var q byte
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case q != 0:
			if c == '\\' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '%':
			for i < len(out) && out[i] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			q = c
		case c == '$' && i+1 < len(out):
			out[i+1] = 'x'
			if src[i+1] == '\\' && i+2 < len(out) {
				out[i+2] = 'x'
				i++
			}
			i++
		}
	}
	return out
}

// erlArity counts the arguments of the parenthesis at open.
func erlArity(m *masked, open int) int {
	c := m.close(open)
	if c < 0 {
		return 0
	}
	if strings.TrimSpace(string(m.code[open+1:c])) == "" {
		return 0
	}
	n := 1
	for i := open + 1; i < c; i++ {
		switch m.code[i] {
		case ',':
			n++
		case '(', '[', '{':
			if k := m.close(i); k > i && k < c {
				i = k
			}
		}
	}
	return n
}

// erlFields adds the fields of a record declaration's {…}.
func erlFields(m *masked, src []byte, open int, rec string, facts *world.Facts) {
	c := m.close(open)
	if c < 0 {
		return
	}
	from := open + 1
	for i := open + 1; i <= c; i++ {
		b := m.code[i]
		if (b == '(' || b == '[' || b == '{') && i != open {
			if k := m.close(i); k > i && k < c {
				i = k
				continue
			}
		}
		if b != ',' && i != c {
			continue
		}
		item := strings.TrimSpace(string(m.code[from:i]))
		at := from + strings.Index(string(m.code[from:i]), item)
		from = i + 1
		name := mFirstWord(item)
		if name == "" {
			continue
		}
		facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: rec + "." + name, Parent: rec, Kind: world.KindField,
			Start: m.li.lineOf(at), End: m.li.lineOf(at + len(item) - 1), Exported: true, Signature: clip(oneLine(string(src[at:at+len(item)])), 100)})
	}
}

// ---- Clojure ----

var (
	cljCallRe = lazyre.New(`\(\s*(?:([A-Za-z*+!?<>=_\-][\w*+!?<>=.\-]*)/)?([A-Za-z*+!?<>=_\-][\w*+!?<>=.\-]*)`)
	cljStop   = stopSet(`def defn defn- defmacro defprotocol defrecord deftype defmulti defmethod defonce ns let let* if if-let
		if-not when when-let when-not when-some if-some do fn fn* loop recur cond condp case -> ->> some-> some->> as-> doto
		try catch finally throw quote var new set! and or not = not= < > <= >= + - * / inc dec str println print prn format
		first rest next cons conj assoc dissoc get get-in assoc-in update update-in map filter reduce remove into vec vector
		list hash-map keys vals count empty? nil? some seq apply partial comp identity doseq dotimes for range concat
		swap! reset! deref atom require import binding with-open letfn merge contains? keyword name symbol println
		throw ex-info reify proxy extend-protocol extend-type instance? mapv filterv sort sort-by group-by`)
	cljKinds = map[string]string{"def": world.KindVar, "defonce": world.KindVar, "defn": world.KindFunction, "defn-": world.KindFunction,
		"defmacro": world.KindMacro, "defmulti": world.KindFunction, "defmethod": world.KindMethod, "defprotocol": world.KindInterface,
		"definterface": world.KindInterface, "defrecord": world.KindStruct, "deftype": world.KindClass}
)

// extractClojure reads the ns form (:require, :use and :import as
// imports), the def forms (def, defn, defn-, defmacro, defmulti,
// defmethod, defprotocol with its methods, defrecord, deftype), top-level
// require calls, and calls as references; def bodies are elided.
func extractClojure(src []byte, _ Options, facts *world.Facts) {
	m := maskSource(cljChars(src), syntax{line: []string{";"}, quotes: `"`, escape: '\\', multiLine: true})
	m.src = src
	m.li = newLines(src)
	sk := &skel{src: src}
	n := m.li.count()
	ns, nsEnd := "", 0
	text := func(it [2]int) string { return string(src[it[0]:it[1]]) }
	for i := 0; i < len(m.code); i++ {
		if m.code[i] != '(' {
			continue
		}
		close := m.close(i)
		if close < 0 {
			if facts.Warning == "" {
				facts.Partial = true
				facts.Warning = "form at line " + itoa(m.li.lineOf(i)) + " is not closed; facts are partial"
			}
			close = len(m.code) - 1
		}
		items := sexpItems(m, i, close)
		if len(items) == 0 {
			i = close
			continue
		}
		head := afterLast(text(items[0]), "/")
		l, endL := m.li.lineOf(i), m.li.lineOf(close)
		switch {
		case head == "ns" || head == "require" || head == "import" || head == "use":
			if head == "ns" && len(items) > 1 {
				ns, nsEnd = text(items[1]), endL
				facts.Package = ns
				facts.Defs = append(facts.Defs, world.Def{Name: ns, Qualified: ns, Kind: world.KindModule, Start: l, End: n,
					Exported: true, Signature: "(ns " + ns + ")", Doc: cljDoc(m, items, 2)})
				for _, it := range items[2:] {
					if m.code[it[0]] == '(' {
						sub := sexpItems(m, it[0], m.close(it[0]))
						if len(sub) > 0 {
							cljImports(m, src, strings.TrimPrefix(text(sub[0]), ":"), sub[1:], facts)
						}
					}
				}
			} else if head != "ns" {
				cljImports(m, src, head, items[1:], facts)
			}
		case cljKinds[head] != "":
			k := 1
			exported := head != "defn-"
			for k < len(items) && (m.code[items[k][0]] == '^' || m.code[items[k][0]] == '#') {
				if strings.Contains(text(items[k]), ":private") {
					exported = false
				}
				k++
			}
			if k >= len(items) {
				break
			}
			name := text(items[k])
			sig := "(" + head + " " + name
			sigEnd := items[k][1]
			doc := cljDoc(m, items, k+1)
			rest := items[k+1:]
			if head == "defmethod" && len(rest) > 0 {
				sig += " " + oneLine(text(rest[0]))
				sigEnd = rest[0][1]
				rest = rest[1:]
			}
			for len(rest) > 0 && (m.code[rest[0][0]] == '"' || m.code[rest[0][0]] == '{') {
				rest = rest[1:]
			}
			if head != "def" && head != "defonce" && head != "defmulti" && head != "defprotocol" && head != "definterface" {
				if len(rest) > 0 && m.code[rest[0][0]] == '[' {
					sig += " " + clip(oneLine(text(rest[0])), 120)
					sigEnd = rest[0][1]
				} else {
					for _, r := range rest {
						if m.code[r[0]] == '(' {
							if sub := sexpItems(m, r[0], m.close(r[0])); len(sub) > 0 && m.code[sub[0][0]] == '[' {
								sig += " (" + clip(oneLine(text(sub[0])), 60) + " …)"
							}
						}
					}
				}
			}
			sig = clip(sig, 200) + ")"
			qual := name
			if ns != "" {
				qual = ns + "/" + name
			}
			facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: qual, Parent: ns, Kind: cljKinds[head], Start: l, End: endL,
				Exported: exported, Signature: sig, Doc: doc})
			idx := len(facts.Defs)
			if head == "defprotocol" || head == "definterface" {
				for _, r := range rest {
					if m.code[r[0]] != '(' {
						continue
					}
					sub := sexpItems(m, r[0], m.close(r[0]))
					if len(sub) == 0 {
						continue
					}
					mn := text(sub[0])
					msig := "(" + mn
					for _, s := range sub[1:] {
						if m.code[s[0]] == '[' {
							msig += " " + oneLine(text(s))
						}
					}
					facts.Defs = append(facts.Defs, world.Def{Name: mn, Qualified: qual + "." + mn, Parent: qual, Kind: world.KindMethod,
						Start: m.li.lineOf(r[0]), End: m.li.lineOf(r[1] - 1), Exported: true, Signature: clip(msig, 150) + ")", Doc: cljDoc(m, sub, len(sub)-1)})
				}
				break
			}
			if head == "defrecord" || head == "deftype" {
				for _, r := range rest[min(1, len(rest)):] {
					if m.code[r[0]] != '(' && m.code[r[0]] != '[' && m.code[r[0]] != ':' {
						facts.Refs = append(facts.Refs, world.Ref{Name: afterLast(text(r), "/"), Line: m.li.lineOf(r[0]), In: idx, Kind: world.RefType})
					}
				}
			}
			if head == "defmethod" {
				facts.Refs = append(facts.Refs, world.Ref{Name: name, Line: l, In: idx, Kind: world.RefValue})
			}
			if a, b := m.li.lineOf(sigEnd-1)+1, endL; b >= a {
				cut := m.li.end(a - 1)
				sk.elide(cut, close+1, "\n  …) ; "+linesWord(a, b))
			}
		}
		i = close
	}
	in := innermost(facts, n)
	scanRefs(facts, m, in, cljCallRe, "(", world.RefCall, cljStop)
	keep := facts.Refs[:0]
	for _, r := range facts.Refs {
		if r.In != 0 || r.Line > nsEnd { // the ns form's libspecs are imports
			keep = append(keep, r)
		}
	}
	facts.Refs = keep
	endScan(m, sk, facts)
}

// linesWord names a line range: "line 4" or "lines 4-9".
func linesWord(a, b int) string {
	if a == b {
		return "line " + itoa(a)
	}
	return "lines " + itoa(a) + "-" + itoa(b)
}

// cljDoc returns the first line of the docstring at items[k], if it is one.
func cljDoc(m *masked, items [][2]int, k int) string {
	if k < 0 || k >= len(items) || m.code[items[k][0]] != '"' {
		return ""
	}
	s := strings.Trim(string(m.src[items[k][0]:items[k][1]]), `"`)
	return firstDocLine(s)
}

// cljImports reads the libspecs of :require/:use/:import (or of the
// require, use and import functions): a.b, [a.b :as c :refer [d]],
// (java.util Date UUID).
func cljImports(m *masked, src []byte, kind string, specs [][2]int, facts *world.Facts) {
	if kind != "require" && kind != "use" && kind != "import" && kind != "require-macros" {
		return
	}
	text := func(it [2]int) string { return strings.TrimLeft(string(src[it[0]:it[1]]), "'") }
	for _, s := range specs {
		at := s[0]
		for at < s[1] && m.code[at] == '\'' {
			at++
		}
		l := m.li.lineOf(at)
		switch m.code[at] {
		case '[', '(':
			sub := sexpItems(m, at, m.close(at))
			if len(sub) == 0 {
				continue
			}
			imp := world.Import{Path: strings.Trim(text(sub[0]), `"`), Line: l, Kind: kind}
			for k := 1; k < len(sub); k++ {
				w := text(sub[k])
				switch {
				case w == ":as" && k+1 < len(sub):
					imp.Alias = text(sub[k+1])
					k++
				case (w == ":refer" || w == ":only") && k+1 < len(sub):
					if v := sub[k+1]; m.code[v[0]] == '[' || m.code[v[0]] == '(' {
						for _, x := range sexpItems(m, v[0], m.close(v[0])) {
							imp.Names = append(imp.Names, text(x))
						}
					} else if text(v) == ":all" {
						imp.Alias = "*"
					}
					k++
				case kind == "import" && !strings.HasPrefix(w, ":"):
					imp.Names = append(imp.Names, w)
				}
			}
			facts.Imports = append(facts.Imports, imp)
		case ':':
		default:
			if p := strings.Trim(text([2]int{at, s[1]}), `"`); p != "" {
				facts.Imports = append(facts.Imports, world.Import{Path: p, Line: l, Kind: kind})
			}
		}
	}
}

// sexpItems returns the spans of the elements of the list, vector or map
// whose brackets are at open and close, reader prefixes (' # ^ @ ~ `)
// included.
func sexpItems(m *masked, open, close int) [][2]int {
	var out [][2]int
	if open < 0 || close <= open || close > len(m.code) {
		return nil
	}
	for i := open + 1; i < close; {
		c := m.code[i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' {
			i++
			continue
		}
		s := i
		for i < close && bytes.IndexByte([]byte("#'^@~`"), m.code[i]) >= 0 {
			i++
		}
		if i >= close {
			break
		}
		switch m.code[i] {
		case '(', '[', '{':
			e := m.close(i)
			if e < i || e > close {
				e = close - 1
			}
			i = e + 1
		case '"':
			e := bytes.IndexByte(m.code[i+1:close], '"')
			if e < 0 {
				i = close
			} else {
				i += e + 2
			}
		case ')', ']', '}':
			i++
			continue
		default:
			for i < close && bytes.IndexByte([]byte(" \t\r\n,()[]{}\""), m.code[i]) < 0 {
				i++
			}
		}
		out = append(out, [2]int{s, i})
	}
	return out
}

// cljChars replaces character literals (\a, \(, \") outside strings by
// plain letters, so they open no string, comment or bracket; offsets are
// kept.
func cljChars(src []byte) []byte {
	out := append([]byte(nil), src...)
	str := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case str:
			if c == '\\' {
				i++
			} else if c == '"' {
				str = false
			}
		case c == ';':
			for i < len(out) && out[i] != '\n' {
				i++
			}
		case c == '"':
			str = true
		case c == '\\' && i+1 < len(out):
			out[i], out[i+1] = 'x', 'x'
			i++
		}
	}
	return out
}
