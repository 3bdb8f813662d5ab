package redact

import (
	"encoding/base64"
	"regexp"
	"strings"
	"sync"
)

// RulesVersion is the version of the built-in rule set; it is part of
// every Digest, so a change here makes stored facts be remade. One line
// per bump:
//
//	1: 42 token rules, .env values, private key blocks, secrets and
//	   passwords in assignments, connection strings with a password.
//	2: passwords inside larger credentials: key=value connection strings,
//	   driver DSNs, URLs with an empty user, .pgpass and .netrc entries,
//	   command lines (options and tools' short options), SQL's PASSWORD
//	   and IDENTIFIED BY; key material in base64 (PEM, DER), JSON Web
//	   Keys, Kubernetes Secrets' data, Docker and npm auth; assignments
//	   in shell, Makefiles, Dockerfiles, XML elements and attributes;
//	   placeholders are left in .env files.
const RulesVersion = 2

// Rule names found by code rather than by a table row.
const (
	ruleEnv        = "env-value"
	rulePrivateKey = "private-key"
	ruleAWSSecret  = "aws-secret-access-key"
	rulePassword   = "password-assignment"
	ruleSecret     = "secret-assignment"
	ruleConnString = "conn-string-password"
	ruleDSN        = "dsn-password"
	rulePgpass     = "pgpass-password"
	ruleNetrc      = "netrc-password"
	ruleCLI        = "cli-password"
	ruleEncodedKey = "encoded-private-key"
	ruleJWK        = "jwk-private-key"
	ruleSecretData = "k8s-secret-data"
)

// keyedNames are the rules of assignments (key = value), by vendor first,
// and of the forms the assignment scan reads besides (connection strings,
// .netrc entries, command-line options).
var keyedNames = []string{ruleAWSSecret, "heroku-api-key", "twilio-auth-token", "mailgun-api-key", rulePassword, ruleSecret,
	ruleConnString, ruleNetrc, ruleCLI, rulePgpass}

// tokenRule is a secret with a shape of its own. The pattern runs only on
// lines holding one of keywords (case-sensitive); its first capture group,
// when it has one, is the secret, else the whole match. A match whose
// secret has less Shannon entropy than minEntropy, or holds one of the
// skip words, is not a secret.
type tokenRule struct {
	name       string
	keywords   []string
	re         *regexp.Regexp
	minEntropy float64
	skip       []string
	// check, when set, vets a secret the pattern found; match is the whole
	// text the pattern matched.
	check func(secret, match string) bool
	// near, when set, tells from the text around a keyword at pos whether
	// the pattern can match there at all: a necessary condition, cheaper
	// than the pattern, that spares the expression the keyword's line.
	near func(text string, pos int) bool
	// read, when set instead of a pattern, reads the text at a keyword
	// and adds the spans it finds: shapes a pattern cannot tell (a
	// command's options, base64 to decode, a YAML mapping).
	read func(s *scan, pos int)
}

// The token shapes below are written from the issuers' published formats
// (prefixes, alphabets and lengths); where a shape is plain hex or base64,
// an entropy floor keeps runs like 0000… and words out.
var (
	builtinOnce  sync.Once
	builtinRules []tokenRule
)

