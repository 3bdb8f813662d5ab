package scope

import (
	"math"
	"sort"
	"strconv"
	"unicode/utf8"
)

// The artifacts are written as encoding/json writes them through an
// Encoder with SetEscapeHTML(false) and SetIndent("", "  "), byte for
// byte, but in one pass: encoding/json marshals the value and then indents
// the whole text again, and on a large tree (kubernetes: 4 MB of manifest
// and budget for one task) that was a fifth of a scope. TestEncodeAsJSON
// holds the two to the same bytes over every field of every type here.

// jsonOut appends indented JSON.
type jsonOut struct {
	b     []byte
	depth int
	empty []bool // per open container: nothing written in it yet
}

// open starts an object ('{') or an array ('[').
func (o *jsonOut) open(c byte) {
	o.b = append(o.b, c)
	o.depth++
	o.empty = append(o.empty, true)
}

// close ends the innermost container; an empty one stays "{}" or "[]".
func (o *jsonOut) close(c byte) {
	o.depth--
	n := len(o.empty) - 1
	if !o.empty[n] {
		o.newline()
	}
	o.empty = o.empty[:n]
	o.b = append(o.b, c)
}

func (o *jsonOut) newline() {
	o.b = append(o.b, '\n')
	for i := 0; i < o.depth; i++ {
		o.b = append(o.b, ' ', ' ')
	}
}

// elem starts the next value of an array.
func (o *jsonOut) elem() {
	n := len(o.empty) - 1
	if !o.empty[n] {
		o.b = append(o.b, ',')
	}
	o.empty[n] = false
	o.newline()
}

// key starts the member called k of an object.
func (o *jsonOut) key(k string) {
	o.elem()
	o.b = appendJSONString(o.b, k)
	o.b = append(o.b, ':', ' ')
}

func (o *jsonOut) str(k, v string) { o.key(k); o.b = appendJSONString(o.b, v) }
func (o *jsonOut) int(k string, v int) {
	o.key(k)
	o.b = strconv.AppendInt(o.b, int64(v), 10)
}
func (o *jsonOut) bool(k string, v bool) { o.key(k); o.b = strconv.AppendBool(o.b, v) }
func (o *jsonOut) float(k string, v float64) {
	o.key(k)
	o.b = appendJSONFloat(o.b, v)
}

// strs writes a list of strings; nil is null.
func (o *jsonOut) strs(k string, v []string) {
	o.key(k)
	if v == nil {
		o.b = append(o.b, "null"...)
		return
	}
	o.open('[')
	for _, s := range v {
		o.elem()
		o.b = appendJSONString(o.b, s)
	}
	o.close(']')
}

// list writes n values of an array, each by one call of each; a nil array
// (isNil) is null.
func (o *jsonOut) list(k string, isNil bool, n int, each func(i int)) {
	o.key(k)
	if isNil {
		o.b = append(o.b, "null"...)
		return
	}
	o.open('[')
	for i := 0; i < n; i++ {
		o.elem()
		each(i)
	}
	o.close(']')
}

// sortedKeys returns the keys of m sorted, as encoding/json orders them.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// mapOf writes a map with string keys, in key order; nil is null.
func mapOf[V any](o *jsonOut, k string, m map[string]V, val func(V)) {
	o.key(k)
	if m == nil {
		o.b = append(o.b, "null"...)
		return
	}
	o.open('{')
	for _, mk := range sortedKeys(m) {
		o.key(mk)
		val(m[mk])
	}
	o.close('}')
}

// appendJSONFloat writes f as encoding/json does (shortest form, exponent
// for very small or large values). f is finite: artifacts hold rounded
// relevances.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 → e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendJSONString writes s quoted as encoding/json does without HTML
// escaping: invalid UTF-8 becomes \ufffd, U+2028 and U+2029 are escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// encodeManifest writes manifest.json.
func encodeManifest(o *jsonOut, m *Manifest) {
	o.open('{')
	o.str("feature", m.Feature)
	o.str("task", m.Task)
	o.str("stage", m.Stage)
	o.str("tree", m.Tree)
	o.str("tokenizer", m.Tokenizer)
	o.int("budget_tokens", m.BudgetTokens)
	o.list("files", m.Files == nil, len(m.Files), func(i int) {
		f := &m.Files[i]
		o.open('{')
		o.str("path", f.Path)
		o.int("distance", f.Distance)
		o.str("tier", f.Tier)
		o.int("tokens", f.Tokens)
		o.str("reason", f.Reason)
		o.float("relevance", f.Relevance)
		if len(f.Signals) > 0 {
			o.strs("signals", f.Signals)
		}
		if f.Role != "" {
			o.str("role", f.Role)
		}
		o.close('}')
	})
	if m.Unlisted != 0 {
		o.int("unlisted_beyond_max_hops", m.Unlisted)
	}
	o.close('}')
}

