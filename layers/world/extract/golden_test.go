package extract

import (
	"flag"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/worldtest"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/<lang>/*.txtar")

// TestGolden extracts the first file of every testdata/<lang>/*.txtar
// archive (the language is the folder's name) and compares the facts with
// the archive's @defs, @imports, @refs and @skeleton sections.
func TestGolden(t *testing.T) { runGolden(t, goldenLangs) }

// runGolden is TestGolden for the goldens of langs.
func runGolden(t *testing.T, langs []string) {
	worldtest.Golden{Langs: langs, Sections: goldenOrder, Render: goldenSections, Update: *update,
		Accept: "go test -run TestGolden -update to accept",
		Extract: func(t *testing.T, lang, name string, src []byte) *world.Facts {
			if !Supported(lang) {
				t.Skipf("no extractor for %s yet", lang)
			}
			facts, err := Extract(lang, src, Options{Path: name})
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(name, ".lhs") {
				src = unlit(src) // the skeleton is of the code
			}
			checkInvariants(t, lang, src, facts)
			return facts
		}}.Run(t)
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
