package extract

import "testing"

// golden_bench_test.go measures extraction of the goldens' inputs of the
// languages TestGoldenMore checks (moreLangs), against parsing alone.

// BenchmarkExtractMore extracts the largest golden input of each language.
func BenchmarkExtractMore(b *testing.B) {
	for _, lang := range moreLangs {
		var src []byte
		for _, s := range goldenInputs(b, lang) {
			if len(s) > len(src) {
				src = s
			}
		}
		b.Run(lang, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for i := 0; i < b.N; i++ {
				if _, err := extractMore(lang, src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseOnlyMore is the tree-sitter-only baseline for
// BenchmarkExtractMore on the same inputs.
func BenchmarkParseOnlyMore(b *testing.B) {
	for _, lang := range moreLangs {
		var src []byte
		for _, s := range goldenInputs(b, lang) {
			if len(s) > len(src) {
				src = s
			}
		}
		b.Run(lang, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for i := 0; i < b.N; i++ {
				if err := ParseOnly(lang, src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