func builtin() []tokenRule {
	builtinOnce.Do(func() {
		t := func(name string, keywords []string, re string, minEntropy float64, skip ...string) {
			builtinRules = append(builtinRules, tokenRule{name: name, keywords: keywords, re: regexp.MustCompile(re), minEntropy: minEntropy, skip: skip})
		}
		kw := func(k ...string) []string { return k }
		last := func() *tokenRule { return &builtinRules[len(builtinRules)-1] }
		// Cloud providers.
		t("aws-access-key-id", kw("AKIA", "ASIA", "ABIA", "ACCA", "A3T"), `\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b`, 3.0, "EXAMPLE")
		t("google-api-key", kw("AIza"), `\b(AIza[0-9A-Za-z_\-]{35})(?:[^0-9A-Za-z_\-]|$)`, 3.0)
		t("gcp-oauth-client-secret", kw("GOCSPX-"), `\b(GOCSPX-[0-9A-Za-z_\-]{28})`, 3.0)
		t("azure-storage-key", kw("AccountKey="), `AccountKey=([A-Za-z0-9+/]{86}==)`, 4.0)
		t("azure-ad-client-secret", kw("Q~"), `(?:^|[^0-9A-Za-z_~.\-])([0-9A-Za-z_~.\-]{3}[0-9]Q~[0-9A-Za-z_~.\-]{31,34})(?:[^0-9A-Za-z_~.\-]|$)`, 3.5)
		t("alibaba-access-key-id", kw("LTAI"), `\b(LTAI[0-9A-Za-z]{20})\b`, 3.0)
		t("digitalocean-token", kw("_v1_"), `\b(do[opr]_v1_[0-9a-f]{64})\b`, 3.0)
		last().near = after("dop", "doo", "dor") // not generated code's Convert_v1_Pod
		t("hashicorp-vault-token", kw("hvs.", "hvb."), `\b(hv[sb]\.[0-9A-Za-z_\-]{24,})`, 3.5)
		t("terraform-cloud-token", kw(".atlasv1."), `\b([0-9A-Za-z]{14}\.atlasv1\.[0-9A-Za-z_=\-]{60,})`, 3.5)
		t("databricks-token", kw("dapi"), `\b(dapi[0-9a-f]{32}(?:-[0-9])?)\b`, 3.0)
		// Source hosting and package registries.
		t("github-pat", kw("ghp_"), `\b(ghp_[0-9A-Za-z]{36})\b`, 3.0)
		t("github-fine-grained-pat", kw("github_pat_"), `\b(github_pat_[0-9A-Za-z_]{82})\b`, 3.0)
		t("github-oauth", kw("gho_"), `\b(gho_[0-9A-Za-z]{36})\b`, 3.0)
		t("github-app-token", kw("ghu_", "ghs_"), `\b((?:ghu|ghs)_[0-9A-Za-z]{36})\b`, 3.0)
		t("github-refresh-token", kw("ghr_"), `\b(ghr_[0-9A-Za-z]{36,76})\b`, 3.0)
		t("gitlab-pat", kw("glpat-"), `\b(glpat-[0-9A-Za-z_\-]{20,})`, 3.0)
		t("gitlab-token", kw("gldt-", "glrt-", "glptt-", "glcbt-", "glft-", "glimt-", "glsoat-", "gloas-", "GR1348941"),
			`\b((?:gldt|glrt|glptt|glcbt|glft|glimt|glsoat|gloas)-[0-9A-Za-z_\-]{20,}|GR1348941[0-9A-Za-z_\-]{20,})`, 3.0)
		t("npm-token", kw("npm_"), `\b(npm_[0-9A-Za-z]{36})\b`, 3.0)
		t("pypi-token", kw("pypi-AgE"), `\b(pypi-AgE[0-9A-Za-z_\-]{50,})`, 3.5)
		t("huggingface-token", kw("hf_"), `\b(hf_[0-9A-Za-z]{34,40})\b`, 3.5)
		// Messaging, payments and mail.
		t("slack-token", kw("xox"), `\b(xox[abposre]-[0-9A-Za-z\-]{10,})`, 3.0)
		t("slack-app-token", kw("xapp-"), `\b(xapp-[0-9]-[0-9A-Z]+-[0-9]+-[0-9a-z]+)`, 3.0)
		t("slack-webhook", kw("hooks.slack.com"), `(https?://hooks\.slack\.com/(?:services|workflows|triggers)/[0-9A-Za-z+/_\-]{20,})`, 0)
		t("discord-webhook", kw("discord"), `(https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[0-9A-Za-z_\-]{60,})`, 0)
		t("telegram-bot-token", kw(":AA"), `(?:^|[^0-9])([0-9]{8,10}:AA[0-9A-Za-z_\-]{33})(?:[^0-9A-Za-z_\-]|$)`, 3.0)
		t("stripe-key", kw("k_live_", "k_test_"), `\b((?:sk|rk)_(?:live|test)_[0-9A-Za-z]{20,})\b`, 3.0)
		t("stripe-webhook-secret", kw("whsec_"), `\b(whsec_[0-9A-Za-z+/=]{32,})`, 3.0)
		t("square-token", kw("sq0atp-", "sq0csp-"), `\b(sq0(?:atp|csp)-[0-9A-Za-z_\-]{22,43})`, 3.0)
		t("shopify-token", kw("shpat_", "shpca_", "shppa_", "shpss_"), `\b(shp(?:at|ca|pa|ss)_[0-9a-fA-F]{32})\b`, 3.0)
		t("twilio-api-key", kw("SK"), `\b(SK[0-9a-fA-F]{32})\b`, 3.2)
		t("sendgrid-api-key", kw("SG."), `\b(SG\.[0-9A-Za-z_\-]{22}\.[0-9A-Za-z_\-]{43})`, 3.0)
		t("mailgun-api-key", kw("key-"), `\b(key-[0-9a-f]{32})\b`, 3.2)
		t("mailchimp-api-key", kw("-us"), `\b([0-9a-f]{32}-us[0-9]{1,2})\b`, 3.2)
		last().near = hexBefore
		t("postman-api-key", kw("PMAK-"), `\b(PMAK-[0-9a-f]{24}-[0-9a-f]{34})\b`, 3.0)
		t("linear-api-key", kw("lin_api_"), `\b(lin_api_[0-9A-Za-z]{40})\b`, 3.0)
		// AI providers.
		t("openai-api-key", kw("T3BlbkFJ"), `\b(sk-(?:proj-|svcacct-|admin-)?[0-9A-Za-z_\-]{20,}T3BlbkFJ[0-9A-Za-z_\-]{20,})`, 3.0)
		t("anthropic-api-key", kw("sk-ant-"), `\b(sk-ant-(?:api|admin)[0-9]{2}-[0-9A-Za-z_\-]{80,})`, 3.0)
		// Shapes any issuer uses.
		t("age-secret-key", kw("AGE-SECRET-KEY-1"), `(AGE-SECRET-KEY-1[0-9A-Z]{58})`, 3.0)
		t("jwt", kw("eyJ"), `\b(eyJ[0-9A-Za-z_\-]{10,}\.eyJ[0-9A-Za-z_\-]{10,}\.[0-9A-Za-z_\-]*)`, 3.0)
		t("bearer-token", kw("Bearer ", "bearer ", "BEARER "), `(?:[Bb]earer|BEARER) +([0-9A-Za-z._~+/\-]{20,}=*)`, 3.5)
		t("basic-auth", kw("Basic ", "basic "), `[Bb]asic +([0-9A-Za-z+/]{8,}={0,2})`, 0)
		last().check = func(b64, _ string) bool { return basicCredential(b64) }
		t("connection-string", kw("://"), `\b[A-Za-z][0-9A-Za-z+.\-]{1,30}://[^\s:@/'"<>{}$]{0,128}:([^\s@/'"<>]{4,256})@[0-9A-Za-z\[][0-9A-Za-z.\-]*`, 0)
		last().check = func(pw, m string) bool {
			return !placeholderPassword(pw) && !exampleHost(m[strings.LastIndexByte(m, '@')+1:])
		}
		last().near = credentialsAfter
		// The auth of a Docker config and of an .npmrc: base64 of user:password.
		t("basic-auth", kw(`"auth"`, "_auth=", "_auth ="), `(?:"auth"\s*:\s*"|_auth\s*=\s*"?)([0-9A-Za-z+/]{8,}={0,2})`, 0)
		last().check = func(b64, _ string) bool { return basicCredential(b64) }
		// SQL: CREATE USER … IDENTIFIED BY '…', IDENTIFIED WITH plugin BY '…'.
		t(rulePassword, kw("BY '", "by '"),
			`(?i)identified\s+(?:with\s+[0-9a-z_]+\s+)?by\s+(?:password\s+)?'([^'\n]{1,256})'`, 0)
		last().check = func(pw, _ string) bool { return slotValue(pw, "") }
		last().near = identifiedBefore
		// A user and a password passed to a call: requests' auth=("u", "p"),
		// SetBasicAuth("u", "p"), HTTPBasicAuth("u", "p"), smtplib's and
		// ftplib's .login("u", "p").
		t(rulePassword, kw("h=(", "cAuth(", "gin("), `(?:\bauth=\(|BasicAuth\(|\.login\()\s*["'][^"'\n]{1,128}["']\s*,\s*["']([^"'\n]{1,256})["']`, 0)
		last().check = func(pw, _ string) bool { return slotValue(pw, "") }
		last().near = after("aut", "Basi", ".lo") // not plugin(, OAuth(
		// PowerShell: ConvertTo-SecureString "…" -AsPlainText.
		t(ruleCLI, kw("-SecureString"), `ConvertTo-SecureString\s+(?:-String\s+)?["']([^"'\n]{1,256})["']\s+-AsPlainText`, 0)
		last().check = func(pw, _ string) bool { return slotValue(pw, "") }
		// Shapes read by code.
		r := func(name string, keywords []string, read func(*scan, int), near func(string, int) bool) {
			builtinRules = append(builtinRules, tokenRule{name: name, keywords: keywords, read: read, near: near})
		}
		r(ruleDSN, kw("@tcp(", "@tcp6(", "@unix(", "@cloudsql(", "@/"), dsnAt, dsnNear)
		r(ruleCLI, commandKeywords(), commandAt, nil)
		r(ruleEncodedKey, kw("LS0tLS1CRUdJTi"), pemB64At, nil)
		r(ruleEncodedKey, kw("MII", "MIG", "MIH", "MHcCAQEE", "MHQCAQEE", "MC4CAQAw", "MFECAQEw", "MFMCAQEw"), derB64At, nil)
		r(ruleJWK, kw("kty"), jwkAt, nil)
		r(ruleSecretData, kw("Secret"), secretKindAt, nil)
	})
	return builtinRules
}

