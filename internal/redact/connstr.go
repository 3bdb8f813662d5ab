package redact

import (
	"strings"
)

// Connection strings that are not URLs: the key=value strings of ADO.NET,
// ODBC, JDBC and libpq (Server=…;User Id=sa;Password=…; host=… password=…),
// a URL's ?password=… query, the driver DSNs of Go's MySQL driver
// (user:pass@tcp(host:3306)/db, user:pass@unix(/sock)/db, user:pass@/db),
// Oracle's user/pass@//host/service and the lines of a .pgpass file.

// connKeys are the keys of a key=value connection string beside its
// password, lowercase: one of them on the password's line tells a
// connection string from an assignment.
var connKeys = []string{
	"server", "host", "hostname", "hostaddr", "data source", "datasource", "address", "addr", "user id",
	"userid", "uid", "user", "username", "database", "dbname", "databasename", "initial catalog", "driver",
	"dsn", "port", "sslmode", "provider", "trusted_connection", "integrated security", "servername",
}

// connPasswordKey reports whether key is the password key of a connection
// string that names no password alone: ODBC's PWD, a bare pass.
func connPasswordKey(key string) bool {
	return strings.EqualFold(key, "pwd") || strings.EqualFold(key, "pass")
}

// connString reports whether the key at t[ks:] is the password of a
// key=value connection string, and what separates its pairs: ';' (ADO.NET,
// ODBC, JDBC), ' ' (libpq) or '&' (a URL's query).
func (s *scan) connString(ks int) (byte, bool) {
	t := s.text
	p := ks - 1
	for p >= 0 && t[p] == ' ' {
		p--
	}
	lo, hi := s.lineAt(ks)
	if p >= 0 && (t[p] == '?' || t[p] == '&') {
		head := t[max(lo, ks-1024):ks]
		if strings.Contains(head, "://") || strings.Contains(head, "jdbc:") {
			return '&', true
		}
		return 0, false
	}
	if p >= 0 && p == ks-1 && strings.IndexByte(";\"'`\n{(", t[p]) < 0 {
		return 0, false
	}
	// The other key is in the same string as the password: between the
	// quotes around the key, else on its line.
	a, b := max(lo, ks-512), min(hi, ks+512)
	if q := strings.LastIndexAny(t[a:ks], "\"'`"); q >= 0 {
		a += q + 1
		if e := strings.IndexByte(t[ks:b], t[a-1]); e >= 0 {
			b = ks + e
		}
	}
	seg := t[a:b]
	at := ks - a // the key's offset in seg
	if !hasConnKey(seg, at) {
		return 0, false
	}
	if strings.IndexByte(seg, ';') >= 0 {
		return ';', true
	}
	return ' ', true
}

// hasConnKey reports whether seg holds a connection-string key other than
// the one at offset at: the key after a boundary, then '=' (blanks allowed
// around it).
func hasConnKey(seg string, at int) bool {
	for i := 0; i < len(seg); i++ {
		if i == at || i > 0 && strings.IndexByte(" ;\"'`{(?&", seg[i-1]) < 0 {
			continue
		}
		for _, k := range connKeys {
			if len(seg)-i <= len(k) || !strings.EqualFold(seg[i:i+len(k)], k) {
				continue
			}
			j := i + len(k)
			for j < len(seg) && seg[j] == ' ' {
				j++
			}
			if j < len(seg) && seg[j] == '=' {
				return true
			}
		}
	}
	return false
}

