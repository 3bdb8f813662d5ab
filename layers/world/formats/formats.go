// Package formats is part of git-speed's Layer 1: it owns the pure-Go
// extractors of structured formats that have no tree-sitter grammar in the
// extract package: data (JSON, YAML, TOML, XML), CI workflows, documents
// (Markdown, HTML, PDF, DOCX, notebooks), infrastructure (Dockerfile,
// Makefile, CMake, HCL, Nix), schemas (GraphQL, Protobuf, Prisma, SQL),
// lockfiles, .env files, logs, GameMaker's GML and the like. Each family
// is one file that registers its languages in an init; every extractor
// turns a file's bytes into world.Facts (definitions with kind, line range
// and signature or key path, imports, a skeleton and, where cheap,
// references).
//
// Extractors use a real parser wherever a well-kept pure-Go one exists and
// a structured line scanner otherwise. They must never panic on bad input
// (Extract recovers and reports, but a recovered panic is a bug) and must
// give partial facts, or none, with a Warning for malformed files.
//
// The package is pure Go: it never imports the tree-sitter boundary. A
// format that embeds code (a notebook's cells, a Vue component's script)
// asks Options.Code, which the extract package supplies, for the facts of
// that code.
package formats

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/world"
)

// Options are what an extractor may use besides the file's bytes.
type Options struct {
	// Path is the file's path in the tree (slash-separated), for formats
	// recognised by name (Cargo.lock, a GitHub Actions workflow, …).
	Path string
	// Code extracts the facts of source code embedded in the file (a
	// notebook's code cells, a component's script block) as language lang.
	// It may be nil, and it returns nil for a language it cannot read.
	Code func(lang string, src []byte) *world.Facts
}

// Extractor fills facts (Lang and Lines are set) from src.
type Extractor func(src []byte, opt Options, facts *world.Facts)

var registry = map[string]Extractor{}

// Register adds the extractor of lang; called from the init of the file
// that owns the format family. Registering a language twice panics.
func Register(lang string, x Extractor) {
	if _, dup := registry[lang]; dup {
		panic("formats: language registered twice: " + lang)
	}
	registry[lang] = x
}

// Supported reports whether lang has an extractor here.
func Supported(lang string) bool {
	_, ok := registry[lang]
	return ok
}

// Languages lists the languages with an extractor here, sorted.
func Languages() []string {
	out := make([]string, 0, len(registry))
	for l := range registry {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// Extract returns the facts of src read as lang; ok is false when lang has
// no extractor here. A panicking extractor gives empty facts and a warning.
func Extract(lang string, src []byte, opt Options) (facts *world.Facts, ok bool) {
	x, ok := registry[lang]
	if !ok {
		return nil, false
	}
	facts = &world.Facts{Lang: lang, Lines: countLines(src)}
	defer func() {
		if r := recover(); r != nil {
			facts = &world.Facts{Lang: lang, Lines: countLines(src), Warning: fmt.Sprintf("extractor %s failed: %v; no facts", lang, r)}
			ok = true
		}
	}()
	x(src, opt, facts)
	finish(facts, src)
	return facts, true
}

// finish puts facts in the order every extractor's facts are kept in and
// fills the token estimates.
func finish(facts *world.Facts, src []byte) {
	sortDefs(facts)
	sort.SliceStable(facts.Imports, func(i, j int) bool { return facts.Imports[i].Line < facts.Imports[j].Line })
	sort.SliceStable(facts.Refs, func(i, j int) bool { return facts.Refs[i].Line < facts.Refs[j].Line })
	facts.Tokens = tokens.Estimate(facts.Lang, int64(len(src)))
	facts.SkelToks = tokens.Estimate(facts.Lang, int64(len(facts.Skeleton)))
}

// sortDefs orders definitions by first line, keeping references' In
// pointing at the same definitions.
func sortDefs(facts *world.Facts) {
	if sorted(facts.Defs) { // nearly always: extractors emit in order
		for i := range facts.Refs {
			if in := facts.Refs[i].In; in < 0 || in > len(facts.Defs) {
				facts.Refs[i].In = 0
			}
		}
		return
	}
	order := make([]int, len(facts.Defs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return facts.Defs[order[i]].Start < facts.Defs[order[j]].Start })
	moved := make([]int, len(order)) // old index → new 1-based index
	defs := make([]world.Def, len(order))
	for n, o := range order {
		defs[n] = facts.Defs[o]
		moved[o] = n + 1
	}
	facts.Defs = defs
	for i := range facts.Refs {
		if in := facts.Refs[i].In; in > 0 && in <= len(moved) {
			facts.Refs[i].In = moved[in-1]
		} else if in != 0 {
			facts.Refs[i].In = 0
		}
	}
}

// sorted reports whether defs are in order of first line.
func sorted(defs []world.Def) bool {
	for i := 1; i < len(defs); i++ {
		if defs[i].Start < defs[i-1].Start {
			return false
		}
	}
	return true
}

func countLines(src []byte) int {
	if len(src) == 0 {
		return 0
	}
	n := bytes.Count(src, []byte{'\n'})
	if src[len(src)-1] != '\n' {
		n++
	}
	return n
}
