// Package instructions discovers the instruction files agents read
// (AGENTS.md, CLAUDE.md …) the way agents do: a global folder, the
// ancestors of the repository, its root, and the folders of the task's
// files up to the root, nearest last so that local rules win. It merges
// them into one prompt section under a token budget, cutting a file that is
// over its share at a heading boundary with a pointer to the lines left out,
// never silently. A file that cannot be used (binary, too large, unreadable,
// a symlink loop) is a warning; the rest is still built.
package instructions

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

// DefaultNames are the instruction file names in priority order: in one
// folder the first name present is read and the others are shadowed.
var DefaultNames = []string{"UMBRA.md", "AGENTS.md", "CLAUDE.md", "CODEX.md", "GEMINI.md", "QWEN.md", "SYSTEM.md"}

// DefaultMaxFileBytes is the size above which an instruction file is
// skipped with a warning.
const DefaultMaxFileBytes = 256 << 10

// Where a file was found, from the most global to the most local.
const (
	ScopeGlobal   = "global"
	ScopeAncestor = "ancestor"
	ScopeRoot     = "root"
	ScopeDir      = "dir"
)

// Options say where to look and how much room the section has.
type Options struct {
	// Names in priority order; nil means DefaultNames.
	Names []string
	// GlobalDir is the user's folder ($XDG_CONFIG_HOME/git-speed); "" skips it.
	GlobalDir string
	// Root is the top of the work tree (absolute); "" reads no repository files.
	Root string
	// Ancestors reads the folders above Root, outermost first.
	Ancestors bool
	// TaskFiles are the task's files (slash paths relative to Root): the
	// folders from each one's up to Root are read.
	TaskFiles []string
	// Home, when set, is shown as ~ in the paths of files outside Root.
	Home string
	// MaxFileBytes; 0 means DefaultMaxFileBytes.
	MaxFileBytes int64
	// Budget is the tokens of the whole section; 0 means no limit.
	Budget int
	// Count counts tokens. Required.
	Count func(string) int
}

// File is one instruction file in the section.
type File struct {
	Path     string   `json:"path"`  // repository-relative for files under Root, else absolute (~ for Home)
	Scope    string   `json:"scope"` // global, ancestor, root or dir
	Shadowed []string `json:"shadowed,omitempty"`
	Lines    int      `json:"lines"`
	Tokens   int      `json:"tokens"`      // of the whole file
	Kept     int      `json:"kept_tokens"` // of what the section holds
	Cut      *Cut     `json:"cut,omitempty"`
	text     string
}

// Cut records the part of a file left out to fit its share.
type Cut struct {
	FromLine    int    `json:"from_line"`
	ToLine      int    `json:"to_line"`
	TokensSaved int    `json:"tokens_saved"`
	Pointer     string `json:"pointer"`
}

