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
		hi := lineEnd(t, lo)
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
					if !markedPlaceholder(t[start:stop]) {
						s.add(start, stop, ruleEnv, 3)
					}
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
	// directory and a writer. They name a password with a qualifier before them
	// (db_pass, MYSQL_PWD), at the key's end or before a word that says
	// how it is written (pass_word, pwd_b64); elsewhere they are another
	// word (onePassSignatureDataHex: a one-pass signature).
	password := false
	for i, w := range words {
		password = password || passwordWords[w] ||
			i > 0 && (w == "pass" || w == "pwd" || w == "pw") && (i == len(words)-1 || passTail[words[i+1]])
	}
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

// passTail are the words after pass, pwd or pw that keep them a password.
var passTail = map[string]bool{"word": true, "phrase": true, "value": true, "plain": true, "plaintext": true, "b64": true, "base64": true, "enc": true}

// passwordWords are words that name a password alone: password, and the
// one-word names of tools' password variables and options (PGPASSWORD,
// SSHPASS, keytool's -storepass, openssl's -passin, redis' requirepass).
var passwordWords = map[string]bool{
	"password": true, "passwd": true, "passphrase": true, "pgpassword": true, "sshpass": true,
	"storepass": true, "keypass": true, "srcstorepass": true, "deststorepass": true, "srckeypass": true,
	"destkeypass": true, "passin": true, "passout": true, "requirepass": true, "masterauth": true,
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

// keyed redacts values assigned to keys that name a secret or password:
// key = "v", key: v, key := "v", "key": "v", key => 'v', key=v&…, and the
// forms without an operator (--password v, a .netrc's password v, ENV key
// v, PASSWORD 'v', <password>v</password>, a directive of a .conf file).
func (s *scan) keyed(at []int) {
	t := s.text
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
		s.assignment(ks, ke)
	}
}

// maxKey bounds the length of an assignment's key either side of its keyword.
const maxKey = 128

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// literalKind reports whether the file writes values unquoted as
// literals, bare words included (config, shell, .env).
func (s *scan) literalKind() bool {
	return s.kind == KindConfig || s.kind == KindShell || s.kind == KindEnv
}

// assignment reads the value assigned to the key t[ks:ke], if any.
func (s *scan) assignment(ks, ke int) {
	t := s.text
	i := ke
	var keyQuote byte
	if i < len(t) && (t[i] == '"' || t[i] == '\'') {
		keyQuote = t[i]
		i++ // "key": …
		if i < len(t) && t[i] == ']' && ks > 1 && t[ks-1] == keyQuote && t[ks-2] == '[' {
			i++ // os.environ["KEY"] = …, $cfg['key'] = …
		}
	}
	after := i
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	op := i
	// The operator.
	switch {
	case strings.HasPrefix(t[i:], ":="), strings.HasPrefix(t[i:], "=>"), strings.HasPrefix(t[i:], "?="):
		i += 2
	case strings.HasPrefix(t[i:], "=="), strings.HasPrefix(t[i:], "=~"):
		return
	case i < len(t) && (t[i] == '=' || t[i] == ':'):
		if t[i] == ':' && i+1 < len(t) && t[i+1] == ':' {
			return // Rust path, C++ scope
		}
		i++
	case i == ke && i < len(t) && t[i] == '>' && ks > 0 && t[ks-1] == '<':
		s.xmlElement(ks, ke)
		return
	default:
		s.bare(ks, ke, keyQuote, after)
		return
	}
	// Most keywords are not keys of an assignment; the operator, cheaper
	// to read than the key's words, rules them out first.
	key := strings.Trim(t[ks:ke], ".-")
	rule := keyRule(key)
	// An option takes its value after '=' (--password=…); "-password": 1
	// is a map's key.
	flag := isFlag(t, ks) && t[op] == '=' && keyQuote == 0
	if t[op] == '=' && (rule == rulePassword || rule == "" && connPasswordKey(key)) {
		// Password=… of a key=value connection string, or ?password=… of a URL.
		if sep, ok := s.connString(ks); ok {
			s.connValue(i, sep)
			return
		}
	}
	if rule == "" {
		return
	}
	if flag && rule == rulePassword {
		rule = ruleCLI
	}
	if t[op] == '=' && op == ke && keyQuote == 0 && i < len(t) && ks > 0 && t[ks-1] == t[i] && (t[i] == '"' || t[i] == '\'') {
		return // "password=" + pw: the key ends a string, the value is an expression
	}
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	if i >= len(t) {
		return
	}
	i += stringPrefix(t[i:])
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
		end = unquotedEnd(t, i)
		v := t[start:end]
		// In code an unquoted value is an expression, unless it can only
		// be a key (long, random, of key characters), it is a flag's (a
		// command line in a string) or it is set before a command
		// (PGPASSWORD=… psql).
		if s.kind == KindCode && !flag && !tokenLike(v) && !envPrefix(t, ks, ke, op, end) {
			return
		}
		// Anywhere, a dotted name (cfg.APIKey2), a call, an index or a
		// composite literal is code, and a bare word is a name; but a
		// config file's or an option's value with a digit is a literal
		// (password: Abc1.Def2).
		if dottedName(v) && !((flag || s.literalKind()) && strings.ContainsAny(v, "0123456789")) || strings.ContainsAny(v, "()[]{}<>") {
			return
		}
		if c := classesOf(v); !s.literalKind() && !flag && !c.digit && !c.other {
			return
		}
	}
	v := t[start:end]
	if flag {
		if p, ok := strings.CutPrefix(v, "pass:"); ok {
			start += len("pass:") // openssl -passin pass:…
			v = p
		}
		if s.flagValue(rule, v) {
			s.add(start, end, rule, 1)
		}
		return
	}
	if strings.Contains(strings.ToLower(v), strings.ToLower(key)) {
		return // an enum's name as its value: encodeUserPassword: "encodeUserPassword"
	}
	if !plausible(rule, v, quoted) {
		return
	}
	s.add(start, end, rule, keyedPrio(rule))
}

