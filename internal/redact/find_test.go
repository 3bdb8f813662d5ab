package redact

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/redact/redacttest"
)

// findPlain is what find computes, written the straightforward way: at
// every byte, every keyword of every rule, then every assignment keyword
// without regard to case, then the start of a private key block.
func findPlain(text string, rs []tokenRule) (byRule [][]int, keyed, begins []int) {
	byRule = make([][]int, len(rs))
	for i := 0; i+1 < len(text); i++ {
		for r := range rs {
			for _, kw := range rs[r].keywords {
				if strings.HasPrefix(text[i:], kw) {
					byRule[r] = append(byRule[r], i)
				}
			}
		}
		for _, kw := range keyedKeywords {
			if len(text)-i >= len(kw) && strings.EqualFold(text[i:i+len(kw)], kw) {
				keyed = append(keyed, i)
			}
		}
		if strings.HasPrefix(text[i:], beginKey) {
			begins = append(begins, i)
		}
	}
	return byRule, keyed, begins
}

// FuzzFind: find's pair table and word compares find exactly the keyword
// positions findPlain finds.
func FuzzFind(f *testing.F) {
	files, secrets := redacttest.Corpus()
	for _, s := range files {
		f.Add(s)
	}
	for _, s := range secrets {
		f.Add(s.Value)
	}
	f.Add("PASSWORD=x pwd Pw sEcReT tOkEn KEY CREDENTIALS credentiaL")
	f.Add("AGE-SECRET-KEY-1 hooks.slack.com github_pat_ AccountKey= GR1348941 .atlasv1.")
	f.Add("ke")
	f.Add("xAKIA")
	f.Add("--------BEGIN RSA PRIVATE KEY-----\n-----begin -----BEGIN-----BEGIN ")
	f.Add("012345pASS7890123Pwd567890KEy34567_v1_12345AKIA")                                 // keywords across the eight-byte reads
	f.Add("abcdefghijklmno" + "secre" + "tokenABCDEFGHIJKLMNOPQRSTUVWXYZaccountAccountKey=") // and at the end
	f.Add("\u212aey \u017fecret")
	f.Fuzz(func(t *testing.T, text string) {
		rs := builtin()
		sc := scan{text: text}
		gotRule, gotKeyed, gotBegins := sc.find(len(rs))
		wantRule, wantKeyed, wantBegins := findPlain(text, rs)
		if !slices.Equal(gotKeyed, wantKeyed) {
			t.Fatalf("assignment keywords in %q: %v, want %v", text, gotKeyed, wantKeyed)
		}
		if !slices.Equal(gotBegins, wantBegins) {
			t.Fatalf("private key blocks in %q begin at %v, want %v", text, gotBegins, wantBegins)
		}
		for r := range rs {
			var got []int
			if gotRule != nil {
				got = gotRule[r]
			}
			if !slices.Equal(got, wantRule[r]) {
				t.Fatalf("keywords of %s in %q: %v, want %v", rs[r].name, text, got, wantRule[r])
			}
		}
	})
}

// BenchmarkFind measures find alone over this repository's Go files (or
// those under GIT_SPEED_REDACT_CORPUS): the pass over every byte an index
// run makes of every file it reads.
func BenchmarkFind(b *testing.B) {
	root := os.Getenv("GIT_SPEED_REDACT_CORPUS")
	if root == "" {
		root = "../.."
	}
	files, size := readTree(root, 32<<20)
	texts := make([]string, len(files))
	for i, f := range files {
		texts[i] = string(f.data)
	}
	rs := builtin()
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, t := range texts {
			sc := scan{text: t}
			sc.find(len(rs))
		}
	}
}
