// Package extract is git-speed's only cgo boundary: it parses source files
// with tree-sitter grammars and turns each into world.Facts (definitions,
// imports, references and a signature-only skeleton). Every tree-sitter
// object is closed where it is made; nothing of tree-sitter leaves this
// package. One language is one file lang_<name>.go that registers a walker.
//
// Each file's syntax tree is read out of tree-sitter in one cgo call
// (gs_dump in tree_cgo.go) and walkers ask file.kids, kind, field and walk
// about it in Go; per-node binding calls cost more than the parse itself
// once a walker touches every node. The Go walker's references are checked
// against go/types (gotypes_test.go), the skeletons' share of a file's
// tokens over real code by TestSkeletonRatio, and the cost over a bare
// parse by BenchmarkExtract against BenchmarkParseOnly.
package extract

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/git-speed/git-speed/internal/redact"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/formats"
)

// Version is the extractor's version; it is part of every per-blob facts
// key, so bumping it makes every file be parsed again. One line per bump:
//
//	1: first extractors.
//	2: fields read from the tree cursor: member chains in TypeScript type
//	   queries (typeof a.b.c) name every member.
//	3: structured formats get facts (layers/world/formats): JSON, YAML,
//	   TOML, XML, CI workflows, Markdown, HTML, PDF, DOCX, notebooks,
//	   .env keys, logs, lockfiles and Vue/Svelte/Astro components.
//	4: code-like formats in the formats package: GraphQL, Protobuf, Prisma,
//	   SQL, Terraform/HCL, Dockerfile, Makefile, CMake, Nix, Gradle, WAT,
//	   assembly, MATLAB, GDScript and GML; PowerShell and INI moved there.
//	5: CommonJS definitions in JavaScript (exports.f =, module.exports =
//	   {…}, X.prototype.m =, obj.m = function); names a require() binds
//	   are imports (Names, Alias), not definitions; imported names a JS
//	   module exports again are re-export imports; parameters of Python
//	   tests and fixtures are fixture refs; Python functions say what
//	   they return (Def.Returns).
//	6: Kotlin, Swift, Lua, Scala, Zig, Dart, Haskell and Elixir read with
//	   tree-sitter grammars (they had no facts before).
//	7: Solidity, Perl, R, Erlang and Clojure read by structured scanners
//	   in the formats package (they had no facts before); .sol, .pm,
//	   .hrl, .cljs and .cljc files get a language.
//	8: Python member refs whose receiver's type the code says carry it in
//	   their qualifier ("self:Client", "self.pool:Pool()", "c:Conn",
//	   "v:make()"): self and cls in methods, self attributes assigned or
//	   annotated in the class, annotated parameters, locals and
//	   module-level variables assigned a call; a class's Returns lists its
//	   bases. TypeScript and JavaScript likewise ("this:Client", "a:Foo"
//	   for const a = new Foo() or a: Foo); a class's Returns names what it
//	   extends.
//	9: TypeScript and JavaScript: a member reference's qualifier carries
//	   its receiver's type ("recv:EXPR"), definitions their declared type
//	   in Returns (annotations, Promise<T>, interface and alias members,
//	   new C, JSDoc); export aliases are definitions; module.exports.x
//	   after module.exports = f is an export only when f is declared.
//	10: Python: attributes a class's methods assign on self are fields of
//	   the class; module variables and fields carry their type hint in
//	   Returns; hints see through conditionals, await, calls of a typed
//	   receiver's method ("Client#get" for c.get()), with/except/
//	   isinstance/cast, decorators and generics; members after a module
//	   path are qualified by the chain (pkg.sub.name).
//	11: Go member refs whose receiver's type the code says carry it in
//	   their qualifier ("r:http.Request", "p:pool.New()>WithErrors", ":T"
//	   for a key of a T{…} literal); Go functions, methods, fields,
//	   variables and defined types say their type (Def.Returns),
//	   interfaces what they embed.
//	12: TypeScript and JavaScript: a function's Returns is "R;P0;P1…"
//	   (its parameters' declared types); an untyped callback parameter
//	   is typed by the callable it is passed to ("CALLEE#k#j"); JSX
//	   intrinsic elements, module augmentations and import-equals.
//	13: Python: container annotations give element hints ("T[]", "T{}")
//	   and for loops, comprehensions, x[k], d.items() read them ("h#@i",
//	   "h#@v"); hints of names, attributes and subscripts; self.x = p
//	   with p an annotated parameter; C[T](…) is a call of C.
//	14: skeletons: a line pointer written as a line comment never
//	   comments out code after an elided body (Java's ADD("+") { … },
//	   // lines 4-6): it moves to the end of the line; bodies elided
//	   with code after them get a pointer too. Java: a type's Returns
//	   lists its bases, a method's and a field's their types; enum
//	   constants are definitions; member qualifiers are receiver chains
//	   (this, :T, .f, m(), C>x). Rust: struct fields
//	   are definitions; functions, methods and fields carry their types;
//	   an impl's Returns is "impl" or "impl:Trait"; member qualifiers are
//	   receiver chains (:T for self, parameters, locals; f(), >x, >m());
//	   mod x; records a #[path]; super:: inside an inline module names
//	   the file's own module. JavaScript: properties a class's methods
//	   assign on this are its fields; a function's returns of null, and
//	   of a parameter narrowed by instanceof C, agree with new C.
//	15: .lhs files are literate Haskell, read as the code they hold; a
//	   log's FATAL (PANIC, CRITICAL) lines are definitions of kind fatal,
//	   apart from its ERROR lines.
//	16: Elixir is dropped (its grammar's module path is wrong upstream,
//	   which stops go install …@version): .ex and .exs files have no
//	   facts again.
const Version = 16

