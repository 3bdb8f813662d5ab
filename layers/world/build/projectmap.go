package build

import (
	"bytes"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/pathglob"
	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/world"
)

// Git modes of tree entries.
const (
	modeSymlink = 0o120000
	modeGitlink = 0o160000
)

// headBytes is how much of a file is looked at to tell binary from text and
// to find a generated-file header or a shebang.
const headBytes = 8000

// classifier decides the flags of project map rows from speed.toml.
type classifier struct {
	cfg    *config.Config
	langs  map[string]bool // nil: every language
	ignore []string
}

func newClassifier(cfg *config.Config) *classifier {
	c := &classifier{cfg: cfg, ignore: cfg.Index.Ignore}
	if len(cfg.Index.Languages) > 0 {
		c.langs = map[string]bool{}
		for _, l := range cfg.Index.Languages {
			c.langs[l] = true
		}
	}
	return c
}

// byPath flags what the path and mode alone tell; it also reports whether
// the content needs to be read at all.
func (c *classifier) byPath(p string, mode uint32, size int64) (e world.FileEntry, read bool) {
	e = world.FileEntry{Path: p, Size: size, Lang: world.DetectLang(p, nil)}
	switch mode {
	case modeSymlink:
		e.Flags = append(e.Flags, world.Flag{Name: world.FlagSymlink, Reason: "symbolic link; not followed"})
		return e, false
	case modeGitlink:
		e.Flags = append(e.Flags, world.Flag{Name: world.FlagSubmodule, Reason: "submodule; indexed in its own repository"})
		return e, false
	}
	if g := c.ignored(p); g != "" {
		e.Flags = append(e.Flags, world.Flag{Name: world.FlagIgnored, Reason: "matches index.ignore " + g})
		return e, false
	}
	if dir := vendorDir(p); dir != "" {
		e.Flags = append(e.Flags, world.Flag{Name: world.FlagVendored, Reason: "under " + dir + "/"})
	}
	if why := generatedName(p); why != "" {
		e.Flags = append(e.Flags, world.Flag{Name: world.FlagGenerated, Reason: why})
	}
	if size > c.cfg.Index.MaxFileBytes {
		e.Flags = append(e.Flags, world.Flag{Name: world.FlagTooLarge, Reason: "larger than index.max_file_bytes"})
		e.Tokens = tokens.Estimate(e.Lang, size)
		return e, true // read the head only: binary or not, shebang
	}
	return e, true
}

// byContent completes e from the file's content (all of it, or its head
// when the file is too large). It reports whether the file gets facts.
func (c *classifier) byContent(e *world.FileEntry, data []byte, extractable func(lang string) bool) bool {
	head := data
	if len(head) > headBytes {
		head = head[:headBytes]
	}
	if e.Lang == "" {
		e.Lang = world.DetectLang(e.Path, head)
	}
	// A PDF or DOCX is binary but read by its extractor, within its own
	// limits on inflated size; its raw bytes count no lines or tokens.
	doc := world.BinaryDoc(e.Lang) && extractable(e.Lang)
	if isBinary(head) && !doc {
		e.Flags = append(e.Flags, world.Flag{Name: world.FlagBinary, Reason: "not text (NUL byte or invalid UTF-8)"})
		e.Lang = ""
		e.Tokens = 0
		return false
	}
	if !e.Has(world.FlagGenerated) {
		if why := generatedHeader(head); why != "" {
			e.Flags = append(e.Flags, world.Flag{Name: world.FlagGenerated, Reason: why})
		}
	}
	if !e.Has(world.FlagOutput) {
		if why := outputByContent(e.Path, e.Lang, data); why != "" {
			e.Flags = append(e.Flags, world.Flag{Name: world.FlagOutput, Reason: why})
		}
	}
	if e.Has(world.FlagTooLarge) {
		return false
	}
	e.Lines = countLines(data)
	e.Tokens = tokens.Estimate(e.Lang, int64(len(data)))
	if doc {
		e.Lines, e.Tokens = 0, 0
	}
	if e.Lang == "" || !extractable(e.Lang) {
		return false
	}
	if c.langs != nil && !c.langs[e.Lang] {
		return false
	}
	// Lock files are generated, but their extractor is made for them.
	if e.Has(world.FlagGenerated) && c.cfg.Index.Generated == "skip" && e.Lang != "lockfile" {
		return false
	}
	if e.Has(world.FlagVendored) && c.cfg.Index.Vendored == "skip" {
		return false
	}
	if e.Has(world.FlagOutput) && c.cfg.Index.Output == "skip" {
		return false
	}
	return true
}

// ignored returns the glob of index.ignore that p matches, or "".
func (c *classifier) ignored(p string) string {
	for _, g := range c.ignore {
		if pathglob.Match(g, p) {
			return g
		}
	}
	return ""
}

var vendorDirs = []string{"vendor", "third_party", "node_modules", "bower_components", "external", ".yarn"}

func vendorDir(p string) string {
	parts := strings.Split(p, "/")
	for _, d := range parts[:len(parts)-1] {
		for _, v := range vendorDirs {
			if d == v {
				return d
			}
		}
	}
	return ""
}

// generatedName recognises generated files by name.
func generatedName(p string) string {
	base := path.Base(p)
	switch {
	case strings.HasPrefix(base, "zz_generated"):
		return "name zz_generated*"
	case strings.HasSuffix(base, ".pb.go"), strings.HasSuffix(base, ".pb.gw.go"), strings.HasSuffix(base, "_pb2.py"), strings.HasSuffix(base, "_pb2_grpc.py"):
		return "protocol buffers output"
	case strings.HasSuffix(base, ".min.js"), strings.HasSuffix(base, ".min.css"):
		return "minified"
	case base == "package-lock.json", base == "yarn.lock", base == "pnpm-lock.yaml", base == "Cargo.lock", base == "go.sum", base == "composer.lock", base == "Gemfile.lock", base == "poetry.lock":
		return "lock file"
	}
	return ""
}

var generatedMarkers = [][]byte{[]byte("DO NOT EDIT"), []byte("@generated"), []byte("do not edit"), []byte("Do not edit"), []byte("Autogenerated"), []byte("auto-generated"), []byte("Auto-generated")}

// generatedHeader recognises a generated-file header in the first lines:
// Go's "// Code generated … DO NOT EDIT." and the common variants.
func generatedHeader(head []byte) string {
	for i, l := 0, head; i < 12 && len(l) > 0; i++ {
		var line []byte
		line, l, _ = bytes.Cut(l, []byte("\n"))
		if bytes.Contains(line, []byte("Code generated")) && bytes.Contains(line, []byte("DO NOT EDIT")) {
			return "header \"Code generated … DO NOT EDIT\""
		}
		for _, m := range generatedMarkers {
			if bytes.Contains(line, m) && len(bytes.TrimSpace(line)) < 200 {
				return "header mentions " + strings.ToLower(string(m))
			}
		}
	}
	return ""
}

func isBinary(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	// Allow a multi-byte character cut at the end of head.
	bad := 0
	for i := 0; i < len(head); {
		r, n := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && n == 1 && len(head)-i > 3 {
			bad++
		}
		i += n
	}
	return bad*20 > len(head)+20 // more than ~5 % invalid bytes
}

func countLines(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	n := bytes.Count(b, []byte("\n"))
	if b[len(b)-1] != '\n' {
		n++
	}
	return n
}
