package pack

import "strings"

// MaxSnippetTokens bounds one item's snippet, counted exactly, as Context
// Loom bounds its snippets by max_snippet_chars (1,600 characters, about
// 480 tokens of code). A snippet over it keeps the lines around its best
// match that fit; the pack's budget reports the cap.
const MaxSnippetTokens = 500

// capSnippet shortens it's snippet to MaxSnippetTokens, centred on its
// best line, and marks it truncated.
func capSnippet(it *Item, count func(string) int) {
	n := count(it.Snippet)
	if n <= MaxSnippetTokens {
		return
	}
	lines := strings.Count(it.Snippet, "\n")
	for keep := max(lines*MaxSnippetTokens/n, 1); keep >= 1; keep-- {
		s, r := around(it.Snippet, it.LineRange, it.best, keep)
		if count(s) <= MaxSnippetTokens {
			it.Snippet, it.LineRange, it.Truncated = s, r, true
			return
		}
	}
	it.Snippet, it.Truncated = "", true
}
