package prompt

import (
	"fmt"
	"path"
	"regexp"

	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/git-speed/git-speed/internal/lazyre"
)

// Kinds of failure Classify tells apart, in the order it prefers them
// when a log shows several.
const (
	KindContextCut  = "context_cut"  // what failed names a file or symbol Layer 2 cut or dropped
	KindMissingFile = "missing_file" // a file the code or the agent needed is not there
	KindTimeout     = "timeout"      // the run or a test ran out of time
	KindBuildError  = "build_error"  // the code does not compile, import or load
	KindSpecGap     = "spec_gap"     // a requirement or acceptance criterion is reported unmet
	KindTestFailure = "test_failure" // the code builds but tests fail or it panics
	KindUnknown     = "unknown"
)

var kindOrder = []string{KindContextCut, KindMissingFile, KindTimeout, KindBuildError, KindSpecGap, KindTestFailure}

// Classification is what Classify made of a failure log.
type Classification struct {
	Kind         string     `json:"kind"`
	Confidence   float64    `json:"confidence"` // 0..1
	Summary      string     `json:"summary"`
	Also         []string   `json:"also"`         // other kinds the log shows, in preference order
	Files        []string   `json:"files"`        // files the failure names, as the log spells them, sorted
	Symbols      []string   `json:"symbols"`      // symbols it names, sorted
	Requirements []string   `json:"requirements"` // requirement ids it names, sorted
	Cuts         []CutMatch `json:"cuts"`         // cut or dropped files the failure points at
	Evidence     []Evidence `json:"evidence"`     // log lines behind the verdict, in log order
}

// Evidence is one line of the log and what it showed.
type Evidence struct {
	Line   int    `json:"line"` // 1-based
	Signal string `json:"signal"`
	Text   string `json:"text"`
}

// CutMatch ties a name in the log to a file Layer 2 cut (budget.json) or
// dropped (manifest.json).
type CutMatch struct {
	Path        string `json:"path"`
	From        string `json:"from"`
	To          string `json:"to"`
	TokensSaved int    `json:"tokens_saved"`
	Reason      string `json:"reason"`
	Named       string `json:"named"` // what the log said
	By          string `json:"by"`    // path, basename, module or symbol
	Line        int    `json:"line"`
}

// Classify reads an agent's failure output (compiler errors, test output,
// tracebacks, the agent's own requests for files) and says what kind of
// failure it is, with the evidence lines. It is context_cut when what
// failed names a file or symbol that budget.json shows was cut or the
// manifest shows was dropped. The same input gives the same result.
func Classify(log string, budget Budget, manifest Manifest) Classification {
	return classifyWith(log, budget, manifest, nil)
}

// Classify is Classify with the task's material too: the requirement ids
// and acceptance criteria the task must meet (for spec_gap) and the
// skeletons of cut files (a symbol declared in one is a context_cut).
func (c *Context) Classify(log string) Classification {
	return classify(log, c)
}

func classify(log string, c *Context) Classification {
	if c == nil {
		return classifyWith(log, Budget{}, Manifest{}, nil)
	}
	return classifyWith(log, c.Budget, c.Manifest, &c.Material)
}

// signal is what one log line showed.
type signal struct {
	line    int
	text    string
	kind    string // one of the Kind* constants, or "request" for an agent asking for a file
	files   []string
	symbols []string
	modules []module
	reqs    []string
}

// module is an import the log says could not be resolved; from is the file
// that imported it, for relative imports.
type module struct {
	name string
	from string
	lang string // go, python, js
}

const kindRequest = "request"

