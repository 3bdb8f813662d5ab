package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/redact"
)

// env is what every command that works on a repository starts from.
type env struct {
	repo   *gitstore.Repo
	top    string // top of the work tree; "" in a bare repository
	cfg    config.Config
	cfgRaw []byte // speed.toml as read (nil when absent)
	// speedDir is the folder of features and templates, relative to top
	// (--speed-dir, default .speed), as a slash path.
	speedDir string
	stdout   io.Writer
	stderr   io.Writer
	warned   map[string]bool // warnings already printed
	// focusTask is the task a command is about: loadFeature leaves its
	// problems for the command's error rather than warning about them.
	focusTask string
	// kept, when set, waits for a spec alignment being stored beside the
	// writing of a scope's artifacts (keepAlignment, waitKept).
	kept func()
}

func openEnv(c *cli.Context) (*env, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	repo, err := gitstore.Open(wd)
	if err != nil {
		return nil, err
	}
	e := &env{repo: repo, top: repo.WorkTree(), stdout: c.App.Writer, stderr: c.App.ErrWriter}
	e.speedDir = filepath.ToSlash(filepath.Clean(c.String("speed-dir")))
	if e.speedDir == "" || filepath.IsAbs(e.speedDir) || e.speedDir == ".." || strings.HasPrefix(e.speedDir, "../") {
		return nil, usagef("--speed-dir %s: must be a folder inside the work tree, relative to its top", c.String("speed-dir"))
	}
	e.cfg = config.Default()
	if e.top != "" {
		file := filepath.Join(e.top, config.FileName)
		raw, err := os.ReadFile(file)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			e.cfgRaw = raw
			if e.cfg, err = config.Parse(config.FileName, raw); err != nil {
				return nil, err
			}
		}
	}
	return e, nil
}

func isConfigError(err error) bool {
	var ce *config.Error
	return errors.As(err, &ce)
}

// warnf prints one warning line on stderr.
// The same warning is printed once per run.
func (e *env) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if e.warned[msg] {
		return
	}
	if e.warned == nil {
		e.warned = map[string]bool{}
	}
	e.warned[msg] = true
	fmt.Fprintf(e.stderr, "git-speed: warning: %s\n", msg)
}

// printJSON writes v as indented JSON on stdout.
// redact passes text (the content of file p, "" when none) through the
// redaction layer speed.toml configures.
func (e *env) redact(p, text string) (string, error) {
	r, err := e.cfg.Redactor()
	if err != nil {
		return "", err
	}
	out, _ := r.Text(p, text)
	return out, nil
}

// redactAll passes every string reachable from v (a pointer) through the
// redaction layer in place: results assembled from texts read outside the
// index (instruction files, session events, memories) before they print.
func (e *env) redactAll(v any) error {
	r, err := e.cfg.Redactor()
	if err != nil {
		return err
	}
	redactValue(r, reflect.ValueOf(v))
	return nil
}

func redactValue(r *redact.Redactor, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			redactValue(r, v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				redactValue(r, v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			redactValue(r, v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			x := reflect.New(v.Type().Elem()).Elem()
			x.Set(v.MapIndex(k))
			redactValue(r, x)
			v.SetMapIndex(k, x)
		}
	case reflect.String:
		if v.CanSet() {
			out, _ := r.Text("", v.String())
			v.SetString(out)
		}
	}
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// isTerminal reports whether w is a terminal, for progress output.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func versionString() string {
	v := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	return v
}

func readAll(r io.Reader) ([]byte, error) { return io.ReadAll(r) }
