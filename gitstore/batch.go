package gitstore

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/go-git/go-git/v5/plumbing"
)

// readBlobs returns the contents of blobs ids in order, read in process
// (packs.go, packentry.go: BenchmarkFacts measured that 2.5 times faster
// than one `git cat-file --batch`, whose start alone is a few ms of a small
// update). Where go-git reads the objects (a pack index of another
// version), many blobs go through cat-file instead. Caller holds r.mu.
func (r *Repo) readBlobs(ids []plumbing.Hash) ([][]byte, error) {
	if r.objs.goGit && len(ids) > batchThreshold && !r.mostlyLoose(ids) {
		return r.catFileBatch(ids)
	}
	if out, ok := r.readPackedAtOnce(ids); ok {
		return out, nil
	}
	out := make([][]byte, len(ids))
	for i, id := range ids {
		data, err := r.readObject(plumbing.BlobObject, id)
		if err != nil {
			return nil, fmt.Errorf("blob %s: %w", id, err)
		}
		out[i] = data
	}
	return out, nil
}

// readPackedAtOnce reads blobs that are all in packs this process maps,
// inflating them on several cores; ok is false, and nothing read, when
// one is not (loose, in a pack go-git reads, an object being written) or
// does not read as a blob: readBlobs then reads them one by one, and
// says why one fails. The caller holds r.mu, so no pack is unmapped
// meanwhile; reading a mapped pack changes nothing. A first scope reads
// the rows and definitions of kubernetes (64 objects each, 6 and 5 MB)
// and the facts of its skeletons (about 40) so.
func (r *Repo) readPackedAtOnce(ids []plumbing.Hash) ([][]byte, bool) {
	workers := min(runtime.GOMAXPROCS(0), 4)
	if r.objs.goGit || !mapsFiles || len(ids) < 2*workers || workers < 2 {
		return nil, false
	}
	if p := r.pending; p != nil && len(p.objs) > 0 {
		return nil, false
	}
	type at struct {
		pd  packData
		off int64
	}
	ats := make([]at, len(ids))
	for i, h := range ids {
		p, off, ok := r.objs.find(h)
		if !ok || p.mapPack() != nil || p.packData == nil {
			return nil, false
		}
		ats[i] = at{packData{b: p.packData, find: p.find}, off}
	}
	out := make([][]byte, len(ids))
	var failed atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(ids) && !failed.Load(); i += workers {
				typ, data, err := ats[i].pd.objectAt(ats[i].off)
				if err != nil || typ != plumbing.BlobObject {
					failed.Store(true)
					return
				}
				out[i] = data
			}
		}()
	}
	wg.Wait()
	return out, !failed.Load()
}

// batchThreshold: where go-git reads objects, reading more blobs than this
// at once goes through one `git cat-file --batch` process instead.
var batchThreshold = 32

// mostlyLoose samples a few ids and reports whether they are loose
// objects: go-git reads those faster than cat-file does, while cat-file is
// faster on packs (BenchmarkFacts/loose, BenchmarkFacts/packed).
func (r *Repo) mostlyLoose(ids []plumbing.Hash) bool {
	loose := 0
	for _, i := range []int{0, len(ids) / 2, len(ids) - 1} {
		hex := ids[i].String()
		if _, err := os.Stat(filepath.Join(r.commonDir, "objects", hex[:2], hex[2:])); err == nil {
			loose++
		}
	}
	return loose >= 2
}

// readBlobsParallel reads many blobs through several `git cat-file --batch`
// processes at once, one per core, and returns them in order. It touches no
// go-git state, so the caller need not hold r.mu.
func (r *Repo) readBlobsParallel(ids []plumbing.Hash) ([][]byte, error) {
	n := runtime.NumCPU()
	if n > 4 {
		n = 4
	}
	if len(ids) < 4*batchThreshold || n < 2 {
		return r.catFileBatch(ids)
	}
	out := make([][]byte, len(ids))
	errs := make([]error, n)
	var wg sync.WaitGroup
	chunk := (len(ids) + n - 1) / n
	for w := 0; w < n; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, len(ids))
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func(w, lo, hi int) {
			defer wg.Done()
			part, err := r.catFileBatch(ids[lo:hi])
			if err != nil {
				errs[w] = err
				return
			}
			copy(out[lo:hi], part)
		}(w, lo, hi)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// catFileBatch reads blobs through one `git cat-file --batch`; it needs no
// lock.
func (r *Repo) catFileBatch(ids []plumbing.Hash) ([][]byte, error) {
	out := make([][]byte, len(ids))
	cmd := r.command("cat-file", "--batch")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		w := bufio.NewWriter(stdin)
		for _, id := range ids {
			w.WriteString(id.String())
			w.WriteByte('\n')
		}
		w.Flush()
		stdin.Close()
	}()
	br := bufio.NewReaderSize(stdout, 64<<10)
	var readErr error
	for i, id := range ids {
		header, err := br.ReadString('\n')
		if err != nil {
			readErr = fmt.Errorf("blob %s: git cat-file: %v", id, err)
			break
		}
		f := bytes.Fields([]byte(header))
		if len(f) != 3 || string(f[1]) != "blob" {
			readErr = fmt.Errorf("blob %s: git cat-file says %q", id, bytes.TrimSpace([]byte(header)))
			break
		}
		size, err := strconv.ParseInt(string(f[2]), 10, 64)
		if err != nil {
			readErr = fmt.Errorf("blob %s: git cat-file says %q", id, header)
			break
		}
		data := make([]byte, size+1)
		if _, err := io.ReadFull(br, data); err != nil {
			readErr = fmt.Errorf("blob %s: git cat-file: %v", id, err)
			break
		}
		out[i] = data[:size:size]
	}
	if readErr != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, readErr
	}
	if err := cmd.Wait(); err != nil {
		return nil, &GitError{Args: []string{"cat-file", "--batch"}, Stderr: stderr.String(), Err: err}
	}
	return out, nil
}
