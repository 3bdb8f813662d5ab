package scope

import (
	"bytes"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
)

// Counts saved by one process load into another as they were, and the
// file is refused, naming the line, when it is not what Save wrote.
func TestCountsKept(t *testing.T) {
	c := NewCounts()
	c.m.Store(countKey{"o200k", "1111111111111111111111111111111111111111", 'f'}, 42)
	c.m.Store(countKey{"o200k", "1111111111111111111111111111111111111111", 's'}, 7)
	c.m.Store(countKey{"odd tokenizer", "22", 'f'}, 1) // not savable: a space
	c.added.Add(3)
	saved := c.Save()
	if c.Added() {
		t.Error("Added after Save")
	}
	if !strings.HasPrefix(string(saved), countsHeader) || strings.Contains(string(saved), "odd") {
		t.Fatalf("saved:\n%s", saved)
	}
	c = NewCounts()
	if err := c.Load(saved); err != nil {
		t.Fatal(err)
	}
	if v, ok := c.m.Load(countKey{"o200k", "1111111111111111111111111111111111111111", 'f'}); !ok || v.(int) != 42 {
		t.Errorf("loaded count %v %v, want 42", v, ok)
	}
	if c.Added() {
		t.Error("Added after Load")
	}
	if string(c.Save()) != string(saved) {
		t.Error("saving the loaded counts gives other bytes")
	}
	for _, tc := range []struct{ in, err string }{
		{"", "line 1"},
		{"counts\n", "line 1"},
		{countsHeader + "o200k abc f 3", "line 2: not ended"},
		{countsHeader + "o200k abc f 3\no200k abc f\n", "line 3: want"},
		{countsHeader + "o200k abc ff 3\n", "line 2: want"},
		{countsHeader + "o200k abc f -3\n", "line 2: count"},
		{countsHeader + "o200k abc f 03\n", "line 2: count"},
		{countsHeader + "o200k  f 3\n", "line 2: want"},
	} {
		if err := NewCounts().Load([]byte(tc.in)); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Load(%q) = %v, want an error with %q", tc.in, err, tc.err)
		}
	}
}

func FuzzCountsLoad(f *testing.F) {
	f.Add([]byte(countsHeader + "o200k abc f 3\ncl100k def s 10\n"))
	f.Add([]byte(countsHeader))
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := NewCounts().Load(b); err != nil && !strings.HasPrefix(err.Error(), "line ") {
			t.Fatalf("error without a line: %v", err)
		}
	})
}

// factsCounter is a World that counts the facts it is asked for.
type factsCounter struct {
	*fakeWorld
	asked int
}

func (w *factsCounter) Facts(p string) (*world.Facts, error) {
	w.asked++
	return w.fakeWorld.Facts(p)
}

// With the skeleton counts kept (form 'k'), a scope reads the facts of
// the skeletons it delivers only, and writes the same bytes as with none.
func TestSkeletonCountsKept(t *testing.T) {
	w := goroot()
	f := gorootFeature(t)
	counts := NewCounts()
	scope := func() (*Result, int) {
		fw := &factsCounter{fakeWorld: w}
		r, err := Scope(fw, f, "t", Options{Stage: "developer", Counter: o200k(t), Counts: counts})
		if err != nil {
			t.Fatal(err)
		}
		return r, fw.asked
	}
	cold, coldAsked := scope()
	warm, warmAsked := scope()
	for _, name := range []string{ManifestFile, BudgetFile, MaterialFile} {
		a, _ := cold.Encode(name)
		b, _ := warm.Encode(name)
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs once the skeleton counts are kept", name)
		}
	}
	t.Logf("facts read: %d cold, %d warm", coldAsked, warmAsked)
	skeletons := 0
	for _, fl := range warm.Material.Files {
		// Skeletons, and the 1-hop files focus looked into before
		// their full text came.
		if fl.Tier == TierSkeleton || fl.Distance == 1 {
			skeletons++
		}
	}
	if skeletons == 0 || warmAsked > coldAsked || warmAsked > skeletons+len(f.Task("t").FilesTouched)+1 {
		t.Errorf("facts read: %d cold, %d warm, for %d skeletons delivered", coldAsked, warmAsked, skeletons)
	}
	// A file of the same blob in another language has its own count.
	e := world.FileEntry{Blob: "abc", Lang: "go"}
	c := newCounter(o200k(t), nil)
	c.run(job{blob: "abc", kind: 's', text: "package a", out: new(int), skeletonOf: &e})
	if _, ok := c.skeleton(&world.FileEntry{Blob: "abc", Lang: "python"}); ok {
		t.Error("a skeleton count kept for another language")
	}
	if n, ok := c.skeleton(&e); !ok || n == 0 {
		t.Errorf("skeleton count %d %v", n, ok)
	}
}