// keyedPrio is the priority of an assignment's span: a vendor's rule names
// a secret better than password or secret does.
func keyedPrio(rule string) int {
	if rule == rulePassword || rule == ruleSecret {
		return 2
	}
	return 1
}

// unquotedEnd is where the unquoted value at t[i:] ends: at a blank, a
// quote, a separator or a bracket, or a '#' after a blank (a comment).
func unquotedEnd(t string, i int) int {
	end := i
	for end < len(t) && end-i < maxLine {
		c := t[end]
		if c == '#' && end > i && t[end-1] != ' ' && t[end-1] != '\t' {
			end++
			continue
		}
		if strings.IndexByte(" \t\r\n,;&)]}'\"#\\", c) >= 0 {
			break
		}
		end++
	}
	return end
}

// stringPrefix is the length of what opens a string literal before its
// quote at the start of v: Python's b"…", r'…', rb"…", C#'s @"…", Go's
// []byte("…"); 0 when there is none.
func stringPrefix(v string) int {
	for _, p := range []string{"[]byte(", "b", "B", "r", "R", "u", "U", "br", "rb", "Br", "bR", "Rb", "rB", "@"} {
		if len(v) > len(p) && v[:len(p)] == p && (v[len(p)] == '"' || v[len(p)] == '\'' || p == "[]byte(" && v[len(p)] == '`') {
			return len(p)
		}
	}
	return 0
}

// isFlag reports whether the key at t[ks:] is a command-line option:
// -key or --key after a blank, a quote, a bracket or a line start.
func isFlag(t string, ks int) bool {
	if ks >= len(t) || t[ks] != '-' {
		return false
	}
	return ks == 0 || strings.IndexByte(" \t\n\"'`[(,=", t[ks-1]) >= 0
}

// envPrefix reports whether KEY=value at t[ks:end] sets a variable for the
// command that follows it (PGPASSWORD=… psql), which code cannot be.
func envPrefix(t string, ks, ke, op, end int) bool {
	if op != ke || end+1 >= len(t) || t[end] != ' ' || t[end+1] < 'a' || t[end+1] > 'z' {
		return false
	}
	for i := ks; i < ke; i++ {
		if c := t[i]; c >= 'a' && c <= 'z' {
			return false
		}
	}
	return true
}

