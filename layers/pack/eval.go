package pack

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Case is one replayed commit: its message is the request, the files it
// changed that existed before it are the target, its parent's tree is
// the world and the commits before it are the history.
type Case struct {
	Commit  string
	ID      string // the request's id, for a request file's case
	Kind    string // what the request is: "commit", "statement", "issue" …; "" is "commit"
	Message string
	Target  []string
	Src     Source
	History []Commit
}

// EvalReport compares pack's ranking with a plain BM25 over file contents
// on the same cases.
type EvalReport struct {
	Cases int    `json:"cases"`
	Pack  Recall `json:"pack"`
	BM25  Recall `json:"bm25"`
	// Capped recall divides hits by min(k, target files), so a large
	// commit can reach 1 at 5: the other convention of the literature.
	PackCapped Recall     `json:"pack_capped"`
	BM25Capped Recall     `json:"bm25_capped"`
	Skipped    int        `json:"skipped"` // commits without a usable message or target
	PerCase    []CaseEval `json:"per_case,omitempty"`
	Baseline   string     `json:"baseline"`
	// Statements is the same evaluation with issue-style problem
	// statements (Statement) as requests, when the caller made any.
	Statements *EvalReport `json:"statements,omitempty"`
	// Requests is the same evaluation with the requests of a request
	// file (ReadRequests), when the caller gave one.
	Requests *EvalReport `json:"requests,omitempty"`
	// Kinds is the recall per kind of request over every case of the
	// report and of its Statements and Requests, by kind name.
	Kinds []KindReport `json:"kinds,omitempty"`
}

// KindReport is pack and BM25 recall over the cases of one kind of
// request ("commit": a commit's message; "statement": the prose body of a
// commit's message; a request file's kinds, such as "issue").
type KindReport struct {
	Kind       string `json:"kind"`
	Cases      int    `json:"cases"`
	Pack       Recall `json:"pack"`
	BM25       Recall `json:"bm25"`
	PackCapped Recall `json:"pack_capped"`
	BM25Capped Recall `json:"bm25_capped"`
}

// Recall is the mean share of a case's target files found in the top k
// (hits / target files, so a commit of 8 files counts at most 5/8 at 5).
type Recall struct {
	At5  float64 `json:"at5"`
	At10 float64 `json:"at10"`
}

// CaseEval is one case's result.
type CaseEval struct {
	Commit string   `json:"commit"`
	ID     string   `json:"id,omitempty"`
	Kind   string   `json:"kind"`
	Target int      `json:"target"`
	Pack5  float64  `json:"pack_at5"`
	Pack10 float64  `json:"pack_at10"`
	BM255  float64  `json:"bm25_at5"`
	BM2510 float64  `json:"bm25_at10"`
	Missed []string `json:"missed_at10,omitempty"` // target files pack did not rank in its top 10
}

// BM25Weights is the baseline: BM25 over the content words of files, no
// fields, paths, graph or history.
func BM25Weights() Weights { return Weights{K1: 1.2, B: 0.75, Content: 1} }

// Evaluate scores every case with w (nil: DefaultWeights) and with the
// BM25 baseline.
func Evaluate(cases []Case, w *Weights, perCase bool) (*EvalReport, error) {
	rep := &EvalReport{Baseline: "BM25 (k1 1.2, b 0.75) over the same content tokens, no other signal"}
	base := BM25Weights()
	for _, c := range cases {
		if len(c.Target) == 0 {
			rep.Skipped++
			continue
		}
		req := Request{Query: c.Message, History: c.History, Weights: w}
		got, err := Rank(c.Src, req, 10)
		if err != nil {
			if isBad(err) {
				rep.Skipped++
				continue
			}
			return nil, fmt.Errorf("commit %s: %w", short(c.Commit), err)
		}
		req.Weights = &base
		req.History = nil
		bl, err := Rank(c.Src, req, 10)
		if err != nil {
			return nil, fmt.Errorf("commit %s: %w", short(c.Commit), err)
		}
		ce := CaseEval{Commit: c.Commit, ID: c.ID, Kind: kindOf(c), Target: len(c.Target),
			Pack5: recall(got, c.Target, 5), Pack10: recall(got, c.Target, 10),
			BM255: recall(bl, c.Target, 5), BM2510: recall(bl, c.Target, 10)}
		top := map[string]bool{}
		for i := 0; i < 10 && i < len(got); i++ {
			top[got[i].Path] = true
		}
		for _, t := range c.Target {
			if !top[t] {
				ce.Missed = append(ce.Missed, t)
			}
		}
		rep.Cases++
		rep.tally(ce, capped(got, c.Target, 5), capped(got, c.Target, 10), capped(bl, c.Target, 5), capped(bl, c.Target, 10))
		rep.PackCapped.At5 += capped(got, c.Target, 5)
		rep.PackCapped.At10 += capped(got, c.Target, 10)
		rep.BM25Capped.At5 += capped(bl, c.Target, 5)
		rep.BM25Capped.At10 += capped(bl, c.Target, 10)
		rep.Pack.At5 += ce.Pack5
		rep.Pack.At10 += ce.Pack10
		rep.BM25.At5 += ce.BM255
		rep.BM25.At10 += ce.BM2510
		if perCase {
			rep.PerCase = append(rep.PerCase, ce)
		}
	}
	if rep.Cases > 0 {
		n := float64(rep.Cases)
		rep.Pack = Recall{r3(rep.Pack.At5 / n), r3(rep.Pack.At10 / n)}
		rep.BM25 = Recall{r3(rep.BM25.At5 / n), r3(rep.BM25.At10 / n)}
		rep.PackCapped = Recall{r3(rep.PackCapped.At5 / n), r3(rep.PackCapped.At10 / n)}
		rep.BM25Capped = Recall{r3(rep.BM25Capped.At5 / n), r3(rep.BM25Capped.At10 / n)}
	}
	for i := range rep.Kinds {
		rep.Kinds[i].mean()
	}
	return rep, nil
}

