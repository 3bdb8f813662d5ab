package scope

import (
	"runtime"
	"sync"

	"github.com/git-speed/git-speed/internal/tokens"
)

// counter counts tokens exactly, caching counts of whole files and
// skeletons by blob id across calls (a blob's text never changes).
type counter struct {
	c tokens.Counter
}

type countKey struct {
	tokenizer string
	blob      string
	kind      byte // 'f' full text, 's' skeleton
}

// blobCounts is the process-wide cache; it holds two ints per blob and
// form, so it stays small even over a large repository.
var blobCounts sync.Map // countKey → int

func newCounter(c tokens.Counter) *counter { return &counter{c: c} }

func (c *counter) name() string { return c.c.Name() }

// count counts text exactly.
func (c *counter) count(text string) int { return c.c.Count(text) }

// blob counts text of blob in form kind, through the cache when blob is set.
func (c *counter) blob(blob string, kind byte, text string) int {
	if blob == "" {
		return c.c.Count(text)
	}
	k := countKey{c.c.Name(), blob, kind}
	if v, ok := blobCounts.Load(k); ok {
		return v.(int)
	}
	n := c.c.Count(text)
	blobCounts.Store(k, n)
	return n
}

// job is one count to make.
type job struct {
	blob string
	kind byte
	text string
	out  *int
}

// parallel runs jobs on all cores; small batches run inline.
func (c *counter) parallel(jobs []job) {
	size := 0
	for _, j := range jobs {
		size += len(j.text)
	}
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || len(jobs) < 2 || size < 64<<10 {
		for _, j := range jobs {
			*j.out = c.blob(j.blob, j.kind, j.text)
		}
		return
	}
	ch := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				*j.out = c.blob(j.blob, j.kind, j.text)
			}
		}()
	}
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
}
