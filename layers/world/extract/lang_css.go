package extract

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tree_sitter_css "github.com/tree-sitter/tree-sitter-css/bindings/go"

	"github.com/git-speed/git-speed/layers/world"
)

func init() {
	register(world.LangCSS, sitter.NewLanguage(tree_sitter_css.Language()), "/*", walkCSS)
}

// KindKeyframes is the kind of a CSS @keyframes definition.
const KindKeyframes = "keyframes"

// walkCSS records selectors (one definition per selector of a rule),
// custom properties (--name, with the rule's selectors as parent),
// @keyframes and @import, and var(--name) uses as references. The
// skeleton keeps selectors and at-rules with their blocks elided.
func walkCSS(f *file) { cssBlock(f, f.root, "", 0) }

func cssBlock(f *file, n *sitter.Node, context string, parentIdx int) {
	mark := len(f.stack)
	defer f.release(mark)
	for _, k := range f.kids(n) {
		st := k.n
		switch k.kind {
		case "comment", "js_comment":
			f.comment(st)
		case "import_statement":
			path := ""
			f.walk(st, func(c *sitter.Node) bool {
				if path != "" {
					return false
				}
				switch f.kind(c) {
				case "string_value":
					path = strings.Trim(f.text(c), `"'`)
					return false
				case "call_expression":
					if a := f.namedChild(c, 1); a != nil {
						path = strings.Trim(strings.TrimSpace(strings.Trim(f.text(a), "()")), `"'`)
					}
					return false
				}
				return true
			})
			if path != "" {
				f.imp(world.Import{Path: path, Line: line(st)})
			}
		case "rule_set":
			cssRule(f, st, context, parentIdx)
		case "media_statement", "supports_statement", "at_rule", "scope_statement":
			var block *sitter.Node
			for i := uint(0); i < f.namedCount(st); i++ {
				if c := f.namedChild(st, i); f.kind(c) == "block" {
					block = c
				}
			}
			sig := f.signature(st, block)
			idx := f.def(world.Def{Name: sig, Kind: world.KindModule, Qualified: cssQual(context, sig),
				Start: line(st), End: f.endLine(st), Signature: sig, Doc: f.docComment(st)})
			if block != nil {
				cssBlock(f, block, cssQual(context, sig), idx)
			}
		case "keyframes_statement":
			name := ""
			for i := uint(0); i < f.namedCount(st); i++ {
				if c := f.namedChild(st, i); f.kind(c) == "keyframes_name" {
					name = f.text(c)
				}
			}
			var list *sitter.Node
			for i := uint(0); i < f.namedCount(st); i++ {
				if c := f.namedChild(st, i); f.kind(c) == "keyframe_block_list" {
					list = c
				}
			}
			f.def(world.Def{Name: name, Kind: KindKeyframes, Qualified: cssQual(context, name), Start: line(st),
				End: f.endLine(st), Signature: f.signature(st, list), Exported: true, Doc: f.docComment(st)})
			f.elideBody(list)
		case "declaration":
			cssDecl(f, st, context, parentIdx)
		}
	}
}

func cssQual(context, name string) string {
	if context == "" {
		return name
	}
	return context + " " + name
}

func cssRule(f *file, rule *sitter.Node, context string, parentIdx int) {
	var sels, block *sitter.Node
	for i := uint(0); i < f.namedCount(rule); i++ {
		switch c := f.namedChild(rule, i); f.kind(c) {
		case "selectors":
			sels = c
		case "block":
			block = c
		}
	}
	idx := parentIdx
	selText := ""
	if sels != nil {
		selText = foldSpace(f.text(sels))
		doc := f.docComment(rule)
		for i := uint(0); i < f.namedCount(sels); i++ {
			s := f.namedChild(sels, i)
			name := foldSpace(f.text(s))
			j := f.def(world.Def{Name: name, Kind: world.KindSelector, Qualified: cssQual(context, name),
				Parent: context, Start: line(rule), End: f.endLine(rule), Signature: selText, Exported: true, Doc: doc})
			if idx == parentIdx {
				idx = j
			}
		}
	}
	if block != nil {
		m := len(f.stack)
		for _, k := range f.kids(block) {
			switch k.kind {
			case "declaration":
				cssDecl(f, k.n, selText, idx)
			case "rule_set": // nesting
				cssRule(f, k.n, cssQual(context, selText), idx)
			}
		}
		f.release(m)
		f.elideBody(block)
	}
}

// cssDecl records a custom property definition and the var() uses of a
// declaration.
func cssDecl(f *file, d *sitter.Node, parent string, in int) {
	if p := f.namedChild(d, 0); p != nil && f.kind(p) == "property_name" && strings.HasPrefix(f.text(p), "--") {
		name := f.text(p)
		sig := foldSpace(f.text(d))
		if len(sig) > 100 {
			sig = name + ": …"
		}
		in = f.def(world.Def{Name: name, Kind: world.KindVar, Qualified: name, Parent: parent, Start: line(d),
			End: f.endLine(d), Signature: strings.TrimSuffix(sig, ";"), Exported: true, Doc: f.docComment(d)})
	}
	f.walk(d, func(c *sitter.Node) bool {
		if f.kind(c) != "call_expression" {
			return true
		}
		fn := f.namedChild(c, 0)
		if fn == nil || !f.textIs(fn, "var") {
			return true
		}
		if args := f.namedChild(c, 1); args != nil {
			if a := f.namedChild(args, 0); a != nil && strings.HasPrefix(f.text(a), "--") {
				f.ref(world.Ref{Name: f.text(a), Line: line(a), In: in, Kind: world.RefValue})
			}
		}
		return true
	})
}