var (
	reGoCompile   = lazyre.New(`^(?:\./)?([^\s:()]+\.go):(\d+)(?::(\d+))?: (.+)$`)
	reGoTestLog   = lazyre.New(`^\s+([^\s:()]+\.go):(\d+): (.+)$`)
	reGoFrame     = lazyre.New(`^\s+(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$`)
	reGoFail      = lazyre.New(`^(?:--- FAIL: (\S+)|FAIL\s+(\S+)\s+(\[build failed\]|\[setup failed\]|[\d.]+s)|FAIL$)`)
	reGoPkgHead   = lazyre.New(`^# \S+`)
	reUndefined   = lazyre.New(`undefined: ([\w.]+)`)
	reNoField     = lazyre.New(`(\w[\w.]*) undefined \(type (\S+) has no field or method (\w+)`)
	reGoImport    = lazyre.New(`(?:could not import|cannot find package|no required module provides package|package) "?([\w.\-/]+\.?[\w\-/]*)"?(?: \(| is not in std|;|$)`)
	rePyFile      = lazyre.New(`^\s*File "([^"]+)", line (\d+)`)
	rePyExc       = lazyre.New(`^(?:E\s+)?((?:\w+\.)*\w*(?:Error|Exception)|KeyboardInterrupt|SystemExit)(?::\s*(.*))?$`)
	rePyName      = lazyre.New(`name '(\w+)' is not defined`)
	rePyImport    = lazyre.New(`cannot import name '(\w+)' from '([\w.]+)'`)
	rePyNoMod     = lazyre.New(`No module named '([\w.]+)'`)
	rePyAttr      = lazyre.New(`(?:module|object|type object) '([\w.]+)' has no attribute '(\w+)'`)
	rePytestFail  = lazyre.New(`^(FAILED|ERROR)\s+([^\s:]+\.py)(?:::(\S+))?`)
	rePytestLoc   = lazyre.New(`^([^\s:]+\.py):(\d+): (\w+)`)
	rePytestSum   = lazyre.New(`^=+ .*\b(\d+ (?:failed|errors?))\b.* =+$`)
	reTsc         = lazyre.New(`^([^\s()]+\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs))(?:\((\d+),(\d+)\):|:(\d+):(\d+) -) error (TS\d+): (.+)$`)
	reTsName      = lazyre.New(`Cannot find name '(\w+)'`)
	reTsModule    = lazyre.New(`Cannot find module '([^']+)'(?: from '([^']+)')?`)
	reTsMember    = lazyre.New(`Module '"([^"]+)"' has no exported member '(\w+)'`)
	reTsProp      = lazyre.New(`Property '(\w+)' does not exist on type '([^']+)'`)
	reJsFail      = lazyre.New(`^\s*(?:FAIL|✗|×|❯)\s+([^\s>]+\.(?:ts|tsx|js|jsx|mjs|cjs|mts))\b`)
	reJsFrame     = lazyre.New(`(?:^\s*at .*\(|^\s*at |❯ )([^\s()]+\.(?:ts|tsx|js|jsx|mjs|cjs|mts)):(\d+):(\d+)\)?$`)
	reJsRef       = lazyre.New(`ReferenceError: (\w+) is not defined`)
	reJsNotFunc   = lazyre.New(`TypeError: ([\w.]+) is not a (?:function|constructor)`)
	reJsSummary   = lazyre.New(`^\s*(?:Tests?|Test Files|Test Suites):\s+.*\b\d+ failed`)
	reViteResolve = lazyre.New(`Failed to resolve import "([^"]+)" from "([^"]+)"|Failed to load url (\S+) \(resolved id: [^)]*\) in (\S+?)\.? Does the file exist`)
	reANSI        = lazyre.New(`\x1b\[[0-9;?]*[A-Za-z]`)
	reAssert      = lazyre.New(`\b(?:AssertionError|assert(?:ion)? failed)\b|^\s*(?:Expected|Received):`)
	reNoSuchFile  = lazyre.New(`(?i)no such file or directory|ENOENT|cannot find the (?:file|path)|file not found|\b(?:file|directory|path)\b[^.]*\bdoes not exist`)
	reMissingPath = lazyre.New(`(?:open|stat|lstat|scandir|read|readlink)\s+'?([^\s':,]+)'?:? ?[:,]?\s*(?:no such file|ENOENT)|ENOENT: no such file or directory, \w+ '([^']+)'|No such file or directory: '([^']+)'|^(?:\w+: )?([^\s:]+): No such file or directory`)
	reTimeout     = lazyre.New(`(?i)\b(?:timed out|timeout of \d+|test timed out|deadline exceeded|signal: killed|exceeded (?:the )?time ?limit|took too long|timeouterror)\b`)
	reRequest     = lazyre.New(`(?i)\b(?:i (?:would |'d |will )?need to (?:see|look at|read|check)|i need the|please (?:provide|share|show|paste|send)|(?:can|could) you (?:provide|share|show|paste|send)|i (?:don't|do not) have (?:access to|the (?:contents?|source|code|definition)|visibility)|(?:is|are|was|were) not (?:included|provided|shown|present|available) in (?:the|my|this) (?:context|prompt)|(?:only|just) (?:a |the )?(?:skeleton|signatures?|outline)|(?:body|bodies|implementation) (?:is|are|was|were) (?:elided|truncated|omitted|cut)|without (?:seeing|the (?:contents|source|code|implementation))|contents of)\b`)
	reFileToken   = lazyre.New("(?:^|[\\s`'\"(\\[<,:])((?:[\\w.@\\-]+/)*[\\w@\\-][\\w.@\\-]*\\.(?:go|py|pyi|ts|tsx|mts|cts|js|jsx|mjs|cjs|rs|java|kt|c|h|cc|cpp|hpp|cs|rb|php|sh|bash|css|scss|json|toml|ya?ml|md|sql|proto|swift|scala|lua|ex|exs|vue|svelte))(?:$|[\\s`'\")\\]>,:.;?!])")
	reBacktick    = lazyre.New("`([A-Za-z_][\\w.]*(?:\\(\\))?)`")
	reReqID       = lazyre.New(`\b((?:REQ|FR|NFR|US|AC|SPEC|R)-?\d+(?:\.\d+)*)\b`)
	reUnmet       = lazyre.New(`(?i)\b(?:not met|unmet|not satisfied|unsatisfied|not implemented|unimplemented|missing|fail(?:s|ed|ing|ure)?|violat\w*|does not|doesn't|not (?:yet )?(?:covered|handled|supported)|expected)\b`)
	reGenericErr  = lazyre.New(`(?i)^(?:error|fatal|panic)\b|\berror:`)
)

