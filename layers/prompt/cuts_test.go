package prompt

import (
	"fmt"
	"strings"
	"testing"
)

// A task on a large tree cuts thousands of files: the prompt lists the
// nearest ones within 5 % of the budget and points at budget.json for the
// rest.
func TestRelevantCutsFitTheirShare(t *testing.T) {
	var cuts []Cut
	var files []ManifestFile
	for i := 0; i < 6000; i++ {
		p := fmt.Sprintf("pkg/far/f%04d.go", i)
		d := 2
		if i%1000 == 0 {
			p, d = fmt.Sprintf("pkg/near/n%04d.go", i), 1
		}
		files = append(files, ManifestFile{Path: p, Distance: d, Tier: TierDropped})
		cuts = append(cuts, Cut{Path: p, From: "skeleton", To: "dropped", TokensSaved: 100, Reason: "2-hop files are dropped first"})
	}
	count := func(s string) int { return (len(s) + 3) / 4 }
	kept, more := relevantCuts(cuts, files, 32000, count)
	if more == 0 || len(kept)+more != len(cuts) {
		t.Fatalf("kept %d, more %d of %d", len(kept), more, len(cuts))
	}
	used := 0
	for _, c := range kept {
		used += count(fmt.Sprintf("| `%s` | %s | %s | %d | %s |\n", c.Path, c.From, c.To, c.TokensSaved, c.Reason))
	}
	if used > 32000*5/100 {
		t.Errorf("the cut table takes %d tokens, more than 5 %% of 32000", used)
	}
	for i := 0; i < 6; i++ {
		if !strings.HasPrefix(kept[i].Path, "pkg/near/") {
			t.Fatalf("row %d is %s; the 1-hop cuts come first", i, kept[i].Path)
		}
	}
	if kept, more := relevantCuts(cuts[:3], files, 32000, count); len(kept) != 3 || more != 0 {
		t.Errorf("a short cut list was shortened: %d kept, %d more", len(kept), more)
	}
}
