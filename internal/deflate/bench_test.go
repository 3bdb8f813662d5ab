package deflate

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// benchObjects are the inputs of BenchmarkCompress: the objects in the
// file $GIT_SPEED_BENCH_OBJECTS, in `git cat-file --batch` output form
// (the facts blobs of a store, say:
//
//	git cat-file --batch-check='%(objectname) %(objecttype) %(objectsize)' --batch-all-objects |
//	  awk '$2=="blob" && $3>=1024 {print $1}' | git cat-file --batch > objects
//
// ), or else the Go files of GOROOT/src/net/http of 1 KiB or more.
func benchObjects(b *testing.B) [][]byte {
	var objs [][]byte
	if name := os.Getenv("GIT_SPEED_BENCH_OBJECTS"); name != "" {
		f, err := os.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		r := bufio.NewReader(f)
		for {
			var id, typ string
			var n int
			if _, err := fmt.Fscanln(r, &id, &typ, &n); err == io.EOF {
				break
			} else if err != nil {
				b.Fatalf("%s: %v", name, err)
			}
			o := make([]byte, n+1) // and its newline
			if _, err := io.ReadFull(r, o); err != nil {
				b.Fatalf("%s: %v", name, err)
			}
			objs = append(objs, o[:n])
		}
		return objs
	}
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	for _, name := range files {
		if o, err := os.ReadFile(name); err == nil && len(o) >= 1<<10 {
			objs = append(objs, o)
		}
	}
	if len(objs) == 0 {
		b.Skip("no GOROOT sources")
	}
	return objs
}

// BenchmarkCompress compresses each object as one stream, with this
// package and with compress/zlib's fastest level (a writer reused), and
// reports the output's size against the input's.
func BenchmarkCompress(b *testing.B) {
	objs := benchObjects(b)
	total := 0
	for _, o := range objs {
		total += len(o)
	}
	b.Run("deflate", func(b *testing.B) {
		b.SetBytes(int64(total))
		var e Encoder
		var buf []byte
		out := 0
		for range b.N {
			out = 0
			for _, o := range objs {
				buf = e.Compress(buf[:0], o)
				out += len(buf)
			}
		}
		b.ReportMetric(float64(out)/float64(total), "ratio")
	})
	b.Run("stdlib", func(b *testing.B) {
		b.SetBytes(int64(total))
		var buf bytes.Buffer
		zw, _ := zlib.NewWriterLevel(&buf, zlib.BestSpeed)
		out := 0
		for range b.N {
			out = 0
			for _, o := range objs {
				buf.Reset()
				zw.Reset(&buf)
				zw.Write(o)
				zw.Close()
				out += buf.Len()
			}
		}
		b.ReportMetric(float64(out)/float64(total), "ratio")
	})
}
