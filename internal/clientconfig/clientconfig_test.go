package clientconfig

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

var entry = Entry{Name: "git-speed", Command: "/opt/bin/git-speed", Args: []string{"mcp", "--repo", "/src/app"}, StartupTimeout: 30}

// merge merges entry into old and checks that a second merge gives the
// same bytes.
func merge(t *testing.T, client, old string) string {
	t.Helper()
	out, err := Merge(client, "f", []byte(old), entry)
	if err != nil {
		t.Fatalf("%s: %v", client, err)
	}
	again, err := Merge(client, "f", out, entry)
	if err != nil || string(again) != string(out) {
		t.Fatalf("%s: a second merge changed the file (%v):\n%s\n---\n%s", client, err, out, again)
	}
	return string(out)
}

func TestMergeJSONFresh(t *testing.T) {
	got := merge(t, "claude", "")
	want := "{\n  \"mcpServers\": {\n    \"git-speed\": {\n      \"command\": \"/opt/bin/git-speed\",\n      \"args\": [\"mcp\", \"--repo\", \"/src/app\"]\n    }\n  }\n}\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestMergeJSONKeepsOthers(t *testing.T) {
	old := "{\n\t\"theme\": \"dark\",\n\t\"mcpServers\": {\n\t\t\"other\": {\"command\": \"x\"},\n\t\t\"git-speed\": {\"command\": \"old\", \"env\": {\"A\": \"1\"}}\n\t},\n\t\"zeta\": [1, 2]\n}"
	got := merge(t, "cursor", old)
	var v struct {
		Theme      string
		Zeta       []int
		MCPServers map[string]map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Fatal(err, got)
	}
	gs := v.MCPServers["git-speed"]
	if v.Theme != "dark" || len(v.Zeta) != 2 || v.MCPServers["other"]["command"] != "x" || gs["command"] != entry.Command || gs["env"] == nil {
		t.Fatalf("lost or wrong members:\n%s", got)
	}
	if !strings.HasPrefix(got, "{\n\t\"theme\": \"dark\",\n\t\"mcpServers\": {\n\t\t\"other\": {\"command\": \"x\"},") || !strings.HasSuffix(got, "\t\"zeta\": [1, 2]\n}") {
		t.Fatalf("order or formatting changed:\n%s", got)
	}
}

func TestMergeJSONC(t *testing.T) {
	old := "// my servers\n{\n  \"servers\": {\n    /* keep */\n    \"a\": {\"type\": \"stdio\", \"command\": \"a\"}, // trailing\n  },\n  \"inputs\": [],\n}\n"
	e := entry
	e.Cwd = "${workspaceFolder}"
	out, err := Merge("vscode", "f", []byte(old), e)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, s := range []string{"// my servers", "/* keep */", "// trailing", `"type": "stdio"`, `"cwd": "${workspaceFolder}"`} {
		if !strings.Contains(got, s) {
			t.Fatalf("%q missing:\n%s", s, got)
		}
	}
	if _, err := parseJSON("f", out, true); err != nil {
		t.Fatal(err)
	}
	// Strict clients refuse comments.
	if _, err := Merge("claude", ".mcp.json", []byte(old), entry); err == nil || !strings.Contains(err.Error(), ".mcp.json line 1") {
		t.Fatalf("comment in strict JSON: %v", err)
	}
}

func TestMergeRefusals(t *testing.T) {
	for _, tt := range []struct{ client, old, want string }{
		{"claude", "{\n  \"a\": 1,\n  \"b\": \n}", "f line 4: not valid JSON"},
		{"cursor", "[1]", "f line 1: the top level is not a JSON object"},
		{"vscode", "{\"servers\": [] }", "f line 1: \"servers\" is not an object"},
		{"vscode", "{\n\n\"servers\": {\"x\": 1,,}}", "f line 3: not valid JSON with comments"},
		{"codex", "a = 1\nb = = 2\n", "f line 2: not valid TOML"},
		{"codex", "[mcp_servers]\ngit-speed = { command = \"x\" }\n", "written in a form git-speed does not edit"},
	} {
		_, err := Merge(tt.client, "f", []byte(tt.old), entry)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %q: got %v, want %q", tt.client, tt.old, err, tt.want)
		}
	}
}

func TestMergeTOML(t *testing.T) {
	old := "model = \"o3\" # mine\n\n[mcp_servers.other]\ncommand = \"x\"\n\n[mcp_servers.git-speed]\ncommand = \"old\" # was\nstartup_timeout_sec = 60\n\n[mcp_servers.git-speed.env]\nA = \"1\"\n"
	got := merge(t, "codex", old)
	var v struct {
		Model      string
		MCPServers map[string]map[string]any `toml:"mcp_servers"`
	}
	if err := toml.Unmarshal([]byte(got), &v); err != nil {
		t.Fatal(err)
	}
	gs := v.MCPServers["git-speed"]
	if v.Model != "o3" || v.MCPServers["other"]["command"] != "x" || gs["command"] != entry.Command || gs["startup_timeout_sec"] != int64(60) || gs["env"] == nil {
		t.Fatalf("wrong merge:\n%s\n%v", got, v)
	}
	if !strings.Contains(got, "model = \"o3\" # mine\n") || !strings.Contains(got, "command = \"/opt/bin/git-speed\" # was\n") {
		t.Fatalf("comments lost:\n%s", got)
	}
	fresh := merge(t, "codex", "")
	if fresh != "[mcp_servers.git-speed]\ncommand = \"/opt/bin/git-speed\"\nargs = [\"mcp\", \"--repo\", \"/src/app\"]\nstartup_timeout_sec = 30\n" {
		t.Fatalf("fresh:\n%s", fresh)
	}
}

func TestPath(t *testing.T) {
	for _, tt := range []struct{ client, scope, want string }{
		{"claude", "project", "/r/.mcp.json"}, {"claude", "user", "/h/.claude.json"},
		{"codex", "project", "/r/.codex/config.toml"}, {"codex", "user", "/h/.codex/config.toml"},
		{"cursor", "project", "/r/.cursor/mcp.json"}, {"cursor", "user", "/h/.cursor/mcp.json"},
		{"vscode", "project", "/r/.vscode/mcp.json"}, {"vscode", "user", "/c/Code/User/mcp.json"},
	} {
		if got, err := Path(tt.client, tt.scope, "/r", "/h", "/c"); err != nil || got != tt.want {
			t.Errorf("%s %s: %s %v", tt.client, tt.scope, got, err)
		}
	}
	if _, err := Path("emacs", "user", "/r", "/h", "/c"); err == nil || !strings.Contains(err.Error(), "--client emacs") {
		t.Errorf("unknown client: %v", err)
	}
}