// encodeBudget writes budget.json.
func encodeBudget(o *jsonOut, b *Budget) {
	o.open('{')
	o.str("feature", b.Feature)
	o.str("task", b.Task)
	o.str("stage", b.Stage)
	o.str("tree", b.Tree)
	o.int("total", b.Total)
	o.key("dimensions")
	o.open('{')
	for _, d := range []struct {
		name string
		dim  Dimension
	}{{"code_context", b.Dimensions.Code}, {"task_context", b.Dimensions.Task}, {"spec_context", b.Dimensions.Spec}} {
		o.key(d.name)
		o.open('{')
		o.int("limit", d.dim.Limit)
		o.int("used", d.dim.Used)
		o.close('}')
	}
	o.key("reserve")
	o.open('{')
	o.int("limit", b.Dimensions.Reserve.Limit)
	o.close('}')
	o.close('}')
	o.list("flows", b.Flows == nil, len(b.Flows), func(i int) {
		f := &b.Flows[i]
		o.open('{')
		o.str("from", f.From)
		o.str("to", f.To)
		o.int("tokens", f.Tokens)
		o.close('}')
	})
	o.bool("within_budget", b.WithinBudget)
	o.int("remaining_tokens", b.RemainingTokens)
	if b.OverBudget != "" {
		o.str("over_budget", b.OverBudget)
	}
	if b.OutsideBudget != 0 {
		o.int("outside_budget", b.OutsideBudget)
	}
	o.list("cuts", b.Cuts == nil, len(b.Cuts), func(i int) {
		c := &b.Cuts[i]
		o.open('{')
		o.str("path", c.Path)
		o.str("from", c.From)
		o.str("to", c.To)
		o.int("tokens_saved", c.TokensSaved)
		o.str("reason", c.Reason)
		o.str("dimension", c.Dimension)
		if c.Estimated {
			o.bool("estimated", c.Estimated)
		}
		o.close('}')
	})
	if len(b.Focus) > 0 {
		o.list("focus", false, len(b.Focus), func(i int) {
			r := &b.Focus[i]
			o.open('{')
			o.str("path", r.Path)
			o.str("lines", r.Lines)
			o.str("def", r.Def)
			o.str("why", r.Why)
			o.int("tokens", r.Tokens)
			o.close('}')
		})
	}
	if len(b.Places) > 0 {
		o.list("places", false, len(b.Places), func(i int) {
			p := &b.Places[i]
			o.open('{')
			o.str("create", p.Create)
			o.str("folder", p.Folder)
			o.list("files", p.Files == nil, len(p.Files), func(k int) {
				f := &p.Files[k]
				o.open('{')
				o.str("path", f.Path)
				o.str("kind", f.Kind)
				o.str("reason", f.Reason)
				o.str("tier", f.Tier)
				o.int("tokens", f.Tokens)
				o.close('}')
			})
			o.int("tokens", p.Tokens)
			o.float("share", p.Share)
			o.close('}')
		})
	}
	mapOf(o, "inputs", b.Inputs, func(v string) { o.b = appendJSONString(o.b, v) })
	o.str("digest", b.Digest)
	o.key("redactions")
	o.open('{')
	o.int("count", b.Redactions.Count)
	mapOf(o, "by_rule", b.Redactions.ByRule, func(v int) { o.b = strconv.AppendInt(o.b, int64(v), 10) })
	o.close('}')
	o.close('}')
}

// encodeMaterial writes material.json.
func encodeMaterial(o *jsonOut, m *Material) {
	o.open('{')
	o.key("task")
	t := &m.Task
	o.open('{')
	o.str("id", t.ID)
	o.str("title", t.Title)
	o.str("description", t.Description)
	o.str("status", t.Status)
	o.strs("files_touched", t.FilesTouched)
	o.strs("depends_on", t.DependsOn)
	o.strs("acceptance", t.Acceptance)
	o.strs("requirements", t.Requirements)
	o.str("base", t.Base)
	o.strs("assumptions", t.Assumptions)
	for _, r := range []struct {
		k string
		v []string
	}{{"create", t.Create}, {"modify", t.Modify}, {"read", t.Read}} {
		if len(r.v) > 0 {
			o.strs(r.k, r.v)
		}
	}
	o.close('}')
	o.list("concerns", m.Concerns == nil, len(m.Concerns), func(i int) {
		c := &m.Concerns[i]
		o.open('{')
		o.str("source", c.Source)
		o.str("text", c.Text)
		o.close('}')
	})
	o.list("decisions", m.Decisions == nil, len(m.Decisions), func(i int) {
		d := &m.Decisions[i]
		o.open('{')
		o.str("task", d.Task)
		o.str("summary", d.Summary)
		o.str("detail", d.Detail)
		o.strs("files", d.Files)
		o.close('}')
	})
	o.list("spec", m.Spec == nil, len(m.Spec), func(i int) {
		s := &m.Spec[i]
		o.open('{')
		o.str("id", s.ID)
		o.str("title", s.Title)
		o.str("text", s.Text)
		o.str("status", s.Status)
		o.strs("evidence", s.Evidence)
		o.str("reason", s.Reason)
		o.close('}')
	})
	o.list("spec_paragraphs", m.SpecParagraphs == nil, len(m.SpecParagraphs), func(i int) {
		p := &m.SpecParagraphs[i]
		o.open('{')
		o.str("heading", p.Heading)
		o.str("text", p.Text)
		o.close('}')
	})
	o.list("files", m.Files == nil, len(m.Files), func(i int) {
		f := &m.Files[i]
		o.open('{')
		o.str("path", f.Path)
		o.str("lang", f.Lang)
		o.int("distance", f.Distance)
		o.str("tier", f.Tier)
		o.int("tokens", f.Tokens)
		o.int("start", f.Start)
		o.int("end", f.End)
		o.str("content", f.Content)
		o.str("pointer", f.Pointer)
		if f.Role != "" {
			o.str("role", f.Role)
		}
		o.close('}')
	})
	o.close('}')
}
