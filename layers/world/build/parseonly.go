package build

import (
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/layers/world/extract"
)

// ParseOnlyResult is what the parse-only baseline did.
type ParseOnlyResult struct {
	Tree      string `json:"tree"`
	Files     int    `json:"files"`
	Parsed    int    `json:"parsed"`
	Bytes     int64  `json:"bytes"`
	ElapsedMS int64  `json:"elapsed_ms"`
}

// ParseOnly is the baseline a full index is measured against: it reads the
// same blobs and parses the same files with tree-sitter on the same number
// of workers, and does nothing else (no facts, no graph, no store).
func ParseOnly(ctx context.Context, repo *gitstore.Repo, rev string, opt Options) (*ParseOnlyResult, error) {
	start := time.Now()
	_, tree, err := repo.Resolve(rev)
	if err != nil {
		return nil, err
	}
	cfg := &opt.Config
	cls := newClassifier(cfg)
	var files []*file
	err = repo.Walk(tree, func(e gitstore.Entry) error {
		files = append(files, newFile(cls, e.Path, e.Mode, e.Blob, e.Size))
		return nil
	})
	if err != nil {
		return nil, err
	}
	res := &ParseOnlyResult{Tree: tree, Files: len(files)}
	blobs, err := repo.Blobs()
	if err != nil {
		return nil, err
	}
	defer blobs.Close()
	workers := cfg.Index.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	var (
		mu       sync.Mutex
		next     int
		firstErr error
		wg       sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if next >= len(files) || firstErr != nil || ctx.Err() != nil {
					mu.Unlock()
					return
				}
				f := files[next]
				next++
				mu.Unlock()
				if !f.extract {
					continue
				}
				data, err := blobs.Read(f.rec.Blob, cfg.Index.MaxFileBytes+1)
				if err != nil || int64(len(data)) > cfg.Index.MaxFileBytes {
					continue
				}
				if !cls.byContent(&f.rec.FileEntry, data, extract.Supported) {
					continue
				}
				_ = extract.ParseOnly(f.rec.Lang, data)
				mu.Lock()
				res.Parsed++
				res.Bytes += int64(len(data))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	res.ElapsedMS = time.Since(start).Milliseconds()
	return res, ctx.Err()
}
