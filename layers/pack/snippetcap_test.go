package pack

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/tokens"
)

// TestSnippetCap: a snippet over MaxSnippetTokens keeps the lines around
// its best match that fit, says so, and reports its range.
func TestSnippetCap(t *testing.T) {
	cnt, err := tokens.New("o200k")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := 101; i <= 140; i++ {
		fmt.Fprintf(&b, "\tresult%d := compute(ctx, request.Items[%d], options.WithRetries(%d), options.WithTimeout(time.Second*%d)) // step %d of the pipeline\n", i, i, i, i, i)
	}
	it := Item{Snippet: b.String(), LineRange: "101-140", best: 130}
	if n := cnt.Count(it.Snippet); n <= MaxSnippetTokens {
		t.Fatalf("the test snippet has %d tokens, not over the cap", n)
	}
	capSnippet(&it, cnt.Count)
	if n := cnt.Count(it.Snippet); n > MaxSnippetTokens || n < MaxSnippetTokens*3/4 {
		t.Errorf("capped snippet: %d tokens, want at most %d and near it", n, MaxSnippetTokens)
	}
	if !it.Truncated || !strings.Contains(it.Snippet, "step 130 ") {
		t.Errorf("capped snippet lost its best line or its mark: %+v", it)
	}
	var from, to int
	fmt.Sscanf(it.LineRange, "%d-%d", &from, &to)
	if to-from+1 != strings.Count(it.Snippet, "\n") || !strings.HasPrefix(it.Snippet, fmt.Sprintf("\tresult%d ", from)) {
		t.Errorf("range %s does not match the snippet:\n%s", it.LineRange, it.Snippet)
	}
	small := Item{Snippet: "func f() {}\n", LineRange: "1-1"}
	capSnippet(&small, cnt.Count)
	if small.Truncated || small.Snippet != "func f() {}\n" {
		t.Errorf("a small snippet was changed: %+v", small)
	}
}
