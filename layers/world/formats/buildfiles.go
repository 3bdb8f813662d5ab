package formats

import (
	"strings"

	"github.com/git-speed/git-speed/internal/lazyre"
	"github.com/git-speed/git-speed/layers/world"
)

// Build files: Makefiles, CMake, Nix expressions and Gradle scripts
// (Groovy and Kotlin DSL), each through a structured scanner over the
// masked source (comments and strings blanked, brackets matched).

func init() {
	Register(world.LangMakefile, extractMakefile)
	Register(world.LangCMake, extractCMake)
	Register(world.LangNix, extractNix)
	Register(world.LangGradle, extractGradle)
}

// ---- Makefile ----

// makeVarUse matches $(NAME) and ${NAME}.
var makeVarUse = lazyre.New(`\$[({]([A-Za-z_][A-Za-z0-9_.-]*)[)}]`)

// extractMakefile reads rules (targets, with their prerequisites as
// references and recipes elided in the skeleton), variable assignments
// (NAME = / := / ?= / += / ::= / !=, define … endef), include lines
// (imports) and $(NAME) uses (references).
func extractMakefile(src []byte, _ Options, facts *world.Facts) {
	m := maskSource(src, syntax{line: []string{"#"}})
	sk := &skel{src: src}
	n := m.li.count()
	vars := map[string]bool{}
	rule := -1 // index of the rule whose recipe is being read
	recipeFrom := 0
	closeRecipe := func(last int) {
		if rule >= 0 && recipeFrom > 0 && last >= recipeFrom {
			facts.Defs[rule].End = last
			sk.elideLines(m.li, recipeFrom, last, "\t", "#")
		}
		rule, recipeFrom = -1, 0
	}
	lastRecipe := 0
	for l := 1; l <= n; l++ {
		raw := m.li.text(l)
		code := strings.TrimRight(string(m.code[m.li.start(l):m.li.end(l)]), " \t\r")
		// A logical line continues while it ends in a backslash.
		end := l
		for end < n && strings.HasSuffix(strings.TrimRight(m.li.text(end), " \t\r"), "\\") {
			end++
			code += " " + strings.TrimSpace(string(m.code[m.li.start(end):m.li.end(end)]))
		}
		if strings.HasPrefix(raw, "\t") {
			if rule >= 0 {
				if recipeFrom == 0 {
					recipeFrom = l
				}
				lastRecipe = end
			}
			makeRefs(facts, code, l, rule+1)
			l = end
			continue
		}
		t := strings.TrimSpace(code)
		if t == "" {
			l = end
			continue
		}
		closeRecipe(lastRecipe)
		f := strings.Fields(t)
		switch {
		case f[0] == "include" || f[0] == "-include" || f[0] == "sinclude":
			for _, p := range f[1:] {
				facts.Imports = append(facts.Imports, world.Import{Path: p, Line: l, Kind: "include"})
			}
		case f[0] == "define" && len(f) > 1:
			name := f[1]
			e := l
			for e < n && strings.TrimSpace(m.li.text(e)) != "endef" {
				e++
			}
			facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: name, Kind: world.KindVar, Start: l, End: e,
				Exported: true, Signature: "define " + name, Doc: m.docAbove(l)})
			vars[name] = true
			if e > l+1 {
				sk.elideLines(m.li, l+1, e-1, "", "#")
			}
			end = e
		case f[0] == "ifeq" || f[0] == "ifneq" || f[0] == "ifdef" || f[0] == "ifndef" || f[0] == "else" || f[0] == "endif" ||
			f[0] == "export" && len(f) == 1 || f[0] == "vpath" || f[0] == "unexport" || f[0] == "override" && len(f) == 1:
			makeRefs(facts, t, l, 0)
		default:
			if name, op, value, ok := makeAssign(t); ok {
				if !vars[name] {
					vars[name] = true
					facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: name, Kind: world.KindVar, Start: l, End: end,
						Exported: true, Signature: name + " " + op + " " + iniValue(name, value), Doc: m.docAbove(l)})
				}
				makeRefs(facts, value, l, 0)
				if end > l || len(value) > maxValue {
					if eq := strings.Index(raw, op); eq >= 0 {
						sk.elide(m.li.start(l)+eq+len(op), m.li.end(end), " …")
					}
				}
				break
			}
			colon := strings.Index(t, ":")
			if colon <= 0 || strings.HasPrefix(t[colon:], ":=") {
				makeRefs(facts, t, l, 0)
				break
			}
			targets := strings.Fields(t[:colon])
			deps := t[colon+1:]
			deps = strings.TrimPrefix(deps, ":")
			if i := strings.Index(deps, ";"); i >= 0 {
				deps = deps[:i]
			}
			if i := strings.Index(deps, "|"); i >= 0 {
				deps = deps[:i] + " " + deps[i+1:]
			}
			first := -1
			for _, tg := range targets {
				if strings.HasPrefix(tg, ".") && strings.ToUpper(tg) == tg {
					continue // .PHONY and other special targets
				}
				facts.Defs = append(facts.Defs, world.Def{Name: tg, Qualified: tg, Kind: world.KindFunction, Start: l, End: end,
					Exported: true, Signature: oneLine(t), Doc: m.docAbove(l)})
				if first < 0 {
					first = len(facts.Defs) - 1
				}
			}
			if first >= 0 {
				rule = first
				for _, d := range strings.Fields(deps) {
					if !strings.Contains(d, "$") && !strings.Contains(d, "%") {
						facts.Refs = append(facts.Refs, world.Ref{Name: d, Line: l, In: first + 1, Kind: world.RefCall})
					}
				}
				// Later targets of the same rule share its recipe's end.
			}
			makeRefs(facts, deps, l, first+1)
		}
		l = end
	}
	closeRecipe(lastRecipe)
	// Targets of one rule end where the first does.
	for i := range facts.Defs {
		for j := i + 1; j < len(facts.Defs) && facts.Defs[j].Start == facts.Defs[i].Start && facts.Defs[i].Kind == world.KindFunction; j++ {
			if facts.Defs[j].End < facts.Defs[i].End {
				facts.Defs[j].End = facts.Defs[i].End
			}
		}
	}
	m.dropComments(sk, docStarts(facts, func(d *world.Def) bool { return d.Doc != "" && d.Kind == world.KindFunction }))
	facts.Skeleton = sk.String()
	tidy(facts)
}

