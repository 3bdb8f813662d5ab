package redact

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// Key material wrapped in base64: a PEM private key encoded once more
// (a kubeconfig's client-key-data, Terraform's base64decode("LS0t…")), a
// private key's DER in base64 without its PEM lines (PKCS#1, PKCS#8,
// SEC1), the private members of a JSON Web Key, and the values of a
// Kubernetes Secret's data (base64) and stringData that are, or decode
// to, a private key, a password or a token.

// isB64Byte reports whether c is of the standard base64 alphabet or its
// padding.
func isB64Byte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '='
}

// maxB64 bounds the base64 read at one place.
const maxB64 = 64 << 10

// b64Run returns where the base64 text at t[i:] ends and its characters.
// It goes on over a line break when the line is a full line of wrapped
// base64 (60 characters or more: base64 -w 76, a PEM body) and the next
// line, after its indentation, holds more; a \n escape in a string
// counts as a line break.
func b64Run(t string, i int) (end int, body string) {
	var b strings.Builder
	end = i
	lineStart := i
	for end < len(t) && end-i < maxB64 {
		j := end
		for j < len(t) && isB64Byte(t[j]) {
			j++
		}
		b.WriteString(t[end:j])
		end = j
		if j-lineStart < 60 || strings.HasSuffix(t[lineStart:j], "=") {
			break
		}
		k := j
		switch {
		case strings.HasPrefix(t[k:], "\\n"):
			k += 2
		case strings.HasPrefix(t[k:], "\r\n"):
			k += 2
		case k < len(t) && t[k] == '\n':
			k++
		default:
			return end, b.String()
		}
		for k < len(t) && (t[k] == ' ' || t[k] == '\t') {
			k++
		}
		if k >= len(t) || !isB64Byte(t[k]) {
			break
		}
		end, lineStart = k, k
	}
	return end, b.String()
}

// decodeB64 decodes standard or URL-safe base64, padded or not; a
// truncated last quantum is dropped.
func decodeB64(s string) ([]byte, bool) {
	s = strings.TrimRight(s, "=")
	if len(s)%4 == 1 {
		s = s[:len(s)-1]
	}
	if b, err := base64.RawStdEncoding.DecodeString(s); err == nil {
		return b, true
	}
	if b, err := base64.RawURLEncoding.DecodeString(s); err == nil {
		return b, true
	}
	return nil, false
}

// b64Start reports whether a base64 text can start at t[pos:]: the byte
// before it is not of the alphabet.
func b64Start(t string, pos int) bool {
	return pos == 0 || !isB64Byte(t[pos-1]) && t[pos-1] != '-' && t[pos-1] != '_'
}

// pemB64At redacts base64 at pos that decodes to a PEM text holding a
// private key (LS0tLS1CRUdJTi is "-----BEGIN " in base64); certificates
// and public keys are left alone.
func pemB64At(s *scan, pos int) {
	t := s.text
	if !b64Start(t, pos) {
		return
	}
	end, body := b64Run(t, pos)
	dec, ok := decodeB64(body)
	if ok && strings.Contains(string(dec), "PRIVATE KEY") {
		s.add(pos, end, ruleEncodedKey, 0)
	}
}

// derHeader reports whether b starts the DER of a private key, and the
// length the DER says it has: a SEQUENCE, then version 0 and an INTEGER
// (PKCS#1 RSA) or an AlgorithmIdentifier (PKCS#8), or version 1 and an
// OCTET STRING (SEC1 EC) or an AlgorithmIdentifier (PKCS#8 v2). A
// certificate or a public key starts with a SEQUENCE in a SEQUENCE.
func derHeader(b []byte) (total int, ok bool) {
	if len(b) < 9 || b[0] != 0x30 {
		return 0, false
	}
	h, n := 2, int(b[1])
	switch b[1] {
	case 0x81:
		h, n = 3, int(b[2])
	case 0x82:
		h, n = 4, int(b[2])<<8|int(b[3])
	default:
		if b[1] >= 0x80 {
			return 0, false
		}
	}
	if len(b) < h+5 || b[h] != 0x02 || b[h+1] != 0x01 {
		return 0, false
	}
	switch v, next := b[h+2], b[h+3]; {
	case v == 0 && next == 0x02 && b[h+4] >= 0x81: // PKCS#1: the modulus, long
	case v == 0 && next == 0x30, v == 1 && next == 0x30: // PKCS#8
	case v == 1 && next == 0x04: // SEC1
	default:
		return 0, false
	}
	return h + n, true
}