// bare reads the forms of an assignment without an operator: a flag and
// its value, a .netrc's password, SQL's PASSWORD 'v', a Dockerfile's ENV
// key v, an XML key attribute and its value attribute, a directive of a
// .conf file. after is where the key (and its closing quote) ends.
func (s *scan) bare(ks, ke int, keyQuote byte, after int) {
	t := s.text
	if after >= len(t) {
		return
	}
	if isFlag(t, ks) {
		s.flagSpaced(ks, ke, keyQuote, after)
		return
	}
	if s.nameValue(ks, ke, keyQuote, after) {
		return
	}
	if keyQuote != 0 {
		if !s.callPair(ks, ke, keyQuote, after) {
			s.xmlValueAttr(ks, ke, keyQuote, after)
		}
		return
	}
	if t[after] != ' ' && t[after] != '\t' {
		return
	}
	key := t[ks:ke]
	if key == "password" || key == "passwd" {
		if s.netrcPassword(ks, after) {
			return
		}
	}
	if strings.EqualFold(key, "password") {
		s.sqlPassword(ks, after)
		return
	}
	lo, _ := s.lineAt(ks)
	lead := strings.TrimLeft(t[lo:ks], " \t")
	switch {
	case s.kind == KindShell && (lead == "ENV " || lead == "ENV\t"):
		s.restOfLine(ks, ke, after) // Dockerfile: ENV DB_PASSWORD s3cret
	case lead == "" && s.kind == KindConfig && directiveFile(s.path):
		s.restOfLine(ks, ke, after) // redis.conf: requirepass s3cret
	}
}

// nameValue reads an environment entry whose name is the key t[ks:ke]
// and whose value follows it: name: DB_PASSWORD then value: v on the next
// line at the same column (Kubernetes, Compose), "name": "DB_PASSWORD",
// "value": "v" in JSON. It reports whether the key is such a name.
func (s *scan) nameValue(ks, ke int, keyQuote byte, after int) bool {
	t := s.text
	j := ks
	if keyQuote != 0 {
		if j == 0 || t[j-1] != keyQuote {
			return false
		}
		j--
	}
	for j > 0 && t[j-1] == ' ' {
		j--
	}
	if j == 0 || t[j-1] != ':' {
		return false
	}
	j--
	if j > 0 && t[j-1] == '"' {
		j--
	}
	if !strings.HasSuffix(t[:j], "name") {
		return false
	}
	rule := keyRule(t[ks:ke])
	if rule == "" {
		return true
	}
	var start, end int
	if keyQuote == '"' && t[j] == '"' {
		// JSON: , "value": "v"
		i := after
		for i < len(t) && (isBlank(t[i]) || t[i] == ',') && i-after < 64 {
			i++
		}
		v, at := jsonMember(t[i:min(len(t), i+maxLine)], `"`, "value")
		if at != len(`"value": "`) && !strings.HasPrefix(t[i:], `"value"`) {
			return true
		}
		start, end = i+at, i+at+len(v)
	} else {
		// YAML: the next line holds value: at the column of name.
		lo, hi := s.lineAt(ks)
		col := j - 4 - lo
		rest := strings.TrimRight(t[after:hi], " \t\r")
		if rest != "" && rest != string(keyQuote) || hi+1 >= len(t) {
			return true
		}
		nlo, nhi := s.lineAt(hi + 1)
		line := t[nlo:nhi]
		if len(line) <= col+len("value: ") || strings.TrimLeft(line[:col], " ") != "" || !strings.HasPrefix(line[col:], "value: ") {
			return true
		}
		start = nlo + col + len("value: ")
		end = nlo + len(strings.TrimRight(line, " \t\r"))
		if end-start >= 2 && (t[start] == '"' || t[start] == '\'') && t[end-1] == t[start] {
			start, end = start+1, end-1
		}
	}
	if v := t[start:end]; start < end && plausible(rule, v, true) {
		s.add(start, end, rule, keyedPrio(rule))
	}
	return true
}

// masterauth redacts redis.conf's masterauth directive, the one password
// directive whose name holds no keyword of an assignment (requirepass
// holds pass); only .conf files are read for it.
func (s *scan) masterauth() {
	t := s.text
	for from := 0; ; {
		i := strings.Index(t[from:], "masterauth")
		if i < 0 {
			return
		}
		i += from
		from = i + len("masterauth")
		if lo, _ := s.lineAt(i); strings.TrimLeft(t[lo:i], " \t") == "" && from < len(t) && (t[from] == ' ' || t[from] == '\t') {
			s.restOfLine(i, from, from)
		}
	}
}

