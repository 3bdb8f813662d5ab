// Package redact is git-speed's one redaction layer: every text that leaves
// git-speed (facts stored in refs/speed, file contents read for scope
// material, rendered prompts) passes through a Redactor, which replaces
// secrets with a marker naming the rule that found them,
// ***REDACTED(github-pat)***.
//
// It finds the values of .env-style files (.env, .env.*, *.env; the keys
// are kept), private key blocks (-----BEGIN … PRIVATE KEY----- to its END
// line, also inside JSON strings with \n escapes), and secrets matched by
// the built-in rule set (rules.go: cloud keys, tokens, webhooks; keyed.go:
// passwords and secrets in assignments; connstr.go: connection strings,
// DSNs and .pgpass lines; cmdline.go: command lines and .netrc entries;
// encoded.go: key material in base64, JSON Web Keys, Kubernetes Secrets)
// plus the patterns speed.toml adds. Each rule names literal keywords
// that must occur before its pattern (or its reader) runs, and only where
// they occur, so ordinary code costs one pass of table look-ups; token
// shapes that ordinary text can take also need a minimum Shannon entropy,
// and values that stand for a secret (${X}, <password>, changeme, ***)
// are left alone. How a file writes values (KindOf: code, config, shell,
// env, prose) decides whether an unquoted value is a literal.
//
// A redaction keeps the line structure (a multi-line span becomes the
// marker followed by as many newlines), so line numbers of facts stay
// right, and redacting twice gives the same bytes as redacting once.
package redact

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/git-speed/git-speed/internal/pathglob"
)

// Marker prefix and suffix of a redaction: ***REDACTED(rule)***.
const (
	markOpen  = "***REDACTED("
	markClose = ")***"
)

// Mark is the text that replaces a secret found by rule.
func Mark(rule string) string { return markOpen + rule + markClose }

// Pattern is an extra rule from speed.toml: a name and an RE2 regular
// expression; when the expression has a capture group, only the first
// group is redacted.
type Pattern struct {
	Name  string
	Regex string
}

// Counts are redactions by rule name.
type Counts map[string]int

