package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// A part is the facts one machine made for its share of a tree (`git speed
// index --shard K/N`), stored under a ref of its own so that N machines
// pushing 'refs/speed/*:refs/speed/*' never move what another pushed:
//
//	refs/speed/parts/<tree>/<k>-of-<n> ──► commit (no parent, fixed date)
//	    format                "git-speed part 1\n" (PartFormatVersion)
//	    part                  the caller's description of the part
//	    facts/<k[0:2]>/<k>    facts entries, as in the store
//
// The commit has a fixed date, so the same part made twice (on two
// machines, or after a job was killed and ran again) is the same commit
// and pushing it again is a no-op. No part job updates refs/speed/index.

// PartsRefPrefix is where parts are stored.
const PartsRefPrefix = "refs/speed/parts/"

// PartFormatVersion is the layout of a part, written to its format blob.
//
//	1: format, part, facts/<xx>/<key>
const PartFormatVersion = 1

var partFormatBlob = []byte("git-speed part " + strconv.Itoa(PartFormatVersion) + "\n")

// Part is one stored part of a tree.
type Part struct {
	Ref  string // the full ref name
	Tree string // the tree its ref names
	K, N int    // part K of N (1 ≤ K ≤ N)
	// Meta is the caller's description written with the part.
	Meta []byte
	// Facts maps facts keys to blob ids.
	Facts map[string]string
	// Err says why the part cannot be read (a missing object, another
	// layout); Meta and Facts are then empty.
	Err error
}

// Name is the part as people read it: "2-of-4 of tree 0a1b2c3d4e5f".
func (p *Part) Name() string {
	t := p.Tree
	if len(t) > 12 {
		t = t[:12]
	}
	return fmt.Sprintf("part %d-of-%d of tree %s", p.K, p.N, t)
}

// PartRef names part k of n of tree.
func PartRef(tree string, k, n int) string {
	return fmt.Sprintf("%s%s/%d-of-%d", PartsRefPrefix, tree, k, n)
}

// parsePartRef reads a part ref's name; ok is false for other names.
func parsePartRef(ref string) (tree string, k, n int, ok bool) {
	rest, found := strings.CutPrefix(ref, PartsRefPrefix)
	if !found {
		return "", 0, 0, false
	}
	tree, kn, found := strings.Cut(rest, "/")
	if !found || !isHexID(tree) {
		return "", 0, 0, false
	}
	ks, ns, found := strings.Cut(kn, "-of-")
	if !found {
		return "", 0, 0, false
	}
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if err1 != nil || err2 != nil || n < 1 || k < 1 || k > n || strconv.Itoa(k) != ks || strconv.Itoa(n) != ns {
		return "", 0, 0, false
	}
	return tree, k, n, true
}

// WritePart stores part k of n of tree: meta and the facts entries (key to
// blob id; the blobs written before, with WriteBlobs, or already stored).
// It returns the part's ref. A part stored before under the same ref is
// replaced.
func (s *Store) WritePart(tree string, k, n int, meta []byte, facts map[string]string) (string, error) {
	if !isHexID(tree) || n < 1 || k < 1 || k > n {
		return "", fmt.Errorf("write part: bad part %d of %d of tree %q", k, n, tree)
	}
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	r.beginPending()
	defer r.endPending()
	e := &edit{}
	e.setBlob(r.mustBlob(partFormatBlob), "format")
	e.setBlob(r.mustBlob(meta), "part")
	for key, id := range facts {
		if err := validFactsKey(key); err != nil {
			return "", fmt.Errorf("write part: %w", err)
		}
		if !isHexID(id) {
			return "", fmt.Errorf("write part: facts %s: %q is not an object id", key, id)
		}
		e.setBlob(plumbing.NewHash(id), "facts", shard(key), key)
	}
	if err := r.takeWriteErr(); err != nil {
		return "", fmt.Errorf("write part: %w", err)
	}
	root, err := r.apply(plumbing.ZeroHash, e)
	if err != nil {
		return "", fmt.Errorf("write part: %w", err)
	}
	ref := PartRef(tree, k, n)
	msg := fmt.Sprintf("git-speed part %d-of-%d of tree %s\n\n%d facts", k, n, tree, len(facts))
	c, err := r.writeCommit(root, plumbing.ZeroHash, msg, time.Unix(0, 0))
	if err == nil {
		err = r.flushPending()
	}
	if err != nil {
		return "", fmt.Errorf("write part: %w", err)
	}
	// The objects are all written before the ref names them: a job killed
	// before this line leaves no part, never half of one.
	if _, err := r.git(nil, "update-ref", "--no-deref", "-m", "git-speed: part", ref, c.String()); err != nil {
		return "", fmt.Errorf("write part: %w", err)
	}
	return ref, nil
}

