package clientconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// member is a key and its value as JSON text.
type member struct{ key, raw string }

// jval is a JSON value of a document with the offsets of its bytes.
type jval struct {
	kind        byte // '{', '[', '"' or 's' (number, true, false, null)
	start, end  int  // the value's bytes
	members     []jmember
	trailComma  int // offset of a comma after the last member (JSONC); -1 if none
	emptyInside bool
}

type jmember struct {
	key      string
	keyStart int
	val      *jval
}

// jparser reads JSON, or JSONC (comments and trailing commas) when jsonc.
type jparser struct {
	b     []byte
	i     int
	jsonc bool
}

type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

func (p *jparser) fail(msg string) error { return &syntaxError{p.i, msg} }

func (p *jparser) ws() error {
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case c == '/' && p.jsonc && p.i+1 < len(p.b) && p.b[p.i+1] == '/':
			for p.i < len(p.b) && p.b[p.i] != '\n' {
				p.i++
			}
		case c == '/' && p.jsonc && p.i+1 < len(p.b) && p.b[p.i+1] == '*':
			end := bytes.Index(p.b[p.i+2:], []byte("*/"))
			if end < 0 {
				return p.fail("a /* comment is not closed")
			}
			p.i += 2 + end + 2
		default:
			return nil
		}
	}
	return nil
}

func (p *jparser) value(depth int) (*jval, error) {
	if depth > 200 {
		return nil, p.fail("values nest too deep")
	}
	if err := p.ws(); err != nil {
		return nil, err
	}
	if p.i >= len(p.b) {
		return nil, p.fail("a value is missing")
	}
	v := &jval{start: p.i, trailComma: -1}
	switch c := p.b[p.i]; c {
	case '{':
		v.kind = '{'
		p.i++
		if err := p.ws(); err != nil {
			return nil, err
		}
		for {
			if p.i < len(p.b) && p.b[p.i] == '}' {
				p.i++
				break
			}
			if p.i >= len(p.b) || p.b[p.i] != '"' {
				return nil, p.fail("expected a quoted key or '}'")
			}
			ks := p.i
			key, err := p.str()
			if err != nil {
				return nil, err
			}
			if err := p.ws(); err != nil {
				return nil, err
			}
			if p.i >= len(p.b) || p.b[p.i] != ':' {
				return nil, p.fail("expected ':' after a key")
			}
			p.i++
			mv, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.members = append(v.members, jmember{key: key, keyStart: ks, val: mv})
			if err := p.ws(); err != nil {
				return nil, err
			}
			if p.i < len(p.b) && p.b[p.i] == ',' {
				comma := p.i
				p.i++
				if err := p.ws(); err != nil {
					return nil, err
				}
				if p.i < len(p.b) && p.b[p.i] == '}' {
					if !p.jsonc {
						return nil, p.fail("a comma before '}'")
					}
					v.trailComma = comma
				}
				continue
			}
			if p.i >= len(p.b) || p.b[p.i] != '}' {
				return nil, p.fail("expected ',' or '}'")
			}
		}
	case '[':
		v.kind = '['
		p.i++
		for n := 0; ; n++ {
			if err := p.ws(); err != nil {
				return nil, err
			}
			if p.i < len(p.b) && p.b[p.i] == ']' {
				if n > 0 && !p.jsonc && p.b[lastNonSpace(p.b, p.i)] == ',' {
					return nil, p.fail("a comma before ']'")
				}
				p.i++
				break
			}
			if _, err := p.value(depth + 1); err != nil {
				return nil, err
			}
			if err := p.ws(); err != nil {
				return nil, err
			}
			if p.i < len(p.b) && p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.i >= len(p.b) || p.b[p.i] != ']' {
				return nil, p.fail("expected ',' or ']'")
			}
		}
	case '"':
		v.kind = '"'
		if _, err := p.str(); err != nil {
			return nil, err
		}
	default:
		v.kind = 's'
		for p.i < len(p.b) && strings.IndexByte("+-.0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", p.b[p.i]) >= 0 {
			p.i++
		}
		if tok := p.b[v.start:p.i]; len(tok) == 0 || !json.Valid(tok) {
			p.i = v.start
			return nil, p.fail("expected a value")
		}
	}
	v.end = p.i
	if v.kind == '{' && len(v.members) == 0 {
		v.emptyInside = len(bytes.TrimSpace(p.b[v.start+1:v.end-1])) == 0
	}
	return v, nil
}

// lastNonSpace is the offset of the last byte before i that is not white
// space (or i when there is none).
func lastNonSpace(b []byte, i int) int {
	for j := i - 1; j >= 0; j-- {
		if c := b[j]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return j
		}
	}
	return i
}

// str reads a string starting at p.i and returns it decoded.
func (p *jparser) str() (string, error) {
	start := p.i
	p.i++
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '\\':
			p.i += 2
			continue
		case c == '"':
			p.i++
			var s string
			if err := json.Unmarshal(p.b[start:p.i], &s); err != nil {
				p.i = start
				return "", p.fail("a string is not valid")
			}
			return s, nil
		case c < 0x20:
			return "", p.fail("a control character in a string")
		}
		p.i++
	}
	p.i = start
	return "", p.fail("a string is not closed")
}

