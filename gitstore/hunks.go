package gitstore

import (
	"fmt"
	"strconv"
	"strings"
)

// Hunk is one changed region of a file between two commits, in the first
// commit's lines (`git diff -U0` semantics): Count lines from Start were
// removed or replaced; Count 0 means lines were inserted after line Start
// (0: before the first line).
type Hunk struct {
	Start int
	Count int
}

// DiffHunks lists, per path changed between commits a and b, the hunks of
// `git diff -U0 --no-renames a b` in a's lines (binary files have none).
func (r *Repo) DiffHunks(a, b string) (map[string][]Hunk, error) {
	if err := validRev(a); err != nil {
		return nil, err
	}
	if err := validRev(b); err != nil {
		return nil, err
	}
	out, err := r.git(nil, "-c", "core.quotePath=false", "diff", "-U0", "--no-renames", "--no-color", "--no-ext-diff",
		"--src-prefix=a/", "--dst-prefix=b/", a, b, "--")
	if err != nil {
		return nil, err
	}
	return parseHunks(string(out))
}

// parseHunks reads a unified diff with no context lines.
func parseHunks(diff string) (map[string][]Hunk, error) {
	hunks := map[string][]Hunk{}
	cur, header := "", false // header: between "diff --git" and the first hunk
	for _, line := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			cur, header = "", true
		case header && strings.HasPrefix(line, "--- "):
			cur = diffPath(line[4:], "a/")
		case header && strings.HasPrefix(line, "+++ ") && cur == "":
			cur = diffPath(line[4:], "b/")
		case strings.HasPrefix(line, "@@ -") && cur != "":
			header = false
			h, err := parseHunkHeader(line)
			if err != nil {
				return nil, err
			}
			hunks[cur] = append(hunks[cur], h)
		}
	}
	return hunks, nil
}

// diffPath is the path of a "--- a/x" or "+++ b/x" line; "" for /dev/null.
func diffPath(s, prefix string) string {
	s = strings.TrimSuffix(s, "\t")
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		}
	}
	if s == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(s, prefix)
}

// parseHunkHeader reads "@@ -a[,n] +b[,m] @@".
func parseHunkHeader(line string) (Hunk, error) {
	f := strings.Fields(line)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") {
		return Hunk{}, fmt.Errorf("diff: unexpected hunk header %q", line)
	}
	start, count, hasCount := strings.Cut(f[1][1:], ",")
	h := Hunk{Count: 1}
	var err error
	if h.Start, err = strconv.Atoi(start); err != nil {
		return Hunk{}, fmt.Errorf("diff: hunk header %q: %v", line, err)
	}
	if hasCount {
		if h.Count, err = strconv.Atoi(count); err != nil {
			return Hunk{}, fmt.Errorf("diff: hunk header %q: %v", line, err)
		}
	}
	return h, nil
}
