package graph

import (
	"path"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// resolveC resolves C and C++: quoted includes relative to the including
// file, then to include roots; names then come from the included headers
// and from the sources implementing them (same stem).
func (b *builder) resolveC() {
	var files []int
	b.filesOf("c", func(i int, l *world.Link) { files = append(files, i) })
	if len(files) == 0 {
		return
	}
	// Include roots: folders named include, the tree root.
	var roots []string
	for d := range b.dirs {
		if path.Base(d) == "include" {
			roots = append(roots, d)
		}
	}
	sort.Strings(roots)
	roots = append(roots, ".")
	// Header paths by suffix, for includes written from some other root.
	bySuffix := map[string][]int{}
	impl := map[int][]int{} // header → sources with its stem
	stems := map[string][]int{}
	for _, i := range files {
		p := b.files[i].Path
		el := strings.Split(p, "/")
		for k := range el {
			s := strings.Join(el[k:], "/")
			bySuffix[s] = append(bySuffix[s], i)
		}
		stems[strings.TrimSuffix(p, path.Ext(p))] = append(stems[strings.TrimSuffix(p, path.Ext(p))], i)
	}
	isHeader := func(p string) bool {
		switch path.Ext(p) {
		case ".h", ".hh", ".hpp", ".hxx", ".inl":
			return true
		}
		return false
	}
	for _, i := range files {
		p := b.files[i].Path
		if !isHeader(p) {
			continue
		}
		for _, j := range stems[strings.TrimSuffix(p, path.Ext(p))] {
			if j != i && !isHeader(b.files[j].Path) {
				impl[i] = append(impl[i], j)
			}
		}
		if len(impl[i]) == 0 {
			// same stem in another folder (include/x.h, src/x.c)
			stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
			var cands []int
			for _, j := range files {
				q := b.files[j].Path
				if !isHeader(q) && strings.TrimSuffix(path.Base(q), path.Ext(q)) == stem {
					cands = append(cands, j)
				}
			}
			if len(cands) == 1 {
				impl[i] = cands
			}
		}
	}
	include := func(from int, spec string) int {
		if f := b.lookupPath(cleanJoin(path.Dir(b.files[from].Path), spec)); f >= 0 {
			return f
		}
		for _, r := range roots {
			if f := b.lookupPath(cleanJoin(r, spec)); f >= 0 {
				return f
			}
		}
		if fs := bySuffix[strings.TrimPrefix(path.Clean(spec), "./")]; len(fs) == 1 {
			return fs[0]
		}
		return -1
	}
	fn := func(a *acc, i int) {
		l := b.links[i]
		s := newScope()
		var direct []int
		for _, im := range l.Imports {
			if im.Kind == "system" {
				if f := include(i, im.Path); f < 0 || !strings.Contains(im.Path, "/") {
					continue
				}
			}
			if f := include(i, im.Path); f >= 0 {
				direct = append(direct, f)
			}
		}
		for _, h := range direct {
			s.glob(append([]int{h}, impl[h]...)...)
		}
		// Headers included by the included headers, one level down.
		for _, h := range direct {
			if hl := b.links[h]; hl != nil {
				for _, im := range hl.Imports {
					if f := include(h, im.Path); f >= 0 {
						s.glob(f)
					}
				}
			}
		}
		// A source sees its own header's implementation peers.
		if !isHeader(b.files[i].Path) {
			for _, j := range stems[strings.TrimSuffix(b.files[i].Path, path.Ext(b.files[i].Path))] {
				if j != i {
					s.glob(j)
				}
			}
		}
		a.resolveScoped(i, l, s)
		// A source implementing what an included header declares depends
		// on that header (log.c defines log_line declared in log.h).
		if !isHeader(b.files[i].Path) {
			for _, h := range direct {
				n := 0
				for k, d := range l.Defs {
					if d.Parent == "" && (k == 0 || l.Defs[k-1].Name != d.Name) && b.definesTop(h, d.Name) {
						n++
					}
				}
				if n > 0 {
					a.edge(i, h, n, 1)
				}
			}
		}
	}
	for _, i := range files {
		b.register(i, fn)
	}
}
