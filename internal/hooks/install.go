package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Options control Install and Uninstall.
type Options struct {
	// Force lets Install move aside a hook it can neither recognise nor
	// chain (a directory, an unreadable file) and replace a script written
	// by a newer git-speed. Nothing is ever deleted: a moved hook becomes
	// <name>.pre-speed and Uninstall puts it back.
	Force bool
	// Git is the git binary; "git" (found on PATH) when empty.
	Git string
}

// Action says what Install or Uninstall did to one hook.
type Action string

const (
	Installed Action = "installed" // no hook was there; ours was written
	Chained   Action = "chained"   // the user's hook became <name>.pre-speed; ours was written
	Upgraded  Action = "upgraded"  // an older script of ours was rewritten
	Unchanged Action = "unchanged" // ours, current version, byte-identical (or newer and not forced)
	Removed   Action = "removed"   // ours was removed; nothing was chained
	Restored  Action = "restored"  // ours was removed and <name>.pre-speed renamed back
	Absent    Action = "absent"    // neither ours nor a chained hook was there
	Foreign   Action = "foreign"   // not ours; left untouched by Uninstall
)

// HookResult is the outcome for one hook.
type HookResult struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	Action Action `json:"action"`
	// Chained is the path of the user's hook that ours runs first, if any.
	Chained string `json:"chained,omitempty"`
}

// Report is what Install and Uninstall did, hook by hook in Names order.
type Report struct {
	HooksDir string       `json:"hooks_dir"`
	Hooks    []HookResult `json:"hooks"`
	// Notes are warnings meant for the user, e.g. that husky rewrites the directory.
	Notes []string `json:"notes,omitempty"`
}

// State is the state of one hook as seen by Status.
type State string

const (
	StateMissing   State = "missing"   // no hook file
	StateInstalled State = "installed" // ours, current version
	StateOutdated  State = "outdated"  // ours, older version: run install again
	StateNewer     State = "newer"     // ours, written by a newer git-speed
	StateForeign   State = "foreign"   // somebody else's hook; ours is not installed
)

// HookState describes one hook for Status.
type HookState struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	State   State  `json:"state"`
	Version int    `json:"version,omitempty"` // our marker version when State is ours
	// Chained is the path of <name>.pre-speed when it exists.
	Chained string `json:"chained,omitempty"`
	// Executable is false when the hook file exists but git would not run it.
	Executable bool `json:"executable"`
}

// HooksDir returns the directory git runs hooks from for the repository
// containing dir: core.hooksPath when set (relative to the work tree top),
// otherwise the hooks folder of the common git dir, which linked worktrees
// share. It asks git itself (`git rev-parse --git-path hooks`).
func HooksDir(dir string, opts Options) (string, error) {
	out, err := gitOutput(context.Background(), opts.Git, dir, "rev-parse", "--git-path", "hooks")
	if err != nil {
		return "", err
	}
	p := strings.TrimRight(out, "\r\n")
	if p == "" {
		return "", fmt.Errorf("git-speed: git rev-parse --git-path hooks printed nothing in %s", dir)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("git-speed: hooks directory %s: %w", p, err)
	}
	return abs, nil
}

// Install writes our post-checkout and post-merge scripts into the hooks
// directory of the repository containing dir (any folder inside a work tree,
// or a git dir), chaining any hook already there. Running it twice changes
// nothing the second time. On error, hooks already handled stay installed and
// the report says which; the error names the file at fault.
func Install(dir string, opts Options) (Report, error) {
	hooksDir, err := HooksDir(dir, opts)
	if err != nil {
		return Report{}, err
	}
	rep := Report{HooksDir: hooksDir, Notes: huskyNotes(hooksDir)}
	if err := os.MkdirAll(hooksDir, 0o755); err != nil {
		return rep, fmt.Errorf("git-speed: cannot create hooks directory %s: %w", hooksDir, err)
	}
	for _, name := range Names {
		res, err := installOne(hooksDir, name, opts)
		if err != nil {
			return rep, err
		}
		rep.Hooks = append(rep.Hooks, res)
	}
	return rep, nil
}