// classifyWith is the classifier; mat adds the task's requirements,
// acceptance criteria and skeletons when known.
func classifyWith(log string, b Budget, m Manifest, mat *Material) Classification {
	log = strings.ReplaceAll(log, "\r\n", "\n")
	log = reANSI.ReplaceAllString(log, "")
	lines := strings.Split(log, "\n")
	var reqIDs []string
	var acceptance []string
	if mat != nil {
		reqIDs = append(reqIDs, mat.Task.Requirements...)
		for _, s := range mat.Spec {
			reqIDs = append(reqIDs, s.ID)
		}
		for _, a := range mat.Task.Acceptance {
			if n := normText(a); len(n) >= 12 {
				acceptance = append(acceptance, n)
			}
		}
	}
	reqs := newReqMatcher(reqIDs)
	var sigs []signal
	var generic []signal
	goTest := false // inside a go test run: indented file:line lines are test logs
	lastFile := ""  // the file the last tsc/py/jest error named, for relative imports
	for i, raw := range lines {
		line := strings.TrimRight(raw, " \t")
		if strings.TrimSpace(line) == "" {
			continue
		}
		n := i + 1
		add := func(s signal) {
			s.line, s.text = n, strings.TrimSpace(line)
			sigs = append(sigs, s)
		}
		matched := true
		switch {
		case mayBeTimeout(line) && reTimeout.MatchString(line):
			add(signal{kind: KindTimeout, files: fileTokens(line)})
		case reGoPkgHead.MatchString(line):
			matched = false
		case reGoFail.MatchString(line):
			mm := reGoFail.FindStringSubmatch(line)
			goTest = true
			if strings.HasPrefix(mm[3], "[build") || strings.HasPrefix(mm[3], "[setup") {
				add(signal{kind: KindBuildError})
			} else {
				add(signal{kind: KindTestFailure})
			}
		case reGoTestLog.MatchString(line) && (goTest || strings.HasPrefix(line, "    ")):
			mm := reGoTestLog.FindStringSubmatch(line)
			add(signal{kind: KindTestFailure, files: []string{mm[1]}})
		case reGoCompile.MatchString(line):
			mm := reGoCompile.FindStringSubmatch(line)
			s := signal{kind: KindBuildError, files: []string{mm[1]}}
			goSymbols(mm[4], &s)
			if mayBeMissing(strings.ToLower(mm[4])) && reNoSuchFile.MatchString(mm[4]) {
				s.kind = KindMissingFile
			}
			add(s)
		case reGoFrame.MatchString(line):
			mm := reGoFrame.FindStringSubmatch(line)
			if !strings.Contains(mm[1], "/go/src/") && !strings.Contains(mm[1], "/pkg/mod/") && !strings.HasPrefix(mm[1], "runtime/") {
				add(signal{kind: KindTestFailure, files: []string{mm[1]}})
			} else {
				matched = false
			}
		case strings.HasPrefix(line, "panic: "):
			goTest = true
			s := signal{kind: KindTestFailure}
			goSymbols(line, &s)
			add(s)
		case rePyFile.MatchString(line):
			mm := rePyFile.FindStringSubmatch(line)
			if !strings.Contains(mm[1], "site-packages") && !strings.Contains(mm[1], "/lib/python") && !strings.HasPrefix(mm[1], "<") {
				lastFile = mm[1]
				add(signal{kind: KindTestFailure, files: []string{mm[1]}})
			} else {
				matched = false
			}
		case rePytestFail.MatchString(line):
			mm := rePytestFail.FindStringSubmatch(line)
			s := signal{kind: KindTestFailure, files: []string{mm[2]}}
			if mm[1] == "ERROR" {
				s.kind = KindBuildError
			}
			pySymbols(line, lastFile, &s)
			if len(s.symbols) > 0 || len(s.modules) > 0 {
				s.kind = KindBuildError
			}
			add(s)
		case rePytestLoc.MatchString(line):
			mm := rePytestLoc.FindStringSubmatch(line)
			lastFile = mm[1]
			add(signal{kind: KindTestFailure, files: []string{mm[1]}})
		case rePyExc.MatchString(strings.TrimSpace(line)):
			mm := rePyExc.FindStringSubmatch(strings.TrimSpace(line))
			s := signal{kind: KindTestFailure}
			switch base := mm[1][strings.LastIndex(mm[1], ".")+1:]; base {
			case "NameError", "ImportError", "ModuleNotFoundError", "SyntaxError", "IndentationError", "TabError", "ReferenceError":
				s.kind = KindBuildError
			case "FileNotFoundError":
				s.kind = KindMissingFile
			case "TimeoutError":
				s.kind = KindTimeout
			}
			pySymbols(line, lastFile, &s)
			jsSymbols(line, lastFile, &s)
			if s.kind == KindMissingFile {
				s.files = append(s.files, missingPaths(line)...)
			}
			add(s)
		case rePytestSum.MatchString(line):
			add(signal{kind: KindTestFailure})
		case reTsc.MatchString(line):
			mm := reTsc.FindStringSubmatch(line)
			lastFile = mm[1]
			s := signal{kind: KindBuildError, files: []string{mm[1]}}
			jsSymbols(mm[7], mm[1], &s)
			add(s)
		case reJsFail.MatchString(line):
			mm := reJsFail.FindStringSubmatch(line)
			lastFile = mm[1]
			add(signal{kind: KindTestFailure, files: []string{mm[1]}})
		case reJsFrame.MatchString(line):
			mm := reJsFrame.FindStringSubmatch(line)
			if !strings.Contains(mm[1], "node_modules") && !strings.HasPrefix(mm[1], "node:") {
				add(signal{kind: KindTestFailure, files: []string{mm[1]}})
			} else {
				matched = false
			}
		case reJsRef.MatchString(line) || reJsNotFunc.MatchString(line) || reTsModule.MatchString(line) || reViteResolve.MatchString(line):
			s := signal{kind: KindBuildError}
			jsSymbols(line, lastFile, &s)
			if reJsNotFunc.MatchString(line) {
				s.kind = KindTestFailure
			}
			add(s)
		case reJsSummary.MatchString(line):
			add(signal{kind: KindTestFailure})
		default:
			matched = false
		}
		// Lines a language rule did not claim: missing files, the agent's
		// own requests, and generic errors.
		lower := strings.ToLower(line)
		if mayBeMissing(lower) && reNoSuchFile.MatchString(line) && !reViteResolve.MatchString(line) {
			if len(sigs) == 0 || sigs[len(sigs)-1].line != n || sigs[len(sigs)-1].kind != KindMissingFile {
				add(signal{kind: KindMissingFile, files: missingPaths(line)})
			}
			matched = true
		}
		if !matched {
			switch {
			case reRequest.MatchString(line):
				s := signal{kind: kindRequest, files: fileTokens(line)}
				for _, mm := range reBacktick.FindAllStringSubmatch(line, -1) {
					if !looksLikeFile(mm[1]) {
						s.symbols = append(s.symbols, strings.TrimSuffix(mm[1], "()"))
					}
				}
				add(s)
			case reAssert.MatchString(line):
				add(signal{kind: KindTestFailure})
			case reGenericErr.MatchString(strings.TrimSpace(line)):
				generic = append(generic, signal{line: n, text: strings.TrimSpace(line), kind: KindUnknown, files: fileTokens(line)})
			}
		}
		// Requirement ids and acceptance criteria reported unmet.
		if ids := reqs.find(line, lower); len(ids) > 0 && reUnmet.MatchString(line) {
			add(signal{kind: KindSpecGap, reqs: ids})
		} else if len(acceptance) > 0 && acceptanceMention(line, lower, acceptance) {
			add(signal{kind: KindSpecGap})
		}
	}

	cl := Classification{Also: []string{}, Files: []string{}, Symbols: []string{}, Requirements: []string{}, Cuts: []CutMatch{}, Evidence: []Evidence{}}
	present := map[string]bool{}
	for _, s := range sigs {
		k := s.kind
		if k == kindRequest {
			k = KindMissingFile
		}
		present[k] = true
		cl.Files = append(cl.Files, s.files...)
		cl.Symbols = append(cl.Symbols, s.symbols...)
		cl.Requirements = append(cl.Requirements, s.reqs...)
		for _, md := range s.modules {
			cl.Symbols = append(cl.Symbols, md.name)
		}
	}
	cl.Files = uniqueSorted(cl.Files)
	cl.Symbols = uniqueSorted(cl.Symbols)
	cl.Requirements = uniqueSorted(cl.Requirements)

	cl.Cuts = matchCuts(sigs, b, m, mat)
	if len(cl.Cuts) > 0 {
		present[KindContextCut] = true
	}
	for _, k := range kindOrder {
		if present[k] {
			if cl.Kind == "" {
				cl.Kind = k
			} else {
				cl.Also = append(cl.Also, k)
			}
		}
	}
	if cl.Kind == "" {
		cl.Kind = KindUnknown
		sigs = generic
	}
	cl.Confidence, cl.Summary = verdict(cl, sigs)
	cl.Evidence = evidence(cl, sigs)
	return cl
}

