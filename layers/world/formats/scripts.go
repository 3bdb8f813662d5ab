package formats

import (
	"strings"

	"github.com/git-speed/git-speed/internal/lazyre"
	"github.com/git-speed/git-speed/layers/world"
)

// Scripts: MATLAB/Octave (.m) and Godot's GDScript (.gd), through
// structured line scanners: MATLAB's block keywords are matched with their
// end (statement starts only, so x(end) is not one), GDScript's blocks by
// indentation.

func init() {
	Register(world.LangMATLAB, extractMATLAB)
	Register(world.LangGDScript, extractGDScript)
}

// ---- MATLAB / Octave ----

// mOpeners are the keywords that open a block closed by end (or, in
// Octave, by their own end word).
var mOpeners = map[string]bool{"if": true, "for": true, "parfor": true, "while": true, "switch": true, "try": true,
	"function": true, "classdef": true, "properties": true, "methods": true, "events": true, "enumeration": true,
	"spmd": true, "unwind_protect": true, "do": true, "arguments": true}

// mEnds are the words that close a block.
var mEnds = map[string]bool{"end": true, "endfunction": true, "endif": true, "endfor": true, "endwhile": true,
	"endswitch": true, "end_try_catch": true, "end_unwind_protect": true, "endclassdef": true, "endproperties": true,
	"endmethods": true, "endevents": true, "endenumeration": true, "until": true, "endparfor": true, "endspmd": true}

var (
	mFuncRe  = lazyre.New(`^function\s+(?:(\[[^\]]*\]|[A-Za-z_]\w*)\s*=\s*)?([A-Za-z_][\w.]*)\s*(\([^)]*\))?`)
	mClassRe = lazyre.New(`^classdef\s*(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*(?:<\s*(.+))?$`)
	mCallRe  = lazyre.New(`(^|[^\w.'])([A-Za-z_]\w*)\s*\(`)
	mAssign  = lazyre.New(`^\s*(?:\[([^\]]*)\]|([A-Za-z_]\w*))\s*(?:\([^)]*\))?\s*=[^=]`)
	mPathRe  = lazyre.New(`^addpath\s*\(\s*(?:genpath\s*\(\s*)?(?:fullfile\s*\([^)]*\)|'([^']+)'|"([^"]+)")`)
)

// mBuiltin are common functions never defined in a project.
var mBuiltin = map[string]bool{"size": true, "zeros": true, "ones": true, "numel": true, "length": true, "disp": true,
	"fprintf": true, "sprintf": true, "error": true, "warning": true, "isempty": true, "sum": true, "max": true, "min": true,
	"abs": true, "sqrt": true, "mod": true, "floor": true, "ceil": true, "round": true, "strcmp": true, "isfield": true,
	"cell": true, "struct": true, "nargin": true, "nargout": true, "plot": true, "figure": true, "hold": true,
	"linspace": true, "repmat": true, "reshape": true, "any": true, "all": true, "find": true, "exp": true, "log": true,
	"mean": true, "std": true, "num2str": true, "str2double": true, "isa": true, "class": true, "validateattributes": true,
	"rand": true, "randn": true, "eye": true, "cellfun": true, "arrayfun": true, "numel_": true, "true": true, "false": true,
	"assert": true, "fieldnames": true, "strsplit": true, "strjoin": true, "containers": true, "addpath": true, "genpath": true,
	"fullfile": true, "exist": true, "isnumeric": true, "ischar": true, "iscell": true, "double": true, "int32": true,
	"uint8": true, "char": true, "string": true, "logical": true, "numel2": true, "end": true, "if": true, "while": true,
	"for": true, "switch": true, "elseif": true, "case": true, "tic": true, "toc": true, "inputParser": true}

type mBlock struct {
	kw   string
	def  int // index of its definition, -1 for none
	line int
}

