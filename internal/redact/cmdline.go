package redact

import (
	"path"
	"slices"
	"sort"
	"strings"
)

// Credentials on command lines: options that name a password or a secret
// (--password p, --db-password=p, -storepass p, -passin pass:p, in a
// shell script, a Makefile, a CI file, a string of code or the docs), the
// short options of the tools that take a password (mysql -pP, sshpass -p
// P, curl -u user:P, docker login -p P, redis-cli -a P …), and a .netrc's
// machine H login L password P.

// flagSecretWords are the last words of options whose value is a secret:
// --password, --db-pass, --api-key, --client-secret, --token.
var flagSecretWords = map[string]bool{
	"password": true, "passwd": true, "pass": true, "pwd": true, "passphrase": true, "secret": true,
	"token": true, "key": true, "apikey": true, "credential": true, "credentials": true, "storepass": true,
	"keypass": true, "srcstorepass": true, "deststorepass": true, "passin": true, "passout": true,
	"pgpassword": true, "sshpass": true, "requirepass": true, "masterauth": true,
}

// flagSpaced reads an option and the value after a blank (--password p),
// or after a comma in a list of arguments ("--password", "p").
func (s *scan) flagSpaced(ks, ke int, keyQuote byte, after int) {
	t := s.text
	key := strings.TrimLeft(t[ks:ke], "-")
	words := keyWords(key)
	if len(words) > 1 && words[len(words)-1] == "stdin" && flagSecretWords[words[len(words)-2]] {
		s.piped(ks) // echo p | docker login --password-stdin
		return
	}
	if len(words) == 0 || !flagSecretWords[words[len(words)-1]] {
		return
	}
	rule := keyRule(key)
	if rule == "" && key != "pass" {
		return
	}
	if rule == "" || rule == rulePassword {
		rule = ruleCLI
	}
	i := after
	if keyQuote != 0 {
		for i < len(t) && t[i] == ' ' {
			i++
		}
		if i >= len(t) || t[i] != ',' {
			return
		}
		i++
	}
	if i >= len(t) || (t[i] != ' ' && t[i] != '\t' && keyQuote == 0) {
		return
	}
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	start, end, ok := wordAt(t, i)
	if !ok || keyQuote != 0 && start == i {
		return // in a list, the value is a string too
	}
	v := t[start:end]
	if p, ok := strings.CutPrefix(v, "pass:"); ok {
		start += len("pass:") // openssl -passin pass:…
		v = p
	} else if key == "pass" || key == "passin" || key == "passout" {
		return // openssl's env:, file:, fd:, stdin
	}
	if s.flagValue(rule, v) {
		s.add(start, end, rule, 1)
	}
}

// piped redacts the word an echo or printf writes into the pipe of the
// command whose --password-stdin option starts at ks: echo p | docker
// login --password-stdin. A variable ($P) is a variable.
func (s *scan) piped(ks int) {
	t := s.text
	lo, _ := s.lineAt(ks)
	bar := strings.LastIndexByte(t[lo:ks], '|')
	if bar < 0 {
		return
	}
	head := strings.TrimRight(t[lo:lo+bar], " \t")
	for _, cmd := range []string{"echo ", "echo -n ", "printf ", "printf '%s' ", "printf \"%s\" "} {
		i := strings.LastIndex(head, cmd)
		if i < 0 {
			continue
		}
		w := lo + i + len(cmd)
		for w < len(t) && t[w] == ' ' {
			w++
		}
		start, end, ok := wordAt(t, w)
		if !ok || end > lo+bar {
			return
		}
		// The word is all the echo writes.
		rest := strings.TrimSpace(t[end : lo+bar])
		if (rest == "" || rest == `"` || rest == "'") && slotValue(t[start:end], "") {
			s.add(start, end, ruleCLI, 0)
		}
		return
	}
}

