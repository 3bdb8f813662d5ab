package pack

import (
	"strings"
	"testing"
)

func TestReadRequests(t *testing.T) {
	good := `# a comment
{"id":"a-1","rev":"0123456789abcdef0123456789abcdef01234567","request":"Crash in Foo.bar","target":["a/foo.py"]}

{"id":"a-2","rev":"HEAD~1","request":"add a flag","target":["b.go","c.go"],"kind":"feature"}
`
	rs, err := ReadRequests("reqs.jsonl", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Kind != "issue" || rs[1].Kind != "feature" || len(rs[1].Target) != 2 {
		t.Fatalf("%+v", rs)
	}
	for _, c := range []struct{ in, want string }{
		{`{"id":"x","rev":"HEAD","request":"r","target":["a"]} {}`, "reqs.jsonl:1: more than one JSON value"},
		{"\n{\"id\":\"x\",\"rev\":\"HEAD\",\"request\":\"r\",\"target\":[\"a\"],\"extra\":1}", "reqs.jsonl:2: not a request object"},
		{`{"rev":"HEAD","request":"r","target":["a"]}`, `reqs.jsonl:1: the request has no "id"`},
		{`{"id":"x","rev":"--all","request":"r","target":["a"]}`, `"rev" "--all" is not a commit`},
		{`{"id":"x","rev":"HEAD","request":" ","target":["a"]}`, `"request" is empty`},
		{`{"id":"x","rev":"HEAD","request":"r","target":[]}`, `"target" lists no file`},
		{`{"id":"x","rev":"HEAD","request":"r","target":["/etc/passwd"]}`, `not a repo-relative path`},
		{`{"id":"x","rev":"HEAD","request":"r","target":["a"]}` + "\n" + `{"id":"x","rev":"HEAD","request":"r","target":["a"]}`, `reqs.jsonl:2: request id "x" is used on line 1 too`},
		{"# only a comment\n", "reqs.jsonl: no requests"},
	} {
		_, err := ReadRequests("reqs.jsonl", strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
}

// ReadRequests reads a file the user wrote.
func FuzzReadRequests(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","rev":"HEAD","request":"fix x","target":["a.go"]}`,
		"# c\n\n{\"id\":\"b\",\"rev\":\"abc1234\",\"request\":\"y\",\"target\":[\"p/q.py\"],\"kind\":\"issue\"}\n",
		`{"id":1}`, "\xff\x00", `{"id":"a","rev":"a..b","request":"r","target":["a"]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rs, err := ReadRequests("f", strings.NewReader(s))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Fatalf("error without the file's name: %v", err)
			}
			return
		}
		for _, r := range rs {
			if r.ID == "" || r.Kind == "" || len(r.Target) == 0 || strings.TrimSpace(r.Request) == "" {
				t.Fatalf("accepted %+v", r)
			}
		}
	})
}
