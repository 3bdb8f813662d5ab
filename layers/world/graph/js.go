package graph

import (
	"encoding/json"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/git-speed/git-speed/layers/world"
)

// jsExts are tried, in order, after an import path without extension.
var jsExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

// jsTSExts are the TypeScript files an import of a JavaScript file's
// path stands for, in the order TypeScript tries them.
var jsTSExts = map[string][]string{
	".js":  {".ts", ".tsx", ".d.ts"},
	".jsx": {".ts", ".tsx", ".d.ts"},
	".mjs": {".mts", ".d.mts"},
	".cjs": {".cts", ".d.cts"},
}

// tsConfig is the part of a tsconfig.json or jsconfig.json that resolution
// uses.
type tsConfig struct {
	dir     string // folder of the config file
	baseURL string // tree path, "" when unset
	paths   []tsPath
	// jsxImportSource is the module whose jsx-runtime gives the JSX
	// namespace ("hono/jsx"), as written; "" when unset.
	jsxImportSource string
}

type tsPath struct {
	pattern string
	targets []string
}

// parseTSConfig reads compilerOptions.baseUrl and paths of the config at
// tree path file, tolerating comments and trailing commas, with what it
// inherits through "extends" (relative paths only; a package name, a
// missing file or a cycle ends the chain). read returns a file's content,
// nil when absent.
func parseTSConfig(file string, read func(string) []byte) *tsConfig {
	return parseTSConfigChain(file, read, map[string]bool{})
}

func parseTSConfigChain(file string, read func(string) []byte, seen map[string]bool) *tsConfig {
	if seen[file] || len(seen) > 16 {
		return nil
	}
	seen[file] = true
	data := read(file)
	if data == nil {
		return nil
	}
	var raw struct {
		Extends         json.RawMessage `json:"extends"`
		CompilerOptions struct {
			BaseURL         *string             `json:"baseUrl"`
			Paths           map[string][]string `json:"paths"`
			JSXImportSource *string             `json:"jsxImportSource"`
		} `json:"compilerOptions"`
	}
	if json.Unmarshal(jsonc(data), &raw) != nil {
		return nil
	}
	dir := path.Dir(file)
	c := &tsConfig{dir: dir}
	// The last of several bases wins, as in TypeScript.
	var bases []string
	var one string
	if json.Unmarshal(raw.Extends, &one) == nil {
		bases = []string{one}
	} else {
		_ = json.Unmarshal(raw.Extends, &bases)
	}
	for _, e := range bases {
		if !strings.HasPrefix(e, "./") && !strings.HasPrefix(e, "../") {
			continue // a package's config: outside the tree
		}
		p := cleanJoin(dir, e)
		if p != "" && !strings.HasSuffix(p, ".json") && read(p) == nil {
			p += ".json"
		}
		if base := parseTSConfigChain(p, read, seen); base != nil {
			c.baseURL, c.paths, c.jsxImportSource = base.baseURL, base.paths, base.jsxImportSource
			c.dir = base.dir // paths without a baseUrl are relative to the config declaring them
		}
	}
	if raw.CompilerOptions.BaseURL != nil {
		c.baseURL = cleanJoin(dir, *raw.CompilerOptions.BaseURL)
	}
	if raw.CompilerOptions.JSXImportSource != nil {
		c.jsxImportSource = *raw.CompilerOptions.JSXImportSource
	}
	if raw.CompilerOptions.Paths != nil {
		c.paths = nil
		c.dir = dir
		for p, t := range raw.CompilerOptions.Paths {
			c.paths = append(c.paths, tsPath{p, t})
		}
	}
	// Longest prefix first, as TypeScript does.
	sort.Slice(c.paths, func(i, j int) bool {
		a, b := c.paths[i].pattern, c.paths[j].pattern
		pa, pb := strings.Index(a, "*"), strings.Index(b, "*")
		if pa < 0 {
			pa = len(a) + 1
		}
		if pb < 0 {
			pb = len(b) + 1
		}
		if pa != pb {
			return pa > pb
		}
		return a < b
	})
	return c
}

