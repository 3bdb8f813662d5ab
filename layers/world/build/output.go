package build

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/layers/world"
)

// Build outputs, caches and virtualenvs committed by mistake (or on
// purpose: a package that ships its dist/) are flagged output in the
// project map, as Context Loom and Umbra leave .venv, target, dist and
// build out of their walks. git-speed decides by what a folder holds, not
// by its name alone: a Go package named build/ or a hand-written lib/ is
// source. Two kinds of evidence:
//
//   - a folder is an output root (outputRoots) when it is a tool's own
//     folder (__pycache__, .venv, .pytest_cache, *.egg-info …), holds a
//     marker a tool writes there (pyvenv.cfg, a CACHEDIR.TAG with its
//     signature), or has the name of a build folder (dist, build, out,
//     target, lib …) and something shows a build wrote it: its files
//     mirror the src/ beside it, package.json's entry points or
//     tsconfig.json's outDir point into it while the source is in src/,
//     it holds source maps, content-hashed bundles or compiled objects, or
//     what CMake, Cargo, Maven, Gradle, setuptools, Sphinx, .NET, Mix or a
//     coverage tool leaves in its build folder. Every file under a root is
//     flagged, with the root and its evidence as the reason;
//   - a file anywhere is output by its own content (outputByContent): a
//     minified bundle, a script ending with a sourceMappingURL comment, a
//     bundler's runtime, a source map.
//
// An output file is listed without facts or a term vector, so it is out
// of the repo map, and scope leaves it out, unless speed.toml's
// index.output is "parse".
//
// Roots depend on the tree's paths and on the few files read for them
// (package.json, tsconfig.json, pyvenv.cfg, CACHEDIR.TAG): an in-place
// update, which edits no path and takes none of these, never changes one
// (outputMarker).

// classifyVersion is the version of the rules that flag project map rows,
// part of every tree's digest.
//
//	1: binary, generated, vendored, too large, symlink, submodule, ignored.
//	2: build outputs, caches and virtualenvs are flagged output.
const classifyVersion = 2

// OutputRoot is a folder of build output, a cache or a virtualenv, with
// the evidence that it is one.
type OutputRoot struct {
	Dir string `json:"dir"`
	Why string `json:"why"`
}

// toolDirs are folders only a tool makes, whatever they hold.
var toolDirs = map[string]string{
	"__pycache__": "Python bytecode cache", ".pytest_cache": "pytest's cache", ".mypy_cache": "mypy's cache",
	".ruff_cache": "ruff's cache", ".hypothesis": "Hypothesis's database", ".tox": "tox environments", ".nox": "nox environments",
	".venv": "a Python virtualenv", "site-packages": "installed Python packages", ".eggs": "setuptools' eggs",
	".next": "Next.js build output", ".nuxt": "Nuxt build output", ".svelte-kit": "SvelteKit build output",
	".parcel-cache": "Parcel's cache", ".turbo": "Turborepo's cache", ".angular": "Angular's cache",
	".docusaurus": "Docusaurus build output", ".gradle": "Gradle's cache", ".terraform": "Terraform's downloaded providers and modules",
	"dist-newstyle": "cabal's build output", ".stack-work": "Stack's build output", ".nyc_output": "nyc's coverage data",
	".sass-cache": "Sass's cache", ".cache": "a tool's cache",
}

// buildDirs are folder names build tools write to, that source may have
// too: they are output only on evidence.
var buildDirs = map[string]bool{"dist": true, "build": true, "out": true, "output": true, "target": true, "_build": true,
	"obj": true, "bin": true, "lib": true, "es": true, "esm": true, "cjs": true, "umd": true, "coverage": true, "htmlcov": true, "_site": true}

// cacheDirSignature starts a CACHEDIR.TAG (https://bford.info/cachedir/).
const cacheDirSignature = "Signature: 8a477f597d28d172789f06886806bc55"

