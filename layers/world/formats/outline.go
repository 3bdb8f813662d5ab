package formats

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/git-speed/git-speed/internal/lazyre"
	"github.com/git-speed/git-speed/layers/world"
)

// This file holds what the data and document extractors share: byte
// offsets to line numbers, the outline of nested keys that JSON, YAML,
// TOML and XML files turn into definitions and a skeleton, and the
// mapping of embedded code's facts back into the host file.

// lineStarts indexes the byte offset at which each line begins.
type lineStarts []int

func newLineStarts(src []byte) lineStarts {
	ls := make(lineStarts, 1, len(src)/32+1)
	for i, c := range src {
		if c == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

// line returns the 1-based line of byte offset off.
func (ls lineStarts) line(off int) int {
	return sort.Search(len(ls), func(i int) bool { return ls[i] > off })
}

// Limits that keep a huge file's facts and skeleton readable.
const (
	maxOutlineDepth = 4    // deepest key path kept as a definition
	maxOutlineDefs  = 2000 // definitions per file
	maxSkelLines    = 400  // skeleton lines per file
	maxShownValue   = 60   // longest scalar value shown in a skeleton
)

// keyEntry is one key of a nested document: a JSON member, a YAML mapping
// key, a TOML table or key, an XML element.
type keyEntry struct {
	name   string // the key as written
	path   string // dotted key path from the root; arrays as [i]
	parent string
	depth  int // 0 for top-level keys
	start  int
	end    int    // 0 until known
	value  string // short scalar value as shown, "" for containers
	shape  string // "{…}", "[3]" for containers, "" for scalars
	kind   string // definition kind; world.KindKey when empty
}

// outline collects key entries in document order.
type outline struct {
	entries []keyEntry
	dropped int // entries left out by maxOutlineDefs
}

func (o *outline) add(e keyEntry) int {
	if len(o.entries) >= maxOutlineDefs {
		o.dropped++
		return -1
	}
	o.entries = append(o.entries, e)
	return len(o.entries) - 1
}

// closeByIndent gives every entry without an end the line before the next
// entry at the same or a shallower depth (skipping blank and comment
// lines), and last, the last content line of the file; used by formats
// whose parser gives no end positions (YAML, TOML).
func (o *outline) closeByIndent(content func(line int) bool, last int) {
	lastContent := func(before int) int {
		l := before - 1
		for l > 0 && !content(l) {
			l--
		}
		return l
	}
	var stack []int
	for i := range o.entries {
		e := &o.entries[i]
		for len(stack) > 0 && o.entries[stack[len(stack)-1]].depth >= e.depth {
			p := &o.entries[stack[len(stack)-1]]
			if p.end == 0 {
				p.end = max(p.start, lastContent(e.start))
			}
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, i)
	}
	end := lastContent(last + 1)
	for _, i := range stack {
		if o.entries[i].end == 0 {
			o.entries[i].end = max(o.entries[i].start, end)
		}
	}
}

// emit turns the outline into definitions and an indented skeleton.
func (o *outline) emit(facts *world.Facts) {
	var sk strings.Builder
	shown := 0
	facts.Defs = slices.Grow(facts.Defs, len(o.entries))
	for _, e := range o.entries {
		kind := e.kind
		if kind == "" {
			kind = world.KindKey
		}
		sig := e.name
		switch {
		case e.shape != "":
			sig += ": " + e.shape
		case e.value != "":
			sig += ": " + e.value
		}
		facts.Defs = append(facts.Defs, world.Def{Name: e.name, Qualified: e.path, Parent: e.parent, Kind: kind,
			Start: e.start, End: max(e.end, e.start), Signature: sig})
		if shown < maxSkelLines {
			sk.WriteString(strings.Repeat("  ", e.depth))
			sk.WriteString(sig)
			sk.WriteString(lineMark(e.start, e.end))
			sk.WriteByte('\n')
			shown++
		}
	}
	if n := len(o.entries) - shown + o.dropped; n > 0 {
		fmt.Fprintf(&sk, "# … %d more keys\n", n)
	}
	facts.Skeleton = sk.String()
}

// lineMark is the skeleton's note of where an entry is: "  # line 3" or
// "  # lines 3-9".
func lineMark(start, end int) string {
	if end > start {
		return "  # lines " + strconv.Itoa(start) + "-" + strconv.Itoa(end)
	}
	return "  # line " + strconv.Itoa(start)
}

// secretWords are parts of key names whose values must never be shown
// (compared lower-case, with - and _ removed: apikey matches API_KEY).
var secretWords = []string{"secret", "passw", "pwd", "token", "apikey", "accesskey", "privatekey", "credential", "auth",
	"cookie", "sessionkey", "salt", "dsn", "connectionstring"}

var keySeparators = strings.NewReplacer("-", "", "_", "")

// secretKey reports whether a key's value must never be shown.
func secretKey(key string) bool {
	k := strings.ToLower(key)
	if strings.ContainsAny(k, "-_") {
		k = keySeparators.Replace(k)
	}
	for _, w := range secretWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// secretPrefixes start the tokens of well-known services.
var secretPrefixes = []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "xoxa-",
	"xapp-", "AKIA", "ASIA", "sk_live_", "rk_live_", "sk-", "AIza", "npm_", "pypi-", "-----BEGIN", "eyJ"}

// secretValue reports whether a value looks like a credential whatever its
// key: a URL with a password, a well-known token prefix, or a long run of
// letters and digits mixing cases and digits, as keys and tokens are.
func secretValue(v string) bool {
	v = strings.Trim(v, `"'`)
	if i := strings.Index(v, "://"); i >= 0 {
		if at := strings.IndexByte(v[i+3:], '@'); at > 0 && strings.ContainsRune(v[i+3:i+3+at], ':') {
			return true
		}
	}
	for _, p := range secretPrefixes {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	if len(v) < 24 || strings.ContainsAny(v, " .\\:") {
		return false
	}
	var upper, lower, digit bool
	for _, c := range v {
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= '0' && c <= '9':
			digit = true
		case c == '-' || c == '_' || c == '+' || c == '=' || c == '/':
		default:
			return false
		}
	}
	return upper && lower && digit
}

// shownValue is how a scalar value appears in a signature: quoted strings
// as written, long or multi-line values as "…", values of secret-looking
// keys as ***.
func shownValue(key, v string) string {
	switch {
	case v == "":
		return ""
	case secretKey(key) || secretValue(v):
		return "***"
	case len(v) > maxShownValue || strings.ContainsAny(v, "\r\n"):
		return "…"
	}
	return v
}

// joinPath appends key to a dotted path.
func joinPath(parent, key string) string {
	if parent == "" {
		return key
	}
	if strings.HasPrefix(key, "[") {
		return parent + key
	}
	return parent + "." + key
}

// embedCode merges the facts of code embedded in a host file into facts:
// lineOf maps a line of the embedded code (1-based) to the host file's
// line; defs get parent as their Parent when they have none. It returns the
// embedded facts' skeleton with its line notes moved to host lines.
func embedCode(facts *world.Facts, code *world.Facts, lineOf func(int) int, parent string) string {
	if code == nil {
		return ""
	}
	base := len(facts.Defs)
	for _, d := range code.Defs {
		d.Start, d.End = lineOf(d.Start), lineOf(d.End)
		if d.End < d.Start {
			d.End = d.Start
		}
		if d.Parent == "" && parent != "" {
			d.Parent = parent
		}
		facts.Defs = append(facts.Defs, d)
	}
	for _, im := range code.Imports {
		im.Line = lineOf(im.Line)
		facts.Imports = append(facts.Imports, im)
	}
	for _, r := range code.Refs {
		r.Line = lineOf(r.Line)
		if r.In > 0 {
			r.In += base
		}
		facts.Refs = append(facts.Refs, r)
	}
	if code.Partial {
		facts.Partial = true
		if facts.Warning == "" && code.Warning != "" {
			facts.Warning = "embedded " + code.Lang + ": " + code.Warning
		}
	}
	return shiftLineNotes(code.Skeleton, lineOf)
}

// lineNote finds the line notes tree-sitter skeletons end elided lines
// with: "# line 4", "/* lines 25-27 */".
var lineNote = lazyre.New(`\blines? (\d+)(?:-(\d+))?`)

func shiftLineNotes(sk string, lineOf func(int) int) string {
	return lineNote.ReplaceAllStringFunc(sk, func(m string) string {
		g := lineNote.FindStringSubmatch(m)
		a, _ := strconv.Atoi(g[1])
		if g[2] == "" {
			return "line " + strconv.Itoa(lineOf(a))
		}
		b, _ := strconv.Atoi(g[2])
		return "lines " + strconv.Itoa(lineOf(a)) + "-" + strconv.Itoa(lineOf(b))
	})
}

// sortDefsByStart keeps definitions in source order for extractors that
// collect them in two passes (finish sorts again; skeletons need it first).
func sortDefsByStart(defs []world.Def) {
	sort.SliceStable(defs, func(i, j int) bool { return defs[i].Start < defs[j].Start })
}

// sortDefsKeepRefs puts definitions in source order and renumbers the
// references' enclosing-definition indexes to match.
func sortDefsKeepRefs(facts *world.Facts) {
	order := make([]int, len(facts.Defs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return facts.Defs[order[a]].Start < facts.Defs[order[b]].Start })
	newIdx := make([]int, len(order))
	defs := make([]world.Def, len(order))
	for to, from := range order {
		defs[to] = facts.Defs[from]
		newIdx[from] = to
	}
	facts.Defs = defs
	for i := range facts.Refs {
		if in := facts.Refs[i].In; in > 0 && in <= len(newIdx) {
			facts.Refs[i].In = newIdx[in-1] + 1
		}
	}
}
