package graph

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
)

// fx is one file of a hand-written fixture. defs are "Name" or
// "Name/Parent" (a member), with "#kind" after either to set the kind;
// refs are "Name", "qual:Name" or "~qual:Name"
// (a member reference).
type fx struct {
	path, lang, pkg string
	defs            []string
	imps            []world.Import
	refs            []string
	content         string // for config files
}

func fixture(files []fx) Input {
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	in := Input{Tree: "t"}
	content := map[string]string{}
	for _, f := range files {
		in.Files = append(in.Files, world.FileEntry{Path: f.path, Lang: f.lang})
		content[f.path] = f.content
		if f.lang == "" || f.content != "" {
			in.Links = append(in.Links, nil)
			continue
		}
		facts := &world.Facts{Lang: f.lang, Package: f.pkg, Imports: f.imps}
		for k, d := range f.defs {
			d, kindSet, _ := strings.Cut(d, "#")
			name, parent, _ := strings.Cut(d, "/")
			kind := world.KindFunction
			if parent != "" {
				kind = world.KindMethod
			}
			if kindSet != "" {
				kind = kindSet
			}
			facts.Defs = append(facts.Defs, world.Def{Name: name, Kind: kind, Parent: parent, Exported: name[:1] == strings.ToUpper(name[:1]), Start: k + 1, Signature: "func " + name + "()"})
		}
		for _, r := range f.refs {
			ref := world.Ref{Kind: world.RefCall}
			if strings.HasPrefix(r, "~") {
				ref.Kind = world.RefMember
				r = r[1:]
			}
			if q, n, ok := strings.Cut(r, ":"); ok {
				ref.Qual, ref.Name = q, n
			} else {
				ref.Name = r
			}
			facts.Refs = append(facts.Refs, ref)
		}
		in.Links = append(in.Links, facts.Link())
	}
	in.Read = func(p string) ([]byte, error) {
		if c, ok := content[p]; ok && c != "" {
			return []byte(c), nil
		}
		return nil, fmt.Errorf("%s: not found", p)
	}
	return in
}

func edgeList(g *world.Graph) []string {
	return edgesOf(g, g.Edges)
}

// edgesOf lists es as "from -> to" lines.
func edgesOf(g *world.Graph, es []world.Edge) []string {
	var out []string
	for _, e := range es {
		out = append(out, g.Files[e.From].Path+" -> "+g.Files[e.To].Path)
	}
	return out
}

