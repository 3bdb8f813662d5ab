package deflate

import (
	"bytes"
	"compress/zlib"
	"container/heap"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// roundTrip compresses src with e and reads it back with the standard
// library's zlib reader, which checks the stream and its checksum.
func roundTrip(t testing.TB, e *Encoder, src []byte) []byte {
	t.Helper()
	prefix := []byte("entry header")
	out := e.Compress(append([]byte(nil), prefix...), src)
	if !bytes.HasPrefix(out, prefix) {
		t.Fatalf("Compress lost what dst held")
	}
	stream := out[len(prefix):]
	zr, err := zlib.NewReader(bytes.NewReader(stream))
	if err != nil {
		t.Fatalf("%d bytes: %v", len(src), err)
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%d bytes: %v", len(src), err)
	}
	if !bytes.Equal(got, src) {
		t.Fatalf("%d bytes: read back %d bytes that differ", len(src), len(got))
	}
	return stream
}

func random(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// text is n bytes of the Go sources of this package's standard library
// neighbours, repeated as needed: real text with real repetition.
func text(t testing.TB, n int) []byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "compress", "flate", "*.go"))
	var all []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil {
			all = append(all, b...)
		}
	}
	if len(all) == 0 {
		all = []byte(strings.Repeat("func (e *Encoder) Compress(dst, src []byte) []byte {\n", 50))
	}
	for len(all) < n {
		all = append(all, all...)
	}
	return all[:n]
}

// TestEdgeSizes: empty and tiny inputs, the sizes around a block's and a
// stored block's bounds, incompressible data (stored blocks), long runs
// (the longest matches) and text (dynamic codes), all through one
// encoder, so nothing of one input leaks into the next.
func TestEdgeSizes(t *testing.T) {
	var e Encoder
	sizes := []int{0, 1, 2, 3, 7, 8, 9, 100, dynamicFrom - 1, dynamicFrom, 1 << 15, 1<<16 - 1, 1 << 16, 1<<16 + 1, 3<<16 + 5, 1 << 20}
	for _, n := range sizes {
		roundTrip(t, &e, make([]byte, n))
		roundTrip(t, &e, bytes.Repeat([]byte("ab"), n)[:n])
		roundTrip(t, &e, random(n, uint64(n)))
		roundTrip(t, &e, text(t, n))
		mixed := append(random(n/2, 7), text(t, n-n/2)...)
		roundTrip(t, &e, mixed)
	}
	for _, n := range sizes {
		checkStore(t, random(n, 5))
	}
	// incompressible data costs its stored blocks' headers and no more
	for _, n := range []int{1 << 12, 1 << 16, 1<<16 + 1, 1 << 18} {
		out := roundTrip(t, &e, random(n, 3))
		if limit := n + 2 + 4 + 10*(n/blockInput+1); len(out) > limit {
			t.Errorf("%d random bytes took %d, want at most %d", n, len(out), limit)
		}
	}
	// a run is a few matches
	if out := roundTrip(t, &e, make([]byte, 1<<20)); len(out) > 1<<20/258/2 {
		t.Errorf("1 MiB of zeros took %d bytes", len(out))
	}
}

// checkStore: Store's stream reads back as src, is as long as StoredSize
// says and is made of stored blocks only: each block's header byte is 0
// or 1 (final) and its LEN and NLEN agree.
func checkStore(t testing.TB, src []byte) {
	t.Helper()
	out := Store([]byte("hdr"), src)[3:]
	if len(out) != StoredSize(len(src)) {
		t.Fatalf("%d bytes stored in %d, StoredSize says %d", len(src), len(out), StoredSize(len(src)))
	}
	zr, err := zlib.NewReader(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, src) {
		t.Fatalf("%d bytes stored read back as %d bytes, %v", len(src), len(got), err)
	}
	for p := 2; ; {
		if out[p] > 1 || out[p+1] != ^out[p+3] || out[p+2] != ^out[p+4] {
			t.Fatalf("%d bytes stored: not a stored block at %d", len(src), p)
		}
		final := out[p] == 1
		p += 5 + (int(out[p+1]) | int(out[p+2])<<8)
		if final {
			break
		}
	}
}

// TestHugeStored: an input past maxInput is written as stored blocks.
func TestHugeStored(t *testing.T) {
	defer func(old int) { maxInput = old }(maxInput)
	maxInput = 1000
	var e Encoder
	src := make([]byte, 70000)
	if out := roundTrip(t, &e, src); len(out) != StoredSize(len(src)) {
		t.Errorf("%d zeros past maxInput took %d bytes, stored %d", len(src), len(out), StoredSize(len(src)))
	}
}

