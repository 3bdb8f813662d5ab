package graph

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/extract"
)

// TestCircularReexports: barrels that re-export each other, in JS and in
// Python, end; names defined on the cycle still resolve. (Types that refer
// to each other: testdata/projects/typescript_types.txtar.)
func TestCircularReexports(t *testing.T) {
	star := func(p string) world.Import { return world.Import{Path: p, Alias: "*", Kind: "reexport"} }
	g := Build(fixture([]fx{
		{path: "src/a.ts", lang: "typescript", defs: []string{"fromA"}, imps: []world.Import{star("./b"), {Path: "./c", Names: []string{"c"}, Alias: "again", Kind: "reexport"}}},
		{path: "src/b.ts", lang: "typescript", defs: []string{"fromB"}, imps: []world.Import{star("./a"), star("./c")}},
		{path: "src/c.ts", lang: "typescript", imps: []world.Import{star("./a"), {Path: "./b", Names: []string{"again"}, Kind: "reexport"}}},
		{path: "src/use.ts", lang: "typescript", imps: []world.Import{{Path: "./c", Names: []string{"fromA", "fromB", "missing"}}}, refs: []string{"fromA", "fromB", "missing"}},
		{path: "p/__init__.py", lang: "python", imps: []world.Import{{Path: ".q", Alias: "*"}}},
		{path: "p/q.py", lang: "python", defs: []string{"q_thing"}, imps: []world.Import{{Path: "p", Alias: "*"}, {Path: ".", Names: []string{"loop"}}}},
		{path: "use.py", lang: "python", imps: []world.Import{{Path: "p", Names: []string{"q_thing", "loop"}}}, refs: []string{"q_thing", "loop"}},
	}))
	want := []string{
		"p/__init__.py -> p/q.py", "p/q.py -> p/__init__.py",
		"src/a.ts -> src/c.ts", "src/c.ts -> src/b.ts",
		"src/use.ts -> src/a.ts", "src/use.ts -> src/b.ts", "src/use.ts -> src/c.ts",
		"use.py -> p/__init__.py", "use.py -> p/q.py",
	}
	if got := edgeList(g); !reflect.DeepEqual(got, want) {
		t.Errorf("edges:\n got  %q\n want %q", got, want)
	}
}

// TestBigBarrel: a barrel of 5,000 re-exports resolves every name it
// hands on, quickly.
func TestBigBarrel(t *testing.T) {
	const n = 5000
	files := []fx{}
	var reexp []world.Import
	var names, refs []string
	for k := 0; k < n; k++ {
		files = append(files, fx{path: fmt.Sprintf("src/m/m%04d.ts", k), lang: "typescript", defs: []string{fmt.Sprintf("f%04d", k)}})
		reexp = append(reexp, world.Import{Path: fmt.Sprintf("./m/m%04d", k), Names: []string{fmt.Sprintf("f%04d", k)}, Kind: "reexport"})
		if k%50 == 0 {
			names = append(names, fmt.Sprintf("f%04d", k))
			refs = append(refs, fmt.Sprintf("f%04d", k))
		}
	}
	reexp = append(reexp, world.Import{Path: "./index", Alias: "*", Kind: "reexport"}) // and itself
	files = append(files,
		fx{path: "src/index.ts", lang: "typescript", imps: reexp},
		fx{path: "src/app.ts", lang: "typescript", imps: []world.Import{{Path: "./index", Names: names}, {Path: "./index", Alias: "all", Kind: "namespace"}}, refs: append(refs, "all:f4999")},
	)
	in := fixture(files)
	start := time.Now()
	g := Build(in)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Build took %v on a 5,000-name barrel", d)
	}
	app := g.Index("src/app.ts")
	out := 0
	for _, e := range g.Edges {
		if e.From == app {
			out++
		}
	}
	// 100 names imported by name, f4999 through the namespace, the barrel itself.
	if out != len(names)+2 {
		t.Errorf("src/app.ts has %d edges, want %d", out, len(names)+2)
	}
}

