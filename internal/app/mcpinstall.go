package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/clientconfig"
	"github.com/git-speed/git-speed/internal/redact"
)

// MCPInstallRequest registers `git speed mcp` with an agent client.
type MCPInstallRequest struct {
	Client string // claude, codex, cursor or vscode
	Scope  string // project (the default) or user
	Name   string // the server's name in the client; "" is git-speed
	// Worktree carries --worktree into the server's arguments.
	Worktree bool
	// Print returns the entry, in the client's shape, without writing.
	Print bool
	// Dir is a folder in the repository (project scope); "" is the
	// current folder.
	Dir string
	// Executable is the program the client starts; "" is this process's
	// own (os.Executable), so the client needs nothing on its PATH.
	Executable string
	// Home and ConfigDir are the user's folders; "" is os.UserHomeDir
	// and os.UserConfigDir.
	Home, ConfigDir string
}

// MCPInstallResult says what was (or would be) written where.
type MCPInstallResult struct {
	File    string // the client's file
	Content string // with Print: the entry alone in the client's shape; else the file as written
	Changed bool   // the file's bytes changed
	Entry   clientconfig.Entry
}

// codexStartup is startup_timeout_sec written for Codex (its default is
// 10 s): the server answers initialize before any indexing, but a cold
// start of a large binary on a busy machine should not fail the client.
const codexStartup = 30

// MCPInstall writes the server's entry into the client's file for the
// scope, merged with what the file holds (other servers and keys are
// kept; writing it twice gives the same bytes). A file that does not
// parse is refused with a sentence naming it and its line, and left as it
// was.
func MCPInstall(ctx context.Context, req MCPInstallRequest) (*MCPInstallResult, error) {
	if req.Scope == "" {
		req.Scope = "project"
	}
	if req.Name == "" {
		req.Name = "git-speed"
	}
	if req.Client == "" {
		return nil, Usagef("--client is required: one of claude, codex, cursor, vscode")
	}
	exe := req.Executable
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("the path of git-speed itself: %w", err)
		}
	}
	home, cfgDir := req.Home, req.ConfigDir
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if cfgDir == "" {
		cfgDir, _ = os.UserConfigDir()
	}
	top := ""
	if req.Scope == "project" {
		dir := req.Dir
		if dir == "" {
			dir = "."
		}
		repo, err := gitstore.Open(dir)
		if err != nil {
			return nil, err
		}
		if top = repo.WorkTree(); top == "" {
			return nil, Usagef("--scope project needs a work tree; this repository is bare")
		}
	} else if req.Scope == "user" && home == "" {
		return nil, fmt.Errorf("the home folder is unknown (HOME is not set)")
	}
	if _, err := clientconfig.Path(req.Client, req.Scope, "/", "/", "/"); err != nil {
		return nil, Usagef("%v", err)
	}
	file, _ := clientconfig.Path(req.Client, req.Scope, top, home, cfgDir)

	e := clientconfig.Entry{Name: req.Name, Command: exe, Args: []string{"mcp"}}
	if req.Worktree {
		e.Args = append(e.Args, "--worktree")
	}
	switch {
	case req.Client == "vscode":
		// VS Code starts a server where cwd says; ${workspaceFolder} is
		// the folder it has open, for either scope.
		e.Cwd = "${workspaceFolder}"
	case req.Scope == "project":
		// The others start it in their own folder; a project entry names
		// its repository, so it serves it wherever the client runs.
		e.Args = append(e.Args, "--repo", top)
	}
	if req.Client == "codex" {
		e.StartupTimeout = codexStartup
	}

	if req.Print {
		out, err := clientconfig.Merge(req.Client, file, nil, e)
		if err != nil {
			return nil, err
		}
		text, _ := redact.Default().Text(file, string(out))
		return &MCPInstallResult{File: file, Content: text, Entry: e}, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	old, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	out, err := clientconfig.Merge(req.Client, file, old, e)
	if err != nil {
		return nil, Usagef("%v", err)
	}
	res := &MCPInstallResult{File: file, Content: string(out), Changed: string(out) != string(old), Entry: e}
	if !res.Changed {
		return res, nil
	}
	return res, writeKeepingMode(file, out)
}

// writeKeepingMode replaces file with b through a temporary file in its
// folder, keeping the old file's permissions (0600 for a new one: client
// files may hold other servers' tokens).
func writeKeepingMode(file string, b []byte) error {
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(file); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}
