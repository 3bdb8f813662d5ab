package extract

import (
	"bytes"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
)

// checkInvariants checks what must hold of any extraction: lines within
// the file, Ref.In within Defs, and a skeleton whose lines are (prefixes
// of) source lines in order, or elision markers.
func checkInvariants(t testing.TB, lang string, src []byte, facts *world.Facts) {
	t.Helper()
	if strings.Contains(facts.Warning, "failed") {
		t.Fatalf("%s extractor failed: %s", lang, facts.Warning)
	}
	n := facts.Lines
	for _, d := range facts.Defs {
		if d.Start < 1 || d.End < d.Start || d.End > n {
			t.Errorf("def %s: lines %d-%d outside 1-%d", d.Qualified, d.Start, d.End, n)
		}
	}
	for _, i := range facts.Imports {
		if i.Line < 1 || i.Line > n {
			t.Errorf("import %s: line %d outside 1-%d", i.Path, i.Line, n)
		}
	}
	for _, r := range facts.Refs {
		if r.Line < 1 || r.Line > n {
			t.Errorf("ref %s: line %d outside 1-%d", r.Name, r.Line, n)
		}
		if r.In < 0 || r.In > len(facts.Defs) {
			t.Errorf("ref %s: In %d outside 0-%d", r.Name, r.In, len(facts.Defs))
		}
	}
	if facts.Skeleton == "" {
		return
	}
	checkPointers(t, lang, facts.Skeleton)
	lines := strings.Split(string(src), "\n")
	pos := 0
	for _, l := range strings.Split(strings.TrimRight(facts.Skeleton, "\n"), "\n") {
		if l == "" || strings.Contains(l, "…") || strings.Contains(l, "...  # line") {
			continue
		}
		found := false
		for j := pos; j < len(lines); j++ {
			if strings.HasPrefix(strings.TrimRight(lines[j], " \t\r"), l) {
				pos, found = j+1, true
				break
			}
		}
		if !found {
			t.Errorf("%s skeleton line %q is not a source line after line %d", lang, l, pos)
			return
		}
	}
}

// pointerTail is what may follow a line pointer written as a line
// comment: its lines, and those of the other bodies elided on the line.
var pointerTail = regexp.MustCompile(`^( …)? lines? [0-9]+(-[0-9]+)?(; lines? [0-9]+(-[0-9]+)?)*$`)

// checkPointers checks that no line pointer of the skeleton comments out
// code: a line comment that names elided lines ends its line.
func checkPointers(t testing.TB, lang, skel string) {
	t.Helper()
	lead := registry[lang].comment
	if lead == "/*" {
		return
	}
	for _, l := range strings.Split(skel, "\n") {
		if !strings.Contains(l, "…") {
			continue
		}
		for k := strings.Index(l, lead); k >= 0; {
			rest := l[k+len(lead):]
			if strings.HasPrefix(strings.TrimPrefix(rest, " …"), " line") {
				if !pointerTail.MatchString(rest) {
					t.Errorf("%s skeleton line %q: code after its line pointer", lang, l)
				}
				break
			}
			j := strings.Index(rest, lead)
			if j < 0 {
				break
			}
			k += len(lead) + j
		}
	}
}

func fuzzLang(f *testing.F, lang string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		facts, err := Extract(lang, src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(src, 0) >= 0 {
			return // binary: never parsed (world.FlagBinary); the skeleton check does not apply
		}
		checkInvariants(t, lang, src, facts)
	})
}

func FuzzExtractGo(f *testing.F) {
	fuzzLang(f, world.LangGo,
		"package p\n\nimport \"fmt\"\n\n// F does.\nfunc F[T any](x T) { fmt.Println(x) }\n",
		"package p\ntype S struct{ A int `json:\"a\"` // c\n}\nvar v = S{A: 1}\n",
		"package p\nfunc (s *S[K]) M() (n int) { for k := range s.m { n += k }; return }\n",
		"package p\nfunc f( {\n",
		"package p\nvar t = map[string]int{\n\"a\": 1,\n\"b\": 2,\n\"c\": 3,\n}\n")
}

