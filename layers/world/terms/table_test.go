package terms

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
)

// A table holds what a map does, across growth and resets (emptying by
// generation, and giving its memory up past keep), and room reserved
// for more keys than it gets, fewer, or none (past its slots, within
// their capacity, and past it).
func TestTableLikeMap(t *testing.T) {
	var tb table
	var prev []string
	for round := 0; round < 7; round++ {
		if round > 0 {
			tb.reserve([]int{0, 5000, 100, 0, 20000, 3000, 1000}[round])
			for _, k := range prev {
				h, head := hashHead([]byte(k))
				if _, found := tb.lookupHashed([]byte(k), h, head); found {
					t.Fatalf("round %d: %q of the round before survived reset and reserve", round, k)
				}
			}
		}
		prev = prev[:0]
		want := map[string]int32{}
		n := 50 + round%5*3000
		for i := 0; i < n; i++ {
			k := fmt.Sprintf("k%d_%d", i%(n/2+1), round)
			p, found := tb.upsert([]byte(k))
			v, ok := want[k]
			if found != ok || found && *p != v {
				t.Fatalf("round %d: %q found %v value %d, want %v %d", round, k, found, *p, ok, v)
			}
			*p = int32(i)
			want[k] = int32(i)
			prev = append(prev, k)
		}
		if tb.n != len(want) {
			t.Fatalf("round %d: %d keys, want %d", round, tb.n, len(want))
		}
		tb.reset(4000)
		if p, found := tb.upsert([]byte(fmt.Sprintf("k0_%d", round))); found || *p != 0 {
			t.Fatalf("round %d: a key survived reset", round)
		}
		tb.reset(4000)
	}
}

// A Numbering numbers terms in order of first sight, across growth, and
// gives their texts back by number.
func TestNumbering(t *testing.T) {
	var m Numbering
	want := map[string]uint32{}
	var order []string
	for i := 0; i < 20000; i++ {
		x := (i * 7919) % 5003
		k := fmt.Sprintf("t%d", x)
		switch {
		case i%3 == 0:
			k = "" // the empty term is a term too
		case x%2 == 0:
			// long strings (held in the arena), some over 255 bytes
			k = strings.Repeat(k, x%97)
		}
		n, ok := want[k]
		if !ok {
			n = uint32(len(order))
			want[k] = n
			order = append(order, k)
		}
		if got := m.Number(k); got != n {
			t.Fatalf("Number(%q) = %d, want %d", k, got, n)
		}
	}
	if m.Len() != len(order) {
		t.Fatalf("Len = %d, want %d", m.Len(), len(order))
	}
	for n, s := range m.Texts() {
		if s != order[n] {
			t.Fatalf("Texts()[%d] = %q, want %q", n, s, order[n])
		}
	}
}

// BenchmarkNumbering numbers the terms of a real tree's vectors as a
// build does, most of them numbered before (GIT_SPEED_TERMS_CORPUS).
func BenchmarkNumbering(b *testing.B) {
	var all []string
	for _, src := range corpusFiles(b, 16<<20) {
		for _, t := range Of(nil, src) {
			all = append(all, t.Text)
		}
	}
	var m Numbering
	for _, t := range all[:len(all)/2] {
		m.Number(t)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range all {
			m.Number(t)
		}
	}
}

// BenchmarkNumberTerms is BenchmarkNumbering a vector at a time, with
// the hashes the builder gives, as a build's setTerms numbers them.
func BenchmarkNumberTerms(b *testing.B) {
	var vecs [][]world.Term
	var hashes [][]uint32
	for _, src := range corpusFiles(b, 16<<20) {
		With(nil, src, func(v []world.Term, h []uint32) {
			v = slices.Clone(v)
			for i := range v {
				v[i].Text = strings.Clone(v[i].Text) // (the builder's own)
			}
			vecs, hashes = append(vecs, v), append(hashes, slices.Clone(h))
		})
	}
	var m Numbering
	var ids []uint32
	for i := range vecs[:len(vecs)/2] {
		ids = m.NumberTerms(vecs[i], hashes[i], ids[:0])
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := range vecs {
			ids = m.NumberTerms(vecs[i], hashes[i], ids[:0])
		}
	}
}