// derB64At redacts a private key's DER in base64 at pos, PEM lines or not
// (MII… PKCS#1 and PKCS#8, MHcCAQEE… SEC1, MC4CAQAw… Ed25519).
func derB64At(s *scan, pos int) {
	t := s.text
	if !b64Start(t, pos) || len(t)-pos < 64 {
		return
	}
	if head, ok := decodeB64(t[pos : pos+16]); !ok {
		return
	} else if _, ok := derHeader(head); !ok {
		return
	}
	end, body := b64Run(t, pos)
	dec, ok := decodeB64(body)
	if !ok || len(dec) < 40 {
		return
	}
	if total, ok := derHeader(dec); ok && len(dec) <= total+2 {
		s.add(pos, end, ruleEncodedKey, 0)
	}
}

// jwkAt redacts the private members of the JSON Web Key whose "kty" is
// at pos: d, p, q, dp, dq, qi of an RSA, EC or OKP key, k of an oct key.
// A public key (n, e, x, y) is left alone.
func jwkAt(s *scan, pos int) {
	t := s.text
	q := `"`
	switch {
	case pos >= 2 && t[pos-2:pos] == `\"`:
		q = `\"`
	case pos >= 1 && t[pos-1] == '"':
	default:
		return
	}
	lo := strings.LastIndexByte(t[max(0, pos-4096):pos], '{')
	if lo < 0 {
		return
	}
	lo += max(0, pos-4096)
	hi := strings.IndexByte(t[pos:min(len(t), pos+16<<10)], '}')
	if hi < 0 {
		return
	}
	obj := t[lo : pos+hi]
	kty, _ := jsonMember(obj, q, "kty")
	var members []string
	switch kty {
	case "RSA", "EC", "OKP":
		members = []string{"d", "p", "q", "dp", "dq", "qi"}
	case "oct":
		members = []string{"k"}
	default:
		return
	}
	for _, m := range members {
		if v, at := jsonMember(obj, q, m); len(v) >= 16 && strings.Trim(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=") == "" {
			s.add(lo+at, lo+at+len(v), ruleJWK, 0)
		}
	}
}

// jsonMember finds the string member name of the JSON object text obj,
// whose quotes are q (" or \" in an escaped string): its value and where
// the value starts.
func jsonMember(obj, q, name string) (string, int) {
	key := q + name + q
	for from := 0; ; {
		i := strings.Index(obj[from:], key)
		if i < 0 {
			return "", 0
		}
		j := from + i + len(key)
		from = j
		for j < len(obj) && (obj[j] == ' ' || obj[j] == '\t' || obj[j] == '\n' || obj[j] == '\r') {
			j++
		}
		if j >= len(obj) || obj[j] != ':' {
			continue
		}
		j++
		for j < len(obj) && (obj[j] == ' ' || obj[j] == '\t' || obj[j] == '\n' || obj[j] == '\r') {
			j++
		}
		if !strings.HasPrefix(obj[j:], q) {
			continue
		}
		j += len(q)
		e := strings.Index(obj[j:], q)
		if e < 0 {
			return "", 0
		}
		return obj[j : j+e], j
	}
}

// secretKindAt redacts the secret values of the Kubernetes Secret whose
// kind is named at pos (kind: Secret in YAML, "kind": "Secret" in JSON).
func secretKindAt(s *scan, pos int) {
	t := s.text
	if s.depth > 0 {
		return
	}
	j := pos
	quotedValue := j > 0 && t[j-1] == '"'
	if quotedValue {
		j--
	}
	for j > 0 && (t[j-1] == ' ' || t[j-1] == '\t') {
		j--
	}
	if j == 0 || t[j-1] != ':' {
		return
	}
	j--
	jsonKey := j > 0 && t[j-1] == '"'
	if jsonKey {
		j--
	}
	if !strings.HasSuffix(t[:j], "kind") {
		return
	}
	k := j - len("kind")
	end := pos + len("Secret")
	if end < len(t) && !(quotedValue && t[end] == '"' || strings.IndexByte(" \t\r\n", t[end]) >= 0) {
		return // SecretList, SecretProviderClass
	}
	if jsonKey {
		if k == 0 || t[k-1] != '"' {
			return
		}
		s.secretJSON(k - 1)
		return
	}
	s.secretYAML(k)
}

