package app

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/redact"
	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/scope"
	"github.com/git-speed/git-speed/layers/world/build"
)

// Options say how a Session is opened.
type Options struct {
	// Dir is a folder inside the repository; "" is the current folder.
	Dir string
	// SpeedDir is the folder of features and template overrides, relative
	// to the top of the work tree; "" is .speed.
	SpeedDir string
	// OneShot says the process serves this one call and exits (the command
	// line): operations may then set the collector and the memory limit
	// for themselves. A long-lived server leaves them as they are.
	OneShot bool
	// Worktree makes the work tree as it is now the default tree of the
	// calls that read an index (the server's --worktree).
	Worktree bool
}

// Session is one repository opened for git-speed's operations. Its
// methods are safe for concurrent use.
type Session struct {
	repo *gitstore.Repo
	top  string // top of the work tree; "" in a bare repository
	cfg  config.Config
	// cfgRaw is speed.toml as read (nil when absent).
	cfgRaw []byte
	// speedDir is the folder of features and templates, relative to top,
	// as a slash path.
	speedDir string
	oneShot  bool
	worktree bool

	// counts are the exact token counts of blobs, read once from the
	// cache folder (counts.go).
	counts     *scope.Counts
	countsOnce sync.Once

	// startMu makes session_event's "start a session when none is
	// current" one step: calls may arrive at once.
	startMu sync.Mutex
	// snapMu serialises writing the work tree as a tree: the snapshot
	// goes through one private index file.
	snapMu sync.Mutex
	// indexing holds the trees being indexed now, so that calls asking
	// for the same tree at once wait for one build (index.go).
	indexMu  sync.Mutex
	indexing map[string]*indexFlight

	// warm keeps the worlds a long-lived session opened, by tree
	// (world.go).
	warmMu sync.Mutex
	warm   []*warmWorld

	// reads keeps the texts read returned last (readcache.go).
	reads readCache
}

