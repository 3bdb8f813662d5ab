package scope

import (
	"regexp"
	"strconv"
	"strings"
)

// Coverage is what a delivered file gives a reader of each source line
// (index line-1): Shown when the line's text is in the material, Pointed
// when the line is shown or lies in an elided range whose marker names
// its lines ("{ … } // lines 120-180", "...  # line 33", "read lines
// 351-1200 of path"). An elision without a line pointer points nowhere.
type Coverage struct {
	Shown   []bool
	Pointed []bool
}

// linePointer is a line pointer as the skeletons and truncations write it.
var linePointer = regexp.MustCompile(`lines? (\d+)(?:-(\d+))?`)

// CoverageOf reads f, as delivered, against src, the file's text at the
// tree: full text shows every line; a skeleton or a truncated file shows
// the source lines its lines match in order (a skeleton line is a source
// line, or its head before "…") and points to the ranges its markers and
// its pointer name.
func CoverageOf(f File, src string) Coverage {
	lines := strings.Split(src, "\n")
	if strings.HasSuffix(src, "\n") {
		lines = lines[:len(lines)-1]
	}
	cv := Coverage{Shown: make([]bool, len(lines)), Pointed: make([]bool, len(lines))}
	point := func(s string) {
		for _, m := range linePointer.FindAllStringSubmatch(s, -1) {
			a, _ := strconv.Atoi(m[1])
			b := a
			if m[2] != "" {
				b, _ = strconv.Atoi(m[2])
			}
			for k := max(a, 1); k <= b && k <= len(lines); k++ {
				cv.Pointed[k-1] = true
			}
		}
	}
	if f.Tier == TierFull {
		for k := range lines {
			cv.Shown[k], cv.Pointed[k] = true, true
		}
		return cv
	}
	j := 0 // the next source line a material line may match
	for _, l := range strings.Split(strings.TrimRight(f.Content, "\n"), "\n") {
		head, elided := l, false
		if k := elision(l); k >= 0 {
			head, elided = l[:k], true
			head = strings.TrimRight(strings.TrimSuffix(strings.TrimRight(head, " \t"), "{"), " \t")
		}
		head = strings.TrimRight(head, " \t\r")
		switch {
		case head == "" && !elided:
			if j < len(lines) && strings.TrimSpace(lines[j]) == "" {
				cv.Shown[j] = true
				j++
			}
		case strings.TrimSpace(head) != "":
			if t := matchLine(lines, j, head); t >= 0 {
				cv.Shown[t] = true
				j = t + 1
			}
		}
		if elided {
			point(l[elision(l):])
		}
	}
	point(f.Pointer)
	for k := range lines {
		cv.Pointed[k] = cv.Pointed[k] || cv.Shown[k]
	}
	return cv
}

// elision is where l's elision marker starts: "…", or Python's "..." as
// a body of its own; -1 when it has none.
func elision(l string) int {
	if k := strings.Index(l, "…"); k >= 0 {
		return k
	}
	if t := strings.TrimLeft(l, " \t"); strings.HasPrefix(t, "...") {
		return len(l) - len(t)
	}
	return -1
}

// matchLine is the first source line from j that is head (or, failing
// that, starts with it), or -1.
func matchLine(lines []string, j int, head string) int {
	prefix := -1
	for t := j; t < len(lines); t++ {
		l := strings.TrimRight(lines[t], " \t\r")
		if l == head {
			return t
		}
		if prefix < 0 && strings.HasPrefix(l, head) {
			prefix = t
		}
	}
	return prefix
}

// Covers reports whether every line of a changed region of the parent
// (start, count as `git diff -U0` gives them) is marked in lines; a pure
// insertion (count 0) is covered when a line beside it is.
func Covers(lines []bool, start, count int) bool {
	at := func(k int) bool { return k >= 1 && k <= len(lines) && lines[k-1] }
	if count == 0 {
		return at(start) || at(start+1) || start == 0 && len(lines) == 0
	}
	for k := start; k < start+count; k++ {
		if !at(k) {
			return false
		}
	}
	return true
}
