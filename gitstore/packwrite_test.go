package gitstore

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestWrittenPackIsGits: the pack and index a commit writes are what git
// would write: git verifies every object's CRC and id, the index's order
// and both checksums, and reads every object back, compressed or stored;
// the pack is named by its checksum and no temporary file is left.
func TestWrittenPackIsGits(t *testing.T) {
	g := sample(t)
	r := open(t, g.Dir)
	s := r.Store()
	tx := s.Begin()
	tx.Uncompressed("rows")
	want := map[string]string{}
	for i := 0; i < 2*packThreshold; i++ {
		data := fmt.Sprint("facts ", i, " ", strings.Repeat("payload ", i%37))
		tx.PutFacts(factKey(i), []byte(data))
		want[plumbing.ComputeHash(plumbing.BlobObject, []byte(data)).String()] = data
	}
	// objects from storeBelow up, compressed by internal/deflate: text,
	// runs, data that does not compress, across its block bounds
	for i, data := range compressible() {
		tx.PutFacts(factKey(2*packThreshold+i), data)
		want[plumbing.ComputeHash(plumbing.BlobObject, data).String()] = string(data)
	}
	rows := map[string][]byte{}
	for i := 0; i < packThreshold; i++ {
		data := fmt.Sprint("row ", i, strings.Repeat("r", 3*i))
		rows[fmt.Sprintf("d%d/f", i)] = []byte(data)
		want[plumbing.ComputeHash(plumbing.BlobObject, []byte(data)).String()] = data
	}
	tx.PutTree(g.Git("rev-parse", "HEAD^{tree}"), "d", "rows", rows)
	if err := tx.Commit("packed"); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(g.Dir, ".git", "objects", "pack")
	packs, _ := filepath.Glob(filepath.Join(dir, "pack-*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs = %v, want one", packs)
	}
	data, err := os.ReadFile(packs[0])
	if err != nil {
		t.Fatal(err)
	}
	if name := "pack-" + hex.EncodeToString(data[len(data)-20:]) + ".pack"; filepath.Base(packs[0]) != name {
		t.Errorf("pack named %s, want %s (its checksum)", filepath.Base(packs[0]), name)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "tmp_*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	idx := strings.TrimSuffix(packs[0], ".pack") + ".idx"
	listing := g.Git("verify-pack", "-v", idx)
	for id, content := range want {
		if !strings.Contains(listing, id+" blob") {
			t.Errorf("verify-pack does not list %s", id)
			continue
		}
		if got := g.Git("cat-file", "blob", id); got != strings.TrimSpace(content) && got != content {
			t.Errorf("cat-file %s = %q, want %q", id, got, content)
		}
	}
	g.Git("fsck", "--strict", "--no-dangling")
}

// compressible is objects the pack writer compresses: sizes from
// storeBelow to past two of the compressor's 64 KiB blocks, made of text,
// long runs and pseudo-random bytes (no whitespace at either end: the
// test compares git's trimmed output).
func compressible() [][]byte {
	var out [][]byte
	x := uint32(1)
	for _, n := range []int{storeBelow, storeBelow + 1, 5000, 1<<16 - 1, 1 << 16, 1<<16 + 1, 150000} {
		text := []byte(strings.Repeat(fmt.Sprint("func f", n, "(x int) int { return x }\n"), n/20+1)[:n])
		runs := append(bytes.Repeat([]byte{'a'}, n/2), bytes.Repeat([]byte{'b'}, n-n/2)...)
		noise := make([]byte, n)
		for i := range noise {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			noise[i] = byte(x)
		}
		noise[0], noise[n-1] = 'x', 'x'
		mixed := append(append([]byte{}, noise[:n/2]...), text[:n-n/2]...)
		mixed[len(mixed)-1] = 'x'
		out = append(out, text, runs, noise, mixed)
	}
	return out
}

// TestPackIndexLargeOffsets: offsets past 2 GiB go through the table of
// 8-byte offsets, and the reader finds every entry where the writer put it.
func TestPackIndexLargeOffsets(t *testing.T) {
	var entries []packedEntry
	for i := 0; i < 600; i++ {
		e := packedEntry{id: plumbing.ComputeHash(plumbing.BlobObject, []byte(fmt.Sprint(i))), off: uint64(12 + 1000*i), crc: uint32(i)}
		if i%3 == 0 {
			e.off += 3 << 30
		}
		entries = append(entries, e)
	}
	var buf bytes.Buffer
	writePackIndex(&buf, entries, bytes.Repeat([]byte{7}, 20))
	name := filepath.Join(t.TempDir(), "pack-x.idx")
	if err := os.WriteFile(name, buf.Bytes(), 0o444); err != nil {
		t.Fatal(err)
	}
	p := &packIdx{idx: name}
	defer p.close()
	for _, e := range entries {
		off, ok := p.find(e.id)
		if !ok || uint64(off) != e.off {
			t.Fatalf("find %s = %d, %v; want %d", e.id, off, ok, e.off)
		}
	}
	if _, ok := p.find(plumbing.ComputeHash(plumbing.BlobObject, []byte("absent"))); ok {
		t.Error("found an id never written")
	}
}
