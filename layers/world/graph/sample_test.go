package graph

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/corpus"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/extract"
)

// TestSampleTree is a tool for judging resolution by eye on real code:
//
//	GRAPH_TREE=/usr/lib/python3.11/email GRAPH_SAMPLE=30 go test ./layers/world/graph -run TestSampleTree -v
//
// extracts every supported file below GRAPH_TREE, builds the graph and
// logs GRAPH_SAMPLE edges spread evenly over the edge list, each with the
// names the using file references that the used file defines.
func TestSampleTree(t *testing.T) {
	root := corpus.FromEnv(t, "GRAPH_TREE", "a folder")
	n, _ := strconv.Atoi(os.Getenv("GRAPH_SAMPLE"))
	if n <= 0 {
		n = 30
	}
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == "node_modules" && p != root || d.Name() == "__pycache__") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			r, _ := filepath.Rel(root, p)
			paths = append(paths, filepath.ToSlash(r))
		}
		return nil
	})
	sort.Strings(paths)
	in, langs := extractTree(root, paths)
	g := Build(in)
	t.Logf("%d files (%v), %d edges", len(g.Files), langs, len(g.Edges))
	for k := 0; k < n && k < len(g.Edges); k++ {
		e := g.Edges[k*len(g.Edges)/min(n, len(g.Edges))]
		from, to := g.Links[e.From], g.Links[e.To]
		var why []string
		for _, r := range from.Refs {
			if to != nil && (definesName(to, r.Name) || definesName(to, r.Qual)) {
				q := r.Name
				if r.Qual != "" {
					q = r.Qual + "." + r.Name
				}
				why = append(why, q)
			}
		}
		if len(why) > 6 {
			why = append(why[:6], "…")
		}
		t.Logf("%s -> %s refs=%d w=%.2f  [%s]", g.Files[e.From].Path, g.Files[e.To].Path, e.Refs, e.Weight, strings.Join(why, " "))
	}
	_ = fmt.Sprint()
}

func definesName(l *world.Link, name string) bool {
	k := sort.Search(len(l.Defs), func(k int) bool { return l.Defs[k].Name >= name })
	return name != "" && k < len(l.Defs) && l.Defs[k].Name == name
}

// extractTree reads and extracts the files paths (sorted, relative to
// root) with the real extractors and returns Build's input and the count of
// files with facts per language.
func extractTree(root string, paths []string) (Input, map[string]int) {
	in := Input{Tree: "sample", Read: func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, p)) }}
	langs := map[string]int{}
	for _, p := range paths {
		src, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			continue
		}
		lang := world.DetectLang(p, src)
		in.Files = append(in.Files, world.FileEntry{Path: p, Lang: lang})
		var l *world.Link
		if lang != "" && extract.Supported(lang) && len(src) < 1<<20 {
			if f, err := extract.Extract(lang, src, extract.Options{}); err == nil && f != nil {
				l = f.Link()
				langs[lang]++
			}
		}
		in.Links = append(in.Links, l)
	}
	return in, langs
}