// TestBadConfigs: a tsconfig that extends itself, one that extends a
// missing file, a cycle of two, a malformed package.json and a malformed
// exports map: each is warned about or skipped, what is valid still
// resolves, nothing hangs.
func TestBadConfigs(t *testing.T) {
	in := fixture([]fx{
		{path: "a/tsconfig.json", content: `{"extends": "./tsconfig.json", "compilerOptions": {"baseUrl": ".", "paths": {"@a/*": ["lib/*"]}}}`},
		{path: "a/lib/x.ts", lang: "typescript", defs: []string{"ax"}},
		{path: "a/main.ts", lang: "typescript", imps: []world.Import{{Path: "@a/x", Names: []string{"ax"}}}, refs: []string{"ax"}},
		{path: "b/tsconfig.json", content: `{"extends": ["./missing", "./base.json"]}`},
		{path: "b/base.json", content: `{"extends": "./tsconfig.json", "compilerOptions": {"paths": {"~/*": ["src/*"]}}}`},
		{path: "b/src/y.ts", lang: "typescript", defs: []string{"by"}},
		{path: "b/main.ts", lang: "typescript", imps: []world.Import{{Path: "~/y", Names: []string{"by"}}}, refs: []string{"by"}},
		{path: "c/tsconfig.json", content: `{"compilerOptions": `},
		{path: "c/package.json", content: `{"name": "broken",`},
		{path: "d/package.json", content: `{"name": "dee", "exports": {".": 5, "./x": [{"import": {"types": {"node": ["./nope.js", 7]}}}], "./y": null}, "main": {"not": "a string"}}`},
		{path: "d/index.js", lang: "javascript", defs: []string{"dee"}},
		{path: "f/nofacts.ts"}, // a source file without facts (too big, unparsable)
		{path: "f/use.ts", lang: "typescript", imps: []world.Import{{Path: "./nofacts", Alias: "z", Kind: "namespace"}, {Path: "./nofacts", Alias: "*", Kind: "reexport"}}, refs: []string{"z:f"}},
		{path: "e/use.js", lang: "javascript", imps: []world.Import{{Path: "dee", Names: []string{"dee"}}, {Path: "dee/x", Alias: "x", Kind: "require"}, {Path: "broken", Alias: "b", Kind: "require"}}, refs: []string{"dee", "x:y", "b:z"}},
	})
	var warnings []string
	in.Warn = func(msg string) { warnings = append(warnings, msg) }
	done := make(chan *world.Graph, 1)
	go func() { done <- Build(in) }()
	var g *world.Graph
	select {
	case g = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Build did not end on bad configs")
	}
	want := []string{"a/main.ts -> a/lib/x.ts", "b/main.ts -> b/src/y.ts", "e/use.js -> d/index.js"}
	if got := edgeList(g); !reflect.DeepEqual(got, want) {
		t.Errorf("edges:\n got  %q\n want %q", got, want)
	}
	joined := strings.Join(warnings, "\n")
	for _, f := range []string{"c/tsconfig.json", "c/package.json"} {
		if !strings.Contains(joined, f) {
			t.Errorf("no warning names %s; warnings: %q", f, warnings)
		}
	}
}

// FuzzPackageJSON: any package.json and any subpath parse and match
// without panicking, and targets stay relative paths.
func FuzzPackageJSON(f *testing.F) {
	f.Add([]byte(`{"name":"@a/b","types":"./t.d.ts","main":"lib/i.js","exports":{".":{"types":"./src/i.ts","import":"./dist/i.js"},"./x/*":"./src/x/*.ts"}}`), "x/y")
	f.Add([]byte(`{"exports":"./i.js"}`), "")
	f.Add([]byte(`{"exports":[["./a.js"],{"default":{"default":{"default":"./b.js"}}}]}`), "a")
	f.Add([]byte(`{"exports":{"./*":{"node":null},"./a*b":"./c*"}}`), "a-b")
	f.Add([]byte(`[1,2`), "q")
	f.Fuzz(func(t *testing.T, data []byte, sub string) {
		p := parsePackageJSON("pkg", data)
		if p == nil {
			return
		}
		for _, tgt := range p.exportsFor("./" + sub) {
			if !strings.HasPrefix(tgt, "./") {
				t.Fatalf("target %q is not relative", tgt)
			}
		}
		splitPackage(sub)
	})
}