// outputMarker reports whether reading p decides output roots (besides
// package.json and tsconfig.json, which configFile names).
func outputMarker(p string) bool {
	b := path.Base(p)
	return b == "CACHEDIR.TAG" || b == "pyvenv.cfg"
}

// treeDirs indexes a tree's sorted file paths by folder.
type treeDirs struct {
	paths []string
	dirs  []string                   // every folder, sorted
	ents  map[string]map[string]bool // folder → its entries: files by name, folders by name + "/"
}

func newTreeDirs(paths []string) *treeDirs {
	t := &treeDirs{paths: paths, ents: map[string]map[string]bool{}}
	for _, p := range paths {
		name := p
		for {
			d := path.Dir(name)
			if d == "." {
				d = ""
			}
			e := t.ents[d]
			if e == nil {
				e = map[string]bool{}
				t.ents[d] = e
				if d != "" {
					t.dirs = append(t.dirs, d)
				}
			}
			entry := path.Base(name)
			if name != p {
				entry += "/"
			}
			if e[entry] {
				break
			}
			e[entry] = true
			if d == "" {
				break
			}
			name = d
		}
	}
	sort.Strings(t.dirs)
	return t
}

// has reports whether folder d has entry name (a folder when it ends in "/").
func (t *treeDirs) has(d, name string) bool { return t.ents[d][name] }

// under returns the files under folder d, in path order.
func (t *treeDirs) under(d string) []string {
	lo := sort.SearchStrings(t.paths, d+"/")
	hi := sort.SearchStrings(t.paths, d+"0") // '0' follows '/'
	return t.paths[lo:hi]
}

// outputRoots finds the output roots of a tree from its sorted file paths;
// read returns the content of one of them (nil when it cannot).
func outputRoots(paths []string, read func(p string) []byte) []OutputRoot {
	t := newTreeDirs(paths)
	var roots []OutputRoot
	for _, d := range t.dirs {
		if n := len(roots); n > 0 && strings.HasPrefix(d, roots[n-1].Dir+"/") {
			continue // inside a root already
		}
		if vendorDir(d+"/x") != "" {
			continue // vendored already: listed without facts
		}
		if why := t.outputEvidence(d, read); why != "" {
			roots = append(roots, OutputRoot{Dir: d, Why: why})
		}
	}
	return roots
}

// outputEvidence says why folder d is an output root, "" when it is not.
func (t *treeDirs) outputEvidence(d string, read func(string) []byte) string {
	b := path.Base(d)
	if why, ok := toolDirs[b]; ok {
		return why
	}
	if strings.HasSuffix(b, ".egg-info") {
		return "setuptools' package metadata"
	}
	if t.has(d, "pyvenv.cfg") && bytes.Contains(read(d+"/pyvenv.cfg"), []byte("home")) {
		return "a Python virtualenv (pyvenv.cfg)"
	}
	if t.has(d, "CACHEDIR.TAG") && bytes.HasPrefix(read(d+"/CACHEDIR.TAG"), []byte(cacheDirSignature)) {
		return "tagged as a cache (CACHEDIR.TAG)"
	}
	if !buildDirs[b] {
		return ""
	}
	parent := path.Dir(d)
	if parent == "." {
		parent = ""
	}
	for _, check := range []func(d, parent string) string{t.toolMarkers, t.builtFiles} {
		if why := check(d, parent); why != "" {
			return why
		}
	}
	if why := t.pointedAt(d, parent, read); why != "" {
		return why
	}
	return t.mirrorsSrc(d, parent)
}