// yamlLine is a line of YAML: its bounds, the column of its first byte
// that is not a blank, and whether it starts a list item ("- ").
type yamlLine struct {
	lo, hi, col int
	item, blank bool
}

func (s *scan) yamlLineAt(lo int) yamlLine {
	t := s.text
	hi := lineEnd(t, lo)
	l := yamlLine{lo: lo, hi: hi}
	c := lo
	for c < hi && (t[c] == ' ' || t[c] == '\t') {
		c++
	}
	l.col = c - lo
	rest := t[c:hi]
	l.blank = strings.TrimSpace(rest) == "" || rest[0] == '#'
	l.item = strings.HasPrefix(rest, "- ")
	return l
}

// secretYAML redacts the data and stringData values of the YAML mapping
// whose kind key starts at k.
func (s *scan) secretYAML(k int) {
	t := s.text
	first := s.yamlLineAt(strings.LastIndexByte(t[:k], '\n') + 1)
	indent := k - first.lo
	// The mapping's lines: back to its first key (or its list item),
	// forward to the next key of an outer mapping or the next item.
	lo := first.lo
	if !(first.item && first.col+2 == indent) {
		for lo > 0 && first.lo-lo < maxB64 {
			p := s.yamlLineAt(strings.LastIndexByte(t[:lo-1], '\n') + 1)
			if strings.HasPrefix(t[p.lo:p.hi], "---") {
				break
			}
			if p.blank || p.col > indent || p.col == indent && !p.item {
				lo = p.lo
				continue
			}
			if p.item && p.col+2 == indent {
				lo = p.lo
			}
			break
		}
	}
	for i := lo; i < len(t) && i-lo < 4*maxB64; {
		l := s.yamlLineAt(i)
		next := l.hi + 1
		if i > first.lo && !l.blank && (l.col < indent || l.col == indent && l.item || strings.HasPrefix(t[l.lo:l.hi], "---")) {
			return
		}
		key := l.lo + l.col
		if l.item {
			key += 2
		}
		if key-l.lo == indent {
			switch line := strings.TrimRight(t[key:l.hi], " \r"); line {
			case "data:", "stringData:":
				next = s.secretValues(next, indent, line == "data:")
			}
		}
		i = next
	}
}

// secretValues redacts the values of the data (base64) or stringData
// mapping whose entries start at i, more indented than indent; it returns
// where the mapping ends.
func (s *scan) secretValues(i, indent int, encoded bool) int {
	t := s.text
	cc := -1
	for i < len(t) {
		l := s.yamlLineAt(i)
		if l.blank {
			i = l.hi + 1
			continue
		}
		if l.col <= indent || cc >= 0 && l.col < cc {
			return i
		}
		if cc < 0 {
			cc = l.col
		}
		i = l.hi + 1
		if l.col != cc {
			continue
		}
		line := t[l.lo+l.col : l.hi]
		colon := strings.Index(line, ": ")
		if colon < 0 {
			if !strings.HasSuffix(strings.TrimRight(line, " \r"), ":") {
				continue
			}
			colon = len(strings.TrimRight(line, " \r")) - 1
		}
		key := strings.Trim(line[:colon], `"'`)
		vs := l.lo + l.col + colon + 1
		for vs < l.hi && t[vs] == ' ' {
			vs++
		}
		ve := len(strings.TrimRight(t[:l.hi], " \r"))
		if vs >= ve || t[vs] == '|' || t[vs] == '>' {
			// A block scalar: the lines more indented than the key.
			bs, be := l.hi+1, l.hi+1
			var body strings.Builder
			for be < len(t) {
				b := s.yamlLineAt(be)
				if !b.blank && b.col <= cc {
					break
				}
				body.WriteString(strings.TrimSpace(t[b.lo:b.hi]))
				if !encoded {
					body.WriteByte('\n')
				}
				be = b.hi + 1
			}
			i = be
			if be > bs && s.secretData(key, body.String(), encoded) {
				s.add(bs+s.yamlLineAt(bs).col, min(len(t), be-1), ruleSecretData, 0)
			}
			continue
		}
		if q := t[vs]; (q == '"' || q == '\'') && ve-vs >= 2 && t[ve-1] == q {
			vs, ve = vs+1, ve-1
		}
		if s.secretData(key, t[vs:ve], encoded) {
			s.add(vs, ve, ruleSecretData, 0)
		} else if encoded {
			s.judged = append(s.judged, [2]int{vs, ve})
		}
	}
	return i
}