// trigger is a keyword and what it starts: a token rule (its index), or
// the search for an assignment (rule -1, matched without regard to case).
// word and mask are the keyword's first 8 bytes as a little-endian word
// and the bytes of it that count; fold is 0x20 in each lower-case letter
// of a keyword matched without regard to case (an ASCII letter's upper
// case differs from its lower case in that bit only; other bytes match
// exactly).
type trigger struct {
	kw               string
	rule             int
	word, mask, fold uint64
	nocase           bool
}

// Trigger rules that are not token rules: an assignment's keyword, and
// the start of a private key block.
const (
	ruleKeyed = -1
	ruleBegin = -2
)

// beginKey starts a private key block (privateKeys).
const beginKey = "-----BEGIN "

var (
	triggersOnce sync.Once
	// pairAt maps the first two bytes of a keyword (in any case for
	// assignments) to 1 + the index in pairTriggers of the keywords
	// starting with them, 0 for none: one pass over a text finds every
	// keyword of every rule, and most bytes cost one table look-up.
	pairAt       [1 << 16]uint8
	pairTriggers [][]trigger
	// pairBits has a bit set for each pair of pairAt: 8 KB, small enough
	// to stay in the first-level cache that pairAt's 64 KB overflow.
	// Its pair a, b is bit a|b<<8, as a little-endian read of the two
	// bytes gives it (find reads eight bytes at a time).
	pairBits [1 << 10]uint64
)

