package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
	"github.com/go-git/go-git/v5/plumbing"
)

// fakeBuild does what a full build does to the store: facts in batches
// (WriteBlobs, a pack each), an artifact written early (WriteShards) and
// a commit naming them all. It returns the facts and the artifact.
func fakeBuild(t *testing.T, g *gittest.Repo, s *Store, round int) (map[string][]byte, map[string][]byte) {
	t.Helper()
	return fakeBuildMerging(t, g, s, round, false, nil)
}

// fakeBuildMerging is fakeBuild; when early, the facts batches' packs are
// merged (Store.MergeWritten) while the artifact is written, as a full
// build does, and a merge error is kept as the build keeps it: a warning.
// The commit's own merge error (Txn.Unmerged) goes to unmerged, if given.
func fakeBuildMerging(t *testing.T, g *gittest.Repo, s *Store, round int, early bool, unmerged *error) (map[string][]byte, map[string][]byte) {
	t.Helper()
	facts := map[string][]byte{}
	tx := s.Begin()
	for batch := 0; batch < 3; batch++ {
		var blobs [][]byte
		var keys []string
		// (enough new objects in each batch for a pack of its own)
		for i := 0; i < packThreshold+20+len(compressible()); i++ {
			n := (round*10+batch)*1000 + i
			data := []byte(fmt.Sprint("facts ", n, " ", strings.Repeat("payload ", i%41)))
			if i == 0 {
				data = []byte("the same in every batch") // written once
			}
			if i < len(compressible()) {
				data = append(compressible()[i], fmt.Sprint(round)...)
			}
			keys = append(keys, factKey(n))
			blobs = append(blobs, data)
		}
		ids, err := s.WriteBlobs(blobs)
		if err != nil {
			t.Fatal(err)
		}
		for i, id := range ids {
			tx.PutFactsID(keys[i], id)
			facts[keys[i]] = blobs[i]
		}
	}
	merged := make(chan error, 1)
	if early {
		go func() { merged <- s.MergeWritten() }()
	} else {
		merged <- nil
	}
	shards := map[string][]byte{}
	for i := 0; i < 2*packThreshold; i++ {
		shards[fmt.Sprintf("d%d/%d", i%9, i)] = []byte(fmt.Sprint("shard ", round, " ", i))
	}
	id, err := s.WriteShards(shards, false)
	if err != nil {
		t.Fatal(err)
	}
	tree := g.Git("rev-parse", "HEAD^{tree}")
	tx.PutTreeID(tree, fmt.Sprint("d", round), "art", id)
	// and the commit's own objects, more than packThreshold
	for i := 0; i < packThreshold+5; i++ {
		k := factKey(900000 + round*1000 + i)
		facts[k] = []byte(fmt.Sprint("in the commit ", round, " ", i))
		tx.PutFacts(k, facts[k])
	}
	if err := <-merged; err != nil {
		t.Logf("early merge: %v", err)
	}
	if err := tx.Commit("build"); err != nil {
		t.Fatal(err)
	}
	if unmerged != nil {
		*unmerged = tx.Unmerged()
	}
	return facts, shards
}

func packNames(t *testing.T, g *gittest.Repo) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(g.Dir, ".git", "objects", "pack", "pack-*.pack"))
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// checkStore: git and a fresh reader find every fact and the artifact, git
// verifies every pack and finds the repository sound.
func checkStore(t *testing.T, g *gittest.Repo, facts, shards map[string][]byte, round int) {
	t.Helper()
	for _, p := range packNames(t, g) {
		idx := strings.TrimSuffix(p, ".pack") + ".idx"
		if _, err := os.Stat(idx); err == nil { // git ignores a pack without one
			g.Git("verify-pack", idx)
		}
	}
	g.Git("fsck", "--strict", "--no-dangling")
	s := open(t, g.Dir).Store()
	keys := make([]string, 0, len(facts))
	for k := range facts {
		keys = append(keys, k)
	}
	got, err := s.Facts(keys)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range facts {
		if string(got[k]) != string(want) {
			t.Fatalf("fact %s: store read %d bytes, want %d", k, len(got[k]), len(want))
		}
	}
	tree := g.Git("rev-parse", "HEAD^{tree}")
	art, err := s.Tree(tree, fmt.Sprint("d", round), "art")
	if err != nil || !reflect.DeepEqual(art, shards) {
		t.Fatalf("artifact: %d shards, %v; want %d", len(art), err, len(shards))
	}
	// git reads every object of the store
	listing := g.Git("ls-tree", "-r", IndexRef)
	n := 0
	var batch strings.Builder
	for _, line := range strings.Split(listing, "\n") {
		if f := strings.Fields(line); len(f) == 4 && f[1] == "blob" {
			batch.WriteString(f[2] + "\n")
			n++
		}
	}
	out, err := g.GitInput([]byte(batch.String()), "cat-file", "--batch-check")
	if err != nil || strings.Contains(out, "missing") || strings.Count(out, " blob ") != n {
		t.Fatalf("cat-file --batch-check: %v\n%.300s", err, out)
	}
}

