package graph

import (
	"encoding/json"
	"path"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// jsExts are tried, in order, after an import path without extension.
var jsExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

// tsConfig is the part of a tsconfig.json or jsconfig.json that resolution
// uses.
type tsConfig struct {
	dir     string // folder of the config file
	baseURL string // tree path, "" when unset
	paths   []tsPath
}

type tsPath struct {
	pattern string
	targets []string
}

// parseTSConfig reads compilerOptions.baseUrl and paths, tolerating
// comments and trailing commas.
func parseTSConfig(dir string, data []byte) *tsConfig {
	var raw struct {
		CompilerOptions struct {
			BaseURL string              `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if json.Unmarshal(jsonc(data), &raw) != nil {
		return nil
	}
	c := &tsConfig{dir: dir}
	if raw.CompilerOptions.BaseURL != "" {
		c.baseURL = cleanJoin(dir, raw.CompilerOptions.BaseURL)
	}
	for p, t := range raw.CompilerOptions.Paths {
		c.paths = append(c.paths, tsPath{p, t})
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
}

func (b *builder) resolveJS() {
	x := &jsIndex{configs: map[string]*tsConfig{}}
	var files []int
	b.filesOf("js", func(i int, l *world.Link) { files = append(files, i) })
	if len(files) == 0 {
		return
	}
	for _, f := range b.files {
		base := path.Base(f.Path)
		if base != "tsconfig.json" && base != "jsconfig.json" {
			continue
		}
		d := path.Dir(f.Path)
		if _, ok := x.configs[d]; ok && base == "jsconfig.json" {
			continue // tsconfig.json wins
		}
		if c := parseTSConfig(d, b.read(f.Path)); c != nil {
			x.configs[d] = c
		}
	}
	fn := func(a *acc, i int) {
		l := b.links[i]
		s := newScope()
		s.follow = func(f int, name string, depth int) []int { return b.jsFollow(x, f, name, depth) }
		for _, im := range l.Imports {
			t := b.jsModule(x, i, im.Path)
			if t < 0 {
				continue
			}
			switch {
			case im.Alias == "*" && len(im.Names) == 0:
				s.glob(t) // export * from
			case im.Alias != "" && im.Alias != "*":
				s.bind(im.Alias, t) // namespace or default import
				s.name(im.Alias, t)
			}
			if im.Alias == "" && len(im.Names) == 0 {
				s.bind(strings.TrimSuffix(path.Base(b.files[t].Path), path.Ext(b.files[t].Path)), t)
				if im.Kind == "require" {
					// const {a, b} = require("./x"): the extractor records a
					// and b as the file's own definitions, not as Names.
					s.glob(t)
				}
			}
			for _, n := range im.Names {
				orig, local := n, n
				if k := strings.Index(n, " as "); k > 0 {
					orig, local = strings.TrimSpace(n[:k]), strings.TrimSpace(n[k+4:])
				}
				if d := b.definers(s, []int{t}, orig); len(d) > 0 {
					s.name(local, d...)
				} else {
					s.name(local, t)
				}
				s.bind(local, t)
			}
		}
		a.resolveScoped(i, l, s)
	}
	for _, i := range files {
		b.register(i, fn)
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
	from := b.files[i].Path
	if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == ".." {
		return b.jsFile(cleanJoin(path.Dir(from), spec))
	}
	c := x.config(from)
	if c == nil {
		return -1
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
			if f := b.jsFile(cleanJoin(base, strings.Replace(t, "*", star, 1))); f >= 0 {
				return f
			}
		}
		return -1
	}
	if c.baseURL != "" {
		return b.jsFile(cleanJoin(c.baseURL, spec))
	}
	return -1
}

// jsFile finds the file an import path denotes: as written, with a known
// extension, or an index file in the folder.
func (b *builder) jsFile(p string) int {
	if p == "" {
		return -1
	}
	if f := b.lookupPath(p); f >= 0 && b.links[f] != nil {
		return f
	}
	// "./x.js" written for x.ts
	if ext := path.Ext(p); ext == ".js" || ext == ".jsx" || ext == ".mjs" || ext == ".cjs" {
		stem := strings.TrimSuffix(p, ext)
		for _, e := range []string{".ts", ".tsx", ".mts", ".cts"} {
			if f := b.lookupPath(stem + e); f >= 0 {
				return f
			}
		}
	}
	for _, e := range jsExts {
		if f := b.lookupPath(p + e); f >= 0 {
			return f
		}
	}
	for _, e := range jsExts {
		if f := b.lookupPath(p + "/index" + e); f >= 0 {
			return f
		}
	}
	return -1
}

// jsFollow finds name through the re-exports of file f (export * from,
// export {a} from), depth levels deep.
func (b *builder) jsFollow(x *jsIndex, f int, name string, depth int) []int {
	if depth <= 0 || b.links[f] == nil {
		return nil
	}
	for _, im := range b.links[f].Imports {
		match := im.Alias == "*" && len(im.Names) == 0
		orig := name
		for _, n := range im.Names {
			o, local := n, n
			if k := strings.Index(n, " as "); k > 0 {
				o, local = strings.TrimSpace(n[:k]), strings.TrimSpace(n[k+4:])
			}
			if local == name {
				match, orig = true, o
			}
		}
		if !match {
			continue
		}
		t := b.jsModule(x, f, im.Path)
		if t < 0 {
			continue
		}
		if b.defines(t, orig) {
			return []int{t}
		}
		if r := b.jsFollow(x, t, orig, depth-1); len(r) > 0 {
			return r
		}
	}
	return nil
}
