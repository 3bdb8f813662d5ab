package feature

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

func taskFS(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for p, s := range files {
		m[".speed/features/auth/"+p] = &fstest.MapFile{Data: []byte(s)}
	}
	return m
}

const specMD = `# Auth

Design text about sessions and tokens.

## REQ-1: Login with password
Users log in with a password checked by ` + "`CheckPassword`" + ` in auth/password.go.

## Other

- REQ-2: Sessions expire after an hour.
  They are renewed on use.
- A plain item.

- **NFR-3** Logins take under 100 ms.

Closing paragraph mentioning REQ-1 only by reference.
`

func TestLoadFeature(t *testing.T) {
	fsys := taskFS(map[string]string{
		"spec.md": specMD,
		"tasks/t1.toml": `id = "t1"
title = "Password hashing"
status = "done"
files_touched = ["./auth/password.go"]
requirements = ["REQ-1"]
[[decisions]]
summary = "Use bcrypt"
detail = "cost 12"
files = ["auth/password.go"]
`,
		"tasks/t2.toml": `id = "t2"
title = "Sessions"
status = "done"
depends_on = ["t1"]
files_touched = ["auth/session.go"]
`,
		"tasks/t3.toml": `id = "t3"
title = "Login handler"
depends_on = ["t2", "t4"]
files_touched = ["web/login.go", "web//login.go", "new/file.go"]
acceptance = ["returns 401 on a bad password"]
`,
		"tasks/t4.toml": `id = "t4"
title = "Planned helper"
status = "in_progress"
depends_on = ["t1"]
`,
	})
	exists := func(p string) bool { return p != "new/file.go" }
	f, warns, err := LoadFeature(fsys, "auth", Options{Exists: exists})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, tk := range f.Tasks {
		ids = append(ids, tk.ID)
	}
	if !reflect.DeepEqual(ids, []string{"t1", "t2", "t3", "t4"}) {
		t.Fatalf("tasks %v", ids)
	}
	t3 := f.Task("t3")
	if !reflect.DeepEqual(t3.FilesTouched, []string{"web/login.go", "new/file.go"}) {
		t.Errorf("files_touched %q", t3.FilesTouched)
	}
	if t3.Status != StatusPlanned {
		t.Errorf("default status %q", t3.Status)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].String(), "t3.toml:4: key files_touched: new/file.go is not in the tree") {
		t.Errorf("warnings %v", warns)
	}
	var up []string
	for _, u := range f.Upstream("t3") {
		up = append(up, u.ID)
	}
	if !reflect.DeepEqual(up, []string{"t2", "t1"}) {
		t.Errorf("upstream %v", up)
	}
	if sf, _, err := LoadFeature(fsys, "auth", Options{Exists: exists, Strict: true}); err != nil || sf.TaskError("t3") == nil || !strings.Contains(sf.TaskError("t3").Error(), "new/file.go is not in the tree") || sf.Task("t1") == nil {
		t.Errorf("strict: %v", err)
	}
	if f.Spec.Requirement("REQ-1") == nil || len(f.Spec.Requirements) != 3 {
		t.Errorf("spec requirements %+v", f.Spec.Requirements)
	}
	if _, _, err := LoadFeature(fsys, "nope", Options{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing feature: %v", err)
	}
}

func TestTaskErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, body, want string
	}{
		{"unknown key", "t1.toml", "id = \"t1\"\ntitel = \"x\"\n", "t1.toml:2: key titel: unknown key"},
		{"id mismatch", "t1.toml", "title = \"x\"\nid = \"t2\"\n", "t1.toml:2: key id: \"t2\" does not match the file name (want \"t1\")"},
		{"missing id", "t1.toml", "title = \"x\"\n", "key id: missing"},
		{"bad status", "t1.toml", "id = \"t1\"\nstatus = \"doing\"\n", "t1.toml:2: key status: \"doing\""},
		{"absolute", "t1.toml", "id = \"t1\"\nfiles_touched = [\n  \"a.go\",\n  \"/etc/passwd\",\n]\n", "t1.toml:4: key files_touched: path \"/etc/passwd\" is absolute"},
		{"escape", "t1.toml", "id = \"t1\"\nfiles_touched = [\"a/../../x.go\"]\n", "t1.toml:2: key files_touched: path \"a/../../x.go\" is outside the repository"},
		{"decision escape", "t1.toml", "id = \"t1\"\n[[decisions]]\nsummary = \"s\"\nfiles = [\"../x\"]\n", "t1.toml:4: key decisions.files: path \"../x\" is outside"},
		{"type", "t1.toml", "id = \"t1\"\nfiles_touched = \"a.go\"\n", "t1.toml:2: key files_touched:"},
		{"syntax", "t1.toml", "id = \"t1\"\ntitle = \n", "t1.toml:2:"},
		{"self dep", "t1.toml", "id = \"t1\"\ndepends_on = [\"t1\"]\n", "dependency cycle: t1 -> t1"},
		{"bad req", "t1.toml", "id = \"t1\"\nrequirements = [\"req1\"]\n", "t1.toml:2: key requirements: \"req1\" is not a requirement id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ParseTask(".speed/features/auth/tasks/"+tc.file, []byte(tc.body), nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

func TestDependencyErrors(t *testing.T) {
	fsys := taskFS(map[string]string{
		"tasks/a.toml": "id = \"a\"\ndepends_on = [\"b\"]\n",
		"tasks/b.toml": "id = \"b\"\ndepends_on = [\"c\"]\n",
		"tasks/c.toml": "id = \"c\"\ndepends_on = [\"a\"]\n",
		"tasks/d.toml": "id = \"d\"\ndepends_on = [\"a\"]\n",
	})
	f, warns, err := LoadFeature(fsys, "auth", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b", "c"} {
		if te := f.TaskError(id); te == nil || !strings.Contains(te.Error(), "dependency cycle: a -> b -> c -> a") {
			t.Errorf("cycle %s: %v", id, te)
		}
	}
	if f.Task("d") == nil || len(warns) != 1 || !strings.Contains(warns[0].String(), "task d depends on task a, whose file") {
		t.Errorf("d: %v %v", f.Tasks, warns)
	}
	fsys = taskFS(map[string]string{"tasks/a.toml": "id = \"a\"\ndepends_on = [\"zz\"]\n"})
	f, _, err = LoadFeature(fsys, "auth", Options{})
	if err != nil || f.TaskError("a") == nil || !strings.Contains(f.TaskError("a").Error(), "a.toml:2: key depends_on: task a depends on unknown task \"zz\"") {
		t.Errorf("unknown: %v %v", err, f.Broken)
	}
}

// One bad task file never blocks the others: each broken task reports
// every one of its own problems, and the good tasks load.
func TestBrokenTasksAreIsolated(t *testing.T) {
	fsys := taskFS(map[string]string{
		"tasks/1.toml": "id = \"1\"\ntitle = \"one\"\nfiles_touched = [\"a.go\"]\n",
		"tasks/2.toml": "id = \"2\"\ntitle = \"two\"\ndepends_on = [\"1\", \"4\"]\nfiles_touched = [\"b.go\"]\n",
		"tasks/3.toml": "id = \"3\"\ntitle = \"three\"\nfiles_touched = [\"c.go\"]\n",
		"tasks/4.toml": "id = \"4\"\nstatus = \"doing\"\nfiles_touched = [\n  \"../../etc/passwd\",\n  \"/abs\",\n]\nrequirements = [\"nope\"]\n",
		"tasks/5.toml": "id = \"5\"\ntitle = \n",
	})
	f, warns, err := LoadFeature(fsys, "auth", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, x := range f.Tasks {
		ids = append(ids, x.ID)
	}
	if strings.Join(ids, ",") != "1,2,3" {
		t.Errorf("good tasks %v", ids)
	}
	te := f.TaskError("4")
	if te == nil || len(te.Errs) != 4 {
		t.Fatalf("task 4: %v", te)
	}
	for _, want := range []string{
		"4.toml:2: key status: \"doing\"",
		"4.toml:4: key files_touched: path \"../../etc/passwd\" is outside the repository",
		"4.toml:5: key files_touched: path \"/abs\" is absolute",
		"4.toml:7: key requirements: \"nope\" is not a requirement id",
	} {
		if !strings.Contains(te.Error(), want) {
			t.Errorf("task 4 misses %q in\n%v", want, te)
		}
	}
	if te := f.TaskError("5"); te == nil || !strings.Contains(te.Error(), "5.toml:2") {
		t.Errorf("task 5: %v", te)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].String(), "2.toml:3: key depends_on: task 2 depends on task 4") {
		t.Errorf("warnings %v", warns)
	}
}

func TestCleanPath(t *testing.T) {
	for in, want := range map[string]string{"./a/b.go": "a/b.go", "a//b/../c.go": "a/c.go", `a\b.go`: "a/b.go"} {
		if got, err := CleanPath(in); err != nil || got != want {
			t.Errorf("CleanPath(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "..", "../a", "/a", "C:/x", ".", ".git/config", "a/../.."} {
		if _, err := CleanPath(in); err == nil {
			t.Errorf("CleanPath(%q) accepted", in)
		}
	}
}

func TestParseSpec(t *testing.T) {
	s, warns := ParseSpec("spec.md", []byte(specMD+"\n## REQ-2 again\ntext\n"))
	if len(warns) != 1 || !strings.Contains(warns[0].Msg, "REQ-2 is defined again") {
		t.Errorf("warnings %v", warns)
	}
	want := []Requirement{
		{ID: "REQ-1", Title: "Login with password", Line: 5, Text: "Users log in with a password checked by `CheckPassword` in auth/password.go."},
		{ID: "REQ-2", Title: "Sessions expire after an hour.", Line: 10, Text: "REQ-2: Sessions expire after an hour.\n  They are renewed on use."},
		{ID: "NFR-3", Title: "Logins take under 100 ms.", Line: 14, Text: "**NFR-3** Logins take under 100 ms."},
	}
	if !reflect.DeepEqual(s.Requirements, want) {
		t.Errorf("requirements\n got %#v\nwant %#v", s.Requirements, want)
	}
	wantP := []Paragraph{
		{Heading: "Auth", Text: "Design text about sessions and tokens.", Line: 3},
		{Heading: "Other", Text: "- A plain item.", Line: 12},
		{Heading: "Other", Text: "Closing paragraph mentioning REQ-1 only by reference.", Line: 16},
	}
	if !reflect.DeepEqual(s.Paragraphs, wantP) {
		t.Errorf("paragraphs\n got %#v\nwant %#v", s.Paragraphs, wantP)
	}
	if ids := FindIDs("see REQ-1, R-2 and XREQ-3x and NFR-10."); !reflect.DeepEqual(ids, []string{"REQ-1", "R-2", "NFR-10"}) {
		t.Errorf("FindIDs %v", ids)
	}
}

func TestSpecFence(t *testing.T) {
	s, _ := ParseSpec("spec.md", []byte("## Design\n```\n## REQ-9 not a heading\n- REQ-8 no\n```\n"))
	if len(s.Requirements) != 0 || len(s.Paragraphs) != 1 {
		t.Errorf("fenced: %+v", s)
	}
}

func FuzzParseTask(f *testing.F) {
	f.Add([]byte("id = \"t1\"\ntitle = \"x\"\nfiles_touched = [\"a.go\"]\n[[decisions]]\nsummary = \"s\"\n"))
	f.Add([]byte("id = \"t1\"\nstatus = 3\n"))
	f.Add([]byte("id = \"t1\"\ndepends_on = [\"t1\"]\n"))
	f.Add([]byte("id = \"t2\"\nstatus = \"x\"\nfiles_touched = [\"../a\", \"/b\"]\ncommands = [\"../c.md\"]\n"))
	f.Add([]byte("id = \"t1\"\ncommands = [\".claude/commands/x.md\"]\ncommand_details = true\n"))
	f.Add([]byte("id = \"t1\"\nassumptions = [\"a\", \" \"]\nconcerns = [\"c\"]\n"))
	f.Add([]byte("id = \"t1\"\nfiles_touched = [\"a.go\"]\n[files]\ncreate = [\"b.go\", \"../c\"]\nmodify = [\"a.go\"]\nread = [\"b.go\"]\n"))
	f.Add([]byte("id = \"t1\"\nfiles = { create = [\"x/y.go\"], read = [\"z.go\"] }\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		task, _, err := ParseTask("tasks/t1.toml", data, func(string) bool { return false })
		if err != nil {
			// Every problem, one per line, names the file.
			for _, l := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(l, "tasks/t1.toml") {
					t.Fatalf("error line does not name the file: %q", l)
				}
			}
			return
		}
		for _, p := range task.Commands {
			if c, err := CleanPath(p); err != nil || c != p {
				t.Fatalf("unclean command path %q accepted", p)
			}
		}
		if task.ID != "t1" {
			t.Fatalf("id %q accepted", task.ID)
		}
		for _, x := range append(append([]string(nil), task.Assumptions...), task.Concerns...) {
			if strings.TrimSpace(x) == "" {
				t.Fatalf("an empty assumption or concern accepted: %q", data)
			}
		}
		for _, p := range task.FilesTouched {
			if c, err := CleanPath(p); err != nil || c != p {
				t.Fatalf("unclean path %q accepted", p)
			}
		}
		// Every named path is clean and has exactly one role.
		n := 0
		for _, l := range [][]string{task.Creates(), task.Modifies(), task.Reads()} {
			n += len(l)
			for _, p := range l {
				if c, err := CleanPath(p); err != nil || c != p {
					t.Fatalf("unclean path %q accepted", p)
				}
			}
		}
		if n != len(task.Paths()) {
			t.Fatalf("a path in two roles accepted: %q", data)
		}
	})
}

// FuzzFeatureFile: feature.toml either loads with no empty concern or
// fails with an error that names it.
func FuzzFeatureFile(f *testing.F) {
	f.Add([]byte("concerns = [\"a\", \"b\"]\n"))
	f.Add([]byte("concerns = [\"\"]\nx = 1\n"))
	f.Add([]byte("concerns = 3\n[t]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ft, _, err := LoadFeature(fstest.MapFS{".speed/features/f/feature.toml": &fstest.MapFile{Data: data}}, "f", Options{})
		if err != nil {
			if !strings.HasPrefix(err.Error(), ".speed/features/f/feature.toml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, c := range ft.ConcernsFor("none") {
			if strings.TrimSpace(c.Text) == "" {
				t.Fatalf("an empty concern accepted: %q", data)
			}
		}
	})
}

func FuzzParseSpec(f *testing.F) {
	f.Add([]byte(specMD))
	f.Add([]byte("- REQ-1\n  - REQ-2 nested\n```\n# x"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, _ := ParseSpec("spec.md", data)
		seen := map[string]bool{}
		nlines := strings.Count(string(data), "\n") + 1
		for _, r := range s.Requirements {
			if seen[r.ID] || r.Line < 1 || r.Line > nlines {
				t.Fatalf("bad requirement %+v", r)
			}
			seen[r.ID] = true
		}
		for _, p := range s.Paragraphs {
			if p.Line < 1 || p.Line > nlines || strings.TrimSpace(p.Text) == "" {
				t.Fatalf("bad paragraph %+v", p)
			}
		}
	})
}

func TestConcernsAndAssumptions(t *testing.T) {
	fsys := taskFS(map[string]string{
		"feature.toml": "# cross-cutting\nconcerns = [\"Money is integer cents.\", \"Every handler logs its request id.\"]\n",
		"tasks/a.toml": "id = \"a\"\ntitle = \"Prices\"\nstatus = \"done\"\nconcerns = [\"Prices are never negative.\"]\n",
		"tasks/b.toml": "id = \"b\"\ntitle = \"Carts\"\ndepends_on = [\"a\", \"c\"]\nassumptions = [\"A cart holds at most 100 items.\"]\nconcerns = [\"Carts are per user.\"]\n",
		"tasks/c.toml": "id = \"c\"\ntitle = \"Not done\"\nconcerns = [\"never handed on\"]\n",
	})
	f, _, err := LoadFeature(fsys, "auth", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Task("b").Assumptions; !reflect.DeepEqual(got, []string{"A cart holds at most 100 items."}) {
		t.Errorf("assumptions %q", got)
	}
	var got []string
	for _, c := range f.ConcernsFor("b") {
		got = append(got, c.Source+": "+c.Text+" @"+c.Path)
	}
	want := []string{
		"feature: Money is integer cents. @.speed/features/auth/feature.toml#concerns[0]",
		"feature: Every handler logs its request id. @.speed/features/auth/feature.toml#concerns[1]",
		"b: Carts are per user. @.speed/features/auth/tasks/b.toml#concerns[0]",
		"a: Prices are never negative. @.speed/features/auth/tasks/a.toml#concerns[0]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("concerns of b:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// feature.toml is read strictly; a bad one names its file, line and key.
	for file, wantErr := range map[string]string{
		"concerns = [\"ok\"]\nconcern = \"typo\"\n": ".speed/features/auth/feature.toml:2: key concern: unknown key",
		"concerns = \"one\"\n":                      ".speed/features/auth/feature.toml:1: key concerns:",
		"concerns = [\"ok\", \"  \"]\n":             ".speed/features/auth/feature.toml:1: key concerns: entry 2 is empty",
	} {
		_, _, err := LoadFeature(taskFS(map[string]string{"feature.toml": file}), "auth", Options{})
		if err == nil || !strings.HasPrefix(err.Error(), wantErr) {
			t.Errorf("feature.toml %q: error %v, want %s…", file, err, wantErr)
		}
	}
	f, _, _ = LoadFeature(taskFS(map[string]string{"tasks/x.toml": "id = \"x\"\ntitle = \"X\"\nassumptions = [\"\"]\n"}), "auth", Options{})
	if te := f.TaskError("x"); te == nil || !strings.Contains(te.Error(), "tasks/x.toml:3: key assumptions: entry 1 is empty") {
		t.Errorf("an empty assumption: %v", te)
	}
}
