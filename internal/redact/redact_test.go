package redact

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/redact/redacttest"
)

// Every planted secret is gone from its file, every decoy is still there,
// lines stay where they were, and a second pass changes nothing.
func TestCorpus(t *testing.T) {
	set := redacttest.Generate()
	files, secrets := set.Files, set.Secrets
	kinds := map[string]bool{}
	for _, s := range secrets {
		kinds[s.Kind] = true
	}
	if len(secrets) < 100 || len(kinds) < 50 || len(set.Decoys) < 30 {
		t.Fatalf("corpus plants %d secrets of %d kinds and %d decoys, want at least 100, 50 and 30", len(secrets), len(kinds), len(set.Decoys))
	}
	t.Logf("%d secrets of %d kinds, %d decoys, %d files", len(secrets), len(kinds), len(set.Decoys), len(files))
	for _, d := range set.Decoys {
		if out, c := Default().Text(d.Path, files[d.Path]); !strings.Contains(out, d.Needle) {
			t.Errorf("decoy %s redacted in %s (%v): %q", d.Kind, d.Path, c, d.Needle)
		}
	}
	r := Default()
	total := Counts{}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		src := files[p]
		out, c := r.Text(p, src)
		total.Add(c)
		if leaks := redacttest.Leaks(out, secrets); len(leaks) > 0 {
			t.Errorf("%s: leaks %v:\n%s", p, leaks, out)
		}
		if a, b := strings.Count(src, "\n"), strings.Count(out, "\n"); a != b {
			t.Errorf("%s: %d lines became %d", p, a, b)
		}
		if again, c2 := r.Text(p, out); again != out || c2.Total() != 0 {
			t.Errorf("%s: second pass changed the text (%v):\n%s\n---\n%s", p, c2, out, again)
		}
		if got := CountMarks(out); !equalCounts(got, c) {
			t.Errorf("%s: CountMarks %v, redactions %v", p, got, c)
		}
	}
	t.Logf("redactions by rule: %v", total)
}

// The corpus is the same bytes on every call: the command tests plant it
// once and look for its secrets in another call.
func TestCorpusDeterministic(t *testing.T) {
	a, b := redacttest.Generate(), redacttest.Generate()
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two calls of redacttest.Generate made different corpora")
	}
}

func equalCounts(a, b Counts) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// Each rule names itself in its marker.
func TestMarkers(t *testing.T) {
	_, secrets := redacttest.Corpus()
	byKind := map[string]string{}
	for _, s := range secrets {
		byKind[s.Kind] = s.Value
	}
	for _, tc := range []struct{ path, text, want string }{
		{"a.py", `TOKEN = "` + byKind["github-pat"] + `"`, `TOKEN = "***REDACTED(github-pat)***"`},
		{"a.py", `AWS_SECRET_ACCESS_KEY = "` + byKind["aws-secret-access-key"] + `"`, `AWS_SECRET_ACCESS_KEY = "***REDACTED(aws-secret-access-key)***"`},
		{".env", "A=1\n# c\nB=\nC = two words\n", "A=***REDACTED(env-value)***\n# c\nB=\nC = ***REDACTED(env-value)***\n"},
		{"v.yaml", "password: " + byKind["password-yaml"] + "\n", "password: \"***REDACTED(password-assignment)***\"\n"},
		{"x.go", "url := \"postgres://u:" + "Zq9wLm2Kx7Pd@h/db\"", "url := \"postgres://u:***REDACTED(connection-string)***@h/db\""},
		{"n.ipynb", `"source": ["db_password = \"hunt3r-` + `Zq9w\"\n"]`, `"source": ["db_password = \"***REDACTED(password-assignment)***\"\n"]`},
		{"c.yaml", "db:\n  password: CorrectHorseBattery\n", "db:\n  password: \"***REDACTED(password-assignment)***\"\n"},
		{"k.pem", "-----BEGIN PRIVATE KEY-----\nAAAA\nBBBB\n-----END PRIVATE KEY-----\nafter", "***REDACTED(private-key)***\n\n\n\nafter"},
	} {
		got, _ := Default().Text(tc.path, tc.text)
		if got != tc.want {
			t.Errorf("%s %q:\n got %q\nwant %q", tc.path, tc.text, got, tc.want)
		}
	}
}