// A Numbering numbers any strings as a map does in order of first sight:
// short ones (held in their slots) and long ones, strings alike in their
// first, middle or last bytes, the empty one (the input is cut at NUL
// bytes, each string numbered twice), across growth and a Reset.
func FuzzNumbering(f *testing.F) {
	f.Add([]byte("a\x00ab\x00aab\x00abb\x00abc\x00abcd\x00abdd\x00abcdefgh\x00abcdefghi\x00\x00x"))
	f.Add([]byte("same_length_1\x00same_length_2\x00aXa\x00aYa\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var m Numbering
		for round := 0; round < 2; round++ {
			want := map[string]uint32{}
			var order []string
			for _, k := range bytes.Split(b, []byte{0}) {
				for i := 0; i < 2; i++ {
					n, ok := want[string(k)]
					if !ok {
						n = uint32(len(order))
						want[string(k)] = n
						order = append(order, string(k))
					}
					if got := m.Number(string(k)); got != n {
						t.Fatalf("round %d: Number(%q) = %d, want %d", round, k, got, n)
					}
				}
			}
			for n, s := range order {
				if got := m.Text(uint32(n)); got != s {
					t.Fatalf("Text(%d) = %q, want %q", n, got, s)
				}
			}
			m.Reset()
		}
		// NumberTerms and NumberAll, a few strings at a time, with their
		// hashes or without, number them as Number does.
		var vec []world.Term
		for _, k := range bytes.Split(b, []byte{0}) {
			vec = append(vec, world.Term{Text: string(k)})
		}
		var byOne, byVec, byAll Numbering
		var ids, all []uint32
		for lo := 0; lo < len(vec); lo += 3 {
			part := vec[lo:min(lo+3, len(vec))]
			var hashes []uint32
			if lo%2 == 0 {
				for _, t := range part {
					hashes = append(hashes, hashBytes([]byte(t.Text)))
				}
			}
			ids = byVec.NumberTerms(part, hashes, ids[:0])
			var texts [][]byte
			for _, t := range part {
				texts = append(texts, []byte(t.Text))
			}
			all = byAll.NumberAll(texts, HashAll(texts, nil), all[:0])
			for i, term := range part {
				want := byOne.Number(term.Text)
				if ids[i] != want {
					t.Fatalf("NumberTerms numbers %q %d, Number %d", term.Text, ids[i], want)
				}
				if all[i] != want {
					t.Fatalf("NumberAll numbers %q %d, Number %d", term.Text, all[i], want)
				}
			}
		}
	})
}

// hashPlain is hashBytes written plainly: the key zero-padded to a whole
// number of eight bytes past its last whole eight, read eight at a time.
func hashPlain(k []byte) uint32 {
	padded := append(slices.Clone(k), make([]byte, 8)...)
	h := hashSeed
	i := 0
	for ; i+8 <= len(k); i += 8 {
		h = hashStep(h, binary.LittleEndian.Uint64(padded[i:]))
	}
	return hashEnd(h, binary.LittleEndian.Uint64(padded[i:]), len(k))
}

// hashBytes and headOf read keys of every length as hashPlain and a
// zero-padded copy do, and nextHashed gives for each word nextWordPlain
// finds the hash and head of that word.
func FuzzHashBytes(f *testing.F) {
	f.Add([]byte("a b ab abc abcd abcde abcdef abcdefg abcdefgh abcdefghi abcdefghijklmnop abcdefghijklmnopq"))
	f.Add([]byte("x\x00y\x80\xff__ 12345678 _"))
	f.Add([]byte("  a\n        if (x) {\n\t\t\t\t\t\t\t\tb;\n}}}}}}}}}}}}}}}}} c = d[0] -->         ")) // gaps of every length, one at the end
	f.Fuzz(func(t *testing.T, b []byte) {
		for n := 0; n <= min(len(b), 40); n++ {
			k := b[:n]
			if got, want := hashBytes(k), hashPlain(k); got != want {
				t.Fatalf("hashBytes(%q) = %x, want %x", k, got, want)
			}
			if got, want := headOf(k), binary.LittleEndian.Uint64(append(slices.Clone(k), make([]byte, 8)...)); got != want {
				t.Fatalf("headOf(%q) = %x, want %x", k, got, want)
			}
			if h, head := hashHead(k); h != hashPlain(k) || head != headOf(k) {
				t.Fatalf("hashHead(%q) = %x %x, want %x %x", k, h, head, hashPlain(k), headOf(k))
			}
		}
		for i, plain := 0, b; i < len(b) || len(plain) > 0; {
			start, end, h, head := nextHashed(b, i)
			var pw []byte
			pw, plain = nextWordPlain(plain)
			if w := b[start:end]; string(w) != string(pw) || len(b)-end != len(plain) {
				t.Fatalf("nextHashed gives %q with %d bytes left, nextWordPlain %q with %d", w, len(b)-end, pw, len(plain))
			}
			if h != hashBytes(pw) || head != headOf(pw) {
				t.Fatalf("nextHashed(%q) hash %x head %x, want %x %x", pw, h, head, hashBytes(pw), headOf(pw))
			}
			i = end
		}
	})
}
