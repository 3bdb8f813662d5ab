package formats

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/tools/txtar"

	"github.com/git-speed/git-speed/layers/world"
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

var goldenSecs = []string{"@meta", "@defs", "@imports", "@refs", "@skeleton"}

// TestGoldenCode extracts the first file of every testdata/<lang>/*.txtar
// and compares its facts with the archive's sections.
func TestGoldenCode(t *testing.T) {
	for _, lang := range codeLangs {
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
				src := ar.Files[0].Data
				facts, ok := Extract(lang, src, Options{Path: ar.Files[0].Name})
				if !ok {
					t.Fatalf("%s: no extractor", lang)
				}
				checkCodeFacts(t, lang, facts)
				if strings.Contains(facts.Warning, "failed") {
					t.Fatalf("%s: %s", path, facts.Warning)
				}
				got := renderCodeFacts(facts)
				if *updateCode {
					out := &txtar.Archive{Comment: ar.Comment, Files: []txtar.File{ar.Files[0]}}
					for _, sec := range goldenSecs {
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
				for _, sec := range goldenSecs {
					if got[sec] != want[sec] {
						t.Errorf("%s: section %s differs (go test -run TestGoldenCode -update-code)\n--- got\n%s--- want\n%s", path, sec, got[sec], want[sec])
					}
				}
			})
		}
	}
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

// renderCodeFacts writes facts as golden sections, one fact per line, sorted.
func renderCodeFacts(facts *world.Facts) map[string]string {
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
		if d.Name != afterLast(d.Qualified, ".") {
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
