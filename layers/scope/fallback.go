package scope

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/world"
)

// FileWorld is a World made of files' bytes alone: no facts, no edges, no
// alignment. Render falls back to it when the real world model cannot be
// had (a corrupt store, a failed index, a bug in scoping), so that a task
// still gets its own files in full and the spec by keywords.
type FileWorld struct {
	tree    string
	g       *world.Graph
	content map[string][]byte
}

// NewFileWorld returns the World of files (path → bytes) at tree, which
// names where the bytes came from ("" when unknown).
func NewFileWorld(tree string, files map[string][]byte) *FileWorld {
	w := &FileWorld{tree: tree, g: &world.Graph{Tree: tree}, content: map[string][]byte{}}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		b := files[p]
		w.content[p] = b
		lines := bytes.Count(b, []byte("\n"))
		if len(b) > 0 && b[len(b)-1] != '\n' {
			lines++
		}
		lang := world.DetectLang(p, b)
		w.g.Files = append(w.g.Files, world.FileEntry{Path: p, Lang: lang, Size: int64(len(b)), Lines: lines, Tokens: tokens.Estimate(lang, int64(len(b)))})
		w.g.Links = append(w.g.Links, nil)
	}
	return w
}

// Tree names where the files came from.
func (w *FileWorld) Tree() string { return w.tree }

// Graph lists the files, with no edges.
func (w *FileWorld) Graph() *world.Graph { return w.g }

// Facts is always nil: a FileWorld knows no definitions.
func (w *FileWorld) Facts(string) (*world.Facts, error) { return nil, nil }

// Content returns a file's bytes.
func (w *FileWorld) Content(p string) ([]byte, error) {
	b, ok := w.content[p]
	if !ok {
		return nil, fmt.Errorf("%s: not among the fallback files", p)
	}
	return b, nil
}
