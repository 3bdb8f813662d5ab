package gitstore

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
	"github.com/go-git/go-git/v5/plumbing"
)

// TestObjectsReadAsGitDoes reads every object of a repository through
// r.objs, loose, packed whole and packed as deltas (offset and reference
// deltas, chains of them), and after a repack that replaced the packs the
// reader had open, and requires the type and bytes git cat-file gives.
func TestObjectsReadAsGitDoes(t *testing.T) {
	g := gittest.New(t)
	body := strings.Repeat("line of a file that changes a little each commit\n", 200)
	// Larger than a delta's longest copy (64 KiB, written with a size of 0).
	big := strings.Repeat("a line of the big file, the same in every commit\n", 4000)
	for i := 0; i < 12; i++ {
		g.Write("f.txt", body+strconv.Itoa(i)+"\n")
		g.Write("big.txt", strconv.Itoa(i)+big+strconv.Itoa(i))
		g.Write(fmt.Sprintf("d%d/g.txt", i%3), strings.Repeat("x", 5000+i))
		g.Git("add", "-A")
		g.Commit(fmt.Sprint("c", i))
	}
	r, err := Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	check := func(stage string, wantPacked bool) {
		t.Helper()
		all := catAll(t, g)
		packed := 0
		r.mu.Lock()
		defer r.mu.Unlock()
		for h, want := range all {
			typ, data, err := r.objs.read(h)
			if err != nil {
				t.Fatalf("%s: %s: %v", stage, h, err)
			}
			if typ != want.t || !bytes.Equal(data, want.data) {
				t.Fatalf("%s: %s reads as a %s of %d bytes, git has a %s of %d", stage, h, typ, len(data), want.t, len(want.data))
			}
			if _, _, ok := r.objs.find(h); ok {
				packed++
			} else if _, err := os.Stat(r.objs.loosePath(h)); err != nil {
				t.Fatalf("%s: %s is neither in a pack nor loose", stage, h)
			}
			if !r.objs.has(h, true) {
				t.Fatalf("%s: %s not found", stage, h)
			}
		}
		// Only the trees of the index's cache stay loose.
		if wantPacked && packed < len(all)-2 {
			t.Fatalf("%s: %d of %d objects packed", stage, packed, len(all))
		}
		if _, _, err := r.objs.read(plumbing.NewHash("0123456789012345678901234567890123456789")); err != plumbing.ErrObjectNotFound {
			t.Fatalf("%s: a missing object reads with %v", stage, err)
		}
	}
	check("loose", false)
	g.Git("repack", "-adq", "--depth=50", "--window=50")
	g.Git("prune", "--expire=now") // what no pack holds
	check("packed with offset deltas", true)
	// The reader holds the old packs open; a repack deletes them.
	g.Git("-c", "repack.usedeltabaseoffset=false", "repack", "-adfq", "--depth=50", "--window=50")
	check("repacked with reference deltas", true)
	if !hasDeltas(t, g) {
		t.Fatal("the packs hold no deltas: the fixture does not test them")
	}
}

type gitObject struct {
	t    plumbing.ObjectType
	data []byte
}

// catAll returns every object of g as git cat-file reads it.
func catAll(t *testing.T, g *gittest.Repo) map[plumbing.Hash]gitObject {
	t.Helper()
	cmd := exec.Command("git", "cat-file", "--batch-all-objects", "--batch")
	cmd.Dir, cmd.Env = g.Dir, g.Env
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	objs := map[plumbing.Hash]gitObject{}
	rd := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := rd.ReadString('\n')
		if err == io.EOF {
			return objs
		}
		f := strings.Fields(line)
		if err != nil || len(f) != 3 {
			t.Fatalf("cat-file: %q %v", line, err)
		}
		n, _ := strconv.Atoi(f[2])
		data := make([]byte, n+1)
		if _, err := io.ReadFull(rd, data); err != nil {
			t.Fatal(err)
		}
		typ, err := plumbing.ParseObjectType(f[1])
		if err != nil {
			t.Fatal(err)
		}
		objs[plumbing.NewHash(f[0])] = gitObject{typ, data[:n]}
	}
}