// makeAssign splits a variable assignment.
func makeAssign(t string) (name, op, value string, ok bool) {
	for _, prefix := range []string{"export ", "override ", "private "} {
		t = strings.TrimPrefix(t, prefix)
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c == ':' && strings.HasPrefix(t[i:], "::=") {
			op = "::="
		} else if (c == ':' || c == '?' || c == '+' || c == '!') && i+1 < len(t) && t[i+1] == '=' {
			op = t[i : i+2]
		} else if c == '=' {
			op = "="
		} else if c == ':' || c == ';' {
			return "", "", "", false
		} else {
			continue
		}
		name = strings.TrimSpace(t[:i])
		if name == "" || strings.ContainsAny(name, " \t$") {
			return "", "", "", false
		}
		return name, op, strings.TrimSpace(t[i+len(op):]), true
	}
	return "", "", "", false
}

func makeRefs(facts *world.Facts, s string, line, in int) {
	for _, mm := range makeVarUse.FindAllStringSubmatch(s, -1) {
		facts.Refs = append(facts.Refs, world.Ref{Name: mm[1], Line: line, In: in, Kind: world.RefValue})
	}
}

// ---- CMake ----

// cmakeBuiltin are common commands that are never user functions.
var cmakeBuiltin = map[string]bool{"if": true, "elseif": true, "else": true, "endif": true, "foreach": true,
	"endforeach": true, "while": true, "endwhile": true, "set": true, "unset": true, "list": true, "string": true,
	"message": true, "option": true, "return": true, "include": true, "add_subdirectory": true, "find_package": true,
	"project": true, "cmake_minimum_required": true, "add_executable": true, "add_library": true, "function": true,
	"endfunction": true, "macro": true, "endmacro": true, "target_link_libraries": true, "target_include_directories": true,
	"target_compile_definitions": true, "target_compile_options": true, "target_sources": true, "install": true,
	"add_custom_target": true, "add_custom_command": true, "add_dependencies": true, "set_target_properties": true,
	"file": true, "get_filename_component": true, "math": true, "configure_file": true, "add_test": true,
	"enable_testing": true, "include_directories": true, "link_directories": true, "add_definitions": true,
	"add_compile_options": true, "cmake_parse_arguments": true, "break": true, "continue": true, "block": true,
	"endblock": true, "cmake_policy": true, "get_target_property": true, "set_property": true, "get_property": true,
	"find_library": true, "find_path": true, "find_program": true, "execute_process": true, "FetchContent_Declare": true,
	"FetchContent_MakeAvailable": true, "target_compile_features": true, "export": true, "source_group": true}

