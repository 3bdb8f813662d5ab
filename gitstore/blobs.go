package gitstore

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strconv"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// BlobReader reads blob contents in bulk. A BlobReader is safe for
// concurrent use: it keeps a small pool of independent readers (up to
// GOMAXPROCS), so several goroutines read in parallel without sharing a pipe.
// Close it when done; Read after Close fails.
type BlobReader interface {
	// Read returns the content of blob id, at most limit bytes (0 = all).
	// An id that is missing or not a blob is an error naming it.
	Read(id string, limit int64) ([]byte, error)
	Close() error
}

// BlobBackend selects how blobs are read.
type BlobBackend int

const (
	// CatFile keeps long-lived `git cat-file --batch` processes. The default:
	// it measured faster than go-git (see BenchmarkBlobs).
	CatFile BlobBackend = iota
	// GoGit decodes objects in process with go-git.
	GoGit
	// InProcess decodes objects in process as the store reads its own
	// (packs.go): nothing to start, the cheapest for a few blobs (a
	// one-file update), where starting cat-file costs more than reading.
	InProcess
)

func (b BlobBackend) String() string {
	switch b {
	case GoGit:
		return "gogit"
	case InProcess:
		return "inprocess"
	}
	return "catfile"
}

// ErrClosed is returned by a BlobReader used after Close.
var ErrClosed = errors.New("blob reader closed")

// Blobs returns a BlobReader using the default (fastest measured) backend.
func (r *Repo) Blobs() (BlobReader, error) { return r.BlobsWith(CatFile) }

// BlobsWith returns a BlobReader using the given backend.
func (r *Repo) BlobsWith(b BlobBackend) (BlobReader, error) {
	var newWorker func() (blobWorker, error)
	switch b {
	case CatFile:
		newWorker = func() (blobWorker, error) { return r.startCatFile() }
	case GoGit:
		newWorker = func() (blobWorker, error) {
			return &gogitWorker{st: filesystem.NewStorage(osfs.New(r.commonDir), cache.NewObjectLRU(8*cache.MiByte))}, nil
		}
	case InProcess:
		newWorker = func() (blobWorker, error) { return &objectsWorker{r: r, o: newObjects(r.objs.dir)}, nil }
	default:
		return nil, fmt.Errorf("unknown blob backend %d", b)
	}
	// Start one worker now so a broken setup fails here, not on first Read.
	w, err := newWorker()
	if err != nil {
		return nil, err
	}
	p := &blobPool{newWorker: newWorker, max: runtime.GOMAXPROCS(0)}
	p.idle = append(p.idle, w)
	p.n = 1
	return p, nil
}

type blobWorker interface {
	read(id string, limit int64) ([]byte, error)
	close() error
}

type blobPool struct {
	newWorker func() (blobWorker, error)
	max       int

	mu     sync.Mutex
	cond   *sync.Cond
	idle   []blobWorker
	n      int // workers created and not closed
	closed bool
}

func (p *blobPool) get() (blobWorker, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cond == nil {
		p.cond = sync.NewCond(&p.mu)
	}
	for {
		if p.closed {
			return nil, ErrClosed
		}
		if k := len(p.idle); k > 0 {
			w := p.idle[k-1]
			p.idle = p.idle[:k-1]
			return w, nil
		}
		if p.n < p.max {
			p.n++
			p.mu.Unlock()
			w, err := p.newWorker()
			p.mu.Lock()
			if err != nil {
				p.n--
				return nil, err
			}
			return w, nil
		}
		p.cond.Wait()
	}
}

func (p *blobPool) put(w blobWorker, broken bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if broken || p.closed {
		_ = w.close()
		p.n--
	} else {
		p.idle = append(p.idle, w)
	}
	if p.cond != nil {
		p.cond.Signal()
	}
}

func (p *blobPool) Read(id string, limit int64) ([]byte, error) {
	if !isHexID(id) {
		return nil, fmt.Errorf("read blob %q: not an object id", id)
	}
	w, err := p.get()
	if err != nil {
		return nil, err
	}
	data, err := w.read(id, limit)
	var be *blobError
	p.put(w, err != nil && !errors.As(err, &be))
	return data, err
}

func (p *blobPool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	var first error
	for _, w := range p.idle {
		if err := w.close(); err != nil && first == nil {
			first = err
		}
		p.n--
	}
	p.idle = nil
	if p.cond != nil {
		p.cond.Broadcast()
	}
	return first
}

// blobError is a per-object failure that leaves the worker usable.
type blobError struct{ id, msg string }

func (e *blobError) Error() string { return "read blob " + e.id + ": " + e.msg }

