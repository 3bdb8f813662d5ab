package redact

import (
	"math"
	"path"
	"strings"
)

func log2(x float64) float64 { return math.Log2(x) }

// envValues redacts every value of a .env-style file; keys, comments and
// empty values stay. A quoted value that spans lines is redacted whole.
func (s *scan) envValues() {
	t := s.text
	for lo := 0; lo < len(t); {
		hi := strings.IndexByte(t[lo:], '\n')
		if hi < 0 {
			hi = len(t)
		} else {
			hi += lo
		}
		next := hi + 1
		line := t[lo:hi]
		trim := strings.TrimLeft(line, " \t")
		if trim != "" && trim[0] != '#' {
			if eq := strings.IndexByte(line, '='); eq >= 0 {
				v := eq + 1
				for v < len(line) && (line[v] == ' ' || line[v] == '\t') {
					v++
				}
				end := len(strings.TrimRight(line, " \t\r"))
				if v < end {
					start := lo + v
					stop := lo + end
					if q := line[v]; q == '"' || q == '\'' {
						// A quoted value keeps its quotes (the file still
						// reads the same way) and may continue over lines
						// to its closing quote.
						if c := strings.IndexByte(t[lo+v+1:min(len(t), lo+v+1+64<<10)], q); c >= 0 {
							start, stop = lo+v+1, lo+v+1+c
							if nl := strings.IndexByte(t[stop:], '\n'); nl >= 0 {
								next = max(next, stop+nl+1)
							} else {
								next = len(t)
							}
						}
					}
					s.add(start, stop, ruleEnv, 3)
				}
			}
		}
		lo = next
	}
}

// privateKeys redacts -----BEGIN … PRIVATE KEY----- blocks to their END
// line; a block without an END line is redacted over the key lines that
// follow it, and a lone header with no key lines after it is left alone.
// begins are where beginKey occurs in the text, in order (find).
func (s *scan) privateKeys(begins []int) {
	t := s.text
	from := 0
	for _, i := range begins {
		if i < from {
			continue // within a block redacted already
		}
		from = i + len(beginKey)
		j := strings.Index(t[from:min(len(t), from+80)], "-----")
		if j < 0 || j > 64 {
			continue
		}
		label := t[from : from+j]
		if !strings.HasSuffix(label, "PRIVATE KEY") && !strings.HasSuffix(label, "PRIVATE KEY BLOCK") {
			continue
		}
		head := from + j + len("-----")
		endMark := "-----END " + label + "-----"
		if k := strings.Index(t[head:min(len(t), head+64<<10)], endMark); k >= 0 {
			end := head + k + len(endMark)
			s.add(i, end, rulePrivateKey, 0)
			from = end
			continue
		}
		if end := keyBody(t, head); end > head {
			s.add(i, end, rulePrivateKey, 0)
			from = end
		}
	}
}

// keyBody returns where the base64 body that starts at head ends: it
// spans the runs of key characters (base64, \n escapes, quotes, string
// concatenation, header lines) that hold at least 40 base64 bytes; head
// when there is no such body.
func keyBody(t string, head int) int {
	end, b64 := head, 0
	for i := head; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/', c == '=':
			b64++
			end = i + 1
		case c == '\\' && i+1 < len(t) && (t[i+1] == 'n' || t[i+1] == 'r'):
			i++
		case c == ' ', c == '\t', c == '\r', c == '\n', c == '"', c == '\'', c == '`', c == ',', c == ':', c == '-':
		default:
			if b64 >= 40 {
				return end
			}
			return head
		}
	}
	if b64 >= 40 {
		return end
	}
	return head
}

// keyWords split an assignment's key into lowercase words: snake_case,
// kebab-case, dotted and camelCase parts.
func keyWords(key string) []string {
	var words []string
	start := 0
	for i := 0; i <= len(key); i++ {
		split := i == len(key)
		if !split {
			c := key[i]
			if c == '_' || c == '-' || c == '.' || c == ' ' {
				split = true
			} else if i > start && c >= 'A' && c <= 'Z' && key[i-1] >= 'a' && key[i-1] <= 'z' {
				words = append(words, strings.ToLower(key[start:i]))
				start = i
				continue
			}
		}
		if split {
			if i > start {
				words = append(words, strings.ToLower(key[start:i]))
			}
			start = i + 1
		}
	}
	return words
}

