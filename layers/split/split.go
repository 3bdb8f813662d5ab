// Package split divides long agent command files (such as
// .claude/commands/*.md) into a core that an agent always loads and
// details it loads on request, as MAHABHARATHA's command splitter does, and
// loads them back. A file of MinLines lines or more is split at the first
// "#" or "##" heading at or after CoreShare of its lines that is at least
// Margin lines from either end; it never splits inside a section or a code
// fence. Splitting writes <name>.core.md, <name>.details.md (with a header
// saying what it is and where the core is) and rewrites <name>.md to the
// core plus a "<!-- SPLIT: … -->" reference, so links to <name>.md keep
// working. Splitting again changes nothing. The package is pure Go over
// bytes and an fs.FS; the caller writes the files.
package split

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"strings"
)

// The seed's thresholds.
const (
	MinLines  = 300  // shorter files are left whole
	CoreShare = 0.30 // the core is about this share of the lines
	Margin    = 10   // the split is at least this many lines from either end
)

// Marker starts the reference comment a split <name>.md ends with.
const Marker = "<!-- SPLIT:"

// detailsHeader starts the first line of a details file.
const detailsHeader = "<!-- SPLIT DETAILS:"

// Plan is what splitting one file would do.
type Plan struct {
	File    string // the file, as given
	Lines   int
	Split   bool   // false: Reason says why the file stays as it is
	Reason  string // why not split ("" when Split)
	At      int    // 1-based line where the details start
	Heading string // the heading at At

	// The three files to write when Split: paths and contents.
	CorePath, DetailsPath string
	Core, Details, Main   string
}

// CoreLines and DetailsLines are the sizes of the two parts.
func (p Plan) CoreLines() int    { return p.At - 1 }
func (p Plan) DetailsLines() int { return p.Lines - p.At + 1 }

// Names returns the core and details paths of file (x.md → x.core.md,
// x.details.md).
func Names(file string) (core, details string) {
	stem := strings.TrimSuffix(file, ".md")
	return stem + ".core.md", stem + ".details.md"
}

// IsPart reports whether file is itself the core or details of a split.
func IsPart(file string) bool {
	return strings.HasSuffix(file, ".core.md") || strings.HasSuffix(file, ".details.md")
}

// PlanFile decides how to split file, whose bytes are data.
func PlanFile(file string, data []byte) Plan {
	text := string(data)
	p := Plan{File: file, Lines: countLines(text)}
	switch {
	case !strings.HasSuffix(file, ".md"):
		p.Reason = "not a .md file"
		return p
	case IsPart(file):
		p.Reason = "it is part of a split file"
		return p
	case hasMarker(text):
		p.Reason = "already split"
		return p
	case p.Lines < MinLines:
		p.Reason = fmt.Sprintf("%d lines, under %d", p.Lines, MinLines)
		return p
	}
	starts := lineStarts(text)
	target := int(math.Ceil(float64(p.Lines) * CoreShare)) // 1-based line the core reaches at least
	at := 0
	for _, h := range headings(text, starts) {
		if h > target && h-1 >= Margin && p.Lines-h+1 >= Margin {
			at = h
			break
		}
	}
	if at == 0 {
		p.Reason = fmt.Sprintf("no # or ## heading between line %d and line %d to split at", target+1, p.Lines-Margin+1)
		return p
	}
	off := starts[at-1]
	p.Split, p.At = true, at
	p.Heading = strings.TrimRight(strings.SplitN(text[off:], "\n", 2)[0], "\r")
	p.CorePath, p.DetailsPath = Names(file)
	base, coreBase, detailsBase := path.Base(file), path.Base(p.CorePath), path.Base(p.DetailsPath)
	p.Core = text[:off]
	p.Details = fmt.Sprintf("%s the rest of %s (its lines %d-%d), split off by `git speed split`. The core an agent always loads is %s; load this file too only when the task needs these details. -->\n\n", detailsHeader, base, at, p.Lines, coreBase) + text[off:]
	p.Main = p.Core
	if !strings.HasSuffix(p.Main, "\n") {
		p.Main += "\n"
	}
	p.Main += fmt.Sprintf("\n%s the rest of this command (lines %d-%d of the original) is in %s; the core above is also in %s. -->\n", Marker, at, p.Lines, detailsBase, coreBase)
	return p
}

// countLines counts lines as an editor does: a last line without a
// newline counts.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// lineStarts returns the byte offset of each line.
func lineStarts(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && i+1 < len(s) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// headings returns the 1-based lines of "#" and "##" headings outside code
// fences.
func headings(s string, starts []int) []int {
	var out []int
	fence := ""
	for i, off := range starts {
		end := len(s)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		l := strings.TrimRight(s[off:end], "\r\n")
		t := strings.TrimLeft(l, " ")
		if len(l)-len(t) > 3 {
			continue // indented code
		}
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if f := fenceOf(t); f != "" {
			fence = f
			continue
		}
		if t == "#" || t == "##" || strings.HasPrefix(t, "# ") || strings.HasPrefix(t, "## ") {
			out = append(out, i+1)
		}
	}
	return out
}

func fenceOf(t string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 {
			return t[:n]
		}
	}
	return ""
}

func hasMarker(s string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), Marker) {
			return true
		}
	}
	return false
}

// Load returns the command in file (x.md) of fsys: its core when
// x.core.md exists, followed by the details of x.details.md (without their
// header) when details is set; the whole of x.md otherwise.
func Load(fsys fs.FS, file string, details bool) (string, error) {
	corePath, detailsPath := Names(file)
	core, err := fs.ReadFile(fsys, corePath)
	if errors.Is(err, fs.ErrNotExist) {
		b, err := fs.ReadFile(fsys, file)
		return string(b), err
	}
	if err != nil {
		return "", err
	}
	if !details {
		return string(core), nil
	}
	d, err := fs.ReadFile(fsys, detailsPath)
	if err != nil {
		return "", fmt.Errorf("%s has a core but its details cannot be read: %w", file, err)
	}
	return string(core) + stripHeader(string(d)), nil
}

// stripHeader drops a details file's header line and the blank line after
// it.
func stripHeader(s string) string {
	if !strings.HasPrefix(s, detailsHeader) {
		return s
	}
	i := strings.Index(s, "-->\n")
	if i < 0 {
		return s
	}
	s = s[i+len("-->\n"):]
	return strings.TrimPrefix(s, "\n")
}