func goSymbols(msg string, s *signal) {
	for _, mm := range reUndefined.FindAllStringSubmatch(msg, -1) {
		s.symbols = append(s.symbols, mm[1])
	}
	if mm := reNoField.FindStringSubmatch(msg); mm != nil {
		s.symbols = append(s.symbols, strings.TrimLeft(mm[2], "*")+"."+mm[3])
	}
	if mm := reGoImport.FindStringSubmatch(msg); mm != nil && strings.Contains(mm[1], "/") {
		s.modules = append(s.modules, module{name: mm[1], lang: "go"})
	}
}

func pySymbols(line, from string, s *signal) {
	if mm := rePyName.FindStringSubmatch(line); mm != nil {
		s.symbols = append(s.symbols, mm[1])
	}
	if mm := rePyImport.FindStringSubmatch(line); mm != nil {
		s.symbols = append(s.symbols, mm[2]+"."+mm[1])
		s.modules = append(s.modules, module{name: mm[2], from: from, lang: "python"})
	}
	if mm := rePyNoMod.FindStringSubmatch(line); mm != nil {
		s.modules = append(s.modules, module{name: mm[1], from: from, lang: "python"})
	}
	if mm := rePyAttr.FindStringSubmatch(line); mm != nil {
		s.symbols = append(s.symbols, mm[1]+"."+mm[2])
	}
}

