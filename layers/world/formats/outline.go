package formats

import (
	"bytes"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

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
	ls := make(lineStarts, 1, bytes.Count(src, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return ls
		}
		off += i + 1
		ls = append(ls, off)
	}
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

// entryPool keeps outlines' entry slices between files: emit copies the
// entries into the facts, so a build need not grow a new slice (up to
// maxOutlineDefs entries of ~120 bytes) for every data file.
var entryPool = sync.Pool{New: func() any { return new([]keyEntry) }}

func (o *outline) add(e keyEntry) int {
	if len(o.entries) >= maxOutlineDefs {
		o.dropped++
		return -1
	}
	if o.entries == nil {
		o.entries = (*entryPool.Get().(*[]keyEntry))[:0]
	}
	o.entries = append(o.entries, e)
	return len(o.entries) - 1
}

// free gives the outline's entries back to the pool; the outline is empty
// after it. Callers free an outline when they are done with it (after
// emit and any later reading of its entries).
func (o *outline) free() {
	if cap(o.entries) == 0 {
		return
	}
	es := o.entries
	clear(es) // the strings point into files already done with; past len all is zero already
	es = es[:0]
	o.entries = nil
	entryPool.Put(&es)
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
	base := len(facts.Defs)
	facts.Defs = slices.Grow(facts.Defs, len(o.entries))
	shown := min(len(o.entries), maxSkelLines)
	size := 0 // of the skeleton, so that it is built in one allocation
	for i, e := range o.entries {
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
		end := max(e.end, e.start)
		facts.Defs = append(facts.Defs, world.Def{Name: e.name, Qualified: e.path, Parent: e.parent, Kind: kind,
			Start: e.start, End: end, Signature: sig})
		if i < shown {
			size += 2*e.depth + len(sig) + lineMarkLen(e.start, e.end) + 1
		}
	}
	more := len(o.entries) - shown + o.dropped
	if more > 0 {
		size += len("# …  more keys\n") + decimalLen(more)
	}
	var sk strings.Builder
	sk.Grow(size)
	var num [64]byte
	for i, e := range o.entries[:shown] {
		for range e.depth {
			sk.WriteString("  ")
		}
		sk.WriteString(facts.Defs[base+i].Signature)
		sk.Write(appendLineMark(num[:0], e.start, e.end))
		sk.WriteByte('\n')
	}
	if more > 0 {
		sk.WriteString("# … ")
		sk.Write(strconv.AppendInt(num[:0], int64(more), 10))
		sk.WriteString(" more keys\n")
	}
	facts.Skeleton = sk.String()
}

// appendLineMark appends lineMark(start, end) to b.
func appendLineMark(b []byte, start, end int) []byte {
	if end > start {
		b = append(b, "  # lines "...)
		b = strconv.AppendInt(b, int64(start), 10)
		b = append(b, '-')
		return strconv.AppendInt(b, int64(end), 10)
	}
	b = append(b, "  # line "...)
	return strconv.AppendInt(b, int64(start), 10)
}

// lineMarkLen is len(lineMark(start, end)).
func lineMarkLen(start, end int) int {
	if end > start {
		return len("  # lines -") + decimalLen(start) + decimalLen(end)
	}
	return len("  # line ") + decimalLen(start)
}

// decimalLen is the length of n written in decimal.
func decimalLen(n int) int {
	l := 1
	if n < 0 {
		l, n = 2, -n
	}
	for ; n >= 10; n /= 10 {
		l++
	}
	return l
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

// secretWordsAt holds secretWords by their first byte, so that a key is
// searched for all of them in one pass.
var secretWordsAt = func() (at [256][]string) {
	for _, w := range secretWords {
		at[w[0]] = append(at[w[0]], w)
	}
	return at
}()

// secretKey reports whether a key's value must never be shown.
func secretKey(key string) bool {
	var buf [64]byte
	k, ok := foldKey(buf[:0], key)
	if !ok { // not ASCII or long: the general way
		k = []byte(strings.ToLower(key))
		if bytes.ContainsAny(k, "-_") {
			k = []byte(keySeparators.Replace(string(k)))
		}
	}
	for i, c := range k {
		for _, w := range secretWordsAt[c] {
			if len(k)-i >= len(w) && string(k[i:i+len(w)]) == w {
				return true
			}
		}
	}
	return false
}

// foldKey appends key to b lower-cased with - and _ dropped, as secretKey
// compares it, when key is ASCII and fits in b's capacity (ok false
// otherwise: Unicode lower-casing is left to strings.ToLower).
func foldKey(b []byte, key string) ([]byte, bool) {
	if len(key) > cap(b) {
		return nil, false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c >= utf8.RuneSelf:
			return nil, false
		case c == '-' || c == '_':
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return b, true
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
