// Package terms owns git-speed's lexical vocabulary: it turns a file (its
// facts and content) into a compact term vector, a query into terms, and
// stores a tree's vectors as an inverted index sharded by term hash. The
// same normalisation (identifier splitting, lower case, a light stemmer)
// runs on both sides, so a query word meets the identifiers, definitions,
// doc lines, headings, imports and prose words of the files. It is pure Go
// and knows nothing of git: layers/world/build stores what it makes and
// layers/pack scores against it.
//
// Term vectors are stored: any change to what Of returns for the same
// input (the stemmer, the stop words, the limits) must bump
// world.FormatVersion so stored vectors are rebuilt.
package terms

import (
	"bytes"
	"encoding/binary"
	"github.com/git-speed/git-speed/internal/lex"
	"math"
	"math/bits"
	"slices"
	"sort"

	"github.com/git-speed/git-speed/layers/world"
)

// Field bits of a world.Term: where in a file the term occurs.
const (
	Content uint8 = 1 << iota // a word of the text (prose, comments, strings, code)
	Ident                     // a compound identifier of the text, whole or one of its parts
	Def                       // the name of a definition, whole or one of its parts
	DocLine                   // a word of a definition's doc line
	Heading                   // a word of a Markdown heading
	Import                    // a part of an import path or an imported name
	Path                      // a part of the file's path (never stored: blobs have no path)
)

// Limits of a vector: a term is 2 to MaxLen bytes long, and a file keeps
// its MaxTerms most frequent terms (the named fields always win).
const (
	MinLen   = 2
	MaxLen   = 40
	MaxTerms = 3000
)

// FieldNames names the field bits in order, for evidence strings.
var FieldNames = []string{"content", "identifier", "definition", "doc", "heading", "import", "path"}