// Total is the number of redactions.
func (c Counts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// Add adds o into c.
func (c Counts) Add(o Counts) {
	for k, v := range o {
		c[k] += v
	}
}

// Redactor redacts texts with the built-in rules, extra patterns and an
// allow-list of paths. It is safe for concurrent use.
type Redactor struct {
	extra  []extraRule
	allow  []string
	digest string
}

type extraRule struct {
	name string
	re   *regexp.Regexp
}

var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// New returns a Redactor with the built-in rules plus extra, skipping the
// files whose path matches a glob of allow (internal/pathglob: "*.pem",
// "fixtures/**", "a/**/b.txt"). The
// error names the pattern or glob at fault.
func New(extra []Pattern, allow []string) (*Redactor, error) {
	r := &Redactor{}
	seen := map[string]bool{}
	for _, b := range builtin() {
		seen[b.name] = true
	}
	for _, k := range keyedNames {
		seen[k] = true
	}
	for i, p := range extra {
		if !namePattern.MatchString(p.Name) {
			return nil, &PatternError{Index: i, Field: "name", Msg: fmt.Sprintf("name %q must be lowercase letters, digits and dashes", p.Name)}
		}
		if seen[p.Name] {
			return nil, &PatternError{Index: i, Field: "name", Msg: fmt.Sprintf("name %q is already a rule", p.Name)}
		}
		seen[p.Name] = true
		if p.Regex == "" {
			return nil, &PatternError{Index: i, Field: "regex", Msg: "regex is empty"}
		}
		re, err := regexp.Compile(p.Regex)
		if err != nil {
			return nil, &PatternError{Index: i, Field: "regex", Msg: fmt.Sprintf("bad regex: %v", err)}
		}
		if re.MatchString("") {
			return nil, &PatternError{Index: i, Field: "regex", Msg: "regex matches the empty string"}
		}
		r.extra = append(r.extra, extraRule{p.Name, re})
	}
	for i, g := range allow {
		if err := pathglob.Valid(g); err != nil {
			return nil, &PatternError{Index: i, Field: "allow", Msg: err.Error()}
		}
	}
	r.allow = append([]string(nil), allow...)
	r.digest = digestOf(extra, allow)
	return r, nil
}

// PatternError is a bad extra pattern or allow glob, by its index.
type PatternError struct {
	Index int
	Field string // "name", "regex" or "allow"
	Msg   string
}

func (e *PatternError) Error() string { return e.Msg }

var (
	defaultOnce sync.Once
	defaultR    *Redactor
)

// Default is the Redactor with the built-in rules only.
func Default() *Redactor {
	defaultOnce.Do(func() {
		r, err := New(nil, nil)
		if err != nil {
			panic("redact: built-in rules: " + err.Error())
		}
		defaultR = r
	})
	return defaultR
}

// Digest identifies the active rules: the built-in rule set's version and
// patterns, the extra patterns and the allow-list. Artifacts that hold
// redacted text are keyed by it.
func (r *Redactor) Digest() string { return r.digest }

// Version is the built-in rule set's version with the Redactor's digest,
// for `git speed version`.
func (r *Redactor) Version() string {
	return fmt.Sprintf("rules v%d (%d built-in, %d extra; digest %s)", RulesVersion, len(r.RuleNames())-len(r.extra), len(r.extra), r.digest)
}

// RuleNames lists every rule the Redactor can report, sorted.
func (r *Redactor) RuleNames() []string {
	names := []string{ruleEnv, rulePrivateKey}
	for _, b := range builtin() {
		names = append(names, b.name)
	}
	names = append(names, keyedNames...)
	for _, e := range r.extra {
		names = append(names, e.name)
	}
	sort.Strings(names)
	return slices.Compact(names)
}

func digestOf(extra []Pattern, allow []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "redact\x00%d\x00", RulesVersion)
	for _, b := range builtin() {
		re := "read"
		if b.re != nil {
			re = b.re.String()
		}
		fmt.Fprintf(h, "%s\x00%q\x00%s\x00%g\x00", b.name, b.keywords, re, b.minEntropy)
	}
	for _, p := range extra {
		fmt.Fprintf(h, "x\x00%s\x00%s\x00", p.Name, p.Regex)
	}
	for _, g := range allow {
		fmt.Fprintf(h, "a\x00%s\x00", g)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Allowed reports whether p is on the allow-list (never redacted).
func (r *Redactor) Allowed(p string) bool {
	for _, g := range r.allow {
		if pathglob.Match(g, p) {
			return true
		}
	}
	return false
}

// Bytes redacts src, the content of the file at p ("" when unknown), and
// returns src itself when nothing was found.
func (r *Redactor) Bytes(p string, src []byte) ([]byte, Counts) {
	if len(src) == 0 {
		return src, Counts{}
	}
	// Text reads src as a string without copying it (an index run redacts
	// every file it reads): Text never keeps its argument, and what it
	// returns is either that string, answered here by src itself, or a
	// new one, copied below.
	out, c := r.Text(p, unsafe.String(&src[0], len(src)))
	if c.Total() == 0 {
		return src, c
	}
	return []byte(out), c
}

// Text redacts text, the content of the file at p ("" when unknown).
func (r *Redactor) Text(p, text string) (string, Counts) {
	counts := Counts{}
	if text == "" || (p != "" && r.Allowed(p)) {
		return text, counts
	}
	// A marker can make a neighbour match that did not before (it ends a
	// word, so a scheme can start right after it); passes repeat until
	// one finds nothing, so redacting twice gives what redacting once does.
	kind := KindOf(p)
	for pass := 0; pass < maxPasses; pass++ {
		sc := scan{text: text, path: p, kind: kind}
		sc.detect()
		for _, e := range r.extra {
			sc.extra(e)
		}
		if len(sc.spans) == 0 {
			break
		}
		text = sc.apply(counts)
	}
	return text, counts
}

// detect runs the built-in rules over the text.
func (s *scan) detect() {
	rs := builtin()
	byRule, keyed, begins := s.find(len(rs))
	if s.kind == KindEnv {
		s.envValues()
	}
	switch {
	case path.Base(s.path) == ".pgpass":
		s.pgpassValues()
	case path.Ext(s.path) == ".conf":
		s.masterauth()
	}
	s.privateKeys(begins)
	s.rules(rs, byRule)
	s.keyed(keyed)
}

// findsSecret reports whether the built-in rules find a secret in text,
// the content of a file named p: what a value decodes to (a Kubernetes
// Secret's data). Decoded texts are not decoded again.
func (s *scan) findsSecret(p, text string) bool {
	if s.depth > 0 || text == "" {
		return false
	}
	sub := scan{text: text, path: p, kind: KindOf(p), depth: s.depth + 1}
	sub.detect()
	return len(sub.spans) > 0
}

// maxPasses bounds the passes of Text; each pass but the last redacts at
// least one span, so this is never reached on real text.
const maxPasses = 8

// IsEnvFile reports whether p names a .env-style file: .env, .env.*, *.env.
func IsEnvFile(p string) bool {
	b := path.Base(p)
	return b == ".env" || strings.HasPrefix(b, ".env.") || (strings.HasSuffix(b, ".env") && len(b) > 4)
}

// CountMarks counts the redaction markers in text by rule: what a text
// already redacted holds.
func CountMarks(text string) Counts {
	c := Counts{}
	for {
		i := strings.Index(text, markOpen)
		if i < 0 {
			return c
		}
		text = text[i+len(markOpen):]
		j := strings.Index(text, markClose)
		if j < 0 {
			return c
		}
		if name := text[:j]; namePattern.MatchString(name) {
			c[name]++
			text = text[j+len(markClose):]
		}
	}
}

// span is one secret found: text[start:end] redacted for rule. quote asks
// for the marker in double quotes (an unquoted YAML scalar, where a bare
// * would start an alias).
type span struct {
	start, end int
	rule       string
	prio       int
	quote      bool
}

// scan holds one text's redaction in progress.
type scan struct {
	text  string
	path  string
	kind  Kind
	depth int // 1 in a text decoded from a value of another (findsSecret)
	spans []span
	// judged are values a rule that reads their encoding has judged (a
	// Kubernetes Secret's data): an assignment's rule, which reads them
	// as text, does not redact them.
	judged [][2]int
}

// add records a span; prio breaks ties between rules that find the same
// span, lowest first: a token's own rule names it better than the key it
// is assigned to, and that better than the file it is in.
func (s *scan) add(start, end int, rule string, prio int) {
	if start >= end {
		return
	}
	if strings.Contains(s.text[start:end], markOpen) {
		return // already redacted
	}
	if prio > 0 {
		for _, j := range s.judged {
			if start >= j[0] && end <= j[1] {
				return
			}
		}
	}
	s.spans = append(s.spans, span{start: start, end: end, rule: rule, prio: prio, quote: s.yamlBare(start, end)})
}

// yamlBare reports whether text[start:end] is a whole unquoted YAML value.
func (s *scan) yamlBare(start, end int) bool {
	e := path.Ext(s.path)
	if e != ".yaml" && e != ".yml" {
		return false
	}
	i := start - 1
	for i >= 0 && s.text[i] == ' ' {
		i--
	}
	return i >= 0 && i < start-1 && (s.text[i] == ':' || s.text[i] == '-')
}

// apply merges overlapping spans and writes the redacted text.
func (s *scan) apply(counts Counts) string {
	sort.Slice(s.spans, func(i, j int) bool {
		a, b := s.spans[i], s.spans[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if a.end != b.end {
			return a.end > b.end
		}
		if a.prio != b.prio {
			return a.prio < b.prio
		}
		return a.rule < b.rule
	})
	var b strings.Builder
	b.Grow(len(s.text))
	at := 0
	for i := 0; i < len(s.spans); {
		sp := s.spans[i]
		i++
		for i < len(s.spans) && s.spans[i].start < sp.end {
			if s.spans[i].end > sp.end {
				sp.end = s.spans[i].end
			}
			i++
		}
		b.WriteString(s.text[at:sp.start])
		if sp.quote {
			b.WriteByte('"')
		}
		b.WriteString(Mark(sp.rule))
		if sp.quote {
			b.WriteByte('"')
		}
		if n := strings.Count(s.text[sp.start:sp.end], "\n"); n > 0 {
			b.WriteString(strings.Repeat("\n", n))
		}
		at = sp.end
		counts[sp.rule]++
	}
	b.WriteString(s.text[at:])
	return b.String()
}

// maxLine bounds how far a line is read either side of a keyword.
const maxLine = 4096

// lineAt returns the bounds of the line holding byte i, at most maxLine
// bytes either side of i (minified files have very long lines).
func (s *scan) lineAt(i int) (int, int) {
	lo := max(0, i-maxLine)
	if j := strings.LastIndexByte(s.text[lo:i], '\n'); j >= 0 {
		lo += j + 1
	}
	hi := min(len(s.text), i+maxLine)
	if j := strings.IndexByte(s.text[i:hi], '\n'); j >= 0 {
		hi = i + j
	}
	return lo, hi
}

// lineEnd is where the line that starts at lo ends: at its '\n', or at
// the text's end.
func lineEnd(t string, lo int) int {
	if i := strings.IndexByte(t[lo:], '\n'); i >= 0 {
		return lo + i
	}
	return len(t)
}

// extra runs a speed.toml pattern over the whole text.
func (s *scan) extra(e extraRule) {
	for _, m := range e.re.FindAllStringSubmatchIndex(s.text, -1) {
		if len(m) >= 4 && m[2] >= 0 {
			s.add(m[2], m[3], e.name, 0)
		} else {
			s.add(m[0], m[1], e.name, 0)
		}
	}
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var freq [256]int
	for i := 0; i < len(s); i++ {
		freq[s[i]]++
	}
	n := float64(len(s))
	h := 0.0
	for _, f := range freq {
		if f > 0 {
			p := float64(f) / n
			h -= p * log2(p)
		}
	}
	return h
}