func installOne(hooksDir, name string, opts Options) (HookResult, error) {
	path := filepath.Join(hooksDir, name)
	chained := path + ChainSuffix
	res := HookResult{Name: name, Path: path}
	want := Script(name)

	chainedExists := exists(chained)
	if chainedExists {
		res.Chained = chained
	}

	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		res.Action = Installed
		return res, writeScript(path, want)
	case err != nil:
		return res, fmt.Errorf("git-speed: cannot inspect hook %s: %w", path, err)
	}

	// A regular file we can read: ours (any version) or the user's.
	if fi.Mode().IsRegular() {
		content, rerr := os.ReadFile(path)
		if rerr == nil {
			if v, ours := ParseMarker(content); ours {
				switch {
				case v == Version && bytes.Equal(content, want):
					res.Action = Unchanged
					if fi.Mode().Perm()&0o111 != 0o111 {
						if err := os.Chmod(path, 0o755); err != nil {
							return res, fmt.Errorf("git-speed: cannot make hook %s executable: %w", path, err)
						}
						res.Action = Upgraded
					}
					return res, nil
				case v > Version && !opts.Force:
					res.Action = Unchanged
					return res, nil
				}
				res.Action = Upgraded
				return res, writeScript(path, want)
			}
			return chainAndWrite(res, path, chained, chainedExists, want)
		}
		if !opts.Force {
			return res, fmt.Errorf("git-speed: hook %s is not readable, so it cannot be recognised or chained (%v)\n\tto move it to %s and install anyway, run: git speed hooks install --force", path, rerr, filepath.Base(chained))
		}
		return chainAndWrite(res, path, chained, chainedExists, want)
	}

	// A symlink is chained as a link: renaming it within the same folder keeps
	// its target, relative or not.
	if fi.Mode()&fs.ModeSymlink != 0 {
		return chainAndWrite(res, path, chained, chainedExists, want)
	}

	// A directory, fifo, socket…: git cannot run it, we cannot chain it.
	if !opts.Force {
		return res, fmt.Errorf("git-speed: hook %s is a %s, not a file git-speed can chain\n\tto move it to %s and install anyway, run: git speed hooks install --force", path, kindOf(fi), filepath.Base(chained))
	}
	return chainAndWrite(res, path, chained, chainedExists, want)
}

// chainAndWrite moves the user's hook at path to chained and writes ours.
// It refuses when chained already exists: one of the two user hooks would
// be lost.
func chainAndWrite(res HookResult, path, chained string, chainedExists bool, want []byte) (HookResult, error) {
	if chainedExists {
		return res, fmt.Errorf("git-speed: cannot chain hook %s: %s already exists (a hook installed over ours?)\n\tmerge the two into one file, remove the other, then run: git speed hooks install", path, chained)
	}
	tmp, err := writeTemp(path, want)
	if err != nil {
		return res, err
	}
	if err := os.Rename(path, chained); err != nil {
		os.Remove(tmp)
		return res, fmt.Errorf("git-speed: cannot move hook %s to %s: %w", path, chained, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		if rerr := os.Rename(chained, path); rerr != nil {
			return res, fmt.Errorf("git-speed: cannot write hook %s: %w; your hook is now %s (moving it back failed: %v)", path, err, chained, rerr)
		}
		return res, fmt.Errorf("git-speed: cannot write hook %s: %w", path, err)
	}
	res.Action = Chained
	res.Chained = chained
	return res, nil
}

// Uninstall removes our scripts from the hooks directory of the repository
// containing dir and renames any chained hook back to its own name. Hooks
// that are not ours are left untouched (Foreign).
func Uninstall(dir string, opts Options) (Report, error) {
	hooksDir, err := HooksDir(dir, opts)
	if err != nil {
		return Report{}, err
	}
	rep := Report{HooksDir: hooksDir}
	for _, name := range Names {
		res, err := uninstallOne(hooksDir, name)
		if err != nil {
			return rep, err
		}
		rep.Hooks = append(rep.Hooks, res)
	}
	return rep, nil
}

func uninstallOne(hooksDir, name string) (HookResult, error) {
	path := filepath.Join(hooksDir, name)
	chained := path + ChainSuffix
	res := HookResult{Name: name, Path: path}

	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// Ours was deleted by hand: still give the user their hook back.
		if exists(chained) {
			if err := os.Rename(chained, path); err != nil {
				return res, fmt.Errorf("git-speed: cannot restore hook %s from %s: %w", path, chained, err)
			}
			res.Action = Restored
			return res, nil
		}
		res.Action = Absent
		return res, nil
	case err != nil:
		return res, fmt.Errorf("git-speed: cannot inspect hook %s: %w", path, err)
	}
	if !isOurs(path, fi) {
		res.Action = Foreign
		if exists(chained) {
			res.Chained = chained
		}
		return res, nil
	}
	if cfi, err := os.Lstat(chained); err == nil {
		// Rename over ours, so the hook name is never left empty; a
		// directory cannot replace a file, so ours goes first then.
		if cfi.IsDir() {
			if err := os.Remove(path); err != nil {
				return res, fmt.Errorf("git-speed: cannot remove hook %s: %w", path, err)
			}
		}
		if err := os.Rename(chained, path); err != nil {
			return res, fmt.Errorf("git-speed: cannot restore hook %s from %s: %w", path, chained, err)
		}
		res.Action = Restored
		return res, nil
	}
	if err := os.Remove(path); err != nil {
		return res, fmt.Errorf("git-speed: cannot remove hook %s: %w", path, err)
	}
	res.Action = Removed
	return res, nil
}