// Parts lists the parts stored for tree (every tree's when tree is ""),
// by tree, then N, then K. A part that cannot be read is listed with Err
// set; only a failure to list the refs is an error.
func (s *Store) Parts(tree string) ([]Part, error) {
	if !s.r.mayHaveParts() {
		return nil, nil
	}
	prefix := PartsRefPrefix
	if tree != "" {
		prefix += tree + "/"
	}
	out, err := s.r.git(nil, "for-each-ref", "--format=%(refname) %(objectname)", prefix)
	if err != nil {
		return nil, err
	}
	var parts []Part
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		ref, id, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		t, k, n, ok := parsePartRef(ref)
		if !ok {
			// Named like no part this version writes: listed as damaged.
			parts = append(parts, Part{Ref: ref, Err: fmt.Errorf("%s is not named <tree>/<k>-of-<n>", ref)})
			continue
		}
		p := Part{Ref: ref, Tree: t, K: k, N: n}
		if err := s.readPart(&p, plumbing.NewHash(id)); err != nil {
			p.Err, p.Meta, p.Facts = err, nil, nil
		}
		parts = append(parts, p)
	}
	sort.Slice(parts, func(i, j int) bool {
		a, b := parts[i], parts[j]
		if a.Tree != b.Tree {
			return a.Tree < b.Tree
		}
		if a.N != b.N {
			return a.N < b.N
		}
		if a.K != b.K {
			return a.K < b.K
		}
		return a.Ref < b.Ref
	})
	return parts, nil
}

// mayHaveParts is false when no ref under refs/speed/parts/ can exist:
// no such folder of loose refs and no such name in packed-refs. Every
// index asks, and starting git for-each-ref took a few milliseconds of a
// one-file update's fifty. A repository whose refs are not files
// (reftable) is asked through git.
func (r *Repo) mayHaveParts() bool {
	if _, err := os.Stat(filepath.Join(r.commonDir, "reftable")); err == nil {
		return true
	}
	if _, err := os.Stat(filepath.Join(r.commonDir, filepath.FromSlash(strings.TrimSuffix(PartsRefPrefix, "/")))); err == nil {
		return true
	}
	packed, err := os.ReadFile(filepath.Join(r.commonDir, "packed-refs"))
	return err != nil && !errors.Is(err, os.ErrNotExist) || bytes.Contains(packed, []byte(PartsRefPrefix))
}

