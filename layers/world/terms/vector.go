package terms

import (
	"bytes"
	"github.com/git-speed/git-speed/internal/lex"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/git-speed/git-speed/layers/world"
)

// vector builds one file's term vector as acc does, with less garbage:
// entries are values in one slice indexed by a map, a term's text is
// allocated once when the term is first seen, identifiers are split and
// stemmed in a scratch buffer, and builders are reused between files.
// Indexing a large tree runs Of on every file, and acc's allocations were
// a good part of a build's CPU and of its garbage collection.
//
// Its tables are the file's own, small and hot while the file is read.
// A builder that also remembered across files what each token stands for
// (tried: nine tokens new to a file in ten were met in an earlier one)
// was faster in a benchmark that only makes vectors, and slower in a
// build of kubernetes (content pass 1.1 -> 1.4 s CPU, +10 MiB), whose
// parses between files evict such a table from the caches.
type vector struct {
	terms []world.Term
	// hashes holds the hashBytes of each entry's text, given with the
	// vector to the numbering (Numbering.NumberTerms), which so does not
	// hash every term of a build again.
	hashes []uint32
	index  table    // term → its entry in terms
	keys   []span32 // the text of each entry of terms in index.arena
	// counts holds the count of entry e of terms at e+1, and at 0 the
	// repeats of tokens that count none: a repeat adds one without a
	// branch the processor would mispredict (stop words are frequent).
	counts []uint32
	// seen holds each distinct content token with the entry its repeats
	// count plus one: 0 when none, compoundToken for an identifier of
	// several parts (not counted).
	seen  table
	buf   []byte   // lower-case parts of the token being split, then its stems
	parts []span32 // the parts, as ranges of buf
	// compound tells whether the last token word added had several parts.
	compound bool
	order    []uint64     // finish's sort
	scratch  []uint64     // finish's sort keys before sorting
	sorted   []world.Term // finish's result
	sortedH  []uint32     // the hashes of sorted's terms
}

type span32 struct{ lo, hi int32 }

var vectors = sync.Pool{New: func() any { return &vector{counts: []uint32{0}} }}

func (v *vector) reset() {
	// Emptying a table costs as much as the file's keys (table.reset),
	// and the memory of a very large file's vector is given up, not kept
	// in the pool.
	if len(v.terms) > keepMap {
		v.terms, v.keys, v.counts, v.order, v.scratch, v.sorted = nil, nil, nil, nil, nil, nil
		v.hashes, v.sortedH = nil, nil
	}
	v.terms, v.keys, v.counts = v.terms[:0], v.keys[:0], append(v.counts[:0], 0)
	v.hashes, v.sortedH = v.hashes[:0], v.sortedH[:0]
	v.index.reset(keepMap)
	v.seen.reset(keepMap)
	v.buf, v.parts = v.buf[:0], v.parts[:0]
	clear(v.sorted) // the texts are the file's: not kept alive
	v.sorted = v.sorted[:0]
}

// keepMap is the most entries a builder may have held and still keep its
// memory for the next file.
const keepMap = 1 << 14

// entry returns the entry of t with field set, -1 for a term not kept;
// t may be a scratch buffer: it is copied when the term is new. Whether a
// term is kept (its length, stop words, digits) is decided when the
// builder first sees it: the index holds -1 for a term not kept.
func (v *vector) entry(t []byte, field uint8) int32 {
	if len(t) < MinLen || len(t) > MaxLen {
		return -1
	}
	h, head := hashHead(t)
	return v.entryHashed(t, h, head, field)
}

// entryHashed is entry for a term of MinLen to MaxLen bytes whose
// hashBytes and headOf are h and head.
func (v *vector) entryHashed(t []byte, h uint32, head uint64, field uint8) int32 {
	p, ok := v.index.upsertHashed(t, h, head)
	if !ok {
		if stopShape[t[0]]&(1<<len(t)) != 0 && isStopHead(t, head) || lex.Digits(t) {
			*p = -1
			return -1
		}
		// The text is set by finish, from the index's keys.
		*p = int32(len(v.terms))
		v.terms = append(v.terms, world.Term{})
		v.hashes = append(v.hashes, h)
		v.counts = append(v.counts, 0)
		end := int32(len(v.index.arena)) // upsert added t at the arena's end
		v.keys = append(v.keys, span32{end - int32(len(t)), end})
	}
	e := *p
	if e >= 0 {
		v.terms[e].Fields |= field
	}
	return e
}

