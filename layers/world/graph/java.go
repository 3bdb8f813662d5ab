package graph

import (
	"sort"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// Java resolves like javac: a type name through the file's own types,
// its single-type imports, its package (tests see main code, main code
// never sees tests) and its on-demand imports; a member through the type
// the code gives its receiver (the extractor's receiver chains: this,
// super, :T, .field, method(), C>x), looked up in that type and up what
// it extends and implements, file after file. A name that resolves to
// nothing in the tree (the JDK, a dependency) links nowhere: Java names
// are never linked by name alone. Kotlin and Scala types of the tree are
// found by their package like Java's.

// javaType is a class, interface, enum or record: the file declaring it
// and its qualified name there (Outer.Inner).
type javaType struct {
	file int
	qual string
}

// javaIndex is the Java resolver's view of the JVM files of the tree.
type javaIndex struct {
	fqn    map[string][]javaType            // package.Outer.Inner → declarations
	pkgTop map[string]map[string][]javaType // package → top-level name → declarations
	files  map[int]*javaFile                // Java file → what it sees
}

// javaFile is what one Java file sees.
type javaFile struct {
	path    string
	pkg     string
	test    bool
	own     map[string][]javaType // simple name → types the file declares (nested ones too)
	classes []javaType            // every type the file declares
	single  map[string][]javaType // single-type imports by simple name (nil: a type outside the tree, which shadows the package's)
	demand  []string              // on-demand imports: packages and types whose members are visible
	statics map[string][]javaType // import static C.m: m → C
	sdemand []javaType            // import static C.*
}

// javaTypeKind reports whether a definition of kind k is a type members
// can be looked up in.
func javaTypeKind(k string) bool {
	switch k {
	case world.KindClass, world.KindInterface, world.KindEnum, "record", "object", world.KindTrait, world.KindStruct:
		return true
	}
	return false
}

// javaTest reports whether p is test code by its source root (Maven and
// Gradle's src/test, src/testFixtures, src/it; a top-level test folder).
func javaTest(p string) bool {
	for _, r := range []string{"src/test/", "src/testFixtures/", "src/it/", "src/integrationTest/"} {
		if strings.HasPrefix(p, r) || strings.Contains(p, "/"+r) {
			return true
		}
	}
	return strings.HasPrefix(p, "test/") || strings.HasPrefix(p, "tests/")
}

// resolveJava prepares the Java index and registers every Java file.
func (b *builder) resolveJava() {
	x := &javaIndex{fqn: map[string][]javaType{}, pkgTop: map[string]map[string][]javaType{}, files: map[int]*javaFile{}}
	var java []int
	for _, lg := range []string{world.LangJava, world.LangKotlin, world.LangScala} {
		b.filesOf(lg, func(i int, l *world.Link) {
			if lg == world.LangJava {
				java = append(java, i)
			}
			for _, d := range l.Defs {
				if !javaTypeKind(d.Kind) {
					continue
				}
				q := qualify(d.Parent, d.Name)
				t := javaType{i, q}
				x.fqn[qualify(l.Package, q)] = append(x.fqn[qualify(l.Package, q)], t)
				if d.Parent == "" {
					m := x.pkgTop[l.Package]
					if m == nil {
						m = map[string][]javaType{}
						x.pkgTop[l.Package] = m
					}
					m[d.Name] = append(m[d.Name], t)
				}
			}
		})
	}
	if len(java) == 0 {
		return
	}
	for k, ts := range x.fqn {
		sort.Slice(ts, func(a, c int) bool { return ts[a].file < ts[c].file })
		x.fqn[k] = ts
	}
	for _, i := range java {
		x.files[i] = b.javaFileOf(x, i)
	}
	fn := func(a *acc, i int) { a.resolveJavaFile(x, i) }
	for _, i := range java {
		b.register(i, fn)
	}
}

func qualify(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// javaFileOf reads what file i sees from its definitions and imports.
func (b *builder) javaFileOf(x *javaIndex, i int) *javaFile {
	l := b.links[i]
	jf := &javaFile{path: b.files[i].Path, pkg: l.Package, test: javaTest(b.files[i].Path), own: map[string][]javaType{}}
	for _, d := range l.Defs {
		if javaTypeKind(d.Kind) {
			t := javaType{i, qualify(d.Parent, d.Name)}
			jf.own[d.Name] = append(jf.own[d.Name], t)
			jf.classes = append(jf.classes, t)
		}
	}
	sort.Slice(jf.classes, func(a, c int) bool { return jf.classes[a].qual < jf.classes[c].qual })
	for _, im := range l.Imports {
		p := im.Path
		switch {
		case im.Kind == "static" && im.Alias == "*":
			jf.sdemand = append(jf.sdemand, x.fqn[p]...)
		case im.Kind == "static":
			if k := strings.LastIndex(p, "."); k > 0 {
				if ts := x.fqn[p[:k]]; len(ts) > 0 {
					if jf.statics == nil {
						jf.statics = map[string][]javaType{}
					}
					jf.statics[p[k+1:]] = append(jf.statics[p[k+1:]], ts...)
				}
			}
		case im.Alias == "*":
			jf.demand = append(jf.demand, p)
		default:
			if jf.single == nil {
				jf.single = map[string][]javaType{}
			}
			n := p[strings.LastIndexByte(p, '.')+1:]
			jf.single[n] = append(jf.single[n], x.fqn[p]...)
		}
	}
	return jf
}

// visible drops from ts the test types a main file cannot see and, of a
// type declared in several files (the same class in two modules, which
// a build compiles apart), keeps the declarations nearest the file (the
// longest common folder), as its module's own compilation sees them.
func (jf *javaFile) visible(b *builder, ts []javaType) []javaType {
	out := ts[:0:0]
	best := -1
	for _, t := range ts {
		p := b.files[t.file].Path
		if !jf.test && javaTest(p) {
			continue
		}
		n := sharedPrefix(jf.path, p)
		switch {
		case n > best:
			out, best = append(out[:0], t), n
		case n == best:
			out = append(out, t)
		}
	}
	return out
}

// sharedPrefix is the length of the folders paths a and b have in common.
func sharedPrefix(a, b string) int {
	n := 0
	for i := 0; i < len(a) && i < len(b) && a[i] == b[i]; i++ {
		if a[i] == '/' {
			n = i + 1
		}
	}
	return n
}

// typeNamed resolves a type name as written in jf (Foo, Outer.Inner,
// a.b.Foo) as javac does.
func (b *builder) javaTypeNamed(x *javaIndex, jf *javaFile, name string) []javaType {
	if name == "" {
		return nil
	}
	if k := strings.IndexByte(name, '.'); k > 0 {
		if ts := jf.visible(b, x.fqn[name]); len(ts) > 0 {
			return ts // fully qualified
		}
		var out []javaType
		for _, t := range b.javaTypeNamed(x, jf, name[:k]) {
			out = append(out, x.fqn[qualify(b.links[t.file].Package, t.qual+"."+name[k+1:])]...)
		}
		return jf.visible(b, out)
	}
	if ts := jf.own[name]; len(ts) > 0 {
		return ts
	}

	if ts, ok := jf.single[name]; ok {
		return jf.visible(b, ts)
	}
	if ts := jf.visible(b, x.pkgTop[jf.pkg][name]); len(ts) > 0 {
		return ts
	}
	var out []javaType
	for _, d := range jf.demand {
		out = append(out, x.fqn[d+"."+name]...)
	}
	return jf.visible(b, out)
}

// javaStatic resolves a static qualifier (Type, a.b.Type, Type.FIELD,
// Outer.Inner.FIELD) to the types it names or holds.
func (b *builder) javaStatic(x *javaIndex, jf *javaFile, q string) []javaType {
	if ts := b.javaTypeNamed(x, jf, q); len(ts) > 0 {
		return ts
	}
	k := strings.LastIndexByte(q, '.')
	if k <= 0 {
		return nil
	}
	var out []javaType
	for _, m := range b.javaLookup(x, b.javaStatic(x, jf, q[:k]), q[k+1:]) {
		out = append(out, b.javaTypeOf(x, m)...)
	}
	return out
}

// javaDef returns the definition of type t.
func (b *builder) javaDef(t javaType) (world.LinkDef, bool) {
	parent, name := "", t.qual
	if k := strings.LastIndexByte(t.qual, '.'); k >= 0 {
		parent, name = t.qual[:k], t.qual[k+1:]
	}
	for _, d := range b.links[t.file].DefsNamed(name) {
		if d.Parent == parent && javaTypeKind(d.Kind) {
			return d, true
		}
	}
	return world.LinkDef{}, false
}

// javaBases returns the types t extends and implements.
func (b *builder) javaBases(x *javaIndex, t javaType) []javaType {
	d, ok := b.javaDef(t)
	if !ok || d.Returns == "" {
		return nil
	}
	jf := x.files[t.file]
	var out []javaType
	for _, n := range strings.Split(d.Returns, ",") {
		if jf != nil {
			out = append(out, b.javaTypeNamed(x, jf, n)...)
		} else {
			out = append(out, x.fqn[qualify(b.links[t.file].Package, n)]...) // a Kotlin or Scala type: its package
		}
	}
	return out
}

// javaMember is a member found in a type: the file declaring it and its
// definition.
type javaMember struct {
	file int
	def  world.LinkDef
}

// javaMaxDepth bounds the walk up a type's bases.
const javaMaxDepth = 12

// javaLookup finds member name in the types ts or, for each type that
// does not declare it, up its bases.
func (b *builder) javaLookup(x *javaIndex, ts []javaType, name string) []javaMember {
	var out []javaMember
	seen := map[javaType]bool{}
	var walk func(t javaType, depth int)
	walk = func(t javaType, depth int) {
		if seen[t] || depth > javaMaxDepth {
			return
		}
		seen[t] = true
		found := false
		for _, d := range b.links[t.file].DefsNamed(name) {
			if d.Parent == t.qual {
				out = append(out, javaMember{t.file, d})
				found = true
			}
		}
		if found {
			return
		}
		for _, bt := range b.javaBases(x, t) {
			walk(bt, depth+1)
		}
	}
	for _, t := range ts {
		walk(t, 0)
	}
	return out
}

// javaTypeOf is the type a member holds (a field's, a constant's) or
// returns (a method's), resolved where the member is declared.
func (b *builder) javaTypeOf(x *javaIndex, m javaMember) []javaType {
	if m.def.Returns == "" {
		return nil
	}
	if jf := x.files[m.file]; jf != nil {
		return b.javaTypeNamed(x, jf, m.def.Returns)
	}
	return x.fqn[qualify(b.links[m.file].Package, m.def.Returns)]
}

// javaSupers returns the bases of every type file i declares.
func (b *builder) javaSupers(x *javaIndex, jf *javaFile) []javaType {
	var out []javaType
	for _, t := range jf.classes {
		out = append(out, b.javaBases(x, t)...)
	}
	return out
}

// javaUnqualified finds a bare name used in file i: a member of its own
// types or inherited by them, then a static import.
func (b *builder) javaUnqualified(x *javaIndex, jf *javaFile, name string) []javaMember {
	if ms := b.javaLookup(x, jf.classes, name); len(ms) > 0 {
		return ms
	}
	if ts := jf.statics[name]; len(ts) > 0 {
		return b.javaLookup(x, ts, name)
	}
	return b.javaLookup(x, jf.sdemand, name)
}

// javaChain evaluates a receiver chain (see the Java extractor's qual)
// to the types it may hold.
func (b *builder) javaChain(x *javaIndex, jf *javaFile, q string) []javaType {
	parts := strings.Split(q, ">")
	var ts []javaType
	head := parts[0]
	switch {
	case head == "this":
		ts = jf.classes
	case head == "super":
		ts = b.javaSupers(x, jf)
	case strings.HasPrefix(head, ":"):
		ts = b.javaStatic(x, jf, head[1:])
	case strings.HasPrefix(head, "."), strings.HasSuffix(head, "()"):
		n := strings.TrimSuffix(strings.TrimPrefix(head, "."), "()")
		for _, m := range b.javaUnqualified(x, jf, n) {
			ts = append(ts, b.javaTypeOf(x, m)...)
		}
	default:
		return nil
	}
	for _, sel := range parts[1:] {
		if len(ts) == 0 {
			return nil
		}
		var next []javaType
		for _, m := range b.javaLookup(x, ts, strings.TrimSuffix(sel, "()")) {
			next = append(next, b.javaTypeOf(x, m)...)
		}
		ts = next
	}
	return ts
}

// resolveJavaFile links the references and imports of Java file i.
func (a *acc) resolveJavaFile(x *javaIndex, i int) {
	b := a.builder
	l := b.links[i]
	jf := x.files[i]
	typeEdge := func(ts []javaType, n int) bool {
		for _, t := range ts {
			a.edge(i, t.file, n, 1)
		}
		return len(ts) > 0
	}
	memberEdge := func(ms []javaMember, n int) bool {
		for _, m := range ms {
			a.edge(i, m.file, n, 1)
		}
		return len(ms) > 0
	}
	for _, im := range l.Imports {
		p := im.Path
		if im.Kind == "static" {
			k := strings.LastIndex(p, ".")
			if k < 0 {
				continue
			}
			cls := jf.visible(b, x.fqn[p[:k]])
			typeEdge(cls, 1)
			if im.Alias != "*" {
				memberEdge(b.javaLookup(x, cls, p[k+1:]), 1)
			}
			continue
		}
		if im.Alias == "*" {
			typeEdge(jf.visible(b, x.fqn[p]), 1) // import a.b.C.*: C
			continue
		}
		typeEdge(jf.visible(b, x.fqn[p]), 1)
	}
	for _, r := range l.Refs {
		q := r.Qual
		switch {
		case r.Kind == world.RefType:
			typeEdge(b.javaTypeNamed(x, jf, qualify(q, r.Name)), r.Count)
		case r.Kind == world.RefMember:
			if q != "" {
				memberEdge(b.javaLookup(x, b.javaChain(x, jf, q), r.Name), r.Count)
			}
		case q != "":
			// Type.member or a.b.Type.member; a.b.Type itself.
			if typeEdge(b.javaTypeNamed(x, jf, qualify(q, r.Name)), r.Count) {
				continue
			}
			memberEdge(b.javaLookup(x, b.javaStatic(x, jf, q), r.Name), r.Count)
		default:
			if b.defines(i, r.Name) {
				continue // the file's own
			}
			if memberEdge(b.javaUnqualified(x, jf, r.Name), r.Count) {
				continue
			}
			typeEdge(b.javaTypeNamed(x, jf, r.Name), r.Count)
		}
	}
}
