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

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/<lang>/*.txtar")

// TestGolden extracts the first file of every testdata/<lang>/*.txtar
// archive (the language is the folder's name) and compares the facts with
// the archive's @defs, @imports, @refs and @skeleton sections.
func TestGolden(t *testing.T) { runGolden(t, goldenLangs) }

// runGolden is TestGolden for the goldens of langs.
func runGolden(t *testing.T, langs []string) {
	var archives []string
	for _, lang := range langs {
		a, err := filepath.Glob(filepath.Join("testdata", lang, "*.txtar"))
		if err != nil {
			t.Fatal(err)
		}
		archives = append(archives, a...)
	}
	if len(archives) == 0 {
		t.Fatal("no golden archives")
	}
	for _, path := range archives {
		lang := filepath.Base(filepath.Dir(path))
		t.Run(lang+"/"+strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			if !Supported(lang) {
				t.Skipf("no extractor for %s yet", lang)
			}
			a, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Files) == 0 || strings.HasPrefix(a.Files[0].Name, "@") {
				t.Fatalf("%s: first file must be the input", path)
			}
			src := a.Files[0].Data
			facts, err := Extract(lang, src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, lang, src, facts)
			got := goldenSections(facts)
			if *update {
				files := []txtar.File{a.Files[0]}
				for _, s := range goldenOrder {
					files = append(files, txtar.File{Name: s, Data: []byte(got[s])})
				}
				a.Files = files
				if err := os.WriteFile(path, txtar.Format(a), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := map[string]string{}
			for _, f := range a.Files[1:] {
				want[f.Name] = string(f.Data)
			}
			for _, s := range goldenOrder {
				if got[s] != want[s] {
					t.Errorf("%s: section %s differs (go test -run TestGolden -update to accept)\n--- got\n%s--- want\n%s", path, s, got[s], want[s])
				}
			}
		})
	}
}

// goldenLangs are the languages whose goldens TestGolden checks (the
// others have their own runner, TestGoldenMore).
var goldenLangs = []string{world.LangGo, world.LangPython, world.LangJavaScript, world.LangTypeScript,
	world.LangTSX, world.LangBash, world.LangCSS}

var goldenOrder = []string{"@defs", "@imports", "@refs", "@skeleton"}

// goldenSections renders facts one per line, sorted, as the goldens hold
// them.
func goldenSections(f *world.Facts) map[string]string {
	out := map[string]string{}
	var b strings.Builder
	if f.Package != "" {
		fmt.Fprintf(&b, "package %s\n", f.Package)
	}
	if f.Partial {
		fmt.Fprintf(&b, "partial: %s\n", f.Warning)
	}
	for _, d := range f.Defs {
		fmt.Fprintf(&b, "%d-%d %s %s", d.Start, d.End, d.Kind, d.Qualified)
		if d.Name != d.Qualified && !strings.HasSuffix(d.Qualified, "."+d.Name) {
			fmt.Fprintf(&b, " name=%s", d.Name)
		}
		if d.Parent != "" {
			fmt.Fprintf(&b, " parent=%s", d.Parent)
		}
		if d.Exported {
			b.WriteString(" exported")
		}
		fmt.Fprintf(&b, " | %s", d.Signature)
		if d.Doc != "" {
			fmt.Fprintf(&b, " | doc: %s", d.Doc)
		}
		b.WriteByte('\n')
	}
	out["@defs"] = b.String()

	lines := make([]string, 0, len(f.Imports))
	for _, i := range f.Imports {
		l := fmt.Sprintf("%d %s", i.Line, i.Path)
		if i.Alias != "" {
			l += " as " + i.Alias
		}
		if len(i.Names) > 0 {
			l += " names=" + strings.Join(i.Names, ",")
		}
		if i.Kind != "" {
			l += " kind=" + i.Kind
		}
		lines = append(lines, l)
	}
	out["@imports"] = sortedLines(lines)

	lines = lines[:0]
	for _, r := range f.Refs {
		name := r.Name
		if r.Qual != "" {
			name = r.Qual + "." + r.Name
		}
		in := "-"
		if r.In > 0 && r.In <= len(f.Defs) {
			in = f.Defs[r.In-1].Qualified
		} else if r.In != 0 {
			in = fmt.Sprintf("BAD(%d)", r.In)
		}
		lines = append(lines, fmt.Sprintf("%d %s %s in %s", r.Line, r.Kind, name, in))
	}
	out["@refs"] = sortedLines(lines)
	out["@skeleton"] = f.Skeleton
	return out
}

// sortedLines sorts lines by their leading line number, then as text.
func sortedLines(lines []string) string {
	num := func(s string) int {
		n := 0
		for _, c := range s {
			if c < '0' || c > '9' {
				break
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	sort.SliceStable(lines, func(i, j int) bool {
		if a, b := num(lines[i]), num(lines[j]); a != b {
			return a < b
		}
		return lines[i] < lines[j]
	})
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}
