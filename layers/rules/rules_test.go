package rules

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/git-speed/git-speed/internal/tokens"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

func o200k(t testing.TB) func(string) int {
	c, err := tokens.New("o200k")
	if err != nil {
		t.Fatal(err)
	}
	return c.Count
}

// Every library file parses cleanly and every rule has a level and a
// condition, so its summary line says something.
func TestLibrary(t *testing.T) {
	lib := Library()
	if len(lib) != len(Areas) {
		t.Fatalf("%d files for %d areas", len(lib), len(Areas))
	}
	titles := map[string]string{}
	for _, a := range Areas {
		data, err := library.ReadFile("library/" + a.Name + ".md")
		if err != nil {
			t.Fatal(err)
		}
		f, warns := Parse("library/"+a.Name+".md", data)
		if len(warns) > 0 {
			t.Errorf("%s: %v", a.Name, warns)
		}
		if len(f.Rules) < 5 {
			t.Errorf("%s: only %d rules", a.Name, len(f.Rules))
		}
		for _, r := range f.Rules {
			if r.Level == "" || r.When == "" || r.Body == "" {
				t.Errorf("%s:%d: rule %q lacks a level, condition or text", a.Name, r.Line, r.Title)
			}
			if prev, ok := titles[key(r.Title)]; ok {
				t.Errorf("%s: rule %q is also in %s (titles override, so they must be unique)", a.Name, r.Title, prev)
			}
			titles[key(r.Title)] = a.Name
		}
	}
}

