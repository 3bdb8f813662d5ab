// Package deflate owns the store's compressor: it writes a byte slice as
// one zlib stream (RFC 1950 around RFC 1951 deflate) that git and any
// inflater read, fast for the many objects of a few KB a build writes.
//
// The standard library's fastest level builds a dynamic Huffman code for
// every block with an interface sort, and a kubernetes build's objects
// spent more time there than finding matches. Here the matcher is a
// greedy one over a single-entry hash table (no chains), the code lengths
// are computed in place after one sort of packed frequency keys, and each
// block is written with whichever of the fixed codes, its own dynamic
// codes or stored blocks is shortest; a block too small to pay for a
// dynamic table's header and its construction uses the fixed codes.
package deflate

import (
	"encoding/binary"
	"hash/adler32"
	"math/bits"
)

const (
	windowSize = 1 << 15 // the farthest a match may refer back
	minMatch   = 4
	maxMatch   = 258
	hashBits   = 14
	// blockInput is the input one block covers at most: a dynamic table
	// is built for each, so bigger blocks cost fewer tables.
	blockInput = maxStored
	// dynamicFrom is the smallest block input for which a dynamic code is
	// built and weighed against the fixed one.
	dynamicFrom = 1 << 10
	// maxStored is the most one stored block holds (LEN is 16 bits).
	maxStored = 1<<16 - 1
	endBlock  = 256
)

// maxInput is the most Compress compresses: positions are int32 in the
// hash table. Larger inputs are stored. (A variable for the tests.)
var maxInput = 1 << 30

// Encoder compresses; it keeps its tables between calls, so one per
// goroutine, reused, allocates nothing once warm. The zero value is ready.
type Encoder struct {
	table    [1 << hashBits]int32 // per hash, base+position of its last occurrence
	base     int32                // added to this input's positions in table
	tokens   []uint32
	litFreq  [286]uint32
	distFreq [30]uint32
	w        bitWriter
	lit      code // the block's literal/length code
	dist     code
	cl       code // the code-length code
	hb       huffBuilder
	cls      []uint8  // the concatenated code lengths, lit then dist
	clTok    []uint16 // their run-length encoding: symbol | extra<<8
}

// A token is a literal byte (below 1<<31) or a match:
// 1<<31 | (length-3)<<16 | (distance-1).
const matchFlag = 1 << 31

// code is a Huffman code: per symbol its length and its bits, reversed
// for the LSB-first bit order of deflate.
type code struct {
	lens  [288]uint8 // 286 and 287 only in the fixed code, which counts them
	codes [288]uint16
}

// Compress appends the zlib stream of src to dst and returns it.
func (e *Encoder) Compress(dst, src []byte) []byte {
	dst = append(dst, 0x78, 0x01) // deflate, 32 KiB window, fastest
	e.w.out = dst
	e.w.bits, e.w.n = 0, 0
	if len(src) > maxInput {
		e.w.stored(src, true)
	} else {
		e.deflate(src)
	}
	e.w.align()
	return binary.BigEndian.AppendUint32(e.w.out, adler32.Checksum(src))
}

// Store appends src to dst as a zlib stream of stored blocks only, which
// a reader takes back with one copy.
func Store(dst, src []byte) []byte {
	dst = append(dst, 0x78, 0x01)
	w := bitWriter{out: dst}
	w.stored(src, true)
	return binary.BigEndian.AppendUint32(w.out, adler32.Checksum(src))
}

// StoredSize is the length of Store's stream of n bytes.
func StoredSize(n int) int {
	return 2 + storedSize(n, 0)/8 + 4
}

// deflate writes src's blocks, the last one final.
func (e *Encoder) deflate(src []byte) {
	if len(src) < minMatch+4 {
		e.tokens = e.tokens[:0]
		e.clearFreq()
		for _, c := range src {
			e.tokens = append(e.tokens, uint32(c))
			e.litFreq[c]++
		}
		e.writeBlock(src, true)
		return
	}
	if int64(e.base)+int64(len(src))+2 >= 1<<31-1 {
		e.table = [1 << hashBits]int32{}
		e.base = 0
	}
	// Entries at or below base are another input's: not a candidate.
	base := e.base + 1
	e.base = base + int32(len(src))
	e.tokens = e.tokens[:0]
	e.clearFreq()
	n := len(src)
	last := n - minMatch // the last position a 4-byte load may start at
	emit, start := 0, 0  // the first byte not yet a token; the block's first
	skip := 32           // misses since the last match, times 32, and 32
	for s := 0; s <= last; {
		if s-start >= blockInput {
			e.literals(src[emit:s])
			emit = s
			e.writeBlock(src[start:s], false)
			start = s
			e.tokens = e.tokens[:0]
			e.clearFreq()
		}
		v := binary.LittleEndian.Uint32(src[s:])
		h := hash4(v)
		cand := int(e.table[h] - base)
		e.table[h] = base + int32(s)
		if cand < 0 || s-cand > windowSize || binary.LittleEndian.Uint32(src[cand:]) != v {
			s += skip >> 5
			skip++
			continue
		}
		l := minMatch + matchLen(src[cand+minMatch:], src[s+minMatch:min(n, s+maxMatch)])
		e.literals(src[emit:s])
		e.match(l, s-cand)
		s += l
		emit = s
		skip = 32
		if s-1 <= last {
			e.table[hash4(binary.LittleEndian.Uint32(src[s-1:]))] = base + int32(s-1)
		}
	}
	e.literals(src[emit:])
	e.writeBlock(src[start:], true)
}

