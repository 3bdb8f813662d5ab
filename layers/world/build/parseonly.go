package build

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"time"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/layers/world/extract"
	"github.com/git-speed/git-speed/layers/world/formats"
)

// ParseOnlyResult is what the parse-only baseline did.
type ParseOnlyResult struct {
	Tree   string `json:"tree"`
	Files  int    `json:"files"`
	Parsed int    `json:"parsed"`
	Bytes  int64  `json:"bytes"`
	// Data and DataBytes count the files of Parsed read by a data
	// format's parser (YAML, JSON, XML, TOML).
	Data      int   `json:"data"`
	DataBytes int64 `json:"data_bytes"`
	ElapsedMS int64 `json:"elapsed_ms"`
}

// ParseOnly is the baseline a full index is measured against: it reads the
// same blobs and parses the same files on the same number of workers, and
// does nothing else (no facts, no graph, no store). Source code is parsed
// with tree-sitter; with data, files of a data format are parsed with the
// parser their extractor reads them with (formats.Parse: YAML, JSON, XML,
// TOML), since a build parses them too. Formats read by a scanner of
// their own are not parsed: their scan is their extraction.
func ParseOnly(ctx context.Context, repo *gitstore.Repo, rev string, opt Options, data bool) (*ParseOnlyResult, error) {
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
				blob, err := blobs.Read(f.rec.Blob, cfg.Index.MaxFileBytes+1)
				if err != nil || int64(len(blob)) > cfg.Index.MaxFileBytes {
					continue
				}
				if !cls.byContent(&f.rec.FileEntry, blob, extract.Supported) {
					continue
				}
				isData := false
				if err := extract.ParseOnly(f.rec.Lang, blob); errors.Is(err, extract.ErrNoParser) {
					if !data || !formats.Parse(f.rec.Lang, blob) {
						continue
					}
					isData = true
				}
				mu.Lock()
				res.Parsed++
				res.Bytes += int64(len(blob))
				if isData {
					res.Data++
					res.DataBytes += int64(len(blob))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	res.ElapsedMS = time.Since(start).Milliseconds()
	return res, ctx.Err()
}
