package extract

import (
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
)

// TestJSDocTypes: the JSDoc types the walker reads are plain names of the
// project (wrappers and null unwrapped); anything else is left out.
func TestJSDocTypes(t *testing.T) {
	d := parseJSDoc(`/**
 * Does it.
 * @param {Command} cmd the command
 * @param {?Option} [opt=x] an option
 * @param {string} name a builtin
 * @param {Foo[]} list an array
 * @param {import("./x").Y} y an import type
 * @param {Bar|undefined} a.b a dotted name
 * @returns {Promise<Help>}
 */`)
	if d == nil {
		t.Fatal("no JSDoc read")
	}
	want := map[string]string{"cmd": "Command", "opt": "Option"}
	if len(d.params) != len(want) {
		t.Errorf("params %v, want %v", d.params, want)
	}
	for k, v := range want {
		if d.params[k] != v {
			t.Errorf("param %s: %q, want %q", k, d.params[k], v)
		}
	}
	if d.returns != "Help" {
		t.Errorf("returns %q, want Help", d.returns)
	}
	if parseJSDoc("/** just text @ here */") != nil {
		t.Error("a comment without typed tags gave types")
	}
}

// TestJSXPragma: @jsxImportSource names a module; the comment's end is
// not one.
func TestJSXPragma(t *testing.T) {
	for c, want := range map[string]string{
		"/** @jsxImportSource hono/jsx */":                "hono/jsx",
		"/** @jsxImportSource ../../src/jsx **/":          "../../src/jsx",
		"/** @jsxImportSource */":                         "",
		"// no pragma here":                               "",
		"/**\n * @jsx h\n * @jsxImportSource preact\n */": "preact",
	} {
		if got := jsxPragma(c); got != want {
			t.Errorf("jsxPragma(%q) = %q, want %q", c, got, want)
		}
	}
}

// TestJSTypedefImport: @typedef {import("m").Name} Alias is a type import.
func TestJSTypedefImport(t *testing.T) {
	src := []byte("/**\n * @typedef { import(\"./command.js\").Command } Command\n * @typedef {import('./opt').Option} Opt\n */\nexport const x = 1;\n")
	facts, err := Extract(world.LangJavaScript, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, im := range facts.Imports {
		got = append(got, im.Path+" "+strings.Join(im.Names, ",")+" "+im.Kind)
	}
	want := "./command.js Command type|./opt Option as Opt type"
	if strings.Join(got, "|") != want {
		t.Errorf("imports %q, want %q", strings.Join(got, "|"), want)
	}
}

// FuzzJSDoc: any comment text gives plain identifiers or nothing, and
// never panics.
func FuzzJSDoc(f *testing.F) {
	for _, s := range []string{
		"/** @param {Foo} a */", "/** @returns {Promise<Promise<X>>} */", "/** @type {?A|null} */",
		"/** @param {", "/** @param {}} */", "/** @typedef {import(\"./a\").B} C */", "/** @param {<<<>>>} [=] */",
		"/** @jsxImportSource hono/jsx */", "/** @jsxImportSource ./ **/", "// @jsxImportSource", "/* @jsxImportSource */",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d := parseJSDoc(s); d != nil {
			for k, v := range d.params {
				if !isJSIdent(k) || !isJSIdent(v) {
					t.Fatalf("param %q: %q", k, v)
				}
			}
			for _, v := range []string{d.returns, d.typ} {
				if v != "" && !isJSIdent(v) {
					t.Fatalf("type %q", v)
				}
			}
		}
		_ = jsTypedefImport.FindAllStringSubmatchIndex(s, -1)
		if m := jsxPragma(s); strings.ContainsAny(m, " \t\n\r:") || strings.HasPrefix(m, "*") {
			t.Fatalf("jsx import source %q", m)
		}
	})
}
