// Package gitstore is the only package that talks to git. It owns
// repository discovery (Open), revision resolution, tree walks, bulk blob
// reads, tree diffs, and git-speed's private store under refs/speed/.
//
// # Git access
//
// Discovery, resolution, walks and diffs run the git binary (`git rev-parse`,
// `git cat-file --batch-check`, `git ls-tree -r -l -z`, `git diff-tree -r
// --raw -z`): it agrees exactly with the git the user runs (GIT_DIR,
// GIT_WORK_TREE, worktrees, bare repositories, packed refs, alternates) and
// is fast. Every child process gets --git-dir explicitly and a scrubbed
// environment, so a hook's GIT_DIR or GIT_INDEX_FILE cannot leak in. Blob
// contents are read through a BlobReader backed by a pool of long-lived
// `git cat-file --batch` processes (the default) or by go-git.
//
// See store.go for the refs/speed layout.
package gitstore