// directiveFile reports whether p is a config file written as "key value"
// lines (redis.conf, my.cnf, sshd_config).
func directiveFile(p string) bool {
	switch path.Ext(p) {
	case ".conf", ".cnf", ".cfg", "":
		return true
	}
	return false
}

// restOfLine redacts the one word after the key t[ks:ke] when it is the
// rest of the line: ENV key value, a directive.
func (s *scan) restOfLine(ks, ke, after int) {
	t := s.text
	rule := keyRule(strings.Trim(t[ks:ke], ".-"))
	if rule == "" {
		return
	}
	_, hi := s.lineAt(ks)
	v := strings.TrimSpace(t[after:hi])
	if v == "" || strings.ContainsAny(v, " \t") {
		return // prose, or a list of words
	}
	start := after + strings.Index(t[after:hi], v)
	end := start + len(v)
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		start, end, v = start+1, end-1, v[1:len(v)-1]
	}
	if plausible(rule, v, true) && !strings.EqualFold(v, t[ks:ke]) {
		s.add(start, end, rule, keyedPrio(rule))
	}
}

// xmlElement reads <password>v</password>.
func (s *scan) xmlElement(ks, ke int) {
	t := s.text
	rule := keyRule(t[ks:ke])
	if rule == "" {
		return
	}
	start := ke + 1
	_, hi := s.lineAt(start)
	c := strings.IndexByte(t[start:hi], '<')
	if c < 0 || !strings.HasPrefix(t[start+c:], "</"+t[ks:ke]+">") {
		return
	}
	v := t[start : start+c]
	if plausible(rule, v, true) {
		s.add(start, start+c, rule, keyedPrio(rule))
	}
}

// callPair reads a call whose first two arguments are the key and its
// value, both quoted: os.Setenv("DB_PASSWORD", "v"), define('DB_PASSWORD',
// 'v'), System.setProperty("db.password", "v"), m.put("token", "v").
func (s *scan) callPair(ks, ke int, q byte, after int) bool {
	t := s.text
	j := ks - 1 // the key's opening quote
	if j < 1 || t[j] != q {
		return false
	}
	for j > 0 && t[j-1] == ' ' {
		j--
	}
	if j == 0 || t[j-1] != '(' {
		return false
	}
	i := after
	for i < len(t) && t[i] == ' ' {
		i++
	}
	if i >= len(t) || t[i] != ',' {
		return false
	}
	i++
	for i < len(t) && t[i] == ' ' {
		i++
	}
	start, end, ok := wordAt(t, i)
	if !ok || start == i {
		return true // not a string: a variable, a call
	}
	rule := keyRule(strings.Trim(t[ks:ke], ".-"))
	if v := t[start:end]; rule != "" && plausible(rule, v, true) && !strings.EqualFold(v, t[ks:ke]) {
		s.add(start, end, rule, keyedPrio(rule))
	}
	return true
}

// xmlValueAttr reads key="DbPassword" value="v" (.NET's appSettings): the
// key t[ks:ke] is the value of a key or name attribute and the next
// attribute is value.
func (s *scan) xmlValueAttr(ks, ke int, q byte, after int) {
	t := s.text
	if ks < 5 || t[ks-1] != q || !(strings.HasSuffix(t[:ks-1], "key=") || strings.HasSuffix(t[:ks-1], "name=")) {
		return
	}
	rule := keyRule(t[ks:ke])
	if rule == "" {
		return
	}
	i := after
	for i < len(t) && t[i] == ' ' {
		i++
	}
	if !strings.HasPrefix(t[i:], "value=") || i+6 >= len(t) || (t[i+6] != '"' && t[i+6] != '\'') {
		return
	}
	start := i + 7
	_, hi := s.lineAt(start)
	c := strings.IndexByte(t[start:hi], t[i+6])
	if c < 0 {
		return
	}
	if v := t[start : start+c]; plausible(rule, v, true) {
		s.add(start, start+c, rule, keyedPrio(rule))
	}
}

