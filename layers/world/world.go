package world

// FormatVersion is the version of every Layer 1 encoding in this package.
// Bump it, with a line below saying why, whenever the meaning or shape of a
// stored artifact changes; stored data of another version is rebuilt.
//
//	1: first format: project map, facts, link summaries, CSG shards.
//	2: facts carry a term vector; trees carry a "terms" inverted index.
//	3: facts store what they repeat once (build's facts format 4), so the
//	   facts keys in a tree's rows change and its artifacts are rebuilt.
const FormatVersion = 3

// Flag names used in FileEntry.Flags.
const (
	FlagBinary    = "binary"    // NUL byte or invalid text in the first 8 KiB
	FlagGenerated = "generated" // generated-file name or "Code generated … DO NOT EDIT" header
	FlagVendored  = "vendored"  // under vendor/, third_party/, node_modules/ …
	FlagTooLarge  = "too_large" // over limits.max_file_bytes: listed, not read past the limit
	FlagSymlink   = "symlink"   // a symbolic link; its target is not followed
	FlagSubmodule = "submodule" // a gitlink; its content lives in another repository
	FlagIgnored   = "ignored"   // matched an ignore glob of speed.toml
	// FlagOutput marks what a build, an installer or a tool wrote: build
	// output (dist/, target/, a build/ a build made), caches
	// (__pycache__), virtualenvs (.venv), minified bundles and source
	// maps, decided by what the file or its folder holds. Listed without
	// facts and left out of maps and scope unless index.output = "parse".
	FlagOutput = "output"
)

// Flag marks a file as special, with the reason a person can read.
type Flag struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// FileEntry is one row of the project map: every path of a tree, with what
// git-speed knows of it without parsing it.
type FileEntry struct {
	Path   string `json:"path"`
	Lang   string `json:"lang,omitempty"` // "" when unknown
	Size   int64  `json:"size"`
	Blob   string `json:"blob"` // git object id (hex)
	Lines  int    `json:"lines"`
	Tokens int    `json:"tokens"` // estimated tokens of the whole file
	Flags  []Flag `json:"flags,omitempty"`
}

// Has reports whether the entry carries the named flag.
func (e *FileEntry) Has(flag string) bool {
	for _, f := range e.Flags {
		if f.Name == flag {
			return true
		}
	}
	return false
}

// Parsed reports whether the file's content should be parsed for facts:
// it is text, not a link or submodule, not ignored and not too large.
func (e *FileEntry) Parsed() bool {
	for _, f := range e.Flags {
		switch f.Name {
		case FlagBinary, FlagTooLarge, FlagSymlink, FlagSubmodule, FlagIgnored:
			return false
		}
	}
	return true
}

// Definition kinds. Extractors use these names so later layers can treat
// languages alike; a language-specific kind is allowed when none fits.
const (
	KindFunction  = "function"
	KindMethod    = "method"
	KindClass     = "class"
	KindStruct    = "struct"
	KindInterface = "interface"
	KindTrait     = "trait"
	KindEnum      = "enum"
	KindType      = "type" // type alias or named type
	KindField     = "field"
	KindProperty  = "property"
	KindConst     = "const"
	KindVar       = "var"
	KindModule    = "module" // module, namespace, package block, impl block
	KindMacro     = "macro"
	KindSelector  = "selector" // CSS selectors and similar
	KindKey       = "key"      // keys of INI sections, config entries
)

// Def is one definition found in a file.
type Def struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Qualified string `json:"qualified"`        // e.g. "Server.Handle", "pkg.mod.Class.method"
	Parent    string `json:"parent,omitempty"` // qualified name of the enclosing definition or receiver type
	Start     int    `json:"start"`            // first line, 1-based
	End       int    `json:"end"`              // last line, inclusive
	Signature string `json:"signature,omitempty"`
	Exported  bool   `json:"exported,omitempty"`
	Doc       string `json:"doc,omitempty"` // first line of the doc comment
	// Returns names the type a function returns when the code says so (a
	// return annotation, or the class a return statement constructs), as
	// written: "CliRunner", "models.User". Python only for now. For a
	// class it lists the base classes, comma-separated (Python), or the
	// class it extends (TypeScript, JavaScript).
	Returns string `json:"returns,omitempty"`
}

// Import is one import, include, use or require of a file, as written.
type Import struct {
	Path  string   `json:"path"`            // "fmt", "./util", "..models", "crate::a::b", "foo.h"
	Alias string   `json:"alias,omitempty"` // local name it binds; "." dot import, "_" blank, "*" glob
	Names []string `json:"names,omitempty"` // names imported from it (from x import a, b; import {a} from; use a::{b})
	Line  int      `json:"line"`
	Kind  string   `json:"kind,omitempty"` // language detail: "system" include, "relative" require …
}

// Ref is one use of an identifier that may be defined in another file.
// Local variables and parameters are not references.
type Ref struct {
	Name string `json:"name"`           // the identifier used
	Qual string `json:"qual,omitempty"` // what qualifies it as written: "fmt" in fmt.Println, "self", "this", "os.path"
	// In Python a member whose receiver's type the code says has Qual
	// "receiver:T" (an instance of T) or "receiver:T()" (what calling T
	// gives): "self:Client", "self.pool:Pool()", "c:Conn"; in TypeScript
	// and JavaScript "this:Client", "a:Foo" for an instance of class Foo.
	Line int    `json:"line"`
	In   int    `json:"in,omitempty"` // 1-based index into Facts.Defs of the enclosing definition; 0 at top level
	Kind string `json:"kind,omitempty"`
}

// Ref kinds.
const (
	RefCall   = "call"   // called
	RefType   = "type"   // used as a type
	RefMember = "member" // a field or method selected from a value (x.Name where x is not a package)
	RefValue  = "value"  // any other use
	// RefFixture is a parameter of a test function or pytest fixture: pytest
	// passes it the fixture of that name (same module, then conftest.py
	// files upwards).
	RefFixture = "fixture"
)

// Facts is everything extracted from one blob. It depends only on the
// blob's content, the extractor version and the options digest, so it is
// cached per blob and shared across trees and branches.
type Facts struct {
	Lang     string   `json:"lang"`
	Package  string   `json:"package,omitempty"` // Go package, Java/Kotlin package, C# namespace, PHP namespace, Rust crate-relative module …
	Defs     []Def    `json:"defs,omitempty"`
	Imports  []Import `json:"imports,omitempty"`
	Refs     []Ref    `json:"refs,omitempty"`
	Skeleton string   `json:"skeleton,omitempty"` // signature-only outline; elided bodies name their line range
	Lines    int      `json:"lines"`
	Tokens   int      `json:"tokens"`          // estimated tokens of the whole file (Layer 2 counts exactly)
	SkelToks int      `json:"skeleton_tokens"` // estimated tokens of Skeleton
	Partial  bool     `json:"partial,omitempty"`
	Warning  string   `json:"warning,omitempty"` // why facts are partial or missing
	// Terms is the file's term vector (package terms), sorted by Text.
	Terms []Term `json:"terms,omitempty"`
}

// Term is one normalised word of a file: where it occurs (a bit set of
// terms.Content, terms.Ident, terms.Def …) and how often in the text.
type Term struct {
	Text   string `json:"t"`
	Fields uint8  `json:"f"`
	Count  uint32 `json:"n,omitempty"`
}