// mStatements splits a masked line into statements at ; and , outside brackets.
func mStatements(code string) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(code); i++ {
		switch code[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ';', ',':
			if depth <= 0 {
				out = append(out, strings.TrimSpace(code[from:i]))
				from = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(code[from:]))
}

func mFirstWord(s string) string {
	e := 0
	for e < len(s) && isIdent(s[e]) {
		e++
	}
	return s[:e]
}

// mMask blanks MATLAB comments (%, #, %{ … %} blocks, ... continuations'
// rest) and strings ('…' when not a transpose, "…").
func mMask(src []byte) *masked {
	return maskSource(src, syntax{line: []string{"%", "#", "..."}, blockOpen: "%{", blockClose: "%}", quotes: `'"`,
		lineCommentAt: func(src []byte, i int) bool {
			if src[i] == '#' { // Octave comments only at a statement's start
				j := i - 1
				for j >= 0 && (src[j] == ' ' || src[j] == '\t') {
					j--
				}
				return j < 0 || src[j] == '\n' || src[j] == ';' || src[j] == ','
			}
			return true
		}, mQuote: true})
}

// extractMATLAB reads classdef files (class, properties, methods, events,
// enumeration members), function files and scripts (every function's
// whole signature, local and nested functions), %% sections, import and
// addpath (imports), and calls of functions that are not variables of
// the enclosing function (references).
func extractMATLAB(src []byte, _ Options, facts *world.Facts) {
	if looksObjC(src) {
		facts.Warning = "looks like Objective-C, not MATLAB; no facts"
		return
	}
	m := mMask(src)
	sk := &skel{src: src}
	n := m.li.count()
	// Do functions close with end? Count openers and ends at statement starts.
	opens, ends := 0, 0
	for l := 1; l <= n; l++ {
		for _, st := range mStatements(m.lineCode(l)) {
			w := mFirstWord(st)
			if mOpeners[w] {
				opens++
			} else if mEnds[w] && (w != "end" || st == "end" || strings.HasPrefix(st, "end ") || strings.HasPrefix(st, "end;")) {
				ends++
			}
		}
	}
	funcEnds := opens == ends
	var stack []mBlock
	className := ""
	section := -1
	lastFunc := -1 // the open function of an end-less file
	vars := map[string]bool{}
	closeFunc := func(last int) {
		if lastFunc >= 0 {
			d := &facts.Defs[lastFunc]
			d.End = last
			for d.End > d.Start && strings.TrimSpace(m.li.text(d.End)) == "" {
				d.End--
			}
			if d.End > d.Start {
				sk.elideLines(m.li, d.Start+1, d.End, "    ", "%")
			}
		}
		lastFunc = -1
	}
	in := func() int {
		for k := len(stack) - 1; k >= 0; k-- {
			if stack[k].def >= 0 && facts.Defs[stack[k].def].Kind != world.KindModule {
				return stack[k].def + 1
			}
		}
		if lastFunc >= 0 {
			return lastFunc + 1
		}
		return 0
	}
	for l := 1; l <= n; l++ {
		raw := strings.TrimSpace(m.li.text(l))
		if strings.HasPrefix(raw, "%%") {
			if section >= 0 {
				facts.Defs[section].End = l - 1
			}
			title := strings.TrimSpace(strings.TrimPrefix(raw, "%%"))
			if title == "" {
				title = "section"
			}
			facts.Defs = append(facts.Defs, world.Def{Name: title, Qualified: title, Kind: world.KindModule, Start: l, End: n,
				Exported: true, Signature: raw})
			section = len(facts.Defs) - 1
			continue
		}
		code := m.lineCode(l)
		if code == "" {
			continue
		}
		top := ""
		if len(stack) > 0 {
			top = stack[len(stack)-1].kw
		}
		// Members of classdef blocks are read whole lines.
		if top == "properties" || top == "events" || top == "enumeration" {
			w := mFirstWord(code)
			if w != "" && !mEnds[w] {
				kind := map[string]string{"properties": world.KindProperty, "events": world.KindField, "enumeration": world.KindConst}[top]
				sig := strings.TrimSpace(strings.SplitN(raw, "%", 2)[0])
				sig = strings.TrimSuffix(sig, ";")
				facts.Defs = append(facts.Defs, world.Def{Name: w, Qualified: joinQual(className, w), Parent: className, Kind: kind,
					Start: l, End: l, Exported: true, Signature: clip(sig, 100), Doc: m.docAbove(l)})
				continue
			}
		}
		for _, st := range mStatements(code) {
			w := mFirstWord(st)
			switch {
			case w == "classdef":
				mm := mClassRe.FindStringSubmatch(oneLine(st))
				name := ""
				if mm != nil {
					name = mm[1]
				}
				className = name
				facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: name, Kind: world.KindClass, Start: l, End: n,
					Exported: true, Signature: oneLine(st), Doc: mDoc(m, l)})
				idx := len(facts.Defs) - 1
				stack = append(stack, mBlock{"classdef", idx, l})
				if mm != nil && mm[2] != "" {
					for _, p := range strings.Split(mm[2], "&") {
						if p = strings.TrimSpace(p); p != "" {
							facts.Refs = append(facts.Refs, world.Ref{Name: afterLast(p, "."), Qual: strings.TrimSuffix(p, "."+afterLast(p, ".")),
								Line: l, In: idx + 1, Kind: world.RefType})
							if r := &facts.Refs[len(facts.Refs)-1]; r.Qual == r.Name {
								r.Qual = ""
							}
						}
					}
				}
			case w == "function":
				if !funcEnds {
					closeFunc(l - 1)
				}
				sigText := oneLine(string(src[m.li.start(l):m.li.end(l)]))
				sigText = strings.TrimSpace(strings.SplitN(sigText, "%", 2)[0])
				mm := mFuncRe.FindStringSubmatch(strings.TrimSpace(sigText))
				name := ""
				if mm != nil {
					name = mm[2]
				}
				kind, parent := world.KindFunction, ""
				if top == "methods" {
					kind, parent = world.KindMethod, className
				} else if len(stack) > 0 && stack[len(stack)-1].kw == "function" && stack[len(stack)-1].def >= 0 {
					parent = facts.Defs[stack[len(stack)-1].def].Qualified // a nested function
				}
				facts.Defs = append(facts.Defs, world.Def{Name: afterLast(name, "."), Qualified: joinQual(parent, afterLast(name, ".")),
					Parent: parent, Kind: kind, Start: l, End: l, Exported: parent == "" || kind == world.KindMethod,
					Signature: sigText, Doc: mDoc(m, l)})
				idx := len(facts.Defs) - 1
				vars = map[string]bool{}
				if mm != nil {
					for _, v := range strings.FieldsFunc(mm[1]+","+mm[3], func(r rune) bool { return strings.ContainsRune("[](), ~", r) }) {
						vars[v] = true
					}
				}
				if funcEnds {
					stack = append(stack, mBlock{"function", idx, l})
				} else {
					lastFunc = idx
				}
			case w == "import":
				for _, p := range strings.Fields(st)[1:] {
					facts.Imports = append(facts.Imports, world.Import{Path: p, Line: l, Kind: "import"})
				}
			case w == "addpath":
				if mm := mPathRe.FindStringSubmatch(strings.TrimSpace(string(src[m.li.start(l):m.li.end(l)]))); mm != nil && mm[1]+mm[2] != "" {
					facts.Imports = append(facts.Imports, world.Import{Path: mm[1] + mm[2], Line: l, Kind: "addpath"})
				}
			case mOpeners[w] && (w != "properties" && w != "methods" && w != "events" && w != "enumeration" || top == "classdef"):
				stack = append(stack, mBlock{w, -1, l})
			case mEnds[w] && (w != "end" || st == "end" || strings.HasPrefix(st, "end ")):
				if len(stack) == 0 {
					break
				}
				b := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if b.def >= 0 {
					facts.Defs[b.def].End = l
					if b.kw == "function" && l > b.line+1 {
						sk.elideLines(m.li, b.line+1, l-1, mIndent(m.li.text(b.line))+"    ", "%")
					}
				}
			default:
				if mm := mAssign.FindStringSubmatch(st); mm != nil {
					for _, v := range strings.FieldsFunc(mm[1]+","+mm[2], func(r rune) bool { return r == ',' || r == ' ' || r == '~' }) {
						vars[v] = true
					}
				}
			}
			for _, mm := range mCallRe.FindAllStringSubmatch(st, -1) {
				name := mm[2]
				if vars[name] || mBuiltin[name] || mOpeners[name] || name == w && (w == "function" || w == "classdef") {
					continue
				}
				if w == "function" {
					break
				}
				facts.Refs = append(facts.Refs, world.Ref{Name: name, Line: l, In: in(), Kind: world.RefCall})
			}
		}
	}
	closeFunc(n)
	for _, b := range stack {
		if b.def >= 0 && facts.Warning == "" && b.kw != "function" {
			facts.Partial = true
			facts.Warning = b.kw + " at line " + itoa(b.line) + " has no end; facts are partial"
		}
	}
	if m.broken > 0 && facts.Warning == "" {
		facts.Partial = true
		facts.Warning = "unterminated string or comment at line " + itoa(m.broken) + "; facts are partial"
	}
	m.dropComments(sk, docStarts(facts, func(d *world.Def) bool { return d.Doc != "" && d.Kind != world.KindModule }))
	// %% section lines stay.
	keep := sk.cuts[:0]
	for _, c := range sk.cuts {
		if !strings.HasPrefix(strings.TrimSpace(string(src[c.start:c.end])), "%%") {
			keep = append(keep, c)
		}
	}
	sk.cuts = keep
	facts.Skeleton = sk.String()
	tidy(facts)
}

