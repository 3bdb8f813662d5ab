package build

import (
	"fmt"
	"strings"

	"github.com/zeebo/blake3"

	"github.com/git-speed/git-speed/gitstore"
)

// ChangeLog is gitstore's Repo.ChangeLog kept in the store: the paths each
// of up to n first-parent commits up to rev changed, newest first. What
// a commit changed never changes, so each commit's list is stored once,
// under refs/speed beside the facts, and later calls (and clones that
// fetched the store) read git's history only for commits not seen before.
// The lists are a cache: `git speed gc` drops them and they come back.
func ChangeLog(repo *gitstore.Repo, rev string, n int) ([][]string, error) {
	commits, err := repo.FirstParents(rev, n)
	if err != nil {
		return nil, err
	}
	st := repo.Store()
	keys := make([]string, len(commits))
	for i, c := range commits {
		keys[i] = changeKey(c)
	}
	stored, err := st.Facts(keys)
	if err != nil {
		stored = map[string][]byte{} // an unreadable store: read git
	}
	var missing []string
	for i, c := range commits {
		if _, ok := stored[keys[i]]; !ok {
			missing = append(missing, c)
		}
	}
	fresh, err := repo.ChangeLists(missing)
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		txn := st.Begin()
		for _, c := range missing {
			files, ok := fresh[c]
			if !ok {
				return nil, fmt.Errorf("change list of %s: git gave none", c)
			}
			txn.PutFacts(changeKey(c), []byte(strings.Join(files, "\x00")))
		}
		// Failing to keep them costs only the next call's time.
		_ = txn.Commit(fmt.Sprintf("change lists of %d commits", len(missing)))
	}
	log := make([][]string, len(commits))
	for i, c := range commits {
		if files, ok := fresh[c]; ok {
			log[i] = files
			continue
		}
		if b := stored[keys[i]]; len(b) > 0 {
			log[i] = strings.Split(string(b), "\x00")
		} else {
			log[i] = []string{}
		}
	}
	return log, nil
}

// changeKey names a commit's change list among the store's per-blob
// entries: a digest no facts key can share, since those hash a blob id
// with a language and versions.
func changeKey(commit string) string {
	h := blake3.New()
	fmt.Fprintf(h, "change-list\x00%s", commit)
	return fmt.Sprintf("%x", h.Sum(nil))[:40]
}
