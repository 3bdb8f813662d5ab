package pack

import (
	"sort"
	"strings"

	"github.com/git-speed/git-speed/internal/lex"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/terms"
)

// An item's reason and snippet are worked out from the file itself, once
// it is in the pack: the term index says which fields of a file hold a
// term, not where, so "defines X" is said only when one of the file's
// definitions is named by X, and the snippet is the definition the
// request names best, not the first line that matches.

// hits are the wanted terms each line of a file holds, by line (1-based),
// a compound identifier's whole as "="+term; a line is tokenized only
// when it holds the start of some wanted term.
type hits map[int]map[string]bool

func lineHits(lines []string, want map[string]bool) hits {
	var probes []string
	for t := range want {
		probes = append(probes, t[:min(len(t), 4)])
	}
	sort.Strings(probes)
	memo := map[string][]string{} // token → the wanted terms it carries
	of := func(tok string) []string {
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
	out := hits{}
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
		terms.Words([]byte(l), func(tok string) {
			for _, t := range of(tok) {
				if out[i+1] == nil {
					out[i+1] = map[string]bool{}
				}
				out[i+1][t] = true
			}
		})
	}
	return out
}

// in counts the distinct terms lines from..to hold.
func (h hits) in(from, to int) int {
	seen := map[string]bool{}
	for l, ts := range h {
		if l >= from && l <= to {
			for t := range ts {
				seen[t] = true
			}
		}
	}
	return len(seen)
}

// best is the line of from..to holding the most distinct terms (the
// first such), or from when none holds any.
func (h hits) best(from, to int) int {
	best, n := from, 0
	for l, ts := range h {
		if l >= from && l <= to && (len(ts) > n || (len(ts) == n && l < best)) {
			best, n = l, len(ts)
		}
	}
	return best
}

// nameScore is how well a definition's name answers the request: its
// qualified name written in the request (Cmd.Wait) counts most, then a
// compound identifier the request names whole, then each request term
// among the parts of its name.
func nameScore(q *query, d *world.Def, want map[string]bool) int {
	s := 0
	name := d.Name
	if d.Qualified != name && d.Qualified != "" {
		lq := strings.ToLower(d.Qualified)
		for _, m := range q.mentions {
			if lm := strings.ToLower(m); lq == lm || strings.HasSuffix(lq, "."+lm) {
				s += 6
				break
			}
		}
	}
	w := lex.Whole(name)
	for _, x := range q.wholes {
		if x == w {
			s += 4
			break
		}
	}
	seen := map[string]bool{}
	for _, p := range lex.Split(name) {
		if st := lex.Stem(p); want[st] && !seen[st] {
			seen[st] = true
			s += 2
		}
	}
	if s == 0 && want[w] {
		s = 2
	}
	return s
}

// ranked orders defs by how well they answer the request: name first,
// then the distinct request terms their lines hold; ties keep file order.
// Only definitions whose name matches are listed.
func ranked(q *query, defs []world.Def, want map[string]bool, h hits) []int {
	type cand struct{ i, name, body int }
	var cs []cand
	for i := range defs {
		d := &defs[i]
		if n := nameScore(q, d, want); n > 0 {
			cs = append(cs, cand{i, n, h.in(d.Start, d.End)})
		}
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if cs[a].name != cs[b].name {
			return cs[a].name > cs[b].name
		}
		return cs[a].body > cs[b].body
	})
	out := make([]int, len(cs))
	for k, c := range cs {
		out[k] = c.i
	}
	return out
}

// container is the definition to quote for defs[i]: itself, or for a
// field or constant, the innermost definition holding it.
func container(defs []world.Def, i, n int) *world.Def {
	d := &defs[i]
	if !member(d.Kind) {
		return d
	}
	var out *world.Def
	for j := range defs {
		c := &defs[j]
		if !member(c.Kind) && c.Start <= d.Start && d.End <= c.End && c.End <= n && (out == nil || c.End-c.Start < out.End-out.Start) {
			out = c
		}
	}
	return out
}

// reasonOf says in words that hold for the file why it matched the
// request lexically: the definitions the request names ("defines
// EvictOldest"), else the request words its code uses ("uses evict"),
// else those only its comments or prose mention, and the path words
// matched.
func reasonOf(q *query, s Scored, lang string, defs []world.Def, order []int, lines []string, h hits) string {
	var parts []string
	if len(order) > 0 {
		var names []string
		seen := map[string]bool{}
		for _, i := range order {
			n := defs[i].Name
			if !seen[n] && len(names) < 3 {
				seen[n] = true
				names = append(names, n)
			}
		}
		parts = append(parts, "defines "+strings.Join(names, ", "))
	}
	inCode, inComment := map[string]bool{}, map[string]bool{}
	prose := proseLang(lang)
	for l, ts := range h {
		c := prose || comment(lines[l-1])
		for t := range ts {
			t = strings.TrimPrefix(t, "=")
			if c {
				inComment[t] = true
			} else {
				inCode[t] = true
			}
		}
	}
	var code, mentioned, path []string
	for _, t := range s.matched {
		switch {
		case inCode[t]:
			code = append(code, q.word(t))
		case inComment[t]:
			mentioned = append(mentioned, q.word(t))
		case s.fields[t]&terms.Path != 0:
			path = append(path, q.word(t))
		}
	}
	if len(order) == 0 {
		switch {
		case len(code) > 0:
			parts = append(parts, "uses "+list(code))
		case len(mentioned) > 0 && prose:
			parts = append(parts, "mentions "+list(mentioned))
		case len(mentioned) > 0:
			parts = append(parts, "mentions "+list(mentioned)+" in comments")
		}
	}
	if len(path) > 0 {
		parts = append(parts, "path matches "+list(path))
	}
	if len(parts) == 0 {
		return "matches " + list(words(q, s.matched))
	}
	return strings.Join(parts, "; ")
}

func words(q *query, ts []string) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = q.word(t)
	}
	return out
}

// list joins up to five words, saying how many more there are.
func list(ws []string) string {
	if len(ws) > 5 {
		return strings.Join(ws[:5], ", ") + " …"
	}
	return strings.Join(ws, ", ")
}

// proseLang reports whether a language's files are prose, whose every
// line is a mention.
func proseLang(lang string) bool {
	switch lang {
	case "markdown", "text", "rst", "asciidoc", "org", "":
		return true
	}
	return false
}

// comment reports whether a line is a comment line in most languages.
func comment(l string) bool {
	t := strings.TrimSpace(l)
	for _, p := range []string{"//", "#", "/*", "*", "--", ";", "<!--", `"""`, "'''", "%"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}
