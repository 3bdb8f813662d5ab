package app

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"

	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/scope"
	"github.com/git-speed/git-speed/layers/world/align"
)

// safeScope is scope.Scope with a panic turned into an error, so that a
// bug in scoping one task is a failure of that task, not of the program.
func safeScope(w scope.World, f *feature.Feature, task string, opt scope.Options) (res *scope.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			if os.Getenv("GIT_SPEED_TRACE") != "" {
				os.Stderr.Write(debug.Stack())
			}
			res, err = nil, fmt.Errorf("internal error while scoping task %s: %v", task, r)
		}
	}()
	return scope.Scope(w, f, task, opt)
}

// fallbackInputs are what a task's prompt can be rendered from when its
// context could not be built: the feature as far as it loads (at least the
// task's own file), the files the task touches read from the revision's
// tree (from the work tree when git cannot give them), and an empty
// alignment. why is the failure, stated in the prompt and its report.
func (o *op) fallbackInputs(featureName, task string, ro renderOptions, why error) (*scopeInputs, error) {
	f, err := o.loadFeature(featureName, nil, false)
	if err == nil && f.TaskError(task) != nil {
		return nil, f.TaskError(task)
	}
	if err != nil || f.Task(task) == nil {
		// Only the task's own file is needed.
		p := path.Join(o.featureDir(featureName), "tasks", task+".toml")
		data, rerr := os.ReadFile(filepath.Join(o.top, filepath.FromSlash(p)))
		if rerr != nil {
			return nil, fmt.Errorf("no task file to fall back on: %v", rerr)
		}
		t, _, perr := feature.ParseTask(p, data, nil)
		if perr != nil {
			return nil, perr
		}
		f = &feature.Feature{Name: featureName, Spec: &feature.Spec{}, Tasks: []*feature.Task{t}}
	}
	cnt, err := o.counter()
	if err != nil {
		return nil, err
	}
	files, tree := o.fallbackFiles(f.Task(task).Paths(), ro.rev)
	return &scopeInputs{sw: scope.NewFileWorld(tree, files), f: f, al: &align.Alignment{}, cnt: cnt, fallback: why.Error()}, nil
}

// fallbackFiles reads paths at rev's tree, or from the work tree when git
// cannot give them; paths in neither are left out (the task creates
// them), and so are files that look binary or are over index.max_file_bytes.
func (s *Session) fallbackFiles(paths []string, rev string) (map[string][]byte, string) {
	files := map[string][]byte{}
	_, tree, err := s.repo.Resolve(rev)
	var read func(p string) ([]byte, bool)
	if err == nil {
		if blobs, berr := s.repo.Blobs(); berr == nil {
			defer blobs.Close()
			read = func(p string) ([]byte, bool) {
				id, ok, err := s.repo.BlobAt(tree, p)
				if err != nil || !ok {
					return nil, false
				}
				b, err := blobs.Read(id, 0)
				return b, err == nil
			}
		}
	}
	if read == nil {
		tree = ""
	}
	for _, p := range paths {
		var b []byte
		ok := false
		if read != nil {
			b, ok = read(p)
		}
		if !ok && s.top != "" {
			var rerr error
			b, rerr = os.ReadFile(filepath.Join(s.top, filepath.FromSlash(p)))
			ok = rerr == nil
		}
		if !ok || int64(len(b)) > s.cfg.Index.MaxFileBytes || bytes.IndexByte(b, 0) >= 0 {
			continue
		}
		files[p] = b
	}
	return files, tree
}
