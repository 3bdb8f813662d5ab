package formats

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/tools/txtar"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/worldtest"
)

// updateCode rewrites the expected sections of the goldens of codeLangs
// (-update-code: the data formats' goldens have their own -update).
var updateCode = flag.Bool("update-code", false, "rewrite the golden sections of the code formats' testdata/<lang>/*.txtar")

// codeLangs are the languages of the code-like formats (schemas,
// infrastructure, low level, scripts, GML, PowerShell, INI) whose goldens
// TestGoldenCode checks.
var codeLangs = []string{world.LangGraphQL, world.LangProtobuf, world.LangPrisma, world.LangSQL, world.LangHCL, world.LangDockerfile, world.LangMakefile,
	world.LangCMake, world.LangNix, world.LangGradle, world.LangWAT, world.LangAssembly, world.LangMATLAB, world.LangGDScript, world.LangGML,
	world.LangPowerShell, world.LangINI, world.LangSolidity, world.LangPerl, world.LangR, world.LangErlang, world.LangClojure}

// TestGoldenCode extracts the first file of every testdata/<lang>/*.txtar
// and compares its facts with the archive's sections.
func TestGoldenCode(t *testing.T) {
	worldtest.Golden{Langs: codeLangs, Sections: worldtest.FactSections, Render: worldtest.RenderFacts, Update: *updateCode,
		Accept: "go test -run TestGoldenCode -update-code",
		Extract: func(t *testing.T, lang, name string, src []byte) *world.Facts {
			facts, ok := Extract(lang, src, Options{Path: name})
			if !ok {
				t.Fatalf("%s: no extractor", lang)
			}
			checkCodeFacts(t, lang, facts)
			if strings.Contains(facts.Warning, "failed") {
				t.Fatalf("%s: %s", name, facts.Warning)
			}
			return facts
		}}.Run(t)
}

// checkCodeFacts checks invariants every extraction must keep.
func checkCodeFacts(t testing.TB, lang string, facts *world.Facts) {
	t.Helper()
	n := facts.Lines
	for _, d := range facts.Defs {
		if d.Start < 1 || d.End < d.Start || d.End > n || d.Name == "" && lang != world.LangINI {
			t.Fatalf("%s: bad def %+v (lines %d)", lang, d, n)
		}
	}
	for _, r := range facts.Refs {
		if r.Line < 1 || r.Line > n || r.In < 0 || r.In > len(facts.Defs) || r.Name == "" {
			t.Fatalf("%s: bad ref %+v (lines %d, defs %d)", lang, r, n, len(facts.Defs))
		}
	}
	for _, i := range facts.Imports {
		if i.Line < 1 || i.Line > n || i.Path == "" {
			t.Fatalf("%s: bad import %+v (lines %d)", lang, i, n)
		}
	}
}

// goldenInputsOf returns the inputs of lang's goldens.
func goldenInputsOf(tb testing.TB, lang string) [][]byte {
	files, _ := filepath.Glob(filepath.Join("testdata", lang, "*.txtar"))
	var out [][]byte
	for _, p := range files {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		if len(ar.Files) > 0 {
			out = append(out, ar.Files[0].Data)
		}
	}
	return out
}

// fuzzLang is the body of every code format's fuzz target: the goldens'
// inputs and a few malformed ones are the seed corpus; any input gives
// facts that keep the invariants, and a failure shows as a panic caught
// by Extract, which the target reports.
func fuzzLang(f *testing.F, lang string, extra ...string) {
	for _, s := range goldenInputsOf(f, lang) {
		f.Add(s)
		if len(s) > 10 {
			f.Add(s[:len(s)/2]) // truncated
		}
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
	f.Add([]byte("\xff\xfe\x00binary\x00\x01\x02{{{{(((([[[["))
	f.Add([]byte(strings.Repeat("{", 5000) + strings.Repeat("(", 5000)))
	f.Add([]byte("\"unterminated\n'also\n/* never closed"))
	f.Fuzz(func(t *testing.T, src []byte) {
		facts, ok := Extract(lang, src, Options{Path: "x"})
		if !ok {
			t.Fatal("no extractor")
		}
		if strings.HasPrefix(facts.Warning, "extractor ") {
			t.Fatalf("panic: %s", facts.Warning)
		}
		checkCodeFacts(t, lang, facts)
		if utf8.Valid(src) && !utf8.ValidString(facts.Skeleton) {
			t.Fatalf("skeleton of valid UTF-8 is not valid UTF-8")
		}
	})
}

// BenchmarkCodeFormats measures each code format's throughput (MB/s) on
// its golden inputs repeated to about 1 MB.
func BenchmarkCodeFormats(b *testing.B) {
	for _, lang := range codeLangs {
		var src []byte
		for _, s := range goldenInputsOf(b, lang) {
			if !bytes.Contains(s, []byte("broken")) || lang == world.LangINI {
				src = append(append(src, s...), '\n')
			}
		}
		if len(src) == 0 {
			continue
		}
		unit := src
		for len(src) < 1<<20 {
			src = append(src, unit...)
		}
		b.Run(lang, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			cpu0 := codeCPU()
			for i := 0; i < b.N; i++ {
				Extract(lang, src, Options{Path: "bench"})
			}
			// Wall-clock MB/s mislead on a loaded machine; MB per second
			// of the process's CPU time (from the OS) do not.
			if cpu := (codeCPU() - cpu0).Seconds(); cpu > 0 {
				b.ReportMetric(float64(len(src))*float64(b.N)/1e6/cpu, "MB/cpu-s")
			}
		})
	}
}
