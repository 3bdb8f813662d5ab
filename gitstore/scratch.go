package gitstore

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Scratch makes an empty bare repository in a temporary folder that reads
// r's objects (through objects/info/alternates) and writes its own, so a
// store can be built there from r's trees without writing anything to r:
// `verify --index` rebuilds a tree in one and compares. close removes it.
func (r *Repo) Scratch() (scratch *Repo, close func(), err error) {
	dir, err := os.MkdirTemp("", "git-speed-scratch-")
	if err != nil {
		return nil, nil, fmt.Errorf("scratch store: %w", err)
	}
	close = func() { os.RemoveAll(dir) }
	cmd := exec.Command(r.gitBin, "init", "-q", "--bare", dir)
	cmd.Env = r.env
	if out, err := cmd.CombinedOutput(); err != nil {
		close()
		return nil, nil, fmt.Errorf("scratch store: git init: %v: %s", err, firstLine(string(out)))
	}
	objects, err := filepath.Abs(filepath.Join(r.commonDir, "objects"))
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "objects", "info", "alternates"), []byte(objects+"\n"), 0o644)
	}
	if err != nil {
		close()
		return nil, nil, fmt.Errorf("scratch store: %w", err)
	}
	// Not through Open: its discovery honours GIT_DIR, which would find r.
	s := &Repo{gitDir: dir, commonDir: dir, gitBin: r.gitBin, env: r.env}
	s.storage = filesystem.NewStorageWithOptions(osfs.New(dir), cache.NewObjectLRUDefault(),
		filesystem.Options{MaxOpenDescriptors: 32})
	s.objs = newObjects(filepath.Join(dir, "objects"))
	return s, close, nil
}
