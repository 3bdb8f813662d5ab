// Package clientconfig writes an MCP server's entry into the configuration
// file of an agent client (Claude Code, Codex CLI, Cursor, VS Code), in
// that client's own file, format and shape. It edits what is there
// minimally: other servers, the user's other keys, their order, comments
// (VS Code's JSONC) and formatting stay as they were, and writing the
// same entry twice gives the same bytes. A file it cannot read as its
// format is refused with one sentence naming the file and line.
package clientconfig

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Clients are the clients Merge knows, in the order help lists them.
var Clients = []string{"claude", "codex", "cursor", "vscode"}

// Scopes are where an entry goes: the repository (shared with whoever
// checks it out) or the user's own configuration (every repository).
var Scopes = []string{"project", "user"}

// Entry is one stdio server as a client starts it.
type Entry struct {
	Name    string   // the server's name in the client
	Command string   // the program (an absolute path, or one on PATH)
	Args    []string // its arguments
	// Cwd is the folder the client starts the program in; "" leaves the
	// client's default. Only clients whose format has a cwd key use it.
	Cwd string
	// StartupTimeout is Codex's startup_timeout_sec, in seconds; 0 leaves
	// Codex's default (10 s). A value the user set is kept.
	StartupTimeout int
}

// Path is the file client reads for scope: top is the repository's top,
// home the user's home folder, configDir the user's configuration folder
// (os.UserConfigDir: VS Code keeps its user mcp.json in Code/User there).
func Path(client, scope, top, home, configDir string) (string, error) {
	user := scope == "user"
	if scope != "project" && !user {
		return "", fmt.Errorf("--scope %s: want project or user", scope)
	}
	switch client {
	case "claude":
		if user {
			return filepath.Join(home, ".claude.json"), nil
		}
		return filepath.Join(top, ".mcp.json"), nil
	case "codex":
		if user {
			return filepath.Join(home, ".codex", "config.toml"), nil
		}
		return filepath.Join(top, ".codex", "config.toml"), nil
	case "cursor":
		if user {
			return filepath.Join(home, ".cursor", "mcp.json"), nil
		}
		return filepath.Join(top, ".cursor", "mcp.json"), nil
	case "vscode":
		if user {
			return filepath.Join(configDir, "Code", "User", "mcp.json"), nil
		}
		return filepath.Join(top, ".vscode", "mcp.json"), nil
	}
	return "", fmt.Errorf("--client %s: want one of %s", client, strings.Join(Clients, ", "))
}

// Merge returns the file named file (whose content is old, nil or empty
// when it does not exist) with e written into it in client's shape.
func Merge(client, file string, old []byte, e Entry) ([]byte, error) {
	if e.Name == "" {
		return nil, fmt.Errorf("the server name is empty")
	}
	switch client {
	case "claude", "cursor":
		// Both read strict JSON: {"mcpServers": {NAME: {command, args}}}.
		return mergeJSON(file, old, false, "mcpServers", e.Name, []member{
			{"command", jsonString(e.Command)}, {"args", jsonStrings(e.Args)}})
	case "vscode":
		// JSONC (comments, trailing commas): {"servers": {NAME: {type,
		// command, args, cwd}}}.
		ms := []member{{"type", jsonString("stdio")}, {"command", jsonString(e.Command)}, {"args", jsonStrings(e.Args)}}
		if e.Cwd != "" {
			ms = append(ms, member{"cwd", jsonString(e.Cwd)})
		}
		return mergeJSON(file, old, true, "servers", e.Name, ms)
	case "codex":
		return mergeTOML(file, old, e)
	}
	return nil, fmt.Errorf("--client %s: want one of %s", client, strings.Join(Clients, ", "))
}

// lineOf is the 1-based line of byte offset off in b.
func lineOf(b []byte, off int) int {
	if off > len(b) {
		off = len(b)
	}
	return 1 + strings.Count(string(b[:off]), "\n")
}
