package prompt

import (
	"fmt"
	"strings"
	"testing"
)

func BenchmarkRenderDeveloper(b *testing.B) {
	c := loadFixture(b)
	in := fixtureInput(b, c)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render("developer", in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClassify classifies a 10,000-line go test log against a
// context with cuts and requirement ids.
func BenchmarkClassify(b *testing.B) {
	c := loadFixture(b)
	var sb strings.Builder
	for i := 0; i < 2500; i++ {
		fmt.Fprintf(&sb, "=== RUN   TestCase%d\n    case_test.go:%d: got %d, want %d\n--- FAIL: TestCase%d (0.00s)\ninternal/pkg%d/x.go:%d:2: undefined: cache.Thing%d\n", i, i, i, i+1, i, i%40, i, i%100)
	}
	log := sb.String()
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	for b.Loop() {
		c.Classify(log)
	}
}

// BenchmarkUnifiedDiff diffs a 5,000-line file with 50 scattered edits.
func BenchmarkUnifiedDiff(b *testing.B) {
	old := numbered(5000, func(i int) string { return fmt.Sprintf("\tline %d of the file = %d\n", i, i*7) })
	new := numbered(5000, func(i int) string {
		if i%100 == 0 {
			return fmt.Sprintf("\tchanged %d\n", i)
		}
		return fmt.Sprintf("\tline %d of the file = %d\n", i, i*7)
	})
	d := FileDiff{Path: "big.go", Old: old, New: new}
	b.SetBytes(int64(len(old) + len(new)))
	b.ReportAllocs()
	for b.Loop() {
		UnifiedDiff(d)
	}
}