// ErrNoParser is returned for a language without an extractor.
var ErrNoParser = errors.New("no extractor for this language")

// Options tune one extraction.
type Options struct {
	// Timeout bounds the parse of one file; 0 means DefaultTimeout.
	Timeout time.Duration
	// Path is the file's path in the tree, for formats known by name.
	Path string
	// Redact is the redaction layer the source goes through before any
	// fact is taken from it; nil means redact.Default().
	Redact *redact.Redactor
	// Redacted says src went through Redact already (the caller needs the
	// redacted text too): it is not scanned again.
	Redacted bool
}

// embedded extracts code found inside a structured format (a notebook's
// cells, a component's script) with the tree-sitter extractors.
func embedded(opt Options) func(lang string, src []byte) *world.Facts {
	return func(lang string, src []byte) *world.Facts {
		if _, ok := registry[lang]; !ok {
			return nil
		}
		f, err := extract(lang, src, Options{Timeout: opt.Timeout})
		if err != nil {
			return nil
		}
		return f
	}
}

// DefaultTimeout is the per-file parse limit when Options.Timeout is 0.
const DefaultTimeout = 10 * time.Second

// language is one registered extractor.
type language struct {
	name    string
	grammar *sitter.Language
	// walk fills f.facts from f.root; it runs after a successful parse.
	walk func(f *file)
	// comment is the line-comment leader used in skeleton markers ("//", "#").
	comment string
	pool    sync.Pool

	// kinds and named are indexed by node kind id (Node.KindId); fields
	// maps field names to ids. Built once (loadTables, before the first
	// file) so walkers read node kinds and fields without a cgo string
	// conversion per node.
	tablesOnce sync.Once
	kinds      []string
	named      []bool
	fields     map[string]uint16

	// leaves names the named node kinds whose children the walker never
	// reads (Go's string literals): the tree dump leaves their subtrees
	// out, so they look like leaves to the walker. quiet names anonymous
	// tokens the walker never reads (Go's brackets and commas): the dump
	// leaves them out where they have no field. opaque is the dump's flags
	// for both, built by loadTables.
	leaves []string
	quiet  []string
	opaque symbolSet
	// marked names the kinds the dump lists apart (file.marks): those a
	// walker looks for all over the tree, comments first. flags is the
	// dump's flags, by symbol; covers remembers the answers of
	// marksCover, by question.
	marked []string
	flags  []byte
	covers sync.Map
}

