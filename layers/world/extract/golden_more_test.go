package extract

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/git-speed/git-speed/layers/world"
)

// updateMore rewrites the expected sections of testdata/<lang>/*.txtar for
// the languages of this file's extractors.
var updateMore = flag.Bool("update-more", false, "rewrite golden sections of testdata/{rust,java,c,cpp,csharp,php,ruby}")

// moreLangs are the languages whose goldens this runner checks.
var moreLangs = []string{world.LangRust, world.LangJava, world.LangC, world.LangCPP, world.LangCSharp,
	world.LangPHP, world.LangRuby}

// extractMore runs Extract.
func extractMore(lang string, src []byte) (*world.Facts, error) {
	return Extract(lang, src, Options{})
}

// TestGoldenMore checks every txtar golden: the first file is the input, the
// sections @meta, @defs, @imports, @refs and @skeleton are the expected facts.
func TestGoldenMore(t *testing.T) {
	for _, lang := range moreLangs {
		files, _ := filepath.Glob(filepath.Join("testdata", lang, "*.txtar"))
		if len(files) == 0 {
			t.Errorf("%s: no goldens in testdata/%s", lang, lang)
		}
		for _, path := range files {
			t.Run(lang+"/"+filepath.Base(path), func(t *testing.T) {
				ar, err := txtar.ParseFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if len(ar.Files) == 0 || strings.HasPrefix(ar.Files[0].Name, "@") {
					t.Fatalf("%s: first file must be the input", path)
				}
				facts, err := extractMore(lang, ar.Files[0].Data)
				if err != nil {
					t.Fatal(err)
				}
				checkFacts(t, lang, ar.Files[0].Data, facts)
				got := renderFacts(facts)
				if *updateMore {
					out := &txtar.Archive{Comment: ar.Comment, Files: []txtar.File{ar.Files[0]}}
					for _, sec := range []string{"@meta", "@defs", "@imports", "@refs", "@skeleton"} {
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
				for _, sec := range []string{"@meta", "@defs", "@imports", "@refs", "@skeleton"} {
					if got[sec] != want[sec] {
						t.Errorf("%s: section %s differs (run go test -run TestGoldenMore -update-more)\n--- got\n%s--- want\n%s", path, sec, got[sec], want[sec])
					}
				}
			})
		}
	}
}

// checkFacts checks invariants every extraction must keep.
func checkFacts(t testing.TB, lang string, src []byte, facts *world.Facts) {
	t.Helper()
	n := facts.Lines
	for _, d := range facts.Defs {
		if d.Start < 1 || d.End < d.Start || d.End > n || d.Name == "" {
			t.Fatalf("%s: bad def %+v (lines %d)", lang, d, n)
		}
	}
	for _, r := range facts.Refs {
		if r.Line < 1 || r.Line > n || r.In < 0 || r.In > len(facts.Defs) || r.Name == "" {
			t.Fatalf("%s: bad ref %+v (lines %d, defs %d)", lang, r, n, len(facts.Defs))
		}
	}
	for _, i := range facts.Imports {
		if i.Line < 1 || i.Line > n {
			t.Fatalf("%s: bad import %+v (lines %d)", lang, i, n)
		}
	}
}

// renderFacts writes facts as golden sections, one fact per line, sorted.
func renderFacts(facts *world.Facts) map[string]string {
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
		if d.Name != lastSegment(d.Qualified, ".") {
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
