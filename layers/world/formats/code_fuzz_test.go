package formats

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/git-speed/git-speed/layers/world"
)

// One fuzz target per code-format parser; each runs its seeds (the goldens'
// inputs, truncated copies and junk) in go test.

func FuzzGML(f *testing.F) {
	fuzzLang(f, world.LangGML, `function a() constructor { static b = function(`, `#macro X:`, `$"{$"{`, `@"`, `enum E {`,
		"global.\nglobal", `function f(a,b) : P( constructor {`)
}

func FuzzPowerShell(f *testing.F) {
	fuzzLang(f, world.LangPowerShell, "function f { param(", "class A : B {", "<# never")
}

func FuzzINI(f *testing.F) { fuzzLang(f, world.LangINI, "[unclosed\nkey", "=\n  cont") }

func FuzzGraphQL(f *testing.F) {
	fuzzLang(f, world.LangGraphQL, `type A { b: [[[[`, `query { ...`, `"""`, `fragment F on`)
}

func FuzzProtobuf(f *testing.F) {
	fuzzLang(f, world.LangProtobuf, `message A { message B {`, `service S { rpc R(`, `import "`, `enum E { A = `)
}

func FuzzPrisma(f *testing.F) {
	fuzzLang(f, world.LangPrisma, "model A {\n  b B", "enum {", "datasource db {\n url = \"x://")
}

func FuzzSQL(f *testing.F) {
	fuzzLang(f, world.LangSQL, "CREATE TABLE t (a int REFERENCES", "DELIMITER", "CREATE FUNCTION f() AS $x$ never",
		"CREATE PROCEDURE p BEGIN BEGIN CASE END", "GO\nGO\nCREATE", "CREATE TABLE \"a", "CREATE INDEX ON")
}

func FuzzHCL(f *testing.F) {
	fuzzLang(f, world.LangHCL, "resource \"a\" {\n x = <<EOT\n", "locals { a = [", "a = \"${", "module \"m\" { source = 1 }")
}

func FuzzDockerfile(f *testing.F) {
	fuzzLang(f, world.LangDockerfile, "FROM", "FROM a AS\nCOPY --from= x", "# escape=`\nRUN a `\n", "ENV =\nARG", "RUN \\")
}

func FuzzMakefile(f *testing.F) {
	fuzzLang(f, world.LangMakefile, "a: b\n\trecipe \\\n", "define X\n", "A := $(", ":\n:=\n=")
}

func FuzzCMake(f *testing.F) {
	fuzzLang(f, world.LangCMake, "function(f\n", "macro(m)\nendfunction()", "#[[ never", "set(\"")
}

func FuzzNix(f *testing.F) {
	fuzzLang(f, world.LangNix, "{ a = ''never", "{ a = { b = ", "x.url = \"", "mkDerivation {", "let a = 1; in")
}

func FuzzGradle(f *testing.F) {
	fuzzLang(f, world.LangGradle, "plugins {\n id '", "dependencies {\n implementation(", "task x {", "tasks.named(\"")
}

func FuzzWAT(f *testing.F) {
	fuzzLang(f, world.LangWAT, "(module (func $f (call $g", "(; (; ;)", "(import \"a\"", "(export \"x\" (func", "))))")
}

func FuzzAssembly(f *testing.F) {
	fuzzLang(f, world.LangAssembly, "%macro m 0\n", "a:\n call\n", "section\n.section", "x equ", "call [rax]", ":\n1:\n")
}

func FuzzMATLAB(f *testing.F) {
	fuzzLang(f, world.LangMATLAB, "classdef A\nproperties\n", "function f(\n%{\n", "x = a';\ny = 'str", "end end end", "methods\nfunction")
}

func FuzzGDScript(f *testing.F) {
	fuzzLang(f, world.LangGDScript, "func f(:\n", "enum {", "class A:\n\tfunc", "\"\"\"never", "var x := ")
}

// FuzzLangs covers the scanners of langs.go: Solidity, Perl, R, Erlang and
// Clojure, each fed its goldens, the others' inputs and junk.
func FuzzLangs(f *testing.F) {
	langs := []string{world.LangSolidity, world.LangPerl, world.LangR, world.LangErlang, world.LangClojure}
	for _, l := range langs {
		for _, s := range goldenInputsOf(f, l) {
			f.Add(uint8(0), s)
			f.Add(uint8(len(s)), s[:len(s)/2])
		}
	}
	for i, s := range []string{"contract A is {", "function f(", "struct S { uint a", "enum E {", "import {", "sub f {", "package A {\nsub",
		"=pod\n", "__END__", "f <- function(", "X <- R6Class(\"X\", public = list(a = function(", "-module(", "f(X) -> $", "-record(r, {",
		"-export([f/", "(ns a (:require [", "(defn f [x] (", "(defprotocol P (m", "\\(", "(defrecord R [a] P (m [t]"} {
		f.Add(uint8(i), []byte(s))
	}
	f.Add(uint8(3), []byte("f(a].\nb) -> x.\n")) // the head's ")" after the form's end: once a slice panic
	f.Add(uint8(3), []byte("\xff\xfe\x00binary\x00\x01\x02{{{{(((([[[["))
	f.Add(uint8(4), []byte(strings.Repeat("(", 5000)+strings.Repeat("{", 5000)))
	f.Fuzz(func(t *testing.T, which uint8, src []byte) {
		lang := langs[int(which)%len(langs)]
		facts, ok := Extract(lang, src, Options{Path: "x"})
		if !ok {
			t.Fatal("no extractor")
		}
		if strings.HasPrefix(facts.Warning, "extractor ") {
			t.Fatalf("%s: panic: %s", lang, facts.Warning)
		}
		checkCodeFacts(t, lang, facts)
		if utf8.Valid(src) && !utf8.ValidString(facts.Skeleton) {
			t.Fatalf("%s: skeleton of valid UTF-8 is not valid UTF-8", lang)
		}
	})
}