var registry = map[string]*language{}

// register adds a language; called from the init of each lang_<name>.go.
func register(name string, grammar *sitter.Language, comment string, walk func(f *file)) {
	if _, dup := registry[name]; dup {
		panic("extract: language registered twice: " + name)
	}
	registry[name] = &language{name: name, grammar: grammar, walk: walk, comment: comment}
}

// walkedAsLeaves declares kinds of lang's nodes whose children its walker
// never reads (language.leaves); called from the init of a lang_<name>.go
// after register.
func walkedAsLeaves(lang string, kinds ...string) { registry[lang].leaves = kinds }

// walkedWithout declares anonymous tokens lang's walker never reads, nor
// counts among a node's children (language.quiet); called from the init of
// a lang_<name>.go after register.
func walkedWithout(lang string, tokens ...string) { registry[lang].quiet = tokens }

// walkedMarking declares kinds of lang's nodes its walker looks for all
// over the tree (language.marked); called from the init of a
// lang_<name>.go after register.
func walkedMarking(lang string, kinds ...string) {
	l := registry[lang]
	l.marked = append(l.marked, kinds...)
}

// marksCover reports whether every kind ask holds for is marked, so a
// walker may read the nodes it looks for from file.marks; name names the
// question (the same name must always come with the same answers).
func (l *language) marksCover(name string, ask func(kind string) bool) bool {
	if v, ok := l.covers.Load(name); ok {
		return v.(bool)
	}
	// Nodes beyond the kinds table (ERROR) are never marked.
	all := len(l.flags) == len(l.kinds) && !ask("ERROR")
	for id := 0; all && id < len(l.kinds); id++ {
		if l.flags[id]&dumpMark == 0 && ask(l.kinds[id]) {
			all = false
		}
	}
	l.covers.Store(name, all)
	return all
}

// loadTables builds l's tables of node kinds and fields, once, on the
// first file of the language: built at registration, for every grammar,
// they were thousands of cgo calls in every process's start, a scope's or
// a --version's included.
func (l *language) loadTables() {
	l.tablesOnce.Do(func() {
		g := l.grammar
		n := g.NodeKindCount()
		l.kinds = make([]string, n)
		l.named = make([]bool, n)
		for id := uint32(0); id < n; id++ {
			l.kinds[id] = g.NodeKindForId(uint16(id))
			l.named[id] = g.NodeKindIsNamed(uint16(id))
		}
		if len(l.leaves) > 0 || len(l.quiet) > 0 || len(l.marked) > 0 {
			flags := make([]byte, n)
			for id := range flags {
				if l.named[id] && slices.Contains(l.leaves, l.kinds[id]) {
					flags[id] |= dumpOpaque
				}
				if !l.named[id] && slices.Contains(l.quiet, l.kinds[id]) {
					flags[id] |= dumpQuiet
				}
				if slices.Contains(l.marked, l.kinds[id]) {
					flags[id] |= dumpMark
				}
			}
			l.opaque, l.flags = newSymbolSet(flags), flags
		}
		l.fields = make(map[string]uint16, g.FieldCount())
		for id := uint32(1); id <= g.FieldCount(); id++ {
			l.fields[g.FieldNameForId(uint16(id))] = uint16(id)
		}
	})
}

// Supported reports whether lang has an extractor.
func Supported(lang string) bool {
	_, ok := registry[lang]
	return ok || formats.Supported(lang)
}

// Languages lists the languages with an extractor, sorted.
func Languages() []string {
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	out = append(out, formats.Languages()...)
	sort.Strings(out)
	return out
}

