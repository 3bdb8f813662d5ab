//go:build fpscan

package redact

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/git-speed/git-speed/internal/corpus"
)

// TestGOROOTFalsePositives redacts every file of $(go env GOROOT)/src and
// reports the redactions by rule and by file kind (each one a false
// positive, or a test key or password the tree ships), a sample of each,
// and the throughput. Run it with
//
//	go test -tags fpscan -run GOROOT -v ./internal/redact
//
// REDACT_ROOT=dir scans dir instead; REDACT_GIT=repo with REDACT_REV=rev
// scans the files of a tree of a repository, read with git cat-file as an
// index run reads them. REDACT_SAMPLES=n shows n hits of each rule and
// kind (default 3, 0 for none), each as the redacted line; REDACT_SHOW=1
// shows every hit.
func TestGOROOTFalsePositives(t *testing.T) {
	src := scanSource(t)
	r := Default()
	// REDACT_PROSE=1 redacts every file as a prompt is redacted: with no
	// path, so unquoted values count as in config files.
	prose := os.Getenv("REDACT_PROSE") != ""
	samples := 3
	if v := os.Getenv("REDACT_SAMPLES"); v != "" {
		samples, _ = strconv.Atoi(v)
	}
	if os.Getenv("REDACT_SHOW") != "" {
		samples = 1 << 30
	}
	total := Counts{}
	byKind := map[string]Counts{} // rule → kind → count
	shown := map[string][]string{}
	var nfiles, nhit int
	var size int64
	var el, cpu time.Duration
	// Files are read and redacted one at a time; only redaction is timed.
	src(func(rel string, b []byte) {
		text := string(b)
		name := rel
		if prose {
			name = ""
		}
		start, cpu0 := time.Now(), corpus.CPUTime()
		out, c := r.Text(name, text)
		el += time.Since(start)
		cpu += corpus.CPUTime() - cpu0
		nfiles++
		size += int64(len(b))
		if c.Total() == 0 {
			return
		}
		nhit++
		total.Add(c)
		kind := fileKind(rel)
		for rule, n := range c {
			if byKind[rule] == nil {
				byKind[rule] = Counts{}
			}
			byKind[rule][kind] += n
		}
		for i, l := range strings.Split(out, "\n") {
			for rest := l; ; {
				j := strings.Index(rest, markOpen)
				if j < 0 {
					break
				}
				rest = rest[j+len(markOpen):]
				rule, _, _ := strings.Cut(rest, markClose)
				key := rule + " " + kind
				if len(shown[key]) < samples {
					if len(l) > 180 {
						l = l[:180] + "…"
					}
					shown[key] = append(shown[key], fmt.Sprintf("%s:%d: %s", rel, i+1, strings.TrimSpace(l)))
				}
			}
		}
	})
	t.Logf("%d files, %.1f MB in %v wall, %v CPU: %.1f MB/s of CPU time", nfiles, float64(size)/1e6,
		el.Round(time.Millisecond), cpu.Round(time.Millisecond), float64(size)/1e6/cpu.Seconds())
	var b strings.Builder
	for _, rule := range sortedKeys(total) {
		fmt.Fprintf(&b, "\n%-24s %5d ", rule, total[rule])
		for _, k := range sortedKeys(byKind[rule]) {
			fmt.Fprintf(&b, " %s %d", k, byKind[rule][k])
		}
	}
	t.Logf("by rule and file kind:%s", b.String())
	t.Logf("total %d redactions in %d files", total.Total(), nhit)
	if samples > 0 {
		var keys []string
		for k := range shown {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Logf("%s:\n  %s", k, strings.Join(shown[k], "\n  "))
		}
	}
}

// fileKind names the kind of the file at p for the counts: its Kind, and
// its extension (or name) when that says more (yaml, json, go).
func fileKind(p string) string {
	e := strings.TrimPrefix(path.Ext(p), ".")
	if e == "" || len(e) > 12 {
		e = path.Base(p)
		if len(e) > 16 {
			e = "other"
		}
	}
	return KindOf(p).String() + "/" + e
}

func sortedKeys(c Counts) []string {
	var ks []string
	for k := range c {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// scanSource returns the walk over the files to scan: a tree of a
// repository (REDACT_GIT, REDACT_REV), a folder (REDACT_ROOT) or GOROOT/src.
// Files over 4 MB are skipped.
func scanSource(t *testing.T) func(func(rel string, data []byte)) {
	if repo := os.Getenv("REDACT_GIT"); repo != "" {
		rev := os.Getenv("REDACT_REV")
		if rev == "" {
			rev = "HEAD"
		}
		return func(f func(string, []byte)) { gitTree(t, repo, rev, f) }
	}
	root := os.Getenv("REDACT_ROOT")
	if root == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			t.Skip("no go command")
		}
		root = filepath.Join(strings.TrimSpace(string(out)), "src")
	}
	return func(f func(string, []byte)) {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || len(b) > 4<<20 {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			f(filepath.ToSlash(rel), b)
			return nil
		})
	}
}

// gitTree calls f with every blob of rev's tree in repo, in path order.
func gitTree(t *testing.T, repo, rev string, f func(string, []byte)) {
	ls, err := exec.Command("git", "-C", repo, "ls-tree", "-r", "-z", "--full-tree", rev).Output()
	if err != nil {
		t.Fatalf("git ls-tree %s: %v", rev, err)
	}
	type entry struct{ path, id string }
	var es []entry
	for _, rec := range bytes.Split(ls, []byte{0}) {
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		fields := strings.Fields(string(meta))
		if !ok || len(fields) != 3 || fields[1] != "blob" {
			continue
		}
		es = append(es, entry{string(p), fields[2]})
	}
	cmd := exec.Command("git", "-C", repo, "cat-file", "--batch")
	in, _ := cmd.StdinPipe()
	outp, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		w := bufio.NewWriter(in)
		for _, e := range es {
			fmt.Fprintln(w, e.id)
		}
		w.Flush()
		in.Close()
	}()
	br := bufio.NewReaderSize(outp, 1<<20)
	for _, e := range es {
		head, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		fields := strings.Fields(head)
		n, _ := strconv.Atoi(fields[len(fields)-1])
		data := make([]byte, n+1)
		if _, err := io.ReadFull(br, data); err != nil {
			t.Fatal(err)
		}
		if n <= 4<<20 {
			f(e.path, data[:n])
		}
	}
	cmd.Wait()
}