func TestResolvers(t *testing.T) {
	imp := func(p string, names ...string) world.Import { return world.Import{Path: p, Names: names} }
	tests := []struct {
		name  string
		files []fx
		want  []string
	}{
		{"go", []fx{
			{path: "go.mod", content: "module example.com/m\n\ngo 1.22\n"},
			{path: "a/a.go", lang: "go", pkg: "a", defs: []string{"Server", "Serve/Server", "Helper"}},
			{path: "a/b.go", lang: "go", pkg: "a", refs: []string{"Helper", "len"}},
			{path: "a/a_test.go", lang: "go", pkg: "a", defs: []string{"testHelper"}, refs: []string{"Helper"}},
			{path: "a/export_test.go", lang: "go", pkg: "a", defs: []string{"ExportedForTest"}},
			{path: "a/x_test.go", lang: "go", pkg: "a_test", imps: []world.Import{imp("example.com/m/a")}, refs: []string{"a:Server", "a:ExportedForTest"}},
			{path: "c/c.go", lang: "go", pkg: "c", imps: []world.Import{imp("example.com/m/a"), imp("fmt")}, refs: []string{"a:Server", "~srv:Serve", "fmt:Println"}},
			{path: "c/d.go", lang: "go", pkg: "c", imps: []world.Import{imp("example.com/m/a")}, refs: []string{"~q:Serve", "a:ExportedForTest"}},
			{path: "tools/gen.go", lang: "go", pkg: "main", imps: []world.Import{{Path: "example.com/m/a", Alias: "srv"}}, refs: []string{"srv:Helper"}},
		}, []string{
			"a/a_test.go -> a/a.go", "a/b.go -> a/a.go", "a/x_test.go -> a/a.go", "a/x_test.go -> a/export_test.go",
			"c/c.go -> a/a.go", "tools/gen.go -> a/a.go",
		}},
		{"python", []fx{
			{path: "pkg/__init__.py", lang: "python", imps: []world.Import{imp(".models", "User")}},
			{path: "pkg/models.py", lang: "python", defs: []string{"User", "save/User"}},
			{path: "pkg/helpers.py", lang: "python", defs: []string{"slugify"}},
			{path: "pkg/views.py", lang: "python", defs: []string{"render"}, imps: []world.Import{imp(".", "User"), {Path: "pkg.helpers", Alias: "h"}}, refs: []string{"User", "h:slugify"}},
			{path: "pkg/sub/deep.py", lang: "python", imps: []world.Import{imp("..helpers", "slugify")}, refs: []string{"slugify"}},
			{path: "app.py", lang: "python", imps: []world.Import{imp("pkg", "views"), imp("os.path")}, refs: []string{"views:render", "os.path:join"}},
		}, []string{"app.py -> pkg/views.py", "pkg/__init__.py -> pkg/models.py", "pkg/sub/deep.py -> pkg/helpers.py", "pkg/views.py -> pkg/helpers.py", "pkg/views.py -> pkg/models.py"}},
		{"typescript", []fx{
			{path: "tsconfig.json", content: "{\n // paths\n \"compilerOptions\": {\"baseUrl\": \".\", \"paths\": {\"@lib/*\": [\"src/lib/*\"],},},\n}\n"},
			{path: "src/lib/math/index.ts", lang: "typescript", imps: []world.Import{{Path: "./add", Alias: "*", Kind: "reexport"}}},
			{path: "src/lib/math/add.ts", lang: "typescript", defs: []string{"add"}},
			{path: "src/lib/str.ts", lang: "typescript", defs: []string{"pad"}},
			{path: "src/app.tsx", lang: "tsx", imps: []world.Import{imp("@lib/math", "add"), {Path: "./lib/str", Alias: "S"}, imp("react", "useState")}, refs: []string{"add", "S:pad", "useState"}},
		}, []string{"src/app.tsx -> src/lib/math/add.ts", "src/app.tsx -> src/lib/str.ts"}},
		{"rust", []fx{
			{path: "Cargo.toml", content: "[package]\nname = \"store\"\n"},
			{path: "src/lib.rs", lang: "rust", defs: []string{"Config"}, imps: []world.Import{{Path: "codec", Kind: "mod"}, {Path: "store", Kind: "mod"}}},
			{path: "src/codec/mod.rs", lang: "rust", defs: []string{"Codec"}, imps: []world.Import{{Path: "frame", Kind: "mod"}}},
			{path: "src/codec/frame.rs", lang: "rust", defs: []string{"Frame", "parse/Frame"}, imps: []world.Import{imp("super::Codec")}, refs: []string{"Codec"}},
			{path: "src/store.rs", lang: "rust", imps: []world.Import{imp("crate::codec::frame::Frame"), imp("crate::Config"), imp("std::collections::HashMap")}, refs: []string{"Frame:parse", "Config", "HashMap:new"}},
		}, []string{"src/codec/frame.rs -> src/codec/mod.rs", "src/codec/mod.rs -> src/codec/frame.rs", "src/lib.rs -> src/codec/mod.rs",
			"src/lib.rs -> src/store.rs", "src/store.rs -> src/codec/frame.rs", "src/store.rs -> src/lib.rs"}},
		{"java", []fx{
			{path: "src/com/a/model/User.java", lang: "java", pkg: "com.a.model", defs: []string{"User#class", "getName/User#method"}},
			{path: "src/com/a/model/Role.java", lang: "java", pkg: "com.a.model", defs: []string{"Role#class"}},
			{path: "src/com/a/svc/Helper.java", lang: "java", pkg: "com.a.svc", defs: []string{"Helper#class"}},
			{path: "src/com/a/svc/UserService.java", lang: "java", pkg: "com.a.svc", imps: []world.Import{imp("com.a.model.User"), imp("java.util.List")}, refs: []string{"User", "Helper", "List"}},
			{path: "src/com/b/Other.java", lang: "java", pkg: "com.b", imps: []world.Import{{Path: "com.a.model", Alias: "*"}}, refs: []string{"Role"}},
		}, []string{"src/com/a/svc/UserService.java -> src/com/a/model/User.java", "src/com/a/svc/UserService.java -> src/com/a/svc/Helper.java", "src/com/b/Other.java -> src/com/a/model/Role.java"}},
		{"c", []fx{
			{path: "include/buf.h", lang: "c", defs: []string{"buffer_t", "buf_new"}},
			{path: "src/buf.c", lang: "c", defs: []string{"buf_new"}, imps: []world.Import{{Path: "buf.h", Kind: "local"}, {Path: "stdlib.h", Kind: "system"}}, refs: []string{"buffer_t", "malloc"}},
			{path: "src/main.c", lang: "c", imps: []world.Import{{Path: "buf.h", Kind: "local"}}, refs: []string{"buf_new", "buffer_t"}},
		}, []string{"src/buf.c -> include/buf.h", "src/main.c -> include/buf.h", "src/main.c -> src/buf.c"}},
		{"php", []fx{
			{path: "composer.json", content: `{"autoload": {"psr-4": {"App\\": "src/"}}}`},
			{path: "src/Models/User.php", lang: "php", pkg: `App\Models`, defs: []string{"User"}},
			{path: "src/Http/Base.php", lang: "php", pkg: `App\Http`, defs: []string{"Base"}},
			{path: "src/Http/Controller.php", lang: "php", pkg: `App\Http`, imps: []world.Import{imp(`App\Models\User`)}, refs: []string{"User", "Base"}},
			{path: "legacy/lib.php", lang: "php", defs: []string{"legacy_fn"}},
			{path: "legacy/boot.php", lang: "php", imps: []world.Import{{Path: "lib.php", Kind: "require"}}, refs: []string{"legacy_fn"}},
		}, []string{"legacy/boot.php -> legacy/lib.php", "src/Http/Controller.php -> src/Http/Base.php", "src/Http/Controller.php -> src/Models/User.php"}},
		{"ruby", []fx{
			{path: "lib/app/user.rb", lang: "ruby", defs: []string{"User"}},
			{path: "lib/app.rb", lang: "ruby", imps: []world.Import{{Path: "app/user", Kind: "require_relative"}}, refs: []string{"User"}},
			{path: "test/user_test.rb", lang: "ruby", imps: []world.Import{{Path: "app/user"}}, refs: []string{"User"}},
		}, []string{"lib/app.rb -> lib/app/user.rb", "test/user_test.rb -> lib/app/user.rb"}},
		{"jvm", []fx{
			{path: "src/main/java/a/Store.java", lang: "java", pkg: "a", defs: []string{"Store#class"}},
			{path: "src/main/kotlin/b/Repo.kt", lang: "kotlin", pkg: "b", imps: []world.Import{imp("a.Store")}, defs: []string{"Repo", "load"}, refs: []string{"Store"}},
			{path: "src/main/kotlin/b/Use.kt", lang: "kotlin", pkg: "b", refs: []string{"Repo", "load"}},
			{path: "src/main/scala/c/Cache.scala", lang: "scala", pkg: "c", imps: []world.Import{imp("b", "Repo"), {Path: "a.Store", Alias: "S"}}, refs: []string{"Repo", "S"}},
		}, []string{"src/main/kotlin/b/Repo.kt -> src/main/java/a/Store.java", "src/main/kotlin/b/Use.kt -> src/main/kotlin/b/Repo.kt",
			"src/main/scala/c/Cache.scala -> src/main/java/a/Store.java", "src/main/scala/c/Cache.scala -> src/main/kotlin/b/Repo.kt"}},
		{"lua", []fx{
			{path: "lua/app/util.lua", lang: "lua", defs: []string{"log/M"}},
			{path: "app/models/init.lua", lang: "lua", defs: []string{"empty/Item"}},
			{path: "main.lua", lang: "lua", imps: []world.Import{{Path: "app.util", Alias: "util"}, {Path: "app.models", Alias: "Item"}}, refs: []string{"util:log", "Item:empty"}},
		}, []string{"main.lua -> app/models/init.lua", "main.lua -> lua/app/util.lua"}},
		{"zig", []fx{
			{path: "src/util.zig", lang: "zig", defs: []string{"nextCapacity"}},
			{path: "src/list.zig", lang: "zig", imps: []world.Import{{Path: "std", Alias: "std"}, {Path: "util.zig", Alias: "util"}}, refs: []string{"util:nextCapacity", "std:mem"}},
		}, []string{"src/list.zig -> src/util.zig"}},
		{"dart", []fx{
			{path: "pkgs/shop/lib/src/item.dart", lang: "dart", defs: []string{"Item", "Price"}},
			{path: "pkgs/shop/lib/cart.dart", lang: "dart", imps: []world.Import{{Path: "src/item.dart", Names: []string{"Item"}}}, defs: []string{"Cart"}, refs: []string{"Item"}},
			{path: "app/main.dart", lang: "dart", imps: []world.Import{{Path: "package:shop/cart.dart", Alias: "shop"}, {Path: "dart:async"}}, refs: []string{"shop:Cart"}},
		}, []string{"app/main.dart -> pkgs/shop/lib/cart.dart", "pkgs/shop/lib/cart.dart -> pkgs/shop/lib/src/item.dart"}},
		{"haskell", []fx{
			{path: "src/Data/Queue.hs", lang: "haskell", pkg: "Data.Queue", defs: []string{"push", "pop"}},
			{path: "src/Main.hs", lang: "haskell", pkg: "Main", imps: []world.Import{{Path: "Data.Queue", Alias: "Q", Kind: "qualified"}}, refs: []string{"Q:push"}},
			{path: "test/Spec.hs", lang: "haskell", pkg: "Main", imps: []world.Import{{Path: "Data.Queue", Names: []string{"pop"}}}, refs: []string{"pop"}},
		}, []string{"src/Main.hs -> src/Data/Queue.hs", "test/Spec.hs -> src/Data/Queue.hs"}},
		{"fallback", []fx{
			{path: "a.lua", lang: "lua", defs: []string{"frobnicate", "get"}},
			{path: "b.lua", lang: "lua", defs: []string{"frobnicate"}},
			{path: "c.lua", lang: "lua", refs: []string{"frobnicate", "get"}},
			{path: "d.kt", lang: "kotlin", refs: []string{"frobnicate"}},
		}, []string{"c.lua -> a.lua", "c.lua -> b.lua"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Build(fixture(tt.files))
			got := edgeList(g)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("edges:\n got  %q\n want %q", got, tt.want)
			}
			for _, e := range g.Edges {
				if e.From == e.To || e.Refs <= 0 || e.Weight <= 0 || e.Weight > float64(e.Refs)+1e-9 {
					t.Errorf("bad edge %+v", e)
				}
			}
		})
	}
}