func triggerTable() [][]trigger {
	triggersOnce.Do(func() {
		add := func(a, b byte, tr trigger) {
			k := uint16(a)<<8 | uint16(b)
			if pairAt[k] == 0 {
				pairTriggers = append(pairTriggers, nil)
				if len(pairTriggers) > 255 {
					panic("redact: more than 255 keyword pairs")
				}
				pairAt[k] = uint8(len(pairTriggers))
				le := uint16(b)<<8 | uint16(a)
				pairBits[le>>6] |= 1 << (le & 63)
			}
			pairTriggers[pairAt[k]-1] = append(pairTriggers[pairAt[k]-1], tr)
		}
		for i, r := range builtin() {
			for _, k := range r.keywords {
				add(k[0], k[1], newTrigger(k, i, false))
			}
		}
		add(beginKey[0], beginKey[1], newTrigger(beginKey, ruleBegin, false))
		for _, k := range keyedKeywords {
			up := func(c byte) byte { return c - 'a' + 'A' }
			tr := newTrigger(k, ruleKeyed, true)
			for _, a := range []byte{k[0], up(k[0])} {
				for _, b := range []byte{k[1], up(k[1])} {
					add(a, b, tr)
				}
			}
		}
	})
	return pairTriggers
}

func newTrigger(kw string, rule int, fold bool) trigger {
	tr := trigger{kw: kw, rule: rule, nocase: fold}
	for j := 0; j < len(kw) && j < 8; j++ {
		tr.word |= uint64(kw[j]) << (8 * j)
		tr.mask |= 0xff << (8 * j)
		if c := kw[j]; fold && c >= 'a' && c <= 'z' {
			tr.fold |= 0x20 << (8 * j)
		}
	}
	return tr
}

