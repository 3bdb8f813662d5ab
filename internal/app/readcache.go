package app

import (
	"bytes"
	"sync"

	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/build"
)

// readCacheBytes bounds the texts a session keeps for read: an agent reads
// one file in several ranges, and a long-lived session answers many.
const readCacheBytes = 32 << 20

// readText is a file's redacted text with the offset of each line's start.
type readText struct {
	data  []byte
	lines []int // lines[i] is where line i+1 starts; len(lines) lines
}

func newReadText(data []byte) *readText {
	t := &readText{data: data}
	end := len(data)
	if end > 0 && data[end-1] == '\n' {
		end--
	}
	t.lines = append(t.lines, 0)
	for off := 0; ; {
		i := bytes.IndexByte(data[off:end], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		t.lines = append(t.lines, off)
	}
	return t
}

// line returns line n (1-based) without its newline.
func (t *readText) line(n int) []byte {
	start := t.lines[n-1]
	end := len(t.data)
	if n < len(t.lines) {
		end = t.lines[n] - 1
	} else if end > start && t.data[end-1] == '\n' {
		end--
	}
	return t.data[start:end]
}

// readCache keeps the texts read last, by blob and path (redaction
// depends on the path's file kind), up to readCacheBytes; the oldest go
// first.
type readCache struct {
	mu    sync.Mutex
	texts map[string]*readText
	order []string
	bytes int
}

func (c *readCache) get(key string) *readText {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.texts[key]
}

func (c *readCache) put(key string, t *readText) {
	if len(t.data) > readCacheBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.texts == nil {
		c.texts = map[string]*readText{}
	}
	if _, ok := c.texts[key]; ok {
		return
	}
	for c.bytes+len(t.data) > readCacheBytes && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= len(c.texts[old].data)
		delete(c.texts, old)
	}
	c.texts[key] = t
	c.order = append(c.order, key)
	c.bytes += len(t.data)
}

// treeText is path's redacted text at w's tree, from the session's cache
// when it read the same blob before (read, symbols' textual uses).
func (s *Session) treeText(w *build.World, e *world.FileEntry, path string) (*readText, error) {
	key := e.Blob + "\x00" + path
	if t := s.reads.get(key); t != nil {
		return t, nil
	}
	data, err := w.Content(path)
	if err != nil {
		return nil, err
	}
	t := newReadText(data)
	s.reads.put(key, t)
	return t, nil
}