func jsSymbols(line, from string, s *signal) {
	if mm := reTsName.FindStringSubmatch(line); mm != nil {
		s.symbols = append(s.symbols, mm[1])
	}
	if mm := reJsRef.FindStringSubmatch(line); mm != nil {
		s.symbols = append(s.symbols, mm[1])
	}
	if mm := reJsNotFunc.FindStringSubmatch(line); mm != nil {
		s.symbols = append(s.symbols, mm[1])
	}
	if mm := reTsMember.FindStringSubmatch(line); mm != nil {
		s.symbols = append(s.symbols, mm[2])
		s.modules = append(s.modules, module{name: mm[1], from: from, lang: "js"})
	}
	if mm := reTsProp.FindStringSubmatch(line); mm != nil {
		s.symbols = append(s.symbols, mm[2]+"."+mm[1])
	}
	if mm := reTsModule.FindStringSubmatch(line); mm != nil {
		f := from
		// jest names the importer relative to its rootDir; the FAIL line
		// before it has the path from the repository.
		if mm[2] != "" && (from == "" || path.Base(cleanLogPath(from)) != path.Base(cleanLogPath(mm[2]))) {
			f = mm[2]
		}
		s.modules = append(s.modules, module{name: mm[1], from: f, lang: "js"})
	}
	if mm := reViteResolve.FindStringSubmatch(line); mm != nil {
		if mm[1] != "" {
			s.modules = append(s.modules, module{name: mm[1], from: mm[2], lang: "js"})
		} else {
			s.modules = append(s.modules, module{name: mm[3], from: mm[4], lang: "js"})
		}
	}
}