func (l *language) parser() *sitter.Parser {
	if p, ok := l.pool.Get().(*sitter.Parser); ok {
		return p
	}
	p := sitter.NewParser()
	if err := p.SetLanguage(l.grammar); err != nil {
		p.Close()
		panic(fmt.Sprintf("extract: grammar %s: %v", l.name, err))
	}
	return p
}

// Extract parses src as lang and returns its facts. A syntax error gives
// partial facts (Facts.Partial with a warning); a parse that times out or
// fails gives empty facts with a warning and a nil error, so indexing goes
// on. Only an unsupported language is an error.
//
// Facts never hold a secret: src is redacted (opt.Redact) before it is
// read, and a redaction keeps the line structure, so line numbers are
// those of the file.
func Extract(lang string, src []byte, opt Options) (facts *world.Facts, err error) {
	if !opt.Redacted {
		r := opt.Redact
		if r == nil {
			r = redact.Default()
		}
		src, _ = r.Bytes(opt.Path, src)
	}
	return extract(lang, src, opt)
}

// extract is Extract on source already redacted.
func extract(lang string, src []byte, opt Options) (facts *world.Facts, err error) {
	// Structured formats and languages without a grammar we can pin have
	// pure-Go extractors of their own; code they embed comes back here.
	if facts, ok := formats.Extract(lang, src, formats.Options{Path: opt.Path, Code: embedded(opt)}); ok {
		return facts, nil
	}
	l, ok := registry[lang]
	if !ok {
		return nil, ErrNoParser
	}
	facts = &world.Facts{Lang: lang, Lines: countLines(src)}
	if lang == world.LangHaskell && strings.HasSuffix(opt.Path, ".lhs") {
		src = unlit(src) // literate Haskell: its code, line for line
	}
	timeout := opt.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	tree := l.parse(src, timeout)
	if tree == nil {
		facts.Warning = fmt.Sprintf("parse of %s stopped after %s; no facts", lang, timeout)
		return facts, nil
	}
	defer tree.Close()
	root := tree.RootNode()
	f := newFile(l, src, root, facts)
	defer f.close()
	defer func() {
		if r := recover(); r != nil {
			facts = &world.Facts{Lang: lang, Lines: facts.Lines, Warning: fmt.Sprintf("extractor %s failed: %v; no facts", lang, r)}
			err = nil
		}
	}()
	f.tree() // the walkers read the tree from here, in Go
	l.walk(f)
	if root.HasError() {
		facts.Partial = true
		if facts.Warning == "" {
			facts.Warning = "syntax errors; facts are partial"
		}
	}
	f.finish()
	return facts, nil
}

// parse parses src with a pooled parser; nil when the parse was stopped
// by the timeout. The caller closes the tree.
//
// The timeout uses the parser's own clock (ts_parser_set_timeout_micros)
// rather than ParseWithOptions' progress callback: in go-tree-sitter
// v0.25.0 the callback costs a cgo call-back every hundred parse
// operations and its options value is never released from the
// go-pointer registry, so each parse would leak an entry. The text goes
// in whole (parseBytes), not through the binding's read callback.
func (l *language) parse(src []byte, timeout time.Duration) *sitter.Tree {
	p := l.parser()
	p.SetTimeoutMicros(uint64(timeout / time.Microsecond))
	tree := parseBytes(p, src)
	if tree == nil {
		// A stopped parser resumes where it left off unless reset.
		p.Reset()
	}
	l.pool.Put(p)
	return tree
}

// ParseOnly parses src as lang with the pooled parser and closes the tree,
// nothing else: the baseline against which the cost of extraction is
// measured (tree-sitter alone on the same files and workers).
func ParseOnly(lang string, src []byte) error {
	l, ok := registry[lang]
	if !ok {
		return ErrNoParser
	}
	tree := l.parse(src, DefaultTimeout)
	if tree == nil {
		return fmt.Errorf("parse of %s stopped after %s", lang, DefaultTimeout)
	}
	tree.Close()
	return nil
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
