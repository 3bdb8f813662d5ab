// Package lex owns the words of git-speed's text matching: how an
// identifier splits into parts (parseHTTPRequest_v2 → parse, http, request,
// v, 2), the whole form of a compound identifier, the light English
// stemmer both sides of every match go through, and the stop words —
// those of prose and code that tell no files apart (IsStop), and the
// filler of requests and specs that names nothing in code (IsFiller).
// The term index (layers/world/terms), spec alignment, packs, memories
// and the agent's context all read words through it, so a word means the
// same to each. A leaf on the standard library.
package lex

import "strings"

// SplitFunc calls part with the bounds of each part of tok: parts end at
// underscores (dropped), before an upper-case letter after a lower-case
// one, before the last upper-case letter of a run that a lower-case one
// follows (HTTPServer → HTTP, Server), and between an ASCII digit and an
// ASCII non-digit.
func SplitFunc[T string | []byte](tok T, part func(start, end int)) {
	start := 0
	emit := func(end int) {
		if end > start {
			part(start, end)
		}
		start = end
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c == '_' {
			emit(i)
			start = i + 1
			continue
		}
		if i == start {
			continue
		}
		p := tok[i-1]
		switch {
		case IsUpper(c) && IsLower(p):
			emit(i)
		case IsUpper(c) && IsUpper(p) && i+1 < len(tok) && IsLower(tok[i+1]):
			emit(i)
		case IsDigit(c) != IsDigit(p) && c < 0x80 && p < 0x80:
			emit(i)
		}
	}
	emit(len(tok))
}

// Split splits an identifier into lower-case parts (SplitFunc):
// "parseHTTPRequest_v2" → parse, http, request, v, 2.
func Split(tok string) []string {
	var out []string
	SplitFunc(tok, func(start, end int) { out = append(out, strings.ToLower(tok[start:end])) })
	return out
}

// Whole is the lower-case form of a whole identifier, separators dropped:
// "parse_HTTP_request" and "ParseHTTPRequest" are both "parsehttprequest".
func Whole(tok string) string {
	var b strings.Builder
	b.Grow(len(tok))
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		case c == '_':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// IsUpper, IsLower and IsDigit classify ASCII bytes.
func IsUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func IsLower(c byte) bool { return c >= 'a' && c <= 'z' }
func IsDigit(c byte) bool { return c >= '0' && c <= '9' }

// Digits reports whether s is all ASCII digits (and not empty).
func Digits[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if !IsDigit(s[i]) {
			return false
		}
	}
	return len(s) > 0
}
