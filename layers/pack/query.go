package pack

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/git-speed/git-speed/internal/lex"
	"github.com/git-speed/git-speed/layers/world/terms"
)

// Query limits. A request of any length is read, but only its first
// MaxQueryBytes bytes (cut at a line's end where one is near), and at most
// MaxQueryTerms distinct terms are looked up: the ones that say most (the
// title line's, identifiers, paths, traceback frames), not the first ones.
// A request cut either way says so (Pack.Request.Cut).
const (
	MaxQueryBytes = 4 << 20
	MaxQueryTerms = 64
	maxMentions   = 32
)

// query is a request as the scorer reads it.
type query struct {
	text     string
	terms    []string          // normalised terms, in order of first appearance
	wholes   []string          // compound identifiers of the request, whole and lower case
	mentions []string          // path-like words: "a/b.go", "b.go", "pkg/util"
	surface  map[string]string // term → the word of the request it came from
	read     RequestRead       // how much of the request was read
}

// RequestRead says how a pack read its request: how long it was, how many
// distinct terms it held and how many were used, and, when something was
// left out, a sentence saying what.
type RequestRead struct {
	Bytes int `json:"bytes"`
	Terms int `json:"terms"`
	Used  int `json:"used"`
	// Cut is empty when the whole request was read.
	Cut string `json:"cut,omitempty"`
}

// word is the request's own word for term t.
func (q *query) word(t string) string {
	if w, ok := q.surface[t]; ok {
		return w
	}
	return t
}

// Where a word of the request stands says how much it says: the title
// line, a compound identifier, a path, a traceback frame or quoted code
// name code; prose mostly does not. A term's priority is the best place
// it stands in, plus a little for how often it is said.
const (
	atProse = 1.0
	atCode  = 2.0 // a line of a code block, or a part of an identifier
	atFrame = 3.0 // a line of a traceback
	atIdent = 3.0 // a compound identifier, whole
	atPath  = 3.0 // a word of a path named in the request
	atTitle = 4.0 // the request's first line
)

// candidate is one distinct term of the request.
type candidate struct {
	term, word string
	first      int // order of first appearance
	at         float64
	count      int
	whole      bool // the whole of a compound identifier
}

// parseQuery normalises the request with the same tokenizer as the index.
// Its errors are one sentence for a person.
func parseQuery(text string) (*query, error) {
	read := RequestRead{Bytes: len(text)}
	if len(text) > MaxQueryBytes {
		text = cutText(text, MaxQueryBytes)
		read.Cut = fmt.Sprintf("the request is longer than %d bytes; only its first %d were read", MaxQueryBytes, len(text))
	}
	if strings.ContainsRune(text, 0) || !utf8.ValidString(text) {
		return nil, fmt.Errorf("the query is not text (it holds a NUL byte or invalid UTF-8)")
	}
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("the query is empty; say what you are looking for")
	}
	q := &query{text: text, surface: map[string]string{}}
	cands := map[string]*candidate{}
	note := func(t, word string, at float64, whole bool) {
		if len(t) < terms.MinLen || len(t) > terms.MaxLen || lex.IsStop(t) || digits(t) {
			return
		}
		c := cands[t]
		if c == nil {
			c = &candidate{term: t, word: word, first: len(cands)}
			cands[t] = c
		}
		c.count++
		c.at = max(c.at, at)
		c.whole = c.whole || whole
	}
	type forms struct {
		whole        string
		parts, stems []string
	}
	memo := map[string]forms{}
	seenMention := map[string]bool{}
	title, fence := true, false
	for line := range strings.Lines(text) {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = !fence
			continue
		}
		at := atProse
		switch {
		case title && trimmed != "":
			at = atTitle
		case frame(trimmed):
			at = atFrame
		case fence || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t"):
			at = atCode
		}
		if trimmed != "" {
			title = false
		}
		// Paths named on the line, and the words they are made of.
		pathWords := map[string]bool{}
		for _, f := range strings.FieldsFunc(line, mentionSep) {
			f = strings.TrimRight(strings.TrimLeft(f, "./"), ".:!?")
			if !pathLike(f) {
				continue
			}
			terms.Words([]byte(f), func(w string) { pathWords[w] = true })
			if !seenMention["@"+f] && len(q.mentions) < maxMentions {
				seenMention["@"+f] = true
				q.mentions = append(q.mentions, f)
			}
		}
		terms.Words([]byte(line), func(tok string) {
			if noise(tok) {
				return
			}
			fm, ok := memo[tok]
			if !ok {
				parts := lex.Split(tok)
				if len(parts) > 1 {
					fm.whole = lex.Whole(tok)
				}
				fm.parts = parts
				for _, p := range parts {
					fm.stems = append(fm.stems, lex.Stem(p))
				}
				if len(memo) < 1<<16 {
					memo[tok] = fm
				}
			}
			tokAt := at
			if pathWords[tok] {
				tokAt = max(tokAt, atPath)
			}
			if fm.whole != "" {
				wholeAt := tokAt
				if named(fm.parts) {
					wholeAt = max(tokAt, atIdent)
					tokAt = max(tokAt, atCode)
				}
				note(fm.whole, tok, wholeAt, true)
			}
			for i, st := range fm.stems {
				note(st, fm.parts[i], tokAt, false)
			}
		})
	}
	all := make([]*candidate, 0, len(cands))
	for _, c := range cands {
		all = append(all, c)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].first < all[j].first })
	read.Terms = len(all)
	if len(all) > MaxQueryTerms {
		byPriority := append([]*candidate(nil), all...)
		sort.SliceStable(byPriority, func(i, j int) bool { return priority(byPriority[i]) > priority(byPriority[j]) })
		keep := map[*candidate]bool{}
		for _, c := range byPriority[:MaxQueryTerms] {
			keep[c] = true
		}
		kept := all[:0]
		for _, c := range all {
			if keep[c] {
				kept = append(kept, c)
			}
		}
		all = kept
		cut := fmt.Sprintf("the request holds %d distinct terms; the %d that say most were used (the title's, identifiers, paths and traceback frames first)", read.Terms, MaxQueryTerms)
		if read.Cut != "" {
			cut = read.Cut + "; " + cut
		}
		read.Cut = cut
	}
	for _, c := range all {
		q.terms = append(q.terms, c.term)
		q.surface[c.term] = c.word
		if c.whole {
			q.wholes = append(q.wholes, c.term)
		}
	}
	read.Used = len(q.terms)
	q.read = read
	if len(q.terms) == 0 && len(q.mentions) == 0 {
		return nil, fmt.Errorf("the query %q has only stop words or punctuation; name what you are looking for", clip(oneLine(text), 60))
	}
	return q, nil
}