// keyRule names the rule of an assignment to key; "" when key names no
// secret.
func keyRule(key string) string {
	words := keyWords(key)
	if len(words) == 0 || nameTail[words[len(words)-1]] {
		return ""
	}
	has := map[string]bool{}
	for _, w := range words {
		has[w] = true
	}
	pair := func(a string, b ...string) bool {
		for i := 0; i+1 < len(words); i++ {
			if words[i] == a {
				for _, x := range b {
					if words[i+1] == x {
						return true
					}
				}
			}
		}
		return false
	}
	secretish := has["secret"] || has["token"] || has["apikey"] || has["credential"] || has["credentials"] ||
		has["secretkey"] || has["accesskey"] || has["privatekey"] || has["authtoken"] || has["accesstoken"] ||
		pair("api", "key", "token", "secret") || pair("access", "key", "token", "secret") || pair("private", "key") ||
		pair("auth", "key", "token") || pair("signing", "key", "secret") || pair("encryption", "key") ||
		pair("client", "secret") || pair("master", "key") || pair("secret", "key")
	// pass, pwd and pw alone are a test's PASS line, the working
	// directory and a writer; with a qualifier (db_pass) they are passwords.
	password := has["password"] || has["passwd"] || has["passphrase"] ||
		(len(words) > 1 && (has["pass"] || has["pwd"] || has["pw"]))
	switch {
	case has["aws"] && (has["secret"] || has["secretkey"]):
		return ruleAWSSecret
	case has["heroku"] && (secretish || password):
		return "heroku-api-key"
	case has["twilio"] && (secretish || password):
		return "twilio-auth-token"
	case has["mailgun"] && (secretish || password):
		return "mailgun-api-key"
	case password:
		return rulePassword
	case secretish:
		return ruleSecret
	}
	return ""
}

// nameTail are last words of keys whose value names or locates a secret
// rather than holding it: password_file, token_uri, TokenName, key_id.
var nameTail = map[string]bool{
	"name": true, "names": true, "path": true, "file": true, "filename": true, "dir": true, "url": true,
	"uri": true, "endpoint": true, "type": true, "kind": true, "field": true, "env": true, "var": true,
	"header": true, "prefix": true, "suffix": true, "format": true, "len": true, "length": true,
	"size": true, "count": true, "id": true, "ids": true, "label": true, "title": true, "description": true,
	"policy": true, "regex": true, "pattern": true, "mode": true, "source": true, "callback": true,
	"magic": true, "version": true, "algorithm": true, "alg": true, "method": true, "scheme": true,
}

// keyedKeywords start the search for assignments; lowercase, matched
// without regard to case.
var keyedKeywords = []string{"pass", "pwd", "pw", "secret", "token", "key", "credential"}

// configExt are the file types whose values are written unquoted; in code
// an unquoted value is an expression, not a secret.
var configExt = map[string]bool{
	".yaml": true, ".yml": true, ".toml": true, ".ini": true, ".cfg": true, ".conf": true,
	".properties": true, ".env": true, ".tf": true, ".tfvars": true, ".hcl": true, ".txt": true,
	".log": true, ".xml": true, ".plist": true, ".cnf": true, ".npmrc": true, ".pypirc": true, "": true,
}

// keyed redacts values assigned to keys that name a secret or password:
// key = "v", key: v, key := "v", "key": "v", key => 'v', key=v&….
func (s *scan) keyed(at []int) {
	t := s.text
	// Config files write values unquoted; so may prose (a prompt, a task:
	// no path); in code an unquoted value is an expression.
	config := s.path != "" && (configExt[path.Ext(s.path)] || IsEnvFile(s.path))
	unquotedOK := config || s.path == ""
	lastKs := -1 // the start of the last key read
	for _, pos := range at {
		// The whole key around the keyword.
		// Keys are short: a long run of key bytes is data, read no further.
		ks := pos
		for ks > 0 && isKeyByte(t[ks-1]) && pos-ks < maxKey {
			ks--
		}
		ke := pos
		for ke < len(t) && isKeyByte(t[ke]) && ke-pos < maxKey {
			ke++
		}
		// Keywords come in text order, so the starts of their keys never
		// go down: a key read already is the last one.
		if ks == lastKs {
			continue
		}
		lastKs = ks
		s.assignment(ks, ke, unquotedOK, config)
	}
}

