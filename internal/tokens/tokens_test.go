package tokens

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestCounts(t *testing.T) {
	o, err := New(O200k)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(Cl100k)
	if err != nil {
		t.Fatal(err)
	}
	if got := o.Count("hello world"); got != 2 {
		t.Errorf("o200k(hello world) = %d, want 2", got)
	}
	if got := c.Count("hello world"); got != 2 {
		t.Errorf("cl100k(hello world) = %d, want 2", got)
	}
	if got := o.Count(""); got != 0 {
		t.Errorf("empty = %d", got)
	}
	if got := o.Count("a\xffb"); got < 2 {
		t.Errorf("invalid utf-8 counted as %d", got)
	}
	if _, err := New("gpt9"); err == nil {
		t.Error("unknown tokenizer accepted")
	}
	if got, _ := New(Chars4); got.Count("abcde") != 2 {
		t.Error("chars4 rounding")
	}
}

// BenchmarkO200kGo measures exact counting on the Go distribution's own
// source (net/http/server.go), the cost every indexed file pays.
func BenchmarkO200kGo(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go"))
	if err != nil {
		b.Skip(err)
	}
	o, _ := New(O200k)
	s := string(src)
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		o.Count(s)
	}
}
