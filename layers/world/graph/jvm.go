package graph

import (
	"path"
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// resolveJVM resolves Java, Kotlin and Scala together (they share
// packages), and C#: a file sees its own package or namespace (and, in C#,
// the enclosing namespaces), single-type imports, wildcard imports, Scala's
// import selectors (a.b.{C, D}) and static imports; C# using directives
// open a namespace.
func (b *builder) resolveJVM() {
	for _, langs := range [][]string{{world.LangJava, world.LangKotlin, world.LangScala}, {world.LangCSharp}} {
		lang := langs[0]
		pkgs := map[string][]int{} // package or namespace → files
		var files []int
		for _, lg := range langs {
			b.filesOf(lg, func(i int, l *world.Link) {
				files = append(files, i)
				pkgs[l.Package] = append(pkgs[l.Package], i)
			})
		}
		for p := range pkgs {
			sort.Ints(pkgs[p])
		}
		sort.Ints(files)
		// typeFiles finds the files of package pkg defining type name (or
		// named after it).
		typeFiles := func(pkg, name string) []int {
			var out []int
			for _, f := range pkgs[pkg] {
				stem := strings.TrimSuffix(path.Base(b.files[f].Path), path.Ext(b.files[f].Path))
				if stem == name || b.definesTop(f, name) {
					out = append(out, f)
				}
			}
			return out
		}
		fn := func(a *acc, i int) {
			l := b.links[i]
			s := newScope()
			s.pkgQual = func(q, name string) ([]int, bool) {
				if _, ok := pkgs[q]; !ok {
					return nil, false
				}
				return typeFiles(q, name), true
			}
			s.glob(pkgs[l.Package]...)
			if lang == world.LangCSharp {
				for p := l.Package; strings.Contains(p, "."); {
					p = p[:strings.LastIndex(p, ".")]
					s.glob(pkgs[p]...)
				}
			}
			for _, im := range l.Imports {
				p := im.Path
				switch {
				case len(im.Names) > 0: // Scala: import a.b.{C, D}
					for _, n := range im.Names {
						if fs := typeFiles(p, n); len(fs) > 0 {
							s.name(n, fs...)
							s.bind(n, fs...)
						}
					}
					if im.Alias == "*" {
						s.glob(pkgs[p]...)
					}
				case im.Alias == "*":
					s.glob(pkgs[p]...)
				case lang == world.LangCSharp && im.Kind != "static" && im.Alias == "" && len(pkgs[p]) > 0:
					s.glob(pkgs[p]...) // using Namespace;
				default:
					k := strings.LastIndex(p, ".")
					if k < 0 {
						continue
					}
					pkg, name := p[:k], p[k+1:]
					if im.Kind == "static" {
						// import static a.b.C.m or a.b.C.*: the class's files
						if k2 := strings.LastIndex(pkg, "."); k2 >= 0 {
							if fs := typeFiles(pkg[:k2], pkg[k2+1:]); len(fs) > 0 {
								if name == "*" {
									s.glob(fs...)
								} else {
									s.name(name, fs...)
								}
							}
						}
						if fs := typeFiles(pkg, name); len(fs) > 0 { // using static A.B.C
							s.glob(fs...)
						}
						continue
					}
					fs := typeFiles(pkg, name)
					if len(fs) == 0 {
						continue
					}
					local := name
					if im.Alias != "" {
						local = im.Alias
					}
					s.name(local, fs...)
					s.bind(local, fs...)
				}
			}
			a.resolveScoped(i, l, s)
		}
		for _, i := range files {
			if b.links[i].Lang != world.LangJava { // Java has its own (java.go)
				b.register(i, fn)
			}
		}
	}
}