func TestParse(t *testing.T) {
	src := "# Team rules\n**Files**: *.sql, `migrations/*`\n\n## Rule: One\n**Level**: Strict\n**When**: always\nText.\n```md\n## Rule: not a rule\n**Level**: advisory\n```\n\n### Rule: Two\n**level:** loud\n\n## Rule: one\n**When**: twice\n"
	f, warns := Parse(".speed/rules/team.md", []byte(src))
	if f.Title != "Team rules" || strings.Join(f.Globs, "|") != "*.sql|migrations/*" {
		t.Errorf("file %+v", f)
	}
	if len(f.Rules) != 3 || f.Rules[0].Level != "strict" || !strings.Contains(f.Rules[0].Body, "## Rule: not a rule") || f.Rules[1].Title != "Two" {
		t.Fatalf("rules %+v", f.Rules)
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	want := []string{
		`.speed/rules/team.md:14: rule "Two": level "loud" is not strict, warning or advisory`,
		`.speed/rules/team.md:13: rule "Two" has no **When**: line`,
		`.speed/rules/team.md:16: rule "one" has no **Level**: line`,
		`.speed/rules/team.md:16: rule "one" is given again (first at line 4); the later one wins`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func areasOf(files []*File) string {
	var out []string
	for _, f := range files {
		out = append(out, f.Source)
	}
	return strings.Join(out, " ")
}

func TestSelect(t *testing.T) {
	lib := Library()
	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{nil, "library/owasp.md"},
		{[]string{"README.md"}, "library/owasp.md"},
		{[]string{"cmd/main.go", "web/app.tsx"}, "library/owasp.md library/go.md library/javascript.md"},
		{[]string{"src/x.py", "lib/a.rb", "Gemfile"}, "library/owasp.md library/python.md library/ruby.md"},
		{[]string{"a.hpp", "b.rs", "c.php", "D.java", "run.sh"}, "library/owasp.md library/java.md library/c-cpp.md library/rust.md library/php.md library/shell.md"},
		{[]string{"Dockerfile"}, "library/owasp.md library/docker.md"},
		{[]string{"deploy/docker-compose.prod.yml"}, "library/owasp.md library/docker.md"},
		{[]string{"compose.yaml"}, "library/owasp.md library/docker.md"},
		{[]string{"config.yml"}, "library/owasp.md"},
		{[]string{".github/workflows/ci.yml"}, "library/owasp.md library/ci.md"},
		{[]string{".gitlab-ci.yml", "build/app.Dockerfile"}, "library/owasp.md library/docker.md library/ci.md"},
	} {
		if got := areasOf(Select(lib, nil, tc.paths)); got != tc.want {
			t.Errorf("%v: got %s, want %s", tc.paths, got, tc.want)
		}
	}
}

func repoFS() fstest.MapFS {
	return fstest.MapFS{
		".speed/rules/go.md":     {Data: []byte("# Our Go rules\n\n## Rule: Use crypto/rand for secrets\n**Level**: strict\n**When**: always, in our code\nWe use our keyring package.\n\n## Rule: Wrap errors\n**Level**: advisory\n**When**: returning errors\nUse %w.\n")},
		".speed/rules/sql.md":    {Data: []byte("# SQL\n**Files**: *.sql\n\n## Rule: Migrations are reversible\n**Level**: warning\n**When**: a migration is added\nWrite the down step.\n")},
		".speed/rules/all.md":    {Data: []byte("# House rules\n\n## Rule: Deny access unless a check allows it\n**Level**: strict\n**When**: any handler\nUse authz.Check.\n")},
		".speed/rules/notes.txt": {Data: []byte("not a rule file")},
	}
}

func TestRepositoryRules(t *testing.T) {
	repo, warns := LoadRepo(repoFS(), ".speed/rules")
	if len(warns) != 0 || len(repo) != 3 {
		t.Fatalf("%d files, warnings %v", len(repo), warns)
	}
	got := Select(Library(), repo, []string{"pkg/auth.go"})
	if s := areasOf(got); s != "library/owasp.md library/go.md .speed/rules/go.md .speed/rules/all.md" {
		t.Fatalf("files %s", s)
	}
	var titles []string
	for _, f := range got {
		for _, r := range f.Rules {
			titles = append(titles, f.Source+": "+r.Title)
		}
	}
	all := strings.Join(titles, "\n")
	for _, gone := range []string{"library/owasp.md: Deny access unless a check allows it", "library/go.md: Use crypto/rand for secrets"} {
		if strings.Contains(all, gone) {
			t.Errorf("%s is overridden but still there", gone)
		}
	}
	for _, kept := range []string{".speed/rules/all.md: Deny access unless a check allows it", ".speed/rules/go.md: Use crypto/rand for secrets", ".speed/rules/go.md: Wrap errors", "library/go.md: Run os/exec commands without a shell"} {
		if !strings.Contains(all, kept) {
			t.Errorf("%s is missing", kept)
		}
	}
	// The SQL file applies only to tasks with SQL files; the Go file only to Go.
	if s := areasOf(Select(Library(), repo, []string{"db/001_init.sql"})); s != "library/owasp.md .speed/rules/all.md .speed/rules/sql.md" {
		t.Errorf("sql task: %s", s)
	}
	if _, w := LoadRepo(fstest.MapFS{".speed/rules/empty.md": {Data: []byte("# nothing\n")}}, ".speed/rules"); len(w) != 1 || !strings.Contains(w[0].String(), "adds nothing") {
		t.Errorf("empty file: %v", w)
	}
	if r, w := LoadRepo(fstest.MapFS{}, ".speed/rules"); r != nil || w != nil {
		t.Errorf("no folder: %v %v", r, w)
	}
}

// The summaries of sample tasks at the developer's default share (30 % of
// a 4,800-token task_context) and at a tight budget are goldens.
func TestSummaryGolden(t *testing.T) {
	count := o200k(t)
	repo, _ := LoadRepo(repoFS(), ".speed/rules")
	for _, tc := range []struct {
		name   string
		paths  []string
		repo   []*File
		budget int
	}{
		{"go-service", []string{"internal/auth/login.go", "internal/auth/login_test.go"}, nil, 1440},
		{"web-docker-ci", []string{"web/src/App.tsx", "Dockerfile", ".github/workflows/deploy.yml"}, nil, 1440},
		{"python-tight", []string{"app/views.py"}, nil, 200},
		{"go-with-repo-rules", []string{"pkg/auth.go"}, repo, 1440},
		{"docs-only", []string{"docs/guide.md"}, nil, 1440},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := For(Library(), tc.repo, tc.paths, tc.budget, count)
			if s.Tokens > tc.budget {
				t.Errorf("%d tokens over the budget of %d", s.Tokens, tc.budget)
			}
			if s.Text != "" && s.Tokens != count(s.Text) {
				t.Errorf("tokens %d, count %d", s.Tokens, count(s.Text))
			}
			if strings.Contains(s.Text, "```") {
				t.Error("a code block reached the summary")
			}
			got := fmt.Sprintf("paths: %s\nbudget: %d\ntokens: %d\nrules: %d\nomitted: %d\nsources: %s\n\n%s",
				strings.Join(tc.paths, " "), tc.budget, s.Tokens, s.Rules, s.Omitted, strings.Join(s.Sources, " "), s.Text)
			file := filepath.Join("testdata", "golden", tc.name+".md")
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
				t.Errorf("%s differs from the golden (go test -update rewrites it); got:\n%s", file, got)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, a := range Areas {
		data, _ := library.ReadFile("library/" + a.Name + ".md")
		f.Add(data, 300)
	}
	f.Add([]byte("## Rule:\n**Level**:\n**When**:\n```\n"), 10)
	f.Add([]byte("**Files**: [\n## Rule: x\n~~~\n## Rule: y\n"), 0)
	count := func(s string) int { return len(s) / 4 }
	f.Fuzz(func(t *testing.T, data []byte, budget int) {
		file, _ := Parse(".speed/rules/f.md", data)
		if n := strings.Count(string(data), "Rule:"); len(file.Rules) > n {
			t.Fatalf("%d rules from %d headers", len(file.Rules), n)
		}
		s := Summarize([]*File{file}, budget, count)
		if s.Text != "" && s.Tokens > budget {
			t.Fatalf("summary of %d tokens over a budget of %d", s.Tokens, budget)
		}
		if s.Rules+s.Omitted != len(file.Rules) {
			t.Fatalf("%d kept + %d omitted != %d", s.Rules, s.Omitted, len(file.Rules))
		}
		if strings.Contains(s.Text, "```") && !strings.Contains(strings.Join(titlesWhens(file), "\n"), "```") {
			t.Fatal("a code fence reached the summary")
		}
	})
}

// titlesWhens are the texts of f a summary quotes: its title (the head
// of its first rule's line, never at a line's start) and its rules'
// titles, levels and conditions.
func titlesWhens(f *File) []string {
	out := []string{f.Title}
	for _, r := range f.Rules {
		out = append(out, r.Title, r.When, r.Level)
	}
	return out
}
