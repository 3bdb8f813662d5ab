package scope

import (
	"strings"
	"testing"
)

// Counts saved by one process load into another as they were, and the
// file is refused, naming the line, when it is not what SaveCounts wrote.
func TestCountsKept(t *testing.T) {
	blobCounts.Store(countKey{"o200k", "1111111111111111111111111111111111111111", 'f'}, 42)
	blobCounts.Store(countKey{"o200k", "1111111111111111111111111111111111111111", 's'}, 7)
	blobCounts.Store(countKey{"odd tokenizer", "22", 'f'}, 1) // not savable: a space
	saved := SaveCounts()
	if CountsAdded() {
		t.Error("CountsAdded after SaveCounts")
	}
	if !strings.HasPrefix(string(saved), countsHeader) || strings.Contains(string(saved), "odd") {
		t.Fatalf("saved:\n%s", saved)
	}
	blobCounts.Delete(countKey{"o200k", "1111111111111111111111111111111111111111", 'f'})
	if err := LoadCounts(saved); err != nil {
		t.Fatal(err)
	}
	if v, ok := blobCounts.Load(countKey{"o200k", "1111111111111111111111111111111111111111", 'f'}); !ok || v.(int) != 42 {
		t.Errorf("loaded count %v %v, want 42", v, ok)
	}
	if string(SaveCounts()) != string(saved) {
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
		if err := LoadCounts([]byte(tc.in)); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("LoadCounts(%q) = %v, want an error with %q", tc.in, err, tc.err)
		}
	}
}

func FuzzLoadCounts(f *testing.F) {
	f.Add([]byte(countsHeader + "o200k abc f 3\ncl100k def s 10\n"))
	f.Add([]byte(countsHeader))
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := LoadCounts(b); err != nil && !strings.HasPrefix(err.Error(), "line ") {
			t.Fatalf("error without a line: %v", err)
		}
	})
}
