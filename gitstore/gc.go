package gitstore

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// MaxGCHistory caps how many commits GC walks (newest first, across all
// refs outside refs/speed/) when deciding which trees are reachable. Trees
// of older commits count as unreachable and fall under GC's keep budget.
const MaxGCHistory = 5000

// GC rewrites the store as a new commit with no parent that holds only:
//
//   - the per-tree artifacts of trees reachable from any ref outside
//     refs/speed/ (branches, tags, remotes, HEAD and other worktrees' HEADs;
//     the newest MaxGCHistory commits, plus tags that point at trees),
//   - the keep most recently put other trees (by Seq),
//   - the facts entries live reports for the kept trees. If live is nil,
//     every facts entry is kept.
//
// Objects no longer held are left for git's own gc; GC itself deletes
// nothing. After a GC, pushing the store needs a forced refspec
// ('+refs/speed/*:refs/speed/*'). A concurrent Commit is not lost: GC
// retries on a moved tip, and a Commit that lost to GC re-applies on top.
func (s *Store) GC(keep int, live func(tree, digest string) ([]string, error)) (GCStats, error) {
	var stats GCStats
	reach, err := s.r.reachableTrees()
	if err != nil {
		return stats, fmt.Errorf("store gc: %w", err)
	}
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	for attempt := 0; attempt < maxCommitAttempts; attempt++ {
		stats = GCStats{}
		snap, err := s.tip()
		if err != nil {
			return stats, err
		}
		if snap.commit.IsZero() {
			return stats, nil
		}
		infos, hashes, err := s.listTrees(snap.root)
		if err != nil {
			return stats, err
		}
		kept := make([]bool, len(infos))
		// Unreachable trees, newest first, fill the keep budget. Of the
		// work-tree snapshots only the newest is current; the rest go.
		snapshot := false
		for i := len(infos) - 1; i >= 0; i-- {
			if reach[infos[i].Tree] {
				kept[i] = true
			} else if infos[i].Snapshot {
				kept[i] = !snapshot
				snapshot = true
			} else if keep > 0 {
				kept[i] = true
				keep--
			}
		}
		e := &edit{}
		e.setBlob(r.mustBlob(formatBlob), "format")
		e.setBlob(r.mustBlob([]byte(strconv.FormatInt(snap.seq, 10)+"\n")), "seq")
		liveKeys := map[string]bool{}
		for i, info := range infos {
			if !kept[i] {
				stats.TreesDropped++
				continue
			}
			stats.TreesKept++
			e.setTree(hashes[i], "trees", shard(info.Tree), treeDirName(info.Tree, info.Digest))
			if live != nil {
				r.mu.Unlock()
				keys, err := live(info.Tree, info.Digest)
				r.mu.Lock()
				if err != nil {
					return stats, fmt.Errorf("store gc: facts of tree %s: %w", info.Tree, err)
				}
				for _, k := range keys {
					liveKeys[k] = true
				}
			}
		}
		if facts, ok, err := s.lookup(snap.root, true, "facts"); err != nil {
			return stats, err
		} else if ok {
			shards, err := r.readTree(facts)
			if err != nil {
				return stats, corrupt("read facts/: %v", err)
			}
			for _, sh := range shards {
				entries, err := r.readTree(sh.hash)
				if err != nil {
					return stats, corrupt("read facts/%s: %v", sh.name, err)
				}
				for _, en := range entries {
					if live == nil || liveKeys[en.name] {
						stats.FactsKept++
						e.setBlob(en.hash, "facts", sh.name, en.name)
					} else {
						stats.FactsDropped++
					}
				}
			}
		}
		if err := r.takeWriteErr(); err != nil {
			return stats, fmt.Errorf("store gc: %w", err)
		}
		root, err := r.apply(plumbing.ZeroHash, e)
		if err != nil {
			return stats, fmt.Errorf("store gc: %w", err)
		}
		msg := fmt.Sprintf("git-speed gc: kept %d trees, %d facts; dropped %d trees, %d facts",
			stats.TreesKept, stats.FactsKept, stats.TreesDropped, stats.FactsDropped)
		c, err := r.writeCommit(root, plumbing.ZeroHash, msg, time.Now())
		if err != nil {
			return stats, fmt.Errorf("store gc: %w", err)
		}
		if err = r.casRef(IndexRef, c, snap.commit, msg); err == nil {
			return stats, nil
		}
		r.mu.Unlock()
		time.Sleep(time.Duration(attempt+1) * 5 * time.Millisecond)
		r.mu.Lock()
	}
	return stats, fmt.Errorf("store gc: gave up after %d attempts", maxCommitAttempts)
}

// reachableTrees returns the root trees of the newest MaxGCHistory commits
// reachable from refs outside refs/speed/, plus trees that tags point at.
func (r *Repo) reachableTrees() (map[string]bool, error) {
	set := map[string]bool{}
	out, err := r.git(nil, "rev-list", "--exclude=refs/speed/*", "--all",
		"--max-count="+strconv.Itoa(MaxGCHistory), "--format=%T")
	if err != nil {
		// A repository without commits has nothing reachable.
		if _, herr := r.git(nil, "rev-parse", "-q", "--verify", "HEAD"); herr != nil {
			if refs, _ := r.git(nil, "for-each-ref", "--count=1", "--exclude=refs/speed/*"); len(bytes.TrimSpace(refs)) == 0 {
				return set, nil
			}
		}
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "commit ") && isHexID(line) {
			set[line] = true
		}
	}
	tags, err := r.git(nil, "for-each-ref", "--format=%(objectname) %(objecttype) %(*objectname) %(*objecttype)", "refs/tags", "refs/heads")
	if err != nil {
		return nil, err
	}
	sc = bufio.NewScanner(bytes.NewReader(tags))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 2 && f[1] == "tree":
			set[f[0]] = true
		case len(f) == 4 && f[3] == "tree":
			set[f[2]] = true
		}
	}
	return set, nil
}

// Size reports what refs/speed/ holds: the number of objects reachable from
// any ref under it (store history included) and their total size on disk
// (compressed; packed objects count their delta size).
func (s *Store) Size() (objects int, size int64, err error) {
	refs, err := s.r.git(nil, "for-each-ref", "--format=%(objectname)", "refs/speed/")
	if err != nil {
		return 0, 0, err
	}
	if len(strings.TrimSpace(string(refs))) == 0 {
		return 0, 0, nil
	}
	ids, err := s.r.git(nil, "rev-list", "--objects", "--no-object-names", "--glob=refs/speed/*")
	if err != nil {
		return 0, 0, corrupt("list store objects: %v", err)
	}
	out, err := s.r.git(ids, "cat-file", "--batch-check=%(objectsize:disk)")
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line == "" {
			continue
		}
		n, err := strconv.ParseInt(line, 10, 64)
		if err != nil {
			return 0, 0, corrupt("store object missing: %s", line)
		}
		objects++
		size += n
	}
	return objects, size, nil
}