// secretJSON redacts the data and stringData values of the JSON object
// around the "kind" key whose quote is at k.
func (s *scan) secretJSON(k int) {
	t := s.text
	lo, depth := k, 0
	for lo > 0 && k-lo < maxB64 {
		lo--
		if t[lo] == '}' {
			depth++
		} else if t[lo] == '{' {
			if depth == 0 {
				break
			}
			depth--
		}
	}
	if t[lo] != '{' {
		return
	}
	for _, name := range []string{`"data"`, `"stringData"`} {
		for from := lo; ; {
			i := strings.Index(t[from:min(len(t), lo+4*maxB64)], name)
			if i < 0 {
				break
			}
			i += from
			from = i + len(name)
			j := from
			for j < len(t) && isBlank(t[j]) {
				j++
			}
			if j >= len(t) || t[j] != ':' || jsonDepth(t[lo:i]) != 1 {
				continue
			}
			j++
			for j < len(t) && isBlank(t[j]) {
				j++
			}
			if j < len(t) && t[j] == '{' {
				s.secretPairs(j+1, name == `"data"`)
			}
		}
	}
}

// jsonDepth is how deep in braces the end of text is, from its start.
func jsonDepth(text string) int {
	d := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '{':
			d++
		case '}':
			d--
		}
	}
	return d
}

// secretPairs redacts the string values of the JSON object whose members
// start at i, up to its closing brace.
func (s *scan) secretPairs(i int, encoded bool) {
	t := s.text
	for n := 0; i < len(t) && n < 256; n++ {
		for i < len(t) && (isBlank(t[i]) || t[i] == ',') {
			i++
		}
		if i >= len(t) || t[i] != '"' {
			return
		}
		ke := strings.IndexByte(t[i+1:], '"')
		if ke < 0 {
			return
		}
		key := t[i+1 : i+1+ke]
		j := i + ke + 2
		for j < len(t) && isBlank(t[j]) {
			j++
		}
		if j >= len(t) || t[j] != ':' {
			return
		}
		j++
		for j < len(t) && isBlank(t[j]) {
			j++
		}
		if j >= len(t) || t[j] != '"' {
			return
		}
		ve := strings.IndexByte(t[j+1:min(len(t), j+1+maxB64)], '"')
		if ve < 0 {
			return
		}
		if v := t[j+1 : j+1+ve]; s.secretData(key, v, encoded) {
			s.add(j+1, j+1+ve, ruleSecretData, 0)
		} else if encoded {
			s.judged = append(s.judged, [2]int{j + 1, j + 1 + ve})
		}
		i = j + ve + 2
	}
}

// secretData reports whether the value v of a Secret's key is secret:
// once decoded (data), it is or holds a private key, a key store, a
// plausible value of a key that names a secret, a token-shaped string, or
// a text in which the other rules find a secret (a .dockerconfigjson, a
// properties file).
func (s *scan) secretData(key, v string, encoded bool) bool {
	d := v
	if encoded {
		if strings.Trim(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") != "" {
			return false // a template, a placeholder
		}
		b, ok := decodeB64(v)
		if !ok {
			return false
		}
		d = string(b)
	}
	if d == "" {
		return false
	}
	if strings.Contains(d, "PRIVATE KEY") {
		return true
	}
	low := strings.ToLower(key)
	if !utf8.ValidString(d) || strings.ContainsAny(d, "\x00\x01\x02\x03") {
		return strings.Contains(low, "keystore") || strings.HasSuffix(low, ".jks") || strings.HasSuffix(low, ".p12") || strings.HasSuffix(low, ".pfx")
	}
	if encoded && s.findsSecret(key, d) {
		return true
	}
	d = strings.TrimSpace(d)
	if placeholderValue(d) {
		return false
	}
	switch r := keyRule(key); {
	case r == rulePassword && slotValue(d, ""):
		return true
	case r != "" && plausible(r, d, true):
		return true
	}
	return tokenLike(d)
}
