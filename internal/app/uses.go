package app

import (
	"bytes"
	"strings"

	"github.com/git-speed/git-speed/internal/lex"
	"github.com/git-speed/git-speed/layers/pack"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/build"
	"github.com/git-speed/git-speed/layers/world/terms"
)

// Textual uses of a name: the lines that say the name as a word where the
// code symbol graph resolves no reference to a definition (a property
// read on an untyped object, opts.name; a destructuring, const {name} =
// opts; a string or a comment). Symbols lists them after the resolved
// references, marked resolved: false, at most MaxTextualUses.

// MaxTextualUses bounds the unresolved uses a symbols lookup lists.
const MaxTextualUses = 50

// maxUseText bounds the line of code quoted with a use.
const maxUseText = 160

// textualUses appends to res the lines of the files the term index finds
// for name's leaf that say the leaf as a whole word, other than the
// definitions and references res already lists, in path and line order,
// among the files globs keep.
//
// A qualified name's uses are the lines that say it whole (p0.Shared).
func (s *Session) textualUses(w *build.World, res *SymbolsResult, name string, globs pack.Globs) error {
	leaf := name
	if i := strings.LastIndexAny(name, ".:"); i >= 0 {
		leaf = name[i+1:]
	}
	term := ""
	terms.Forms(leaf, func(t string, whole bool) {
		if term == "" || whole {
			term = t
		}
	})
	if len(term) < terms.MinLen || len(term) > terms.MaxLen || lex.IsStop(term) {
		return nil // the index keeps no postings of it
	}
	ix, err := w.Terms([]string{term})
	if err != nil {
		return err
	}
	listed := map[string]map[int]bool{}
	mark := func(p string, l int) {
		if listed[p] == nil {
			listed[p] = map[int]bool{}
		}
		listed[p][l] = true
	}
	for _, d := range res.Definitions {
		mark(d.Path, d.Line)
	}
	for _, r := range res.References {
		mark(r.Path, r.Line)
	}
	var files []string
	for _, p := range ix.Postings[term] {
		files = append(files, ix.Docs[p.Doc].Path)
	}
	// Postings come in document order, which is path order.
	word := []byte(leaf)
	if leaf != name {
		word = []byte(name)
	}
	uses := 0
	for _, p := range files {
		if !globs.Keep(p) {
			continue
		}
		e, ok := w.Entry(p)
		if !ok || terms.SecretValues(e.Lang) || e.Has(world.FlagBinary) || e.Has(world.FlagTooLarge) {
			continue
		}
		t, err := s.treeText(w, e, p)
		if err != nil {
			return err
		}
		n := 0
		for line := range bytes.Lines(t.data) {
			n++
			if !bytes.Contains(line, word) || listed[p][n] || !saysWord(line, leaf) {
				continue
			}
			if uses == MaxTextualUses {
				res.UsesCut = true
				return nil
			}
			uses++
			text, err := s.redact(p, useText(string(line)))
			if err != nil {
				return err
			}
			res.References = append(res.References, SymbolRef{Path: p, Line: n, Resolved: false, Text: text})
		}
	}
	return nil
}

// saysWord reports whether line holds leaf as a whole token.
func saysWord(line []byte, leaf string) bool {
	found := false
	terms.Words(line, func(tok string) {
		if tok == leaf {
			found = true
		}
	})
	return found
}

// useText is a line trimmed and cut to maxUseText bytes.
func useText(l string) string {
	l = strings.TrimSpace(l)
	if len(l) <= maxUseText {
		return l
	}
	n := maxUseText
	for n > 0 && l[n]&0xC0 == 0x80 {
		n--
	}
	return l[:n] + "…"
}
