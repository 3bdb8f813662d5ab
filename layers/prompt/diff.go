package prompt

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// FileDiff is one file's content before and after a task's change, as the
// caller read it from git (task base and HEAD, or the work tree).
type FileDiff struct {
	Path string // path after the change (repository-relative, slash-separated)
	Old  string // content at the task's base
	New  string // content at HEAD or in the work tree

	// Optional. OldPath is the path before a rename; Created and Deleted
	// tell an added or removed file from an empty one.
	OldPath string
	Created bool
	Deleted bool
}

// DiffContext is the number of unchanged lines shown around each change.
const DiffContext = 3

// UnifiedDiff renders d as a unified diff with DiffContext lines of context
// and "@@ -a,b +c,d @@" hunk headers, the format `git apply` and `patch`
// read. It returns "" when nothing changed. Binary content (NUL bytes or
// invalid UTF-8) gives one "Binary files … differ" line.
func UnifiedDiff(d FileDiff) string {
	oldPath := d.OldPath
	if oldPath == "" {
		oldPath = d.Path
	}
	if d.Old == d.New && oldPath == d.Path && !d.Created && !d.Deleted {
		return ""
	}
	from, to := "a/"+oldPath, "b/"+d.Path
	if d.Created {
		from = "/dev/null"
	}
	if d.Deleted {
		to = "/dev/null"
	}
	var sb strings.Builder
	if isBinary(d.Old) || isBinary(d.New) {
		fmt.Fprintf(&sb, "Binary files %s and %s differ\n", from, to)
		return sb.String()
	}
	ops := lineOps(d.Old, d.New)
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", from, to)
	writeHunks(&sb, ops, DiffContext)
	return sb.String()
}

// DiffStat counts the lines d adds and removes.
func DiffStat(d FileDiff) (added, removed int) {
	if isBinary(d.Old) || isBinary(d.New) {
		return 0, 0
	}
	for _, o := range lineOps(d.Old, d.New) {
		switch o.kind {
		case '+':
			added++
		case '-':
			removed++
		}
	}
	return added, removed
}

func isBinary(s string) bool {
	return strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s)
}

// lineOp is one line of a line-level edit script: ' ' kept, '-' removed,
// '+' added. text keeps its trailing newline, if it has one.
type lineOp struct {
	kind byte
	text string
}

// lineOps diffs old and new line by line with diffmatchpatch's line mode.
// The diff timeout is off so the result never depends on machine speed.
func lineOps(old, new string) []lineOp {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	a, b, lines := dmp.DiffLinesToRunes(old, new)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), lines)
	var ops []lineOp
	for _, df := range diffs {
		var k byte
		switch df.Type {
		case diffmatchpatch.DiffEqual:
			k = ' '
		case diffmatchpatch.DiffDelete:
			k = '-'
		case diffmatchpatch.DiffInsert:
			k = '+'
		}
		for _, l := range splitLines(df.Text) {
			ops = append(ops, lineOp{k, l})
		}
	}
	return ops
}

// splitLines splits s after each newline; the last line may lack one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	parts := strings.SplitAfter(s, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// writeHunks groups the changes of ops into hunks with ctx lines of context
// (hunks whose context would touch are merged) and writes them.
func writeHunks(sb *strings.Builder, ops []lineOp, ctx int) {
	// Line numbers (1-based) each op has in the old and the new file.
	oldNo := make([]int, len(ops))
	newNo := make([]int, len(ops))
	o, n := 1, 1
	var changes []int
	for i, op := range ops {
		oldNo[i], newNo[i] = o, n
		if op.kind != '+' {
			o++
		}
		if op.kind != '-' {
			n++
		}
		if op.kind != ' ' {
			changes = append(changes, i)
		}
	}
	for c := 0; c < len(changes); {
		// Extend the group while the next change is within 2*ctx kept lines.
		last := c
		for last+1 < len(changes) && changes[last+1]-changes[last]-1 <= 2*ctx {
			last++
		}
		start := max(changes[c]-ctx, 0)
		end := min(changes[last]+ctx, len(ops)-1)
		var oldCount, newCount int
		for _, op := range ops[start : end+1] {
			if op.kind != '+' {
				oldCount++
			}
			if op.kind != '-' {
				newCount++
			}
		}
		fmt.Fprintf(sb, "@@ -%s +%s @@\n", hunkRange(oldNo[start], oldCount), hunkRange(newNo[start], newCount))
		for _, op := range ops[start : end+1] {
			sb.WriteByte(op.kind)
			sb.WriteString(op.text)
			if !strings.HasSuffix(op.text, "\n") {
				sb.WriteString("\n\\ No newline at end of file\n")
			}
		}
		c = last + 1
	}
}

// hunkRange formats one side of a hunk header the way diff -u does: "l"
// for one line, "l,n" otherwise, and for an empty side the line before it.
func hunkRange(first, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", first-1)
	case 1:
		return fmt.Sprint(first)
	}
	return fmt.Sprintf("%d,%d", first, count)
}
