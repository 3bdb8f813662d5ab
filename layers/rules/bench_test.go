package rules

import "testing"

// BenchmarkFor is the cost a developer render pays for its rules: the
// library parsed, three areas selected, summarised with exact o200k counts.
func BenchmarkFor(b *testing.B) {
	count := o200k(b)
	paths := []string{"web/src/App.tsx", "Dockerfile", ".github/workflows/deploy.yml"}
	for i := 0; i < b.N; i++ {
		For(Library(), nil, paths, 1440, count)
	}
}