// FuzzTSConfig: any tsconfig text, extending itself or not, parses
// without panicking or looping.
func FuzzTSConfig(f *testing.F) {
	f.Add([]byte(`{"extends":"./tsconfig.json","compilerOptions":{"baseUrl":".","paths":{"@/*":["src/*"]}}}`))
	f.Add([]byte(`{"extends":["./base","../up.json"], /* c */ "compilerOptions":{"paths":{"x":["y"],},},}`))
	f.Add([]byte(`{"compilerOptions":{"baseUrl":null}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		read := func(p string) []byte {
			if strings.HasSuffix(p, ".json") {
				return data
			}
			return nil
		}
		parseTSConfig("a/tsconfig.json", read)
	})
}

// TestPythonBadInput: a class hierarchy with a cycle across files is
// warned about by file and class, stubs that import a name from each
// other end, and a long chain of typed calls ends; the rest resolves.
func TestPythonBadInput(t *testing.T) {
	var chain strings.Builder
	chain.WriteString("from .a import A\n\n\ndef f():\n    A().step().ping()\n    x = A()\n")
	for k := 0; k < 2000; k++ {
		chain.WriteString("    x = x.step().step()()\n")
	}
	chain.WriteString("    x.ping()\n")
	in, _, _ := projectInput(t, txtar.Parse([]byte(`
-- c/__init__.py --
-- c/a.py --
from .b import B


class A(B):
    def step(self) -> "A":
        return self

    def __call__(self):
        return self
-- c/b.py --
from . import a


class B(a.A):
    def ping(self):
        pass
-- c/use.py --
from .a import A

A().ping()
A().missing()
-- s/__init__.py --
-- s/x.py --
def f():
    pass
-- s/x.pyi --
from s.y import f as f
-- s/y.py --
def f():
    pass
-- s/y.pyi --
from s.x import f as f
-- s/use.py --
from s.x import f

f()
-- c/chain.py --
`+chain.String())))
	var warns []string
	in.Warn = func(msg string) { warns = append(warns, msg) }
	start := time.Now()
	g := Build(in)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Build took %v", d)
	}
	wantWarns := []string{
		"c/a.py: class A: its base classes lead back to it; members are looked up 12 classes up at most",
		"c/b.py: class B: its base classes lead back to it; members are looked up 12 classes up at most",
	}
	if !reflect.DeepEqual(warns, wantWarns) {
		t.Errorf("warnings:\n got  %q\n want %q", warns, wantWarns)
	}
	edges := strings.Join(edgeList(g), "\n")
	for _, e := range []string{"c/use.py -> c/b.py", "c/chain.py -> c/b.py", "s/use.py -> s/x.py"} {
		if !strings.Contains(edges, e) {
			t.Errorf("missing edge %s in\n%s", e, edges)
		}
	}
}

// TestCallbackChains: callbacks whose parameter types run through a
// chain of 3,000 function-type aliases that ends where it starts, a
// callback nested 300 deep, and an interface of 2,000 call signatures
// resolve quickly and draw no edge they should not.
func TestCallbackChains(t *testing.T) {
	var types, use strings.Builder
	const n = 3000
	for k := 0; k < n; k++ {
		fmt.Fprintf(&types, "export type F%d = (x: F%d) => void;\n", k, (k+1)%n)
	}
	types.WriteString("export interface Many {\n")
	for k := 0; k < 2000; k++ {
		fmt.Fprintf(&types, "  (a%d: F%d, b: Many): Many;\n", k, k)
	}
	types.WriteString("}\nexport declare const many: Many;\nexport function take(cb: F0): void {}\n")
	use.WriteString("import { take, many } from \"./types\";\ntake((a) => a.x());\nmany(1, (m) => m.y());\n")
	use.WriteString("take(")
	for k := 0; k < 300; k++ {
		use.WriteString("(a) => a.x(")
	}
	use.WriteString(strings.Repeat(")", 301) + ";\n")
	content := map[string][]byte{"src/types.ts": []byte(types.String()), "src/use.ts": []byte(use.String())}
	in := Input{Tree: "t", Read: func(p string) ([]byte, error) { return content[p], nil }}
	for _, p := range []string{"src/types.ts", "src/use.ts"} {
		facts, err := extract.Extract(world.LangTypeScript, content[p], extract.Options{})
		if err != nil {
			t.Fatal(err)
		}
		in.Files = append(in.Files, world.FileEntry{Path: p, Lang: world.LangTypeScript})
		in.Links = append(in.Links, facts.Link())
	}
	start := time.Now()
	g := Build(in)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Build took %v", d)
	}
	if got, want := edgeList(g), []string{"src/use.ts -> src/types.ts"}; !reflect.DeepEqual(got, want) {
		t.Errorf("edges %q, want %q", got, want)
	}
}

// TestPythonModuleWithoutFacts: a module listed without facts (generated,
// too big, unreadable) that a script beside it imports breaks nothing:
// the script keeps its edges and no warning is given. The module-attribute
// rule once read such a module's facts without asking whether it had any
// (the build crashed on CPython's generated token.py); asking whether it
// handed a name imported from it on from outside the tree (from token
// import OP, as CPython's tokenize.py does) read its imports so, and the
// importing file lost all its edges.
func TestPythonModuleWithoutFacts(t *testing.T) {
	for _, use := range []string{
		"import token\nimport helper\n\nprint(token.OP, token.__file__, helper.help())\n",
		"from token import OP, NAME\nfrom helper import help\n\nprint(OP, NAME, help())\n",
	} {
		in, _, _ := projectInput(t, txtar.Parse([]byte(`
-- tools/token.py --
OP = 1
-- tools/helper.py --
def help():
    pass
-- tools/use.py --
`+use)))
		for i, f := range in.Files {
			if f.Path == "tools/token.py" {
				in.Links[i] = nil
			}
		}
		var warns []string
		in.Warn = func(msg string) { warns = append(warns, msg) }
		edges := strings.Join(edgeList(Build(in)), "\n")
		for _, want := range []string{"tools/use.py -> tools/helper.py", "tools/use.py -> tools/token.py"} {
			if !strings.Contains(edges, want) {
				t.Errorf("%q: missing edge %s in\n%s", use, want, edges)
			}
		}
		if len(warns) > 0 {
			t.Errorf("%q: warnings %q, want none", use, warns)
		}
	}
}

// TestResolverPanicCostsOneFile: a resolver that panics on one file (a
// defect, such as the one above) costs that file its edges, half-summed
// ones included, with a warning naming it; every other file resolves.
func TestResolverPanicCostsOneFile(t *testing.T) {
	in, _, _ := projectInput(t, txtar.Parse([]byte(`
-- tools/helper.py --
def help():
    pass
-- tools/a.py --
import helper

helper.help()
-- tools/b.py --
import helper

helper.help()
`)))
	var warns []string
	in.Warn = func(msg string) { warns = append(warns, msg) }
	b := newBuilder(in)
	b.resolvePython()
	for i, f := range in.Files {
		if f.Path == "tools/a.py" {
			fn := b.work[i]
			b.work[i] = func(a *acc, i int) {
				fn(a, i)
				panic("a defect")
			}
		}
	}
	certain, _ := b.run()
	g := &world.Graph{Files: in.Files, Edges: certain}
	if got, want := edgeList(g), []string{"tools/b.py -> tools/helper.py"}; !reflect.DeepEqual(got, want) {
		t.Errorf("edges %q, want %q", got, want)
	}
	if want := []string{"tools/a.py: resolving its references failed (a defect); the file has no edges"}; !reflect.DeepEqual(warns, want) {
		t.Errorf("warnings %q, want %q", warns, want)
	}
}
