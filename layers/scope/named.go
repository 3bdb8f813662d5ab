package scope

import (
	"path"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/git-speed/git-speed/layers/world"
)

// named is a file the task's text names, and the word that named it.
type named struct {
	file int
	name string
}

// Limits of the names signal.
const (
	maxNameFiles  = 3 // a basename or definition in more files names none of them
	minIdentChars = 4 // shorter identifiers are too common to trust
)

// namedFiles finds the files whose path, basename or a definition the
// task's title, description, acceptance or decisions (its own and its
// upstream tasks') name. Identifiers count only when they look like code
// (camelCase, snake_case, a dot or a digit inside, or quoted in
// backticks), so plain English does not match. The result is sorted by
// file.
func (s *state) namedFiles() []named {
	var parts []string
	parts = append(parts, s.task.Title, s.task.Description)
	parts = append(parts, s.task.Acceptance...)
	var declared []string
	for _, d := range s.decisions {
		parts = append(parts, d.Summary, d.Detail)
		declared = append(declared, d.Files...)
	}
	text := strings.Join(parts, "\n")
	found := map[int]string{}
	add := func(i int, name string) {
		if i < 0 {
			return
		}
		if _, ok := found[i]; !ok {
			found[i] = name
		}
	}
	g := s.g
	for _, p := range declared {
		add(g.Index(strings.TrimPrefix(path.Clean(p), "./")), p)
	}
	var defs map[string][]int32
	for _, w := range words(text) {
		tok := strings.Trim(w.text, ".,;:()[]{}<>'\"!?")
		tok = strings.TrimPrefix(tok, "./")
		if tok == "" {
			continue
		}
		if strings.Contains(tok, "/") || hasSourceExt(tok) {
			for _, i := range s.filesNamed(tok) {
				add(i, tok)
			}
			continue
		}
		for _, id := range strings.FieldsFunc(tok, func(r rune) bool { return r == '.' || r == ':' || r == '#' }) {
			if len(id) < minIdentChars || !isIdent(id) || !(w.quoted || codeLike(id) || strings.ContainsAny(tok, ".:#")) {
				continue
			}
			if defs == nil {
				defs = s.definers()
			}
			if fs := defs[id]; len(fs) > 0 && len(fs) <= maxNameFiles {
				for _, i := range fs {
					add(int(i), id)
				}
			}
		}
	}
	out := make([]named, 0, len(found))
	for i, n := range found {
		out = append(out, named{i, n})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].file < out[b].file })
	return out
}

// filesNamed resolves a path-like word: the exact path, else files whose
// path ends with it at a folder boundary, else (for a bare file name) the
// files with that basename; none when more than maxNameFiles match.
func (s *state) filesNamed(tok string) []int {
	g := s.g
	if i := g.Index(tok); i >= 0 {
		return []int{i}
	}
	var out []int
	suffix := "/" + tok
	for i := range g.Files {
		if strings.HasSuffix(g.Files[i].Path, suffix) {
			out = append(out, i)
			if len(out) > maxNameFiles {
				return nil
			}
		}
	}
	return out
}

type word struct {
	text   string
	quoted bool // inside `backticks`
}

// words splits text at white space, noting a word quoted alone in
// backticks (`parseArgs`, not `git speed status`).
func words(text string) []word {
	var out []word
	quoted := false
	for _, seg := range strings.Split(text, "`") {
		fs := strings.Fields(seg)
		for _, f := range fs {
			out = append(out, word{f, quoted && len(fs) == 1})
		}
		quoted = !quoted
	}
	return out
}

// codeLangs are the languages whose definitions the names signal
// matches: code and code-like schemas, not data or prose (a TOML key or a
// Markdown heading named "status" is no identifier).
var codeLangs = map[string]bool{
	world.LangGo: true, world.LangPython: true, world.LangJavaScript: true, world.LangTypeScript: true, world.LangTSX: true,
	world.LangBash: true, world.LangRust: true, world.LangJava: true, world.LangC: true, world.LangCPP: true,
	world.LangCSharp: true, world.LangPHP: true, world.LangRuby: true, world.LangPowerShell: true,
	world.LangGraphQL: true, world.LangProtobuf: true, world.LangPrisma: true, world.LangSQL: true, world.LangHCL: true,
	world.LangNix: true, world.LangGradle: true, world.LangMATLAB: true, world.LangObjC: true, world.LangGDScript: true,
}

func hasSourceExt(tok string) bool {
	ext := path.Ext(tok)
	if len(ext) < 2 || len(ext) > 6 || ext == tok {
		return false
	}
	return world.DetectLang(tok, nil) != ""
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// codeLike: an underscore or digit inside, or a capital after a small
// letter (camelCase, PascalCase with two humps).
func codeLike(s string) bool {
	for i, r := range s {
		if i > 0 && (r == '_' || unicode.IsDigit(r)) {
			return true
		}
		if i > 0 && unicode.IsUpper(r) && unicode.IsLower(rune(s[i-1])) {
			return true
		}
	}
	return false
}

var defsMu sync.Mutex

// LinkLoader is a World that reads every file's definitions into
// Graph().Links on demand (build.World does); the names signal asks for
// them the first time a task's text names an identifier.
type LinkLoader interface {
	LoadLinks() error
}

// definers maps each definition name to the files defining it, from the
// graph's Links (loaded through LinkLoader when missing); empty when the
// world has none.
func (s *state) definers() map[string][]int32 {
	g := s.g
	// A world shared by calls running at once loads its links under its
	// own lock: asking it (cheap once they are loaded) is what makes them
	// safe to read here.
	if ll, ok := s.w.(LinkLoader); ok {
		if err := ll.LoadLinks(); err != nil {
			s.warn("names signal: no definitions: %v", err)
		}
	}
	if g.Links == nil {
		return map[string][]int32{}
	}
	a := adjacencyOf(g)
	defsMu.Lock()
	defer defsMu.Unlock()
	if a.defs != nil {
		return a.defs
	}
	a.defs = map[string][]int32{}
	for i, l := range g.Links {
		if l == nil || !codeLangs[l.Lang] {
			continue
		}
		last := ""
		for _, d := range l.Defs {
			if d.Name != last {
				a.defs[d.Name] = append(a.defs[d.Name], int32(i))
				last = d.Name
			}
		}
	}
	return a.defs
}