// Open opens the repository that holds opt.Dir, its speed.toml and its
// folder of features.
func Open(opt Options) (*Session, error) {
	dir := opt.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		dir = wd
	}
	repo, err := gitstore.Open(dir)
	if err != nil {
		return nil, err
	}
	s := &Session{repo: repo, top: repo.WorkTree(), oneShot: opt.OneShot, worktree: opt.Worktree, counts: scope.NewCounts()}
	speedDir := opt.SpeedDir
	if speedDir == "" {
		speedDir = ".speed"
	}
	s.speedDir = filepath.ToSlash(filepath.Clean(speedDir))
	if s.speedDir == "" || filepath.IsAbs(s.speedDir) || s.speedDir == ".." || strings.HasPrefix(s.speedDir, "../") {
		return nil, Usagef("--speed-dir %s: must be a folder inside the work tree, relative to its top", speedDir)
	}
	s.cfg = config.Default()
	if s.top != "" {
		file := filepath.Join(s.top, config.FileName)
		raw, err := os.ReadFile(file)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			s.cfgRaw = raw
			if s.cfg, err = config.Parse(config.FileName, raw); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// Close releases the worlds the session keeps open.
func (s *Session) Close() error {
	s.warmMu.Lock()
	defer s.warmMu.Unlock()
	for _, w := range s.warm {
		w.retire()
	}
	s.warm = nil
	return nil
}

// Top is the top of the work tree; "" in a bare repository.
func (s *Session) Top() string { return s.top }

// Config is the session's speed.toml, with defaults for what it leaves out.
func (s *Session) Config() config.Config { return s.cfg }

// SpeedDir is the folder of features and templates, relative to the top.
func (s *Session) SpeedDir() string { return s.speedDir }

// Repo is the session's repository.
func (s *Session) Repo() *gitstore.Repo { return s.repo }

// counter returns the token counter speed.toml chooses.
func (s *Session) counter() (tokens.Counter, error) { return tokens.New(s.cfg.Tokens.Tokenizer) }

// redact passes text (the content of file p, "" when none) through the
// redaction layer speed.toml configures.
func (s *Session) redact(p, text string) (string, error) {
	r, err := s.cfg.Redactor()
	if err != nil {
		return "", err
	}
	out, _ := r.Text(p, text)
	return out, nil
}

// Redact passes text through the redaction layer speed.toml configures:
// the last pass of whatever a front end sends out.
func (s *Session) Redact(text string) (string, error) { return s.redact("", text) }

// redactAll passes every string reachable from v (a pointer) through the
// redaction layer in place: results assembled from texts read outside the
// index (instruction files, session events, memories) before they leave.
func (s *Session) redactAll(v any) error {
	r, err := s.cfg.Redactor()
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

// EncodeJSON writes v as indented JSON, the form every --json output and
// every JSON tool result takes.
func EncodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// collectRarely sets the collector for a one-shot run that keeps most of
// what it allocates (build.CollectRarely); a long-lived session leaves it.
func (s *Session) collectRarely() (restore func()) {
	if !s.oneShot {
		return func() {}
	}
	return build.CollectRarely()
}

// collectLess makes a one-shot run collect at 400 % heap growth instead
// of 100 (a pack, a context's map: a small heap that lives to the end);
// a long-lived session leaves it.
func (s *Session) collectLess() (restore func()) {
	if !s.oneShot {
		return func() {}
	}
	prev := debug.SetGCPercent(400)
	return func() { debug.SetGCPercent(prev) }
}

// agentDir is <git-common-dir>/speed/NAME: local to the clone, never in
// the work tree or refs.
func (s *Session) agentDir(name string) string {
	return filepath.Join(s.repo.CommonDir(), "speed", name)
}

// featureDir is where feature F lives, relative to the work tree top.
func (s *Session) featureDir(name string) string { return path.Join(s.speedDir, "features", name) }

// ContextDir is the Layer 2/3 artifact folder of task T of feature F,
// relative to the work tree top.
func (s *Session) ContextDir(featureName, task string) string {
	return path.Join(s.featureDir(featureName), "context", "task-"+task)
}

// RepoPath turns a path given on a command line (relative to the current
// folder, or absolute) into a slash path relative to the work tree top.
func (s *Session) RepoPath(arg string) (string, error) {
	if s.top == "" {
		return filepath.ToSlash(filepath.Clean(arg)), nil
	}
	abs := arg
	if !filepath.IsAbs(abs) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		abs = filepath.Join(wd, arg)
	}
	top := s.top
	if t, err := filepath.EvalSymlinks(top); err == nil {
		top = t
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(d, filepath.Base(abs))
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", Usagef("%s is outside the repository", arg)
	}
	return filepath.ToSlash(rel), nil
}

// RepoPaths turns --file arguments into repository paths; a file outside
// the repository (an agent reads those too) keeps its absolute path.
func (s *Session) RepoPaths(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		p, err := s.RepoPath(a)
		if err != nil {
			abs, aerr := filepath.Abs(a)
			if aerr != nil {
				return nil, Usagef("--file %s: %v", a, err)
			}
			p = filepath.ToSlash(abs)
		}
		out = append(out, p)
	}
	return out, nil
}

// RepoRel checks a path given in a request: relative to the repository's
// top, slash-separated, inside it.
func RepoRel(p string) (string, error) {
	c := path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if p == "" || path.IsAbs(c) || c == ".." || strings.HasPrefix(c, "../") {
		return "", Usagef("%s is outside the repository (give a path relative to its top)", p)
	}
	return c, nil
}

// fileOf is the file a repository path (or an absolute path outside the
// repository) names on this machine.
func (s *Session) fileOf(p string) string {
	if filepath.IsAbs(p) || s.top == "" {
		return filepath.FromSlash(p)
	}
	return filepath.Join(s.top, filepath.FromSlash(p))
}