func FuzzExtractPython(f *testing.F) {
	fuzzLang(f, world.LangPython,
		"import os\nfrom . import x as y\n\nclass A(B):\n    \"\"\"Doc.\n\n    more\"\"\"\n    def m(self, a=1):\n        return os.path.join(a)\n",
		"def f(:\n  pass\n",
		"@dec\nasync def g(*a, **k) -> int:\n    global z\n    z = [i for i in a]\n",
		"X = {\n 'a': 1,\n 'b': 2,\n}\n",
		"import pytest\n@pytest.fixture(scope='module')\ndef runner(request) -> 'CliRunner':\n    return CliRunner()\n\ndef test_x(runner, tmp_path: Path):\n    runner.invoke()\n",
		"class C:\n    def __init__(self, p):\n        self.u = U(p) if p else U()\n        self.v: V = make()\n\n    def __enter__(self):\n        return self\n\nasync def f(m: M):\n    async with C(1) as c, D() as (a, b):\n        c.u.x(await m.get().y())\n    try:\n        pass\n    except (E, F) as e:\n        e.z\n    x = m()\n    x = x.a().b()()\n\n@group()\ndef cli():\n    typing.cast(A, cli).b.c().d\n    cast('B[int]', 1).e\n    if isinstance(cli, C):\n        cli.x\n    elif isinstance(cli, (D, E)):\n        cli.y\n")
}

func FuzzExtractJavaScript(f *testing.F) {
	fuzzLang(f, world.LangJavaScript,
		"var res = module.exports = {};\nres.download = function download(p) { return this.send(p); };\nexports = module.exports = res;\n",
		"const { a, b: c } = require('./x');\nconst d = require('y').z;\nmodule.exports = { a, c, e: function () {}, get f() { return 1; } };\n",
		"function R() {}\nR.prototype.m = function () {};\nR.prototype = { n() {}, o: () => 1 };\nexports.R = R;\nmodule.exports.V = 1;\n",
		"import { A } from './a';\nimport * as ns from './n';\nexport { A as B, ns };\nexport default A;\nmodule.exports = require('./lib');\n",
		"module.exports = require(\n")
}

func FuzzExtractTypeScript(f *testing.F) {
	fuzzLang(f, world.LangTypeScript,
		"import x, { a as b } from './m';\nexport class C<T> extends D implements E { m(): T { return b(x); } }\n",
		"export const f = (a: number) => {\n  return a;\n};\n",
		"namespace N { export enum E { A, B = 2 } }\n",
		"function (\n")
}

// TestInvariantsCorpus checks the invariants over real files (with -ratio,
// as it reads the same corpora).
func TestInvariantsCorpus(t *testing.T) {
	if !*ratio {
		t.Skip("run with -ratio")
	}
	for _, lang := range goldenLangs {
		if !Supported(lang) {
			continue
		}
		for _, p := range corpus(lang, *ratioFiles) {
			src, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			facts, err := Extract(lang, src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Run(p, func(t *testing.T) { checkInvariants(t, lang, src, facts) })
		}
	}
}

// TestMemoryStable extracts the same files many times and checks that
// the process's resident memory (Go heap and tree-sitter's C heap) does
// not keep growing: every tree, parser and cursor is released.
func TestMemoryStable(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	var srcs [][]byte
	var langs []string
	for _, lang := range []string{world.LangGo, world.LangPython} {
		for _, p := range corpus(lang, 10) {
			if src, err := os.ReadFile(p); err == nil {
				srcs, langs = append(srcs, src), append(langs, lang)
			}
		}
	}
	if len(srcs) == 0 {
		t.Skip("no corpus on this machine")
	}
	round := func() {
		for i, src := range srcs {
			if _, err := Extract(langs[i], src, Options{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Warm up (pools, tokenizer tables, heap growth), then compare two
	// equal stretches: a leak grows in both, a settled heap does not.
	rounds := 10
	if v, err := strconv.Atoi(os.Getenv("EXTRACT_MEM_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	for i := 0; i < rounds; i++ {
		round()
	}
	runtime.GC()
	a := rssKB(t)
	for i := 0; i < rounds; i++ {
		round()
	}
	runtime.GC()
	b := rssKB(t)
	for i := 0; i < rounds; i++ {
		round()
	}
	runtime.GC()
	c := rssKB(t)
	t.Logf("RSS %d → %d → %d KiB, %d rounds of %d files each", a, b, c, rounds, len(srcs))
	if c-b > 16<<10 && c-b > (b-a)/2 {
		t.Errorf("RSS keeps growing (%d → %d → %d KiB): something is not closed", a, b, c)
	}
}

func rssKB(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			n, _ := strconv.Atoi(strings.Fields(l)[1])
			return n
		}
	}
	t.Skip("no VmRSS")
	return 0
}
