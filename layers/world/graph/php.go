package graph

import (
	"encoding/json"
	"path"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// resolvePHP resolves PHP: namespaces and use statements (with PSR-4
// autoload folders from composer.json), and require/include paths.
func (b *builder) resolvePHP() {
	var files []int
	ns := map[string][]int{} // namespace → files
	b.filesOf(world.LangPHP, func(i int, l *world.Link) {
		files = append(files, i)
		ns[strings.Trim(l.Package, `\`)] = append(ns[strings.Trim(l.Package, `\`)], i)
	})
	if len(files) == 0 {
		return
	}
	type psr4 struct{ prefix, dir string }
	var maps []psr4
	for _, f := range b.files {
		if path.Base(f.Path) != "composer.json" {
			continue
		}
		var c struct {
			Autoload    map[string]json.RawMessage `json:"autoload"`
			AutoloadDev map[string]json.RawMessage `json:"autoload-dev"`
		}
		if json.Unmarshal(b.read(f.Path), &c) != nil {
			continue
		}
		for _, a := range []map[string]json.RawMessage{c.Autoload, c.AutoloadDev} {
			var m map[string]json.RawMessage
			if json.Unmarshal(a["psr-4"], &m) != nil {
				continue
			}
			for pre, raw := range m {
				var dirs []string
				var one string
				if json.Unmarshal(raw, &one) == nil {
					dirs = []string{one}
				} else {
					_ = json.Unmarshal(raw, &dirs)
				}
				for _, d := range dirs {
					maps = append(maps, psr4{strings.Trim(pre, `\`), cleanJoin(path.Dir(f.Path), d)})
				}
			}
		}
	}
	sort.Slice(maps, func(i, j int) bool {
		if len(maps[i].prefix) != len(maps[j].prefix) {
			return len(maps[i].prefix) > len(maps[j].prefix)
		}
		return maps[i].dir < maps[j].dir
	})
	class := func(fq string) []int {
		fq = strings.Trim(fq, `\`)
		k := strings.LastIndex(fq, `\`)
		name, pkg := fq, ""
		if k >= 0 {
			pkg, name = fq[:k], fq[k+1:]
		}
		var out []int
		for _, f := range ns[pkg] {
			if b.definesTop(f, name) {
				out = append(out, f)
			}
		}
		if len(out) > 0 {
			return out
		}
		for _, m := range maps {
			if fq == m.prefix || strings.HasPrefix(fq, m.prefix+`\`) || m.prefix == "" {
				rel := strings.TrimPrefix(strings.TrimPrefix(fq, m.prefix), `\`)
				if f := b.lookupPath(cleanJoin(m.dir, strings.ReplaceAll(rel, `\`, "/")+".php")); f >= 0 {
					return []int{f}
				}
			}
		}
		return nil
	}
	fn := func(a *acc, i int) {
		l := b.links[i]
		s := newScope()
		s.glob(ns[strings.Trim(l.Package, `\`)]...)
		for _, im := range l.Imports {
			p := im.Path
			if strings.HasSuffix(p, ".php") || im.Kind == "require" || im.Kind == "include" {
				p = strings.Trim(p, `"'`)
				f := b.lookupPath(cleanJoin(path.Dir(b.files[i].Path), p))
				if f < 0 {
					f = b.lookupPath(cleanJoin(".", p))
				}
				if f >= 0 {
					s.glob(f)
				}
				continue
			}
			local := im.Alias
			if local == "" {
				local = p[strings.LastIndex(p, `\`)+1:]
			}
			if fs := class(p); len(fs) > 0 {
				s.name(local, fs...)
				s.bind(local, fs...)
			} else if fs := ns[strings.Trim(p, `\`)]; len(fs) > 0 {
				s.bind(local, fs...) // use of a namespace: Ns\Class
			}
		}
		a.resolveScoped(i, l, s)
	}
	for _, i := range files {
		b.register(i, fn)
	}
}
