package prompt

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func numbered(n int, edit func(i int) string) string {
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		sb.WriteString(edit(i))
	}
	return sb.String()
}

var diffCases = []struct {
	name string
	d    FileDiff
}{
	{"middle", FileDiff{Old: numbered(20, func(i int) string { return fmt.Sprintf("line %d\n", i) }), New: numbered(20, func(i int) string {
		if i == 10 {
			return "line ten\n"
		}
		return fmt.Sprintf("line %d\n", i)
	})}},
	{"two hunks", FileDiff{Old: numbered(40, func(i int) string { return fmt.Sprintf("l%d\n", i) }), New: numbered(40, func(i int) string {
		switch i {
		case 2:
			return "changed\n"
		case 35:
			return "l35\nadded\n"
		}
		return fmt.Sprintf("l%d\n", i)
	})}},
	{"merged hunks", FileDiff{Old: numbered(20, func(i int) string { return fmt.Sprintf("l%d\n", i) }), New: numbered(20, func(i int) string {
		if i == 5 || i == 11 {
			return "x\n"
		}
		return fmt.Sprintf("l%d\n", i)
	})}},
	{"no newline at end, both", FileDiff{Old: "a\nb\nc", New: "a\nb\nd"}},
	{"newline added at end", FileDiff{Old: "a\nb", New: "a\nb\n"}},
	{"newline removed at end", FileDiff{Old: "a\nb\n", New: "a\nb"}},
	{"created", FileDiff{New: "package x\n\nfunc F() {}\n", Created: true}},
	{"deleted", FileDiff{Old: "package x\n", Deleted: true}},
	{"empty to content", FileDiff{Old: "", New: "one\ntwo\n"}},
	{"content to empty", FileDiff{Old: "one\ntwo\n", New: ""}},
	{"repeated lines", FileDiff{Old: "}\n}\n}\nx\n}\n}\n", New: "}\nx\n}\n}\n}\n}\n"}},
	{"whitespace only", FileDiff{Old: "a\n\tb\nc\n", New: "a\n    b\nc\n \n"}},
	{"unicode", FileDiff{Old: "é\n日本\n🙂\n", New: "é\n日本語\n🙂\n"}},
}

// TestUnifiedDiffApplies checks every diff with the real `git apply`: the
// patch must turn the old file into the new one exactly.
func TestUnifiedDiffApplies(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	for _, tc := range diffCases {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.d
			d.Path = "pkg/file.txt"
			patch := UnifiedDiff(d)
			if patch == "" {
				t.Fatal("empty patch")
			}
			dir := t.TempDir()
			p := filepath.Join(dir, "pkg", "file.txt")
			os.MkdirAll(filepath.Dir(p), 0o755)
			if !d.Created {
				os.WriteFile(p, []byte(d.Old), 0o644)
			}
			os.WriteFile(filepath.Join(dir, "change.patch"), []byte(patch), 0o644)
			cmd := exec.Command("git", "apply", "--whitespace=nowarn", "change.patch")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "LC_ALL=C")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git apply: %v\n%s\npatch:\n%s", err, out, patch)
			}
			got, err := os.ReadFile(p)
			if d.Deleted {
				if err == nil {
					t.Fatal("deleted file still there")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != d.New {
				t.Fatalf("applied %q, want %q\npatch:\n%s", got, d.New, patch)
			}
			if again := UnifiedDiff(d); again != patch {
				t.Error("second diff differs")
			}
		})
	}
}

func TestUnifiedDiffShape(t *testing.T) {
	if got := UnifiedDiff(FileDiff{Path: "a", Old: "x\n", New: "x\n"}); got != "" {
		t.Errorf("unchanged file gave %q", got)
	}
	want := "--- a/f.go\n+++ b/f.go\n@@ -7,7 +7,7 @@\n l7\n l8\n l9\n-l10\n+ten\n l11\n l12\n l13\n"
	old := numbered(20, func(i int) string { return fmt.Sprintf("l%d\n", i) })
	if got := UnifiedDiff(FileDiff{Path: "f.go", Old: old, New: strings.Replace(old, "l10\n", "ten\n", 1)}); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := UnifiedDiff(FileDiff{Path: "img.png", Old: "\x89PNG\x00", New: "\x89PNG\x00\x01"}); got != "Binary files a/img.png and b/img.png differ\n" {
		t.Errorf("binary: %q", got)
	}
	if a, r := DiffStat(FileDiff{Old: "a\nb\n", New: "a\nc\nd\n"}); a != 2 || r != 1 {
		t.Errorf("stat +%d -%d", a, r)
	}
}

var hunkRe = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$`)

// applyUnified applies a patch produced by UnifiedDiff to old, checking
// every context line and hunk count on the way.
func applyUnified(old, patch string) (string, error) {
	oldLines := splitLines(old)
	lines := splitLines(patch)
	if len(lines) < 2 {
		return "", fmt.Errorf("no header")
	}
	lines = lines[2:]
	var out []string
	pos := 0 // next old line to copy (0-based)
	for i := 0; i < len(lines); {
		m := hunkRe.FindStringSubmatch(strings.TrimSuffix(lines[i], "\n"))
		if m == nil {
			return "", fmt.Errorf("line %d: want a hunk header, got %q", i, lines[i])
		}
		atoi := func(s string, def int) int {
			if s == "" {
				return def
			}
			n, _ := strconv.Atoi(s)
			return n
		}
		oStart, oCount, nCount := atoi(m[1], 0), atoi(m[2], 1), atoi(m[4], 1)
		first := oStart - 1
		if oCount == 0 {
			first = oStart
		}
		if first < pos {
			return "", fmt.Errorf("hunk %q overlaps", lines[i])
		}
		out = append(out, oldLines[pos:first]...)
		pos = first
		i++
		seenOld, seenNew := 0, 0
		for i < len(lines) && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			i++
			text := l[1:]
			if i < len(lines) && lines[i] == "\\ No newline at end of file\n" {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if pos >= len(oldLines) || oldLines[pos] != text {
					return "", fmt.Errorf("context mismatch at old line %d", pos+1)
				}
				pos++
				seenOld++
				if l[0] == ' ' {
					out = append(out, text)
					seenNew++
				}
			case '+':
				out = append(out, text)
				seenNew++
			default:
				return "", fmt.Errorf("bad line %q", l)
			}
		}
		if seenOld != oCount || seenNew != nCount {
			return "", fmt.Errorf("hunk counts -%d +%d, lines -%d +%d", oCount, nCount, seenOld, seenNew)
		}
	}
	out = append(out, oldLines[pos:]...)
	return strings.Join(out, ""), nil
}

func FuzzUnifiedDiff(f *testing.F) {
	for _, tc := range diffCases {
		f.Add(tc.d.Old, tc.d.New)
	}
	f.Fuzz(func(t *testing.T, old, new string) {
		d := FileDiff{Path: "f", Old: old, New: new}
		patch := UnifiedDiff(d)
		if old == new {
			if patch != "" {
				t.Fatalf("patch for no change: %q", patch)
			}
			return
		}
		if isBinary(old) || isBinary(new) {
			return
		}
		got, err := applyUnified(old, patch)
		if err != nil {
			t.Fatalf("%v\npatch:\n%s", err, patch)
		}
		if got != new {
			t.Fatalf("applied %q, want %q\npatch:\n%s", got, new, patch)
		}
	})
}
