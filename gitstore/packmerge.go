package gitstore

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
)

// A full build writes one pack per facts batch (Store.WriteBlobs) and one
// for its commit: ~22 on kubernetes. Past git's gc.autoPackLimit (50), the
// user's next git command would run an automatic gc, and every lookup of
// an object that is not there searches each pack's index. So when a
// commit ends, the packs this process wrote since the last one are merged
// into one; a full build merges those it has written once its facts and
// links are all written (Store.MergeWritten), beside its graph, and the
// commit merges the rest. Their entries are whole objects (writePack makes no deltas),
// so each entry's bytes are copied unchanged to a new offset, and its CRC
// is the one its old index holds: nothing is inflated or compressed
// again. The new pack is placed before its index, and only then are the
// old packs removed, each index before its pack: at every point each
// object is in some pack git and this package can read. A reader in
// another process that listed the packs before finds an index gone as no
// pack (packIdx.open), a pack gone as a missing object, and looks at the
// folder again (Repo.readObject).

// mergeHook, in tests, is called between the merge's steps; an error stops
// the merge there, as a kill would.
var mergeHook func(step string) error

func mergeStep(step string) error {
	if mergeHook == nil {
		return nil
	}
	return mergeHook(step)
}

// mergeWritten merges the packs this repository wrote since the last merge
// into one, when there are several. A failure leaves readable packs (at
// worst an object in two of them); they are not tried again. Caller holds
// r.mu.
func (r *Repo) mergeWritten() error {
	bases := r.written
	r.written = nil
	if len(bases) < 2 {
		return nil
	}
	m, err := writeMerged(filepath.Join(r.objs.dir, "pack"), bases, r.sharedPerm())
	if err == nil {
		err = r.dropMerged(m)
	}
	return err
}

// MergeWritten merges the packs written so far by this process since the
// last merge (WriteBlobs, WriteShards) into one now, rather than at the
// next commit: a full build calls it once its facts are all written, and
// the copy (on kubernetes 60 MB of facts, about 0.1 s) runs beside the
// graph instead of after the store's last write, while the commit has
// only the packs written after to merge. So a full build leaves two packs.
// The new pack is copied without holding the repository: reads and writes
// go on meanwhile; only removing the old packs waits for them. A failure
// leaves readable packs, as at a commit (mergeWritten).
func (s *Store) MergeWritten() error {
	r := s.r
	r.mu.Lock()
	if len(r.written) < 2 {
		// not worth a pack of its own: the commit merges it with the rest
		r.mu.Unlock()
		return nil
	}
	bases := r.written
	r.written = nil
	shared := r.sharedPerm()
	r.mu.Unlock()
	// The packs are final: nothing but a merge, which has taken them
	// from r.written, changes or removes them.
	m, err := writeMerged(filepath.Join(r.objs.dir, "pack"), bases, shared)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropMerged(m)
}

// dropMerged removes the packs m merged and has the next reads look at
// the pack folder again. Caller holds r.mu.
func (r *Repo) dropMerged(m merged) error {
	for _, src := range m.srcs {
		// unmapped and closed, so that they can be removed everywhere
		if p := r.objs.byName[src.base+".idx"]; p != nil {
			p.close()
		}
	}
	err := removeMerged(m)
	r.reindex()
	return err
}

// packSource is one pack to merge: its file and its entries by offset.
type packSource struct {
	base    string // path without .pack or .idx
	entries []packedEntry
	ends    []uint64 // where each entry ends
}

// readPackSource reads the index of the pack at base and checks it
// against the pack's header and size.
func readPackSource(base string) (packSource, error) {
	src := packSource{base: base}
	idx, err := os.ReadFile(base + ".idx")
	if err != nil {
		return src, err
	}
	if len(idx) < idxHeader+idxFanout || !bytes.Equal(idx[:4], []byte{0xff, 't', 'O', 'c'}) || binary.BigEndian.Uint32(idx[4:8]) != 2 {
		return src, fmt.Errorf("%s.idx: not a version 2 pack index", base)
	}
	n := uint64(binary.BigEndian.Uint32(idx[idxHeader+idxFanout-4:]))
	names := idx[idxHeader+idxFanout:]
	if uint64(len(names)) < n*28+40 {
		return src, fmt.Errorf("%s.idx: truncated", base)
	}
	crcs, offs := names[n*20:], names[n*24:]
	large := offs[n*4 : len(offs)-40]
	src.entries = make([]packedEntry, n)
	for i := range n {
		e := &src.entries[i]
		copy(e.id[:], names[i*20:])
		e.crc = binary.BigEndian.Uint32(crcs[i*4:])
		e.off = uint64(binary.BigEndian.Uint32(offs[i*4:]))
		if e.off&0x80000000 != 0 {
			at := (e.off &^ 0x80000000) * 8
			if at+8 > uint64(len(large)) {
				return src, fmt.Errorf("%s.idx: bad large offset", base)
			}
			e.off = binary.BigEndian.Uint64(large[at:])
		}
	}
	slices.SortFunc(src.entries, func(a, b packedEntry) int { return cmp.Compare(a.off, b.off) })
	f, err := os.Open(base + ".pack")
	if err != nil {
		return src, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return src, err
	}
	var hdr [12]byte
	if _, err := io.ReadFull(f, hdr[:]); err != nil {
		return src, fmt.Errorf("%s.pack: %w", base, err)
	}
	if string(hdr[:4]) != "PACK" || binary.BigEndian.Uint32(hdr[4:]) != 2 || uint64(binary.BigEndian.Uint32(hdr[8:])) != n {
		return src, fmt.Errorf("%s.pack: header does not match its index", base)
	}
	if st.Size() < 12+20 {
		return src, fmt.Errorf("%s.pack: truncated", base)
	}
	end := uint64(st.Size()) - 20
	src.ends = make([]uint64, n)
	for i := range src.entries {
		next := end
		if i+1 < len(src.entries) {
			next = src.entries[i+1].off
		}
		if (i == 0 && src.entries[i].off != 12) || next <= src.entries[i].off || next > end {
			return src, fmt.Errorf("%s.idx: offsets do not match the pack", base)
		}
		src.ends[i] = next
	}
	return src, nil
}

