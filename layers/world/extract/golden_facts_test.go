package extract

import (
	"flag"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/worldtest"
)

// updateMore rewrites the expected sections of testdata/<lang>/*.txtar for
// the languages TestGoldenMore checks (moreLangs).
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
	worldtest.Golden{Langs: moreLangs, Sections: worldtest.FactSections, Render: worldtest.RenderFacts, Update: *updateMore,
		Accept: "run go test -run TestGoldenMore -update-more",
		Extract: func(t *testing.T, lang, _ string, src []byte) *world.Facts {
			facts, err := extractMore(lang, src)
			if err != nil {
				t.Fatal(err)
			}
			checkFacts(t, lang, src, facts)
			return facts
		}}.Run(t)
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
	checkPointers(t, lang, facts.Skeleton)
}
