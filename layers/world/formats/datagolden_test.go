package formats_test

import (
	"archive/zip"
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/extract"
)

// The -update flag may be registered by another golden runner of this
// package's tests too; whichever registers it, both read it.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden sections of testdata/<lang>/*.txtar")
	}
}

// updatingGoldens reports whether -update was given.
func updatingGoldens() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// dataLangs are the languages of the data, document, CI, lockfile, .env,
// log and component extractors, each with goldens in testdata/<lang>.
var dataLangs = []string{"json", "yaml", "toml", "xml", "github-actions", "gitlab-ci", "markdown", "html", "pdf", "docx",
	"jupyter", "env", "log", "lockfile", "vue", "svelte", "astro"}

// TestGoldenData extracts the first file of every testdata/<lang>/*.txtar
// through extract.Extract (the real dispatch, with embedded code read by
// the tree-sitter extractors), the file's name in the archive as its path,
// and compares the facts with the archive's @symbols and @skeleton
// sections. An input named *.docx or *.pdf is built by the test: a DOCX
// zips the archive's other files, a PDF is written from its text (see
// buildPDF).
func TestGoldenData(t *testing.T) {
	n := 0
	for _, lang := range dataLangs {
		archives, err := filepath.Glob(filepath.Join("testdata", lang, "*.txtar"))
		if err != nil {
			t.Fatal(err)
		}
		if len(archives) == 0 {
			t.Errorf("no goldens for %s", lang)
		}
		for _, path := range archives {
			n++
			t.Run(lang+"/"+strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
				a, err := txtar.ParseFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if len(a.Files) == 0 || strings.HasPrefix(a.Files[0].Name, "@") {
					t.Fatalf("%s: first file must be the input", path)
				}
				name := a.Files[0].Name
				src := goldenInput(t, a)
				if got := world.DetectLang(name, src); got != lang {
					t.Fatalf("%s: DetectLang(%q) = %q, want %q", path, name, got, lang)
				}
				facts, err := extract.Extract(lang, src, extract.Options{Path: name})
				if err != nil {
					t.Fatal(err)
				}
				checkDataInvariants(t, facts)
				got := map[string]string{"@symbols": renderSymbols(facts), "@skeleton": facts.Skeleton}
				if updatingGoldens() {
					keep := []txtar.File{}
					for _, f := range a.Files {
						if f.Name != "@symbols" && f.Name != "@skeleton" {
							keep = append(keep, f)
						}
					}
					keep = append(keep, txtar.File{Name: "@symbols", Data: []byte(got["@symbols"])},
						txtar.File{Name: "@skeleton", Data: []byte(got["@skeleton"])})
					a.Files = keep
					if err := os.WriteFile(path, txtar.Format(a), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				for _, f := range a.Files {
					if w, ok := got[f.Name]; ok && w != string(f.Data) {
						t.Errorf("%s: section %s differs (go test -run TestGoldenData -update to accept)\n--- got\n%s--- want\n%s", path, f.Name, w, f.Data)
					}
				}
			})
		}
	}
	if n == 0 {
		t.Fatal("no golden archives")
	}
}

// goldenInput is the bytes of an archive's input file.
func goldenInput(t *testing.T, a *txtar.Archive) []byte {
	in := a.Files[0]
	switch {
	case strings.HasSuffix(in.Name, ".docx"):
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, f := range a.Files[1:] {
			if strings.HasPrefix(f.Name, "@") {
				continue
			}
			w, err := zw.Create(f.Name)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(f.Data)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	case strings.HasSuffix(in.Name, ".pdf"):
		return buildPDF(string(in.Data))
	}
	return in.Data
}

// renderSymbols writes facts one per line: the warning, definitions,
// imports and references, each in source order.
func renderSymbols(f *world.Facts) string {
	var b strings.Builder
	if f.Warning != "" {
		fmt.Fprintf(&b, "warning: %s\n", f.Warning)
	}
	for _, d := range f.Defs {
		fmt.Fprintf(&b, "def %d-%d %s %s", d.Start, d.End, d.Kind, d.Qualified)
		if d.Parent != "" {
			fmt.Fprintf(&b, " parent=%s", d.Parent)
		}
		fmt.Fprintf(&b, " | %s\n", d.Signature)
	}
	for _, i := range f.Imports {
		fmt.Fprintf(&b, "import %d %s", i.Line, i.Path)
		if len(i.Names) > 0 {
			fmt.Fprintf(&b, " names=%s", strings.Join(i.Names, ","))
		}
		if i.Kind != "" {
			fmt.Fprintf(&b, " kind=%s", i.Kind)
		}
		b.WriteByte('\n')
	}
	for _, r := range f.Refs {
		in := "-"
		if r.In > 0 && r.In <= len(f.Defs) {
			in = f.Defs[r.In-1].Qualified
		}
		fmt.Fprintf(&b, "ref %d %s %s in %s\n", r.Line, r.Kind, r.Name, in)
	}
	return b.String()
}

// checkDataInvariants holds for every file: lines in range, starts before
// ends, references pointing at real definitions.
func checkDataInvariants(t *testing.T, f *world.Facts) {
	t.Helper()
	for _, d := range f.Defs {
		if d.Start < 1 || d.End < d.Start || d.End > max(f.Lines, 1) {
			t.Errorf("def %s: lines %d-%d outside 1-%d", d.Qualified, d.Start, d.End, f.Lines)
		}
		if d.Name == "" {
			t.Errorf("def at %d has no name", d.Start)
		}
	}
	for _, i := range f.Imports {
		if i.Line < 1 || i.Line > max(f.Lines, 1) || i.Path == "" {
			t.Errorf("import %q at line %d outside 1-%d", i.Path, i.Line, f.Lines)
		}
	}
	for _, r := range f.Refs {
		if r.In < 0 || r.In > len(f.Defs) || r.Line < 1 || r.Line > max(f.Lines, 1) {
			t.Errorf("ref %s at %d: bad enclosing index %d", r.Name, r.Line, r.In)
		}
	}
}