// TestBuildLeavesOnePack: the packs of a build (facts batches, an artifact
// written early, the commit's) become one, beside the user's own pack;
// each build after adds one more; git and the store read every object.
func TestBuildLeavesOnePack(t *testing.T) {
	g := sample(t)
	g.Git("repack", "-a", "-d", "-q")
	user := packNames(t, g)
	if len(user) != 1 {
		t.Fatalf("user packs = %v", user)
	}
	buildRounds(t, g, user[0], false, 1)
}

// buildRounds makes two fake builds (early: merging early) and checks
// that each leaves perBuild more packs, the user's pack user there, no
// temporary file, and every object readable by the writer, a fresh
// reader and git.
func buildRounds(t *testing.T, g *gittest.Repo, user string, early bool, perBuild int) {
	t.Helper()
	s := open(t, g.Dir).Store()
	for round := 1; round <= 2; round++ {
		facts, shards := fakeBuildMerging(t, g, s, round, early, nil)
		if got := packNames(t, g); len(got) != 1+perBuild*round {
			t.Fatalf("round %d: packs = %d, want %d", round, len(got), 1+perBuild*round)
		}
		if _, err := os.Stat(user); err != nil {
			t.Fatalf("the user's pack is gone: %v", err)
		}
		if left, _ := filepath.Glob(filepath.Join(g.Dir, ".git", "objects", "pack", "tmp_*")); len(left) > 0 {
			t.Errorf("temporary files left: %v", left)
		}
		// the writing process reads its own objects after the merge
		got, err := s.Facts([]string{factKey(round * 10000)})
		if err != nil || string(got[factKey(round*10000)]) != string(facts[factKey(round*10000)]) {
			t.Fatalf("writer reads %q, %v", got, err)
		}
		checkStore(t, g, facts, shards, round)
	}
}

// TestMergeInterrupted: a merge stopped at any of its steps (as by a kill)
// leaves every object readable by git and by the store, a temporary file
// at worst; the next build merges its own packs again.
func TestMergeInterrupted(t *testing.T) {
	for _, stop := range []string{"written", "packed", "remove 1", "remove 2"} {
		t.Run(stop, func(t *testing.T) {
			g := sample(t)
			s := open(t, g.Dir).Store()
			removes := 0
			mergeHook = func(step string) error {
				if strings.HasPrefix(step, "remove ") {
					removes++
					step = fmt.Sprint("remove ", removes)
				}
				if step == stop {
					// a half-written file, as a kill during a write leaves
					name := filepath.Join(g.Dir, ".git", "objects", "pack", "tmp_pack_killed")
					if err := os.WriteFile(name, []byte("PACK\x00\x00\x00\x02"), 0o444); err != nil {
						t.Fatal(err)
					}
					return errors.New("killed")
				}
				return nil
			}
			defer func() { mergeHook = nil }()
			var unmerged error
			facts, shards := fakeBuildMerging(t, g, s, 1, false, &unmerged)
			mergeHook = nil
			if n := len(packNames(t, g)); n < 2 {
				t.Errorf("stopped at %s: %d packs, want the build's packs left", stop, n)
			}
			if unmerged == nil || !strings.Contains(unmerged.Error(), "killed") {
				t.Errorf("stopped at %s: Unmerged() = %v, want the merge's error", stop, unmerged)
			}
			checkStore(t, g, facts, shards, 1)
			before := len(packNames(t, g))
			facts, shards = fakeBuildMerging(t, g, s, 2, false, &unmerged)
			if unmerged != nil {
				t.Errorf("next build: Unmerged() = %v", unmerged)
			}
			if n := len(packNames(t, g)); n != before+1 {
				t.Errorf("next build: %d packs, want %d", n, before+1)
			}
			checkStore(t, g, facts, shards, 2)
		})
	}
}