// Result is the merged section and how it was built.
type Result struct {
	Files    []File   `json:"files"`
	Text     string   `json:"-"`
	Tokens   int      `json:"tokens"`
	Budget   int      `json:"budget,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

type place struct {
	dir   string // absolute
	scope string
}

// Discover finds, reads and merges the instruction files o describes.
func Discover(o Options) *Result {
	if o.Names == nil {
		o.Names = DefaultNames
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = DefaultMaxFileBytes
	}
	if o.Count == nil {
		o.Count = func(s string) int { return (len(s) + 3) / 4 }
	}
	res := &Result{Budget: o.Budget}
	warn := func(format string, args ...any) { res.Warnings = append(res.Warnings, fmt.Sprintf(format, args...)) }

	var places []place
	if o.GlobalDir != "" {
		places = append(places, place{o.GlobalDir, ScopeGlobal})
	}
	if o.Root != "" {
		root := filepath.Clean(o.Root)
		if o.Ancestors {
			var anc []string
			for d := filepath.Dir(root); ; d = filepath.Dir(d) {
				anc = append(anc, d)
				if filepath.Dir(d) == d {
					break
				}
			}
			for i := len(anc) - 1; i >= 0; i-- {
				places = append(places, place{anc[i], ScopeAncestor})
			}
		}
		places = append(places, place{root, ScopeRoot})
		for _, d := range taskDirs(o.TaskFiles) {
			places = append(places, place{filepath.Join(root, filepath.FromSlash(d)), ScopeDir})
		}
	}

	var seen []os.FileInfo // folders already read, so a symlinked folder is read once
	for _, p := range places {
		st, err := os.Stat(p.dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				warn("instruction folder %s: %s; skipped", o.show(p.dir), reason(err))
			}
			continue
		}
		if !st.IsDir() {
			continue
		}
		dup := false
		for _, s := range seen {
			if os.SameFile(s, st) {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		seen = append(seen, st)
		f, ok := o.readDir(p, warn)
		if ok {
			res.Files = append(res.Files, f)
		}
	}
	o.fit(res)
	return res
}

// taskDirs lists the folders of the task's files up to (not including) the
// root, shallowest first, each once.
func taskDirs(files []string) []string {
	set := map[string]bool{}
	for _, f := range files {
		f = filepath.ToSlash(filepath.Clean(filepath.FromSlash(f)))
		if f == "." || strings.HasPrefix(f, "../") || f == ".." || strings.HasPrefix(f, "/") {
			continue
		}
		for d := parentOf(f); d != "."; d = parentOf(d) {
			set[d] = true
		}
	}
	var out []string
	for d := range set {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		di, dj := strings.Count(out[i], "/"), strings.Count(out[j], "/")
		if di != dj {
			return di < dj
		}
		return out[i] < out[j]
	})
	return out
}

func parentOf(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "."
	}
	return p[:i]
}

// readDir reads the highest-priority instruction file of one folder.
func (o *Options) readDir(p place, warn func(string, ...any)) (File, bool) {
	var f File
	found := false
	for _, name := range o.Names {
		file := filepath.Join(p.dir, name)
		st, err := os.Stat(file)
		if errors.Is(err, fs.ErrNotExist) {
			if _, lerr := os.Lstat(file); lerr == nil {
				warn("instruction file %s: a dangling symlink; skipped", o.show(file))
			}
			continue
		}
		if found {
			f.Shadowed = append(f.Shadowed, name)
			continue
		}
		if err != nil {
			warn("instruction file %s: %s; skipped", o.show(file), reason(err))
			continue
		}
		if st.IsDir() {
			continue
		}
		if st.Size() > o.MaxFileBytes {
			warn("instruction file %s: %s, over the %s limit of an instruction file; skipped (read it yourself if it matters)", o.show(file), size(st.Size()), size(o.MaxFileBytes))
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			warn("instruction file %s: %s; skipped", o.show(file), reason(err))
			continue
		}
		if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
			warn("instruction file %s: binary, not text; skipped", o.show(file))
			continue
		}
		text := strings.ReplaceAll(string(data), "\r\n", "\n")
		text = strings.TrimRight(text, "\n \t")
		if strings.TrimSpace(text) == "" {
			continue
		}
		f = File{Path: o.show(file), Scope: p.scope, text: text + "\n", Lines: strings.Count(text, "\n") + 1}
		found = true
	}
	return f, found
}

// show is how a path appears in the section and the report.
func (o *Options) show(file string) string {
	if o.Root != "" {
		if rel, err := filepath.Rel(filepath.Clean(o.Root), file); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	if o.Home != "" {
		if rel, err := filepath.Rel(filepath.Clean(o.Home), file); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(file)
}

func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err.Error()
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// Heading is the line above each file in the section.
func heading(f *File) string {
	label := map[string]string{ScopeGlobal: "global", ScopeAncestor: "above the repository", ScopeRoot: "repository root", ScopeDir: "folder rules"}[f.Scope]
	return fmt.Sprintf("### %s (%s)\n\n", f.Path, label)
}

// SectionTitle opens the merged section.
const SectionTitle = "## Instructions\n\nInstruction files, from the most global to the most local; where they disagree, the later one wins.\n\n"

// fit gives every file a share of the budget (equal shares, with what a
// small file does not use going to the others), cuts each file over its
// share and joins them into res.Text.
func (o *Options) fit(res *Result) {
	if len(res.Files) == 0 {
		return
	}
	fixed := o.Count(SectionTitle)
	need := make([]int, len(res.Files))
	for i := range res.Files {
		f := &res.Files[i]
		f.Tokens = o.Count(f.text)
		need[i] = f.Tokens + o.Count(heading(f)) + 1
	}
	shares := make([]int, len(res.Files))
	for i := range shares {
		shares[i] = need[i]
	}
	if o.Budget > 0 {
		order := make([]int, len(need))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return need[order[a]] < need[order[b]] })
		left := o.Budget - fixed
		for k, i := range order {
			share := max(left, 0) / (len(order) - k)
			if need[i] < share {
				share = need[i]
			}
			shares[i] = share
			left -= share
		}
	}
	var b strings.Builder
	b.WriteString(SectionTitle)
	for i := range res.Files {
		f := &res.Files[i]
		h := heading(f)
		body := f.text
		if need[i] > shares[i] {
			body = o.cut(f, shares[i]-o.Count(h)-1)
		}
		f.Kept = o.Count(body)
		b.WriteString(h)
		b.WriteString(body)
		b.WriteString("\n")
	}
	res.Text = strings.TrimRight(b.String(), "\n") + "\n"
	res.Tokens = o.Count(res.Text)
}

// cut keeps the longest run of f's leading blocks (a block starts at a
// markdown heading outside code fences) that fits room with the pointer;
// when not even the first block fits, it keeps whole lines. It records
// the cut in f and returns the kept text with the pointer.
func (o *Options) cut(f *File, room int) string {
	lines := strings.SplitAfter(strings.TrimSuffix(f.text, "\n"), "\n")
	starts := headingStarts(lines)
	pointer := func(from int) string {
		return fmt.Sprintf("… cut; read %s lines %d-%d\n", f.Path, from+1, len(lines))
	}
	keep := 0
	for _, s := range starts {
		if s == 0 {
			continue
		}
		if o.Count(strings.Join(lines[:s], ""))+o.Count(pointer(s)) > room {
			break
		}
		keep = s
	}
	if keep == 0 {
		// Not one whole block fits: keep whole lines of the first one.
		lo, hi := 0, len(lines)
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if o.Count(strings.Join(lines[:mid], ""))+o.Count(pointer(mid)) <= room {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		keep = lo
	}
	kept := strings.Join(lines[:keep], "")
	if kept != "" && !strings.HasSuffix(kept, "\n") {
		kept += "\n"
	}
	p := pointer(keep)
	f.Cut = &Cut{FromLine: keep + 1, ToLine: len(lines), TokensSaved: f.Tokens - o.Count(kept), Pointer: strings.TrimSpace(p)}
	return kept + p
}

// headingStarts are the indexes of lines that open a markdown heading
// outside fenced code, plus len(lines) as the end of the last block.
func headingStarts(lines []string) []int {
	var out []int
	fence := ""
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		if strings.HasPrefix(l, "#") {
			n := len(l) - len(strings.TrimLeft(l, "#"))
			if n <= 6 && (len(l) == n || l[n] == ' ' || l[n] == '\n') {
				out = append(out, i)
			}
		}
	}
	return append(out, len(lines))
}