// cmakeDefs maps definition commands to the kind they give.
var cmakeDefs = map[string]string{"project": world.KindModule, "add_executable": world.KindStruct,
	"add_library": world.KindStruct, "add_custom_target": world.KindStruct, "function": world.KindFunction,
	"macro": world.KindMacro, "option": world.KindVar, "set": world.KindVar}

// extractCMake reads command invocations name(args…): targets, functions
// and macros (bodies elided up to endfunction/endmacro), project, options
// and variables are definitions; include, add_subdirectory and
// find_package imports; calls of other commands, linked targets and
// ${VAR} uses references.
func extractCMake(src []byte, _ Options, facts *world.Facts) {
	m := maskSource(src, syntax{line: []string{"#"}, blockOpen: "#[[", blockClose: "]]", quotes: `"`, escape: '\\'})
	sk := &skel{src: src}
	code := m.code
	vars := map[string]bool{}
	type open struct{ def, bodyFrom int }
	var stack []open
	for i := 0; i < len(code); i++ {
		if !(isIdent(code[i]) && code[i] < 0x80) || i > 0 && isIdent(code[i-1]) {
			continue
		}
		e := i
		for e < len(code) && isIdent(code[e]) {
			e++
		}
		p := e
		for p < len(code) && (code[p] == ' ' || code[p] == '\t') {
			p++
		}
		if p >= len(code) || code[p] != '(' {
			i = e - 1
			continue
		}
		close := m.close(p)
		if close < 0 {
			close = len(code) - 1
		}
		cmd := string(code[i:e])
		lc := strings.ToLower(cmd)
		line := m.li.lineOf(i)
		args := cmakeArgs(m, p+1, close)
		in := 0
		if len(stack) > 0 {
			in = stack[len(stack)-1].def + 1
		}
		switch lc {
		case "include", "add_subdirectory", "find_package":
			if len(args) > 0 {
				kind := map[string]string{"include": "include", "add_subdirectory": "subdirectory", "find_package": "package"}[lc]
				facts.Imports = append(facts.Imports, world.Import{Path: args[0], Line: line, Kind: kind})
			}
		case "endfunction", "endmacro":
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				facts.Defs[top.def].End = m.li.lineOf(close)
				if line > top.bodyFrom {
					sk.elideLines(m.li, top.bodyFrom, line-1, "  ", "#")
				}
			}
		case "target_link_libraries", "add_dependencies":
			for k, a := range args {
				if k == 0 || a == "PRIVATE" || a == "PUBLIC" || a == "INTERFACE" || strings.ContainsAny(a, "$/<") {
					continue
				}
				name, qual := a, ""
				if j := strings.LastIndex(a, "::"); j >= 0 {
					name, qual = a[j+2:], a[:j]
				}
				facts.Refs = append(facts.Refs, world.Ref{Name: name, Qual: qual, Line: line, In: in, Kind: world.RefType})
			}
		}
		if kind, ok := cmakeDefs[lc]; ok && len(args) > 0 && !strings.Contains(args[0], "$") {
			name := args[0]
			if (lc == "set" || lc == "option") && vars[name] {
				kind = ""
			}
			if kind != "" && !(lc == "set" && len(stack) > 0) {
				vars[name] = true
				sig := oneLine(string(src[i : close+1]))
				if lc == "set" || len(sig) > 100 {
					sig = clip(cmd+"("+strings.Join(args, " ")+")", 100)
				}
				facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: name, Kind: kind, Start: line,
					End: m.li.lineOf(close), Exported: true, Signature: sig, Doc: m.docAbove(line)})
				if lc == "function" || lc == "macro" {
					stack = append(stack, open{len(facts.Defs) - 1, m.li.lineOf(close) + 1})
				}
			}
		} else if !cmakeBuiltin[lc] && !cmakeBuiltin[cmd] && !strings.HasPrefix(lc, "end") {
			facts.Refs = append(facts.Refs, world.Ref{Name: cmd, Line: line, In: in, Kind: world.RefCall})
		}
		for _, mm := range cmakeVarUse.FindAllSubmatchIndex(src[p:close+1], -1) {
			facts.Refs = append(facts.Refs, world.Ref{Name: string(src[p+mm[2] : p+mm[3]]), Line: m.li.lineOf(p + mm[0]), In: in, Kind: world.RefValue})
		}
		i = close
	}
	for _, o := range stack {
		facts.Defs[o.def].End = m.li.count()
		facts.Partial = true
		facts.Warning = "function or macro without its end command at line " + itoa(facts.Defs[o.def].Start) + "; facts are partial"
	}
	m.dropComments(sk, docStarts(facts, func(d *world.Def) bool { return d.Doc != "" }))
	facts.Skeleton = sk.String()
	tidy(facts)
}

