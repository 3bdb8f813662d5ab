// Package tokens counts tokens the way the models that read git-speed's
// output do: with a real BPE vocabulary (o200k by default, cl100k on
// request), or with the chars/4 guess when asked for it. Counters are safe
// for concurrent use.
package tokens

import (
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// Names of the counters New accepts.
const (
	O200k  = "o200k"
	Cl100k = "cl100k"
	Chars4 = "chars4"
)

// Counter counts the tokens of a text.
type Counter interface {
	Count(text string) int
	Name() string
}

// New returns the counter called name ("o200k", "cl100k" or "chars4").
func New(name string) (Counter, error) {
	n, err := CanonicalName(name)
	switch n {
	case O200k:
		return getBPE(O200k, tokenizer.O200kBase)
	case Cl100k:
		return getBPE(Cl100k, tokenizer.Cl100kBase)
	case Chars4:
		return chars4{}, nil
	}
	return nil, err
}

// CanonicalName is the Name of the counter New(name) gives, without
// loading its vocabulary (which takes tens of milliseconds).
func CanonicalName(name string) (string, error) {
	switch name {
	case O200k, "o200k_base", "":
		return O200k, nil
	case Cl100k, "cl100k_base":
		return Cl100k, nil
	case Chars4:
		return Chars4, nil
	}
	return "", fmt.Errorf("unknown tokenizer %q (want o200k, cl100k or chars4)", name)
}

var (
	bpeMu    sync.Mutex
	bpeCache = map[string]*bpe{}
)

// getBPE returns the counter of an encoding, shared by the process. Its
// vocabulary is loaded on the first count, not here: a run whose counts
// all come from a cache (scope's kept counts) never pays for it.
func getBPE(name string, enc tokenizer.Encoding) (*bpe, error) {
	bpeMu.Lock()
	defer bpeMu.Unlock()
	if b, ok := bpeCache[name]; ok {
		return b, nil
	}
	b := &bpe{name: name, enc: enc}
	bpeCache[name] = b
	return b, nil
}

type bpe struct {
	name  string
	enc   tokenizer.Encoding
	once  sync.Once
	codec tokenizer.Codec // nil when the vocabulary cannot be loaded
}

func (b *bpe) Name() string { return b.name }

func (b *bpe) load() {
	b.once.Do(func() {
		if c, err := tokenizer.Get(b.enc); err == nil {
			b.codec = c
		}
	})
}

// Count returns the exact number of tokens of text. Invalid UTF-8 is counted
// as the replacement characters a model would see.
func (b *bpe) Count(text string) int {
	if text == "" {
		return 0
	}
	if !utf8.ValidString(text) {
		text = toValid(text)
	}
	b.load()
	if b.codec == nil {
		return Chars4Count(text)
	}
	n, err := b.codec.Count(text)
	if err != nil {
		return Chars4Count(text)
	}
	return n
}

func toValid(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		out = append(out, r)
	}
	return string(out)
}

type chars4 struct{}

func (chars4) Name() string          { return Chars4 }
func (chars4) Count(text string) int { return Chars4Count(text) }

// Chars4Count is the chars/4 guess: one token per four bytes, rounded up.
func Chars4Count(text string) int { return (len(text) + 3) / 4 }