func hash4(v uint32) uint32 { return v * 0x1e35a7bd >> (32 - hashBits) }

// matchLen is how many leading bytes a and b share; len(a) >= len(b)
// need not hold, the shorter bounds it.
func matchLen(a, b []byte) int {
	n := 0
	for len(a) >= 8 && len(b) >= 8 {
		x := binary.LittleEndian.Uint64(a) ^ binary.LittleEndian.Uint64(b)
		if x != 0 {
			return n + bits.TrailingZeros64(x)>>3
		}
		n += 8
		a, b = a[8:], b[8:]
	}
	for i := 0; i < len(a) && i < len(b) && a[i] == b[i]; i++ {
		n++
	}
	return n
}

func (e *Encoder) clearFreq() {
	e.litFreq = [286]uint32{}
	e.distFreq = [30]uint32{}
}

func (e *Encoder) literals(b []byte) {
	for _, c := range b {
		e.tokens = append(e.tokens, uint32(c))
		e.litFreq[c]++
	}
}

func (e *Encoder) match(length, dist int) {
	e.tokens = append(e.tokens, matchFlag|uint32(length-3)<<16|uint32(dist-1))
	e.litFreq[257+int(lengthCode[length-3])]++
	e.distFreq[distCode(uint32(dist-1))]++
}

func distCode(d uint32) uint8 {
	if d < 256 {
		return distCodeLow[d]
	}
	return distCodeHigh[d>>7]
}

