package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/git-speed/git-speed/layers/pack"
)

// PackInput is one context pack as the operations layer built it, its
// texts redacted.
type PackInput struct {
	Pack *pack.Pack
	// JSON is the pack as `git speed pack --json` prints it.
	JSON []byte
}

// Pack writes the HTML page of a context pack: its ranking as a picture,
// then each file with its reason, evidence, symbols and snippet.
func Pack(w io.Writer, in PackInput) error {
	p := in.Pack
	v := &view{Kind: "pack", Title: "pack: " + clip(p.Query, 80)}
	v.Facts = []fact{
		{"query", p.Query},
		{"terms", strings.Join(p.Terms, " ")},
		{"tree", short(p.Tree)},
		{"files", fmt.Sprintf("%s of %s candidates (at most %s)", thousands(len(p.Items)), thousands(p.Candidates), thousands(p.Budget.MaxItems))},
		{"tokens", fmt.Sprintf("%s of %s (%s)", thousands(p.Tokens), thousands(p.Budget.Tokens), p.Budget.Counter)},
	}
	for _, q := range p.OpenQuestions {
		v.Notes = append(v.Notes, "Open question: "+q)
	}
	v.Picture = rankingPicture(p)
	v.Legend = []legend{{"score", "score, relative to the best file"}}
	b, err := newBlob(PackID, in.JSON)
	if err != nil {
		return err
	}
	v.Data = []blob{b}
	return v.write(w)
}

// rankingPicture draws one bar a file, in rank order, as long as its score
// against the best file's.
func rankingPicture(p *pack.Pack) *svg {
	best := 0.0
	for _, it := range p.Items {
		best = max(best, it.Score)
	}
	s := &svg{}
	y := 8.0
	const h = 20.0
	for i, it := range p.Items {
		w := 0.0
		if best > 0 {
			w = barW * it.Score / best
		}
		s.Texts = append(s.Texts, text{X: num(labelW), Y: num(y + h*0.7), Anchor: "end", Class: "label", Text: fmt.Sprintf("#%d %s", i+1, clipLeft(it.Path, 28))})
		s.Rects = append(s.Rects, rect{X: num(barX), Y: num(y), W: num(w), H: num(h), Class: "score", Title: fmt.Sprintf("#%d %s: score %.3g; %s", i+1, it.Path, it.Score, it.Reason)})
		s.Texts = append(s.Texts, text{X: num(picWidth - 4), Y: num(y + h*0.7), Anchor: "end", Class: "value", Text: fmt.Sprintf("%.3g", it.Score)})
		y += h + 6
	}
	s.Width, s.Height = num(picWidth), num(y+4)
	return s
}

// clip shortens s to n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// clipLeft shortens a path to its last n runes, marking the cut.
func clipLeft(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}

func failureJSON(feature, task, msg string) ([]byte, error) {
	return json.MarshalIndent(struct {
		Feature string `json:"feature"`
		Task    string `json:"task"`
		Error   string `json:"error"`
	}{feature, task, msg}, "", "  ")
}