// toolMarkers finds what a build tool leaves in its build folder d.
func (t *treeDirs) toolMarkers(d, parent string) string {
	has := func(names ...string) string {
		for _, n := range names {
			if t.has(d, n) {
				return strings.TrimSuffix(n, "/")
			}
		}
		return ""
	}
	sibling := func(names ...string) bool {
		for _, n := range names {
			if t.has(parent, n) {
				return true
			}
		}
		return false
	}
	if m := has("CMakeCache.txt", "CMakeFiles/", "build.ninja", ".ninja_log"); m != "" {
		return "a CMake or Ninja build folder (" + m + ")"
	}
	if m := has(".rustc_info.json"); m != "" || t.has(d+"/debug", ".fingerprint/") || t.has(d+"/release", ".fingerprint/") {
		return "Cargo's target folder (.fingerprint, .rustc_info.json)"
	}
	if m := has("maven-status/", "maven-archiver/"); m != "" {
		return "Maven's target folder (" + m + ")"
	}
	if m := has("classes/", "test-classes/", "generated-sources/"); m != "" && sibling("pom.xml") {
		return "Maven's target folder (" + m + " beside pom.xml)"
	}
	if m := has("classes/", "libs/", "tmp/", "intermediates/", "kotlin/", "generated/"); m != "" && sibling("build.gradle", "build.gradle.kts") {
		return "Gradle's build folder (" + m + " beside build.gradle)"
	}
	if m := has(".buildinfo", "doctrees/", ".doctrees/"); m != "" || t.has(d+"/html", ".buildinfo") {
		return "Sphinx's build folder (.buildinfo, doctrees)"
	}
	if m := has("lcov.info", "lcov-report/", "coverage-final.json", "coverage-summary.json", "clover.xml", "coverage_html.js"); m != "" {
		return "a coverage report (" + m + ")"
	}
	if m := has("project.assets.json"); m != "" {
		return ".NET's obj folder (project.assets.json)"
	}
	if m := has("Debug/", "Release/"); m != "" {
		for _, e := range t.entries(parent) {
			if strings.HasSuffix(e, ".csproj") || strings.HasSuffix(e, ".fsproj") || strings.HasSuffix(e, ".vbproj") {
				return ".NET's build folder (" + m + " beside " + e + ")"
			}
		}
	}
	if m := has("dev/", "test/", "prod/"); m != "" && sibling("mix.exs") && t.has(d+"/"+m, "lib/") {
		return "Mix's build folder (" + m + "/lib beside mix.exs)"
	}
	for _, e := range t.entries(d) {
		if strings.HasPrefix(e, "bdist.") && strings.HasSuffix(e, "/") {
			return "setuptools' build folder (" + strings.TrimSuffix(e, "/") + ")"
		}
	}
	if t.has(d, "lib/") && sibling("setup.py", "pyproject.toml", "setup.cfg") {
		for _, p := range t.under(d + "/lib") {
			rel := strings.TrimPrefix(p, d+"/lib/")
			if strings.HasSuffix(rel, ".py") && (t.exists(path.Join(parent, rel)) || t.exists(path.Join(parent, "src", rel))) {
				return "setuptools' build folder (lib/ copies the package)"
			}
		}
	}
	return ""
}

