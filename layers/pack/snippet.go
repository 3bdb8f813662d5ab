package pack

import (
	"fmt"
	"github.com/git-speed/git-speed/internal/lex"
	"sort"
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

// makeItem fills one pack item: symbols, the snippet around the lines that
// match the request best, cut at the enclosing definition.
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
	if facts != nil {
		it.Symbols = symbols(facts.Defs, want)
	}
	if terms.SecretValues(e.Lang) {
		it.Evidence = append(it.Evidence, "no snippet: the values of "+e.Lang+" files are never shown")
		return it, nil
	}
	if e.Has(world.FlagBinary) || e.Has(world.FlagTooLarge) || e.Has(world.FlagSubmodule) || e.Has(world.FlagSymlink) {
		it.Snippet = ""
		it.Evidence = append(it.Evidence, "no snippet: "+flagReason(&e))
		return it, nil
	}
	data, err := src.Content(s.Path)
	if err != nil {
		return it, err
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	best := bestLine(lines, want)
	var defs []world.Def
	if facts != nil {
		defs = facts.Defs
	}
	from, to, def := window(lines, best, defs)
	it.LineRange = fmt.Sprintf("%d-%d", from, to)
	it.best = best
	if def != nil && def.Signature != "" {
		it.Signature = emit(req, s.Path, def.Signature)
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

// symbols are the definitions whose names match the request, or else the
// file's first exported ones.
func symbols(defs []world.Def, want map[string]bool) []string {
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

// bestLine is the 1-based line matching most distinct wanted terms (the
// first such line); 1 when none matches. A line is tokenized only when it
// holds the start of some wanted term.
func bestLine(lines []string, want map[string]bool) int {
	var probes []string
	for t := range want {
		probes = append(probes, t[:min(len(t), 4)])
	}
	sort.Strings(probes)
	memo := map[string][]string{} // token → the wanted terms it carries
	hits := func(tok string) []string {
		if h, ok := memo[tok]; ok {
			return h
		}
		var h []string
		terms.Forms(tok, func(t string, whole bool) {
			switch {
			case !want[t]:
			case whole:
				h = append(h, "="+t)
			default:
				h = append(h, t)
			}
		})
		memo[tok] = h
		return h
	}
	best, bestN := 1, 0
	for i, l := range lines {
		if len(l) > 4*maxLineBytes {
			continue
		}
		lower := strings.ToLower(l)
		probe := false
		for _, p := range probes {
			if strings.Contains(lower, p) {
				probe = true
				break
			}
		}
		if !probe {
			continue
		}
		seen := map[string]bool{}
		terms.Words([]byte(l), func(tok string) {
			for _, h := range hits(tok) {
				seen[h] = true
			}
		})
		if len(seen) > bestN {
			best, bestN = i+1, len(seen)
		}
	}
	return best
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
