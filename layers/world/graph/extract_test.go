package graph

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/extract"
)

// TestRealExtractors runs the real extractors over the small projects of
// testdata/projects/*.txtar and checks the file edges Build finds against
// the archive's hand-written "@edges" section (one "from -> to" a line,
// sorted), and its weak edges against the "@weak" section (none when
// the archive has no such section). Files no extractor handles (tsconfig.json, Cargo.toml,
// composer.json …) are config files Build may read. With GRAPH_FACTS=1
// the extracted imports and references are logged.
func TestRealExtractors(t *testing.T) {
	archives, err := filepath.Glob(filepath.Join("testdata", "projects", "*.txtar"))
	if err != nil || len(archives) == 0 {
		t.Fatalf("no project archives: %v", err)
	}
	for _, ap := range archives {
		name := strings.TrimSuffix(filepath.Base(ap), ".txtar")
		t.Run(name, func(t *testing.T) {
			a, err := txtar.ParseFile(ap)
			if err != nil {
				t.Fatal(err)
			}
			in, want, wantWeak := projectInput(t, a)
			g := Build(in)
			got := edgeList(g)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s edges:\n got:\n\t%s\n want:\n\t%s", ap, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
			}
			if weak := edgesOf(g, g.Weak); strings.Join(weak, "\n") != strings.Join(wantWeak, "\n") {
				t.Errorf("%s weak edges:\n got:\n\t%s\n want:\n\t%s", ap, strings.Join(weak, "\n\t"), strings.Join(wantWeak, "\n\t"))
			}
		})
	}
}

// projectInput extracts every source file of a and returns Build's input,
// the wanted edges and the wanted weak edges.
func projectInput(t *testing.T, a *txtar.Archive) (Input, []string, []string) {
	content := map[string][]byte{}
	var paths, want, weak []string
	for _, f := range a.Files {
		if f.Name == "@edges" || f.Name == "@weak" {
			for _, line := range strings.Split(string(f.Data), "\n") {
				if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
					if f.Name == "@weak" {
						weak = append(weak, line)
					} else {
						want = append(want, line)
					}
				}
			}
			continue
		}
		content[f.Name] = f.Data
		paths = append(paths, f.Name)
	}
	sort.Strings(paths)
	sort.Strings(want)
	sort.Strings(weak)
	in := Input{Tree: "t", Read: func(p string) ([]byte, error) {
		if c, ok := content[p]; ok {
			return c, nil
		}
		return nil, fmt.Errorf("%s: not found", p)
	}}
	for _, p := range paths {
		lang := world.DetectLang(p, content[p])
		in.Files = append(in.Files, world.FileEntry{Path: p, Lang: lang})
		var l *world.Link
		if lang != "" && extract.Supported(lang) {
			facts, err := extract.Extract(lang, content[p], extract.Options{})
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			l = facts.Link()
			if os.Getenv("GRAPH_FACTS") != "" {
				t.Logf("%s (%s) package %q", p, lang, facts.Package)
				for _, im := range facts.Imports {
					t.Logf("  import %+v", im)
				}
				for _, r := range l.Refs {
					t.Logf("  ref %q.%q %s ×%d", r.Qual, r.Name, r.Kind, r.Count)
				}
				for _, d := range l.Defs {
					t.Logf("  def %s %s parent=%q", d.Name, d.Kind, d.Parent)
				}
			}
		}
		in.Links = append(in.Links, l)
	}
	return in, want, weak
}
