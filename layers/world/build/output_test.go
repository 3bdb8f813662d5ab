package build

import (
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// TestOutputRoots: folders are output by what they hold; a source folder
// that has a build folder's name is not.
func TestOutputRoots(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string // path → content (read for markers)
		want  []string          // "dir: why" (a prefix of why)
	}{
		{"a Go package named build is source", map[string]string{
			"layers/world/build/build.go": "package build\n", "layers/world/build/rows.go": "package build\n", "go.mod": "module m\n",
		}, nil},
		{"a hand-written lib/ with no src/ is source", map[string]string{
			"package.json": `{"main": "lib/index.js"}`, "lib/index.js": "module.exports = 1\n", "lib/util.js": "x\n",
		}, nil},
		{"dist/ that package.json points at, the source in src/", map[string]string{
			"web/package.json": `{"name": "w", "exports": {".": {"import": "./dist/index.mjs"}}}`,
			"web/src/index.ts": "export {}\n", "web/dist/index.mjs": "export{}\n", "web/dist/README.txt": "x\n",
		}, []string{"web/dist: package.json's exports points into it (./dist/index.mjs) and its source is in src/"}},
		{"a lib/ that mirrors src/", map[string]string{
			"src/a.ts": "", "src/b/c.tsx": "", "lib/a.js": "", "lib/a.d.ts": "", "lib/b/c.js": "",
		}, []string{"lib: its files mirror src/ (3 of 3)"}},
		{"out/ named by tsconfig's outDir", map[string]string{
			"tsconfig.json": "{\n  // comments are fine\n  \"compilerOptions\": {\"outDir\": \"./out\"}\n}\n", "out/extension.js": "",
		}, []string{"out: tsconfig.json's outDir"}},
		{"build/ with source maps, CRA style", map[string]string{
			"build/index.html": "<html>", "build/static/js/main.js": "", "build/static/js/main.js.map": "{}",
		}, []string{"build: it holds source maps (static/js/main.js.map)"}},
		{"content-hashed bundles", map[string]string{"public/dist/app.3f9a2c1b.js": ""}, []string{"public/dist: it holds content-hashed bundles"}},
		{"Cargo's target/", map[string]string{
			"Cargo.toml": "", "src/main.rs": "", "target/CACHEDIR.TAG": cacheDirSignature + "\n# cargo\n", "target/debug/app": "",
		}, []string{"target: tagged as a cache (CACHEDIR.TAG)"}},
		{"a CACHEDIR.TAG without the signature tags nothing", map[string]string{"target/CACHEDIR.TAG": "hello\n", "target/x.rs": ""}, nil},
		{"Maven's target/", map[string]string{"pom.xml": "", "target/classes/A.class": "", "target/classes/a.properties": ""}, []string{"target: Maven's target folder (classes beside pom.xml)"}},
		{"a CMake build/", map[string]string{"CMakeLists.txt": "", "build/CMakeCache.txt": "", "build/Makefile": ""}, []string{"build: a CMake or Ninja build folder (CMakeCache.txt)"}},
		{"setuptools' build/lib", map[string]string{
			"setup.py": "", "pkg/__init__.py": "", "pkg/core.py": "", "build/lib/pkg/core.py": "",
		}, []string{"build: setuptools' build folder (lib/ copies the package)"}},
		{"a virtualenv by its pyvenv.cfg, any name", map[string]string{
			"env/pyvenv.cfg": "home = /usr/bin\nversion = 3.11.7\n", "env/lib/python3.11/site-packages/x.py": "",
		}, []string{"env: a Python virtualenv (pyvenv.cfg)"}},
		{"tools' own folders", map[string]string{
			".venv/lib/x.py": "", "pkg/__pycache__/m.cpython-311.pyc": "", "pkg/m.py": "", "a.egg-info/PKG-INFO": "", ".pytest_cache/v/x": "",
		}, []string{".pytest_cache: pytest's cache", ".venv: a Python virtualenv", "a.egg-info: setuptools' package metadata", "pkg/__pycache__: Python bytecode cache"}},
		{"vendored trees are not looked into", map[string]string{"node_modules/x/dist/a.js.map": "", "node_modules/x/src/a.ts": ""}, nil},
		{"bin/ of scripts is source; of .NET output is not", map[string]string{
			"scripts/bin/deploy.sh": "", "App/App.csproj": "", "App/bin/Debug/App.dll": "",
		}, []string{"App/bin: .NET's build folder (Debug beside App.csproj)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var paths []string
			for p := range tc.files {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			read := func(p string) []byte {
				s, ok := tc.files[p]
				if !ok {
					t.Errorf("read %s: not a file of the tree", p)
				}
				return []byte(s)
			}
			roots := outputRoots(paths, read)
			if len(roots) != len(tc.want) {
				t.Fatalf("roots %+v, want %q", roots, tc.want)
			}
			for i, r := range roots {
				if got := r.Dir + ": " + r.Why; !strings.HasPrefix(got, tc.want[i]) {
					t.Errorf("root %d: %q, want %q…", i, got, tc.want[i])
				}
			}
		})
	}
}

// TestOutputByContent: a file is output by its own content.
func TestOutputByContent(t *testing.T) {
	long := strings.Repeat("var a=1;function b(c){return c+1}", 100)
	for _, tc := range []struct {
		path, lang, text, want string
	}{
		{"static/app.js", "javascript", long + "\n", "minified (3301 bytes a line)"},
		{"static/app.js", "javascript", "function f() {\n  return 1\n}\n//# sourceMappingURL=app.js.map\n", "it ends with a sourceMappingURL comment"},
		{"static/app.css", "css", "a{b:c}\n/*# sourceMappingURL=app.css.map */\n", "it ends with a sourceMappingURL comment"},
		{"static/app.js", "javascript", "/******/ (() => { // webpackBootstrap\n", "bundler output (webpackBootstrap)"},
		{"static/app.js.map", "", `{"version":3,"sources":["a.ts"],"mappings":"AAAA"}`, "a source map"},
		{"maps/level1.map", "", "tiles 10x10\n", ""},
		{"src/app.js", "javascript", "// sourceMappingURL= is parsed here\nfunction f() {}\n", ""},
		{"src/app.ts", "typescript", long, ""},
		{"src/app.js", "javascript", "const x = 1;\n", ""},
	} {
		if got := outputByContent(tc.path, tc.lang, []byte(tc.text)); !strings.HasPrefix(got, tc.want) || (tc.want == "") != (got == "") {
			t.Errorf("%s (%.30q): %q, want %q", tc.path, tc.text, got, tc.want)
		}
	}
}

// FuzzOutputRoots: any tree's roots are folders of it, sorted, not nested,
// each with a reason, and the same twice.
func FuzzOutputRoots(f *testing.F) {
	f.Add("web/src/a.ts\nweb/dist/a.js\nweb/dist/a.js.map\nbuild/build.go", `{"main":"dist/a.js"}`)
	f.Add("target/CACHEDIR.TAG\n.venv/x\nlib/a.js\nsrc/a.ts\nlib/b.js\nsrc/b.ts", cacheDirSignature)
	f.Fuzz(func(t *testing.T, list, content string) {
		seen := map[string]bool{}
		var paths []string
		for _, p := range strings.Split(list, "\n") {
			p = strings.Trim(p, "/")
			if p == "" || seen[p] || strings.Contains(p, "//") {
				continue
			}
			seen[p] = true
			paths = append(paths, p)
		}
		sort.Strings(paths)
		// A path that is also a folder of another is not a tree.
		for i := 1; i < len(paths); i++ {
			if strings.HasPrefix(paths[i], paths[i-1]+"/") {
				return
			}
		}
		read := func(string) []byte { return []byte(content) }
		a, b := outputRoots(paths, read), outputRoots(paths, read)
		for i, r := range a {
			if r.Why == "" || r != b[i] {
				t.Fatalf("root %+v (again %+v)", r, b[i])
			}
			if i > 0 && (r.Dir <= a[i-1].Dir || strings.HasPrefix(r.Dir, a[i-1].Dir+"/")) {
				t.Fatalf("roots not sorted or nested: %+v", a)
			}
			if len(newTreeDirs(paths).under(r.Dir)) == 0 {
				t.Fatalf("root %s holds no file of %q", r.Dir, paths)
			}
		}
	})
}

// BenchmarkOutputRoots finds the output roots of GOROOT's file list (a
// tree walk's share of an index).
func BenchmarkOutputRoots(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	if len(paths) == 0 {
		b.Skip("no GOROOT/src")
	}
	sort.Strings(paths)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		outputRoots(paths, func(string) []byte { return nil })
	}
	b.ReportMetric(float64(len(paths)), "files")
}