// TestPackModesAsGit: with core.sharedRepository set, the packs and loose
// objects the store writes get the modes git gives its own.
func TestPackModesAsGit(t *testing.T) {
	for _, shared := range []string{"", "group", "all", "0640", "0600"} {
		t.Run("shared="+shared, func(t *testing.T) {
			g := sample(t)
			if shared != "" {
				g.Git("config", "core.sharedRepository", shared)
			}
			// content whose object goes to a folder git makes now
			content := ""
			for i := 0; content == ""; i++ {
				c := fmt.Sprint("new ", shared, " ", i, "\n")
				id, err := g.GitInput([]byte(c), "hash-object", "--stdin")
				if err != nil {
					t.Fatal(err)
				}
				if _, err := os.Stat(filepath.Join(g.Dir, ".git", "objects", strings.TrimSpace(id)[:2])); err != nil {
					content = c
				}
			}
			g.Write("new.txt", content)
			g.Commit("two") // loose objects of git's
			obj := g.Git("rev-parse", "HEAD:new.txt")
			gitLoose := mode(t, filepath.Join(g.Dir, ".git", "objects", obj[:2], obj[2:]))
			gitDir := dirMode(t, filepath.Join(g.Dir, ".git", "objects", obj[:2]))
			g.Git("repack", "-a", "-d", "-q")
			gitPack := mode(t, packNames(t, g)[0])
			s := open(t, g.Dir).Store()
			fakeBuild(t, g, s, 1)
			for _, p := range packNames(t, g) {
				for _, f := range []string{p, strings.TrimSuffix(p, ".pack") + ".idx"} {
					if m := mode(t, f); m != gitPack {
						t.Errorf("%s: mode %o, git's pack %o", filepath.Base(f), m, gitPack)
					}
				}
			}
			tx := s.Begin()
			tx.PutFacts(factKey(1), []byte("one loose object"))
			if err := tx.Commit("small"); err != nil {
				t.Fatal(err)
			}
			c := g.Git("rev-parse", IndexRef)
			if m := mode(t, filepath.Join(g.Dir, ".git", "objects", c[:2], c[2:])); m != gitLoose {
				t.Errorf("loose object: mode %o, git's %o", m, gitLoose)
			}
			// the folder of the commit, new (git's repack removed its own)
			if d := dirMode(t, filepath.Join(g.Dir, ".git", "objects", c[:2])); d != gitDir {
				t.Errorf("loose object folder: mode %v, git's %v", d, gitDir)
			}
		})
	}
}

func mode(t *testing.T, name string) os.FileMode {
	t.Helper()
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}

func dirMode(t *testing.T, name string) os.FileMode {
	t.Helper()
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode() & (os.ModePerm | os.ModeSetgid)
}

func TestParseSharedPerm(t *testing.T) {
	for v, want := range map[string]int{
		"": 0, "umask": 0, "false": 0, "0": 0, "group": 0o660, "true": 0o660, "1": 0o660,
		"all": 0o664, "everybody": 0o664, "2": 0o664, "0640": -0o640, "0777": -0o666, "0460": 0, "junk": 0,
	} {
		if got := parseSharedPerm(v); got != want {
			t.Errorf("parseSharedPerm(%q) = %o, want %o", v, got, want)
		}
	}
}

// TestReaderSurvivesMerge: another reader that listed the packs before a
// merge removed them finds every object afterwards, in the merged pack,
// and keeps reading packs itself (no fallback to go-git).
func TestReaderSurvivesMerge(t *testing.T) {
	g := sample(t)
	s := open(t, g.Dir).Store()
	other := open(t, g.Dir)
	read := 0
	mergeHook = func(step string) error {
		if read == 0 && strings.HasPrefix(step, "remove ") {
			// list the packs (old and merged) and read from some of them
			if _, err := other.Store().Facts([]string{factKey(10000), factKey(11000)}); err != nil {
				t.Error(err)
			}
			read++
		}
		return nil
	}
	defer func() { mergeHook = nil }()
	facts, _ := fakeBuild(t, g, s, 1)
	mergeHook = nil
	if read == 0 {
		t.Fatal("the hook never read")
	}
	keys := make([]string, 0, len(facts))
	for k := range facts {
		keys = append(keys, k)
	}
	got, err := other.Store().Facts(keys)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range facts {
		if string(got[k]) != string(want) {
			t.Fatalf("fact %s: read %d bytes, want %d", k, len(got[k]), len(want))
		}
	}
	if other.objs.goGit {
		t.Error("the reader fell back to go-git")
	}
}