// connValue redacts the password value at t[i:] of a connection string
// whose pairs sep separates: quoted ('…', "…", ODBC's {…}) or up to sep.
func (s *scan) connValue(i int, sep byte) {
	t := s.text
	_, hi := s.lineAt(i)
	if i >= hi {
		return
	}
	start, end := i, i
	switch q := t[i]; q {
	case '"', '\'', '{':
		cl := q
		if q == '{' {
			cl = '}'
		}
		c := strings.IndexByte(t[i+1:hi], cl)
		if c < 0 {
			return
		}
		start, end = i+1, i+1+c
		// A quote that closes the string the key is in ("…;Password=" + pw)
		// leaves an expression: blanks at its ends tell.
		if v := t[start:end]; v == "" || v[0] == ' ' || v[len(v)-1] == ' ' {
			return
		}
	default:
		stops := "\"'`\\\r\n" + string(sep)
		if sep == ' ' {
			stops += "\t"
		}
		for end < hi && strings.IndexByte(stops, t[end]) < 0 {
			end++
		}
		for end > start && t[end-1] == ' ' {
			end--
		}
	}
	if v := t[start:end]; slotValue(v, "") && v[0] != '/' { // PWD=/home/go is a working directory
		s.add(start, end, ruleConnString, 1)
	}
}

// dsnAt redacts the password of a driver DSN whose credentials end at the
// '@' at pos: user:pass@tcp(…), user:pass@unix(…), user:pass@/db, and
// Oracle's user/pass@//host.
func dsnAt(s *scan, pos int) {
	t := s.text
	lo := pos
	for lo > 0 && pos-lo < 512 && strings.IndexByte(" \t\r\n\"'`\\<>([", t[lo-1]) < 0 {
		lo--
	}
	cred := t[lo:pos]
	if i := strings.Index(cred, "://"); i >= 0 {
		cred, lo = cred[i+3:], lo+i+3
	}
	sep := byte(':')
	if strings.HasPrefix(t[pos:], "@//") {
		sep = '/'
	}
	c := strings.IndexByte(cred, sep)
	if c <= 0 {
		return
	}
	u := c
	for u > 0 && isUserByte(cred[u-1]) {
		u--
	}
	if u > 0 && cred[u-1] != '=' {
		return // the user is the credentials' start, or a key's value (dsn=user:…)
	}
	user, pw := cred[u:c], cred[c+1:]
	if user == "" || !slotValue(pw, user) || !printable(pw) {
		return
	}
	if strings.HasPrefix(t[pos:], "@/") && !strings.HasPrefix(t[pos:], "@//") && !dbNameAt(t, pos+2) {
		return // user:pass@/db names a database and ends there
	}
	s.add(lo+c+1, pos, ruleDSN, 0)
}

func isUserByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// dsnNear tells from the bytes before the '@' at pos whether a DSN's
// credentials can end there: a user's or a password's byte.
func dsnNear(text string, pos int) bool {
	return pos > 0 && strings.IndexByte(" \t\r\n\"'`\\<>([:@/=,", text[pos-1]) < 0
}

// pgpassValues redacts the password of each line of a .pgpass file,
// hostname:port:database:username:password (a '\:' is a colon of a field).
func (s *scan) pgpassValues() {
	t := s.text
	for lo := 0; lo < len(t); {
		hi := lineEnd(t, lo)
		if line := t[lo:hi]; !strings.HasPrefix(strings.TrimSpace(line), "#") {
			fields := 0
			for i := 0; i < len(line); i++ {
				switch line[i] {
				case '\\':
					i++
				case ':':
					fields++
					if fields == 4 {
						end := len(strings.TrimRight(line, " \r"))
						if v := line[i+1 : max(i+1, end)]; slotValue(v, "") {
							s.add(lo+i+1, lo+end, rulePgpass, 1)
						}
						i = len(line)
					}
				}
			}
		}
		lo = hi + 1
	}
}

// printable reports whether v is printable ASCII (not the bytes of an
// image that happen to hold "@tcp(").
func printable(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] < ' ' || v[i] > '~' {
			return false
		}
	}
	return true
}

// dbNameAt reports whether t[i:] is a database's name that ends the DSN:
// name bytes up to the text's end, a blank, a quote, a '?' or a ')'.
func dbNameAt(t string, i int) bool {
	j := i
	for j < len(t) && (isUserByte(t[j]) || t[j] == '$') {
		j++
	}
	return j > i && (j == len(t) || strings.IndexByte(" \t\r\n\"'`?)\\,;", t[j]) >= 0)
}
