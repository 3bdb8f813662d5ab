package redact

import (
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/redact/redacttest"
)

// FuzzRedact: no panic; redacting twice gives what redacting once gives;
// lines are kept; a planted secret set off by a separator never survives.
func FuzzRedact(f *testing.F) {
	files, secrets := redacttest.Corpus()
	for p, s := range files {
		f.Add(p, s, uint8(0), uint8(0))
	}
	f.Add(".env", "A=\"x\ny\"\nB='", uint8(3), uint8(1))
	f.Add("x.yaml", "password: -----BEGIN PRIVATE KEY-----\\n", uint8(5), uint8(2))
	f.Add("a.go", "***REDACTED(x)*** password=\"", uint8(7), uint8(3))
	seps := []string{" ", "\n", "\"", "'", "=", ": ", "(", "\t", ",", "`"}
	f.Fuzz(func(t *testing.T, p, text string, which, sep uint8) {
		r := Default()
		once, _ := r.Text(p, text)
		twice, _ := r.Text(p, once)
		if once != twice {
			t.Fatalf("not idempotent:\n%q\n%q\n%q", text, once, twice)
		}
		if strings.Count(once, "\n") != strings.Count(text, "\n") {
			t.Fatalf("lines changed: %q → %q", text, once)
		}
		s := secrets[int(which)%len(secrets)]
		if !plantable(s) {
			return
		}
		sp := seps[int(sep)%len(seps)]
		ctx := plantContext(s)
		if ctx != "" {
			// An assignment's value is set off by blanks or quotes.
			sp = []string{" ", "\"", "'", "\t"}[int(sep)%4]
			switch s.Kind {
			case "bearer-token":
				sp = " "
			case "azure-storage-key":
				sp = "="
			}
		}
		if ctx != "" && (sp == " " || sp == "\t") && s.Kind != "bearer-token" &&
			KindOf(p) == KindCode && !tokenLike(s.Value) {
			return // in code an unquoted value is an expression, by design
		}
		planted := text + "\n" + ctx + sp + s.Value + sp + "\n" + text
		out, _ := r.Text(p, planted)
		if strings.Contains(out, s.Needle) && !r.Allowed(p) && !strings.Contains(text, s.Needle) {
			t.Fatalf("%s survived in %q:\n%q", s.Kind, planted, out)
		}
	})
}

// plantable tells the secrets that stand alone: those found only by their
// key or file need their context, given by plantContext.
func plantable(s redacttest.Secret) bool {
	return !s.Contextual && s.Kind != "env-value" && s.Kind != "env-value-staging" && s.Kind != "env-value-prod" &&
		s.Kind != "env-database-url" && !strings.HasPrefix(s.Kind, "private-key") && s.Kind != "gcp-service-account-key"
}

func plantContext(s redacttest.Secret) string {
	switch s.Kind {
	case "aws-secret-access-key":
		return "aws_secret_access_key ="
	case "password-assignment", "password-yaml", "password-ini", "password-notebook":
		return "password ="
	case "secret-assignment":
		return "secret_key ="
	case "heroku-api-key":
		return "heroku_api_key ="
	case "bearer-token":
		return "Authorization: Bearer"
	case "azure-storage-key":
		return "DefaultEndpointsProtocol=https;AccountName=x;AccountKey"
	}
	return ""
}

// FuzzNear: a rule's near check is a necessary condition of its pattern:
// wherever the pattern matches, near holds at the keyword the match holds,
// so skipping the lines where near fails loses no secret.
func FuzzNear(f *testing.F) {
	files, _ := redacttest.Corpus()
	for _, s := range files {
		f.Add(s)
	}
	f.Add("x postgres://user:Zq9wLm2Kx7Pd@db.internal/app y")
	f.Add("mysql://a:b@c https://h/x?u=a:b@c redis://:p4ssw0rd1@r:6379 amqp://u:p\tw@h")
	f.Add("dsn: app:Zq9wLm2Kx7Pd@tcp(db:3306)/shop x '@/components' a:@unix(/s)/d u:p@/db")
	f.Add("dor_v1_" + strings.Repeat("0a1b", 16) + " " + strings.Repeat("c3", 16) + "-us12 Convert_v1_Pod")
	f.Add("CREATE USER 'a'@'%' Identified\tWITH plug BY 'secret99' by 'x'")
	f.Add(`get(u, auth=("api", "pw99")) r.SetBasicAuth("u", "pw99") s.login("u", "pw99") plugin("a", "b")`)
	f.Fuzz(func(t *testing.T, text string) {
		for _, r := range builtin() {
			if r.near == nil {
				continue
			}
			if r.read != nil {
				// Where near fails, reading the text finds nothing.
				for _, k := range r.keywords {
					for at := 0; ; {
						i := strings.Index(text[at:], k)
						if i < 0 {
							break
						}
						if pos := at + i; !r.near(text, pos) {
							sc := scan{text: text}
							r.read(&sc, pos)
							if len(sc.spans) > 0 {
								t.Fatalf("%s finds %q at %d in %q but near fails there", r.name, text[sc.spans[0].start:sc.spans[0].end], pos, text)
							}
						}
						at += i + 1
					}
				}
				continue
			}
			for _, m := range r.re.FindAllStringIndex(text, -1) {
				found := false
				for _, k := range r.keywords {
					for at := m[0]; at < m[1]; {
						i := strings.Index(text[at:m[1]], k)
						if i < 0 {
							break
						}
						if r.near(text, at+i) {
							found = true
						}
						at += i + 1
					}
				}
				if !found {
					t.Fatalf("%s matches %q in %q but near holds at none of its keywords", r.name, text[m[0]:m[1]], text)
				}
			}
		}
	})
}
