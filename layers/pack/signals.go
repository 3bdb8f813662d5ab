package pack

import (
	"path"
	"regexp"
	"strings"
)

// Signals read from the request's structure rather than its words: the
// frames of a traceback and the dotted names of modules, classes and
// functions it quotes, resolved to the files of the tree; and the prior
// of a file's kind for the request's kind (kinds.go).

var (
	// One frame of a traceback, in the shapes Python, Node, Java and Go or
	// Rust print: File "x/y.py", line 3 | at f (x/y.js:3:1) |
	// at a.b.C.m(C.java:3) | x/y.go:3.
	frameLine  = regexp.MustCompile(`File "([^"\n]+)", line \d+|\bat [^\n()]*\(?((?:[A-Za-z]:)?[^\s():]+\.(?:js|mjs|cjs|jsx|ts|tsx|mts|cts)):\d+(?::\d+)?\)?|\bat ([\w$]+(?:\.[\w$]+)+)\.[\w$<>]+\(([\w$]+\.(?:java|kt|scala)):\d+\)|((?:[\w.-]+/)*[\w.-]+\.(?:go|rs|py|c|cc|cpp|h|rb|java)):\d+`)
	dottedName = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*){1,8}\b`)
)

// frames lists the file paths of the request's traceback frames, as
// printed (absolute, or relative to wherever the program ran), in order.
func frames(text string) []string {
	var out []string
	for _, m := range frameLine.FindAllStringSubmatch(text, 200) {
		switch {
		case m[1] != "":
			out = append(out, m[1])
		case m[2] != "":
			out = append(out, m[2])
		case m[4] != "":
			// Java: the class's package is its folder.
			pkg := m[3]
			if i := strings.LastIndexByte(pkg, '.'); i >= 0 {
				pkg = pkg[:i]
			} else {
				pkg = ""
			}
			out = append(out, strings.ReplaceAll(pkg, ".", "/")+"/"+m[4])
		case m[5] != "":
			out = append(out, m[5])
		}
	}
	return out
}

// treeFiles finds files of the tree by the tail of their path.
type treeFiles struct {
	paths  []string
	byBase map[string][]int // file name → files; for a package's __init__.py or index.js, also the folder's name
	byStem map[string][]int // file name without extension → files
}

func newTreeFiles(paths []string) *treeFiles {
	t := &treeFiles{paths: paths, byBase: map[string][]int{}, byStem: map[string][]int{}}
	for i, p := range paths {
		b := path.Base(p)
		t.byBase[b] = append(t.byBase[b], i)
		stem := strings.TrimSuffix(b, path.Ext(b))
		switch stem {
		case "__init__", "index", "mod", "lib":
			stem = path.Base(path.Dir(p))
		}
		t.byStem[stem] = append(t.byStem[stem], i)
	}
	return t
}

// bySuffix returns the files whose path ends with the longest tail of p
// (whole folder names) that some file has, and how many of p's names
// that tail keeps; a bare file name counts only when one file has it.
func (t *treeFiles) bySuffix(p string) ([]int, int) {
	p = strings.ReplaceAll(p, "\\", "/")
	segs := strings.Split(strings.Trim(p, "/"), "/")
	cands := t.byBase[segs[len(segs)-1]]
	if len(cands) == 0 {
		return nil, 0
	}
	for k := len(segs); k >= 1; k-- {
		tail := strings.Join(segs[len(segs)-k:], "/")
		var hit []int
		for _, i := range cands {
			if q := t.paths[i]; q == tail || strings.HasSuffix(q, "/"+tail) {
				hit = append(hit, i)
			}
		}
		if len(hit) > 0 && (k > 1 || len(hit) == 1) {
			return hit, k
		}
	}
	return nil, 0
}

// byDotted resolves a dotted name (a.b.c, pkg.module.Class.method) to the
// files whose path, without its extension, ends with the longest run of
// its leading names as folders (a/b/c.py, a/b/c/__init__.py, or a/b.py
// when c is defined in it), with the share of the name resolved.
func (t *treeFiles) byDotted(name string) ([]int, float64) {
	segs := strings.Split(name, ".")
	for k := len(segs); k >= 2; k-- {
		want := strings.Join(segs[:k], "/")
		var hit []int
		for _, i := range t.byStem[segs[k-1]] {
			p := t.paths[i]
			noExt := strings.TrimSuffix(p, path.Ext(p))
			dir := path.Dir(p)
			if noExt == want || strings.HasSuffix(noExt, "/"+want) || dir == want || strings.HasSuffix(dir, "/"+want) {
				hit = append(hit, i)
			}
		}
		if len(hit) > 0 && len(hit) <= 3 {
			return hit, float64(k) / float64(len(segs))
		}
	}
	return nil, 0
}

// structural gives the files that the request's traceback frames and
// dotted names resolve to their boost: Frame times the best lexical score
// for a frame's file (the frame nearest the error most), Dotted times it
// for a dotted name's module, by the share of the name resolved.
func structural(text string, paths []string, w Weights, top float64, give func(i int, amount float64, why, ev string)) {
	var fs []string
	if w.Frame > 0 {
		fs = frames(text)
	}
	var names []string
	if w.Dotted > 0 {
		seen := map[string]bool{}
		for _, m := range dottedName.FindAllString(text, 400) {
			if !seen[m] && !fileLike(m) {
				seen[m] = true
				names = append(names, m)
			}
		}
	}
	if len(fs) == 0 && len(names) == 0 {
		return
	}
	t := newTreeFiles(paths)
	for _, f := range fs {
		hit, kept := t.bySuffix(f)
		if len(hit) == 0 {
			continue
		}
		// The frames of the project itself are what count (a library's
		// or the interpreter's find no file), and the more of a frame's
		// path matched, the surer.
		amount := w.Frame * top * min(1, float64(kept)/2) / float64(len(hit))
		for _, i := range hit {
			give(i, amount, "in the request's traceback", "traceback: "+clip(f, 80))
		}
	}
	for _, n := range names {
		hit, share := t.byDotted(n)
		for _, i := range hit {
			give(i, w.Dotted*top*share/float64(len(hit)), "names module "+n, "dotted name: "+clip(n, 60))
		}
	}
}

// fileLike says a dotted word is a file name (models.py), which the
// mention signal resolves, or a version or host name.
func fileLike(s string) bool {
	ext := strings.ToLower(path.Ext(s))
	if sourceExt[ext] {
		return true
	}
	switch ext {
	case ".md", ".rst", ".txt", ".json", ".yaml", ".yml", ".toml", ".html", ".css", ".com", ".org", ".io", ".net":
		return true
	}
	return false
}

// kindPrior scales each file's score by what its kind is worth to the
// request's kind: for a bug report or a feature request the source that
// will change, not the tests, docs, changelogs, fixtures, stylesheets,
// build files and examples around it (Demote* are the shares taken off);
// a commit message keeps every kind, since commits change them together.
func kindPrior(kind reqKind, paths []string, w Weights, sc []float64) {
	if kind == reqCommit {
		return
	}
	cut := [...]float64{fileSource: 0, fileTest: w.DemoteTest, fileDocs: w.DemoteDocs, fileChangelog: w.DemoteChangelog,
		fileFixture: w.DemoteFixture, fileStyle: w.DemoteStyle, fileBuild: w.DemoteBuild, fileExample: w.DemoteExample}
	any := false
	for _, c := range cut {
		any = any || c != 0
	}
	if !any {
		return
	}
	for i, s := range sc {
		if s > 0 {
			if c := cut[kindOfFile(paths[i])]; c != 0 {
				sc[i] = s * (1 - min(c, 0.99))
			}
		}
	}
}