func fileTokens(line string) []string {
	var out []string
	for _, mm := range reFileToken.FindAllStringSubmatch(line, -1) {
		out = append(out, mm[1])
	}
	return out
}

func looksLikeFile(s string) bool { return reFileToken.MatchString(" " + s + " ") }

func missingPaths(line string) []string {
	var out []string
	for _, mm := range reMissingPath.FindAllStringSubmatch(line, -1) {
		for _, g := range mm[1:] {
			if g != "" {
				out = append(out, g)
			}
		}
	}
	if len(out) == 0 {
		out = fileTokens(line)
	}
	return out
}

// reqMatcher finds requirement ids in a line: the known ids when there
// are some, ids of the usual shapes (REQ-1, FR-2, AC-3) otherwise.
type reqMatcher struct {
	ids []string
	res []*lazyre.Regexp
}

func newReqMatcher(known []string) *reqMatcher {
	m := &reqMatcher{}
	for _, id := range uniqueSorted(known) {
		if strings.TrimSpace(id) == "" {
			continue
		}
		m.ids = append(m.ids, id)
		m.res = append(m.res, lazyre.New(`(?i)(?:^|[^\w-])`+regexp.QuoteMeta(id)+`(?:$|[^\w-]|-[^\d])`))
	}
	return m
}

func (m *reqMatcher) find(line, lower string) []string {
	var out []string
	if len(m.ids) > 0 {
		for i, re := range m.res {
			if strings.Contains(lower, strings.ToLower(m.ids[i])) && re.MatchString(line) {
				out = append(out, m.ids[i])
			}
		}
		return out
	}
	if !strings.ContainsRune(line, '-') && !strings.ContainsAny(line, "0123456789") {
		return nil
	}
	for _, mm := range reReqID.FindAllStringSubmatch(line, -1) {
		out = append(out, mm[1])
	}
	return out
}

// mayBeTimeout is a cheap filter before reTimeout.
func mayBeTimeout(line string) bool {
	l := strings.ToLower(line)
	return strings.Contains(l, "time") || strings.Contains(l, "deadline") || strings.Contains(l, "killed") || strings.Contains(l, "too long")
}

// mayBeMissing is a cheap filter before reNoSuchFile.
func mayBeMissing(lower string) bool {
	for _, s := range []string{"no such file", "enoent", "cannot find the", "not found", "does not exist"} {
		if strings.Contains(lower, s) {
			return true
		}
	}
	return false
}

// acceptanceMention reports whether line says an acceptance criterion is
// unmet: it quotes one and says it failed, or says "acceptance criteria" and failed.
// criteria are normalised with normText.
func acceptanceMention(line, lower string, criteria []string) bool {
	named := strings.Contains(lower, "acceptance")
	if !named {
		l := normText(line)
		for _, n := range criteria {
			if strings.Contains(l, n) {
				named = true
				break
			}
		}
	}
	return named && reUnmet.MatchString(line)
}

// candidate is a file Layer 2 cut or dropped.
type candidate struct {
	cut      Cut
	skeleton string // its skeleton or truncated content, when material has it
}

