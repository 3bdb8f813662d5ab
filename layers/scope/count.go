package scope

import (
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/zeebo/blake3"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/world"
)

// counter counts tokens exactly, caching counts of whole files and
// skeletons by blob id across calls (a blob's text never changes).
type counter struct {
	c    tokens.Counter
	kept *Counts
}

type countKey struct {
	tokenizer string
	blob      string
	kind      byte // 'f' full text, 's' skeleton
}

// Counts are exact token counts of texts, kept by blob id and form across
// the scopes of one session (and, through Save and Load, across
// processes): two ints per blob and form, so they stay small even over a
// large repository. Safe for concurrent use.
type Counts struct {
	m sync.Map // countKey → int
	// added is how many counts were made (not loaded) since the last Save.
	added atomic.Int64
}

// NewCounts returns an empty set of counts.
func NewCounts() *Counts { return &Counts{} }

// newCounter counts through kept; nil keeps counts for this scope only.
func newCounter(c tokens.Counter, kept *Counts) *counter {
	if kept == nil {
		kept = NewCounts()
	}
	return &counter{c: c, kept: kept}
}

func (c *counter) name() string { return c.c.Name() }

// count counts text exactly, through the cache keyed by the text's digest
// (form 't'): the task's text, its decisions and spec are the same from
// one scope to the next, and a scope whose counts are all kept never
// loads the tokenizer's vocabulary.
func (c *counter) count(text string) int {
	if text == "" {
		return 0
	}
	sum := blake3.Sum256([]byte(text))
	return c.blob(hex.EncodeToString(sum[:16]), 't', text)
}

// blob counts text of blob in form kind, through the cache when blob is set.
func (c *counter) blob(blob string, kind byte, text string) int {
	if blob == "" {
		return c.c.Count(text)
	}
	k := countKey{c.c.Name(), blob, kind}
	if v, ok := c.kept.m.Load(k); ok {
		return v.(int)
	}
	n := c.c.Count(text)
	if _, had := c.kept.m.LoadOrStore(k, n); !had {
		c.kept.added.Add(1)
	}
	return n
}

// job is one count to make.
type job struct {
	blob string
	kind byte
	text string
	out  *int
	// skeletonOf, when set, is the file whose skeleton text is: its
	// count is also kept by blob and language (skeleton).
	skeletonOf *world.FileEntry
}

// Skeleton counts by blob and language (form 'k'): a skeleton is made
// from the blob's facts, which the blob and its language fix (with the
// settings and build the counts file is kept for), and only a skeleton
// with text is counted. A candidate whose skeleton count is kept needs
// its facts read only if its skeleton is delivered: on kubernetes a scope
// weighs hundreds of neighbours and delivers a few dozen.
func skeletonKey(e *world.FileEntry) string { return e.Blob + "/" + e.Lang }

// skeleton returns the kept count of e's skeleton, if any.
func (c *counter) skeleton(e *world.FileEntry) (int, bool) {
	if e.Blob == "" || strings.ContainsAny(e.Lang, " \n/") {
		return 0, false
	}
	if v, ok := c.kept.m.Load(countKey{c.c.Name(), skeletonKey(e), 'k'}); ok {
		return v.(int), true
	}
	return 0, false
}

// run makes a job's count and keeps it.
func (c *counter) run(j job) {
	*j.out = c.blob(j.blob, j.kind, j.text)
	if e := j.skeletonOf; e != nil && e.Blob != "" && !strings.ContainsAny(e.Lang, " \n/") {
		if _, had := c.kept.m.LoadOrStore(countKey{c.c.Name(), skeletonKey(e), 'k'}, *j.out); !had {
			c.kept.added.Add(1)
		}
	}
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
			c.run(j)
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
				c.run(j)
			}
		}()
	}
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
}

// Counts kept between runs. A count is a function of the tokenizer, the
// blob, the form, the settings and the git-speed build; the caller keeps
// one file per settings and build (cmd: <git-common-dir>/speed/cache/),
// so a scope run after the first counts only blobs it has not seen: on
// kubernetes the task's own 150 KB file alone took a fifth of a scope.
//
// The file is text, one count a line after a header line:
//
//	git-speed counts 1
//	<tokenizer> <blob> <form> <tokens>
const countsHeader = "git-speed counts 1\n"

// maxSavedCounts bounds the counts a file keeps.
const maxSavedCounts = 1 << 18

// Load adds the counts of a file Save wrote. A malformed file adds
// nothing and is an error naming the line.
func (c *Counts) Load(data []byte) error {
	rest, ok := strings.CutPrefix(string(data), countsHeader)
	if !ok {
		return errors.New("line 1: not a git-speed counts file")
	}
	type entry struct {
		k countKey
		n int
	}
	var got []entry
	for line := 2; rest != ""; line++ {
		l, tail, found := strings.Cut(rest, "\n")
		if !found {
			return fmt.Errorf("line %d: not ended by a newline", line)
		}
		rest = tail
		f := strings.Split(l, " ")
		if len(f) != 4 || f[0] == "" || f[1] == "" || len(f[2]) != 1 {
			return fmt.Errorf("line %d: want tokenizer, blob, form and count", line)
		}
		n, err := strconv.Atoi(f[3])
		if err != nil || n < 0 || strconv.Itoa(n) != f[3] {
			return fmt.Errorf("line %d: count %q is not a number of tokens", line, f[3])
		}
		got = append(got, entry{countKey{f[0], f[1], f[2][0]}, n})
	}
	for _, e := range got {
		c.m.LoadOrStore(e.k, e.n)
	}
	return nil
}

// Added reports whether counts were made since they were loaded or last
// saved (and so there is something new for Save to keep).
func (c *Counts) Added() bool { return c.added.Load() > 0 }

// Save encodes the counts (at most maxSavedCounts), sorted, for Load;
// Added is false until more are made.
func (c *Counts) Save() []byte {
	c.added.Store(0)
	var lines []string
	c.m.Range(func(k, v any) bool {
		ck := k.(countKey)
		if !strings.ContainsAny(ck.tokenizer+ck.blob, " \n") && ck.tokenizer != "" && ck.blob != "" && ck.kind > ' ' && ck.kind < 0x7f {
			lines = append(lines, fmt.Sprintf("%s %s %c %d\n", ck.tokenizer, ck.blob, ck.kind, v.(int)))
		}
		return true
	})
	sort.Strings(lines)
	if len(lines) > maxSavedCounts {
		lines = lines[:maxSavedCounts]
	}
	return []byte(countsHeader + strings.Join(lines, ""))
}