// Byte classes of an ASCII token, for split.
const (
	cOther = iota
	cLower
	cUpper
	cDigit
	cUnder
)

var classOf = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c >= 'a' && c <= 'z':
			t[c] = cLower
		case c >= 'A' && c <= 'Z':
			t[c] = cUpper
		case c >= '0' && c <= '9':
			t[c] = cDigit
		case c == '_':
			t[c] = cUnder
		}
	}
	return t
}()

// split splits an ASCII tok as Split does into lower-case parts in v.buf,
// which then holds tok's Whole: its bytes lower-cased, underscores
// dropped. It is lex.SplitFunc's rules written out for ASCII: a part ends at an
// underscore, before an upper-case letter after a lower-case one, before
// the last upper-case letter of a run followed by a lower-case one, and
// between a digit and a non-digit.
func (v *vector) split(tok []byte) {
	buf, parts := v.buf[:0], v.parts[:0]
	if lowerLetters(tok) {
		// Most tokens: one part, the token itself.
		v.buf, v.parts = append(buf, tok...), append(parts, span32{0, int32(len(tok))})
		return
	}
	// The parts are written in place, a part's end recorded at every
	// byte and kept only when the byte cuts (cutBefore), so that tokens
	// cut at many places (hex digits, hashes) cost no branch at each.
	n, np := int32(0), 0 // bytes and parts written
	buf = slices.Grow(buf, len(tok))[:len(tok)]
	parts = slices.Grow(parts, len(tok)+1)[:len(tok)+1]
	lo := int32(0)      // where the current part starts in buf
	pk := uint8(cUnder) // the previous byte's class: none cuts after an underscore
	for i, c := range tok {
		k := classOf[c]
		if k == cUnder {
			if n > lo {
				parts[np] = span32{lo, n}
				np++
			}
			lo, pk = n, cUnder
			continue
		}
		cut := int32(cutBefore[pk][k])
		if pk == cUpper && k == cUpper && i+1 < len(tok) && classOf[tok[i+1]] == cLower {
			cut = 1
		}
		parts[np] = span32{lo, n}
		np += int(cut)
		lo += (n - lo) * cut
		buf[n] = lowerOf[c]
		n++
		pk = k
	}
	if n > lo {
		parts[np] = span32{lo, n}
		np++
	}
	v.buf, v.parts = buf[:n], parts[:np]
}

// cutBefore[p][k] is 1 when split ends a part between a byte of class p
// and one of class k: before an upper-case letter after a lower-case
// letter or a digit, and between a digit and a non-digit (an upper-case
// run's last letter before a lower-case one is split's own test).
var cutBefore = func() (t [cUnder + 1][cUnder + 1]uint8) {
	for p := range t {
		for k := range t[p] {
			if p == cUnder || k == cUnder {
				continue
			}
			switch {
			case k == cUpper:
				t[p][k] = b2u(p == cLower || p == cDigit)
			case k == cDigit:
				t[p][k] = b2u(p != cDigit)
			default:
				t[p][k] = b2u(p == cDigit)
			}
		}
	}
	return t
}()

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// lowerOf lower-cases an ASCII letter.
var lowerOf = func() (t [256]byte) {
	for c := range t {
		t[c] = byte(c)
		if lex.IsUpper(byte(c)) {
			t[c] += 'a' - 'A'
		}
	}
	return t
}()

// lowerLetters reports whether tok is all lower-case ASCII letters.
func lowerLetters(tok []byte) bool {
	for _, c := range tok {
		if c-'a' > 'z'-'a' {
			return false
		}
	}
	return len(tok) > 0
}