// maxKey bounds the length of an assignment's key either side of its keyword.
const maxKey = 128

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// assignment reads the value assigned to the key t[ks:ke], if any.
func (s *scan) assignment(ks, ke int, unquotedOK, config bool) {
	t := s.text
	i := ke
	if i < len(t) && (t[i] == '"' || t[i] == '\'') {
		i++ // "key": …
	}
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	// The operator.
	switch {
	case strings.HasPrefix(t[i:], ":="), strings.HasPrefix(t[i:], "=>"):
		i += 2
	case strings.HasPrefix(t[i:], "=="), strings.HasPrefix(t[i:], "=~"):
		return
	case i < len(t) && (t[i] == '=' || t[i] == ':'):
		if t[i] == ':' && i+1 < len(t) && t[i+1] == ':' {
			return // Rust path, C++ scope
		}
		i++
	default:
		return
	}
	// Most keywords are not keys of an assignment; the operator, cheaper
	// to read than the key's words, rules them out first.
	rule := keyRule(strings.Trim(t[ks:ke], ".-"))
	if rule == "" {
		return
	}
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	if i >= len(t) {
		return
	}
	var start, end int
	quoted := false
	// A value quoted inside a string (a notebook cell's JSON source:
	// "pw = \"…\"") opens with an escaped quote and closes with one.
	open := t[i : i+1]
	if t[i] == '\\' && i+1 < len(t) && (t[i+1] == '"' || t[i+1] == '\'') {
		open = t[i : i+2]
	}
	switch q := t[i]; {
	case q == '"', q == '\'', q == '`', len(open) == 2:
		start = i + len(open)
		// The closing quote is on the same line, not far.
		lim := min(len(t), start+maxLine)
		if nl := strings.IndexByte(t[start:lim], '\n'); nl >= 0 {
			lim = start + nl
		}
		c := strings.Index(t[start:lim], open)
		if c < 0 {
			return
		}
		end = start + c
		quoted = true
	default:
		start = i
		end = i
		for end < len(t) && end-start < maxLine && !strings.ContainsRune(" \t\r\n,;&)]}'\"#", rune(t[end])) {
			end++
		}
		// In code an unquoted value is an expression, unless it can only
		// be a key (long, random, of key characters).
		if !unquotedOK && !tokenLike(t[start:end]) {
			return
		}
		// Anywhere, a dotted name (cfg.APIKey2), a call, an index or a
		// composite literal is code, and a bare word is a name.
		v := t[start:end]
		if dottedName(v) || strings.ContainsAny(v, "()[]{}<>") {
			return
		}
		if c := classesOf(v); !config && !c.digit && !c.other {
			return
		}
	}
	v := t[start:end]
	if strings.Contains(strings.ToLower(v), strings.ToLower(strings.Trim(t[ks:ke], ".-"))) {
		return // an enum's name as its value: encodeUserPassword: "encodeUserPassword"
	}
	if !plausible(rule, v, quoted) {
		return
	}
	prio := 1
	if rule == rulePassword || rule == ruleSecret {
		prio = 2
	}
	s.add(start, end, rule, prio)
}

// tokenLike reports whether v can only be a key: 20 or more characters
// of base64 or hex with upper case, lower case and digits, and at least
// 4 bits of entropy per byte.
func tokenLike(v string) bool {
	if len(v) < 20 {
		return false
	}
	if strings.Trim(v, "+/=-_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" {
		return false
	}
	c := classesOf(v)
	return c.lower && c.upper && c.digit && entropy(v) >= 4.0
}

// dottedName reports whether v is a name selected from a name: a.b, a.b.c.
func dottedName(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || !(p[0] == '_' || p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z') ||
			strings.Trim(p, "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" {
			return false
		}
	}
	return true
}

// classes are the kinds of characters a value holds.
type classes struct{ lower, upper, digit, space, other, control bool }

func classesOf(v string) classes {
	var c classes
	for i := 0; i < len(v); i++ {
		switch b := v[i]; {
		case b >= 'a' && b <= 'z':
			c.lower = true
		case b >= 'A' && b <= 'Z':
			c.upper = true
		case b >= '0' && b <= '9':
			c.digit = true
		case b == ' ':
			c.space = true
		case b < ' ' || b > '~':
			c.control = true
		default:
			c.other = true
		}
	}
	return c
}

// placeholders are values that stand for a secret without being one.
var placeholders = []string{
	"${", "{{", "$(", "%(", "%s", "%v", "%d", "<", ">", "***", "xxxx", "....", "…",
	"example", "placeholder", "changeme", "change_me", "change-me", "your_", "your-", "dummy", "redacted",
	"process.env", "os.environ", "getenv", "env(", "env.", "secrets.", "vault:", "none", "null", "undefined",
}

// plausible reports whether v, assigned to a key of rule, looks like a
// secret rather than code, a placeholder or a word.
func plausible(rule, v string, quoted bool) bool {
	low := strings.ToLower(v)
	for _, p := range placeholders {
		if strings.Contains(low, p) {
			return false
		}
	}
	if !quoted && (strings.HasPrefix(v, "$") || strings.HasPrefix(v, "!") || strings.HasPrefix(v, "*") || strings.HasPrefix(v, "&") || strings.HasPrefix(v, "|") || strings.HasPrefix(v, "[") || strings.HasPrefix(v, "{")) {
		return false // a variable, a YAML tag, alias, anchor or block, a list or table
	}
	switch low {
	case "true", "false", "yes", "no", "on", "off", "required", "optional", "string", "secret", "password", "token", "test", "hidden":
		return false
	}
	if rule != rulePassword && (strings.HasPrefix(low, "urn:") || strings.Contains(low, "://") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./")) {
		return false // a name, a URL or a path
	}
	c := classesOf(v)
	if c.control || (c.space && rule != rulePassword) {
		return false // binary, or prose rather than a key
	}
	lower, upper, digit, other := c.lower, c.upper, c.digit, c.other || c.space
	e := entropy(v)
	switch rule {
	case rulePassword:
		if len(v) < 6 {
			return false
		}
		// A password is a mixed string; a lone word is a name or a label.
		return (digit || other || (lower && upper)) && e >= 2.3
	case ruleAWSSecret:
		return len(v) >= 30 && e >= 3.5
	default:
		if len(v) < 12 {
			return false
		}
		if !digit {
			return false // identifiers, names and words
		}
		return e >= 3.3 && (lower || upper)
	}
}