// mDoc is a function's help: the comment block right above it, or the
// one right below its signature line (MATLAB's H1 line).
func mDoc(m *masked, l int) string {
	if d := m.docAbove(l); d != "" {
		return d
	}
	if l < m.li.count() && m.commentOnly(l+1) {
		return firstDocLine(m.li.text(l + 1))
	}
	return ""
}

// mIndent returns a line's leading white space.
func mIndent(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// looksObjC reports whether a .m file is Objective-C.
func looksObjC(src []byte) bool {
	head := src
	if len(head) > 4096 {
		head = head[:4096]
	}
	for _, l := range strings.Split(string(head), "\n") {
		l = strings.TrimSpace(l)
		for _, p := range []string{"#import", "#include", "@interface", "@implementation", "@protocol"} {
			if strings.HasPrefix(l, p) {
				return true
			}
		}
	}
	return false
}

// ---- GDScript ----

var (
	gdFuncRe   = lazyre.New(`^(static\s+)?func\s+([A-Za-z_]\w*)\s*\(`)
	gdVarRe    = lazyre.New(`^((?:@\w+(?:\([^)]*\))?\s+|export(?:\([^)]*\))?\s+|onready\s+|static\s+)*)(var|const)\s+([A-Za-z_]\w*)`)
	gdSignalRe = lazyre.New(`^signal\s+([A-Za-z_]\w*)`)
	gdEnumRe   = lazyre.New(`^enum\s*([A-Za-z_]\w*)?\s*\{`)
	gdClassRe  = lazyre.New(`^class\s+([A-Za-z_]\w*)(?:\s+extends\s+([\w."/:]+))?\s*:`)
	gdLoadRe   = lazyre.New(`\b(preload|load)\s*\(\s*"([^"]+)"`)
	gdCallRe   = lazyre.New(`(^|[^\w.$])([A-Za-z_]\w*)\s*\(`)
	gdNewRe    = lazyre.New(`\b([A-Z]\w*)\.new\s*\(`)
)

// gdKeywords never name a called function.
var gdKeywords = map[string]bool{"if": true, "elif": true, "while": true, "for": true, "match": true, "return": true,
	"func": true, "print": true, "assert": true, "await": true, "super": true, "preload": true, "load": true, "len": true,
	"range": true, "str": true, "int": true, "float": true, "bool": true, "typeof": true, "is_instance_valid": true,
	"Vector2": true, "Vector3": true, "Color": true, "signal": true, "and": true, "or": true, "not": true, "in": true}

type gdClass struct {
	name   string
	indent int
	def    int
}

// extractGDScript reads a Godot script: class_name (the file's class),
// extends (an import), inner classes, functions (bodies elided by
// indentation), signals, enums with their values, constants, variables
// with their annotations (@export, @onready …), preload/load paths
// (imports), calls and Name.new() (references).
func extractGDScript(src []byte, _ Options, facts *world.Facts) {
	m := maskSource(src, syntax{line: []string{"#"}, quotes: `"'`, escape: '\\', tripleQ: true})
	sk := &skel{src: src}
	n := m.li.count()
	indentOf := func(l int) int {
		t := m.li.text(l)
		w := 0
		for _, c := range t {
			if c == '\t' {
				w += 4
			} else if c == ' ' {
				w++
			} else {
				break
			}
		}
		return w
	}
	// blockEnd is the last line with code indented deeper than indent after l.
	blockEnd := func(l, indent int) int {
		last := l
		for k := l + 1; k <= n; k++ {
			if m.lineCode(k) == "" {
				continue
			}
			if indentOf(k) <= indent {
				break
			}
			last = k
		}
		return last
	}
	var classes []gdClass
	fileClass := ""
	fileDef := -1
	funcDef, funcEnd := -1, 0
	for l := 1; l <= n; l++ {
		code := m.lineCode(l)
		if code == "" {
			continue
		}
		ind := indentOf(l)
		for len(classes) > 0 && ind <= classes[len(classes)-1].indent {
			classes = classes[:len(classes)-1]
		}
		if funcDef >= 0 && l > funcEnd {
			funcDef = -1
		}
		parent := fileClass
		if len(classes) > 0 {
			parent = classes[len(classes)-1].name
		}
		raw := strings.TrimSpace(m.li.text(l))
		in := 0
		if funcDef >= 0 {
			in = funcDef + 1
		} else if len(classes) > 0 {
			in = classes[len(classes)-1].def + 1
		} else if fileDef >= 0 {
			in = fileDef + 1
		}
		for _, mm := range gdLoadRe.FindAllStringSubmatch(raw, -1) {
			facts.Imports = append(facts.Imports, world.Import{Path: mm[2], Line: l, Kind: mm[1]})
		}
		switch {
		case strings.HasPrefix(code, "class_name "):
			f := strings.Fields(strings.ReplaceAll(raw, ",", " "))
			if len(f) >= 2 {
				fileClass = f[1]
				facts.Defs = append(facts.Defs, world.Def{Name: f[1], Qualified: f[1], Kind: world.KindClass, Start: l, End: n,
					Exported: true, Signature: clip(raw, 100), Doc: m.docAbove(l)})
				fileDef = len(facts.Defs) - 1
			}
			continue
		case strings.HasPrefix(code, "extends ") && ind == 0:
			base := strings.Trim(strings.TrimSpace(strings.SplitN(raw[len("extends "):], "#", 2)[0]), `"`)
			kind := "extends"
			facts.Imports = append(facts.Imports, world.Import{Path: base, Line: l, Kind: kind})
			if !strings.Contains(base, "/") {
				facts.Refs = append(facts.Refs, world.Ref{Name: base, Line: l, In: in, Kind: world.RefType})
			}
			continue
		}
		if funcDef < 0 {
			if mm := gdClassRe.FindStringSubmatch(raw); mm != nil {
				end := blockEnd(l, ind)
				facts.Defs = append(facts.Defs, world.Def{Name: mm[1], Qualified: joinQual(parent, mm[1]), Parent: parent,
					Kind: world.KindClass, Start: l, End: end, Exported: true, Signature: strings.TrimSuffix(raw, ":"), Doc: m.docAbove(l)})
				classes = append(classes, gdClass{joinQual(parent, mm[1]), ind, len(facts.Defs) - 1})
				if mm[2] != "" {
					facts.Refs = append(facts.Refs, world.Ref{Name: strings.Trim(mm[2], `"`), Line: l, In: len(facts.Defs), Kind: world.RefType})
				}
				continue
			}
			if mm := gdFuncRe.FindStringSubmatch(code); mm != nil {
				end := blockEnd(l, ind)
				sigEnd := l
				for sigEnd < end && !strings.HasSuffix(m.lineCode(sigEnd), ":") {
					sigEnd++
				}
				sig := oneLine(string(src[m.li.start(l):m.li.end(sigEnd)]))
				sig = strings.TrimSuffix(strings.TrimSpace(strings.SplitN(sig, "#", 2)[0]), ":")
				kind := world.KindFunction
				if parent != "" {
					kind = world.KindMethod
				}
				facts.Defs = append(facts.Defs, world.Def{Name: mm[2], Qualified: joinQual(parent, mm[2]), Parent: parent, Kind: kind,
					Start: l, End: end, Exported: !strings.HasPrefix(mm[2], "_"), Signature: sig, Doc: m.docAbove(l)})
				funcDef, funcEnd = len(facts.Defs)-1, end
				if end > sigEnd {
					pad := strings.Repeat("\t", ind/4+1)
					sk.elideLines(m.li, sigEnd+1, end, pad, "#")
				}
				l = sigEnd
				continue
			}
			if mm := gdSignalRe.FindStringSubmatch(code); mm != nil {
				facts.Defs = append(facts.Defs, world.Def{Name: mm[1], Qualified: joinQual(parent, mm[1]), Parent: parent,
					Kind: world.KindField, Start: l, End: l, Exported: true, Signature: strings.SplitN(raw, "#", 2)[0], Doc: m.docAbove(l)})
				continue
			}
			if mm := gdEnumRe.FindStringSubmatch(code); mm != nil {
				open := m.li.start(l) + strings.IndexByte(string(m.code[m.li.start(l):m.li.end(l)]), '{')
				close := m.close(open)
				end := l
				if close > open {
					end = m.li.lineOf(close)
				}
				name := mm[1]
				eparent := parent
				if name != "" {
					facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: joinQual(parent, name), Parent: parent,
						Kind: world.KindEnum, Start: l, End: end, Exported: true, Signature: "enum " + name, Doc: m.docAbove(l)})
					eparent = joinQual(parent, name)
				}
				if close > open {
					for _, item := range strings.Split(string(m.code[open+1:close]), ",") {
						v := mFirstWord(strings.TrimSpace(item))
						if v == "" {
							continue
						}
						at := open + 1 + strings.Index(string(m.code[open+1:close]), strings.TrimSpace(item))
						facts.Defs = append(facts.Defs, world.Def{Name: v, Qualified: joinQual(eparent, v), Parent: eparent,
							Kind: world.KindConst, Start: m.li.lineOf(at), End: m.li.lineOf(at), Exported: true,
							Signature: oneLine(string(src[at : at+len(strings.TrimSpace(item))]))})
					}
				}
				l = end
				continue
			}
			if mm := gdVarRe.FindStringSubmatch(code); mm != nil {
				kind := world.KindVar
				if mm[2] == "const" {
					kind = world.KindConst
				} else if strings.TrimSpace(mm[1]) != "" && !strings.HasPrefix(strings.TrimSpace(mm[1]), "static") {
					kind = world.KindProperty
				}
				sig := strings.TrimSpace(strings.SplitN(raw, "#", 2)[0])
				if eq := strings.Index(sig, "="); eq >= 0 {
					op := " = "
					lhs := strings.TrimSpace(sig[:eq])
					if strings.HasSuffix(lhs, ":") {
						op, lhs = " := ", strings.TrimSpace(strings.TrimSuffix(lhs, ":"))
					}
					sig = lhs + op + short(sig[eq+1:])
				}
				end := l
				if strings.HasSuffix(code, ":") { // setget block
					end = blockEnd(l, ind)
				}
				facts.Defs = append(facts.Defs, world.Def{Name: mm[3], Qualified: joinQual(parent, mm[3]), Parent: parent, Kind: kind,
					Start: l, End: end, Exported: !strings.HasPrefix(mm[3], "_"), Signature: strings.TrimSuffix(sig, ":"), Doc: m.docAbove(l)})
				continue
			}
		}
		// References in code.
		for _, mm := range gdNewRe.FindAllStringSubmatch(code, -1) {
			facts.Refs = append(facts.Refs, world.Ref{Name: mm[1], Line: l, In: in, Kind: world.RefType})
		}
		for _, mm := range gdCallRe.FindAllStringSubmatch(code, -1) {
			if !gdKeywords[mm[2]] {
				facts.Refs = append(facts.Refs, world.Ref{Name: mm[2], Line: l, In: in, Kind: world.RefCall})
			}
		}
	}
	m.dropComments(sk, docStarts(facts, func(d *world.Def) bool { return d.Doc != "" }))
	facts.Skeleton = sk.String()
	tidy(facts)
}