// lowerASCII reports whether Split's strings.ToLower of a part equals the
// ASCII lower-casing split does: true unless the part holds a non-ASCII
// byte (ToLower also folds non-ASCII letters and repairs bad UTF-8).
func lowerASCII(tok []byte) bool {
	for _, c := range tok {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// word adds one raw token as acc.addWord does, and for a content token
// (field Content) returns the entry its repeats count, or -1.
func (v *vector) word(tok []byte, field uint8) int32 {
	if !lowerASCII(tok) {
		return v.wordSlow(tok, field)
	}
	v.split(tok)
	if len(v.parts) == 0 {
		return -1
	}
	hit := int32(-1)
	v.compound = len(v.parts) > 1
	if v.compound {
		if field == Content {
			field |= Ident
		}
		// The whole first: stemming changes the parts in place.
		v.entry(v.buf, field)
	}
	for _, p := range v.parts {
		if p.hi-p.lo < MinLen || lex.IsDigit(v.buf[p.lo]) {
			// Not a term (entry says so): too short, or digits (a part
			// that starts with a digit is all digits, and its stem is
			// itself). Hashes and hex split into many such parts.
			continue
		}
		e := v.entry(lex.StemBytes(v.buf[p.lo:p.hi]), field)
		if field == Content && e >= 0 {
			hit = e
		}
	}
	return hit
}

// wordSlow is word for a token with non-ASCII bytes, giving the terms
// Split, Whole and Stem give, made in v.buf: each part lower-cased as
// strings.ToLower does (a rune at a time, bad UTF-8 as U+FFFD), then the
// whole (Whole lower-cases ASCII letters only), then each part stemmed in
// place.
func (v *vector) wordSlow(tok []byte, field uint8) int32 {
	buf, parts := v.buf[:0], v.parts[:0]
	lex.SplitFunc(tok, func(start, end int) {
		lo := int32(len(buf))
		buf = appendLower(buf, tok[start:end])
		parts = append(parts, span32{lo, int32(len(buf))})
	})
	v.compound = len(parts) > 1
	if len(parts) == 0 {
		v.buf, v.parts = buf, parts
		return -1
	}
	hit := int32(-1)
	if v.compound {
		if field == Content {
			field |= Ident
		}
		lo := len(buf)
		for _, c := range tok {
			if c != '_' {
				buf = append(buf, lowerOf[c])
			}
		}
		v.entry(buf[lo:], field)
	}
	v.buf, v.parts = buf, parts
	for _, p := range parts {
		e := v.entry(lex.StemBytes(buf[p.lo:p.hi]), field)
		if field == Content && e >= 0 {
			hit = e
		}
	}
	return hit
}

// appendLower appends part as strings.ToLower gives it to buf.
func appendLower(buf, part []byte) []byte {
	if lowerASCII(part) {
		for _, c := range part {
			buf = append(buf, lowerOf[c])
		}
		return buf
	}
	for len(part) > 0 {
		r, n := utf8.DecodeRune(part)
		buf = utf8.AppendRune(buf, unicode.ToLower(r))
		part = part[n:]
	}
	return buf
}

// contentWords adds the words of b as content tokens: wordBytes calling
// content, without a call through a func value for each word, each word
// hashed as it is found.
func (v *vector) contentWords(b []byte) {
	if len(v.seen.slots) == 0 {
		v.seen.grow()
	}
	for i := 0; i < len(b); {
		start, end, h, head := nextHashed(b, i)
		i = end
		n := end - start
		if n == 0 {
			return // (no word is the end of b)
		}
		if n <= 8 {
			// A repeat of a short token, most often in the slot it is
			// looked for first: counted here, without content's calls.
			if p := v.seen.shortAt(tmeta(h, n), head); p != nil {
				v.counts[max(*p, 0)]++
				continue
			}
		}
		if n <= 4*MaxLen {
			v.content(b[start:end], h, head)
		}
	}
}

// content adds a content token, whose hashBytes is h and headOf head:
// counted once more when seen before, split and stemmed when new.
func (v *vector) content(tok []byte, h uint32, head uint64) {
	p, ok := v.seen.upsertHashed(tok, h, head)
	if ok {
		v.counts[max(*p, 0)]++
		return
	}
	// (word and lowerWord use v.index, never v.seen: p stays valid.)
	var e int32
	if lowerLetters(tok) {
		e = v.lowerWord(tok, h, head)
	} else {
		e = v.word(tok, Content)
	}
	switch {
	case e >= 0:
		v.counts[e+1]++
		*p = e + 1
	case v.compound:
		*p = compoundToken
	default:
		*p = 0
	}
}

// lowerWord is word(tok, Content) for a token of lower-case ASCII
// letters only (most new tokens), whose hashBytes and headOf are h and
// head: its one part is itself, stemmed without a copy unless it ends in
// "ies", and when stemming leaves it as it is (most often) its hash is
// the one the content pass made.
func (v *vector) lowerWord(tok []byte, h uint32, head uint64) int32 {
	v.compound = false
	var t []byte
	if len(tok) > 4 && bytes.HasSuffix(tok, []byte("ies")) {
		v.buf = append(v.buf[:0], tok...)
		t = lex.StemBytes(v.buf)
	} else {
		t = lex.StemBytes(tok) // a prefix of tok: it writes only an "ies"
	}
	if len(t) < MinLen || len(t) > MaxLen {
		return -1
	}
	if len(t) != len(tok) { // (an "ies" stem is shorter too)
		h, head = hashHead(t)
	}
	return v.entryHashed(t, h, head, Content)
}

// named adds the words of b under a named field (no counts), each
// hashed as it is found, as contentWords does.
func (v *vector) named(b []byte, field uint8) {
	for i := 0; i < len(b); {
		start, end, h, head := nextHashed(b, i)
		i = end
		if n := end - start; n > 0 && n <= 4*MaxLen {
			v.nameHashed(b[start:end], h, head, field)
		}
	}
}

// nameWord adds a token of a named field as word does. Most such tokens
// are in the content too (a definition's name, its doc comment, an
// import's path): a content token of one part has its one term, when
// kept, in the entry seen holds, and gets the field there without being
// split and stemmed again.
func (v *vector) nameWord(tok []byte, field uint8) {
	if len(tok) == 0 || len(tok) > 255 {
		v.word(tok, field) // (not a token seen holds)
		return
	}
	h, head := hashHead(tok)
	v.nameHashed(tok, h, head, field)
}

// nameHashed is nameWord for a token of 1 to 255 bytes whose hashBytes
// and headOf are h and head.
func (v *vector) nameHashed(tok []byte, h uint32, head uint64, field uint8) {
	if e, ok := v.seen.lookupHashed(tok, h, head); ok && e != compoundToken {
		if e > 0 {
			v.terms[e-1].Fields |= field
		}
		return
	}
	v.word(tok, field)
}

// compoundToken is what seen holds for a content token of several parts
// (0 is for one of one part whose term is not kept, or of none).
const compoundToken = -1

// bytesOf returns the bytes of s without copying them, for reading only.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// finish returns the vector, trimmed to MaxTerms and sorted by term, and
// the hashes of its terms. Its texts are the builder's own bytes, valid
// until reset, unless own is set: then they are copied, all in one
// string (one allocation a file, not one a term).
func (v *vector) finish(own bool) ([]world.Term, []uint32) {
	all := unsafe.String(unsafe.SliceData(v.index.arena), len(v.index.arena))
	if own {
		all = string(v.index.arena)
	}
	for i, k := range v.keys {
		v.terms[i].Text = all[k.lo:k.hi]
		v.terms[i].Count = v.counts[i+1]
	}
	out, hashes := v.terms, v.hashes
	if len(out) > MaxTerms {
		// Keep the terms of named fields first, then the most frequent.
		// (The builder's own entries are moved: it is reset next.)
		out = v.keep(out)
		// The sort moved the terms away from their hashes: the few
		// files this large hash theirs again.
		hashes = hashes[:0]
		for _, t := range out {
			hashes = append(hashes, hashBytes(bytesOf(t.Text)))
		}
	}
	// Sorted by text through numbers: a term's first bytes in the high
	// bits, its place in out in the low ones. Most terms are told apart
	// by their numbers alone; runs whose first bytes tie are sorted by
	// their texts after.
	keys := v.order[:0]
	for i := range out {
		keys = append(keys, prefix(out[i].Text)&^placeMask|uint64(i))
	}
	order := sortKeys(keys, v.scratch[:0])
	v.scratch = keys
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && order[hi]&^placeMask == order[lo]&^placeMask {
			hi++
		}
		if hi-lo > 1 {
			slices.SortFunc(order[lo:hi], func(a, b uint64) int {
				return strings.Compare(out[a&placeMask].Text, out[b&placeMask].Text)
			})
		}
		lo = hi
	}
	sorted, sortedH := v.sorted[:0], v.sortedH[:0]
	for _, k := range order {
		sorted = append(sorted, out[k&placeMask])
		sortedH = append(sortedH, hashes[k&placeMask])
	}
	v.order, v.sorted, v.sortedH = order, sorted, sortedH
	return sorted, sortedH
}

// keep returns the MaxTerms terms of out a vector keeps: those of named
// fields first, then the most frequent, terms alike in both by text (the
// order in which they come back does not matter: finish sorts them).
// Each term is sorted as one word, whether it is named, its count and
// its place, which a sort of words orders without a call a comparison;
// only the terms alike in both at the cut are then compared by text.
func (v *vector) keep(out []world.Term) []world.Term {
	keys := v.order[:0]
	for i := range out {
		unnamed := uint64(b2u(out[i].Fields&^(Content|Ident) == 0))
		keys = append(keys, unnamed<<63|uint64(^out[i].Count)<<31|uint64(i))
	}
	slices.Sort(keys)
	const place = 1<<31 - 1
	if g := keys[MaxTerms-1] >> 31; keys[MaxTerms]>>31 == g {
		lo, hi := MaxTerms-1, MaxTerms+1
		for lo > 0 && keys[lo-1]>>31 == g {
			lo--
		}
		for hi < len(keys) && keys[hi]>>31 == g {
			hi++
		}
		slices.SortFunc(keys[lo:hi], func(a, b uint64) int {
			return strings.Compare(out[a&place].Text, out[b&place].Text)
		})
	}
	kept := v.sorted[:0]
	for _, k := range keys[:MaxTerms] {
		kept = append(kept, out[k&place])
	}
	v.order = keys
	copy(out, kept)
	v.sorted = kept
	return out[:MaxTerms]
}

// sortKeys sorts keys into out (grown as needed; keys are left in
// another order): by their first byte into 256 runs, placed by counts,
// then each run sorted on its own. A vector's terms spread over a few
// dozen first letters, so most runs are a handful of keys long, and the
// whole costs a few passes over the keys instead of a sort's log n.
func sortKeys(keys, out []uint64) []uint64 {
	if len(keys) < 64 {
		slices.Sort(keys)
		return append(out, keys...)
	}
	var at [257]int32
	for _, k := range keys {
		at[k>>56+1]++
	}
	for c := 1; c < len(at); c++ {
		at[c] += at[c-1]
	}
	out = slices.Grow(out, len(keys))[:len(keys)]
	for _, k := range keys {
		c := k >> 56
		out[at[c]] = k
		at[c]++
	}
	// at[c] is now where run c ends.
	lo := int32(0)
	for c := range 256 {
		hi := at[c]
		if hi-lo > 1 {
			slices.Sort(out[lo:hi])
		}
		lo = hi
	}
	return out
}

// placeMask holds a term's place in finish's sort keys: a vector has at
// most MaxTerms terms (the array below fails to compile otherwise).
const placeMask = 1<<12 - 1

var _ = [placeMask + 1 - MaxTerms]struct{}{}

// prefix is the first eight bytes of s big-endian, padded with zeros:
// prefix(a) < prefix(b) implies a <= b.
func prefix(s string) uint64 { return bits.ReverseBytes64(headOf(bytesOf(s))) }