func TestFallbackWeight(t *testing.T) {
	g := Build(fixture([]fx{
		{path: "a.lua", lang: "lua", defs: []string{"frobnicate"}},
		{path: "b.lua", lang: "lua", defs: []string{"frobnicate"}},
		{path: "c.lua", lang: "lua", refs: []string{"frobnicate"}},
	}))
	for _, e := range g.Edges {
		if e.Weight != 0.25 {
			t.Errorf("fallback edge %+v: want weight 0.25 (0.5 shared by 2 files)", e)
		}
	}
}

func TestJSONC(t *testing.T) {
	in := `{ "a": "x // not a comment", /* c */ "b": [1, 2,], }`
	got := string(jsonc([]byte(in)))
	want := `{ "a": "x // not a comment",  "b": [1, 2]}`
	if strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(want, " ", "") {
		t.Errorf("jsonc(%q) = %q, want %q", in, got, want)
	}
}

// TestPythonRootPackage: a tree whose root holds __init__.py (a package
// checked out on its own) must not hang finding source roots.
func TestPythonRootPackage(t *testing.T) {
	imp := func(p string, names ...string) world.Import { return world.Import{Path: p, Names: names} }
	g := Build(fixture([]fx{
		{path: "__init__.py", lang: "python"},
		{path: "a.py", lang: "python", defs: []string{"helper"}},
		{path: "b.py", lang: "python", imps: []world.Import{imp(".a", "helper")}, refs: []string{"helper"}},
	}))
	if got := edgeList(g); !reflect.DeepEqual(got, []string{"b.py -> a.py"}) {
		t.Errorf("edges %q", got)
	}
}
