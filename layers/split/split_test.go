package split

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
)

var update = flag.Bool("update", false, "rewrite testdata/split.golden")

// The split points of the sample command files are a golden.
func TestSplitPointsGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/commands/*.md")
	if err != nil || len(files) == 0 {
		t.Fatal("no sample files", err)
	}
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := ".claude/commands/" + filepath.Base(f)
		p := PlanFile(name, data)
		if !p.Split {
			fmt.Fprintf(&b, "%s: %d lines: not split: %s\n", name, p.Lines, p.Reason)
			continue
		}
		fmt.Fprintf(&b, "%s: %d lines: split at line %d %q: core %d lines, details %d lines\n", name, p.Lines, p.At, p.Heading, p.CoreLines(), p.DetailsLines())
		fmt.Fprintf(&b, "  %s\n  %s\n", p.CorePath, p.DetailsPath)
		fmt.Fprintf(&b, "  details header: %s", strings.SplitAfter(p.Details, "\n")[0])
		fmt.Fprintf(&b, "  main ends: %s", p.Main[strings.LastIndex(strings.TrimSuffix(p.Main, "\n"), "\n")+1:])
	}
	got := b.String()
	file := filepath.Join("testdata", "split.golden")
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if string(want) != got {
		t.Errorf("split points differ from %s (go test -update rewrites it); got:\n%s", file, got)
	}
}

// write applies a plan to an in-memory folder, as the CLI does on disk.
func write(m fstest.MapFS, p Plan) {
	m[p.CorePath] = &fstest.MapFile{Data: []byte(p.Core)}
	m[p.DetailsPath] = &fstest.MapFile{Data: []byte(p.Details)}
	m[p.File] = &fstest.MapFile{Data: []byte(p.Main)}
}

func TestLoadAndIdempotence(t *testing.T) {
	data, err := os.ReadFile("testdata/commands/deploy.md")
	if err != nil {
		t.Fatal(err)
	}
	m := fstest.MapFS{"cmds/deploy.md": {Data: data}}
	if s, _ := Load(m, "cmds/deploy.md", false); s != string(data) {
		t.Fatal("an unsplit file does not load whole")
	}
	p := PlanFile("cmds/deploy.md", data)
	if !p.Split {
		t.Fatal(p.Reason)
	}
	write(m, p)
	core, err := Load(m, "cmds/deploy.md", false)
	if err != nil || core != p.Core || strings.Contains(core, "## Examples") {
		t.Fatalf("core: %v", err)
	}
	full, err := Load(m, "cmds/deploy.md", true)
	if err != nil || full != string(data) {
		t.Fatalf("core and details do not give the original back: %v", err)
	}
	// Again: nothing to do, for the file and for its parts.
	for _, f := range []string{"cmds/deploy.md", "cmds/deploy.core.md", "cmds/deploy.details.md"} {
		if again := PlanFile(f, m[f].Data); again.Split {
			t.Errorf("%s would split again", f)
		}
	}
	delete(m, "cmds/deploy.details.md")
	if _, err := Load(m, "cmds/deploy.md", true); err == nil || !strings.Contains(err.Error(), "details cannot be read") {
		t.Errorf("missing details: %v", err)
	}
}

func FuzzSplit(f *testing.F) {
	files, _ := filepath.Glob("testdata/commands/*.md")
	for _, file := range files {
		data, _ := os.ReadFile(file)
		f.Add(data)
	}
	f.Add([]byte(strings.Repeat("## h\n", 400)))
	f.Add([]byte(strings.Repeat("x\n", 299) + "# a"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := PlanFile("c/x.md", data)
		if !p.Split {
			return
		}
		text := string(data)
		if p.Core+stripHeader(p.Details) != text {
			t.Fatal("core and details are not the original")
		}
		if p.Lines < MinLines || p.CoreLines() < Margin || p.DetailsLines() < Margin || float64(p.CoreLines()) < CoreShare*float64(p.Lines) {
			t.Fatalf("split at %d of %d lines", p.At, p.Lines)
		}
		h := strings.TrimLeft(p.Heading, " ")
		if !(h == "#" || h == "##" || strings.HasPrefix(h, "# ") || strings.HasPrefix(h, "## ")) {
			t.Fatalf("split at %q, not a heading", p.Heading)
		}
		m := fstest.MapFS{"c/x.md": {Data: data}}
		write(m, p)
		if full, err := Load(m, "c/x.md", true); err != nil || full != text {
			t.Fatal("load with details is not the original")
		}
		if again := PlanFile("c/x.md", []byte(p.Main)); again.Split {
			t.Fatal("splitting again splits")
		}
	})
}
