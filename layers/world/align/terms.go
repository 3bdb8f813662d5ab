package align

import (
	"strings"
	"unicode"

	"github.com/git-speed/git-speed/internal/lex"
)

// The words of requirements and of code names, read through lex: a name
// or a path splits at every byte that is no letter, digit or underscore
// (ASCII; a non-ASCII byte belongs to its word), and each word at lex's
// identifier boundaries; words shorter than three bytes, numbers, stop
// words and filler are left out; the rest is stemmed.

// eachPart calls part with the bounds of each lex part of each word of s.
func eachPart(s string, part func(start, end int)) {
	start := -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && wordByte(s[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			lex.SplitFunc(s[start:i], func(a, b int) { part(start+a, start+b) })
			start = -1
		}
	}
}

func wordByte(c byte) bool {
	return c >= 0x80 || c == '_' || lex.IsDigit(c) || lex.IsLower(c) || lex.IsUpper(c)
}

// partsOf splits an identifier or path into its lower-case parts:
// "parseHTTPRequest_v2" → parse, http, request, v, 2.
func partsOf(s string) []string {
	var out []string
	eachPart(s, func(start, end int) { out = append(out, strings.ToLower(s[start:end])) })
	return out
}

// isWord reports whether a lower-case part is a word alignment reads:
// neither it nor its stem is a stop word or filler ("working" is "work").
func isWord(w string) bool {
	return len(w) >= 3 && !lex.Digits(w) && !lex.IsFiller(w) && !lex.IsFiller(lex.Stem(w))
}

// terms returns the stemmed content words of free text, once each, in
// order of first use: the text splits at every character that is no
// letter, digit or underscore (curly quotes and dashes too), and
// identifiers in it split like code names.
func terms(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		for _, w := range partsOf(f) {
			if !isWord(w) {
				continue
			}
			s := lex.Stem(w)
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
	for _, w := range partsOf(name) {
		if isWord(w) {
			out = append(out, lex.Stem(w))
		}
	}
	return out
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
	eachPart(name, func(start, end int) {
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
		if lex.Digits(w) || lex.IsFiller(string(w)) {
			return
		}
		// A filler stem is no term of q (isWord): the look-up misses.
		if t, ok := q.canon[string(lex.StemBytes(w))]; ok {
			out = append(out, t)
		}
	})
	return out
}