// at reports whether the keyword starts t[i:]; x is t[i:i+8] as a
// little-endian word when ok8.
func (tr *trigger) at(t string, i int, x uint64, ok8 bool) bool {
	n := len(tr.kw)
	if len(t)-i < n {
		return false
	}
	if !ok8 {
		if !tr.nocase {
			return t[i:i+n] == tr.kw
		}
		return strings.EqualFold(t[i:i+n], tr.kw)
	}
	if (x|tr.fold)&tr.mask != tr.word {
		return false
	}
	if n <= 8 {
		return true
	}
	if !tr.nocase {
		return t[i+8:i+n] == tr.kw[8:]
	}
	return strings.EqualFold(t[i+8:i+n], tr.kw[8:])
}

// find returns where the keywords occur: per token rule (nil when no
// keyword of any rule occurs), for assignments, and where private key
// blocks may begin (beginKey).
func (s *scan) find(nrules int) (byRule [][]int, keyed, begins []int) {
	t := s.text
	if len(t) < 2 {
		return nil, nil, nil
	}
	f := finder{tab: triggerTable(), t: t, nrules: nrules}
	// Eight bytes are read at a time, and the seven pairs that start in
	// them looked up in pairBits as the read gives them: most pairs are
	// no keyword's, and cost a shift and a look-up each. (Written out: a
	// loop over the seven shifts read 650 MB/s of pystdlib, this 1 GB/s.)
	i := 0
	for ; i+8 <= len(t); i += 7 {
		x := le64(t[i : i+8])
		if pairIn(x) {
			f.at(i)
		}
		if pairIn(x >> 8) {
			f.at(i + 1)
		}
		if pairIn(x >> 16) {
			f.at(i + 2)
		}
		if pairIn(x >> 24) {
			f.at(i + 3)
		}
		if pairIn(x >> 32) {
			f.at(i + 4)
		}
		if pairIn(x >> 40) {
			f.at(i + 5)
		}
		if pairIn(x >> 48) {
			f.at(i + 6)
		}
	}
	for ; i+1 < len(t); i++ {
		if pairIn(uint64(t[i]) | uint64(t[i+1])<<8) {
			f.at(i)
		}
	}
	return f.byRule, f.keyed, f.begins
}

// pairIn reports whether the two low bytes of x, in the order a
// little-endian read gives them, start a keyword.
func pairIn(x uint64) bool {
	p := uint16(x)
	return pairBits[p>>6]&(1<<(p&63)) != 0
}

// finder is find's state: the keywords found so far.
type finder struct {
	tab    [][]trigger
	t      string
	nrules int
	byRule [][]int
	keyed  []int
	begins []int
}

// at notes the keywords that start t[i:], whose first two bytes are a
// pair of pairAt.
func (f *finder) at(i int) {
	t := f.t
	k := pairAt[uint16(t[i])<<8|uint16(t[i+1])]
	var x uint64
	ok8 := len(t)-i >= 8
	if ok8 {
		x = le64(t[i : i+8])
	}
	for j := range f.tab[k-1] {
		tr := &f.tab[k-1][j]
		if !tr.at(t, i, x, ok8) {
			continue
		}
		switch tr.rule {
		case ruleKeyed:
			f.keyed = append(f.keyed, i)
			continue
		case ruleBegin:
			f.begins = append(f.begins, i)
			continue
		}
		if f.byRule == nil {
			f.byRule = make([][]int, f.nrules)
		}
		f.byRule[tr.rule] = append(f.byRule[tr.rule], i)
	}
}

// le64 is the 8 bytes of b as a little-endian word.
func le64(b string) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// rules runs the token rules, each on the lines holding its keywords.
func (s *scan) rules(rs []tokenRule, at [][]int) {
	for i := range at {
		if rs[i].read != nil {
			for _, pos := range at[i] {
				if rs[i].near == nil || rs[i].near(s.text, pos) {
					rs[i].read(s, pos)
				}
			}
			continue
		}
		lastHi := -1
		for _, pos := range at[i] {
			// A keyword well inside the last window read was matched
			// there (tokens are shorter than the margin).
			if pos < lastHi-512 {
				continue
			}
			if rs[i].near != nil && !rs[i].near(s.text, pos) {
				continue
			}
			lo, hi := s.lineAt(pos)
			lastHi = hi
			s.match(&rs[i], lo, hi)
		}
	}
}