// writeBlock writes the tokens made of raw, the block's input, as the
// shortest of a fixed-code, dynamic-code or stored block.
func (e *Encoder) writeBlock(raw []byte, final bool) {
	e.litFreq[endBlock] = 1
	extra := 0
	for i, f := range e.litFreq[257:] {
		extra += int(f) * int(lengthExtra[i])
	}
	for i, f := range e.distFreq {
		extra += int(f) * int(distExtra[i])
	}
	fixedBits := 3 + extra
	for i, f := range e.litFreq {
		fixedBits += int(f) * int(fixedCode.lens[i])
	}
	for _, f := range e.distFreq {
		fixedBits += int(f) * 5
	}
	storedBits := storedSize(len(raw), e.w.n)
	dynBits, hlit, hdist, hclen := -1, 0, 0, 0
	if len(raw) >= dynamicFrom {
		hlit, hdist, hclen, dynBits = e.dynamicCode(extra)
	}
	switch {
	case storedBits <= fixedBits && (dynBits < 0 || storedBits <= dynBits):
		e.w.stored(raw, final)
	case dynBits >= 0 && dynBits < fixedBits:
		e.w.put(b2u(final)|2<<1, 3)
		e.writeDynamicHeader(hlit, hdist, hclen)
		e.writeTokens(&e.lit, &e.dist)
	default:
		e.w.put(b2u(final)|1<<1, 3)
		e.writeTokens(&fixedCode, &fixedDist)
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// storedSize is the bits of n bytes as stored blocks when pending bits
// are already written in the current byte.
func storedSize(n int, pending uint) int {
	blocks := max(1, (n+maxStored-1)/maxStored)
	// The first header's three bits and padding fill the current byte
	// (or one more); each further block takes a whole byte for its own.
	first := 8 - int(pending+3)%8
	if first == 8 {
		first = 0
	}
	return 3 + first + (blocks-1)*8 + blocks*32 + 8*n
}

// stored writes raw as stored blocks, the last one final if final.
func (w *bitWriter) stored(raw []byte, final bool) {
	for {
		n := min(len(raw), maxStored)
		last := n == len(raw)
		w.put(b2u(final && last), 3)
		w.align()
		w.out = binary.LittleEndian.AppendUint16(w.out, uint16(n))
		w.out = binary.LittleEndian.AppendUint16(w.out, ^uint16(n))
		w.out = append(w.out, raw[:n]...)
		raw = raw[n:]
		if last {
			return
		}
	}
}

func (e *Encoder) writeTokens(lit, dist *code) {
	w := &e.w
	for _, t := range e.tokens {
		if t < matchFlag {
			w.put(uint64(lit.codes[t]), uint(lit.lens[t]))
			continue
		}
		l := t >> 16 & 0xff
		lc := lengthCode[l]
		s := 257 + int(lc)
		w.put(uint64(lit.codes[s])|uint64(l-lengthBase[lc])<<lit.lens[s], uint(lit.lens[s]+lengthExtra[lc]))
		d := t & 0xffff
		dc := distCode(d)
		w.put(uint64(dist.codes[dc])|uint64(d-distBase[dc])<<dist.lens[dc], uint(dist.lens[dc]+distExtra[dc]))
	}
	w.put(uint64(lit.codes[endBlock]), uint(lit.lens[endBlock]))
}

// dynamicCode builds the block's dynamic codes and returns their counts
// as the header gives them and the block's size in bits with them.
func (e *Encoder) dynamicCode(extra int) (hlit, hdist, hclen, size int) {
	e.hb.lengths(e.litFreq[:], e.lit.lens[:286], 15)
	e.hb.lengths(e.distFreq[:], e.dist.lens[:30], 15)
	hlit = 286
	for hlit > 257 && e.lit.lens[hlit-1] == 0 {
		hlit--
	}
	hdist = 30
	for hdist > 1 && e.dist.lens[hdist-1] == 0 {
		hdist--
	}
	e.cls = append(append(e.cls[:0], e.lit.lens[:hlit]...), e.dist.lens[:hdist]...)
	e.clTok = runLengths(e.clTok[:0], e.cls)
	var clFreq [19]uint32
	for _, t := range e.clTok {
		clFreq[t&0xff]++
	}
	e.hb.lengths(clFreq[:], e.cl.lens[:19], 7)
	hclen = 19
	for hclen > 4 && e.cl.lens[clOrder[hclen-1]] == 0 {
		hclen--
	}
	size = 3 + 5 + 5 + 4 + 3*hclen + extra
	for i, f := range clFreq {
		size += int(f) * int(e.cl.lens[i])
	}
	size += int(clFreq[16])*2 + int(clFreq[17])*3 + int(clFreq[18])*7
	for i, f := range e.litFreq {
		size += int(f) * int(e.lit.lens[i])
	}
	for i, f := range e.distFreq {
		size += int(f) * int(e.dist.lens[i])
	}
	return hlit, hdist, hclen, size
}

func (e *Encoder) writeDynamicHeader(hlit, hdist, hclen int) {
	canonical(&e.lit, 286)
	canonical(&e.dist, 30)
	canonical(&e.cl, 19)
	w := &e.w
	w.put(uint64(hlit-257), 5)
	w.put(uint64(hdist-1), 5)
	w.put(uint64(hclen-4), 4)
	for _, s := range clOrder[:hclen] {
		w.put(uint64(e.cl.lens[s]), 3)
	}
	for _, t := range e.clTok {
		s := t & 0xff
		w.put(uint64(e.cl.codes[s]), uint(e.cl.lens[s]))
		switch s {
		case 16:
			w.put(uint64(t>>8), 2)
		case 17:
			w.put(uint64(t>>8), 3)
		case 18:
			w.put(uint64(t>>8), 7)
		}
	}
}

// runLengths appends the code-length code's symbols for lens: a length,
// 16 (repeat the previous 3-6 times), 17 (3-10 zeros) or 18 (11-138
// zeros), each with its extra bits' value above bit 8.
func runLengths(out []uint16, lens []uint8) []uint16 {
	for i := 0; i < len(lens); {
		v := lens[i]
		run := 1
		for i+run < len(lens) && lens[i+run] == v {
			run++
		}
		i += run
		if v == 0 {
			for run >= 11 {
				r := min(run, 138)
				out = append(out, 18|uint16(r-11)<<8)
				run -= r
			}
			if run >= 3 {
				out = append(out, 17|uint16(run-3)<<8)
				run = 0
			}
		} else {
			out = append(out, uint16(v))
			run--
			for run >= 3 {
				r := min(run, 6)
				out = append(out, 16|uint16(r-3)<<8)
				run -= r
			}
		}
		for ; run > 0; run-- {
			out = append(out, uint16(v))
		}
	}
	return out
}

// canonical gives the first n symbols of c their canonical codes from
// their lengths (RFC 1951 3.2.2), bit-reversed.
func canonical(c *code, n int) {
	var count [16]uint16
	for _, l := range c.lens[:n] {
		count[l]++
	}
	count[0] = 0
	var next [16]uint16
	v := uint16(0)
	for l := 1; l < 16; l++ {
		v = (v + count[l-1]) << 1
		next[l] = v
	}
	for s, l := range c.lens[:n] {
		if l == 0 {
			continue
		}
		c.codes[s] = bits.Reverse16(next[l]) >> (16 - l)
		next[l]++
	}
}

// bitWriter appends bits LSB first.
type bitWriter struct {
	out  []byte
	bits uint64
	n    uint
}

// put writes the low nb bits of v; nb <= 32, v has no bits above them.
func (w *bitWriter) put(v uint64, nb uint) {
	w.bits |= v << w.n
	w.n += nb
	if w.n >= 32 {
		w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.bits))
		w.bits >>= 32
		w.n -= 32
	}
}

// align writes the pending bits, padded with zeros to a byte.
func (w *bitWriter) align() {
	for w.n > 0 {
		w.out = append(w.out, byte(w.bits))
		w.bits >>= 8
		w.n -= min(w.n, 8)
	}
	w.bits = 0
}