// parseJSON reads the document b.
func parseJSON(file string, b []byte, jsonc bool) (*jval, error) {
	p := &jparser{b: b, jsonc: jsonc}
	v, err := p.value(0)
	if err == nil {
		err = p.ws()
		if err == nil && p.i < len(b) {
			err = p.fail("text after the value")
		}
	}
	var se *syntaxError
	if errors.As(err, &se) {
		what := "JSON"
		if jsonc {
			what = "JSON with comments"
		}
		return nil, fmt.Errorf("%s line %d: not valid %s (%s); nothing was written", file, lineOf(b, se.off), what, se.msg)
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// find is the last member of object v named key (the one JSON readers
// keep), or nil.
func (v *jval) find(key string) *jmember {
	for i := len(v.members) - 1; i >= 0; i-- {
		if v.members[i].key == key {
			return &v.members[i]
		}
	}
	return nil
}

// lineIndent is the white space that starts the line holding offset off.
func lineIndent(b []byte, off int) string {
	s := bytes.LastIndexByte(b[:off], '\n') + 1
	e := s
	for e < len(b) && (b[e] == ' ' || b[e] == '\t') {
		e++
	}
	return string(b[s:e])
}

// indentUnit is the document's indentation step: the white space of its
// first indented line, or two spaces.
func indentUnit(b []byte) string {
	for _, line := range bytes.Split(b, []byte("\n")) {
		n := 0
		for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
			n++
		}
		if n > 0 && n < len(line) && line[n] != '\r' {
			return string(line[:n])
		}
	}
	return "  "
}

// setMember sets key to raw in the object reached from the top by path
// (whose objects exist), replacing its value or appending the member.
func setMember(file string, doc []byte, jsonc bool, path []string, key, raw string) ([]byte, error) {
	v, err := parseJSON(file, doc, jsonc)
	if err != nil {
		return nil, err
	}
	for _, p := range path {
		v = v.find(p).val
	}
	splice := func(from, to int, s string) []byte {
		out := make([]byte, 0, len(doc)+len(s))
		out = append(out, doc[:from]...)
		out = append(out, s...)
		return append(out, doc[to:]...)
	}
	if m := v.find(key); m != nil {
		return splice(m.val.start, m.val.end, raw), nil
	}
	line := jsonString(key) + ": " + raw
	if len(v.members) == 0 {
		ind := lineIndent(doc, v.start)
		if v.emptyInside {
			return splice(v.start+1, v.end-1, "\n"+ind+indentUnit(doc)+line+"\n"+ind), nil
		}
		return splice(v.start+1, v.start+1, "\n"+ind+indentUnit(doc)+line), nil
	}
	last := v.members[len(v.members)-1]
	ind := lineIndent(doc, last.keyStart)
	if v.trailComma >= 0 {
		at := lineEnd(doc, v.trailComma+1)
		return splice(at, at, "\n"+ind+line+","), nil
	}
	// A comma after the last value; the new member after a comment that
	// ends its line, so the comment stays with the member it was on.
	at := lineEnd(doc, last.val.end)
	out := splice(at, at, "\n"+ind+line)
	return append(append(append([]byte{}, out[:last.val.end]...), ','), out[last.val.end:]...), nil
}

// lineEnd is the offset of the newline ending the line at pos when only
// white space or a // comment follows pos on it; else pos.
func lineEnd(b []byte, pos int) int {
	i := pos
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	if i+1 < len(b) && b[i] == '/' && b[i+1] == '/' {
		for i < len(b) && b[i] != '\n' {
			i++
		}
	}
	if i < len(b) && b[i] == '\n' {
		if i > pos && b[i-1] == '\r' {
			i--
		}
		return i
	}
	return pos
}

// mergeJSON writes NAME's members under serversKey of the document old.
func mergeJSON(file string, old []byte, jsonc bool, serversKey, name string, members []member) ([]byte, error) {
	doc := old
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = []byte("{}\n")
	}
	if !jsonc {
		var x any
		if err := json.Unmarshal(doc, &x); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return nil, fmt.Errorf("%s line %d: not valid JSON (%v); nothing was written", file, lineOf(doc, int(se.Offset)), se)
			}
			return nil, fmt.Errorf("%s: not valid JSON (%v); nothing was written", file, err)
		}
	}
	top, err := parseJSON(file, doc, jsonc)
	if err != nil {
		return nil, err
	}
	if top.kind != '{' {
		return nil, fmt.Errorf("%s line %d: the top level is not a JSON object; nothing was written", file, lineOf(doc, top.start))
	}
	servers := top.find(serversKey)
	if servers == nil {
		if doc, err = setMember(file, doc, jsonc, nil, serversKey, "{}"); err != nil {
			return nil, err
		}
	} else if servers.val.kind != '{' {
		return nil, fmt.Errorf("%s line %d: %q is not an object; nothing was written", file, lineOf(doc, servers.keyStart), serversKey)
	} else if e := servers.val.find(name); e != nil && e.val.kind != '{' {
		return nil, fmt.Errorf("%s line %d: %s.%s is not an object; nothing was written", file, lineOf(doc, e.keyStart), serversKey, name)
	}
	top, _ = parseJSON(file, doc, jsonc)
	if top.find(serversKey).val.find(name) == nil {
		if doc, err = setMember(file, doc, jsonc, []string{serversKey}, name, "{}"); err != nil {
			return nil, err
		}
	}
	for _, m := range members {
		if doc, err = setMember(file, doc, jsonc, []string{serversKey, name}, m.key, m.raw); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// jsonString is s as a JSON string, without HTML escapes.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// jsonStrings is ss as a one-line JSON array of strings.
func jsonStrings(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = jsonString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