// priority is how much a term says: where it stands best, and a little
// for how often the request says it; the filler of requests ("under",
// "like", "able") says less.
func priority(c *candidate) float64 {
	p := c.at + 0.5*min(math.Log2(float64(c.count)), 3)
	if lex.IsFiller(c.term) {
		p -= 1.5
	}
	return p
}

// named reports whether an identifier's parts name something: two of
// them hold letters (parseConfig, read_file), not a word and a number
// (word12, v2).
func named(parts []string) bool {
	n := 0
	for _, p := range parts {
		if !digits(p) {
			n++
		}
	}
	return n >= 2
}

// cutText is text's first n bytes at most, ending at a line's end when
// one is in the last 64 KB of them, and never inside a character.
func cutText(text string, n int) string {
	text = text[:n]
	if i := strings.LastIndexByte(text, '\n'); i >= 0 && n-i <= 64<<10 {
		return text[:i+1]
	}
	i := n - 1
	for i > 0 && !utf8.RuneStart(text[i]) {
		i--
	}
	if i >= 0 && !utf8.FullRuneInString(text[i:]) {
		return text[:i]
	}
	return text
}

func mentionSep(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '`', '"', '\'', '(', ')', ',', ';', '<', '>', '[', ']':
		return true
	}
	return false
}

// pathLike reports whether a word of the request names a path: it has a
// slash, or a dot followed by what looks like an extension.
func pathLike(f string) bool {
	if len(f) < 3 || len(f) > 200 || !(strings.Contains(f, "/") || strings.Contains(f, ".")) {
		return false
	}
	if !strings.Contains(f, "/") {
		ext := f[strings.LastIndexByte(f, '.')+1:]
		if len(ext) == 0 || len(ext) > 5 || strings.ContainsAny(ext, "()") {
			return false
		}
	}
	return true
}

// frame reports whether a line (trimmed) is a frame of a traceback:
// Python's `File "x.py", line 3, in f`, JavaScript's and Java's
// `at f (x.js:3:5)`, or any line naming file.ext:line.
func frame(l string) bool {
	if strings.HasPrefix(l, `File "`) || (strings.HasPrefix(l, "at ") && strings.ContainsAny(l, ":(")) {
		return true
	}
	for i := strings.IndexByte(l, ':'); i > 0 && i+1 < len(l); i = nextColon(l, i) {
		if lex.IsDigit(l[i+1]) {
			if dot := strings.LastIndexByte(l[:i], '.'); dot >= 0 && i-dot >= 2 && i-dot <= 6 && letters(l[dot+1:i]) {
				return true
			}
		}
	}
	return false
}

func nextColon(l string, i int) int {
	j := strings.IndexByte(l[i+1:], ':')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

func letters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !(lex.IsLower(s[i]) || lex.IsUpper(s[i])) {
			return false
		}
	}
	return s != ""
}

// noise are tokens that name nothing: hexadecimal numbers (0x7ffd3a) and
// hashes (a commit id, a build id) of eight or more hex digits that mix
// digits and letters.
func noise(tok string) bool {
	if len(tok) > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X') && hex(tok[2:]) {
		return true
	}
	if len(tok) < 8 || !hex(tok) {
		return false
	}
	d := 0
	for i := 0; i < len(tok); i++ {
		if lex.IsDigit(tok[i]) {
			d++
		}
	}
	return d > 0 && d < len(tok)
}

func hex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(lex.IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) {
			return false
		}
	}
	return s != ""
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// maxEcho bounds the request a pack quotes back (Pack.Query).
const maxEcho = 16 << 10
