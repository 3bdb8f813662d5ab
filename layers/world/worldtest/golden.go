// Package worldtest holds what the extractors' tests share: golden
// archives of facts and their runner, and the reading of a real tree's
// files named by an environment variable with a digest of their facts
// (DirFiles, Digest). A golden is testdata/<lang>/*.txtar whose first file
// is the input and whose sections after it (@defs, @refs …) are the facts
// expected of it. Only tests import it.
package worldtest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/git-speed/git-speed/layers/world"
)

// Golden checks the goldens of some languages.
type Golden struct {
	Langs []string
	// Sections are compared, and written by Update, in this order.
	Sections []string
	// Extract returns the facts of a golden's input (its file name and
	// content); it fails or skips t itself.
	Extract func(t *testing.T, lang, name string, src []byte) *world.Facts
	Render  func(*world.Facts) map[string]string
	// Update rewrites the sections with what Render gives.
	Update bool
	// Accept says how to accept new output ("go test -run X -update").
	Accept string
}

// Run checks every golden of g.Langs in a subtest of its own; a language
// without goldens is an error.
func (g Golden) Run(t *testing.T) {
	for _, lang := range g.Langs {
		files, err := filepath.Glob(filepath.Join("testdata", lang, "*.txtar"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Errorf("%s: no goldens in testdata/%s", lang, lang)
		}
		for _, path := range files {
			t.Run(lang+"/"+strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) { g.check(t, lang, path) })
		}
	}
}

func (g Golden) check(t *testing.T, lang, path string) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ar.Files) == 0 || strings.HasPrefix(ar.Files[0].Name, "@") {
		t.Fatalf("%s: first file must be the input", path)
	}
	got := g.Render(g.Extract(t, lang, ar.Files[0].Name, ar.Files[0].Data))
	if g.Update {
		out := &txtar.Archive{Comment: ar.Comment, Files: []txtar.File{ar.Files[0]}}
		for _, sec := range g.Sections {
			out.Files = append(out.Files, txtar.File{Name: sec, Data: []byte(got[sec])})
		}
		if err := os.WriteFile(path, txtar.Format(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := map[string]string{}
	for _, f := range ar.Files[1:] {
		want[f.Name] = string(f.Data)
	}
	for _, sec := range g.Sections {
		if got[sec] != want[sec] {
			t.Errorf("%s: section %s differs (%s)\n--- got\n%s--- want\n%s", path, sec, g.Accept, got[sec], want[sec])
		}
	}
}

// FactSections are the sections RenderFacts writes.
var FactSections = []string{"@meta", "@defs", "@imports", "@refs", "@skeleton"}

// RenderFacts writes facts as golden sections, one fact per line, sorted.
func RenderFacts(facts *world.Facts) map[string]string {
	lines := func(ss []string) string {
		sort.Strings(ss)
		if len(ss) == 0 {
			return ""
		}
		return strings.Join(ss, "\n") + "\n"
	}
	var meta []string
	if facts.Package != "" {
		meta = append(meta, "package "+facts.Package)
	}
	if facts.Partial {
		meta = append(meta, "partial")
	}
	if facts.Warning != "" {
		meta = append(meta, "warning "+facts.Warning)
	}
	meta = append(meta, fmt.Sprintf("lines %d", facts.Lines))
	var defs []string
	for _, d := range facts.Defs {
		s := fmt.Sprintf("%s %s %d-%d", d.Qualified, d.Kind, d.Start, d.End)
		if d.Name != d.Qualified[strings.LastIndex(d.Qualified, ".")+1:] {
			s += " name=" + d.Name
		}
		if d.Parent != "" {
			s += " parent=" + d.Parent
		}
		if d.Exported {
			s += " exported"
		}
		if d.Signature != "" {
			s += fmt.Sprintf(" sig=%q", d.Signature)
		}
		if d.Doc != "" {
			s += fmt.Sprintf(" doc=%q", d.Doc)
		}
		defs = append(defs, s)
	}
	var imps []string
	for _, i := range facts.Imports {
		s := fmt.Sprintf("%04d %s", i.Line, i.Path)
		if i.Kind != "" {
			s += " kind=" + i.Kind
		}
		if i.Alias != "" {
			s += " alias=" + i.Alias
		}
		if len(i.Names) > 0 {
			s += " names=" + strings.Join(i.Names, ",")
		}
		imps = append(imps, s)
	}
	var refs []string
	for _, r := range facts.Refs {
		s := fmt.Sprintf("%04d %s ", r.Line, r.Kind)
		if r.Qual != "" {
			s += r.Qual + " "
		}
		s += r.Name
		if r.In > 0 {
			s += " in=" + facts.Defs[r.In-1].Qualified
		}
		refs = append(refs, s)
	}
	return map[string]string{"@meta": lines(meta), "@defs": lines(defs), "@imports": lines(imps),
		"@refs": lines(refs), "@skeleton": facts.Skeleton}
}