// matchCuts finds the cut or dropped files the failure's names point at.
func matchCuts(sigs []signal, b Budget, m Manifest, mat *Material) []CutMatch {
	var cands []candidate
	seen := map[string]bool{}
	content := map[string]string{}
	if mat != nil {
		for _, f := range mat.Files {
			if f.Tier != TierFull {
				content[f.Path] += f.Content
			}
		}
	}
	for _, c := range b.Cuts {
		if !seen[c.Path] {
			seen[c.Path] = true
			cands = append(cands, candidate{cut: c, skeleton: content[c.Path]})
		}
	}
	for _, f := range m.Files {
		if f.Tier == TierDropped && !seen[f.Path] {
			seen[f.Path] = true
			cands = append(cands, candidate{cut: Cut{Path: f.Path, From: "", To: TierDropped, TokensSaved: f.Tokens, Reason: f.Reason}})
		}
	}
	if len(cands) == 0 {
		return []CutMatch{}
	}
	// How many known files share each basename, so a bare "store.go" only
	// matches when it is unambiguous.
	bases := map[string]int{}
	known := map[string]bool{}
	for _, f := range m.Files {
		known[f.Path] = true
	}
	for _, c := range cands {
		known[c.cut.Path] = true
	}
	for p := range known {
		bases[path.Base(p)]++
	}

	type symKey struct {
		cand int
		sym  string
	}
	symMemo := map[symKey]bool{}
	var out []CutMatch
	got := map[string]bool{}
	addMatch := func(c candidate, named, by string, line int) {
		key := c.cut.Path + "\x00" + named
		if got[key] {
			return
		}
		got[key] = true
		out = append(out, CutMatch{Path: c.cut.Path, From: c.cut.From, To: c.cut.To, TokensSaved: c.cut.TokensSaved, Reason: c.cut.Reason, Named: named, By: by, Line: line})
	}
	for _, s := range sigs {
		if s.kind == KindSpecGap || s.kind == KindTimeout {
			continue
		}
		for _, f := range s.files {
			lp := cleanLogPath(f)
			for _, c := range cands {
				switch {
				case pathMatches(lp, c.cut.Path):
					addMatch(c, f, "path", s.line)
				case !strings.Contains(lp, "/") && path.Base(c.cut.Path) == lp && bases[lp] == 1:
					addMatch(c, f, "basename", s.line)
				}
			}
		}
		for _, md := range s.modules {
			for _, c := range cands {
				if moduleMatches(md, c.cut.Path) {
					addMatch(c, md.name, "module", s.line)
				}
			}
		}
		for _, sym := range s.symbols {
			for i, c := range cands {
				key := symKey{i, sym}
				ok, done := symMemo[key]
				if !done {
					ok = symbolMatches(sym, c)
					symMemo[key] = ok
				}
				if ok {
					addMatch(c, sym, "symbol", s.line)
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Named < out[j].Named
	})
	return out
}

// cleanLogPath turns a path as a log spells it into a slash path without
// "./" or a diff's "a/" prefix.
func cleanLogPath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	p = strings.Trim(p, "'\"`")
	for _, pre := range []string{"./", "a/", "b/"} {
		p = strings.TrimPrefix(p, pre)
	}
	return p
}

// pathMatches reports whether a path from the log is the repository path
// p: the same, an absolute path ending in it, or a path relative to a
// subdirectory that p ends in.
func pathMatches(logPath, p string) bool {
	if logPath == p {
		return true
	}
	if strings.HasSuffix(logPath, "/"+p) {
		return true
	}
	return strings.Contains(logPath, "/") && strings.HasSuffix(p, "/"+logPath)
}

// moduleMatches reports whether an unresolved import names the file p.
func moduleMatches(md module, p string) bool {
	noExt := strings.TrimSuffix(p, path.Ext(p))
	switch md.lang {
	case "go":
		dir := path.Dir(p)
		return dir != "." && (md.name == dir || strings.HasSuffix(md.name, "/"+dir))
	case "python":
		rel := strings.ReplaceAll(strings.TrimLeft(md.name, "."), ".", "/")
		if rel == "" {
			return false
		}
		return noExt == rel || strings.HasSuffix(noExt, "/"+rel) || noExt == rel+"/__init__" || strings.HasSuffix(noExt, "/"+rel+"/__init__")
	case "js":
		name := md.name
		if strings.HasPrefix(name, ".") {
			if md.from == "" {
				name = strings.TrimLeft(name, "./")
			} else {
				name = path.Join(path.Dir(cleanLogPath(md.from)), name)
			}
		}
		name = strings.TrimSuffix(name, path.Ext(name))
		return pathMatches(name, noExt) || pathMatches(name+"/index", noExt) || strings.HasSuffix(noExt, "/"+name)
	}
	return false
}

// symbolMatches reports whether sym plausibly lives in the cut file: its
// skeleton declares it, or its package/file name is the symbol's qualifier
// ("store.Open" and internal/store/x.go) or the symbol itself ("Store"
// and store.go).
func symbolMatches(sym string, c candidate) bool {
	name := sym
	qual := ""
	if i := strings.LastIndex(sym, "."); i >= 0 {
		qual, name = sym[:i], sym[i+1:]
	}
	if len(name) < 3 {
		return false
	}
	if c.skeleton != "" && declares(c.skeleton, name) {
		return true
	}
	p := c.cut.Path
	base := squash(strings.TrimSuffix(path.Base(p), path.Ext(p)))
	dir := squash(path.Base(path.Dir(p)))
	if qual != "" {
		q := squash(qual[strings.LastIndex(qual, ".")+1:])
		if q != "" && (q == dir || q == base) {
			return true
		}
	}
	return squash(name) == base
}

// declares reports whether a skeleton has a line that declares name.
func declares(skel, name string) bool {
	declMu.Lock()
	re, ok := declRes[name]
	if !ok {
		re = lazyre.New(`(?m)^\s*(?:export\s+)?(?:pub\s+)?(?:async\s+)?(?:func|def|class|type|interface|const|var|let|function|struct|enum|trait|fn)\s+(?:\([^)]*\)\s*)?` + regexp.QuoteMeta(name) + `\b`)
		if len(declRes) > 4096 {
			clear(declRes)
		}
		declRes[name] = re
	}
	declMu.Unlock()
	return re.MatchString(skel)
}

var (
	declMu  sync.Mutex
	declRes = map[string]*lazyre.Regexp{}
)

// squash lowercases s and drops what is not a letter or digit, so that
// "user_store", "userStore" and "user-store" compare equal.
func squash(s string) string {
	var sb strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			sb.WriteRune(unicode.ToLower(r))
		}
	}
	return sb.String()
}