// sqlPassword reads SQL's PASSWORD 'v' (CREATE USER … WITH PASSWORD 'v',
// ALTER ROLE … PASSWORD 'v'): the line names a user, role or login.
func (s *scan) sqlPassword(ks, after int) {
	t := s.text
	i := after
	for i < len(t) && t[i] == ' ' {
		i++
	}
	if i >= len(t) || t[i] != '\'' {
		return
	}
	lo, hi := s.lineAt(ks)
	head := strings.ToUpper(t[lo:ks])
	if !strings.Contains(head, "USER") && !strings.Contains(head, "ROLE") && !strings.Contains(head, "LOGIN") {
		return
	}
	c := strings.IndexByte(t[i+1:hi], '\'')
	if c < 0 {
		return
	}
	if v := t[i+1 : i+1+c]; slotValue(v, "") {
		s.add(i+1, i+1+c, rulePassword, 2)
	}
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
		if len(v) < 6 || etcPasswd(v) {
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

// etcPasswd reports whether v is the path of a file (/etc/passwd) or a
// line of /etc/passwd (root:x:0:0:…): what a key named passwd holds as
// often as a password.
func etcPasswd(v string) bool {
	if v[0] == '/' && strings.Count(v, "/") > 1 && strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-") == "" {
		return true
	}
	_, rest, ok := strings.Cut(v, ":x:")
	return ok && rest != "" && rest[0] >= '0' && rest[0] <= '9'
}

// placeholderWords are whole values that stand for a password in
// documentation, examples and tests.
var placeholderWords = map[string]bool{
	"password": true, "passwd": true, "pass": true, "pwd": true, "secret": true, "token": true, "apikey": true,
	"api_key": true, "key": true, "changeme": true, "changeit": true, "test": true, "testing": true,
	"hidden": true, "none": true, "null": true, "nil": true, "undefined": true, "string": true, "value": true,
	"foo": true, "bar": true, "foobar": true, "baz": true, "tiger": true, "sample": true, "mypassword": true,
	"mysecret": true, "yourpassword": true, "p@ssw0rd": true, "p@ssword": true, "passw0rd": true,
	"password1": true, "password123": true, "secret123": true, "true": true, "false": true,
}

// placeholderValue reports whether v, found where a password goes (after
// Password= of a connection string, in user:v@tcp(…), after -p of a
// command), stands for one: a variable, a template, a format verb, a word
// of the docs (password, changeme, <password>, ***), a NAME in capitals.
func placeholderValue(v string) bool {
	if v == "" || markedPlaceholder(v) {
		return true
	}
	switch v[0] {
	case '%', '[', '-', '(', '@', '#':
		return true
	}
	// A word of the docs, or one numbered: password1, pwd2, value-2; a
	// test's value (test-password, testUser1).
	low := strings.ToLower(v)
	if placeholderWords[strings.TrimRight(low, "0123456789-_.")] || strings.HasPrefix(low, "test") ||
		strings.Contains(low, "password") || strings.Contains(low, "passwd") {
		return true
	}
	// Words with a word of the docs among them: "My Pass".
	if strings.Contains(v, " ") {
		for _, w := range strings.Fields(low) {
			if placeholderWords[w] {
				return true
			}
		}
	}
	caps, same := true, true
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'A' && c <= 'Z' || c == '_') {
			caps = false
		}
		if c != v[0] {
			same = false
		}
	}
	return caps || same
}

// markedPlaceholder reports whether v is marked as standing for a value:
// a variable or a template ($X, ${X}, {{x}}), <angle brackets>, ***, the
// docs' words (changeme, your_…, example, placeholder).
func markedPlaceholder(v string) bool {
	if v == "" {
		return false
	}
	switch v[0] {
	case '$', '<', '{', '*':
		return true
	}
	low := strings.ToLower(v)
	for _, p := range []string{"${", "$(", "{{", "}}", "<", ">", "***", "...", "…", "xxxx", "example",
		"placeholder", "changeme", "change_me", "change-me", "your_", "your-", "yourpass", "redacted", "dummy",
		"sesame", "process.env", "os.environ", "getenv"} {
		if strings.Contains(low, p) {
			return true
		}
	}
	return low == "changeit"
}

// slotValue reports whether v, found where a password goes, is one: four
// bytes or more, not the user's name, not a placeholder.
func slotValue(v, user string) bool {
	return len(v) >= 4 && v != user && !placeholderValue(v)
}
