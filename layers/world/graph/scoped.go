package graph

import (
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// scope is what one file can see through its imports, for the languages
// resolved by scope rules (all but Go): qualifiers bound to files, names
// imported from files, and groups of files whose names are visible bare
// (same package or namespace, glob imports, included headers).
type scope struct {
	alias map[string][]int // qualifier as written → files it names
	named map[string][]int // name imported bare → files it comes from
	globs [][]int          // file groups whose names are visible bare
	weak  [][]int          // groups seen at lower confidence (transitive includes)
	// follow, when set, looks for name through the re-exports of file f.
	follow func(f int, name string, depth int) []int
	// extern names what the file imports from outside the tree: such a
	// name, or a member selected from it, is never linked by name alone.
	extern map[string]bool
	// noFallback turns the name fallback off (a module system where every
	// name from another file is imported).
	noFallback bool
	// noMemberGuess turns off linking a member of an unknown receiver to
	// the few files in scope that declare a member of that name.
	noMemberGuess bool
	// pkgQual, when set, resolves a qualifier that names a whole package
	// or namespace (Shop.Models.Order): ok reports that q is one.
	pkgQual func(q, name string) (files []int, ok bool)
	// lastResort, when set, is asked about a qualified reference nothing
	// else resolved.
	lastResort func(q, name string) []int
}

func newScope() *scope {
	return &scope{alias: map[string][]int{}, named: map[string][]int{}}
}

func (s *scope) bind(q string, files ...int) {
	if q == "" || len(files) == 0 {
		return
	}
	s.alias[q] = addSorted(s.alias[q], files...)
}

func (s *scope) name(n string, files ...int) {
	if n == "" || len(files) == 0 {
		return
	}
	s.named[n] = addSorted(s.named[n], files...)
}

func (s *scope) glob(files ...int) {
	if len(files) > 0 {
		s.globs = append(s.globs, files)
	}
}

func addSorted(s []int, v ...int) []int {
	s = append(s, v...)
	sort.Ints(s)
	return uniq(s)
}

// selfQuals name the current object or class, not another file.
var selfQuals = map[string]bool{"self": true, "this": true, "cls": true, "Self": true, "static": true, "super": true, "parent": true, "$this": true, "@": true}

// qualHead returns the first segment of a qualifier written with ".",
// "::", "\\" or "->".
func qualHead(q string) string {
	for _, sep := range []string{"::", "->", "\\", "."} {
		if k := strings.Index(q, sep); k > 0 {
			q = q[:k]
		}
	}
	return q
}

// definers returns the files of fs defining name, following re-exports
// when a file does not define it itself.
func (b *builder) definers(s *scope, fs []int, name string) []int {
	var out []int
	for _, f := range fs {
		if b.defines(f, name) {
			out = append(out, f)
		} else if s.follow != nil {
			out = append(out, s.follow(f, name, 2)...)
		}
	}
	sort.Ints(out)
	return uniq(out)
}

// resolveScoped links file i's references through s, then by member
// scope, then by the guarded name fallback.
func (a *acc) resolveScoped(i int, l *world.Link, s *scope) {
	for _, r := range l.Refs {
		if r.Kind == world.RefFixture {
			continue // resolved by the Python resolver, never by name alone
		}
		if a.resolveRef(i, s, r) {
			continue
		}
		if s.extern[r.Name] && r.Qual == "" || r.Qual != "" && s.extern[qualHead(r.Qual)] {
			continue
		}
		if s.lastResort != nil && r.Qual != "" && !selfQuals[r.Qual] {
			if d := s.lastResort(r.Qual, r.Name); len(d) > 0 {
				a.spread(i, d, r.Count, 1)
				continue
			}
		}
		if r.Kind == world.RefMember || (r.Qual != "" && !selfQuals[r.Qual]) {
			if !s.noMemberGuess {
				a.scopedMember(i, s, r)
			}
			continue
		}
		if s.noFallback || a.definesTop(i, r.Name) {
			continue // the file's own definition
		}
		a.fallback(i, r)
	}
}

// external records that the file binds names to a module outside the tree.
func (s *scope) external(names ...string) {
	if s.extern == nil {
		s.extern = map[string]bool{}
	}
	for _, n := range names {
		if n != "" && n != "*" {
			s.extern[n] = true
		}
	}
}

func (a *acc) resolveRef(i int, s *scope, r world.LinkRef) bool {
	q := r.Qual
	if q != "" && !selfQuals[q] && s.pkgQual != nil {
		if fs, ok := s.pkgQual(q, r.Name); ok {
			a.spread(i, fs, r.Count, 1)
			return true
		}
	}
	if q != "" && !selfQuals[q] {
		// module.name, ns::name: the qualifier names imported files.
		for _, k := range []string{q, qualHead(q)} {
			if fs, ok := s.alias[k]; ok {
				if d := a.definers(s, fs, r.Name); len(d) > 0 {
					a.spread(i, d, r.Count, 1)
					return true
				}
			}
		}
		// Type.member: the qualifier is a name the file sees.
		h := qualHead(q)
		if d := a.bare(s, h); len(d) > 0 {
			a.spread(i, d, r.Count, 1)
			return true
		}
		return false
	}
	if d := a.bare(s, r.Name); len(d) > 0 {
		a.spread(i, d, r.Count, 1)
		return true
	}
	return false
}

// bare returns the files defining name as the file sees it bare.
func (b *builder) bare(s *scope, name string) []int {
	if fs, ok := s.named[name]; ok {
		if d := b.definers(s, fs, name); len(d) > 0 {
			return d
		}
		return fs // imported by name: the module it comes from
	}
	for _, g := range s.globs {
		if d := b.definers(s, g, name); len(d) > 0 {
			return d
		}
	}
	return nil
}

// scopedMember links x.name to files in scope defining a member name, when
// few do.
func (a *acc) scopedMember(i int, s *scope, r world.LinkRef) {
	if commonNames[r.Name] || len(r.Name) < minFallbackName {
		return
	}
	var cands []int
	add := func(fs []int) {
		for _, f := range fs {
			if f != i && a.definesMember(f, r.Name) {
				cands = append(cands, f)
			}
		}
	}
	for _, fs := range s.alias {
		add(fs)
	}
	for _, fs := range s.named {
		add(fs)
	}
	for _, g := range s.globs {
		add(g)
	}
	sort.Ints(cands)
	cands = uniq(cands)
	if len(cands) == 0 || len(cands) > maxGoMember {
		return
	}
	a.spread(i, cands, r.Count, 0.5)
}

// definesMember reports whether file i defines name inside a parent.
func (b *builder) definesMember(i int, name string) bool {
	for _, d := range b.links[i].DefsNamed(name) {
		if d.Parent != "" {
			return true
		}
	}
	return false
}

// importName returns the name one entry of im.Names takes from its module
// and the local name it binds: "a as b" inside Names, or a single name
// with Alias (from m import a as b, import {a as b}, import X from: default
// as X, export {a as b} from).
func importName(im world.Import, n string) (orig, local string) {
	if k := strings.Index(n, " as "); k > 0 {
		return strings.TrimSpace(n[:k]), strings.TrimSpace(n[k+4:])
	}
	if len(im.Names) == 1 && im.Alias != "" && im.Alias != "*" {
		return n, im.Alias
	}
	return n, n
}
