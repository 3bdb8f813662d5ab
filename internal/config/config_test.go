package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The example shipped with git-speed must decode strictly and equal the
// defaults, so it documents every key with its real default.
func TestExampleIsStrictAndDefault(t *testing.T) {
	file := filepath.Join("..", "..", "speed.toml.example")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(file, data)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.TreeDigest(), Default(); got != want.TreeDigest() || c.Budget != want.Budget || c.Scope != want.Scope || c.Tokens != want.Tokens || c.Store != want.Store || c.Map != want.Map || c.Hooks != want.Hooks {
		t.Errorf("speed.toml.example differs from the defaults:\n%+v\n%+v", c, want)
	}
	for _, key := range []string{"max_file_bytes", "ignore", "generated", "vendored", "languages", "parse_timeout", "workers",
		"tokenizer", "architect", "verifier", "developer", "reviewer", "coherence", "debugger",
		"code_context", "task_context", "spec_context", "reserve", "max_hops", "full_line_limit", "flow_unused",
		"budget", "timeout", "keep", "allow"} {
		if !strings.Contains(string(data), "\n"+key+" =") && !strings.Contains(string(data), "\n# "+key+" =") {
			t.Errorf("speed.toml.example does not document %s", key)
		}
	}
}

func TestErrorsNameKeyAndLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"[index]\nmax_file_bytes = 10\nmax_fil = 3\n", "speed.toml:3: key index.max_fil: unknown key"},
		{"[budget]\ndeveloper = -1\n", "speed.toml:2: key budget.developer: must be a positive"},
		{"[tokens]\ntokenizer = \"gpt\"\n", "speed.toml:2: key tokens.tokenizer: must be o200k"},
		{"[budget.shares]\ncode_context = 0.9\n", "key budget.shares: shares must add up to 1"},
		{"[index]\nparse_timeout = \"soon\"\n", "speed.toml:2"},
		{"[index\n", "speed.toml:1"},
		{"[scope]\nmax_hops = \"two\"\n", "speed.toml:2"},
		{"[redact]\nallow = []\n\n[[redact.patterns]]\nname = \"a\"\nregex = \"x\"\n\n[[redact.patterns]]\nname = \"b\"\nregex = \"(\"\n", "speed.toml:10: key redact.patterns[1].regex: bad regex"},
		{"[redact]\npatterns = [{name = \"Bad\", regex = \"x\"}]\n", "speed.toml:2: key redact.patterns[0].name: name \"Bad\""},
		{"[[redact.patterns]]\nname = \"github-pat\"\nregex = \"x\"\n", "speed.toml:2: key redact.patterns[0].name: name \"github-pat\" is already a rule"},
		{"[redact]\nallow = [\"[a\"]\n", "speed.toml:2: key redact.allow: bad glob"},
		{"[redact]\nallowed = []\n", "speed.toml:2: key redact.allowed: unknown key"},
	} {
		_, err := Parse("speed.toml", []byte(tc.in))
		var ce *Error
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tc.in, err, tc.want)
		}
	}
}

func TestMissingFileIsDefault(t *testing.T) {
	c, err := Load(filepath.Join(t.TempDir(), "speed.toml"))
	if err != nil || c.Budget.Developer != 32000 {
		t.Fatalf("Load missing = %+v, %v", c.Budget, err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("[index]\nmax_file_bytes = 10\n"))
	f.Add([]byte("[budget.shares]\ncode_context = 0.6\n"))
	f.Add([]byte("x = [1, {a = 2}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("speed.toml", data)
		if err == nil {
			if verr := c.validate(); verr != nil {
				t.Fatalf("accepted an invalid config: %v", verr)
			}
		} else if !strings.HasPrefix(err.Error(), "speed.toml") {
			t.Fatalf("error does not name the file: %v", err)
		}
	})
}

// Redaction settings are part of the facts digest: facts hold redacted text.
func TestRedactInFactsDigest(t *testing.T) {
	c, err := Parse("speed.toml", []byte("[[redact.patterns]]\nname = \"emp\"\nregex = 'EMP-[0-9]+'\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := Default()
	if c.FactsDigest() == d.FactsDigest() {
		t.Errorf("an extra pattern leaves the facts digest unchanged")
	}
	r, err := c.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Text("a.txt", "id EMP-42"); got != "id ***REDACTED(emp)***" {
		t.Errorf("extra pattern not applied: %q", got)
	}
}