// entries are folder d's entries, sorted.
func (t *treeDirs) entries(d string) []string {
	out := make([]string, 0, len(t.ents[d]))
	for e := range t.ents[d] {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}

// exists reports whether p is a file of the tree.
func (t *treeDirs) exists(p string) bool {
	d := path.Dir(p)
	if d == "." {
		d = ""
	}
	return t.has(d, path.Base(p))
}

// hashedName is a bundle named by its content's hash: main.3f9a2c1b.js.
var hashedName = regexp.MustCompile(`[.-]([0-9a-f]{8,20})\.(?:m?js|css)$`)

// compiledExts are objects only a compiler writes.
var compiledExts = map[string]bool{".o": true, ".obj": true, ".class": true, ".pyc": true, ".pyo": true, ".beam": true, ".hi": true}

// builtFiles finds files under d that only a build writes.
func (t *treeDirs) builtFiles(d, _ string) string {
	for _, p := range t.under(d) {
		b := path.Base(p)
		switch {
		case strings.HasSuffix(b, ".js.map"), strings.HasSuffix(b, ".css.map"), strings.HasSuffix(b, ".mjs.map"), strings.HasSuffix(b, ".cjs.map"):
			return "it holds source maps (" + strings.TrimPrefix(p, d+"/") + ")"
		case compiledExts[path.Ext(b)]:
			return "it holds compiled objects (" + strings.TrimPrefix(p, d+"/") + ")"
		}
		if m := hashedName.FindStringSubmatch(b); m != nil && strings.ContainsAny(m[1], "0123456789") && strings.ContainsAny(m[1], "abcdef") {
			return "it holds content-hashed bundles (" + strings.TrimPrefix(p, d+"/") + ")"
		}
	}
	return ""
}

// pointedAt finds package.json's entry points or tsconfig.json's outDir
// in d's parent pointing into d.
func (t *treeDirs) pointedAt(d, parent string, read func(string) []byte) string {
	b := path.Base(d)
	if t.has(parent, "tsconfig.json") {
		re := regexp.MustCompile(`"outDir"\s*:\s*"(?:\./)?` + regexp.QuoteMeta(b) + `/?"`)
		if re.Match(read(path.Join(parent, "tsconfig.json"))) {
			return "tsconfig.json's outDir"
		}
	}
	if !t.has(parent, "package.json") || !t.has(parent, "src/") {
		return "" // without a source elsewhere, what package.json points at is the code
	}
	var pkg map[string]any
	if json.Unmarshal(read(path.Join(parent, "package.json")), &pkg) != nil {
		return ""
	}
	for _, key := range []string{"main", "module", "browser", "types", "typings", "bin", "exports", "unpkg", "jsdelivr"} {
		var found string
		walkStrings(pkg[key], func(s string) {
			if found == "" && strings.HasPrefix(path.Clean(strings.TrimPrefix(s, "./")), b+"/") {
				found = s
			}
		})
		if found != "" {
			return fmt.Sprintf("package.json's %s points into it (%s) and its source is in src/", key, found)
		}
	}
	return ""
}

// walkStrings calls f on every string in v, a decoded JSON value.
func walkStrings(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			walkStrings(x[k], f)
		}
	case []any:
		for _, e := range x {
			walkStrings(e, f)
		}
	}
}

// builtExts are what a JavaScript or CSS build writes; sourceExts what it
// reads.
var (
	builtExts  = []string{".d.ts.map", ".js.map", ".d.ts", ".js", ".mjs", ".cjs", ".css"}
	sourceExts = []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".vue", ".svelte", ".scss", ".sass", ".less", ".css", ".coffee"}
)

// stem cuts the first of exts that p ends with, "" when none.
func pathStem(p string, exts []string) string {
	for _, e := range exts {
		if s, ok := strings.CutSuffix(p, e); ok {
			return s
		}
	}
	return ""
}

// mirrorsSrc reports whether the built files of d mirror the sources of
// the src/ beside it: at least two, and at least half of them.
func (t *treeDirs) mirrorsSrc(d, parent string) string {
	if !t.has(parent, "src/") {
		return ""
	}
	src := path.Join(parent, "src")
	sources := map[string]bool{}
	for _, p := range t.under(src) {
		if s := pathStem(strings.TrimPrefix(p, src+"/"), sourceExts); s != "" {
			sources[s] = true
		}
	}
	built, matched := 0, 0
	for _, p := range t.under(d) {
		rel := strings.TrimPrefix(p, d+"/")
		s := pathStem(rel, builtExts)
		if s == "" {
			continue
		}
		built++
		// dist/esm/x.js mirrors src/x.ts too.
		_, inner, nested := strings.Cut(s, "/")
		if sources[s] || nested && sources[inner] {
			matched++
		}
	}
	if matched >= 2 && 2*matched >= built {
		return fmt.Sprintf("its files mirror src/ (%d of %d)", matched, built)
	}
	return ""
}

