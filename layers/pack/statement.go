package pack

import (
	"strings"
	"unicode"
)

// Problem statements for the eval. An issue describes a problem in
// prose; a commit subject names the fix. Statement derives an
// issue-style request from a commit message without a model: the body
// of the message (or of the pull request a merge commit quotes), without
// its subject, trailers and quoted code, kept only when it is prose of
// at least MinStatementWords words.

// MinStatementWords is the least number of prose words a commit body
// needs to count as a problem statement.
const MinStatementWords = 20

// Statement returns the prose of msg as a problem statement, and false
// when the message has no such body.
func Statement(msg string) (string, bool) {
	lines := strings.Split(strings.ReplaceAll(msg, "\r\n", "\n"), "\n")
	if len(lines) < 2 {
		return "", false
	}
	subject := strings.TrimSpace(lines[0])
	body := lines[1:]
	// "Merge pull request #12 from a/b" is followed by the PR title, then
	// its description: the title names the change, like a subject.
	if strings.HasPrefix(subject, "Merge pull request ") || strings.HasPrefix(subject, "Merge branch ") {
		for len(body) > 0 && strings.TrimSpace(body[0]) == "" {
			body = body[1:]
		}
		if len(body) > 0 {
			body = body[1:]
		}
	}
	var kept []string
	fence := false
	bullets, nonEmpty := 0, 0
	for _, l := range body {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") {
			fence = !fence
			continue
		}
		if fence || trailer(t) || strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t") {
			continue
		}
		if t != "" {
			nonEmpty++
			if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") {
				bullets++
			}
		}
		kept = append(kept, l)
	}
	// A list of changes is a changelog, not a description of a problem.
	if nonEmpty == 0 || 2*bullets > nonEmpty {
		return "", false
	}
	text := strings.TrimSpace(strings.Join(kept, "\n"))
	if proseWords(text) < MinStatementWords {
		return "", false
	}
	return text, true
}

// trailer reports whether a line is a "Key: value" trailer such as
// Signed-off-by or Co-authored-by.
func trailer(t string) bool {
	k, _, ok := strings.Cut(t, ": ")
	if !ok || k == "" || strings.ContainsRune(k, ' ') {
		return false
	}
	for _, r := range k {
		if !(unicode.IsLetter(r) || r == '-') {
			return false
		}
	}
	return strings.Contains(k, "-") || strings.EqualFold(k, "fixes") || strings.EqualFold(k, "closes") || strings.EqualFold(k, "refs")
}

// proseWords counts the words made of letters only (with an inner
// apostrophe or hyphen): identifiers, paths and numbers do not count.
func proseWords(text string) int {
	n := 0
	for _, f := range strings.Fields(text) {
		f = strings.Trim(f, ".,;:!?()\"'")
		if len(f) < 2 {
			continue
		}
		ok := true
		for _, r := range f {
			if !(unicode.IsLetter(r) || r == '\'' || r == '-') {
				ok = false
				break
			}
		}
		if ok && !strings.ContainsAny(f[1:], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			n++
		}
	}
	return n
}