// catFileWorker is one `git cat-file --batch` process.
type catFileWorker struct {
	cmd *exec.Cmd
	in  *bufio.Writer
	inc io.Closer
	out *bufio.Reader
}

func (r *Repo) startCatFile() (*catFileWorker, error) {
	cmd := r.command("cat-file", "--batch")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start git cat-file: %w", err)
	}
	return &catFileWorker{cmd: cmd, in: bufio.NewWriter(stdin), inc: stdin, out: bufio.NewReaderSize(stdout, 64<<10)}, nil
}

func (w *catFileWorker) read(id string, limit int64) ([]byte, error) {
	w.in.WriteString(id)
	w.in.WriteByte('\n')
	if err := w.in.Flush(); err != nil {
		return nil, fmt.Errorf("read blob %s: git cat-file: %w", id, err)
	}
	header, err := w.out.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("read blob %s: git cat-file: %w", id, err)
	}
	f := bytes.Fields([]byte(header))
	if len(f) == 2 && string(f[1]) == "missing" {
		return nil, &blobError{id, "object not found"}
	}
	if len(f) != 3 {
		return nil, fmt.Errorf("read blob %s: git cat-file: unexpected header %q", id, header)
	}
	size, err := strconv.ParseInt(string(f[2]), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: git cat-file: unexpected header %q", id, header)
	}
	want := size
	if limit > 0 && limit < size {
		want = limit
	}
	data := make([]byte, want)
	if _, err := io.ReadFull(w.out, data); err != nil {
		return nil, fmt.Errorf("read blob %s: git cat-file: %w", id, err)
	}
	// Skip what we did not want, plus the trailing newline.
	if _, err := w.out.Discard(int(size-want) + 1); err != nil {
		return nil, fmt.Errorf("read blob %s: git cat-file: %w", id, err)
	}
	if string(f[1]) != "blob" {
		return nil, &blobError{id, "is a " + string(f[1]) + ", not a blob"}
	}
	return data, nil
}

// close ends the process. It may be mid-reply after a failed read, so it is
// killed rather than waited on politely (it holds no state worth keeping).
func (w *catFileWorker) close() error {
	_ = w.inc.Close()
	_ = w.cmd.Process.Kill()
	_ = w.cmd.Wait()
	return nil
}

// gogitWorker reads with its own go-git object storage (go-git storage is not
// goroutine-safe, so each worker has one).
type gogitWorker struct {
	st *filesystem.Storage
}

func (w *gogitWorker) read(id string, limit int64) ([]byte, error) {
	obj, err := w.st.EncodedObject(plumbing.AnyObject, plumbing.NewHash(id))
	if err == plumbing.ErrObjectNotFound {
		return nil, &blobError{id, "object not found"}
	}
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", id, err)
	}
	if obj.Type() != plumbing.BlobObject {
		return nil, &blobError{id, "is a " + obj.Type().String() + ", not a blob"}
	}
	rc, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", id, err)
	}
	defer rc.Close()
	size := obj.Size()
	if limit > 0 && limit < size {
		size = limit
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(rc, data); err != nil {
		return nil, fmt.Errorf("read blob %s: %w", id, err)
	}
	return data, nil
}

func (w *gogitWorker) close() error { return w.st.Close() }

// objectsWorker reads with its own objects (its own maps of the packs, so
// workers share nothing). Objects it cannot find (in a pack whose index it
// does not read, or not fetched yet in a partial clone) are read through
// cat-file.
type objectsWorker struct {
	r  *Repo
	o  *objects
	cf *catFileWorker
}

func (w *objectsWorker) read(id string, limit int64) ([]byte, error) {
	t, data, err := w.o.read(plumbing.NewHash(id))
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		// Objects of a pack it cannot read, and objects this repository
		// does not hold yet: in a partial clone git fetches a missing
		// blob from the promisor remote when cat-file asks for it, and
		// cat-file reports a blob truly missing.
		if w.cf == nil {
			if w.cf, err = w.r.startCatFile(); err != nil {
				return nil, err
			}
		}
		return w.cf.read(id, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", id, err)
	}
	if t != plumbing.BlobObject {
		return nil, &blobError{id, "is a " + t.String() + ", not a blob"}
	}
	if limit > 0 && limit < int64(len(data)) {
		data = data[:limit]
	}
	return data, nil
}

func (w *objectsWorker) close() error {
	w.o.close()
	if w.cf != nil {
		return w.cf.close()
	}
	return nil
}

// isHexID reports whether s is a full 40-digit lowercase hex object id.
func isHexID(s string) bool {
	if len(s) != 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
