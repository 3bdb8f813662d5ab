package graph

import (
	"math"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// Rank parameters: damping and a fixed iteration count keep Rank
// deterministic and bounded in time.
const (
	rankDamping    = 0.85
	rankIterations = 30
)

// csr is the graph in compressed sparse row form: rows are From, values
// are edge weights normalised to sum 1 per row.
type csr struct {
	start []int
	to    []int
	w     []float64
}

func outCSR(g *world.Graph) csr {
	n := len(g.Files)
	c := csr{start: make([]int, n+1), to: make([]int, len(g.Edges)), w: make([]float64, len(g.Edges))}
	for _, e := range g.Edges {
		c.start[e.From+1]++
	}
	for i := 0; i < n; i++ {
		c.start[i+1] += c.start[i]
	}
	pos := append([]int(nil), c.start[:n]...)
	for _, e := range g.Edges {
		w := e.Weight
		if w <= 0 {
			w = float64(e.Refs)
		}
		k := pos[e.From]
		pos[e.From]++
		c.to[k] = e.To
		c.w[k] = math.Sqrt(w) // dampen files that call one helper a thousand times
	}
	for i := 0; i < n; i++ {
		sum := 0.0
		for k := c.start[i]; k < c.start[i+1]; k++ {
			sum += c.w[k]
		}
		for k := c.start[i]; k < c.start[i+1]; k++ {
			c.w[k] /= sum
		}
	}
	return c
}

// Rank returns a personalised PageRank of g's files (parallel to g.Files,
// summing to 1): rank flows from a file to the files it uses, so files
// used a lot rank high. Restart mass goes to the focus paths, to files
// defining a mentioned identifier and to files whose path contains a
// mention (case-insensitive); without any, to every file with facts.
func Rank(g *world.Graph, focus []string, mentions []string) []float64 {
	return rank(g, personalisation(g, focus, mentions, LinkDefs(g)))
}

// RankOf is Rank without mentions over a graph whose Links are not
// loaded: defs is LinkDefs of the graph as stored.
func RankOf(g *world.Graph, defs []int, focus []string) []float64 {
	return rank(g, personalisation(g, focus, nil, defs))
}

func rank(g *world.Graph, p []float64) []float64 {
	n := len(g.Files)
	if n == 0 {
		return nil
	}
	c := outCSR(g)
	r := append([]float64(nil), p...)
	next := make([]float64, n)
	for it := 0; it < rankIterations; it++ {
		dangling := 0.0
		for i := range next {
			next[i] = 0
		}
		for i := 0; i < n; i++ {
			if c.start[i] == c.start[i+1] {
				dangling += r[i]
				continue
			}
			ri := r[i] * rankDamping
			for k := c.start[i]; k < c.start[i+1]; k++ {
				next[c.to[k]] += ri * c.w[k]
			}
		}
		rest := 1 - rankDamping + rankDamping*dangling
		for i := range next {
			next[i] += rest * p[i]
		}
		r, next = next, r
	}
	return r
}

// personalisation is the restart mass of Rank; defs (LinkDefs) tells
// the files with facts.
func personalisation(g *world.Graph, focus, mentions []string, defs []int) []float64 {
	n := len(g.Files)
	p := make([]float64, n)
	total := 0.0
	for _, f := range focus {
		if i := g.Index(f); i >= 0 {
			p[i] += 1
			total++
		} else {
			// a folder: every file below it
			pre := strings.TrimSuffix(f, "/") + "/"
			for i := range g.Files {
				if strings.HasPrefix(g.Files[i].Path, pre) {
					p[i] += 1
					total++
				}
			}
		}
	}
	if len(mentions) > 0 {
		ms := map[string]bool{}
		var lower []string
		for _, m := range mentions {
			if m == "" {
				continue
			}
			ms[m] = true
			if len(m) >= 3 {
				lower = append(lower, strings.ToLower(m))
			}
		}
		for i := range g.Files {
			if i < len(g.Links) && g.Links[i] != nil {
				hit := 0
				for _, d := range g.Links[i].Defs {
					if ms[d.Name] {
						hit++
					}
				}
				if hit > 0 {
					w := 0.5 * float64(hit)
					p[i] += w
					total += w
				}
			}
			lp := strings.ToLower(g.Files[i].Path)
			for _, m := range lower {
				if strings.Contains(lp, m) {
					p[i] += 0.5
					total += 0.5
				}
			}
		}
	}
	if total == 0 {
		for i := range g.Files {
			if i < len(defs) && defs[i] >= 0 {
				p[i] = 1
				total++
			}
		}
		if total == 0 {
			for i := range p {
				p[i] = 1
			}
			total = float64(n)
		}
	}
	for i := range p {
		p[i] /= total
	}
	return p
}