var cmakeVarUse = lazyre.New(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// cmakeArgs splits the arguments of a command (between offsets a and b),
// strings whole and unquoted.
func cmakeArgs(m *masked, a, b int) []string {
	var out []string
	for i := a; i < b; {
		c := m.code[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '"':
			e := i + 1
			for e < b && m.code[e] != '"' {
				e++
			}
			out = append(out, string(m.src[i+1:e]))
			i = e + 1
		default:
			e := i
			depth := 0
			for e < b && (depth > 0 || !strings.ContainsRune(" \t\r\n", rune(m.code[e]))) {
				if m.code[e] == '(' {
					depth++
				} else if m.code[e] == ')' {
					depth--
				}
				e++
			}
			if e == i {
				e++
			}
			out = append(out, strings.TrimSpace(string(m.code[i:e])))
			i = e
		}
		if len(out) > 64 {
			break
		}
	}
	return out
}

// ---- Nix ----

// nixDrv are the calls that build a derivation or a shell.
var nixDrv = map[string]bool{"mkDerivation": true, "mkShell": true, "buildGoModule": true, "buildPythonPackage": true,
	"buildPythonApplication": true, "buildRustPackage": true, "buildNpmPackage": true, "mkShellNoCC": true,
	"buildDotnetModule": true, "stdenvNoCC.mkDerivation": true, "writeShellApplication": true}

var (
	nixBind   = lazyre.New(`(?m)^[ \t]*([A-Za-z_][\w'-]*(?:\.[A-Za-z_"][\w'"-]*)*)[ \t]*=[^=>]`)
	nixImport = lazyre.New(`\b(import|callPackage)[ \t]+(\.{0,2}/[\w./+-]+|<[\w./+-]+>)`)
	nixPath   = lazyre.New(`<[A-Za-z][\w./+-]*>`)
	nixCall   = lazyre.New(`\b((?:[A-Za-z_][\w-]*\.)*)(mkDerivation|mkShell|mkShellNoCC|buildGoModule|buildPythonPackage|buildPythonApplication|buildRustPackage|buildNpmPackage|buildDotnetModule|writeShellApplication)\b`)
)

// extractNix reads the bindings of the file's outermost attribute sets
// (and let blocks) as definitions, derivations (mkDerivation, mkShell,
// build*Package …) as modules named by their binding or pname, imports
// (import ./x.nix, callPackage ./x, <nixpkgs>, flake input urls) and
// elides multi-line binding values in the skeleton.
func extractNix(src []byte, _ Options, facts *world.Facts) {
	m := maskSource(src, syntax{line: []string{"#"}, blockOpen: "/*", blockClose: "*/", quotes: `"`, escape: '\\', nixIndented: true})
	sk := &skel{src: src}
	code := m.code
	// depth of every offset's braces
	depth := make([]int16, len(code)+1)
	d := int16(0)
	for i, c := range code {
		if c == '{' {
			d++
		}
		depth[i] = d
		if c == '}' && d > 0 {
			d--
			depth[i] = d
		}
	}
	// The outermost attribute set holding bindings: the least depth with one.
	binds := nixBind.FindAllSubmatchIndex(code, -1)
	min := int16(1 << 14)
	for _, b := range binds {
		if dd := depth[b[2]]; dd < min {
			min = dd
		}
	}
	for _, b := range binds {
		if depth[b[2]] > min+1 || depth[b[2]] > min && min > 0 {
			continue
		}
		name := string(code[b[2]:b[3]])
		line := m.li.lineOf(b[2])
		eq := b[3]
		for eq < len(code) && code[eq] != '=' {
			eq++
		}
		v := m.next(eq + 1)
		semi := nixEnd(m, v)
		end := m.li.lineOf(semi)
		value := "…"
		if v >= 0 && semi > v {
			value = short(string(src[v:semi]))
			if m.li.lineOf(v) != end {
				value = "…"
				if c := m.close(v); (code[v] == '{' || code[v] == '[') && c > v && m.next(c+1) == semi {
					sk.elideBody(m.li, v, c, "#")
				} else {
					sk.elide(v, semi, "… /* lines "+itoa(m.li.lineOf(v))+"-"+itoa(end)+" */")
				}
			}
		}
		facts.Defs = append(facts.Defs, world.Def{Name: afterLast(name, "."), Qualified: name, Kind: world.KindVar, Start: line,
			End: end, Exported: true, Signature: name + " = " + value, Doc: m.docAbove(line)})
	}
	// Flake inputs (and fetchers) name their sources with url = "…".
	for _, b := range binds {
		name := string(code[b[2]:b[3]])
		if name != "url" && !strings.HasSuffix(name, ".url") {
			continue
		}
		if q := m.next(b[1] - 1); q >= 0 && src[q] == '"' {
			e := q + 1
			for e < len(src) && src[e] != '"' && src[e] != '\n' {
				e++
			}
			if e > q+1 {
				facts.Imports = append(facts.Imports, world.Import{Path: string(src[q+1 : e]), Line: m.li.lineOf(q), Kind: "flake"})
			}
		}
	}
	for _, mm := range nixCall.FindAllSubmatchIndex(code, -1) {
		line := m.li.lineOf(mm[4])
		name := ""
		// pname or name inside its argument set
		if open, close := m.braceAfter(mm[5], ";"); open >= 0 && close > open {
			for _, k := range []string{"pname", "name"} {
				if r := nixName[k].FindIndex(code[open:close]); r != nil {
					s := open + r[1]
					e := s
					for e < len(src) && src[e] != '"' && src[e] != '\n' {
						e++
					}
					name = string(src[s:e])
					break
				}
			}
		}
		if name == "" { // the binding it is the value of, on its line
			before := strings.TrimSpace(string(code[m.li.start(line):mm[0]]))
			if f := strings.Fields(strings.TrimSuffix(before, "=")); strings.HasSuffix(before, "=") && len(f) > 0 {
				name = f[len(f)-1]
			}
		}
		if name == "" {
			for i := len(facts.Defs) - 1; i >= 0; i-- {
				if fd := facts.Defs[i]; fd.Start <= line && line <= fd.End {
					name = fd.Name
					break
				}
			}
		}
		if name == "" {
			name = string(code[mm[4]:mm[5]])
		}
		open, close := m.braceAfter(mm[5], ";")
		end := line
		if close > open && open >= 0 {
			end = m.li.lineOf(close)
		}
		facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: name, Parent: "", Kind: world.KindModule, Start: line,
			End: end, Exported: true, Signature: oneLine(string(src[mm[0]:mm[1]])), Doc: m.docAbove(line)})
	}
	seen := map[int]bool{}
	for _, mm := range nixImport.FindAllSubmatchIndex(src, -1) {
		if m.code[mm[0]] == ' ' {
			continue // in a comment or string
		}
		seen[mm[4]] = true
		facts.Imports = append(facts.Imports, world.Import{Path: string(src[mm[4]:mm[5]]), Line: m.li.lineOf(mm[0]), Kind: string(src[mm[2]:mm[3]])})
	}
	for _, mm := range nixPath.FindAllIndex(code, -1) {
		if !seen[mm[0]] {
			facts.Imports = append(facts.Imports, world.Import{Path: string(src[mm[0]:mm[1]]), Line: m.li.lineOf(mm[0]), Kind: "path"})
		}
	}
	if m.broken > 0 {
		facts.Partial = true
		facts.Warning = "unterminated string or comment at line " + itoa(m.broken) + "; facts are partial"
	}
	m.dropComments(sk, docStarts(facts, func(d *world.Def) bool { return d.Doc != "" }))
	facts.Skeleton = sk.String()
	tidy(facts)
}