// jsonc strips // and /* */ comments and trailing commas from JSON text.
func jsonc(data []byte) []byte {
	out := make([]byte, 0, len(data))
	inStr := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inStr {
			out = append(out, c)
			if c == '\\' && i+1 < len(data) {
				i++
				out = append(out, data[i])
			} else if c == '"' {
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
			out = append(out, c)
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			i += 2
			for i+1 < len(data) && !(data[i] == '*' && data[i+1] == '/') {
				i++
			}
			i++
		case c == ']' || c == '}':
			// drop a trailing comma before the closer
			k := len(out) - 1
			for k >= 0 && (out[k] == ' ' || out[k] == '\n' || out[k] == '\t' || out[k] == '\r') {
				k--
			}
			if k >= 0 && out[k] == ',' {
				out = append(out[:k], out[k+1:]...)
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

type jsIndex struct {
	configs map[string]*tsConfig // folder → config in it
	pkgs    map[string]*jsPkg    // package name → its package.json
	pkgDirs map[string]*jsPkg    // folder → its package.json
	// exports holds, for every file with re-export statements (a barrel),
	// the names it exports through them and the files finally defining
	// each: export {a as b} from, export * from, export * as z from,
	// followed through chains of barrels. A whole-tree structure: a change
	// to a barrel or to a file it re-exports changes it.
	exports map[int]map[string][]int
	// members indexes, per file, its member definitions by parent and
	// name (jstypes.go), filled as resolution asks, shared by the workers.
	members sync.Map
}

func (b *builder) resolveJS() {
	x := &jsIndex{configs: map[string]*tsConfig{}, pkgs: map[string]*jsPkg{}, pkgDirs: map[string]*jsPkg{}}
	var files []int
	b.filesOf("js", func(i int, l *world.Link) { files = append(files, i) })
	if len(files) == 0 {
		return
	}
	for _, f := range b.files {
		base := path.Base(f.Path)
		d := path.Dir(f.Path)
		if base == "package.json" && !underNodeModules(f.Path) {
			data := b.read(f.Path)
			if data == nil {
				continue
			}
			if p := parsePackageJSON(d, data); p != nil {
				x.pkgDirs[d] = p
				if _, dup := x.pkgs[p.name]; p.name != "" && !dup {
					x.pkgs[p.name] = p
				}
			} else {
				b.warnf("%s: not a JSON object; the package resolves by its folder only", f.Path)
			}
			continue
		}
		if base != "tsconfig.json" && base != "jsconfig.json" {
			continue
		}
		if _, ok := x.configs[d]; ok && base == "jsconfig.json" {
			continue // tsconfig.json wins
		}
		if b.read(f.Path) == nil {
			continue
		}
		if c := parseTSConfig(f.Path, b.read); c != nil {
			x.configs[d] = c
		} else {
			b.warnf("%s: not a readable tsconfig; its folder resolves without paths or baseUrl", f.Path)
		}
	}
	b.jsExportTables(x, files)
	fn := func(a *acc, i int) {
		l := b.links[i]
		s := newScope()
		s.follow = func(f int, name string, depth int) []int { return x.exports[f][name] }
		for _, im := range l.Imports {
			t := b.jsModule(x, i, im.Path)
			if t < 0 {
				// A package root whose built entry point is not in the
				// tree: a weak edge to its source, no names bound.
				a.weakEdge(i, b.jsUnbuilt(x, i, im.Path), 1)
				s.external(im.Alias)
				for _, n := range im.Names {
					_, local := importName(im, n)
					s.external(local)
				}
				continue
			}
			reexport := strings.Contains(im.Kind, "reexport")
			switch {
			case len(im.Names) > 0:
				for _, n := range im.Names {
					orig, local := importName(im, n)
					var d []int
					if b.definesTop(t, orig) {
						d = []int{t}
					} else {
						d = x.exports[t][orig]
					}
					if len(d) == 0 && b.jsExpando(t, orig) {
						// module.exports = fn; module.exports.x = …: x is
						// a property of fn, not an export the compiler
						// binds (other names not found may be declared
						// where the extractor could not parse: the module
						// is linked). A reader follows it to the module:
						// a weak edge.
						s.external(local)
						a.weakEdge(i, t, 1)
						continue
					}
					if len(d) == 0 {
						d = []int{t}
					}
					// The name in the import or export statement is a use.
					a.spread(i, d, 1, 1)
					if !reexport {
						s.name(local, d...)
						s.bind(local, d...)
					}
				}
			case im.Alias == "*":
				s.glob(t) // export * from
			case im.Alias != "":
				// namespace import, export * as z, const z = require(…): a
				// use of the module when it exports something of its own
				// or through its barrel table (not when it only hands on a
				// module from outside the tree).
				w := b.jsWhole(x, t)
				if w < 0 {
					// The module hands on nothing of the tree's, or
					// declares nothing the extractor sees: a weak edge.
					s.external(im.Alias)
					a.weakEdge(i, t, 1)
					continue
				}
				t = w
				a.edge(i, t, 1, 1)
				if !reexport {
					s.bind(im.Alias, t)
					s.name(im.Alias, t)
				}
			default:
				// import "./x", require("./x") for its effects alone: a
				// reader follows it, no name binds.
				a.weakEdge(i, t, 1)
			}
		}
		// In a module every name from another file is imported: no
		// guessing by name.
		s.noFallback = len(l.Imports) > 0
		if hasTyped(l) {
			rest := *l
			rest.Refs = nil
			ev := &jsEval{b: b, x: x}
			for _, r := range l.Refs {
				if k := strings.IndexByte(r.Qual, ':'); k >= 0 {
					if r.Qual[:k] == "jsx" {
						a.jsxIntrinsic(ev, i, r)
						continue
					}
					if r.Kind == world.RefMember && a.jsTyped(ev, i, r) || r.Qual[:k] == "{}" {
						continue // a key of an object literal of a type not the tree's: no edge
					}
					r.Qual = r.Qual[:k]
				}
				rest.Refs = append(rest.Refs, r)
			}
			l = &rest
		}
		a.resolveScoped(i, l, s)
	}
	for _, i := range files {
		b.register(i, fn)
	}
}

// jsExpando reports whether file t declares name only as a property of
// a function or class it declares at top level (module.exports = fn;
// module.exports.name = …).
func (b *builder) jsExpando(t int, name string) bool {
	for _, d := range b.links[t].DefsNamed(name) {
		if p := d.Parent; p != "" && !strings.Contains(p, ".") {
			for _, d := range (&jsEval{b: b}).topDefs(t, p) {
				if d.Kind == world.KindFunction {
					return true
				}
			}
		}
	}
	return false
}

// underNodeModules reports whether p lies in a node_modules folder.
func underNodeModules(p string) bool {
	return strings.HasPrefix(p, "node_modules/") || strings.Contains(p, "/node_modules/")
}

// jsExportTables fills x.exports for every barrel among files. Tables
// grow pass by pass until no name is added, so chains and cycles of
// barrels (a re-exports b re-exports a) settle on the same tables whatever
// the order; the passes are capped for pathological depths.
func (b *builder) jsExportTables(x *jsIndex, files []int) {
	x.exports = map[int]map[string][]int{}
	type reexp struct {
		im world.Import
		m  int
	}
	var barrels []int
	mods := map[int][]reexp{}
	explicit := map[int]map[string]bool{} // names a barrel re-exports by name
	for _, f := range files {
		for _, im := range b.links[f].Imports {
			if !strings.Contains(im.Kind, "reexport") {
				continue
			}
			m := b.jsModule(x, f, im.Path)
			if m < 0 || m == f {
				continue
			}
			if len(mods[f]) == 0 {
				barrels = append(barrels, f)
			}
			mods[f] = append(mods[f], reexp{im, m})
			for _, n := range im.Names {
				_, local := importName(im, n)
				if explicit[f] == nil {
					explicit[f] = map[string]bool{}
				}
				explicit[f][local] = true
			}
		}
	}
	add := func(f int, name string, fs []int) bool {
		if len(fs) == 0 {
			return false
		}
		t := x.exports[f]
		if t == nil {
			t = map[string][]int{}
			x.exports[f] = t
		}
		before := len(t[name])
		t[name] = addSorted(t[name], fs...)
		return len(t[name]) != before
	}
	exportOf := func(m int, name string) []int {
		if b.definesTop(m, name) {
			return []int{m}
		}
		return x.exports[m][name]
	}
	for pass := 0; pass < 64; pass++ {
		changed := false
		for _, f := range barrels {
			for _, r := range mods[f] {
				im, m := r.im, r.m
				switch {
				case len(im.Names) > 0:
					for _, n := range im.Names {
						orig, local := importName(im, n)
						fs := exportOf(m, orig)
						if len(fs) == 0 && orig == "default" && x.exports[m]["default"] == nil && b.hasTopDefs(m) {
							// export {default as X} from "./x": x's default
							// export is declared in x under its own name.
							fs = []int{m}
						}
						changed = add(f, local, fs) || changed
					}
				case im.Alias == "*":
					if b.links[m] == nil {
						continue
					}
					for _, d := range b.links[m].Defs {
						if d.Parent == "" && d.Name != "default" && !explicit[f][d.Name] {
							changed = add(f, d.Name, []int{m}) || changed
						}
					}
					for name, fs := range x.exports[m] {
						if name != "default" && !explicit[f][name] && !b.definesTop(m, name) {
							changed = add(f, name, fs) || changed
						}
					}
				case im.Alias != "":
					changed = add(f, im.Alias, []int{m}) || changed
				}
			}
		}
		if !changed {
			break
		}
	}
}

// config returns the tsconfig/jsconfig nearest above file p.
func (x *jsIndex) config(p string) *tsConfig {
	for d := path.Dir(p); ; d = path.Dir(d) {
		if c, ok := x.configs[d]; ok {
			return c
		}
		if d == "." || d == "/" {
			return nil
		}
	}
}

// jsModule resolves an import specifier of file i to a file, or -1.
func (b *builder) jsModule(x *jsIndex, i int, spec string) int {
	if spec == "" {
		return -1
	}
	f := b.jsSpecifier(x, i, spec)
	if f >= 0 && strings.HasSuffix(b.files[f].Path, ".d.ts") && isJSFile(b.files[i].Path) {
		// From JavaScript, a declaration file stands for the file that runs.
		stem := strings.TrimSuffix(b.files[f].Path, ".d.ts")
		for _, e := range []string{".js", ".cjs", ".mjs"} {
			if g := b.lookupPath(stem + e); g >= 0 {
				return g
			}
		}
	}
	return f
}

// isJSFile reports whether p is JavaScript rather than TypeScript.
func isJSFile(p string) bool {
	switch path.Ext(p) {
	case ".js", ".jsx", ".cjs", ".mjs":
		return true
	}
	return false
}

// jsSpecifier resolves spec as written in file i: relative, through the
// nearest tsconfig's paths and baseUrl, or as a package of the tree.
func (b *builder) jsSpecifier(x *jsIndex, i int, spec string) int {
	from := b.files[i].Path
	if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == ".." {
		return b.jsFile(x, cleanJoin(path.Dir(from), spec))
	}
	if f := b.jsPaths(x, from, spec); f != -2 {
		return f
	}
	name, sub := splitPackage(spec)
	if p := x.pkgs[name]; p != nil {
		return b.jsPackageFile(x, p, sub)
	}
	return -1
}

// jsPaths resolves spec through the tsconfig nearest above from: -2 when
// no paths pattern or baseUrl applies.
func (b *builder) jsPaths(x *jsIndex, from, spec string) int {
	c := x.config(from)
	if c == nil {
		return -2
	}
	for _, p := range c.paths {
		star := ""
		if k := strings.Index(p.pattern, "*"); k >= 0 {
			pre, suf := p.pattern[:k], p.pattern[k+1:]
			if !strings.HasPrefix(spec, pre) || !strings.HasSuffix(spec, suf) || len(spec) < len(pre)+len(suf) {
				continue
			}
			star = spec[len(pre) : len(spec)-len(suf)]
		} else if spec != p.pattern {
			continue
		}
		base := c.baseURL
		if base == "" {
			base = c.dir
		}
		for _, t := range p.targets {
			if f := b.jsFile(x, cleanJoin(base, strings.Replace(t, "*", star, 1))); f >= 0 {
				return f
			}
		}
		return -1
	}
	if c.baseURL != "" {
		if f := b.jsFile(x, cleanJoin(c.baseURL, spec)); f >= 0 {
			return f
		}
	}
	return -2
}

// jsFile finds the file an import path denotes: as written, with a known
// extension, or an index file in the folder.
func (b *builder) jsFile(x *jsIndex, p string) int {
	if p == "" {
		return -1
	}
	// "./x.js" stands for x.ts, x.tsx or x.d.ts before x.js itself, as
	// TypeScript resolves it (from JavaScript, jsModule maps a declaration
	// file back to the file that runs).
	if ext := path.Ext(p); ext == ".js" || ext == ".jsx" || ext == ".mjs" || ext == ".cjs" {
		stem := strings.TrimSuffix(p, ext)
		for _, e := range jsTSExts[ext] {
			if f := b.lookupPath(stem + e); f >= 0 {
				return f
			}
		}
	}
	if f := b.lookupPath(p); f >= 0 && b.links[f] != nil {
		return f
	}
	for _, e := range jsExts {
		if f := b.lookupPath(p + e); f >= 0 {
			return f
		}
	}
	// A folder: its package.json's entry points, then its index file.
	var pk *jsPkg
	if x != nil {
		pk = x.pkgDirs[p]
	}
	if pk != nil {
		for _, e := range pk.entries {
			if e := cleanJoin(p, e); e != p {
				if f := b.jsFile(nil, e); f >= 0 {
					return f
				}
			}
		}
	}
	dir := p + "/"
	if p == "." {
		dir = "" // the tree's root folder
	}
	for _, e := range jsExts {
		if f := b.lookupPath(dir + "index" + e); f >= 0 {
			return f
		}
	}
	return -1
}

// hasTopDefs reports whether file i defines anything at module level.
func (b *builder) hasTopDefs(i int) bool {
	if l := b.links[i]; l != nil {
		for _, d := range l.Defs {
			if d.Parent == "" {
				return true
			}
		}
	}
	return false
}

// jsWhole returns the module a binding of module t stands for: t when it
// exports something of its own or is a barrel; the module it hands on
// whole when that is all it does (module.exports = require("./lib/x"));
// -1 when it exports nothing from the tree.
func (b *builder) jsWhole(x *jsIndex, t int) int {
	for depth := 0; depth < 8; depth++ {
		if b.hasTopDefs(t) {
			return t
		}
		if b.links[t] == nil {
			return -1
		}
		next, stars := -1, 0
		for _, im := range b.links[t].Imports {
			if strings.Contains(im.Kind, "reexport") {
				stars++
				if im.Alias == "*" && len(im.Names) == 0 {
					next = b.jsModule(x, t, im.Path)
				}
			}
		}
		if stars != 1 || next < 0 || next == t {
			if len(x.exports[t]) > 0 {
				return t
			}
			return -1
		}
		t = next
	}
	return t
}
