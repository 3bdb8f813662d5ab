package clientconfig

import (
	"encoding/json"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// FuzzMerge merges the entry into arbitrary existing files: a merge
// either refuses or gives a file its client's parser reads, holding the
// entry, and merging again gives the same bytes.
func FuzzMerge(f *testing.F) {
	for _, s := range []string{"", "{}", "{\"mcpServers\":{\"a\":{}}}", "// c\n{\"servers\":{},}", "[x]\na=1\n",
		"[mcp_servers.git-speed]\ncommand=\"y\"\n", "{\"mcpServers\": {\"git-speed\": {\"args\": [1,]}}}", "\ufeff{}", "{\"a\":\"\\u00e9\"}"} {
		for i := range Clients {
			f.Add(uint8(i), s)
		}
	}
	f.Fuzz(func(t *testing.T, ci uint8, old string) {
		client := Clients[int(ci)%len(Clients)]
		out, err := Merge(client, "f", []byte(old), entry)
		if err != nil {
			return
		}
		switch client {
		case "codex":
			var v struct {
				S map[string]struct{ Command string } `toml:"mcp_servers"`
			}
			if err := toml.Unmarshal(out, &v); err != nil || v.S["git-speed"].Command != entry.Command {
				t.Fatalf("codex: %v\n%s", err, out)
			}
		case "vscode":
			top, err := parseJSON("f", out, true)
			if err != nil || top.find("servers") == nil || top.find("servers").val.find("git-speed") == nil {
				t.Fatalf("vscode: %v\n%s", err, out)
			}
		default:
			var v struct {
				S map[string]struct{ Command string } `json:"mcpServers"`
			}
			if err := json.Unmarshal(out, &v); err != nil || v.S["git-speed"].Command != entry.Command {
				t.Fatalf("%s: %v\n%s", client, err, out)
			}
		}
		again, err := Merge(client, "f", out, entry)
		if err != nil || string(again) != string(out) {
			t.Fatalf("%s: second merge differs (%v)\n%s\n---\n%s", client, err, out, again)
		}
	})
}
