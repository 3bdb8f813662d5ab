package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/git-speed/git-speed/internal/gittest"
	"github.com/go-git/go-git/v5/plumbing"
)

func factKey(i int) string { return fmt.Sprintf("%040x", i*7919+1) }

func TestStoreRoundTrip(t *testing.T) {
	g := sample(t)
	before := g.Git("status", "--porcelain")
	headBefore := g.Git("rev-parse", "HEAD")
	indexBefore, _ := os.ReadFile(filepath.Join(g.Dir, ".git", "index"))
	r := open(t, g.Dir)
	s := r.Store()
	_, tree, _ := r.Head()

	if ok, err := s.HasTree(tree, "d1"); err != nil || ok {
		t.Fatalf("HasTree on empty store = %v, %v", ok, err)
	}
	if got, err := s.Facts([]string{factKey(1)}); err != nil || len(got) != 0 {
		t.Fatalf("Facts on empty store = %v, %v", got, err)
	}
	shards := map[string][]byte{
		"":                       []byte("root"),
		"pkg":                    []byte("pkg shard"),
		"pkg/sub":                []byte("sub shard"),
		".git/x":                 []byte("dot"),
		"a b/%41/@/..":           []byte("odd"),
		"ünï/\x00\xff":           []byte("bytes"),
		"pkg//double":            []byte("empty component"),
		"trailing/":              []byte("trailing slash"),
		strings.Repeat("x", 300): nil,
	}
	tx := s.Begin()
	tx.PutFacts(factKey(1), []byte("facts one"))
	tx.PutFacts(factKey(2), []byte{})
	tx.PutTree(tree, "d1", "csg", shards)
	tx.PutTree(tree, "d1", "map", map[string][]byte{"": []byte("the map")})
	if err := tx.Commit("index " + tree); err != nil {
		t.Fatal(err)
	}
	got, err := s.Facts([]string{factKey(2), factKey(1), factKey(3), "not-hex", factKey(1)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || string(got[factKey(1)]) != "facts one" || got[factKey(2)] == nil || len(got[factKey(2)]) != 0 {
		t.Fatalf("Facts = %q", got)
	}
	if ok, err := s.HasTree(tree, "d1"); err != nil || !ok {
		t.Fatalf("HasTree = %v, %v", ok, err)
	}
	if ok, _ := s.HasTree(tree, "d2"); ok {
		t.Fatal("HasTree with another digest")
	}
	art, err := s.Tree(tree, "d1", "csg")
	if err != nil {
		t.Fatal(err)
	}
	if len(art) != len(shards) {
		t.Fatalf("Tree returned %d shards, want %d", len(art), len(shards))
	}
	for k, v := range shards {
		if !bytes.Equal(art[k], v) {
			t.Errorf("shard %q = %q, want %q", k, art[k], v)
		}
	}
	if _, err := s.Tree(tree, "d1", "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Tree(missing artifact) = %v", err)
	}
	infos, err := s.Trees()
	if err != nil || len(infos) != 1 || infos[0].Tree != tree || infos[0].Digest != "d1" ||
		!reflect.DeepEqual(infos[0].Artifacts, []string{"csg", "map"}) || infos[0].Seq != 1 {
		t.Fatalf("Trees = %+v, %v", infos, err)
	}

	// Nothing of the user's changed.
	if g.Git("status", "--porcelain") != before || g.Git("rev-parse", "HEAD") != headBefore {
		t.Error("store write changed status or HEAD")
	}
	if indexAfter, _ := os.ReadFile(filepath.Join(g.Dir, ".git", "index")); !bytes.Equal(indexBefore, indexAfter) {
		t.Error("store write changed the index")
	}
	// git itself is happy with what we wrote, fsck-strict included.
	g.Git("fsck", "--strict", "--no-dangling")

	// A second commit is a child of the first.
	first := g.Git("rev-parse", IndexRef)
	tx = s.Begin()
	tx.PutFacts(factKey(3), []byte("three"))
	if err := tx.Commit(""); err != nil {
		t.Fatal(err)
	}
	if p := g.Git("rev-parse", IndexRef+"^"); p != first {
		t.Errorf("parent of new store commit = %s, want %s", p, first)
	}
	// Committing the same content again is a no-op.
	tx = s.Begin()
	tx.PutFacts(factKey(3), []byte("three"))
	second := g.Git("rev-parse", IndexRef)
	if err := tx.Commit(""); err != nil || g.Git("rev-parse", IndexRef) != second {
		t.Errorf("idempotent commit moved the ref (%v)", err)
	}
	n, size, err := s.Size()
	if err != nil || n == 0 || size == 0 {
		t.Errorf("Size = %d, %d, %v", n, size, err)
	}
}

func TestTxnRejectsBadInput(t *testing.T) {
	g := sample(t)
	s := open(t, g.Dir).Store()
	tree := g.Git("rev-parse", "HEAD^{tree}")
	for _, tc := range []struct {
		name string
		put  func(*Txn)
		want string
	}{
		{"key", func(tx *Txn) { tx.PutFacts("XYZ", nil) }, `"XYZ"`},
		{"tree", func(tx *Txn) { tx.PutTree("HEAD", "d", "a", nil) }, `"HEAD"`},
		{"digest", func(tx *Txn) { tx.PutTree(tree, "D/1", "a", nil) }, `"D/1"`},
		{"name", func(tx *Txn) { tx.PutTree(tree, "d", "meta", nil) }, `"meta"`},
		{"tree id", func(tx *Txn) { tx.PutTreeID(tree, "d", "a", "HEAD") }, `"HEAD"`},
		{"tree id name", func(tx *Txn) { tx.PutTreeID(tree, "d", "meta", tree) }, `"meta"`},
	} {
		tx := s.Begin()
		tc.put(tx)
		if err := tx.Commit("x"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Commit = %v, want an error naming %s", tc.name, err, tc.want)
		}
	}
	if _, err := g.GitErr("rev-parse", "-q", "--verify", IndexRef); err == nil {
		t.Error("a failed Commit created the store ref")
	}
}

func TestConcurrentWriters(t *testing.T) {
	g := sample(t)
	tree := g.Git("rev-parse", "HEAD^{tree}")
	const writers, each = 4, 8
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			// Separate Repo values behave like separate processes: no
			// shared lock, only git's ref lock.
			r, err := Open(g.Dir)
			if err != nil {
				errs <- err
				return
			}
			for i := 0; i < each; i++ {
				tx := r.Store().Begin()
				tx.PutFacts(factKey(w*100+i), []byte(fmt.Sprintf("w%d i%d", w, i)))
				tx.PutTree(tree, fmt.Sprintf("w%d", w), fmt.Sprintf("a%d", i), map[string][]byte{"pkg": []byte{byte(i)}})
				if err := tx.Commit(fmt.Sprintf("writer %d commit %d", w, i)); err != nil {
					errs <- err
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	s := open(t, g.Dir).Store()
	var keys []string
	for w := 0; w < writers; w++ {
		for i := 0; i < each; i++ {
			keys = append(keys, factKey(w*100+i))
		}
	}
	got, err := s.Facts(keys)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(keys) {
		t.Fatalf("lost facts: have %d of %d", len(got), len(keys))
	}
	infos, err := s.Trees()
	if err != nil || len(infos) != writers {
		t.Fatalf("Trees = %d entries, %v", len(infos), err)
	}
	for _, info := range infos {
		if len(info.Artifacts) != each {
			t.Errorf("tree %s digest %s has %d artifacts, want %d", info.Tree, info.Digest, len(info.Artifacts), each)
		}
	}
	if n := g.Git("rev-list", "--count", IndexRef); n != fmt.Sprint(writers*each) {
		t.Errorf("store history has %s commits, want %d (one per Commit, linear)", n, writers*each)
	}
	g.Git("fsck", "--strict", "--no-dangling")
}

// TestConcurrentProcesses runs real separate processes (this test binary)
// writing to one store at once.
func TestConcurrentProcesses(t *testing.T) {
	if os.Getenv("GITSTORE_WRITER") != "" {
		return
	}
	g := sample(t)
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	const procs, each = 3, 10
	var wg sync.WaitGroup
	outs := make([][]byte, procs)
	errs := make([]error, procs)
	for p := 0; p < procs; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			cmd := execCommand(exe, "-test.run=^TestWriterProcess$")
			cmd.Dir = g.Dir
			cmd.Env = append(append([]string(nil), g.Env...), fmt.Sprintf("GITSTORE_WRITER=%d", p), fmt.Sprintf("GITSTORE_EACH=%d", each))
			outs[p], errs[p] = cmd.CombinedOutput()
		}(p)
	}
	wg.Wait()
	for p := range errs {
		if errs[p] != nil {
			t.Fatalf("writer %d: %v\n%s", p, errs[p], outs[p])
		}
	}
	var keys []string
	for p := 0; p < procs; p++ {
		for i := 0; i < each; i++ {
			keys = append(keys, factKey(1000*p+i))
		}
		for j := 0; j < 2*packThreshold; j++ {
			keys = append(keys, factKey(1000*p+500+j))
		}
	}
	got, err := open(t, g.Dir).Store().Facts(keys)
	if err != nil || len(got) != len(keys) {
		t.Fatalf("after concurrent processes: %d of %d facts, %v", len(got), len(keys), err)
	}
	g.Git("fsck", "--strict", "--no-dangling")
}

// TestWriterProcess is the body of one writer process for
// TestConcurrentProcesses; it does nothing in a normal run.
func TestWriterProcess(t *testing.T) {
	p := os.Getenv("GITSTORE_WRITER")
	if p == "" {
		t.Skip("helper process")
	}
	var id, each int
	fmt.Sscan(p, &id)
	fmt.Sscan(os.Getenv("GITSTORE_EACH"), &each)
	r, err := Open(".")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < each; i++ {
		tx := r.Store().Begin()
		tx.PutFacts(factKey(1000*id+i), []byte(fmt.Sprint(id, i)))
		if i == 0 {
			// One large commit per process: written as a pack, which the
			// other processes must find after they lose a race.
			for j := 0; j < 2*packThreshold; j++ {
				tx.PutFacts(factKey(1000*id+500+j), []byte(fmt.Sprint("bulk ", id, j)))
			}
		}
		if err := tx.Commit("process write"); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPushFetchStore(t *testing.T) {
	g := sample(t)
	r := open(t, g.Dir)
	_, tree, _ := r.Head()
	tx := r.Store().Begin()
	tx.PutFacts(factKey(1), []byte("shared facts"))
	tx.PutTree(tree, "d1", "map", map[string][]byte{"pkg": []byte("m")})
	if err := tx.Commit("ci index"); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(t.TempDir(), "origin.git")
	g.Git("init", "-q", "--bare", bare)
	g.Git("remote", "add", "origin", bare)
	g.Git("push", "-q", "origin", "main", "refs/speed/*:refs/speed/*")

	// A second update is a fast-forward push.
	tx = r.Store().Begin()
	tx.PutFacts(factKey(2), []byte("more"))
	if err := tx.Commit("second"); err != nil {
		t.Fatal(err)
	}
	g.Git("push", "-q", "origin", "refs/speed/*:refs/speed/*")

	clone := filepath.Join(t.TempDir(), "clone")
	g.Git("clone", "-q", bare, clone)
	c := g.At(clone)
	c.Git("fetch", "-q", "origin", "refs/speed/*:refs/speed/*")
	rc := open(t, clone)
	got, err := rc.Store().Facts([]string{factKey(1), factKey(2)})
	if err != nil || string(got[factKey(1)]) != "shared facts" || string(got[factKey(2)]) != "more" {
		t.Fatalf("facts in clone = %q, %v", got, err)
	}
	if ok, err := rc.Store().HasTree(tree, "d1"); !ok || err != nil {
		t.Fatalf("HasTree in clone = %v, %v", ok, err)
	}
	// The clone can write on top and push back as a fast-forward.
	tx = rc.Store().Begin()
	tx.PutFacts(factKey(3), []byte("from clone"))
	if err := tx.Commit("clone"); err != nil {
		t.Fatal(err)
	}
	c.Git("push", "-q", "origin", "refs/speed/*:refs/speed/*")
}

func TestGC(t *testing.T) {
	g := gittest.New(t)
	var trees []string
	for i := 0; i < 4; i++ {
		g.Write("f.txt", fmt.Sprint(i))
		g.Commit(fmt.Sprint(i))
		trees = append(trees, g.Git("rev-parse", "HEAD^{tree}"))
	}
	// Trees 0..3 are reachable from main. Add three trees no ref reaches.
	for i := 4; i < 7; i++ {
		blob, _ := g.GitInput([]byte(fmt.Sprint("orphan", i)), "hash-object", "-w", "--stdin")
		tr, err := g.GitInput([]byte("100644 blob "+blob+"\tx\n"), "mktree")
		if err != nil {
			t.Fatal(err)
		}
		trees = append(trees, tr)
	}
	r := open(t, g.Dir)
	s := r.Store()
	for i, tr := range trees {
		tx := s.Begin()
		tx.PutFacts(factKey(i), []byte(fmt.Sprint("facts of ", i)))
		tx.PutTree(tr, "d", "map", map[string][]byte{"": []byte(fmt.Sprint(i))})
		if err := tx.Commit(fmt.Sprint("index ", i)); err != nil {
			t.Fatal(err)
		}
	}
	// A tag pointing straight at a tree keeps that tree.
	g.Git("tag", "treetag", trees[4])
	live := func(tree, digest string) ([]string, error) {
		for i, tr := range trees {
			if tr == tree {
				return []string{factKey(i)}, nil
			}
		}
		return nil, fmt.Errorf("unknown tree %s", tree)
	}
	stats, err := s.GC(1, live)
	if err != nil {
		t.Fatal(err)
	}
	// Kept: 0..3 (main), 4 (tag), 6 (newest other). Dropped: 5.
	want := GCStats{TreesKept: 6, TreesDropped: 1, FactsKept: 6, FactsDropped: 1}
	if stats != want {
		t.Errorf("GC stats = %+v, want %+v", stats, want)
	}
	for i, tr := range trees {
		ok, err := s.HasTree(tr, "d")
		if err != nil || ok != (i != 5) {
			t.Errorf("after gc HasTree(tree %d) = %v, %v", i, ok, err)
		}
	}
	facts, _ := s.Facts([]string{factKey(5), factKey(6)})
	if _, ok := facts[factKey(5)]; ok || len(facts) != 1 {
		t.Errorf("after gc facts = %q", facts)
	}
	if n := g.Git("rev-list", "--count", IndexRef); n != "1" {
		t.Errorf("gc'd store has %s commits, want 1", n)
	}
	// Trees keep their order information.
	infos, _ := s.Trees()
	if len(infos) != 6 || infos[len(infos)-1].Tree != trees[6] {
		t.Errorf("Trees after gc = %+v", infos)
	}
	// GC with nil live keeps every facts entry.
	stats, err = s.GC(0, nil)
	if err != nil || stats.FactsDropped != 0 || stats.TreesDropped != 1 {
		t.Errorf("GC(0, nil) = %+v, %v", stats, err)
	}
	g.Git("fsck", "--strict", "--no-dangling")
}

func TestCorruptStore(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(g *gittest.Repo) string // returns the value to write into the ref
	}{
		{"blob", func(g *gittest.Repo) string {
			out, _ := g.GitInput([]byte("not a commit"), "hash-object", "-w", "--stdin")
			return out
		}},
		{"foreign commit", func(g *gittest.Repo) string { return g.Git("rev-parse", "HEAD") }},
		{"missing object", func(g *gittest.Repo) string { return strings.Repeat("ab", 20) }},
		{"old format", func(g *gittest.Repo) string {
			blob, _ := g.GitInput([]byte("git-speed store 0\n"), "hash-object", "-w", "--stdin")
			tree, _ := g.GitInput([]byte("100644 blob "+blob+"\tformat\n"), "mktree")
			return g.Git("commit-tree", "-m", "old", tree)
		}},
		{"bad layout", func(g *gittest.Repo) string {
			blob, _ := g.GitInput(formatBlob, "hash-object", "-w", "--stdin")
			tree, _ := g.GitInput([]byte("100644 blob "+blob+"\tformat\n100644 blob "+blob+"\tfacts\n100644 blob "+blob+"\ttrees\n"), "mktree")
			return g.Git("commit-tree", "-m", "odd", tree)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := sample(t)
			val := tc.set(g)
			ref := filepath.Join(g.Dir, ".git", "refs", "speed", "index")
			os.MkdirAll(filepath.Dir(ref), 0o755)
			if err := os.WriteFile(ref, []byte(val+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			r := open(t, g.Dir)
			s := r.Store()
			tree := g.Git("rev-parse", "HEAD^{tree}")
			_, err1 := s.Facts([]string{factKey(1)})
			_, err2 := s.HasTree(tree, "d")
			_, err3 := s.Trees()
			tx := s.Begin()
			tx.PutFacts(factKey(1), []byte("x"))
			err4 := tx.Commit("x")
			for i, err := range []error{err1, err2, err3, err4} {
				if !errors.Is(err, ErrCorrupt) {
					t.Errorf("call %d: err = %v, want ErrCorrupt", i, err)
				}
			}
			if got := g.Git("rev-parse", IndexRef); got != val {
				t.Errorf("a failed write moved the ref to %s", got)
			}
			if err := s.Reset(); err != nil {
				t.Fatal(err)
			}
			if infos, err := s.Trees(); err != nil || len(infos) != 0 {
				t.Fatalf("after Reset: Trees = %v, %v", infos, err)
			}
			tx = s.Begin()
			tx.PutFacts(factKey(1), []byte("x"))
			if err := tx.Commit("after reset"); err != nil {
				t.Fatal(err)
			}
			kept, err := g.GitErr("rev-parse", "-q", "--verify", CorruptRefPrefix+"1")
			if tc.name == "missing object" {
				if err == nil {
					t.Errorf("a missing object was kept under %s", CorruptRefPrefix+"1")
				}
			} else if kept != val {
				t.Errorf("%s = %q, want the old value %s", CorruptRefPrefix+"1", kept, val)
			}
		})
	}
}

func TestEscapeRoundTrip(t *testing.T) {
	for _, s := range []string{"", "a", ".", "..", ".git", "@", "%", "%41", "a.b", "x y", "\x00", "ü", "GIT~1", "-_."} {
		e := escapeName(s)
		if e == "@" || e == "." || e == ".." || strings.HasPrefix(e, ".") || strings.ContainsAny(e, "/\x00") {
			t.Errorf("escapeName(%q) = %q is unsafe", s, e)
		}
		back, err := unescapeName(e)
		if err != nil || back != s {
			t.Errorf("unescapeName(escapeName(%q)) = %q, %v", s, back, err)
		}
	}
	for _, bad := range []string{"%4", "%zz", "%41x%", "a%2Fb%2f", "%61"} {
		if _, err := unescapeName(bad); err == nil {
			t.Errorf("unescapeName(%q) accepted a non-canonical name", bad)
		}
	}
}

func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", ".git", "a/b", "%", "@", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := escapeName(s)
		if e == "@" || strings.HasPrefix(e, ".") || strings.ContainsAny(e, "/\x00") {
			t.Fatalf("escapeName(%q) = %q is unsafe", s, e)
		}
		back, err := unescapeName(e)
		if err != nil || back != s {
			t.Fatalf("round trip %q -> %q -> %q, %v", s, e, back, err)
		}
		// Any string unescape accepts is canonical.
		if v, err := unescapeName(s); err == nil && escapeName(v) != s {
			t.Fatalf("unescapeName accepted non-canonical %q", s)
		}
	})
}

// TestGCTreeTagsOnly: a repository whose refs are tags pointing at trees,
// with no commits at all (like the benchmark corpus).
func TestGCTreeTagsOnly(t *testing.T) {
	g := gittest.New(t)
	var trees []string
	for i := 0; i < 3; i++ {
		blob, _ := g.GitInput([]byte(fmt.Sprint("content ", i)), "hash-object", "-w", "--stdin")
		tr, err := g.GitInput([]byte("100644 blob "+blob+"\tf.txt\n"), "mktree")
		if err != nil {
			t.Fatal(err)
		}
		trees = append(trees, tr)
	}
	g.Git("tag", "t0", trees[0])
	g.Git("tag", "-a", "-m", "annotated", "t1", trees[1])
	r := open(t, g.Dir)
	for i, rev := range []string{"t0", "t1"} {
		c, tr, err := r.Resolve(rev)
		if err != nil || c != "" || tr != trees[i] {
			t.Fatalf("Resolve(%s) = %q, %q, %v", rev, c, tr, err)
		}
	}
	if _, _, err := r.Head(); !errors.Is(err, ErrNoCommits) {
		t.Fatalf("Head = %v, want ErrNoCommits", err)
	}
	s := r.Store()
	for _, tr := range trees {
		tx := s.Begin()
		tx.PutTree(tr, "d", "map", map[string][]byte{"": []byte(tr)})
		if err := tx.Commit("index"); err != nil {
			t.Fatal(err)
		}
	}
	stats, err := s.GC(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if stats.TreesKept != 2 || stats.TreesDropped != 1 {
		t.Errorf("GC = %+v, want t0 and t1 kept, the untagged tree dropped", stats)
	}
}

func TestOpenFromGitDir(t *testing.T) {
	g := sample(t)
	r := open(t, filepath.Join(g.Dir, ".git"))
	if r.WorkTree() != g.Dir {
		t.Errorf("WorkTree from .git = %q, want %q", r.WorkTree(), g.Dir)
	}
}

// TestLargeCommitWritesPack: a commit with many new objects writes one pack
// instead of loose objects, and git accepts it.
func TestLargeCommitWritesPack(t *testing.T) {
	g := sample(t)
	r := open(t, g.Dir)
	s := r.Store()
	tx := s.Begin()
	var keys []string
	for i := 0; i < 3*packThreshold; i++ {
		keys = append(keys, factKey(i))
		tx.PutFacts(factKey(i), []byte(fmt.Sprint("facts ", i, strings.Repeat("z", i))))
	}
	shards := map[string][]byte{}
	for i := 0; i < 50; i++ {
		shards[fmt.Sprintf("dir/%d", i)] = []byte(fmt.Sprint(i))
	}
	tx.PutTree(g.Git("rev-parse", "HEAD^{tree}"), "d", "csg", shards)
	if err := tx.Commit("big"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Facts(keys)
	if err != nil || len(got) != len(keys) {
		t.Fatalf("Facts = %d of %d, %v", len(got), len(keys), err)
	}
	if string(got[factKey(7)]) != "facts 7zzzzzzz" {
		t.Errorf("facts 7 = %q", got[factKey(7)])
	}
	art, err := s.Tree(g.Git("rev-parse", "HEAD^{tree}"), "d", "csg")
	if err != nil || len(art) != 50 {
		t.Fatalf("Tree = %d shards, %v", len(art), err)
	}
	counts := g.Git("count-objects", "-v")
	if !strings.Contains(counts, "packs: 1") {
		t.Errorf("expected one pack:\n%s", counts)
	}
	g.Git("fsck", "--strict", "--no-dangling")
	// A fresh process (new Repo) reads it too.
	got, err = open(t, g.Dir).Store().Facts(keys[:5])
	if err != nil || len(got) != 5 {
		t.Fatalf("fresh Facts = %d, %v", len(got), err)
	}
}

// TestWriteShardsEarly: an artifact written before the commit
// (WriteShards, then PutTreeID) is stored as PutTree stores it, with the
// same tree id, whether its shards are few (loose objects) or many (a pack),
// compressed or written as stored blocks.
func TestWriteShardsEarly(t *testing.T) {
	g := sample(t)
	s := open(t, g.Dir).Store()
	tree := g.Git("rev-parse", "HEAD^{tree}")
	for k, n := range []int{3, 3 * packThreshold, 4, 2 * packThreshold} {
		raw := k >= 2
		shards := map[string][]byte{}
		for i := 0; i < n; i++ {
			shards[fmt.Sprintf("dir%d/%d", i%7, i)] = []byte(fmt.Sprint("early ", n, " ", i))
		}
		id, err := s.WriteShards(shards, raw)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("early%d", n)
		tx := s.Begin()
		if raw {
			tx.Uncompressed("same" + name)
		}
		tx.PutTreeID(tree, "d", name, id)
		tx.PutTree(tree, "d", "same"+name, shards)
		if err := tx.Commit("early"); err != nil {
			t.Fatal(err)
		}
		got, err := s.Tree(tree, "d", name)
		if err != nil || !reflect.DeepEqual(got, shards) {
			t.Fatalf("%s: Tree = %d shards, %v; want %d", name, len(got), err, n)
		}
		root := g.Git("rev-parse", IndexRef+"^{tree}")
		dir := g.Git("ls-tree", "-r", "-d", "--name-only", root, "trees")
		var early, same string
		for _, d := range strings.Split(dir, "\n") {
			switch {
			case strings.HasSuffix(d, "/"+name):
				early = g.Git("rev-parse", root+":"+d)
			case strings.HasSuffix(d, "/same"+name):
				same = g.Git("rev-parse", root+":"+d)
			}
		}
		if early == "" || early != id || same != id {
			t.Errorf("%s: stored as %q, PutTree stored %q, WriteShards said %q", name, early, same, id)
		}
	}
	g.Git("fsck", "--strict", "--no-dangling")
}

// TestStoreSharedWithWorktree: refs/speed lives in the common dir, so a
// linked worktree and the main one see the same store, and a hook-style
// environment (GIT_DIR, GIT_INDEX_FILE set) changes nothing.
func TestStoreSharedWithWorktree(t *testing.T) {
	g := sample(t)
	wt := filepath.Join(t.TempDir(), "wt")
	g.Git("worktree", "add", "-q", "--detach", wt)
	rw := open(t, wt)
	tx := rw.Store().Begin()
	tx.PutFacts(factKey(42), []byte("from worktree"))
	t.Setenv("GIT_INDEX_FILE", filepath.Join(t.TempDir(), "bogus-index"))
	if err := tx.Commit("wt"); err != nil {
		t.Fatal(err)
	}
	got, err := open(t, g.Dir).Store().Facts([]string{factKey(42)})
	if err != nil || string(got[factKey(42)]) != "from worktree" {
		t.Fatalf("main worktree sees %q, %v", got, err)
	}
	if st := g.Git("status", "--porcelain"); st != "" {
		t.Errorf("status after store write: %q", st)
	}
}

// FuzzShardsRoundTrip: any set of shard keys survives writing an artifact
// tree and reading it back.
func FuzzShardsRoundTrip(f *testing.F) {
	f.Add("a\na/b\n\n.git\n..\n@\n%\nx//y\n/lead\ntrail/")
	f.Add("ü\x00\xff/%41")
	g := gittest.New(f)
	os.Unsetenv("GIT_DIR")
	r, err := Open(g.Dir)
	if err != nil {
		f.Fatal(err)
	}
	s := r.Store()
	f.Fuzz(func(t *testing.T, keys string) {
		shards := map[string][]byte{}
		for i, k := range strings.Split(keys, "\n") {
			shards[k] = []byte(fmt.Sprint(i))
		}
		r.mu.Lock()
		h, err := r.writeShards(shards, false)
		r.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][]byte{}
		r.mu.Lock()
		err = s.readShards(h, nil, got)
		r.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(shards) {
			t.Fatalf("%d shards back, want %d", len(got), len(shards))
		}
		for k, v := range shards {
			if !bytes.Equal(got[k], v) {
				t.Fatalf("shard %q = %q, want %q", k, got[k], v)
			}
		}
	})
}

// TestPinnedFacts checks that a pinned store reads facts as they were at
// the pin, misses what another writer adds meanwhile, and sees it again
// once unpinned.
func TestPinnedFacts(t *testing.T) {
	g := sample(t)
	s := open(t, g.Dir).Store()
	other := open(t, g.Dir).Store() // another process's view of the same repository
	tx := s.Begin()
	tx.PutFacts(factKey(1), []byte("one"))
	if err := tx.Commit("facts 1"); err != nil {
		t.Fatal(err)
	}
	unpin, err := s.Pin()
	if err != nil {
		t.Fatal(err)
	}
	tx = other.Begin()
	tx.PutFacts(factKey(2), []byte("two"))
	if err := tx.Commit("facts 2"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Facts([]string{factKey(1), factKey(2)})
	if err != nil || string(got[factKey(1)]) != "one" || got[factKey(2)] != nil {
		t.Fatalf("pinned Facts = %q, %v; want fact 1 only", got, err)
	}
	unpin()
	got, err = s.Facts([]string{factKey(1), factKey(2)})
	if err != nil || string(got[factKey(1)]) != "one" || string(got[factKey(2)]) != "two" {
		t.Fatalf("unpinned Facts = %q, %v; want both", got, err)
	}
	// Pinning an empty store reads nothing and fails nothing.
	empty := open(t, sample(t).Dir).Store()
	unpin, err = empty.Pin()
	if err != nil {
		t.Fatal(err)
	}
	defer unpin()
	if got, err := empty.Facts([]string{factKey(1)}); err != nil || len(got) != 0 {
		t.Fatalf("Facts on a pinned empty store = %v, %v", got, err)
	}
	// It answers while a write holds the repository (a batch of new
	// facts being compressed).
	empty.r.mu.Lock()
	answered := make(chan error, 1)
	go func() {
		_, err := empty.Facts([]string{factKey(1)})
		answered <- err
	}()
	select {
	case err := <-answered:
		if err != nil {
			t.Errorf("Facts on a pinned empty store during a write: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("Facts on a pinned empty store waited for a write")
	}
	empty.r.mu.Unlock()
}

// TestSmallArtifactsWalked: an artifact of a few trees is listed in this
// process, a larger one by git ls-tree; both list the same shards.
func TestSmallArtifactsWalked(t *testing.T) {
	g := sample(t)
	r := open(t, g.Dir)
	tree := strings.Repeat("cd", 20)
	for _, n := range []int{1, 3, 40} {
		shards := map[string][]byte{}
		for i := 0; i < n; i++ {
			shards[fmt.Sprintf("d%d/e%d/%%@ x", i%3, i)] = []byte(fmt.Sprint(i))
		}
		shards["top"] = []byte("t")
		name := fmt.Sprint("art", n)
		tx := r.Store().Begin()
		tx.PutTree(tree, "d", name, shards)
		if err := tx.Commit("art"); err != nil {
			t.Fatal(err)
		}
		got, err := r.Store().Tree(tree, "d", name)
		if err != nil || !reflect.DeepEqual(got, shards) {
			t.Fatalf("%d shards: read back %v, %v", n, got, err)
		}
		r.mu.Lock()
		snap, _ := r.Store().tip()
		h, _, _ := r.Store().lookup(snap.root, true, "trees", shard(tree), treeDirName(tree, "d"), name)
		var wk []string
		var wi, li []plumbing.Hash
		budget := 1 << 20
		werr := r.Store().walkShards(h, nil, &wk, &wi, &budget)
		out, lerr := r.git(nil, "ls-tree", "-r", "-z", h.String())
		r.mu.Unlock()
		if werr != nil || lerr != nil {
			t.Fatal(werr, lerr)
		}
		for _, rec := range splitRecords(out, 0) {
			tab := bytes.IndexByte(rec, '\t')
			f := bytes.Fields(rec[:tab])
			li = append(li, plumbing.NewHash(string(f[2])))
		}
		if !reflect.DeepEqual(wi, li) || len(wk) != n+1 {
			t.Fatalf("%d shards: the walk lists %d blobs %v, ls-tree %v", n, len(wk), wi, li)
		}
	}
}