// FuzzReadPackSource: the merge's reading of a pack and its index never
// panics, and what it accepts it copies whole.
func FuzzReadPackSource(f *testing.F) {
	p := &pendingSet{objs: map[plumbing.Hash]pendingObject{}}
	for i, data := range [][]byte{[]byte("one"), []byte(strings.Repeat("two ", 500)), compressible()[0]} {
		h := plumbing.ComputeHash(plumbing.BlobObject, data)
		p.objs[h] = pendingObject{t: plumbing.BlobObject, data: data, raw: i == 0}
		p.order = append(p.order, h)
	}
	var pack, idx bytes.Buffer
	entries, sum, err := writePack(&pack, p)
	if err != nil {
		f.Fatal(err)
	}
	writePackIndex(&idx, entries, sum)
	f.Add(idx.Bytes(), pack.Bytes())
	f.Add(idx.Bytes()[:100], pack.Bytes())
	f.Add(idx.Bytes(), pack.Bytes()[:40])
	f.Fuzz(func(t *testing.T, idx, pack []byte) {
		base := filepath.Join(t.TempDir(), "pack-x")
		if err := os.WriteFile(base+".idx", idx, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(base+".pack", pack, 0o644); err != nil {
			t.Fatal(err)
		}
		src, err := readPackSource(base)
		if err != nil {
			return
		}
		var out bytes.Buffer
		entries, _, err := copyEntries(&out, []packSource{src}, len(src.entries))
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != len(src.entries) || out.Len() != len(pack) {
			t.Fatalf("copied %d entries in %d bytes from %d in %d", len(entries), out.Len(), len(src.entries), len(pack))
		}
	})
}

// TestMergeWrittenEarly: the facts batches' packs merged while the build
// goes on writing (Store.MergeWritten), the commit merges the rest: a
// build leaves two packs, none of the batches' own, and git and the store
// (the writer too) read every object.
func TestMergeWrittenEarly(t *testing.T) {
	g := sample(t)
	g.Git("repack", "-a", "-d", "-q")
	buildRounds(t, g, packNames(t, g)[0], true, 2)
	// a single pack written is left to the commit
	s2 := open(t, g.Dir).Store()
	var blobs [][]byte
	for i := 0; i < packThreshold+1; i++ {
		blobs = append(blobs, []byte(fmt.Sprint("alone ", i)))
	}
	if _, err := s2.WriteBlobs(blobs); err != nil {
		t.Fatal(err)
	}
	before := len(packNames(t, g))
	if err := s2.MergeWritten(); err != nil {
		t.Fatal(err)
	}
	if n := len(packNames(t, g)); n != before {
		t.Errorf("merged one pack: %d packs, want %d", n, before)
	}
	if len(s2.r.written) != 1 {
		t.Errorf("the commit has %d packs to merge, want 1", len(s2.r.written))
	}
}

// TestMergeWrittenInterrupted: an early merge stopped at any of its steps
// (as by a kill) leaves every object readable once the build commits; the
// next build merges its own packs again.
func TestMergeWrittenInterrupted(t *testing.T) {
	for _, stop := range []string{"written", "packed", "remove 1", "remove 3"} {
		t.Run(stop, func(t *testing.T) {
			g := sample(t)
			s := open(t, g.Dir).Store()
			removes, stopped := 0, false
			mergeHook = func(step string) error {
				if strings.HasPrefix(step, "remove ") {
					removes++
					step = fmt.Sprint("remove ", removes)
				}
				if step == stop && !stopped {
					stopped = true // the early merge: the commit's own goes on
					return errors.New("killed")
				}
				return nil
			}
			defer func() { mergeHook = nil }()
			facts, shards := fakeBuildMerging(t, g, s, 1, true, nil)
			mergeHook = nil
			if !stopped {
				t.Fatalf("the merge never reached %s", stop)
			}
			checkStore(t, g, facts, shards, 1)
			before := len(packNames(t, g))
			facts, shards = fakeBuildMerging(t, g, s, 2, true, nil)
			if n := len(packNames(t, g)); n != before+2 {
				t.Errorf("next build: %d packs, want %d", n, before+2)
			}
			checkStore(t, g, facts, shards, 2)
		})
	}
}