// nixEnd returns the offset of the ';' ending the binding whose value
// starts at v (or the end of the enclosing set).
func nixEnd(m *masked, v int) int {
	if v < 0 {
		return len(m.code) - 1
	}
	for i := v; i < len(m.code); i++ {
		switch m.code[i] {
		case ';':
			return i
		case '{', '[', '(':
			if c := m.close(i); c > i {
				i = c
			} else {
				return len(m.code) - 1
			}
		case '}', ']', ')':
			return i - 1
		}
	}
	return len(m.code) - 1
}

var nixName = map[string]*lazyre.Regexp{"pname": lazyre.New(`(?m)^[ \t]*pname[ \t]*=[ \t]*"`),
	"name": lazyre.New(`(?m)^[ \t]*name[ \t]*=[ \t]*"`)}

// ---- Gradle ----

var (
	gradlePlugin  = lazyre.New(`^\s*(?:id\s*\(?\s*["']([\w.-]+)["']\s*\)?|kotlin\s*\(\s*"([\w.-]+)"\s*\)|` + "`" + `([\w-]+)` + "`" + `|(java|application|java-library|groovy|maven-publish|signing|jacoco|checkstyle|idea|eclipse)\s*$)`)
	gradleApply   = lazyre.New(`^\s*apply\s*\(?\s*plugin\s*[:=]\s*["']([\w.-]+)["']`)
	gradleDep     = lazyre.New(`^\s*([a-z][A-Za-z]*)\s*\(?\s*(?:platform\s*\(\s*)?(?:["']([^"'$]+(?:\$[^"']*)?)["']|(project\s*\(\s*(?:path\s*[:=]\s*)?["']([^"']+)["']\s*\))|(libs\.[\w.]+))`)
	gradleTask    = lazyre.New(`^\s*(?:task\s+([\w-]+)|tasks\.(?:register|create)(?:<[\w.]+>)?\s*\(\s*["']([\w-]+)["']|(?:val|def)\s+([\w]+)\s+by\s+tasks\.(?:registering|creating))`)
	gradleNamed   = lazyre.New(`^\s*tasks\.(?:named|getByName)(?:<[\w.]+>)?\s*\(\s*["']([\w-]+)["']`)
	gradleVar     = lazyre.New(`^\s*(?:(?:val|var|def)\s+([A-Za-z_]\w*)(?:\s*:\s*[\w<>?, ]+)?\s*(?:=|by\b)|ext\.([A-Za-z_]\w*)\s*=|extra\[\s*"([\w.]+)"\s*\]\s*=)`)
	gradleBlock   = lazyre.New(`^([A-Za-z_][\w.]*)\s*(?:\([^)]*\)\s*)?\{\s*$`)
	gradleTaskUse = lazyre.New(`(?:dependsOn|finalizedBy|mustRunAfter|shouldRunAfter)\s*\(?\s*["']?:?([\w-]+)`)
)

