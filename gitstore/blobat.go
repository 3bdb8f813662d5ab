package gitstore

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// BlobAt returns the blob id of path (a slash path) in tree, and false when
// the tree has no file there. A path that names a folder, a link or a
// submodule counts as no file.
func (r *Repo) BlobAt(tree, path string) (string, bool, error) {
	if !isHexID(tree) {
		return "", false, fmt.Errorf("blob at %s: %q is not an object id", path, tree)
	}
	r.mu.Lock() // readTree uses go-git storage, which is not goroutine-safe
	defer r.mu.Unlock()
	h := plumbing.NewHash(tree)
	parts := strings.Split(strings.Trim(path, "/"), "/")
	for i, name := range parts {
		entries, err := r.readTree(h)
		if err != nil {
			return "", false, err
		}
		found := false
		for _, e := range entries {
			if e.name != name {
				continue
			}
			last := i == len(parts)-1
			switch {
			case last && e.mode&0o170000 == 0o100000:
				return e.hash.String(), true, nil
			case !last && e.mode == ModeTree:
				h, found = e.hash, true
			}
			break
		}
		if !found {
			return "", false, nil
		}
	}
	return "", false, nil
}