func (s *scan) match(r *tokenRule, lo, hi int) {
	line := s.text[lo:hi]
	for _, m := range r.re.FindAllStringSubmatchIndex(line, -1) {
		a, b := m[0], m[1]
		if len(m) >= 4 && m[2] >= 0 {
			a, b = m[2], m[3]
		}
		secret := line[a:b]
		if r.minEntropy > 0 && entropy(secret) < r.minEntropy {
			continue
		}
		skipped := false
		for _, w := range r.skip {
			if strings.Contains(secret, w) {
				skipped = true
				break
			}
		}
		if !skipped && (r.check == nil || r.check(secret, line[m[0]:m[1]])) {
			s.add(lo+a, lo+b, r.name, 0)
		}
	}
}

// credentialsAfter reports whether the "://" at pos can start the
// user:password@ of a connection string: an '@' comes within the longest
// user and password the pattern takes, after a ':' and before any byte
// neither may hold (white space, '/', quotes, angle brackets). Most "://"
// are URLs without credentials, whose line the pattern need not read.
func credentialsAfter(text string, pos int) bool {
	colon := false
	end := min(len(text), pos+3+maxUserPassword)
	for i := pos + 3; i < end; i++ {
		switch text[i] {
		case '@':
			return colon
		case ':':
			colon = true
		case ' ', '\t', '\n', '\f', '\r', '/', '\'', '"', '<', '>':
			return false
		}
	}
	return false
}

// after returns a near check: one of before ends where the keyword
// starts (do of dop_v1_, aut of auth=().
func after(before ...string) func(string, int) bool {
	return func(text string, pos int) bool {
		for _, b := range before {
			if strings.HasSuffix(text[:pos], b) {
				return true
			}
		}
		return false
	}
}

// hexBefore tells whether 32 hex digits end where the keyword starts (a
// Mailchimp key's -us).
func hexBefore(text string, pos int) bool {
	if pos < 32 {
		return false
	}
	for i := pos - 32; i < pos; i++ {
		if c := text[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// identifiedBefore tells whether IDENTIFIED (in any case) is on the line
// before the keyword: SQL's IDENTIFIED … BY '…'.
func identifiedBefore(text string, pos int) bool {
	lo := max(0, pos-maxLine)
	if i := strings.LastIndexByte(text[lo:pos], '\n'); i >= 0 {
		lo += i + 1
	}
	line := text[lo:pos]
	for i := strings.IndexAny(line, "iI"); i >= 0 && i+10 <= len(line); {
		if strings.EqualFold(line[i:i+10], "identified") {
			return true
		}
		j := strings.IndexAny(line[i+1:], "iI")
		if j < 0 {
			break
		}
		i += j + 1
	}
	return false
}

// maxUserPassword is the most bytes the connection-string pattern takes
// between "://" and '@': a user of 128, ':', a password of 256.
const maxUserPassword = 128 + 1 + 256

// basicCredential reports whether b64 is the base64 of user:password with
// a password that is not a well-known example.
func basicCredential(b64 string) bool {
	dec, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		dec, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(b64, "="))
		if err != nil {
			return false
		}
	}
	user, pw, ok := strings.Cut(string(dec), ":")
	if !ok || user == "" {
		return false
	}
	for i := 0; i < len(dec); i++ {
		if dec[i] < ' ' || dec[i] > '~' {
			return false
		}
	}
	return !placeholderPassword(pw)
}

// exampleHost reports whether host is reserved for documentation
// (RFC 2606: example.com, .org, .net and the .example domain).
func exampleHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	for _, d := range []string{"example.com", "example.org", "example.net", "example"} {
		if h == d || strings.HasSuffix(h, "."+d) {
			return true
		}
	}
	return false
}

// examplePasswords are the passwords of documentation and tests.
var examplePasswords = []string{"pass", "secret", "sesame", "changeme", "example", "xxx", "***", "${", "{{", "%s", "%v", "%[", "<", "..."}

// placeholderPassword reports whether pw is an example password or too
// short to be one.
func placeholderPassword(pw string) bool {
	if len(pw) < 4 {
		return true
	}
	low := strings.ToLower(pw)
	for _, p := range examplePasswords {
		if strings.Contains(low, p) {
			return true
		}
	}
	return false
}
