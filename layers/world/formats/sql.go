package formats

import (
	"bytes"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// SQL, every common dialect (PostgreSQL, MySQL, SQLite, SQL Server,
// Oracle), through a structured scanner: the source is masked (comments,
// '…' strings and $tag$ bodies blanked), cut into words, and the words into
// statements at ';' (also GO lines, DELIMITER changes and the BEGIN … END
// of routine bodies). CREATE statements give definitions: tables (columns
// as fields), views, functions, procedures, indexes, triggers, types,
// schemas, sequences, domains; CREATE EXTENSION an import. REFERENCES
// clauses and the tables views and routines read or write are references.

func init() { Register(world.LangSQL, extractSQL) }

type sqlWord struct {
	start, end int
	up         string // upper-cased text ("" for punctuation other than the ones kept)
}

// sqlWords cuts masked code into words: identifiers (with quoted and
// bracketed ones whole), numbers and single punctuation.
func sqlWords(code []byte) []sqlWord {
	var ws []sqlWord
	n := len(code)
	for i := 0; i < n; {
		c := code[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case c == '"' || c == '`' || c == '[':
			close := c
			if c == '[' {
				close = ']'
			}
			e := i + 1
			for e < n && code[e] != close && code[e] != '\n' {
				e++
			}
			if e < n && code[e] == close {
				e++
				ws = append(ws, sqlWord{i, e, string(code[i:e])})
				i = e
				continue
			}
			ws = append(ws, sqlWord{i, i + 1, string(c)})
			i++
		case isIdent(c) || c == '@' || c == '#' || c == '$':
			e := i + 1
			for e < n && (isIdent(code[e]) || code[e] == '$' || code[e] == '#' || code[e] == '@') {
				e++
			}
			ws = append(ws, sqlWord{i, e, strings.ToUpper(string(code[i:e]))})
			i = e
		default:
			ws = append(ws, sqlWord{i, i + 1, string(c)})
			i++
		}
	}
	return ws
}

// sqlName strips quotes and brackets from a (possibly dotted) name.
func sqlName(s string) string { return sqlUnquote.Replace(s) }

var sqlUnquote = strings.NewReplacer(`"`, "", "`", "", "[", "", "]", "")

var sqlObjects = map[string]string{"TABLE": world.KindStruct, "VIEW": world.KindType, "FUNCTION": world.KindFunction,
	"PROCEDURE": world.KindFunction, "PROC": world.KindFunction, "INDEX": world.KindKey, "TRIGGER": world.KindFunction,
	"TYPE": world.KindType, "SCHEMA": world.KindModule, "SEQUENCE": world.KindVar, "DOMAIN": world.KindType,
	"EXTENSION": "", "DATABASE": world.KindModule, "PACKAGE": world.KindModule}

// sqlModifiers may stand between CREATE and the object's kind.
var sqlModifiers = map[string]bool{"OR": true, "REPLACE": true, "ALTER": true, "TEMP": true, "TEMPORARY": true,
	"UNLOGGED": true, "GLOBAL": true, "LOCAL": true, "MATERIALIZED": true, "UNIQUE": true, "CLUSTERED": true,
	"NONCLUSTERED": true, "RECURSIVE": true, "DEFINER": true, "=": true, "@": true, "SQL": true, "SECURITY": true,
	"ALGORITHM": true, "UNDEFINED": true, "MERGE": true, "TEMPTABLE": true, "VIRTUAL": true, "FOREIGN": true,
	"CONSTRAINT": true, "EDITIONABLE": true, "NONEDITIONABLE": true, "FORCE": true, "NOFORCE": true, "BODY": false}

type sqlScan struct {
	m     *masked
	ws    []sqlWord
	facts *world.Facts
	sk    *skel
}

func (s *sqlScan) text(w sqlWord) string { return string(s.m.src[w.start:w.end]) }
func (s *sqlScan) line(i int) int        { return s.m.li.lineOf(s.ws[i].start) }

func extractSQL(src []byte, _ Options, facts *world.Facts) {
	m := maskSource(src, syntax{line: []string{"--"}, blockOpen: "/*", blockClose: "*/", quotes: `'`, dollarQ: true, multiLine: true})
	s := &sqlScan{m: m, ws: sqlWords(m.code), facts: facts, sk: &skel{src: src}}
	for _, st := range s.statements() {
		s.statement(st[0], st[1])
	}
	if m.broken > 0 {
		facts.Partial = true
		facts.Warning = "unterminated string or comment at line " + itoa(m.broken) + "; facts are partial"
	}
	m.dropComments(s.sk, docStarts(facts, func(d *world.Def) bool { return d.Parent == "" }))
	facts.Skeleton = s.sk.String()
	tidy(facts)
}

// statements cuts the words into statements [from, to).
func (s *sqlScan) statements() [][2]int {
	var out [][2]int
	from := 0
	depth, block := 0, 0
	routine := false
	delim := ";"
	for i := 0; i < len(s.ws); i++ {
		w := s.ws[i]
		if i == from {
			routine = s.isRoutine(i)
			depth, block = 0, 0
		}
		// DELIMITER x (MySQL clients) changes the terminator until the next one.
		if w.up == "DELIMITER" && s.line(i) != s.lineOf(i-1) {
			if from < i {
				out = append(out, [2]int{from, i})
			}
			j := i + 1
			l := s.line(i)
			d := ""
			for j < len(s.ws) && s.line(j) == l {
				d += s.text(s.ws[j])
				j++
			}
			if d != "" {
				delim = d
			}
			from = j
			i = j - 1
			continue
		}
		// GO alone on its line (SQL Server batches).
		if w.up == "GO" && s.line(i) != s.lineOf(i-1) && s.line(i) != s.lineOf(i+1) {
			if from < i {
				out = append(out, [2]int{from, i})
			}
			from = i + 1
			continue
		}
		switch w.up {
		case "(":
			depth++
		case ")":
			depth--
		case "BEGIN", "CASE":
			if routine {
				block++
			}
		case "END":
			if routine && !(i+1 < len(s.ws) && sqlEndOf[s.ws[i+1].up] && s.line(i+1) == s.line(i)) {
				block--
			}
		}
		if delim != ";" {
			if bytes.HasPrefix(s.m.code[w.start:], []byte(delim)) {
				k := i
				for k < len(s.ws) && s.ws[k].start < w.start+len(delim) {
					k++
				}
				if from < i {
					out = append(out, [2]int{from, i})
				}
				from = k
				i = k - 1
			}
			continue
		}
		if w.up == ";" && depth <= 0 && block <= 0 {
			if from < i {
				out = append(out, [2]int{from, i + 1})
			}
			from = i + 1
		}
	}
	if from < len(s.ws) {
		out = append(out, [2]int{from, len(s.ws)})
	}
	return out
}

// sqlEndOf are the words after END that close a block not counted (IF,
// LOOP …) rather than a BEGIN or a CASE.
var sqlEndOf = map[string]bool{"IF": true, "LOOP": true, "WHILE": true, "REPEAT": true, "FOR": true}

func (s *sqlScan) lineOf(i int) int {
	if i < 0 || i >= len(s.ws) {
		return -1
	}
	return s.line(i)
}

// isRoutine reports whether the statement at i creates a function,
// procedure, trigger or package whose body is not dollar-quoted.
func (s *sqlScan) isRoutine(i int) bool {
	if i >= len(s.ws) || s.ws[i].up != "CREATE" {
		return false
	}
	for j := i + 1; j < len(s.ws) && j < i+8; j++ {
		switch s.ws[j].up {
		case "FUNCTION", "PROCEDURE", "PROC", "TRIGGER", "PACKAGE":
			return true
		case "TABLE", "VIEW", "INDEX", "TYPE", "SCHEMA":
			return false
		}
	}
	return false
}

// nameAt reads a dotted name starting at word i; it returns the name and
// the index after it.
func (s *sqlScan) nameAt(i int) (string, int) {
	var b strings.Builder
	for i < len(s.ws) {
		w := s.ws[i]
		if !(isIdent(s.m.code[w.start]) || strings.ContainsRune("\"`[@#", rune(s.m.code[w.start]))) {
			break
		}
		b.WriteString(s.text(w))
		if i+1 < len(s.ws) && s.ws[i+1].up == "." && s.ws[i+1].start == w.end {
			b.WriteByte('.')
			i += 2
			continue
		}
		i++
		break
	}
	return sqlName(b.String()), i
}

func (s *sqlScan) statement(from, to int) {
	first := s.line(from)
	last := s.m.li.lineOf(s.ws[to-1].end - 1)
	if s.ws[from].up != "CREATE" {
		if s.ws[from].up == "ALTER" {
			s.references(from, to, 0)
			return
		}
		// data and other statements leave the skeleton
		s.sk.elide(s.m.li.start(first), s.m.li.end(last), "")
		return
	}
	i := from + 1
	for i < to && sqlModifiers[s.ws[i].up] {
		i++
	}
	if i >= to {
		return
	}
	obj := s.ws[i].up
	kind, known := sqlObjects[obj]
	if !known {
		return
	}
	if obj == "PACKAGE" && i+1 < to && s.ws[i+1].up == "BODY" {
		i++
	}
	i++
	if i+2 < to && s.ws[i].up == "IF" && s.ws[i+1].up == "NOT" && s.ws[i+2].up == "EXISTS" {
		i += 3
	}
	if obj == "INDEX" && i < to && s.ws[i].up == "CONCURRENTLY" {
		i++
	}
	name, after := s.nameAt(i)
	if name == "" {
		return
	}
	if obj == "EXTENSION" {
		s.facts.Imports = append(s.facts.Imports, world.Import{Path: name, Line: first, Kind: "extension"})
		return
	}
	short := afterLast(name, ".")
	// The signature: the header, up to the body.
	sigEnd := to
	bodyAt := -1
	for j := after; j < to; j++ {
		u := s.ws[j].up
		if (obj == "TABLE" || obj == "TYPE") && u == "(" {
			sigEnd = j
			break
		}
		if u == "AS" || u == "IS" || u == "BEGIN" || u == "RETURN" && obj != "FUNCTION" || u == "LANGUAGE" || u == ";" ||
			strings.HasPrefix(s.text(s.ws[j]), "$") && u != "$" {
			sigEnd, bodyAt = j, j
			break
		}
	}
	if sigEnd == to && obj != "TABLE" {
		sigEnd = to
		if s.ws[to-1].up == ";" {
			sigEnd = to - 1
		}
	}
	sig := ""
	if sigEnd > from {
		sig = oneLine(string(s.m.src[s.ws[from].start:s.ws[sigEnd-1].end]))
	}
	sig = clip(sig, 200)
	d := world.Def{Name: short, Qualified: name, Kind: kind, Start: first, End: last, Exported: true, Signature: sig,
		Doc: s.m.docAbove(first)}
	s.facts.Defs = append(s.facts.Defs, d)
	in := len(s.facts.Defs)
	switch obj {
	case "TABLE", "TYPE":
		if sigEnd < to && s.ws[sigEnd].up == "(" {
			s.columns(sigEnd, to, name)
		}
		s.references(after, to, in)
	case "INDEX", "TRIGGER":
		for j := after; j+1 < to; j++ {
			if s.ws[j].up == "ON" {
				if t, _ := s.nameAt(j + 1); t != "" {
					s.facts.Refs = append(s.facts.Refs, world.Ref{Name: afterLast(t, "."), Line: s.line(j + 1), In: in, Kind: world.RefType})
				}
				break
			}
		}
	default:
		s.tables(after, to, in)
		s.dollarBodies(s.ws[from].start, s.ws[to-1].end, in)
		if bodyAt >= 0 && bodyAt < to {
			a := s.line(bodyAt)
			if s.ws[bodyAt].up == "AS" || s.ws[bodyAt].up == "IS" || s.ws[bodyAt].up == "LANGUAGE" {
				a++ // keep the line that opens the body
			}
			upto := last - 1 // the line that closes the body stays
			if obj == "VIEW" {
				upto = last
			}
			if a <= upto {
				s.sk.elideLines(s.m.li, a, upto, "  ", "--")
			}
		}
	}
}

// columns records the columns of a table (or composite type) from its
// parenthesised list at open.
func (s *sqlScan) columns(open, to int, table string) {
	close := s.m.close(s.ws[open].start)
	depth := 0
	itemStart := open + 1
	for j := open + 1; j < to; j++ {
		w := s.ws[j]
		if w.start == close || (w.up == "," && depth == 0) {
			s.column(itemStart, j, table)
			itemStart = j + 1
			if w.start == close {
				return
			}
			continue
		}
		switch w.up {
		case "(":
			depth++
		case ")":
			depth--
		}
	}
}

var sqlConstraint = map[string]bool{"CONSTRAINT": true, "PRIMARY": true, "FOREIGN": true, "UNIQUE": true, "CHECK": true,
	"INDEX": true, "KEY": true, "FULLTEXT": true, "SPATIAL": true, "EXCLUDE": true, "PERIOD": true, "LIKE": true}

func (s *sqlScan) column(a, b int, table string) {
	if a >= b {
		return
	}
	if sqlConstraint[s.ws[a].up] {
		return // REFERENCES in it are read by references
	}
	name, _ := s.nameAt(a)
	if name == "" {
		return
	}
	line := s.line(a)
	sig := oneLine(string(s.m.src[s.ws[a].start:s.ws[b-1].end]))
	sig = clip(sig, 120)
	s.facts.Defs = append(s.facts.Defs, world.Def{Name: name, Qualified: table + "." + name, Parent: table, Kind: world.KindField,
		Start: line, End: s.m.li.lineOf(s.ws[b-1].end - 1), Exported: true, Signature: sig})
}

// references records the tables of REFERENCES clauses in words [a, b),
// each in the column or table it sits in.
func (s *sqlScan) references(a, b, in int) {
	for j := a; j+1 < b; j++ {
		if s.ws[j].up != "REFERENCES" {
			continue
		}
		t, _ := s.nameAt(j + 1)
		if t == "" {
			continue
		}
		at := in
		line := s.line(j)
		for k := len(s.facts.Defs) - 1; k >= in && in > 0; k-- {
			d := s.facts.Defs[k]
			if d.Parent == s.facts.Defs[in-1].Qualified && d.Start <= line && line <= d.End {
				at = k + 1
				break
			}
		}
		s.facts.Refs = append(s.facts.Refs, world.Ref{Name: afterLast(t, "."), Qual: strings.TrimSuffix(t, "."+afterLast(t, ".")),
			Line: line, In: at, Kind: world.RefType})
		if q := s.facts.Refs[len(s.facts.Refs)-1]; q.Qual == q.Name {
			s.facts.Refs[len(s.facts.Refs)-1].Qual = ""
		}
	}
}

// tables records the tables a view or routine reads or writes: the names
// after FROM, JOIN, INTO, UPDATE (and REFERENCES).
func (s *sqlScan) tables(a, b, in int) {
	for j := a; j+1 < b; j++ {
		switch s.ws[j].up {
		case "FROM", "JOIN", "INTO", "UPDATE":
			if s.ws[j+1].up == "(" || s.ws[j+1].up == "SELECT" {
				continue
			}
			if s.ws[j].up == "INTO" && (j == 0 || !sqlInto[s.ws[j-1].up]) {
				continue // SELECT … INTO a variable
			}
			t, _ := s.nameAt(j + 1)
			if t == "" || strings.HasPrefix(t, "@") || strings.HasPrefix(t, "#") {
				continue
			}
			s.facts.Refs = append(s.facts.Refs, world.Ref{Name: afterLast(t, "."), Line: s.line(j + 1), In: in, Kind: world.RefType})
		}
	}
	s.references(a, b, in)
}

// dollarBodies reads the tables used in the $tag$-quoted bodies between
// offsets a and b (PostgreSQL routines), which the mask blanked.
func (s *sqlScan) dollarBodies(a, b, in int) {
	for _, str := range s.m.strs {
		if str[0] < a || str[1] > b || s.m.src[str[0]] != '$' {
			continue
		}
		body := s.m.src[str[0]:str[1]]
		tag := len(body) - len(strings.TrimLeft(string(body[1:]), "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789")) + 1
		if tag >= len(body) {
			continue
		}
		sub := maskSource(body[tag:], syntax{line: []string{"--"}, blockOpen: "/*", blockClose: "*/", quotes: `'`, multiLine: true})
		inner := &sqlScan{m: sub, ws: sqlWords(sub.code), facts: &world.Facts{}}
		inner.tables(0, len(inner.ws), in)
		base := s.m.li.lineOf(str[0]+tag) - 1
		for _, r := range inner.facts.Refs {
			r.Line += base
			s.facts.Refs = append(s.facts.Refs, r)
		}
	}
}

// sqlInto are the words before an INTO that names a table.
var sqlInto = map[string]bool{"INSERT": true, "REPLACE": true, "MERGE": true, "IGNORE": true}