// wordAt is the word at t[i:]: the inside of a quoted string ('…', "…",
// \"…\" in a notebook's JSON), else the bytes up to a blank, a quote or a
// shell operator. ok is false when there is no word.
func wordAt(t string, i int) (start, end int, ok bool) {
	if i >= len(t) {
		return 0, 0, false
	}
	open := t[i : i+1]
	if t[i] == '\\' && i+1 < len(t) && (t[i+1] == '"' || t[i+1] == '\'') {
		open = t[i : i+2]
	}
	if open[len(open)-1] == '"' || open[len(open)-1] == '\'' {
		start = i + len(open)
		lim := min(len(t), start+256)
		if nl := strings.IndexByte(t[start:lim], '\n'); nl >= 0 {
			lim = start + nl
		}
		c := strings.Index(t[start:lim], open)
		if c <= 0 {
			return 0, 0, false
		}
		return start, start + c, true
	}
	end = i
	for end < len(t) && end-i < 256 && strings.IndexByte(" \t\r\n\"'`\\;|&)<>,]", t[end]) < 0 {
		end++
	}
	return i, end, end > i
}

// flagValue reports whether v, the value of an option of rule, is a
// secret. A shell or config file's word is a value whatever it is; in
// code and prose a lone word is more often the docs' (--password value).
func (s *scan) flagValue(rule, v string) bool {
	if rule != ruleCLI {
		return plausible(rule, v, true)
	}
	if !slotValue(v, "") {
		return false
	}
	if s.literalKind() {
		return true
	}
	c := classesOf(v)
	return c.digit || c.other || c.lower && c.upper
}

// netrcPassword reads the password token at t[ks:] of a .netrc entry,
// machine H login L password P: in a .netrc file, or after machine H and
// its login on the lines before (a heredoc, a Dockerfile's echo).
func (s *scan) netrcPassword(ks, after int) bool {
	t := s.text
	if b := path.Base(s.path); b != ".netrc" && b != "_netrc" && b != "netrc" && !netrcBefore(t, ks) {
		return false
	}
	i := after
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	start, end, ok := wordAt(t, i)
	if !ok {
		return true
	}
	if slotValue(t[start:end], "") {
		s.add(start, end, ruleNetrc, 1)
	}
	return true
}