func kindOf(c Case) string {
	if c.Kind == "" {
		return "commit"
	}
	return c.Kind
}

// tally adds a case to its kind's sums (means are taken by mean).
func (r *EvalReport) tally(ce CaseEval, p5, p10, b5, b10 float64) {
	i := slices.IndexFunc(r.Kinds, func(k KindReport) bool { return k.Kind == ce.Kind })
	if i < 0 {
		r.Kinds = append(r.Kinds, KindReport{Kind: ce.Kind})
		slices.SortFunc(r.Kinds, func(a, b KindReport) int { return strings.Compare(a.Kind, b.Kind) })
		i = slices.IndexFunc(r.Kinds, func(k KindReport) bool { return k.Kind == ce.Kind })
	}
	k := &r.Kinds[i]
	k.Cases++
	k.Pack.At5 += ce.Pack5
	k.Pack.At10 += ce.Pack10
	k.BM25.At5 += ce.BM255
	k.BM25.At10 += ce.BM2510
	k.PackCapped.At5 += p5
	k.PackCapped.At10 += p10
	k.BM25Capped.At5 += b5
	k.BM25Capped.At10 += b10
}

func (k *KindReport) mean() {
	n := float64(max(k.Cases, 1))
	for _, r := range []*Recall{&k.Pack, &k.BM25, &k.PackCapped, &k.BM25Capped} {
		*r = Recall{r3(r.At5 / n), r3(r.At10 / n)}
	}
}

// Merge gathers the kinds of r's Statements and Requests into r.Kinds,
// each kind's cases pooled (a kind found in several reports is weighed by
// its cases).
func (r *EvalReport) Merge() {
	for _, o := range []*EvalReport{r.Statements, r.Requests} {
		if o == nil {
			continue
		}
		for _, k := range o.Kinds {
			i := slices.IndexFunc(r.Kinds, func(m KindReport) bool { return m.Kind == k.Kind })
			if i < 0 {
				r.Kinds = append(r.Kinds, k)
				continue
			}
			m := &r.Kinds[i]
			a, b := float64(m.Cases), float64(k.Cases)
			mix := func(x, y Recall) Recall {
				return Recall{r3((x.At5*a + y.At5*b) / (a + b)), r3((x.At10*a + y.At10*b) / (a + b))}
			}
			m.Pack, m.BM25 = mix(m.Pack, k.Pack), mix(m.BM25, k.BM25)
			m.PackCapped, m.BM25Capped = mix(m.PackCapped, k.PackCapped), mix(m.BM25Capped, k.BM25Capped)
			m.Cases += k.Cases
		}
	}
	slices.SortFunc(r.Kinds, func(a, b KindReport) int { return strings.Compare(a.Kind, b.Kind) })
}

func isBad(err error) bool {
	_, ok := err.(*badRequest)
	return ok
}

func r3(f float64) float64 { return math.Round(f*1000) / 1000 }

func capped(ranked []Scored, target []string, k int) float64 {
	return recall(ranked, target, k) * float64(len(target)) / float64(min(len(target), k))
}

func recall(ranked []Scored, target []string, k int) float64 {
	want := map[string]bool{}
	for _, t := range target {
		want[t] = true
	}
	hit := 0
	for i := 0; i < k && i < len(ranked); i++ {
		if want[ranked[i].Path] {
			hit++
		}
	}
	return float64(hit) / float64(len(target))
}

// Text is the report for a person.
func (r *EvalReport) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pack eval, request = commit message: %d commits replayed (%d skipped)\n", r.Cases, r.Skipped)
	r.table(&b)
	if s := r.Statements; s != nil {
		fmt.Fprintf(&b, "pack eval, request = problem statement (prose body of the message, without its subject): %d commits (%d skipped)\n", s.Cases, s.Skipped)
		s.table(&b)
	}
	if s := r.Requests; s != nil {
		fmt.Fprintf(&b, "pack eval, request = a request of the request file, at its revision: %d requests (%d skipped)\n", s.Cases, s.Skipped)
		s.table(&b)
	}
	if len(r.Kinds) > 0 {
		fmt.Fprintf(&b, "per kind of request: %-10s %6s %8s %8s %8s %8s\n", "kind", "cases", "pack@5", "bm25@5", "pack@10", "bm25@10")
		for _, k := range r.Kinds {
			fmt.Fprintf(&b, "per kind of request: %-10s %6d %8.3f %8.3f %8.3f %8.3f\n", k.Kind, k.Cases, k.Pack.At5, k.BM25.At5, k.Pack.At10, k.BM25.At10)
		}
	}
	fmt.Fprintf(&b, "baseline: %s\n", r.Baseline)
	return b.String()
}

func (r *EvalReport) table(b *strings.Builder) {
	fmt.Fprintf(b, "%-6s %9s %9s\n", "", "recall@5", "recall@10")
	fmt.Fprintf(b, "%-6s %9.3f %9.3f\n", "pack", r.Pack.At5, r.Pack.At10)
	fmt.Fprintf(b, "%-6s %9.3f %9.3f\n", "bm25", r.BM25.At5, r.BM25.At10)
	fmt.Fprintf(b, "capped (hits / min(k, target files)): pack %.3f %.3f, bm25 %.3f %.3f\n",
		r.PackCapped.At5, r.PackCapped.At10, r.BM25Capped.At5, r.BM25Capped.At10)
}
