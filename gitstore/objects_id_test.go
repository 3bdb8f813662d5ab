package gitstore

import (
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestObjectIDMatchesGit(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("hello\n"), make([]byte, 100000)} {
		for _, typ := range []plumbing.ObjectType{plumbing.BlobObject, plumbing.TreeObject, plumbing.CommitObject} {
			if got, want := objectID(typ, data), plumbing.ComputeHash(typ, data); got != want {
				t.Errorf("%s of %d bytes: %s, want %s", typ, len(data), got, want)
			}
		}
	}
	// The empty blob's id, as git itself names it.
	if got := objectID(plumbing.BlobObject, nil).String(); got != "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391" {
		t.Errorf("empty blob id %s", got)
	}
}
