package align

import (
	"strings"
	"unicode"
)

// splitIdent splits an identifier or path segment into lower-case words at
// camelCase humps, digits/letters boundaries and non-alphanumerics:
// "parseHTTPRequest_v2" → parse, http, request, v2.
func splitIdent(s string) []string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return splitRunes(s)
		}
	}
	return splitASCII(s)
}

// splitASCII is splitIdent of an ASCII string, without decoding runes:
// the identifiers and paths of a large tree are nearly all ASCII.
func splitASCII(s string) []string {
	var out []string
	splitASCIIFunc(s, func(start, end int) { out = append(out, strings.ToLower(s[start:end])) })
	return out
}

// splitRunes is splitIdent of any string.
func splitRunes(s string) []string {
	var out []string
	rs := []rune(s)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, strings.ToLower(string(rs[start:end])))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		switch {
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush(i)
			start = i
		case unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(prev):
			flush(i)
			start = i
		case unicode.IsLetter(r) && unicode.IsDigit(prev) && i >= 2 && !unicode.IsLetter(rs[i-2]):
			// keep "v2x" together; letters after a number word start a word
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return out
}

// stem strips the commonest English suffixes, lightly: "sessions" →
// "session", "expired" → "expir", "parsing" → "pars". It is applied the
// same way to both sides of a match, so it only needs to be consistent.
func stem(w string) string {
	return string(stemBytes([]byte(w)))
}

var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about above after again against all also am an and any are as at be because been
	before being below between both but by can could did do does doing done down during each either else etc
	every few for from further get gets given had has have having he her here hers him his how however i if in
	into is it its itself just least less let like made make makes many may me might more most must my need
	needs no nor not now of off on once one only or other our ours out over own per same shall she should
	since so some such than that the their theirs them then there these they this those through thus to too
	under until up upon us use used uses using very via was we well were what when where whether which while
	who whom why will with within without would yet you your
	new file files code func function method type value true false nil null none return returns test tests
	go py js ts md txt json toml yaml yml src lib pkg internal cmd main util utils req nfr must shall
	able allow allows always user users system support supports provide provides data`) {
		stopWords[w] = true
	}
}

// terms returns the stemmed content words of free text, once each, in
// order of first use. Identifiers in the text are split like code names.
func terms(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		for _, w := range splitIdent(f) {
			if len(w) < 3 || stopWords[w] || isNumber(w) {
				continue
			}
			s := stem(w)
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// nameTerms returns the stemmed words of an identifier or path.
func nameTerms(name string) []string {
	var out []string
	for _, w := range splitIdent(name) {
		if len(w) < 3 || stopWords[w] || isNumber(w) {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

func isNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// termsIn appends to out the terms of q among the stemmed words of an
// identifier or path: nameTerms(name) less the words q has not, in the
// same order. An ASCII name is split, lower-cased and stemmed in a buffer
// of its own, so only the words q has cost a string, and that string is
// q's own: the names of a large tree are many, and those words few.
func (q *query) termsIn(name string, out []string) []string {
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			for _, t := range nameTerms(name) {
				if q.terms[t] {
					out = append(out, t)
				}
			}
			return out
		}
	}
	var buf [64]byte
	word := func(start, end int) {
		if end-start < 3 {
			return
		}
		var w []byte
		if end-start <= len(buf) {
			w = buf[:0]
		}
		for i := start; i < end; i++ {
			w = append(w, lowerASCII(name[i]))
		}
		// A term is three bytes or more, and stemming keeps a word's
		// first two: most words are no term by them (pairs, mayHold).
		if !q.short && q.pairs != nil && !q.pairs[int(w[0])<<8|int(w[1])] {
			return
		}
		if isNumberBytes(w) || stopWords[string(w)] {
			return
		}
		if t, ok := q.canon[string(stemBytes(w))]; ok {
			out = append(out, t)
		}
	}
	splitASCIIFunc(name, word)
	return out
}

// splitASCIIFunc calls word with the bounds of each word splitASCII
// gives, in order, without making them.
func splitASCIIFunc(s string, word func(start, end int)) {
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			word(start, end)
		}
		start = -1
	}
	isUpper := func(c byte) bool { return 'A' <= c && c <= 'Z' }
	isLower := func(c byte) bool { return 'a' <= c && c <= 'z' }
	isDigit := func(c byte) bool { return '0' <= c && c <= '9' }
	isLetter := func(c byte) bool { return isUpper(c) || isLower(c) }
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && !isDigit(c) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := s[i-1]
		switch {
		case isUpper(c) && isLower(prev):
			flush(i)
			start = i
		case isUpper(c) && i+1 < len(s) && isLower(s[i+1]) && isUpper(prev):
			flush(i)
			start = i
		case isLetter(c) && isDigit(prev) && i >= 2 && !isLetter(s[i-2]):
			flush(i)
			start = i
		}
	}
	flush(len(s))
}

var stemSuffixes = []string{"ations", "ation", "ings", "ing", "ies", "ied", "ers", "er", "es", "ed", "ly", "s"}

// stemBytes is stem of a word held in w, stemmed in place (an "ies"
// becomes "y": w needs no room beyond its length, as the word shrinks).
func stemBytes(w []byte) []byte {
	if len(w) <= 3 {
		return w
	}
	for _, suf := range stemSuffixes {
		if len(w) >= len(suf) && string(w[len(w)-len(suf):]) == suf && len(w)-len(suf) >= 3 {
			w = w[:len(w)-len(suf)]
			if suf == "ies" || suf == "ied" {
				w = append(w, 'y')
			}
			break
		}
	}
	if n := len(w); n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		w = w[:n-1] // "stopp" → "stop"
	}
	if n := len(w); n > 4 && w[n-1] == 'e' {
		w = w[:n-1]
	}
	return w
}

// isNumberBytes is isNumber of an ASCII word.
func isNumberBytes(w []byte) bool {
	for _, c := range w {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
