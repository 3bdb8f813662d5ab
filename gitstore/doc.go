// Package gitstore is the only package that talks to git. It owns
// repository discovery, revision resolution, tree walks, bulk blob reads,
// tree diffs, and git-speed's private store under refs/speed/.
//
// # Git access
//
// Open finds the repository the way git does (subdirectories, linked
// worktrees, bare repositories, GIT_DIR and GIT_WORK_TREE) by asking
// `git rev-parse`. Resolve, Walk and DiffTrees run the git binary (`git
// cat-file --batch-check`, `git ls-tree -r -l -z`, `git diff-tree -r --raw
// -z`), which agrees exactly with the git the user runs and measured faster
// than go-git (see the benchmarks in bench_test.go); DiffTrees of two tree
// ids compares them in process, as git does. Every child process
// gets --git-dir explicitly and an environment without GIT_DIR,
// GIT_WORK_TREE, GIT_INDEX_FILE and friends, so a hook's environment cannot
// redirect it.
//
// Blob contents come from a BlobReader: a pool of long-lived `git cat-file
// --batch` processes (default), of go-git object stores (GoGit) or of
// in-process readers of the object folder (InProcess, for a few blobs;
// packs.go and packentry.go, which the store reads through too). One
// BlobReader is safe for concurrent use and reads in parallel, one worker
// per goroutine up to GOMAXPROCS; share one reader among the indexer's
// workers and Close it at the end.
//
// # The store
//
// Everything git-speed derives lives in the repository's own object
// database, held by the single ref refs/speed/index:
//
//	refs/speed/index ──► commit (parent: the previous value)
//	    format                          "git-speed store 1\n": layout marker (FormatVersion)
//	    seq                             "<n>\n": number of commits that put trees
//	    facts/<k[0:2]>/<k>              per-blob facts under the caller's hex key k
//	    trees/<t[0:2]>/<t>-<digest>/    per-tree artifacts of tree t under config digest
//	        meta                        "seq <n>\ntime <unix>\n" of the last put
//	        <artifact>/                 one named artifact, a sharded set of blobs:
//	            <c1>/<c2>/…/@           the shard with key "c1/c2/…"; each component
//	                                    escaped: [A-Za-z0-9_-.] kept (no leading '.'),
//	                                    other bytes %XX, the empty component "%"
//
// Identical blobs and subtrees are one git object, so indexing a tree that
// differs from an indexed one in one folder adds that folder's shard blob
// and the tree objects above it; a new facts entry rewrites one facts shard
// tree, facts/ and the root (TestStoreGrowth measures it).
//
// Each update is a new commit whose parent is the previous value, so
// `git push origin 'refs/speed/*:refs/speed/*'` is a fast-forward and a
// clone gets the store with `git fetch origin 'refs/speed/*:refs/speed/*'`.
// Git's own gc never prunes what the ref holds. Writing never touches
// branches, HEAD, the index or the work tree: objects go straight into the
// object database, a few as loose files, a commit's many as one pack whose
// index is made here too (packwrite.go; no `git index-pack`), and the ref moves
// with `git update-ref refs/speed/index <new> <old>`, git's compare-and-swap
// under its lock file. The packs a build writes before its commit (facts
// batches, artifacts) and the commit's own are then merged into one
// (packmerge.go), so that builds do not pile up packs toward git's
// gc.autoPackLimit; a full build merges the bulk of them earlier, while it
// goes on (Store.MergeWritten), and leaves two. Files and folders get the modes git gives its own,
// core.sharedRepository included.
// If another writer (goroutine or process) moved the ref first, Txn.Commit
// re-reads the tip, re-applies its own entries on top (a union: both
// writers' entries survive) and retries.
//
// A ref that does not hold a readable store of this FormatVersion (not a
// commit, a foreign tree, a missing object) makes every Store method return
// an error wrapping ErrCorrupt, and nothing is written; Store.Reset starts a
// fresh store and keeps the old value under refs/speed/corrupt-<n>.
//
// Store.GC rewrites the store as a parentless commit holding the trees
// reachable from refs outside refs/speed/ (newest MaxGCHistory commits),
// the newest `keep` others, and the facts a caller-supplied function says
// those trees use; after it, push with '+refs/speed/*:refs/speed/*'.
package gitstore
