package instructions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/tokens"
)

func write(t *testing.T, file, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func counter(t *testing.T) func(string) int {
	c, err := tokens.New(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	return c.Count
}

func TestHierarchyOrderAndPriority(t *testing.T) {
	tmp := t.TempDir()
	global := filepath.Join(tmp, "home", ".config", "git-speed")
	outer := filepath.Join(tmp, "outer")
	root := filepath.Join(outer, "repo")
	write(t, filepath.Join(global, "AGENTS.md"), "global rule\n")
	write(t, filepath.Join(global, "SYSTEM.md"), "shadowed global\n")
	write(t, filepath.Join(outer, "CLAUDE.md"), "outer rule\n")
	write(t, filepath.Join(root, "AGENTS.md"), "root agents\n")
	write(t, filepath.Join(root, "CLAUDE.md"), "root claude (shadowed)\n")
	write(t, filepath.Join(root, "UMBRA.md"), "root umbra wins\n")
	write(t, filepath.Join(root, "pkg", "AGENTS.md"), "pkg rule\n")
	write(t, filepath.Join(root, "pkg", "api", "GEMINI.md"), "api rule\n")
	write(t, filepath.Join(root, "other", "AGENTS.md"), "not a task folder\n")

	res := Discover(Options{GlobalDir: global, Root: root, Ancestors: true, TaskFiles: []string{"pkg/api/h.go", "pkg/x.go"},
		Home: filepath.Join(tmp, "home"), Count: counter(t)})
	if len(res.Warnings) != 0 {
		t.Fatalf("warnings: %v", res.Warnings)
	}
	var got []string
	for _, f := range res.Files {
		got = append(got, f.Scope+":"+f.Path)
	}
	want := []string{"global:~/.config/git-speed/AGENTS.md", "ancestor:" + filepath.ToSlash(filepath.Join(outer, "CLAUDE.md")), "root:UMBRA.md", "dir:pkg/AGENTS.md", "dir:pkg/api/GEMINI.md"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if sh := strings.Join(res.Files[2].Shadowed, ","); sh != "AGENTS.md,CLAUDE.md" {
		t.Errorf("root shadowed = %s", sh)
	}
	// Nearest last: the text runs global → … → pkg/api.
	order := []string{"global rule", "outer rule", "root umbra wins", "pkg rule", "api rule"}
	last := -1
	for _, s := range order {
		i := strings.Index(res.Text, s)
		if i <= last {
			t.Fatalf("%q out of order in\n%s", s, res.Text)
		}
		last = i
	}
	if strings.Contains(res.Text, "shadowed") || strings.Contains(res.Text, "not a task folder") {
		t.Errorf("shadowed or unrelated text included:\n%s", res.Text)
	}
	if res.Tokens != counter(t)(res.Text) {
		t.Errorf("tokens %d, text counts %d", res.Tokens, counter(t)(res.Text))
	}

	// Configurable names and priority.
	res = Discover(Options{Names: []string{"CLAUDE.md", "AGENTS.md"}, Root: root, Count: counter(t)})
	if len(res.Files) != 1 || !strings.Contains(res.Text, "root claude") {
		t.Errorf("custom names: %+v", res.Files)
	}
}

func TestCutAtHeadingsWithPointer(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	b.WriteString("# Rules\n\nKeep it short.\n")
	for i := 0; i < 40; i++ {
		b.WriteString("\n## Section " + strings.Repeat("x", i%3) + "\n\n")
		b.WriteString(strings.Repeat("Write tests for every change you make to the code. ", 6) + "\n")
	}
	b.WriteString("\n```\n# not a heading inside a fence\n```\n")
	write(t, filepath.Join(root, "AGENTS.md"), b.String())
	write(t, filepath.Join(root, "a", "AGENTS.md"), "small local rule\n")
	count := counter(t)
	res := Discover(Options{Root: root, TaskFiles: []string{"a/f.go"}, Budget: 600, Count: count})
	if res.Tokens > 600 {
		t.Errorf("section %d tokens over its budget 600", res.Tokens)
	}
	big := res.Files[0]
	if big.Cut == nil {
		t.Fatalf("no cut recorded: %+v", big)
	}
	if !strings.Contains(res.Text, "… cut; read AGENTS.md lines ") {
		t.Errorf("no pointer in\n%s", res.Text)
	}
	lines := strings.Split(b.String(), "\n")
	if !strings.HasPrefix(lines[big.Cut.FromLine-1], "## Section") {
		t.Errorf("cut at line %d %q, not a heading", big.Cut.FromLine, lines[big.Cut.FromLine-1])
	}
	if res.Files[1].Cut != nil || !strings.Contains(res.Text, "small local rule") {
		t.Errorf("the small file was cut: %+v", res.Files[1])
	}
	if big.Cut.TokensSaved <= 0 {
		t.Errorf("no tokens saved")
	}
}

func TestBadInputIsAWarning(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "repo")
	write(t, filepath.Join(root, "AGENTS.md"), "root rule\n")
	write(t, filepath.Join(root, "bin", "AGENTS.md"), "ab\x00cd")
	// A 50 MB file (sparse, so the test stays fast).
	huge := filepath.Join(root, "huge", "AGENTS.md")
	write(t, huge, "")
	if err := os.Truncate(huge, 50<<20); err != nil {
		t.Fatal(err)
	}
	// A symlink loop as a file and a folder that links to its parent.
	if err := os.MkdirAll(filepath.Join(root, "loop"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Symlink("AGENTS.md", filepath.Join(root, "loop", "AGENTS.md"))
	os.Symlink(".", filepath.Join(root, "loop", "self"))
	// A global folder that cannot be read: a symlink loop of its own.
	global := filepath.Join(tmp, "cfg")
	os.Symlink(global, global)

	res := Discover(Options{GlobalDir: global, Root: root, Ancestors: true,
		TaskFiles: []string{"bin/x", "huge/x", "loop/self/self/self/x"}, Count: counter(t)})
	w := strings.Join(res.Warnings, "\n")
	for _, want := range []string{"cfg: too many levels of symbolic links", "bin/AGENTS.md: binary", "huge/AGENTS.md: 50.0 MiB, over the 256.0 KiB limit", "loop/AGENTS.md: too many levels of symbolic links"} {
		if !strings.Contains(w, want) {
			t.Errorf("no warning %q in\n%s", want, w)
		}
	}
	if len(res.Files) != 1 || !strings.Contains(res.Text, "root rule") {
		t.Errorf("the rest was not built: %+v", res.Files)
	}
}
