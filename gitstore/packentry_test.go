package gitstore

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/deflate"
	"github.com/git-speed/git-speed/internal/gittest"

	"github.com/go-git/go-git/v5/plumbing"
)

// entryBytes encodes one pack entry of type typ whose content (or delta)
// is data, after the given extra header bytes (an offset delta's distance,
// a reference delta's base id).
func entryBytes(typ byte, data, extra []byte) []byte {
	size := uint64(len(data))
	c := typ<<4 | byte(size&15)
	size >>= 4
	var out []byte
	for size > 0 {
		out = append(out, c|0x80)
		c = byte(size & 0x7f)
		size >>= 7
	}
	out = append(out, c)
	out = append(out, extra...)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	return append(out, z.Bytes()...)
}

// testPack lays entries out after a pack header and returns the pack and
// each entry's offset.
func testPack(entries ...[]byte) ([]byte, []int64) {
	b := []byte("PACK\x00\x00\x00\x02")
	b = binary.BigEndian.AppendUint32(b, uint32(len(entries)))
	var offs []int64
	for _, e := range entries {
		offs = append(offs, int64(len(b)))
		b = append(b, e...)
	}
	return append(b, make([]byte, 20)...), offs
}

// delta encodes a git delta from base: copy base[off:off+n], then insert.
func delta(base []byte, off, n int, insert string, result int) []byte {
	d := binary.AppendUvarint(nil, uint64(len(base)))
	d = binary.AppendUvarint(d, uint64(result))
	d = append(d, 0x80|0x01|0x02|0x10|0x20, byte(off), byte(off>>8), byte(n), byte(n>>8))
	d = append(d, byte(len(insert)))
	return append(d, insert...)
}

// TestPackEntries decodes an entry of each kind, a chain of offset deltas
// and a reference delta, and refuses damaged entries with an error.
func TestPackEntries(t *testing.T) {
	base := []byte("the base object, long enough to copy a part of it\n")
	d1 := delta(base, 4, 10, " and more", 19)
	var baseID plumbing.Hash
	baseID[0] = 7
	first := entryBytes(packBlob, base, nil)
	// Lay out: base, an offset delta on it, an offset delta on that, a
	// reference delta on the base.
	var b []byte
	b = append(b, "PACK\x00\x00\x00\x02\x00\x00\x00\x04"...)
	o0 := int64(len(b))
	b = append(b, first...)
	o1 := int64(len(b))
	b = append(b, entryBytes(packOfsDelta, d1, ofsBytes(o1-o0))...)
	mid := []byte("base objec and more")
	d2 := delta(mid, 0, 4, "!", 5)
	o2 := int64(len(b))
	b = append(b, entryBytes(packOfsDelta, d2, ofsBytes(o2-o1))...)
	o3 := int64(len(b))
	b = append(b, entryBytes(packRefDelta, d1, baseID[:])...)
	b = append(b, make([]byte, 20)...)
	pd := packData{b: b, find: func(h plumbing.Hash) (int64, bool) { return o0, h == baseID }}
	for _, c := range []struct {
		off  int64
		want string
	}{{o0, string(base)}, {o1, string(mid)}, {o2, "base!"}, {o3, string(mid)}} {
		typ, data, err := pd.objectAt(c.off)
		if err != nil || typ != plumbing.BlobObject || string(data) != c.want {
			t.Errorf("entry at %d = %s %q, %v; want a blob %q", c.off, typ, data, err, c.want)
		}
	}
	// Damaged: a truncated delta, a delta on a base the pack lacks, a
	// size the stream does not give, an entry inside the pack's header.
	missing := append(append([]byte(nil), b[:o0]...), entryBytes(packRefDelta, d1, make([]byte, 20))...)
	long := append(append([]byte(nil), b[:o0]...), entryBytes(packBlob, base, nil)...)
	long[o0] |= 0x80 // the size gets a second byte: 16 times more than given
	long = append(long[:o0+1], append([]byte{0x7f}, long[o0+1:]...)...)
	for name, c := range map[string]struct {
		b   []byte
		off int64
	}{"truncated": {b[:o1+3], o1}, "missing base": {missing, o0}, "long size": {long, o0}, "header": {b, 3}} {
		pd := packData{b: c.b, find: func(plumbing.Hash) (int64, bool) { return 0, false }}
		if _, _, err := pd.objectAt(c.off); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

// ofsBytes encodes an offset delta's distance to its base.
func ofsBytes(v int64) []byte {
	out := []byte{byte(v & 0x7f)}
	for v >>= 7; v > 0; v >>= 7 {
		v--
		out = append([]byte{0x80 | byte(v&0x7f)}, out...)
	}
	return out
}

// FuzzPackEntry decodes arbitrary bytes as a pack's entries and as deltas:
// an error or an object, never a panic, a hang or an allocation the bytes
// do not justify.
func FuzzPackEntry(f *testing.F) {
	base := []byte("a base object of a few words\n")
	b, _ := testPack(entryBytes(packBlob, base, nil), entryBytes(packOfsDelta, delta(base, 2, 6, "xy", 8), ofsBytes(int64(len(entryBytes(packBlob, base, nil))))))
	f.Add(b, int64(12), base)
	f.Add(b, int64(12+len(entryBytes(packBlob, base, nil))), base)
	f.Add([]byte("PACK\x00\x00\x00\x02\x00\x00\x00\x01\x7f"), int64(12), []byte{})
	f.Add(delta(base, 0, 3, "", 3), int64(0), base)
	f.Fuzz(func(t *testing.T, b []byte, off int64, base []byte) {
		pd := packData{b: b, find: func(plumbing.Hash) (int64, bool) { return 12, true }}
		if typ, data, err := pd.objectAt(off); err == nil && typ == plumbing.InvalidObject {
			t.Fatalf("an invalid object of %d bytes without an error", len(data))
		}
		if out, err := applyDelta(base, b); err == nil {
			_, k := binary.Uvarint(b)
			if n, _ := binary.Uvarint(b[k:]); uint64(len(out)) != n {
				t.Fatalf("delta gave %d bytes, says %d", len(out), n)
			}
		}
		looseObject(b)
	})
}

// TestUncompressed: the shards of an artifact marked Uncompressed are
// stored as zlib stored blocks, loose (a small commit) and packed (a large
// one), and read back whole; other artifacts stay compressed; git fsck
// finds nothing wrong.
func TestUncompressed(t *testing.T) {
	g := gittest.New(t)
	r, err := Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	s := r.Store()
	tree := strings.Repeat("ab", 20)
	shardsOf := func(n int, tag string) map[string][]byte {
		m := map[string][]byte{}
		for i := 0; i < n; i++ {
			m[fmt.Sprintf("d%d", i)] = []byte(strings.Repeat(tag+fmt.Sprint(i)+" compressible text ", 200))
		}
		return m
	}
	for _, n := range []int{2, 150} { // loose, then one pack
		raw, packed := shardsOf(n, fmt.Sprint("raw", n)), shardsOf(n, fmt.Sprint("zip", n))
		tx := s.Begin()
		tx.Uncompressed("raw")
		tx.PutTree(tree, fmt.Sprint("d", n), "raw", raw)
		tx.PutTree(tree, fmt.Sprint("d", n), "zip", packed)
		if err := tx.Commit("uncompressed"); err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string]map[string][]byte{"raw": raw, "zip": packed} {
			got, err := s.Tree(tree, fmt.Sprint("d", n), name)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("%d shards: %s reads back as %d shards, %v", n, name, len(got), err)
			}
			for _, data := range want {
				id := plumbing.ComputeHash(plumbing.BlobObject, data).String()
				size := diskSize(t, g, id)
				if stored := size >= len(data); stored != (name == "raw") {
					t.Errorf("%d shards: a %s shard of %d bytes takes %d on disk", n, name, len(data), size)
				}
				break
			}
		}
	}
	g.Git("fsck", "--strict")
}

