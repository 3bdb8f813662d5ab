package gitstore

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
)

// Change is one file that differs between two trees.
type Change struct {
	Path string
	From string // blob id in the old tree, "" when the file is new
	To   string // blob id in the new tree, "" when the file was deleted
	Mode uint32 // the new mode, or the old one for a deletion
}

// DiffTrees lists the files that differ between trees a and b (tree-ish
// revisions; "" means the empty tree), sorted by path. Renames are reported
// as a deletion plus an addition. Identical subtrees are skipped by id, so a
// one-file change on a large tree costs a few milliseconds.
//
// It runs `git diff-tree -r --raw -z`, which measured faster than go-git's
// object.DiffTree (see BenchmarkDiffTrees).
func (r *Repo) DiffTrees(a, b string) ([]Change, error) {
	if a == "" {
		a = EmptyTree
	}
	if b == "" {
		b = EmptyTree
	}
	if err := validRev(a); err != nil {
		return nil, err
	}
	if err := validRev(b); err != nil {
		return nil, err
	}
	out, err := r.git(nil, "diff-tree", "-r", "--raw", "-z", "--no-abbrev", "--no-renames", "--no-ext-diff", "--no-textconv", a+"^{tree}", b+"^{tree}")
	if err != nil {
		return nil, fmt.Errorf("diff %s..%s: %w", a, b, err)
	}
	return parseRawDiff(out)
}

// parseRawDiff parses `:<om> <nm> <os> <ns> <status>\0<path>\0` records.
func parseRawDiff(out []byte) ([]Change, error) {
	recs := splitRecords(out, 0)
	var changes []Change
	for i := 0; i < len(recs); i++ {
		head := recs[i]
		if len(head) == 0 {
			continue
		}
		if head[0] != ':' || i+1 >= len(recs) {
			return nil, fmt.Errorf("diff-tree: malformed output %q", head)
		}
		f := bytes.Fields(head[1:])
		if len(f) != 5 {
			return nil, fmt.Errorf("diff-tree: malformed output %q", head)
		}
		i++
		path := string(recs[i])
		om, err1 := strconv.ParseUint(string(f[0]), 8, 32)
		nm, err2 := strconv.ParseUint(string(f[1]), 8, 32)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("diff-tree: bad mode in %q", head)
		}
		c := Change{Path: path, From: string(f[2]), To: string(f[3]), Mode: uint32(nm)}
		if isZeroID(c.From) {
			c.From = ""
		}
		if isZeroID(c.To) {
			c.To = ""
			c.Mode = uint32(om)
		}
		changes = append(changes, c)
	}
	sort.SliceStable(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	return changes, nil
}

func isZeroID(id string) bool {
	for i := 0; i < len(id); i++ {
		if id[i] != '0' {
			return false
		}
	}
	return true
}