// Status reports, for each of Names, what is installed in the hooks
// directory of the repository containing dir.
func Status(dir string, opts Options) ([]HookState, error) {
	hooksDir, err := HooksDir(dir, opts)
	if err != nil {
		return nil, err
	}
	var states []HookState
	for _, name := range Names {
		path := filepath.Join(hooksDir, name)
		st := HookState{Name: name, Path: path}
		if exists(path + ChainSuffix) {
			st.Chained = path + ChainSuffix
		}
		fi, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			st.State = StateMissing
			states = append(states, st)
			continue
		case err != nil:
			return nil, fmt.Errorf("git-speed: cannot inspect hook %s: %w", path, err)
		}
		if sfi, err := os.Stat(path); err == nil {
			st.Executable = sfi.Mode().IsRegular() && sfi.Mode().Perm()&0o111 != 0
		}
		st.State = StateForeign
		if fi.Mode().IsRegular() {
			if content, err := os.ReadFile(path); err == nil {
				if v, ours := ParseMarker(content); ours {
					st.Version = v
					switch {
					case v < Version || (v == Version && !bytes.Equal(content, Script(name))):
						st.State = StateOutdated
					case v > Version:
						st.State = StateNewer
					default:
						st.State = StateInstalled
					}
				}
			}
		}
		states = append(states, st)
	}
	return states, nil
}

func isOurs(path string, fi fs.FileInfo) bool {
	if !fi.Mode().IsRegular() {
		return false
	}
	content, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	_, ours := ParseMarker(content)
	return ours
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func kindOf(fi fs.FileInfo) string {
	switch m := fi.Mode(); {
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	default:
		return "special file"
	}
}

// writeScript replaces path with content atomically (temp file + rename).
func writeScript(path string, content []byte) error {
	tmp, err := writeTemp(path, content)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("git-speed: cannot write hook %s: %w", path, err)
	}
	return nil
}

// writeTemp writes content, mode 0755, to a new file next to path and
// returns its name.
func writeTemp(path string, content []byte) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".speed-*")
	if err != nil {
		return "", fmt.Errorf("git-speed: cannot write hook %s: %w", path, err)
	}
	tmp := f.Name()
	_, werr := f.Write(content)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o755)
	}
	if werr != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("git-speed: cannot write hook %s: %w", path, werr)
	}
	return tmp, nil
}

// huskyNotes warns when the hooks directory is one husky regenerates.
func huskyNotes(hooksDir string) []string {
	if filepath.Base(hooksDir) == "_" && filepath.Base(filepath.Dir(hooksDir)) == ".husky" {
		return []string{"husky rewrites " + hooksDir + " when it installs (npm install); run `git speed hooks install` again afterwards"}
	}
	return nil
}

// gitOutput runs git with dir as its working directory and returns stdout.
// Errors carry git's own message.
func gitOutput(ctx context.Context, git, dir string, args ...string) (string, error) {
	if git == "" {
		git = "git"
	}
	cmd := exec.CommandContext(ctx, git, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git-speed: git %s in %s: %s", strings.Join(args, " "), dir, msg)
	}
	return stdout.String(), nil
}
