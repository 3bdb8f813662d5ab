package world

import (
	"reflect"
	"testing"
)

func TestDetectLang(t *testing.T) {
	for _, tc := range []struct {
		path, head, want string
	}{
		{"a/b.go", "", LangGo},
		{"x.PY", "", LangPython},
		{"web/App.tsx", "", LangTSX},
		{"lib/m.mjs", "", LangJavaScript},
		{"Makefile", "", "makefile"},
		{"Dockerfile.prod", "", "dockerfile"},
		{".env.local", "", "env"},
		{"deploy/prod.env", "", "env"},
		{".github/workflows/ci.yml", "", "github-actions"},
		{"svc/.gitlab-ci.yml", "", "gitlab-ci"},
		{"config/app.yml", "", "yaml"},
		{"web/yarn.lock", "", "lockfile"},
		{"Cargo.lock", "", "lockfile"},
		{"package-lock.json", "", "lockfile"},
		{"nb/Analysis.ipynb", "", "jupyter"},
		{"logs/app.log", "", "log"},
		{"docs/spec.pdf", "", "pdf"},
		{"docs/Spec.docx", "", "docx"},
		{"src/pages/index.astro", "", "astro"},
		{"bin/tool", "#!/usr/bin/env python3\nprint(1)\n", LangPython},
		{"bin/run", "#!/bin/bash -e\n", LangBash},
		{"bin/x", "#!/usr/bin/env -S node --flag\n", LangJavaScript},
		{"bin/y", "#!/usr/bin/python3.12\n", LangPython},
		{"README", "plain text\n", ""},
		{"data.bin", "", ""},
		{"scripts/scr_a/scr_a.gml", "", LangGML},
		{"api/schema.gql", "", LangGraphQL},
		{"infra/prod.tfvars", "", LangHCL},
		{"app/build.gradle.kts", "", LangGradle},
		{"CMakeLists.txt", "", LangCMake},
		{"web.Dockerfile", "", LangDockerfile},
		{"boot/start.S", "", LangAssembly},
		{"player.gd", "", LangGDScript},
		{"src/analysis.m", "% analysis\nx = 1;\n", LangMATLAB},
		{"src/View.m", "// view\n#import <UIKit/UIKit.h>\n@implementation View\n", LangObjC},
	} {
		if got := DetectLang(tc.path, []byte(tc.head)); got != tc.want {
			t.Errorf("DetectLang(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// TestDetectLangMWithoutHead: a .m file is MATLAB or Objective-C, which
// only its content tells; without it the language is left open.
func TestDetectLangMWithoutHead(t *testing.T) {
	if got := DetectLang("a/b.m", nil); got != "" {
		t.Errorf("DetectLang(b.m, nil) = %q, want \"\"", got)
	}
}

func TestLinkSummarises(t *testing.T) {
	f := &Facts{Lang: LangGo, Package: "p",
		Defs: []Def{{Name: "B", Kind: KindFunction, Exported: true}, {Name: "A", Kind: KindType}, {Name: "B", Kind: KindFunction, Exported: true}},
		Refs: []Ref{{Name: "X", Qual: "fmt", Line: 3}, {Name: "X", Qual: "fmt", Line: 9}, {Name: "Y", Line: 4, Kind: RefCall}},
	}
	got := f.Link()
	want := &Link{Lang: LangGo, Package: "p",
		Defs: []LinkDef{{Name: "A", Kind: KindType}, {Name: "B", Kind: KindFunction, Exported: true}},
		Refs: []LinkRef{{Name: "X", Qual: "fmt", Count: 2}, {Name: "Y", Kind: RefCall, Count: 1}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Link() = %+v, want %+v", got, want)
	}
	// A link is held for the whole build: its imports keep no room
	// appending left, and stay the facts' values.
	f.Imports = append(make([]Import, 0, 8), Import{Path: "fmt", Line: 2}, Import{Path: "os", Line: 3})
	if l := f.Link(); len(l.Imports) != 2 || cap(l.Imports) > 4 || !reflect.DeepEqual(l.Imports, f.Imports) {
		t.Errorf("Link().Imports = %+v (cap %d), want %+v at its length", l.Imports, cap(l.Imports), f.Imports)
	}
	// Names are found in the sorted lists, each run whole.
	f.Defs = append(f.Defs, Def{Name: "B", Kind: KindMethod, Parent: "T"}, Def{Name: "C", Kind: KindVar})
	l := f.Link()
	for name, want := range map[string]int{"A": 1, "B": 2, "C": 1, "": 0, "Aa": 0, "Z": 0} {
		ds := l.DefsNamed(name)
		if len(ds) != want {
			t.Errorf("DefsNamed(%q) = %+v, want %d", name, ds, want)
		}
		for _, d := range ds {
			if d.Name != name {
				t.Errorf("DefsNamed(%q) holds %+v", name, d)
			}
		}
	}
	if rs := l.RefsNamed("X"); len(rs) != 1 || rs[0].Count != 2 || len(l.RefsNamed("W")) != 0 || len(l.RefsNamed("Y")) != 1 {
		t.Errorf("RefsNamed: X %+v", rs)
	}
	if ds := append(l.DefsNamed("A"), LinkDef{Name: "x"}); l.Defs[1].Name != "B" || len(ds) != 2 {
		t.Error("appending to DefsNamed wrote into the link")
	}
	var none *Link
	if none.DefsNamed("A") != nil || none.RefsNamed("A") != nil {
		t.Error("a nil link names nothing")
	}
	g := &Graph{Files: []FileEntry{{Path: "a"}, {Path: "b/c"}, {Path: "d"}}}
	if g.Index("b/c") != 1 || g.Index("zz") != -1 {
		t.Error("Graph.Index")
	}
	e := FileEntry{Flags: []Flag{{Name: FlagGenerated}}}
	if !e.Has(FlagGenerated) || !e.Parsed() {
		t.Error("a generated file is flagged and still parseable")
	}
	e.Flags = append(e.Flags, Flag{Name: FlagBinary})
	if e.Parsed() {
		t.Error("a binary file is not parsed")
	}
}
