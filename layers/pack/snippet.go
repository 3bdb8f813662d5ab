package pack

import (
	"fmt"
	"github.com/git-speed/git-speed/internal/lex"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/terms"
)

// Snippet bounds: a definition up to SnippetLines long is quoted whole;
// in a longer one, or outside any, the window around the best line is.
const (
	SnippetLines = 40
	before       = 8
	after        = 24
	maxLineBytes = 300
	maxSymbols   = 8
)

// makeItem fills one pack item: its reason in words that hold for the
// file, the definitions the request names (best first), and the snippet
// of the best of them, or else the lines around the line that matches
// most, cut at the enclosing definition.
func makeItem(src Source, q *query, s Scored, req Request) (Item, error) {
	ep, ok := src.Entry(s.Path)
	if !ok {
		return Item{}, fmt.Errorf("%s: not in tree %s", s.Path, short(src.Tree()))
	}
	e := *ep
	it := Item{Path: s.Path, Language: e.Lang, Score: s.Score, Reason: s.Reason, Evidence: s.Evidence, Symbols: []string{}}
	if it.Language == "" {
		it.Language = "text"
	}
	facts, err := src.Facts(s.Path)
	if err != nil {
		return it, err
	}
	want := map[string]bool{}
	for _, t := range s.matched {
		want[t] = true
	}
	if len(want) == 0 {
		for _, t := range q.terms {
			want[t] = true
		}
	}
	var defs []world.Def
	if facts != nil {
		defs = facts.Defs
	}
	var lines []string
	h := hits{}
	readable := !terms.SecretValues(e.Lang) && !e.Has(world.FlagBinary) && !e.Has(world.FlagTooLarge) && !e.Has(world.FlagSubmodule) && !e.Has(world.FlagSymlink)
	if readable {
		data, err := src.Content(s.Path)
		if err != nil {
			return it, err
		}
		lines = strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		h = lineHits(lines, want)
	}
	order := ranked(q, defs, want, h)
	if s.lexical {
		it.Reason = reasonOf(q, s, e.Lang, defs, order, lines, h)
	}
	it.Symbols = symbols(defs, order, want)
	if terms.SecretValues(e.Lang) {
		it.Evidence = append(it.Evidence, "no snippet: the values of "+e.Lang+" files are never shown")
		return it, nil
	}
	if !readable {
		it.Evidence = append(it.Evidence, "no snippet: "+flagReason(&e))
		return it, nil
	}
	n := len(lines)
	var from, to, best int
	var def *world.Def
	if len(order) > 0 {
		def = container(defs, order[0], n)
	}
	if def != nil && def.Start >= 1 && def.End <= n && def.Start <= def.End {
		best = h.best(def.Start, def.End)
		from, to = def.Start, def.End
		if to-from+1 > SnippetLines {
			from, to = max(def.Start, best-before), min(def.End, best+after)
		}
		// Its doc comment belongs to it.
		for whole := from == def.Start; whole && from > 1 && def.Start-from < 6 && comment(lines[from-2]) && to-from+1 < SnippetLines; {
			from--
		}
	} else {
		best = h.best(1, n)
		from, to, def = window(lines, best, defs)
	}
	it.LineRange = fmt.Sprintf("%d-%d", from, to)
	it.best = best
	if def != nil && def.Signature != "" {
		it.Signature = emit(req, s.Path, def.Signature)
		it.defStart = def.Start
	}
	it.Snippet = emit(req, s.Path, quote(lines, from, to))
	capSnippet(&it, req.Counter.Count)
	return it, nil
}

// emit is the one place where text taken from a file enters a pack.
func emit(req Request, path, text string) string {
	if req.Redact != nil {
		return req.Redact(path, text)
	}
	return text
}

func flagReason(e *world.FileEntry) string {
	for _, f := range e.Flags {
		switch f.Name {
		case world.FlagBinary, world.FlagTooLarge, world.FlagSubmodule, world.FlagSymlink:
			return f.Reason
		}
	}
	return "not text"
}

// symbols are the definitions the request names, best first (order, by
// ranked), then the others whose names match, or else the file's first
// exported ones.
func symbols(defs []world.Def, order []int, want map[string]bool) []string {
	out := []string{}
	seen := map[string]bool{}
	add := func(d world.Def) {
		n := d.Qualified
		if n == "" {
			n = d.Name
		}
		if !seen[n] && len(out) < maxSymbols {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, i := range order {
		add(defs[i])
	}
	for _, d := range defs {
		if nameMatches(d.Name, want) {
			add(d)
		}
	}
	if len(out) == 0 {
		for _, d := range defs {
			if d.Exported && d.Parent == "" {
				add(d)
			}
		}
	}
	return out
}

func nameMatches(name string, want map[string]bool) bool {
	if want[lex.Whole(name)] {
		return true
	}
	for _, p := range lex.Split(name) {
		if want[lex.Stem(p)] {
			return true
		}
	}
	return false
}

// window picks the lines to quote around line best: the innermost
// definition holding it when it is short enough, else a window clipped to
// that definition (or the file).
func window(lines []string, best int, defs []world.Def) (from, to int, def *world.Def) {
	n := len(lines)
	for i := range defs {
		d := &defs[i]
		if member(d.Kind) {
			continue // a field or constant is too small to quote alone: its container is
		}
		if d.Start <= best && best <= d.End && d.End <= n {
			if def == nil || d.End-d.Start < def.End-def.Start {
				def = d
			}
		}
	}
	if def == nil {
		// A doc comment just above a definition belongs to it.
		for i := range defs {
			d := &defs[i]
			if !member(d.Kind) && d.Start > best && d.Start <= best+3 && d.End <= n && (def == nil || d.Start < def.Start) {
				def = d
			}
		}
		if def != nil && def.End-best+1 <= SnippetLines {
			return best, def.End, def
		}
		def = nil
	}
	lo, hi := 1, n
	if def != nil {
		if def.End-def.Start+1 <= SnippetLines {
			return def.Start, def.End, def
		}
		lo, hi = def.Start, def.End
	}
	from, to = max(lo, best-before), min(hi, best+after)
	return from, to, def
}

// quote returns lines from..to (1-based, inclusive), long lines cut.
func quote(lines []string, from, to int) string {
	var b strings.Builder
	for i := from; i <= to && i <= len(lines); i++ {
		l := lines[i-1]
		if len(l) > maxLineBytes {
			l = clip(l, maxLineBytes)
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// member kinds are one-line parts of a larger definition.
func member(kind string) bool {
	switch kind {
	case world.KindField, world.KindProperty, world.KindConst, world.KindVar, world.KindKey:
		return true
	}
	return false
}