// hasDeltas reports whether g's packs store some object as a delta.
func hasDeltas(t *testing.T, g *gittest.Repo) bool {
	out := g.Git("cat-file", "--batch-all-objects", "--batch-check=%(deltabase)")
	for _, l := range strings.Fields(out) {
		if l != plumbing.ZeroHash.String() {
			return true
		}
	}
	return false
}

// TestObjectsThroughAlternates: a repository borrowing objects from
// another (git clone --shared, an absolute path in objects/info/alternates)
// reads them, loose and packed.
func TestObjectsThroughAlternates(t *testing.T) {
	g := gittest.New(t)
	g.Write("a.txt", "borrowed\n")
	g.Git("add", "-A")
	g.Commit("c")
	g.Git("repack", "-adq")
	dir := t.TempDir() + "/shared"
	g.Git("clone", "-q", "--shared", g.Dir, dir)
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	g.Write("b.txt", "borrowed loose\n")
	g.Git("add", "-A")
	g.Commit("loose")
	for _, p := range []string{"HEAD:a.txt", "HEAD:b.txt"} {
		blob := plumbing.NewHash(g.Git("rev-parse", p))
		want, _ := os.ReadFile(filepath.Join(g.Dir, strings.TrimPrefix(p, "HEAD:")))
		r.mu.Lock()
		data, err := r.readObject(plumbing.BlobObject, blob)
		has := r.hasObject(blob)
		r.mu.Unlock()
		if err != nil || !bytes.Equal(data, want) || !has {
			t.Fatalf("borrowed %s: %q, %v (found %v)", p, data, err, has)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.hasObject(plumbing.NewHash("0123456789012345678901234567890123456789")) {
		t.Fatal("a missing object is found")
	}
}

// Blobs read at once from a mapped pack, on several cores, are those git
// gives, deltas included; a set holding a tree, or an object no pack
// holds, is left to the one-by-one read.
func TestReadPackedAtOnce(t *testing.T) {
	g := gittest.New(t)
	body := strings.Repeat("a line of a file that changes a little each commit\n", 300)
	for i := 0; i < 6; i++ {
		for k := 0; k < 4; k++ {
			g.Write(fmt.Sprintf("d%d/f.txt", k), body+strconv.Itoa(i*k)+"\n")
		}
		g.Git("add", "-A")
		g.Commit(fmt.Sprint("c", i))
	}
	g.Git("repack", "-adq", "--depth=10", "--window=10")
	g.Git("prune", "--expire=now")
	r, err := Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	all := catAll(t, g)
	var blobs []plumbing.Hash
	var tree plumbing.Hash
	for h, o := range all {
		switch o.t {
		case plumbing.BlobObject:
			blobs = append(blobs, h)
		case plumbing.TreeObject:
			tree = h
		}
	}
	if len(blobs) < 8 || !hasDeltas(t, g) {
		t.Fatalf("the fixture has %d blobs (deltas: %v)", len(blobs), hasDeltas(t, g))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	got, ok := r.readPackedAtOnce(blobs)
	if !ok && runtime.GOMAXPROCS(0) > 1 {
		t.Fatal("packed blobs were not read at once")
	}
	for i, h := range blobs {
		if ok && !bytes.Equal(got[i], all[h].data) {
			t.Fatalf("%s: %d bytes, git has %d", h, len(got[i]), len(all[h].data))
		}
	}
	if _, ok := r.readPackedAtOnce(append(blobs[:len(blobs):len(blobs)], tree)); ok {
		t.Error("a tree was read as a blob")
	}
	missing := plumbing.NewHash("0123456789012345678901234567890123456789")
	if _, ok := r.readPackedAtOnce(append(blobs[:len(blobs):len(blobs)], missing)); ok {
		t.Error("a missing object was read")
	}
	if out, err := r.readBlobs(blobs); err != nil || !bytes.Equal(out[3], all[blobs[3]].data) {
		t.Errorf("readBlobs: %v", err)
	}
}
