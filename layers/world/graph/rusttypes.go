package graph

import (
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// Rust members through their receiver's type: the extractor writes a
// member use's receiver as a chain (":T" for self in an impl of T, a
// parameter or local declared T, T { … }; "f()" for what function f
// returns; ">x" and ">m()" after them, with references, Result, Option,
// Box, Rc and Arc seen through). A member of a type of the tree is looked
// up in the type's own file and its impl blocks in the crate, then in the
// default methods of the traits it implements; a method of a trait links
// to the trait and to every impl of it that defines the method. T::m
// finds m in T's impl blocks beside T's own file.

// rustIsChain reports whether a reference's qualifier is a receiver
// chain (not a path as written: self, a::b).
func rustIsChain(q string) bool {
	return strings.HasPrefix(q, ":") && !strings.HasPrefix(q, "::") || strings.Contains(q, "()") || strings.Contains(q, ">")
}

// rustTypeKind reports whether a definition of kind k is a type members
// are looked up in.
func rustTypeKind(k string) bool {
	return k == world.KindStruct || k == world.KindEnum || k == world.KindTrait || k == world.KindType
}

// rustType is a type a receiver holds: its name and the files declaring
// a type of that name that the file sees.
type rustType struct {
	name  string
	files []int
}

// rustTyped links file i's references whose receiver's type the code
// says, and the impl blocks of T::m, and returns the file's link with the
// references left for scope rules.
func (a *acc) rustTyped(x *rustIndex, i int, s *scope) *world.Link {
	l := a.links[i]
	keep := make([]world.LinkRef, 0, len(l.Refs))
	for _, r := range l.Refs {
		switch {
		case rustIsChain(r.Qual):
			if t, ok := a.rustChain(x, i, s, r.Qual); ok {
				for _, f := range a.rustMembers(x, t, r.Name) {
					a.edge(i, f.file, r.Count, 1)
				}
				continue
			}
			r.Qual = "" // a receiver of a type outside the tree, or not said
		case r.Qual != "" && r.Kind != world.RefType && capitalised(lastSegment(r.Qual, "::")):
			if fs := a.rustTypeNamed(x, i, s, r.Qual); len(fs) > 0 {
				t := rustType{lastSegment(r.Qual, "::"), fs}
				for _, f := range a.rustMembers(x, t, r.Name) {
					a.edge(i, f.file, r.Count, 1)
				}
			}
		}
		keep = append(keep, r)
	}
	c := *l
	c.Refs = keep
	return &c
}

// capitalised reports whether s starts with a capital letter (a type by
// Rust's convention).
func capitalised(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

// lastSegment returns what follows the last sep in s.
func lastSegment(s, sep string) string {
	if k := strings.LastIndex(s, sep); k >= 0 {
		return s[k+len(sep):]
	}
	return s
}

// rustTypeNamed returns the files declaring the type q (T or a::b::T)
// as file i sees it.
func (b *builder) rustTypeNamed(x *rustIndex, i int, s *scope, q string) []int {
	if s == nil {
		return nil
	}
	name := lastSegment(q, "::")
	if b.rustDefinesType(i, name) && !strings.Contains(q, "::") {
		return []int{i}
	}
	var fs []int
	if k := strings.Index(q, "::"); k > 0 {
		if mods, ok := s.alias[q[:k]]; ok {
			fs = b.definers(s, mods, name)
		}
	}
	if len(fs) == 0 {
		fs = b.bare(s, name)
	}
	var out []int
	for _, f := range fs {
		if b.rustDefinesType(f, name) {
			out = append(out, f)
		}
	}
	return out
}

// rustDefinesType reports whether file f declares a type called name.
func (b *builder) rustDefinesType(f int, name string) bool {
	for _, d := range b.links[f].DefsNamed(name) {
		if rustTypeKind(d.Kind) {
			return true
		}
	}
	return false
}

// rustChain evaluates a receiver chain of file i to the type it holds;
// ok is false when some step leaves the tree's types.
func (a *acc) rustChain(x *rustIndex, i int, s *scope, q string) (rustType, bool) {
	parts := strings.Split(q, ">")
	var t rustType
	head := parts[0]
	switch {
	case strings.HasPrefix(head, ":"):
		t = rustType{lastSegment(head[1:], "::"), a.rustTypeNamed(x, i, s, head[1:])}
	case strings.HasSuffix(head, "()"):
		fn := strings.TrimSuffix(head, "()")
		var fs []int
		if k := strings.LastIndex(fn, "::"); k > 0 {
			if mods, ok := s.alias[fn[:strings.Index(fn, "::")]]; ok {
				fs = a.definers(s, mods, fn[k+2:])
			}
			fn = fn[k+2:]
		} else if a.defines(i, fn) {
			fs = []int{i}
		} else {
			fs = a.bare(s, fn)
		}
		for _, f := range fs {
			for _, d := range a.links[f].DefsNamed(fn) {
				if d.Parent == "" && d.Returns != "" {
					t = rustType{lastSegment(d.Returns, "::"), a.rustTypeNamed(x, f, x.scopes[f], d.Returns)}
				}
			}
		}
	}
	for _, sel := range parts[1:] {
		if len(t.files) == 0 {
			return t, false
		}
		var next rustType
		for _, m := range a.rustMembers(x, t, strings.TrimSuffix(sel, "()")) {
			if m.def.Returns != "" {
				next = rustType{lastSegment(m.def.Returns, "::"), a.rustTypeNamed(x, m.file, x.scopes[m.file], m.def.Returns)}
				break
			}
		}
		t = next
	}
	return t, len(t.files) > 0
}

// rustMember is a member found for a type: the file declaring it and its
// definition.
type rustMember struct {
	file int
	def  world.LinkDef
}

// rustMembers finds member name of type t: in the files declaring t and
// the impl blocks of t in their crates; for a trait, in the trait and the
// impls of it that define it; else in the default methods of the traits
// t implements.
func (b *builder) rustMembers(x *rustIndex, t rustType, name string) []rustMember {
	var out []rustMember
	crates := map[string]bool{}
	trait := false
	for _, f := range t.files {
		crates[x.crateOf[f]] = true
		for _, d := range b.links[f].DefsNamed(t.name) {
			trait = trait || d.Kind == world.KindTrait
		}
	}
	in := func(f int, parent string) bool {
		found := false
		for _, d := range b.links[f].DefsNamed(name) {
			if lastSegment(d.Parent, ".") == parent {
				out = append(out, rustMember{f, d})
				found = true
			}
		}
		return found
	}
	for _, f := range t.files {
		in(f, t.name)
	}
	for _, f := range x.impls[t.name] {
		if crates[x.crateOf[f]] && !containsInt(t.files, f) {
			in(f, t.name)
		}
	}
	if trait {
		for _, f := range x.traits[t.name] {
			for _, d := range b.links[f].Defs {
				if d.Kind == world.KindModule && lastSegment(strings.TrimPrefix(d.Returns, "impl:"), "::") == t.name && d.Returns != "impl" {
					in(f, d.Name)
				}
			}
		}
		return out
	}
	if len(out) > 0 {
		return out
	}
	// Default methods of the traits t implements.
	for _, f := range x.impls[t.name] {
		if !crates[x.crateOf[f]] {
			continue
		}
		for _, d := range b.links[f].DefsNamed(t.name) {
			if tr, ok := strings.CutPrefix(d.Returns, "impl:"); ok {
				for _, tf := range b.rustTypeNamed(x, f, x.scopes[f], tr) {
					in(tf, lastSegment(tr, "::"))
				}
			}
		}
	}
	return out
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