// merged is a pack written by writeMerged, whose sources are still there.
type merged struct {
	base string // the new pack's path without extension
	srcs []packSource
}

// writeMerged writes the objects of the packs at bases (paths without
// extension), written by writePackFiles, as one pack and its index in
// dir; removeMerged then removes the packs at bases.
func writeMerged(dir string, bases []string, shared int) (merged, error) {
	srcs := make([]packSource, len(bases))
	seen := map[plumbing.Hash]bool{}
	total := 0
	for i, b := range bases {
		src, err := readPackSource(b)
		if err != nil {
			return merged{}, fmt.Errorf("merge packs: %w", err)
		}
		srcs[i] = src
		for _, e := range src.entries {
			if !seen[e.id] {
				seen[e.id] = true
				total++
			}
		}
	}
	tmp, err := createTemp(dir, "tmp_pack_")
	if err != nil {
		return merged{}, fmt.Errorf("merge packs: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing to remove
	entries, sum, err := copyEntries(tmp, srcs, total)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return merged{}, fmt.Errorf("merge packs: %w", err)
	}
	if err := mergeStep("written"); err != nil {
		return merged{}, err
	}
	base := filepath.Join(dir, "pack-"+hex.EncodeToString(sum))
	if err := placeFile(tmp.Name(), base+".pack", shared); err != nil {
		return merged{}, fmt.Errorf("merge packs: %w", err)
	}
	if err := mergeStep("packed"); err != nil {
		return merged{}, err
	}
	if err := writeIndexFile(dir, base, entries, sum, shared); err != nil {
		return merged{}, fmt.Errorf("merge packs: %w", err)
	}
	return merged{base: base, srcs: srcs}, nil
}

// removeMerged removes the packs m was made of, each index before its
// pack.
func removeMerged(m merged) error {
	for _, src := range m.srcs {
		if src.base == m.base {
			continue // the same objects in the same order
		}
		if err := mergeStep("remove " + filepath.Base(src.base)); err != nil {
			return err
		}
		if err := os.Remove(src.base + ".idx"); err != nil {
			return fmt.Errorf("merge packs: %w", err)
		}
		if err := os.Remove(src.base + ".pack"); err != nil {
			return fmt.Errorf("merge packs: %w", err)
		}
	}
	return nil
}

// copyEntries writes a pack of total entries to w, the entries of srcs in
// order, each object once, and returns where each went and the pack's
// checksum.
func copyEntries(w io.Writer, srcs []packSource, total int) ([]packedEntry, []byte, error) {
	sum := sha1.New()
	bw := bufio.NewWriterSize(io.MultiWriter(w, sum), 1<<20)
	out := &countingWriter{w: bw}
	var hdr [12]byte
	copy(hdr[:4], "PACK")
	binary.BigEndian.PutUint32(hdr[4:], 2)
	binary.BigEndian.PutUint32(hdr[8:], uint32(total))
	if _, err := out.Write(hdr[:]); err != nil {
		return nil, nil, err
	}
	entries := make([]packedEntry, 0, total)
	seen := make(map[plumbing.Hash]bool, total)
	for _, src := range srcs {
		f, err := os.Open(src.base + ".pack")
		if err != nil {
			return nil, nil, err
		}
		// Runs of entries kept are copied at once.
		from, to := uint64(0), uint64(0)
		flush := func() error {
			if from == to {
				return nil
			}
			_, err := io.Copy(out, io.NewSectionReader(f, int64(from), int64(to-from)))
			from = to
			return err
		}
		for i, e := range src.entries {
			if seen[e.id] {
				if err = flush(); err != nil {
					break
				}
				from, to = src.ends[i], src.ends[i]
				continue
			}
			seen[e.id] = true
			if from == to {
				from, to = e.off, e.off
			}
			entries = append(entries, packedEntry{id: e.id, off: out.n + (to - from), crc: e.crc})
			to = src.ends[i]
		}
		if err == nil {
			err = flush()
		}
		f.Close()
		if err != nil {
			return nil, nil, err
		}
	}
	if len(entries) != total {
		return nil, nil, errors.New("pack entries miscounted")
	}
	if err := bw.Flush(); err != nil {
		return nil, nil, err
	}
	s := sum.Sum(nil)
	if _, err := w.Write(s); err != nil {
		return nil, nil, err
	}
	return entries, s, nil
}