// Names lists the names of the bits set in fields.
func Names(fields uint8) []string {
	var out []string
	for i, n := range FieldNames {
		if fields&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// acc accumulates a vector.
type acc map[string]*world.Term

func (a acc) add(t string, field uint8, n uint32) {
	if len(t) < MinLen || len(t) > MaxLen || stop[t] || lex.Digits(t) {
		return
	}
	e := a[t]
	if e == nil {
		e = &world.Term{Text: t}
		a[t] = e
	}
	e.Fields |= field
	if field == Content || field == Ident {
		e.Count += n
	}
}

// addWord adds one raw token (an identifier or a word) under field: its
// stemmed lower-case parts, and for a compound identifier the whole of it
// too, marked as an identifier.
func (a acc) addWord(tok string, field uint8) {
	extra := uint8(0)
	Forms(tok, func(t string, whole bool) {
		if whole && field == Content {
			extra = Ident // the whole comes first: its parts are marked too
		}
		a.add(t, field|extra, 1)
	})
}

// Forms calls fn with the terms one raw token stands for, as the index
// holds them: for a compound identifier first its whole (Whole; whole is
// true), then each stemmed lower-case part (Stem of each Split part).
// Queries, commit messages and lines are matched against the index
// through it.
func Forms(tok string, fn func(term string, whole bool)) {
	parts := lex.Split(tok)
	if len(parts) > 1 {
		fn(lex.Whole(tok), true)
	}
	for _, p := range parts {
		fn(lex.Stem(p), false)
	}
}

// Of makes the term vector of a file from its facts and content, sorted
// by term. It depends only on them, so it is stored with the blob's facts.
// It gives what adding every token to an acc with addWord gives (content
// words under Content, definition names under Def, and so on); the
// builder behind it (vector) only does so with less garbage.
func Of(f *world.Facts, content []byte) (vec []world.Term) {
	with(f, content, true, func(v []world.Term, _ []uint32) {
		if len(v) > 0 { // no terms is nil, whatever builder made them
			vec = slices.Clone(v)
		}
	})
	return vec
}

// With calls fn with the vector Of returns, which is the builder's own,
// texts included: it is valid only during the call (a build packs and
// encodes it, copying what it keeps, and allocates nothing for it).
// hashes are the hashes of the vector's texts, for
// Numbering.NumberTerms, and valid as long.
func With(f *world.Facts, content []byte, fn func(vec []world.Term, hashes []uint32)) {
	with(f, content, false, fn)
}

// with is With, the texts given in a string of their own (one for all
// of them) when own is set.
func with(f *world.Facts, content []byte, own bool, fn func(vec []world.Term, hashes []uint32)) {
	v := vectors.Get().(*vector)
	defer func() { v.reset(); vectors.Put(v) }()
	if f != nil && SecretValues(f.Lang) {
		// Values are never stored: the words are the skeleton's, which
		// the extractor wrote with every value masked.
		content = []byte(f.Skeleton)
	}
	// Content words repeat: each distinct token is split and stemmed
	// once, and its repeats only count.
	n := distinctGuess(len(content))
	v.seen.reserve(n)
	v.index.reserve(n)
	v.contentWords(content)
	if f != nil {
		for _, d := range f.Defs {
			v.nameWord(bytesOf(d.Name), Def)
			if d.Doc != "" {
				v.named(bytesOf(d.Doc), DocLine)
			}
		}
		for _, im := range f.Imports {
			v.named(bytesOf(im.Path), Import)
			for _, n := range im.Names {
				v.nameWord(bytesOf(n), Import)
			}
		}
		if f.Lang == "markdown" {
			eachHeading(content, func(h []byte) { v.named(h, Heading) })
		}
	}
	fn(v.finish(own))
}

// distinctGuess is about how many distinct tokens, and terms, a text of
// n bytes holds: three times the square root of n held for most files
// of a corpus of Go, Python, PHP, C, JavaScript and prose (a file of
// 10 KB, some 300), and a data file of long lists holds more. A vector's
// tables are made that large at once (a table filled from its fewest
// slots grew five times for a file of 20 KB), up to keepMap.
func distinctGuess(n int) int {
	return min(3*int(math.Sqrt(float64(n))), keepMap)
}

// PathTerms are the terms of a path's folders and file name, stemmed.
func PathTerms(p string) []string {
	a := acc{}
	forWords(p, func(w string) { a.addWord(w, Path) })
	out := make([]string, 0, len(a))
	for t := range a {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// eachHeading calls fn with the text of each Markdown ATX heading of
// content: its line, the leading #s and spaces cut (not copied).
func eachHeading(content []byte, fn func([]byte)) {
	for line := range bytes.Lines(content) {
		if line[0] == '#' {
			fn(bytes.TrimLeft(bytes.TrimSuffix(line, []byte{'\n'}), "# "))
		}
	}
}

// forWords calls fn for every run of letters, digits and underscores of s.
func forWords(s string, fn func(string)) { Words([]byte(s), fn) }

// Words calls fn for every token of b: a run of ASCII letters, digits and
// underscores, or of non-ASCII letters, at most 4×MaxLen bytes long
// (longer runs are not words: hashes, base64, minified code).
func Words(b []byte, fn func(string)) {
	wordBytes(b, func(w []byte) { fn(string(w)) })
}

// wordBytes is Words handing out the bytes of each word.
func wordBytes(b []byte, fn func([]byte)) {
	for len(b) > 0 {
		var w []byte
		if w, b = nextWord(b); len(w) > 0 && len(w) <= 4*MaxLen {
			fn(w)
		}
	}
}

// nextWord returns the first run of word bytes of b, empty when there is
// none, and the bytes after it. The gap before the word is skipped a
// byte at a time by table (most gaps are a byte or two); the word's end
// is found eight bytes at a time (wordBits), the last few bytes of b by
// table (on kubernetes' text, 12% less CPU than a table loop for both).
func nextWord(b []byte) (word, rest []byte) {
	i := 0
	for i < len(b) && !wordByte[b[i]] {
		i++
	}
	j := i
	for ; j+8 <= len(b); j += 8 {
		if m := wordBits(binary.LittleEndian.Uint64(b[j:])) ^ highBits; m != 0 {
			j += bits.TrailingZeros64(m) >> 3
			return b[i:j], b[j:]
		}
	}
	for j < len(b) && wordByte[b[j]] {
		j++
	}
	return b[i:j], b[j:]
}

// nextHashed is nextWord on b[i:], giving the word as b[start:end] and
// its hashBytes and headOf, computed from the eight bytes at a time it
// reads to find the word's end (the content pass hashes every word to
// count it: reading it once is cheaper than reading it again). No word
// is start == end == len(b).
func nextHashed(b []byte, i int) (start, end int, h uint32, head uint64) {
	for i < len(b) && !wordByte[b[i]] {
		i++
	}
	hs := hashSeed
	j := i
	var x uint64
	for ; ; j += 8 {
		if j+8 > len(b) {
			// Fewer than eight bytes left: a byte at a time, and the
			// last of them read as tailOf does.
			k := j
			for k < len(b) && wordByte[b[k]] {
				k++
			}
			x = tailOf(b[i:k], k-j)
			j = k
			break
		}
		x = binary.LittleEndian.Uint64(b[j:])
		if m := wordBits(x) ^ highBits; m != 0 {
			n := bits.TrailingZeros64(m) >> 3
			x &= 1<<(8*n) - 1
			j += n
			break
		}
		if j == i {
			head = x
		}
		hs = hashStep(hs, x)
	}
	if j-i < 8 {
		head = x
	}
	return i, j, hashEnd(hs, x, j-i), head
}

// highBits has the high bit of each of eight bytes set.
const highBits = 0x8080808080808080

// wordBits returns the high bit of each byte of x set when the byte is a
// word byte (wordByte), clear when not. Below 0x80 a byte's class is
// found by adding constants to its low seven bits, which never carries
// into the next byte: v + (0x80-c) has its high bit set exactly when
// v >= c, and v + (0x7f-c) when v > c.
func wordBits(x uint64) uint64 {
	const ones = 0x0101010101010101
	v := x &^ highBits
	digit := (v + (0x80-'0')*ones) &^ (v + (0x7f-'9')*ones)
	l := v | 0x20*ones // upper-case letters fold to lower case; nothing else lands in a..z
	letter := (l + (0x80-'a')*ones) &^ (l + (0x7f-'z')*ones)
	under := ^((v ^ '_'*ones) + 0x7f*ones) // the high bit set when v == '_'
	return (x | digit | letter | under) & highBits
}

// wordByte holds the bytes words are made of: ASCII letters, digits and
// underscores, and every byte of a non-ASCII character.
var wordByte = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
	}
	return t
}()

// stop is lex's stop words, with their stems.
var stop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range lex.StopWords() {
		m[w] = true
	}
	return m
}()

// stopShape has bit n of byte c set when a stop word n bytes long starts
// with c: most terms are known not to be stop words without a lookup.
// (Terms are at most MaxLen bytes long, under 64.)
var stopShape = func() (t [256]uint64) {
	for w := range stop {
		t[w[0]] |= 1 << len(w)
	}
	return t
}()

// stopHeads holds the stop words of at most eight bytes as their headOf
// and length, open-addressed by stopSlot: looking a term up reads no
// string (the map's look-up hashed every term stopShape let through).
var stopHeads = func() (t [512]struct {
	head uint64
	n    int
}) {
	for w := range stop {
		if len(w) > 8 {
			continue
		}
		h := headOf([]byte(w))
		i := stopSlot(h)
		for t[i].n != 0 {
			i = (i + 1) % uint64(len(t))
		}
		t[i].head, t[i].n = h, len(w)
	}
	return t
}()

func stopSlot(head uint64) uint64 { return head * 0x9E3779B97F4A7C15 >> (64 - 9) }

// isStopHead is stop[string(t)] for t, whose headOf is head.
func isStopHead(t []byte, head uint64) bool {
	if len(t) > 8 {
		return stop[string(t)]
	}
	for i := stopSlot(head); stopHeads[i].n != 0; i = (i + 1) % uint64(len(stopHeads)) {
		if stopHeads[i].head == head && stopHeads[i].n == len(t) {
			return true
		}
	}
	return false
}

// SecretValues reports whether files of lang hold values that must never
// be stored or shown (.env files): only their keys are indexed, and packs
// quote none of their lines.
func SecretValues(lang string) bool { return lang == "env" }