// netrcBefore reports whether the tokens before t[ks:] are those of a
// .netrc entry: pairs of a keyword (login, account, port) and its value,
// back to machine and a host name, or to default.
func netrcBefore(t string, ks int) bool {
	end := ks
	lim := max(0, ks-1024)
	tok := func() string {
		for end > lim && isBlank(t[end-1]) {
			end--
		}
		e := end
		for end > lim && !isBlank(t[end-1]) {
			end--
		}
		return strings.Trim(t[end:e], "\"'`")
	}
	for range 4 {
		v := tok()
		if v == "default" {
			return true
		}
		switch tok() {
		case "machine":
			return v == "localhost" || strings.ContainsAny(v, ".:")
		case "login", "account", "port":
		default:
			return false
		}
	}
	return false
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// A command's option that carries a credential, and how: userPass is
// user:password (curl -u), with sep between them; attached is glued to
// the option only (mysql -pP); otherwise the value is glued or the next
// word (sshpass -p P).
type cmdOption struct {
	opt      string
	attached bool
	userPass byte
}

// command is a tool whose short options carry a password: its name (a
// name ending in '*' also stands for the names it starts: mysql* is
// mysqldump and mysqladmin too), the part of the name the keyword pass
// looks for (one whose first two bytes are rare in text, or the first two
// of another keyword: most pairs of bytes cost nothing until a keyword
// starts with them), and its options.
type command struct {
	name, trigger string
	opts          []cmdOption
}

var commands = []command{
	{"curl", "curl", []cmdOption{{opt: "-u", userPass: ':'}, {opt: "--user", userPass: ':'}, {opt: "-U", userPass: ':'}, {opt: "--proxy-user", userPass: ':'}, {opt: "--oauth2-bearer"}}},
	{"mysql*", "mysql", []cmdOption{{opt: "-p", attached: true}}},
	{"mariadb*", "iadb", []cmdOption{{opt: "-p", attached: true}}},
	{"sshpass", "shpass", []cmdOption{{opt: "-p"}}},
	{"redis-cli", "s-cli", []cmdOption{{opt: "-a"}, {opt: "--pass"}}},
	{"login", "gin ", []cmdOption{{opt: "-p"}}}, // docker login, az login
	{"ldap*", "dap", []cmdOption{{opt: "-w"}}},
	{"mongo*", "mongo", []cmdOption{{opt: "-p"}}},
	{"sqlcmd", "sqlcmd", []cmdOption{{opt: "-P"}}},
	{"bcp", "bcp", []cmdOption{{opt: "-P"}}},
	{"mosquitto_*", "mosquitto_", []cmdOption{{opt: "-P"}}},
	{"zip", "zip", []cmdOption{{opt: "-P"}}},
	{"unzip", "nzip", []cmdOption{{opt: "-P"}}},
	{"7z", "7z", []cmdOption{{opt: "-p", attached: true}}},
	{"smbclient", "smbclient", []cmdOption{{opt: "-U", userPass: '%'}, {opt: "--user", userPass: '%'}}},
	{"lftp", "lftp", []cmdOption{{opt: "-u", userPass: ','}}},
	{"sqlplus", "sqlplus", nil}, // user/password@db, the first argument
	{"htpasswd", "passwd", nil}, // -b file user password
}

// commandKeywords are the trigger keywords of the command rule.
func commandKeywords() []string {
	var kw []string
	for _, c := range commands {
		kw = append(kw, c.trigger)
	}
	sort.Strings(kw)
	return slices.Compact(kw)
}

// commandAt redacts the credentials of the command whose name starts at
// pos, in the words of its command line (continued over lines ending in
// '\'), up to a shell operator or the line's end.
func commandAt(s *scan, pos int) {
	t := s.text
	pos, name, opts, ok := commandNamed(t, pos)
	if !ok || pos > 0 && strings.IndexByte(" \t\n\"'`([,/|;&=!$:", t[pos-1]) < 0 {
		return
	}
	i := pos + len(name)
	if name == "login" {
		// docker login, podman login, az login: a tool before it.
		j := pos - 1
		for j >= 0 && (t[j] == ' ' || t[j] == '\t') {
			j--
		}
		if j < 0 || j == pos-1 || !isUserByte(t[j]) {
			return
		}
	}
	var words [][2]int
	if q := t[i]; pos > 0 && t[pos-1] == q && (q == '"' || q == '\'') {
		words = argList(t, i+1) // ["mysql", "-pP"]
	} else {
		words = commandWords(t, i)
	}
	switch name {
	case "sqlplus":
		for _, w := range words {
			v := t[w[0]:w[1]]
			if strings.HasPrefix(v, "-") {
				continue
			}
			if sl := strings.IndexByte(v, '/'); sl > 0 {
				pw := v[sl+1:]
				if at := strings.IndexByte(pw, '@'); at >= 0 {
					pw = pw[:at]
				}
				if slotValue(pw, v[:sl]) {
					s.add(w[0]+sl+1, w[0]+sl+1+len(pw), ruleCLI, 0)
				}
			}
			return
		}
		return
	case "htpasswd":
		batch, n := false, 0
		for _, w := range words {
			v := t[w[0]:w[1]]
			if strings.HasPrefix(v, "-") {
				batch = batch || strings.ContainsAny(v, "b")
				if strings.ContainsAny(v, "n") {
					n = 1 // -n: no file, user then password
				}
				continue
			}
			if n == 2 && batch && slotValue(v, "") {
				s.add(w[0], w[1], ruleCLI, 0)
			}
			n++
		}
		return
	}
	for k, w := range words {
		v := t[w[0]:w[1]]
		for _, o := range opts {
			start := -1
			switch {
			case v == o.opt && !o.attached && k+1 < len(words):
				start = words[k+1][0]
				v = t[start:words[k+1][1]]
			case strings.HasPrefix(v, o.opt) && len(v) > len(o.opt) && len(o.opt) == 2:
				start = w[0] + 2 // -pP, -uuser:P
				v = v[2:]
			case strings.HasPrefix(v, o.opt+"=") && len(o.opt) > 2:
				start = w[0] + len(o.opt) + 1 // --user=user:P
				v = v[len(o.opt)+1:]
			default:
				continue
			}
			if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
				start, v = start+1, v[1:len(v)-1] // -p'P'
			}
			if o.userPass == 0 {
				if slotValue(v, "") {
					s.add(start, start+len(v), ruleCLI, 0)
				}
				continue
			}
			user, pw, ok := strings.Cut(v, string(o.userPass))
			switch {
			case ok && slotValue(pw, user):
				s.add(start+len(user)+1, start+len(v), ruleCLI, 0)
			case ok && pw == "" && tokenLike(user):
				s.add(start, start+len(user), ruleCLI, 0) // an API key as the user: curl -u sk_…:
			}
		}
	}
}

