package lex

import "strings"

// Stem strips one common English inflection, then a final e and a doubled
// final consonant, so "caching", "cached", "caches" and "cache" meet at
// "cach" and "running" at "run". It only needs to be consistent: both
// sides of a match go through it.
func Stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	for _, suf := range []string{"ing", "ed", "er", "ly"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			w = w[:len(w)-len(suf)]
			break
		}
	}
	if len(w) > 3 && w[len(w)-1] == 'e' {
		w = w[:len(w)-1]
	}
	if n := len(w); n > 3 && w[n-1] == w[n-2] && IsLower(w[n-1]) && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		w = w[:n-1]
	}
	return w
}

// StemBytes is Stem of a word in a scratch buffer: it returns a prefix of
// w, changed in place only when w ends in "ies" ("ies" becomes "y"), so a
// caller stemming many words allocates nothing.
func StemBytes(w []byte) []byte {
	if len(w) > 4 && hasSuffix(w, "ies") {
		w = w[:len(w)-2]
		w[len(w)-1] = 'y'
		return w[:stemRest(w)]
	}
	return w[:stemLen(w)]
}

// stemLen is the length of Stem of w, which does not end in "ies" or is
// at most four bytes long: such a stem is a prefix of w.
func stemLen(w []byte) int {
	n := len(w)
	if n <= 3 {
		return n
	}
	switch {
	case hasSuffix(w, "sses"):
		n -= 2
	case w[n-1] == 's' && w[n-2] != 's' && w[n-2] != 'u' && w[n-2] != 'i':
		n--
	}
	return stemRest(w[:n])
}

// stemRest is the length of w once Stem's last steps cut it: one of
// "ing", "ed", "er", "ly" (keeping three bytes; no two end alike), then a
// final e, then a doubled final consonant.
func stemRest(w []byte) int {
	n := len(w)
	if n >= 5 {
		switch w[n-1] {
		case 'g':
			if n >= 6 && w[n-2] == 'n' && w[n-3] == 'i' {
				n -= 3
			}
		case 'd', 'r':
			if w[n-2] == 'e' {
				n -= 2
			}
		case 'y':
			if w[n-2] == 'l' {
				n -= 2
			}
		}
	}
	if n > 3 && w[n-1] == 'e' {
		n--
	}
	if n > 3 && w[n-1] == w[n-2] && IsLower(w[n-1]) {
		switch w[n-1] {
		case 'a', 'e', 'i', 'o', 'u', 'l', 's':
		default:
			n--
		}
	}
	return n
}

func hasSuffix(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[len(b)-len(s):]) == s
}
