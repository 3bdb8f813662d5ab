// Package goinstall writes file-based Go module proxies: the layout
// GOPROXY=file://DIR reads (DIR/<escaped path>/@v/<version>.info, .mod,
// .zip), filled from a checkout of this module at a pseudo-version and
// from modules already in the local module cache. With it, `go install
// MODULE/cmd/git-speed@VERSION` can be tried as a user would run it, from
// a clean module cache and with no network (its test does).
package goinstall

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// Download is one module as `go mod download -json` prints it: where its
// .info, .mod and .zip files are in the module cache (Info and Zip are
// empty for a module whose go.mod alone was needed).
type Download struct {
	Path    string
	Version string
	Info    string
	GoMod   string
	Zip     string
	Error   string
}

// ReadDownloads decodes the stream of JSON objects `go mod download -json`
// prints; a module it could not download is an error naming it.
func ReadDownloads(r io.Reader) ([]Download, error) {
	dec := json.NewDecoder(r)
	var out []Download
	for {
		var d Download
		if err := dec.Decode(&d); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("go mod download -json: %w", err)
		}
		if d.Error != "" {
			return nil, fmt.Errorf("go mod download: %s@%s: %s", d.Path, d.Version, d.Error)
		}
		out = append(out, d)
	}
}

// versionDir is DIR/<escaped path>/@v for module path.
func versionDir(dir, path string) (string, error) {
	esc, err := module.EscapePath(path)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.FromSlash(esc), "@v"), nil
}

// Add puts d's files into the proxy at dir, hard-linked when the file
// system allows and copied otherwise.
func Add(dir string, d Download) error {
	vd, err := versionDir(dir, d.Path)
	if err != nil {
		return err
	}
	ver, err := module.EscapeVersion(d.Version)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(vd, 0o755); err != nil {
		return err
	}
	for ext, src := range map[string]string{".info": d.Info, ".mod": d.GoMod, ".zip": d.Zip} {
		if src == "" {
			continue
		}
		if err := linkOrCopy(src, filepath.Join(vd, ver+ext)); err != nil {
			return fmt.Errorf("%s@%s: %w", d.Path, d.Version, err)
		}
	}
	return list(vd, d.Version)
}

// list adds version to the module's @v/list (the versions the proxy
// serves, one a line), which the go command reads for a module's
// deprecation and latest version.
func list(vd, version string) error {
	p := filepath.Join(vd, "list")
	old, err := os.ReadFile(p)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for _, v := range strings.Fields(string(old)) {
		if v == version {
			return nil
		}
	}
	return os.WriteFile(p, append(old, version+"\n"...), 0o644)
}

func linkOrCopy(src, dst string) error {
	if err := os.Link(src, dst); err == nil || errors.Is(err, os.ErrExist) {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// PseudoVersion is the version the go command gives commit rev made at t
// with no tag before it: v0.0.0-YYYYMMDDhhmmss-<first 12 hex of rev>.
func PseudoVersion(t time.Time, rev string) string {
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return module.PseudoVersion("", "", t, rev)
}

// AddCheckout puts the module at root (whose go.mod declares path) into
// the proxy at dir as version, made at t: its .info, its go.mod, and a zip
// of files (slash-separated paths relative to root, such as `git ls-files`
// lists; files absent from disk are skipped).
func AddCheckout(dir, path, version, root string, files []string, t time.Time) error {
	vd, err := versionDir(dir, path)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(vd, 0o755); err != nil {
		return err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, t.UTC()})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(vd, version+".info"), info, 0o644); err != nil {
		return err
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(vd, version+".mod"), gomod, 0o644); err != nil {
		return err
	}
	var zf []modzip.File
	for _, f := range files {
		full := filepath.Join(root, filepath.FromSlash(f))
		if fi, err := os.Lstat(full); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		zf = append(zf, diskFile{path: f, full: full})
	}
	out, err := os.Create(filepath.Join(vd, version+".zip"))
	if err != nil {
		return err
	}
	if err := modzip.Create(out, module.Version{Path: path, Version: version}, zf); err != nil {
		out.Close()
		return fmt.Errorf("zip of %s: %w", root, err)
	}
	if err := out.Close(); err != nil {
		return err
	}
	return list(vd, version)
}

// diskFile is a file of the checkout as module zips take it.
type diskFile struct{ path, full string }

func (f diskFile) Path() string                 { return f.path }
func (f diskFile) Lstat() (os.FileInfo, error)  { return os.Lstat(f.full) }
func (f diskFile) Open() (io.ReadCloser, error) { return os.Open(f.full) }
