package scope

import (
	"fmt"
	"testing"
)

func BenchmarkEncodeManifest(b *testing.B) {
	r := &Result{}
	for i := 0; i < 9500; i++ {
		r.Manifest.Files = append(r.Manifest.Files, FileEntry{Path: fmt.Sprintf("pkg/kubelet/some/folder/file%d.go", i), Distance: 2, Tier: "dropped", Reason: "2-hop via pkg/kubelet/kubelet.go (uses it); dropped: beyond the budget, relevance 0.125 #12", Relevance: 0.125, Signals: []string{"graph"}})
	}
	b.Run("own", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			r.Encode(ManifestFile)
		}
	})
	b.Run("json", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			encodeJSON(r.Manifest)
		}
	})
}
