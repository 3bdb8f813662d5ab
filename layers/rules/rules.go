package rules

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/git-speed/git-speed/internal/pathglob"
)

//go:embed library/*.md
var library embed.FS

// Levels a rule may have, strongest first.
const (
	LevelStrict   = "strict"
	LevelWarning  = "warning"
	LevelAdvisory = "advisory"
)

// Rule is one "## Rule:" block of a rule file.
type Rule struct {
	Title string // after "Rule:"
	Level string // strict, warning or advisory ("" when the block has none)
	When  string // when the rule applies ("" when the block has none)
	Body  string // the block's other lines, code blocks included
	Line  int    // line of the "## Rule:" header
}

// File is a parsed rule file.
type File struct {
	Source string   // "library/go.md" or ".speed/rules/x.md"
	Area   string   // the area it belongs to (see Areas), "" for a repository file of its own
	Title  string   // its "# " heading, or its name
	Globs  []string // a repository file's "**Files**:" globs; none means every task
	Rules  []Rule
}

// Warning is a problem in a rule file that does not stop it being used.
type Warning struct {
	File string
	Line int
	Msg  string
}

func (w Warning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Msg)
	}
	return w.File + ": " + w.Msg
}

// Parse reads a rule file. Lines inside code fences are never headers.
// Problems (a rule without a Level or When, an unknown Level, a rule title
// given twice) are warnings: the file is still used.
func Parse(source string, data []byte) (*File, []Warning) {
	f := &File{Source: source}
	var warns []Warning
	warn := func(line int, format string, args ...any) {
		warns = append(warns, Warning{File: source, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var cur *Rule
	var body []string
	fence := ""
	flush := func() {
		if cur == nil {
			return
		}
		cur.Body = strings.TrimSpace(strings.Join(body, "\n"))
		if cur.Level == "" {
			warn(cur.Line, "rule %q has no **Level**: line", cur.Title)
		}
		if cur.When == "" {
			warn(cur.Line, "rule %q has no **When**: line", cur.Title)
		}
		f.Rules = append(f.Rules, *cur)
		cur, body = nil, nil
	}
	for i, l := range lines {
		n := i + 1
		t := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
			if cur != nil {
				body = append(body, l)
			}
			continue
		}
		if fc := fenceOf(t); fc != "" {
			fence = fc
			if cur != nil {
				body = append(body, l)
			}
			continue
		}
		if title, ok := ruleHeader(t); ok {
			flush()
			if title == "" {
				warn(n, "rule header without a title")
			}
			cur = &Rule{Title: title, Line: n}
			continue
		}
		if strings.HasPrefix(t, "# ") && f.Title == "" && cur == nil {
			f.Title = strings.TrimSpace(t[2:])
			continue
		}
		if v, ok := field(t, "Level"); ok && cur != nil && cur.Level == "" {
			lv := strings.ToLower(v)
			switch lv {
			case LevelStrict, LevelWarning, LevelAdvisory:
			default:
				warn(n, "rule %q: level %q is not strict, warning or advisory", cur.Title, v)
			}
			cur.Level = lv
			continue
		}
		if v, ok := field(t, "When"); ok && cur != nil && cur.When == "" {
			cur.When = v
			continue
		}
		if v, ok := field(t, "Files"); ok && cur == nil {
			for _, g := range strings.Split(v, ",") {
				if g = strings.Trim(strings.TrimSpace(g), "`"); g != "" {
					if err := pathglob.Valid(g); err != nil {
						warn(n, "%v in **Files**", err)
						continue
					}
					f.Globs = append(f.Globs, g)
				}
			}
			continue
		}
		if cur != nil {
			body = append(body, l)
		}
	}
	flush()
	seen := map[string]int{}
	for _, r := range f.Rules {
		k := key(r.Title)
		if first, ok := seen[k]; ok {
			warn(r.Line, "rule %q is given again (first at line %d); the later one wins", r.Title, first)
		} else {
			seen[k] = r.Line
		}
	}
	if f.Title == "" {
		f.Title = strings.TrimSuffix(path.Base(source), ".md")
	}
	return f, warns
}

// ruleHeader recognises "## Rule: T" and "### Rule: T".
func ruleHeader(t string) (string, bool) {
	for _, p := range []string{"## Rule:", "### Rule:"} {
		if strings.HasPrefix(t, p) {
			return strings.TrimSpace(t[len(p):]), true
		}
	}
	return "", false
}

// field recognises "**Name**: value" (and "**Name:** value").
func field(t, name string) (string, bool) {
	for _, p := range []string{"**" + name + "**:", "**" + name + ":**"} {
		if len(t) >= len(p) && strings.EqualFold(t[:len(p)], p) {
			return strings.TrimSpace(t[len(p):]), true
		}
	}
	return "", false
}

// fenceOf returns the run of backticks or tildes that opens a fence on t.
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

// key is how rule titles are compared for overriding.
func key(title string) string { return strings.ToLower(strings.Join(strings.Fields(title), " ")) }

// Library returns the embedded rule files, parsed once, in Areas order.
// The files are shared: callers must not change them.
func Library() []*File { return parsedLibrary() }

var parsedLibrary = sync.OnceValue(func() []*File {
	var out []*File
	for _, a := range Areas {
		data, err := library.ReadFile("library/" + a.Name + ".md")
		if err != nil {
			panic("rules: embedded library misses " + a.Name + ".md") // a build mistake, caught by the tests
		}
		f, _ := Parse("library/"+a.Name+".md", data)
		f.Area = a.Name
		out = append(out, f)
	}
	return out
})

// LoadRepo reads the repository's rule files, dir/*.md of fsys (dir is
// relative to the work tree, such as ".speed/rules"), sorted by name. A
// file named after an area (go.md, docker.md, owasp.md …) goes with that
// area; another applies to the tasks its **Files**: globs match, or to
// every task when it has none. README.md is not a rule file. A missing
// folder is no rules and no error.
func LoadRepo(fsys fs.FS, dir string) ([]*File, []Warning) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, nil
	}
	var out []*File
	var warns []Warning
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") || strings.EqualFold(e.Name(), "README.md") {
			continue // a README says what the folder is for
		}
		p := path.Join(dir, e.Name())
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			warns = append(warns, Warning{File: p, Msg: err.Error()})
			continue
		}
		f, w := Parse(p, data)
		warns = append(warns, w...)
		name := strings.TrimSuffix(e.Name(), ".md")
		for _, a := range Areas {
			if a.Name == name {
				f.Area = name
			}
		}
		if len(f.Rules) == 0 {
			warns = append(warns, Warning{File: p, Msg: "no \"## Rule:\" blocks; the file adds nothing"})
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source })
	return out, warns
}
