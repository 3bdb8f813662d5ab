package build

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/gittest"
	"github.com/git-speed/git-speed/layers/world/extract"
)

// TestPartsFaults: parts that are stale, made by another git-speed,
// damaged or missing are each named, their files parsed here, and the
// index stored is what a one-machine build stores.
func TestPartsFaults(t *testing.T) {
	r := gittest.New(t)
	commits := writeDriftHistory(t, r, 1)
	repo, err := gitstore.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	ctx := context.Background()
	_, tree, _ := repo.Resolve(commits[0])
	st := repo.Store()

	solo, err := Index(ctx, repo, commits[0], Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	want := artifacts(t, repo, tree, cfg)
	r.Git("update-ref", "-d", gitstore.IndexRef)

	var parts [2]*PartResult
	for k := 1; k <= 2; k++ {
		if parts[k-1], err = IndexPart(ctx, repo, commits[0], k, 2, Options{Config: cfg}); err != nil {
			t.Fatal(err)
		}
		if _, err := r.GitErr("rev-parse", "-q", "--verify", gitstore.IndexRef); err == nil {
			t.Fatalf("part %d moved %s", k, gitstore.IndexRef)
		}
	}
	if parts[0].Files+parts[1].Files != solo.Files || parts[0].Parsed+parts[1].Parsed != solo.Parsed {
		t.Fatalf("parts %+v %+v do not add up to %+v", parts[0], parts[1], solo)
	}
	// Part 1 made again is the same commit (what a second machine pushes).
	before := r.Git("rev-parse", parts[0].Ref)
	if _, err := IndexPart(ctx, repo, commits[0], 1, 2, Options{Config: cfg}); err != nil {
		t.Fatal(err)
	}
	if again := r.Git("rev-parse", parts[0].Ref); again != before {
		t.Fatalf("part 1 made twice: %s then %s", before, again)
	}
	// Packed refs are found too (no refs/speed/parts folder then).
	r.Git("pack-refs", "--all")
	stored, err := st.Parts(tree)
	if err != nil || len(stored) != 2 {
		t.Fatalf("parts %+v %v", stored, err)
	}
	good := stored[0]

	// rewrite stores part 1 again with its description changed by edit and
	// its facts by facts (nil: as they are).
	rewrite := func(edit func(*partMeta), facts map[string]string) {
		t.Helper()
		var m partMeta
		if err := json.Unmarshal(good.Meta, &m); err != nil {
			t.Fatal(err)
		}
		edit(&m)
		b, _ := json.Marshal(m)
		if facts == nil {
			facts = good.Facts
		}
		if _, err := st.WritePart(tree, 1, 2, b, facts); err != nil {
			t.Fatal(err)
		}
	}
	garbage, err := st.WriteBlobs([][]byte{[]byte("not facts")})
	if err != nil {
		t.Fatal(err)
	}
	allGarbage := map[string]string{}
	for k := range good.Facts {
		allGarbage[k] = garbage[0]
	}
	missing := map[string]string{}
	for k := range good.Facts {
		missing[k] = strings.Repeat("e", 40)
	}
	cases := []struct {
		name   string
		set    func()
		warn   string
		parsed int
	}{
		{"good", func() { rewrite(func(*partMeta) {}, nil) }, "", 0},
		{"older", func() { rewrite(func(m *partMeta) { m.Extractor = extract.Version - 1 }, nil) },
			"was made by another git-speed (extractor version " + itoa(extract.Version-1), parts[0].Parsed},
		{"stale", func() { rewrite(func(m *partMeta) { m.Tree = strings.Repeat("a", 40) }, nil) }, "is stale: it holds tree aaaaaaaaaaaa", parts[0].Parsed},
		{"settings", func() { rewrite(func(m *partMeta) { m.FactsDigest = "other" }, nil) }, "was made under other settings", parts[0].Parsed},
		{"garbage", func() { rewrite(func(*partMeta) {}, allGarbage) }, "is damaged: the facts of", parts[0].Parsed},
		{"missing object", func() { rewrite(func(*partMeta) {}, missing) }, "is damaged: facts/", parts[0].Parsed},
		{"missing part", func() { r.Git("update-ref", "-d", parts[0].Ref) }, "part 1-of-2 of tree " + tree[:12] + " is missing", parts[0].Parsed},
	}
	for _, c := range cases {
		r.Git("update-ref", "-d", gitstore.IndexRef)
		c.set()
		var warns []string
		res, err := Index(ctx, repo, commits[0], Options{Config: cfg, Warn: func(m string) { warns = append(warns, m) }})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		all := strings.Join(warns, "\n")
		if c.warn == "" && all != "" || !strings.Contains(all, c.warn) {
			t.Errorf("%s: warnings %q, want %q", c.name, all, c.warn)
		}
		if res.Parsed != c.parsed || res.FromParts != solo.Parsed-c.parsed {
			t.Errorf("%s: parsed %d, %d from parts; want %d, %d", c.name, res.Parsed, res.FromParts, c.parsed, solo.Parsed-c.parsed)
		}
		got := artifacts(t, repo, tree, cfg)
		if !reflect.DeepEqual(keys(got), keys(want)) {
			t.Fatalf("%s: shards %v, want %v", c.name, keys(got), keys(want))
		}
		for k := range want {
			if !bytes.Equal(got[k], want[k]) {
				t.Errorf("%s: shard %s differs from a one-machine build's", c.name, k)
			}
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestInPart(t *testing.T) {
	counts := make([]int, 4)
	for i := 0; i < 4000; i++ {
		blob := objectIDOf(i)
		n := 0
		for k := 1; k <= 4; k++ {
			if inPart(blob, k, 4) {
				n++
				counts[k-1]++
			}
		}
		if n != 1 {
			t.Fatalf("blob %s falls in %d parts", blob, n)
		}
	}
	for k, c := range counts {
		if c < 800 || c > 1200 {
			t.Errorf("part %d has %d of 4000 blobs", k+1, c)
		}
	}
}

// objectIDOf is a blob id as git names the blob "i\n".
func objectIDOf(i int) string {
	data := itoa(i) + "\n"
	return fmt.Sprintf("%x", sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(data), data))))
}