// Ordinary code keeps its text.
func TestNoFalsePositives(t *testing.T) {
	for _, src := range []string{
		`password := r.FormValue("password")`,
		`if token == "" { return errNoToken }`,
		`tok := s.Scan(); token = tok.Lit`,
		`secret: ${{ secrets.DEPLOY_KEY }}`,
		`PASSWORD = os.environ["PASSWORD"]`,
		`const tokenizer = "o200k_base"`,
		`apiKey: process.env.API_KEY,`,
		`db_password = "changeme"`,
		`password = "<your password>"`,
		`AKIAIOSFODNN7EXAMPLE`,
		`url = "https://user:password@example.com/"`,
		`keyType := "-----BEGIN RSA PRIVATE KEY-----"`,
		`var sk = "SK00000000000000000000000000000000"`,
		`secretName: my-app-secret`,
		`type token struct{ kind int }`,
		`key := fmt.Sprintf("%s/%s", a, b)`,
		`apiKey = cfg.APIKey2024`,
		`token: getToken(ctx, 42)`,
	} {
		if got, c := Default().Text("x.go", src); got != src {
			t.Errorf("%q redacted to %q (%v)", src, got, c)
		}
		// Prompts and task texts are redacted with no path, as prose.
		if got, c := Default().Text("", src); got != src {
			t.Errorf("%q redacted to %q (%v)", src, got, c)
		}
	}
}

func TestAllowAndExtra(t *testing.T) {
	r, err := New([]Pattern{{Name: "employee-id", Regex: `EMP-([0-9]{6})`}}, []string{"testdata/**", "*.fixture"})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Text("a.txt", "id EMP-123456 ok"); got != "id EMP-***REDACTED(employee-id)*** ok" {
		t.Errorf("extra pattern: %q", got)
	}
	tok := "ghp_" + "q7Xw2LmZ9pRt4VbN8cYs1KdF6gHj3Ae5Ui0o"
	for _, p := range []string{"testdata/x.go", "pkg/testdata/y.go", "a/b.fixture"} {
		if got, _ := r.Text(p, tok); got != tok {
			t.Errorf("%s is allow-listed but was redacted", p)
		}
	}
	if got, _ := r.Text("src/x.go", tok); got == tok {
		t.Errorf("src/x.go not redacted")
	}
	if r.Digest() == Default().Digest() {
		t.Errorf("digest does not change with extra patterns")
	}
	for _, bad := range [][]Pattern{
		{{Name: "x", Regex: "("}},
		{{Name: "Bad Name", Regex: "a"}},
		{{Name: "github-pat", Regex: "a"}},
		{{Name: "empty", Regex: "a*"}},
	} {
		if _, err := New(bad, nil); err == nil {
			t.Errorf("New(%v) accepted", bad)
		}
	}
	if _, err := New(nil, []string{"[a"}); err == nil {
		t.Errorf("bad glob accepted")
	}
}

func TestRuleCount(t *testing.T) {
	if n := len(Default().RuleNames()); n < 25 {
		t.Errorf("%d rules, want at least 25", n)
	}
}

// BenchmarkRedact measures redaction of ordinary Go code (net/http's
// server.go from GOROOT) and of the planted corpus.
func BenchmarkRedact(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go"))
	if err != nil {
		b.Skip("no GOROOT source")
	}
	files, _ := redacttest.Corpus()
	var corpus []string
	var corpusSize int
	for p, s := range files {
		corpus = append(corpus, p, s)
		corpusSize += len(s)
	}
	r := Default()
	b.Run("go-code", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		text := string(src)
		for i := 0; i < b.N; i++ {
			r.Text("net/http/server.go", text)
		}
	})
	b.Run("secret-corpus", func(b *testing.B) {
		b.SetBytes(int64(corpusSize))
		for i := 0; i < b.N; i++ {
			for j := 0; j < len(corpus); j += 2 {
				r.Text(corpus[j], corpus[j+1])
			}
		}
	})
}
