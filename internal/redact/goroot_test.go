//go:build fpscan

package redact

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user and system CPU time so far: on a shared
// machine wall time says more about the neighbours than about the code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestGOROOTFalsePositives redacts every file of $(go env GOROOT)/src and
// reports the redactions by rule (each one a false positive, or a test key
// the Go tree ships) and the throughput. Run it with
//
//	go test -tags fpscan -run GOROOT -v ./internal/redact
//
// REDACT_SHOW=1 prints every hit with its line; REDACT_ROOT=dir scans dir
// instead.
func TestGOROOTFalsePositives(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("no go command")
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	if r := os.Getenv("REDACT_ROOT"); r != "" {
		root = r // another tree to scan, e.g. the module cache
	}
	r := Default()
	// REDACT_PROSE=1 redacts every file as a prompt is redacted: with no
	// path, so unquoted values count as in config files.
	prose := os.Getenv("REDACT_PROSE") != ""
	total := Counts{}
	hitFiles := map[string]Counts{}
	var nfiles int
	var size int64
	var el, cpu time.Duration
	// Files are read and redacted one at a time; only redaction is timed.
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil || len(b) > 4<<20 {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		text := string(b)
		start, cpu0 := time.Now(), cpuTime()
		name := rel
		if prose {
			name = ""
		}
		_, c := r.Text(name, text)
		el += time.Since(start)
		cpu += cpuTime() - cpu0
		nfiles++
		size += int64(len(b))
		if c.Total() > 0 {
			total.Add(c)
			hitFiles[p] = c
		}
		return nil
	})
	t.Logf("%d files, %.1f MB in %v wall, %v CPU: %.1f MB/s of CPU time", nfiles, float64(size)/1e6,
		el.Round(time.Millisecond), cpu.Round(time.Millisecond), float64(size)/1e6/cpu.Seconds())
	names := make([]string, 0, len(total))
	for k := range total {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		t.Logf("%-28s %d", k, total[k])
	}
	t.Logf("total %d redactions in %d files", total.Total(), len(hitFiles))
	if os.Getenv("REDACT_SHOW") != "" {
		var paths []string
		for p := range hitFiles {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			name := filepath.ToSlash(rel)
			if prose {
				name = ""
			}
			red, _ := r.Text(name, string(b))
			for _, l := range strings.Split(red, "\n") {
				if strings.Contains(l, markOpen) {
					if len(l) > 200 {
						l = l[:200]
					}
					t.Logf("%s: %s", rel, strings.TrimSpace(l))
				}
			}
		}
	}
}