// extractGradle reads build.gradle and build.gradle.kts: plugins (ids,
// kotlin("…"), apply plugin) and dependencies (coordinates and project
// paths, one import per configuration line), tasks (task x, tasks.register,
// by tasks.registering), variables (val/def/ext) and top-level blocks;
// task bodies and other blocks are elided, plugins and dependencies kept.
func extractGradle(src []byte, _ Options, facts *world.Facts) {
	m := maskSource(src, syntax{line: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: `"'`, escape: '\\', tripleQ: true})
	sk := &skel{src: src}
	n := m.li.count()
	// block stack by brace depth: the name of each open block
	var stack []string
	for l := 1; l <= n; l++ {
		raw := m.li.text(l)
		code := m.lineCode(l)
		inBlock := ""
		if len(stack) > 0 {
			inBlock = stack[len(stack)-1]
		}
		top := len(stack) == 0
		switch {
		case inBlock == "plugins":
			if mm := gradlePlugin.FindStringSubmatch(raw); mm != nil {
				id := mm[1] + mm[2] + mm[3] + mm[4]
				if mm[2] != "" {
					id = "org.jetbrains.kotlin." + mm[2]
				}
				facts.Imports = append(facts.Imports, world.Import{Path: id, Line: l, Kind: "plugin"})
			}
		case inBlock == "dependencies" || inBlock == "buildscript.dependencies":
			if mm := gradleDep.FindStringSubmatch(raw); mm != nil && mm[1] != "if" {
				p := mm[2] + mm[4] + mm[5]
				if p != "" {
					facts.Imports = append(facts.Imports, world.Import{Path: p, Line: l, Kind: mm[1]})
				}
			}
		}
		if mm := gradleApply.FindStringSubmatch(raw); mm != nil {
			facts.Imports = append(facts.Imports, world.Import{Path: mm[1], Line: l, Kind: "plugin"})
		}
		for _, mm := range gradleTaskUse.FindAllStringSubmatch(raw, -1) {
			in := 0
			for i := len(facts.Defs) - 1; i >= 0; i-- {
				if facts.Defs[i].Kind == world.KindFunction && facts.Defs[i].Start <= l && l <= facts.Defs[i].End {
					in = i + 1
					break
				}
			}
			facts.Refs = append(facts.Refs, world.Ref{Name: mm[1], Line: l, In: in, Kind: world.RefCall})
		}
		lineStart := m.li.start(l)
		open := -1
		if i := strings.LastIndexByte(string(m.code[lineStart:m.li.end(l)]), '{'); i >= 0 && m.close(lineStart+i) > lineStart+i {
			open = lineStart + i
		}
		end := l
		if open >= 0 {
			end = m.li.lineOf(m.close(open))
		}
		if mm := gradleTask.FindStringSubmatch(raw); mm != nil {
			name := mm[1] + mm[2] + mm[3]
			facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: name, Kind: world.KindFunction, Start: l, End: end,
				Exported: true, Signature: strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(raw), "{")), Doc: m.docAbove(l)})
			if open >= 0 && end > l {
				sk.elideBody(m.li, open, m.close(open), "//")
			}
		} else if mm := gradleVar.FindStringSubmatch(raw); mm != nil && (top || inBlock == "ext") {
			name := mm[1] + mm[2] + mm[3]
			facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: name, Kind: world.KindVar, Start: l, End: end,
				Exported: true, Signature: clip(strings.TrimSpace(raw), 100), Doc: m.docAbove(l)})
		} else if mm := gradleNamed.FindStringSubmatch(raw); mm != nil {
			facts.Refs = append(facts.Refs, world.Ref{Name: mm[1], Qual: "tasks", Line: l, Kind: world.RefCall})
			if open >= 0 && end > l {
				sk.elideBody(m.li, open, m.close(open), "//")
			}
		} else if mm := gradleBlock.FindStringSubmatch(code); mm != nil && top {
			name := mm[1]
			facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: name, Kind: world.KindModule, Start: l, End: end,
				Exported: true, Signature: name, Doc: m.docAbove(l)})
			if open >= 0 && end > l && name != "plugins" && name != "dependencies" && name != "buildscript" {
				sk.elideBody(m.li, open, m.close(open), "//")
			}
		}
		// Keep the block stack in step with the braces of the line.
		for i := lineStart; i < m.li.end(l); i++ {
			switch m.code[i] {
			case '{':
				name := ""
				if mm := gradleBlock.FindStringSubmatch(strings.TrimSpace(string(m.code[lineStart : i+1]))); mm != nil {
					name = mm[1]
					if len(stack) > 0 && stack[len(stack)-1] == "buildscript" {
						name = "buildscript." + name
					}
				}
				stack = append(stack, name)
			case '}':
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
			}
		}
	}
	m.dropComments(sk, docStarts(facts, func(d *world.Def) bool { return d.Doc != "" }))
	facts.Skeleton = sk.String()
	tidy(facts)
}