// verdict scores the chosen kind and says it in one sentence.
func verdict(cl Classification, sigs []signal) (float64, string) {
	count := func(kinds ...string) (int, signal) {
		n := 0
		var first signal
		for _, s := range sigs {
			for _, k := range kinds {
				if s.kind == k {
					if n == 0 {
						first = s
					}
					n++
				}
			}
		}
		return n, first
	}
	switch cl.Kind {
	case KindContextCut:
		best := 0.0
		for _, c := range cl.Cuts {
			best = max(best, map[string]float64{"path": 0.9, "module": 0.8, "basename": 0.75, "symbol": 0.6}[c.By])
		}
		c := cl.Cuts[0]
		what := "dropped it"
		if c.From != "" {
			what = fmt.Sprintf("cut it from %s to %s", c.From, c.To)
		}
		return best, fmt.Sprintf("the failure names %s (as %q, line %d) and Layer 2 %s to fit the budget (%d tokens saved: %s); give the agent that file back or raise the budget", c.Path, c.Named, c.Line, what, c.TokensSaved, c.Reason)
	case KindMissingFile:
		n, first := count(KindMissingFile)
		if n == 0 {
			_, first = count(kindRequest)
			return 0.6, fmt.Sprintf("the agent asked for material it did not have (line %d: %s)", first.line, first.text)
		}
		return 0.85, fmt.Sprintf("a file is missing (line %d: %s)", first.line, first.text)
	case KindTimeout:
		_, first := count(KindTimeout)
		return 0.85, fmt.Sprintf("the run timed out (line %d: %s)", first.line, first.text)
	case KindBuildError:
		n, first := count(KindBuildError)
		return 0.9, fmt.Sprintf("the code does not build or load: %s (first at line %d: %s)", plural(n, "error line"), first.line, first.text)
	case KindSpecGap:
		_, first := count(KindSpecGap)
		return 0.7, fmt.Sprintf("a requirement or acceptance criterion is reported unmet (line %d: %s)", first.line, first.text)
	case KindTestFailure:
		n, first := count(KindTestFailure)
		return 0.85, fmt.Sprintf("the code builds but tests fail: %s (first at line %d: %s)", plural(n, "failure line"), first.line, first.text)
	}
	if len(sigs) > 0 {
		return 0.2, fmt.Sprintf("no known failure pattern; %s look like errors (first at line %d: %s)", plural(len(sigs), "line"), sigs[0].line, sigs[0].text)
	}
	return 0, "no known failure pattern in the log"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// maxEvidence bounds the evidence lines of a classification.
const maxEvidence = 20

// evidence picks the log lines behind the verdict: the lines of matched
// cuts and of the chosen kind first, then the others, in log order.
func evidence(cl Classification, sigs []signal) []Evidence {
	chosen := map[int]bool{}
	for _, c := range cl.Cuts {
		chosen[c.Line] = true
	}
	pick := map[int]signal{}
	take := func(pred func(signal) bool) {
		for _, s := range sigs {
			if len(pick) >= maxEvidence {
				return
			}
			if _, ok := pick[s.line]; !ok && pred(s) {
				pick[s.line] = s
			}
		}
	}
	take(func(s signal) bool { return chosen[s.line] })
	take(func(s signal) bool {
		return s.kind == cl.Kind || (cl.Kind == KindMissingFile && s.kind == kindRequest)
	})
	take(func(signal) bool { return true })
	out := []Evidence{}
	for _, s := range pick {
		sig := s.kind
		if chosen[s.line] {
			sig = KindContextCut
		}
		text := s.text
		if r := []rune(text); len(r) > 300 {
			text = string(r[:300]) + "…"
		}
		out = append(out, Evidence{Line: s.line, Signal: sig, Text: text})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}
