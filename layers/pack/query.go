package pack

import (
	"fmt"
	"github.com/git-speed/git-speed/internal/lex"
	"strings"
	"unicode/utf8"

	"github.com/git-speed/git-speed/layers/world/terms"
)

// Query limits: a request longer than MaxQueryBytes is refused rather than
// cut (the caller should say what it wants in fewer words), and at most
// MaxQueryTerms distinct terms are looked up.
const (
	MaxQueryBytes = 16 << 10
	MaxQueryTerms = 64
)

// query is a request as the scorer reads it.
type query struct {
	text     string
	terms    []string          // normalised terms, in order of first appearance
	wholes   []string          // compound identifiers of the request, whole and lower case
	mentions []string          // path-like words: "a/b.go", "b.go", "pkg/util"
	surface  map[string]string // term → the word of the request it came from
}

// word is the request's own word for term t.
func (q *query) word(t string) string {
	if w, ok := q.surface[t]; ok {
		return w
	}
	return t
}

// parseQuery normalises the request with the same tokenizer as the index.
// Its errors are one sentence for a person.
func parseQuery(text string) (*query, error) {
	if len(text) > MaxQueryBytes {
		return nil, fmt.Errorf("the query is %d bytes long; give at most %d", len(text), MaxQueryBytes)
	}
	if !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
		return nil, fmt.Errorf("the query is not text (it holds a NUL byte or invalid UTF-8)")
	}
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("the query is empty; say what you are looking for")
	}
	q := &query{text: text, surface: map[string]string{}}
	seen := map[string]bool{}
	add := func(t, word string) {
		if len(t) < terms.MinLen || len(t) > terms.MaxLen || lex.IsStop(t) || seen[t] || len(q.terms) >= MaxQueryTerms || digits(t) {
			return
		}
		seen[t] = true
		q.terms = append(q.terms, t)
		q.surface[t] = word
	}
	terms.Words([]byte(text), func(tok string) {
		parts := lex.Split(tok)
		if len(parts) > 1 {
			w := lex.Whole(tok)
			if len(w) <= terms.MaxLen && !seen["="+w] {
				seen["="+w] = true
				q.wholes = append(q.wholes, w)
			}
			add(w, tok)
		}
		for _, p := range parts {
			add(lex.Stem(p), p)
		}
	})
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '`' || r == '"' || r == '\'' || r == '(' || r == ')' || r == ',' || r == ';' || r == '<' || r == '>' || r == '[' || r == ']'
	}) {
		f = strings.TrimRight(strings.TrimLeft(f, "./"), ".:!?")
		if len(f) < 3 || len(f) > 200 || !(strings.Contains(f, "/") || strings.Contains(f, ".")) || seen["@"+f] {
			continue
		}
		// a word with a dot is a file name only if what follows the dot looks like an extension
		if !strings.Contains(f, "/") {
			ext := f[strings.LastIndexByte(f, '.')+1:]
			if len(ext) == 0 || len(ext) > 5 || strings.ContainsAny(ext, "()") {
				continue
			}
		}
		seen["@"+f] = true
		q.mentions = append(q.mentions, f)
	}
	if len(q.terms) == 0 && len(q.mentions) == 0 {
		return nil, fmt.Errorf("the query %q has only stop words or punctuation; name what you are looking for", clip(text, 60))
	}
	return q, nil
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
	return true
}