// TestNearStdlib: on text the dynamic codes keep the output within a few
// percent of the standard library's fastest level; the fixed codes alone
// would not.
func TestNearStdlib(t *testing.T) {
	var e Encoder
	for _, n := range []int{2 << 10, 8 << 10, 64 << 10, 300 << 10} {
		src := text(t, n)
		mine := len(roundTrip(t, &e, src))
		var buf bytes.Buffer
		zw, _ := zlib.NewWriterLevel(&buf, zlib.BestSpeed)
		zw.Write(src)
		zw.Close()
		if float64(mine) > 1.1*float64(buf.Len()) {
			t.Errorf("%d bytes of text: %d compressed, the standard library's fastest %d", n, mine, buf.Len())
		}
	}
}

// refCost is the weighted length of an unlimited Huffman code for freq,
// built with a heap: what the in-place lengths must equal when no
// length passes the limit.
func refCost(freq []uint32) int {
	h := &weights{}
	for _, f := range freq {
		if f > 0 {
			*h = append(*h, int(f))
		}
	}
	heap.Init(h)
	cost := 0
	for h.Len() > 1 {
		a, b := heap.Pop(h).(int), heap.Pop(h).(int)
		cost += a + b
		heap.Push(h, a+b)
	}
	return cost
}

type weights []int

func (w weights) Len() int           { return len(w) }
func (w weights) Less(i, j int) bool { return w[i] < w[j] }
func (w weights) Swap(i, j int)      { w[i], w[j] = w[j], w[i] }
func (w *weights) Push(x any)        { *w = append(*w, x.(int)) }
func (w *weights) Pop() any {
	old := *w
	x := old[len(old)-1]
	*w = old[:len(old)-1]
	return x
}

// checkCode: every used symbol has a length, at most limit, the code is
// complete (Kraft sum exactly 1) and at least two symbols have a length.
func checkCode(t *testing.T, freq []uint32, lens []uint8, limit int) {
	t.Helper()
	kraft, used := 0, 0
	for s, l := range lens {
		if freq[s] > 0 && l == 0 {
			t.Fatalf("symbol %d used %d times has no code", s, freq[s])
		}
		if int(l) > limit {
			t.Fatalf("symbol %d: length %d over %d", s, l, limit)
		}
		if l > 0 {
			kraft += 1 << (limit - int(l))
			used++
		}
	}
	if kraft != 1<<limit || used < 2 {
		t.Fatalf("code of %d symbols is not complete: Kraft sum %d/%d", used, kraft, 1<<limit)
	}
}

// TestLengths: optimal when under the limit, complete and limited when
// not (Fibonacci frequencies make the deepest trees), for all three
// alphabets' sizes and limits.
func TestLengths(t *testing.T) {
	var h huffBuilder
	r := rand.New(rand.NewPCG(1, 2))
	for _, alpha := range []struct{ n, limit int }{{286, 15}, {30, 15}, {19, 7}} {
		for trial := range 300 {
			freq := make([]uint32, alpha.n)
			used := trial % (alpha.n + 1)
			for _, s := range r.Perm(alpha.n)[:used] {
				freq[s] = 1 + uint32(r.IntN(1<<uint(r.IntN(17))))
			}
			if trial%7 == 0 { // Fibonacci weights: depth grows with each symbol
				a, b := uint32(1), uint32(1)
				for s := range min(alpha.n, 40) {
					freq[s] = a
					a, b = b, a+b
				}
			}
			lens := make([]uint8, alpha.n)
			h.lengths(freq, lens, alpha.limit)
			checkCode(t, freq, lens, alpha.limit)
			deepest, cost := 0, 0
			for s, l := range lens {
				deepest = max(deepest, int(l))
				cost += int(freq[s]) * int(l)
			}
			if want := refCost(freq); deepest < alpha.limit && len(h.keys) > 1 && cost != want {
				t.Fatalf("alphabet %d: cost %d, the optimum %d", alpha.n, cost, want)
			}
		}
	}
}

// FuzzCompress: whatever the input, the stream reads back as it; one
// encoder serves all inputs, as a pack writer's worker does.
func FuzzCompress(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("a"))
	f.Add([]byte("abcabcabcabcabcabcabcabcabcabcabcabcabcabcabc"))
	f.Add(bytes.Repeat([]byte{0}, 3000)) // sizes past a block: TestEdgeSizes
	f.Add(random(5000, 9))
	f.Add(text(f, 3000))
	var e Encoder
	f.Fuzz(func(t *testing.T, src []byte) {
		roundTrip(t, &e, src)
		checkStore(t, src)
		// and as a longer, more compressible input
		roundTrip(t, &e, bytes.Repeat(src, 1+(dynamicFrom*2)/(len(src)+1)))
	})
}