// diskSize is the bytes object id takes in g's object database.
func diskSize(t *testing.T, g *gittest.Repo, id string) int {
	cmd := exec.Command("git", "cat-file", "--batch-check=%(objectsize:disk)")
	cmd.Dir, cmd.Env = g.Dir, g.Env
	cmd.Stdin = strings.NewReader(id + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("cat-file: %q", out)
	}
	return n
}

// FuzzInflateStored: a stream of stored blocks (what Txn.Uncompressed
// writes) reads back whole; any stream inflateStored reads, the inflater
// reads the same, to the same end.
func FuzzInflateStored(f *testing.F) {
	f.Add([]byte("hello, stored blocks"), false, uint64(0))
	f.Add(bytes.Repeat([]byte("0123456789"), 14000), false, uint64(3))
	f.Add([]byte{0x78, 0x01, 0x01, 0x02, 0x00, 0xfd, 0xff, 'h', 'i', 0x01, 0x3b, 0x00, 0xd2}, true, uint64(2))
	f.Add([]byte{0x78, 0x9c, 0x01, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01}, true, uint64(0))
	f.Fuzz(func(t *testing.T, data []byte, raw bool, size uint64) {
		stream := data
		if !raw {
			stream = deflate.Store(nil, data)
			out, ok := inflateStored(stream, uint64(len(data)))
			if !ok || !bytes.Equal(out, data) {
				t.Fatalf("stored stream of %d bytes: ok %v, %d bytes back", len(data), ok, len(out))
			}
			size = uint64(len(data))
		}
		for _, n := range []uint64{size, size + 1, size / 2} {
			if out, ok := inflateStored(stream, n); ok {
				want, err := inflate(bytes.NewReader(stream), n)
				if err != nil || !bytes.Equal(out, want) {
					t.Fatalf("size %d: read %d bytes, the inflater %d (%v)", n, len(out), len(want), err)
				}
			}
		}
	})
}