// commandNamed returns the command whose trigger is at t[pos:]: where
// its name starts, the name as called, its options, and whether a name
// ends there (a blank or a quote follows).
func commandNamed(t string, pos int) (int, string, []cmdOption, bool) {
	for _, c := range commands {
		if !strings.HasPrefix(t[pos:], c.trigger) {
			continue
		}
		base := strings.TrimSuffix(c.name, "*")
		start := pos - strings.Index(base, strings.TrimRight(c.trigger, " "))
		if start < 0 || !strings.HasPrefix(t[start:], base) {
			continue
		}
		end := start + len(base)
		if base != c.name {
			for end < len(t) && (t[end] >= 'a' && t[end] <= 'z' || t[end] == '-' || t[end] == '_') {
				end++
			}
		}
		if end >= len(t) || strings.IndexByte(" \t\"'", t[end]) < 0 {
			continue
		}
		return start, t[start:end], c.opts, true
	}
	return 0, "", nil, false
}

// commandWords are the words of the command line from t[i:] (bounds of
// each, quotes kept): blanks, commas and brackets separate them (a list
// of arguments in code), a line ending in '\' goes on, and a newline, a
// shell operator or a comment ends them.
func commandWords(t string, i int) [][2]int {
	var words [][2]int
	end := min(len(t), i+2048)
	for i < end && len(words) < 48 {
		c := t[i]
		switch {
		case c == ' ' || c == '\t':
			i++
			continue
		case c == '\\' && i+1 < end && (t[i+1] == '\n' || t[i+1] == '\r'):
			i += 2
			for i < end && (t[i] == '\n' || t[i] == ' ' || t[i] == '\t') {
				i++
			}
			continue
		case c == '\n' || c == ';' || c == '|' || c == '&' || c == ')' || c == '`' || c == '#':
			return words
		case c == '"' || c == '\'':
			// A quoted word: an argument of a list in code, or quoting in
			// shell.
			j := strings.IndexByte(t[i+1:end], c)
			nl := strings.IndexByte(t[i+1:end], '\n')
			if j < 0 || nl >= 0 && nl < j {
				return words
			}
			if j > 0 {
				words = append(words, [2]int{i + 1, i + 1 + j})
			}
			i += j + 2
			continue
		}
		// An unquoted word; a quote glued to an option's start (-p'P',
		// --password="P") belongs to it.
		start := i
		for i < end && strings.IndexByte(" \t\r\n;|&)`\"'", t[i]) < 0 {
			i++
		}
		if i < end && (t[i] == '"' || t[i] == '\'') && i > start && t[start] == '-' && (i-start == 2 || t[i-1] == '=') {
			if j := strings.IndexByte(t[i+1:min(end, i+257)], t[i]); j >= 0 && !strings.Contains(t[i+1:i+1+j], "\n") {
				i += j + 2
			}
		}
		words = append(words, [2]int{start, i})
	}
	return words
}

// argList are the words of a list of quoted arguments in code from t[i:]
// (after the command's closing quote): "-u", "user:P"; a byte other than a
// blank or a comma between them ends it.
func argList(t string, i int) [][2]int {
	var words [][2]int
	end := min(len(t), i+2048)
	for i < end && len(words) < 48 {
		switch c := t[i]; c {
		case ' ', '\t', ',':
			i++
		case '"', '\'':
			j := strings.IndexByte(t[i+1:end], c)
			if j < 0 || strings.Contains(t[i+1:i+1+j], "\n") {
				return words
			}
			words = append(words, [2]int{i + 1, i + 1 + j})
			i += j + 2
		default:
			return words
		}
	}
	return words
}