// readPart reads the part commit c into p.
func (s *Store) readPart(p *Part, c plumbing.Hash) error {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	data, err := r.readObject(plumbing.CommitObject, c)
	if err != nil {
		return fmt.Errorf("commit %s: %v", c, err)
	}
	if !bytes.HasPrefix(data, []byte("tree ")) || len(data) < 45 {
		return fmt.Errorf("commit %s is malformed", c)
	}
	root, err := r.readTree(plumbing.NewHash(string(data[5:45])))
	if err != nil {
		return fmt.Errorf("tree of commit %s: %v", c, err)
	}
	var format, meta, facts *treeEntry
	for i := range root {
		e := &root[i]
		switch e.name {
		case "format":
			format = e
		case "part":
			meta = e
		case "facts":
			facts = e
		default:
			return fmt.Errorf("unexpected entry %q", e.name)
		}
	}
	if format == nil || format.mode != ModeFile {
		return fmt.Errorf("not a git-speed part (no format marker)")
	}
	fdata, err := r.readObject(plumbing.BlobObject, format.hash)
	if err != nil {
		return fmt.Errorf("format marker: %v", err)
	}
	if !bytes.Equal(fdata, partFormatBlob) {
		return fmt.Errorf("part format %q, this git-speed reads %q", strings.TrimSpace(string(fdata)), strings.TrimSpace(string(partFormatBlob)))
	}
	if meta == nil || meta.mode != ModeFile {
		return fmt.Errorf("no part description")
	}
	if p.Meta, err = r.readObject(plumbing.BlobObject, meta.hash); err != nil {
		return fmt.Errorf("part description: %v", err)
	}
	p.Facts = map[string]string{}
	if facts == nil {
		return nil
	}
	if facts.mode != ModeTree {
		return fmt.Errorf("facts is not a folder")
	}
	shards, err := r.readTree(facts.hash)
	if err != nil {
		return fmt.Errorf("facts/: %v", err)
	}
	for _, sh := range shards {
		entries, err := r.readTree(sh.hash)
		if err != nil {
			return fmt.Errorf("facts/%s: %v", sh.name, err)
		}
		for _, en := range entries {
			if validFactsKey(en.name) != nil || shard(en.name) != sh.name || en.mode != ModeFile {
				return fmt.Errorf("facts/%s/%s is not a facts entry", sh.name, en.name)
			}
			// A blob the part names but the object database lacks (a
			// fetch cut short, a pruned object): the part is damaged.
			if !r.hasObject(en.hash) {
				return fmt.Errorf("facts/%s/%s: object %s is missing", sh.name, en.name, en.hash)
			}
			p.Facts[en.name] = en.hash.String()
		}
	}
	return nil
}

// DropPart deletes the ref of a part, if it still holds what it held.
func (s *Store) DropPart(ref string) error {
	if !strings.HasPrefix(ref, PartsRefPrefix) {
		return fmt.Errorf("drop part: %s is not a part", ref)
	}
	_, err := s.r.git(nil, "update-ref", "--no-deref", "-d", ref)
	return err
}

// FactsIDs returns the blob ids of the stored facts for keys; missing keys
// are absent from the map. A part job names facts it did not parse this
// way.
func (s *Store) FactsIDs(keys []string) (map[string]string, error) {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	snap, err := s.tip()
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(keys))
	if snap.root.IsZero() {
		return out, nil
	}
	for _, k := range keys {
		if validFactsKey(k) != nil {
			continue
		}
		entries, err := s.factsShard(shard(k))
		if err != nil {
			return nil, err
		}
		if h, ok := entries[k]; ok {
			out[k] = h.String()
		}
	}
	return out, nil
}

// PruneParts deletes the refs of parts no longer needed here: those of
// trees the store holds (a plain index took them in) and of trees no
// branch or tag reaches. It returns how many it deleted. (A remote keeps
// its own until they are deleted there: git push origin
// ':refs/speed/parts/<tree>/<k>-of-<n>'.)
func (s *Store) PruneParts() (int, error) {
	parts, err := s.Parts("")
	if err != nil || len(parts) == 0 {
		return 0, err
	}
	reach, err := s.r.reachableTrees()
	if err != nil {
		return 0, err
	}
	infos, err := s.Trees()
	if err != nil {
		return 0, err
	}
	indexed := map[string]bool{}
	for _, in := range infos {
		indexed[in.Tree] = true
	}
	n := 0
	for _, p := range parts {
		if p.Tree != "" && !indexed[p.Tree] && reach[p.Tree] {
			continue
		}
		if err := s.DropPart(p.Ref); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
