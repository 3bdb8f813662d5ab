package graph

import (
	"encoding/json"
	"path"
	"sort"
	"strings"
)

// jsPkg is a package.json of the tree as module resolution reads it.
type jsPkg struct {
	name    string
	dir     string
	entries []string            // root entry points in the order TypeScript tries them: types, typings, main
	exports map[string][]string // subpath ("." "./x" "./x/*") → targets by condition preference; nil without "exports"
}

// jsConditions are the export conditions honoured, most preferred first
// (TypeScript's with a bundler, then Node's).
var jsConditions = []string{"types", "typings", "import", "require", "node", "module", "default"}

// parsePackageJSON reads name, types, typings, main and exports of a
// package.json in dir. Malformed content or fields give nil or are left
// out; it never fails harder than that.
func parsePackageJSON(dir string, data []byte) *jsPkg {
	var raw map[string]json.RawMessage
	if len(data) == 0 || json.Unmarshal(data, &raw) != nil {
		return nil
	}
	p := &jsPkg{dir: dir}
	str := func(k string) string {
		var s string
		if v, ok := raw[k]; ok && json.Unmarshal(v, &s) == nil {
			return s
		}
		return ""
	}
	p.name = str("name")
	for _, k := range []string{"types", "typings", "main"} {
		if s := str(k); s != "" {
			p.entries = append(p.entries, s)
		}
	}
	if v, ok := raw["exports"]; ok {
		p.exports = parseExports(v)
	}
	return p
}

// parseExports reads an "exports" field: a target, a list of targets, a
// map of conditions, or a map of subpaths to any of those.
func parseExports(v json.RawMessage) map[string][]string {
	out := map[string][]string{}
	var m map[string]json.RawMessage
	if json.Unmarshal(v, &m) == nil {
		sub := false
		for k := range m {
			if strings.HasPrefix(k, ".") {
				sub = true
			}
		}
		if sub {
			for k, t := range m {
				if strings.HasPrefix(k, ".") {
					out[k] = exportTargets(t, 0)
				}
			}
			return out
		}
	}
	out["."] = exportTargets(v, 0)
	return out
}

// exportTargets flattens one export target into paths, preferred first;
// nesting deeper than 8 levels is ignored.
func exportTargets(v json.RawMessage, depth int) []string {
	if depth > 8 {
		return nil
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		if strings.HasPrefix(s, "./") {
			return []string{s}
		}
		return nil
	}
	var list []json.RawMessage
	if json.Unmarshal(v, &list) == nil {
		var out []string
		for _, e := range list {
			out = append(out, exportTargets(e, depth+1)...)
		}
		return out
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(v, &m) != nil {
		return nil
	}
	var out []string
	for _, c := range jsConditions {
		if t, ok := m[c]; ok {
			out = append(out, exportTargets(t, depth+1)...)
		}
	}
	return out
}

// exportsFor returns the targets the exports map gives subpath ("." or
// "./x"), a "*" in a pattern replaced by what it matched.
func (p *jsPkg) exportsFor(sub string) []string {
	if t, ok := p.exports[sub]; ok {
		return t
	}
	keys := make([]string, 0, len(p.exports))
	for k := range p.exports {
		if strings.Contains(k, "*") {
			keys = append(keys, k)
		}
	}
	// longest prefix first, as Node does
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) > len(keys[j])
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		star := strings.Index(k, "*")
		pre, suf := k[:star], k[star+1:]
		if len(sub) < len(pre)+len(suf) || !strings.HasPrefix(sub, pre) || !strings.HasSuffix(sub, suf) {
			continue
		}
		m := sub[len(pre) : len(sub)-len(suf)]
		var out []string
		for _, t := range p.exports[k] {
			out = append(out, strings.ReplaceAll(t, "*", m))
		}
		return out
	}
	return nil
}

// splitPackage splits a bare specifier into its package name and the
// subpath after it ("@a/b/c" → "@a/b", "c").
func splitPackage(spec string) (name, sub string) {
	parts := strings.SplitN(spec, "/", 3)
	if strings.HasPrefix(spec, "@") && len(parts) >= 2 {
		name = parts[0] + "/" + parts[1]
		if len(parts) == 3 {
			sub = parts[2]
		}
		return name, sub
	}
	name, sub, _ = strings.Cut(spec, "/")
	return name, sub
}

// jsPackageFile resolves subpath sub ("" for the root) of package p: its
// exports map, else its types/typings/main or the path itself, else, as
// for an unbuilt workspace package, src/<sub> or src/index.
func (b *builder) jsPackageFile(x *jsIndex, p *jsPkg, sub string) int {
	if p.exports != nil {
		key := "."
		if sub != "" {
			key = "./" + sub
		}
		for _, t := range p.exportsFor(key) {
			if f := b.jsFile(x, cleanJoin(p.dir, t)); f >= 0 {
				return f
			}
		}
	}
	if sub == "" {
		for _, e := range p.entries {
			if f := b.jsFile(nil, cleanJoin(p.dir, e)); f >= 0 {
				return f
			}
		}
		for _, c := range []string{"index", "src/index", "src/" + path.Base(p.dir)} {
			if f := b.jsFile(nil, cleanJoin(p.dir, c)); f >= 0 {
				return f
			}
		}
		return -1
	}
	for _, c := range []string{"src/" + sub, sub} {
		if f := b.jsFile(nil, cleanJoin(p.dir, c)); f >= 0 {
			return f
		}
	}
	return -1
}

// jsBuildDirs are the folders a package's build writes its output to,
// from sources under src/.
var jsBuildDirs = map[string]bool{"lib": true, "dist": true, "build": true, "out": true, "es": true, "cjs": true, "esm": true}

// jsUnbuilt resolves spec, written in file i, when it names a package
// root of the tree (a folder with a package.json, or a package by name)
// whose entry points lie in a build folder not in the tree
// ("main": "lib/node/index.js"): the source the build makes it from,
// src/node/index.js, or -1. The compiler resolves no such import; a
// reader follows it to the source, so its edge is weak.
func (b *builder) jsUnbuilt(x *jsIndex, i int, spec string) int {
	var p *jsPkg
	if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == ".." {
		if d := cleanJoin(path.Dir(b.files[i].Path), spec); d != "" {
			p = x.pkgDirs[d]
		}
	} else if name, sub := splitPackage(spec); sub == "" {
		p = x.pkgs[name]
	}
	if p == nil {
		return -1
	}
	entries := append([]string(nil), p.entries...)
	if p.exports != nil {
		entries = append(entries, p.exportsFor(".")...)
	}
	for _, e := range entries {
		e = cleanJoin(".", e)
		top, rest, ok := strings.Cut(e, "/")
		if !ok || !jsBuildDirs[top] {
			continue
		}
		if f := b.jsFile(nil, cleanJoin(p.dir, "src/"+rest)); f >= 0 {
			return f
		}
	}
	return -1
}