// outputByContent says why a file is output by its own content, "" when
// it is not: data is its content (its head when too large).
func outputByContent(p, lang string, data []byte) string {
	ext := path.Ext(p)
	if ext == ".map" {
		head := bytes.TrimLeft(data[:min(len(data), 512)], " \t\r\n\ufeff")
		if bytes.HasPrefix(head, []byte("{")) && bytes.Contains(data[:min(len(data), 4096)], []byte(`"mappings"`)) {
			return "a source map"
		}
		return ""
	}
	if lang != world.LangJavaScript && lang != world.LangCSS {
		return ""
	}
	tail := data[max(0, len(data)-512):]
	if i := bytes.LastIndex(tail, []byte("sourceMappingURL=")); i >= 2 && (bytes.HasSuffix(tail[:i], []byte("//# ")) || bytes.HasSuffix(tail[:i], []byte("/*# "))) {
		return "it ends with a sourceMappingURL comment, as a build's output does"
	}
	head := data[:min(len(data), headBytes)]
	for _, m := range []string{"webpackBootstrap", "__webpack_require__", "/*! For license information please see", "parcelRequire", "// Generated by CoffeeScript"} {
		if bytes.Contains(head, []byte(m)) {
			return "bundler output (" + m + ")"
		}
	}
	n := bytes.Count(data, []byte("\n"))
	if !bytes.HasSuffix(data, []byte("\n")) {
		n++
	}
	if len(data) >= 1024 && len(data)/n > minifiedLine {
		return fmt.Sprintf("minified (%d bytes a line)", len(data)/n)
	}
	return ""
}

// minifiedLine is the mean line length, in bytes, above which a script or
// style sheet is minified: hand-written code averages under 40.
const minifiedLine = 250

// markOutputRoots flags every file of files (sorted by path) under an
// output root of their tree and returns the roots. Rows carried over from
// a previous tree whose root changed (a src/ added beside a dist/) are
// made anew, to be read again, and their folders marked dirty in prev.
func markOutputRoots(repo *gitstore.Repo, cls *classifier, files []*file, prev *previous, warn func(string)) []OutputRoot {
	paths := make([]string, len(files))
	byPath := make(map[string]*file, len(files))
	for i, f := range files {
		paths[i] = f.rec.Path
		byPath[f.rec.Path] = f
	}
	var blobs gitstore.BlobReader
	defer func() {
		if blobs != nil {
			blobs.Close()
		}
	}()
	read := func(p string) []byte {
		f := byPath[p]
		if f == nil || f.rec.Blob == "" {
			return nil
		}
		if blobs == nil {
			var err error
			if blobs, err = repo.Blobs(); err != nil {
				warn(fmt.Sprintf("cannot read blobs to find build output (%v)", err))
				return nil
			}
		}
		b, _ := blobs.Read(f.rec.Blob, maxMarkerBytes)
		return b
	}
	roots := outputRoots(paths, read)
	k := 0
	for i, f := range files {
		p := f.rec.Path
		for k < len(roots) && roots[k].Dir+"/" < p && !strings.HasPrefix(p, roots[k].Dir+"/") {
			k++
		}
		want := ""
		if k < len(roots) && strings.HasPrefix(p, roots[k].Dir+"/") {
			want = "under " + roots[k].Dir + "/: " + roots[k].Why
		}
		if !f.reused {
			if want != "" {
				f.rec.Flags = append(f.rec.Flags, world.Flag{Name: world.FlagOutput, Reason: want})
			}
			continue
		}
		have := ""
		for _, fl := range f.rec.Flags {
			if fl.Name == world.FlagOutput && strings.HasPrefix(fl.Reason, "under ") {
				have = fl.Reason
			}
		}
		if have == want {
			continue
		}
		mode := uint32(0o100644)
		switch {
		case f.rec.Has(world.FlagSymlink):
			mode = modeSymlink
		case f.rec.Has(world.FlagSubmodule):
			mode = modeGitlink
		}
		nf := newFile(cls, p, mode, f.rec.Blob, f.rec.Size)
		if want != "" {
			nf.rec.Flags = append(nf.rec.Flags, world.Flag{Name: world.FlagOutput, Reason: want})
		}
		files[i] = nf
		if prev != nil {
			prev.dirty[shardOf(p)] = true
		}
	}
	return roots
}

// maxMarkerBytes bounds what is read of a file that decides roots.
const maxMarkerBytes = 256 << 10
