package report

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// Edge is one file-level edge of the code symbol graph: From uses what To
// defines, with Refs references resolved. Weak edges are links a reader
// follows that no declaration binds (docs/graph-resolution.md).
type Edge struct {
	From, To string
	Refs     int
	Weak     bool
}

// Group is a domain cluster of the graph: files drawn in one box.
type Group struct {
	Name  string
	Files []string
}

// Graph is what DOT draws.
type Graph struct {
	Tree   string
	Edges  []Edge
	Groups []Group
	// Focus, when set, keeps only the files within Depth edges of these
	// (either way), the focus files outlined.
	Focus []string
	Depth int
}

// DOT writes g as a Graphviz digraph: a node a file, an edge a use (as
// thick as the log of its references, dashed when weak), the files of a
// domain cluster in a box of its own. Nodes and edges are in path order,
// so the same graph gives the same bytes.
func DOT(w io.Writer, g Graph) error {
	keep := nodesWithin(g)
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", quote("tree "+short(g.Tree)))
	b.WriteString("  graph [rankdir=LR, fontname=\"Helvetica\", fontsize=10];\n")
	b.WriteString("  node [shape=box, style=\"rounded,filled\", fillcolor=\"#eef3fb\", color=\"#4a6fa5\", fontname=\"Helvetica\", fontsize=10];\n")
	b.WriteString("  edge [color=\"#7a869a\", arrowsize=0.6];\n")
	focus := map[string]bool{}
	for _, f := range g.Focus {
		focus[f] = true
	}
	node := func(indent, p string) {
		attrs := ""
		if focus[p] {
			attrs = " [fillcolor=\"#ffd966\", penwidth=2]"
		}
		fmt.Fprintf(&b, "%s%s%s;\n", indent, quote(p), attrs)
	}
	grouped := map[string]bool{}
	groups := append([]Group(nil), g.Groups...)
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].Name < groups[j].Name })
	n := 0
	for _, gr := range groups {
		var in []string
		for _, f := range gr.Files {
			if keep(f) && !grouped[f] {
				in = append(in, f)
			}
		}
		if len(in) < 2 {
			continue
		}
		sort.Strings(in)
		fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=%s;\n    style=\"rounded\";\n    color=\"#c9d3e3\";\n", n, quote(gr.Name))
		n++
		for _, f := range in {
			grouped[f] = true
			node("    ", f)
		}
		b.WriteString("  }\n")
	}
	var rest []string
	seen := map[string]bool{}
	for _, e := range g.Edges {
		for _, p := range []string{e.From, e.To} {
			if keep(p) && !grouped[p] && !seen[p] {
				seen[p] = true
				rest = append(rest, p)
			}
		}
	}
	for _, f := range g.Focus {
		if !grouped[f] && !seen[f] {
			seen[f] = true
			rest = append(rest, f)
		}
	}
	sort.Strings(rest)
	for _, p := range rest {
		node("  ", p)
	}
	edges := append([]Edge(nil), g.Edges...)
	sort.SliceStable(edges, func(i, j int) bool {
		if edges[i].From != edges[j].From {
			return edges[i].From < edges[j].From
		}
		if edges[i].To != edges[j].To {
			return edges[i].To < edges[j].To
		}
		return !edges[i].Weak && edges[j].Weak
	})
	for _, e := range edges {
		if !keep(e.From) || !keep(e.To) {
			continue
		}
		width := 1 + math.Log10(float64(max(e.Refs, 1)))
		style := ""
		if e.Weak {
			style = ", style=dashed"
		}
		fmt.Fprintf(&b, "  %s -> %s [label=\"%d\", penwidth=%s%s];\n", quote(e.From), quote(e.To), e.Refs, num(width), style)
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// nodesWithin returns whether a file is drawn: every file without a
// focus, else those within g.Depth edges of a focus file, whichever way
// the edges point.
func nodesWithin(g Graph) func(string) bool {
	if len(g.Focus) == 0 {
		return func(string) bool { return true }
	}
	adj := map[string][]string{}
	for _, e := range g.Edges {
		adj[e.From] = append(adj[e.From], e.To)
		adj[e.To] = append(adj[e.To], e.From)
	}
	dist := map[string]int{}
	queue := []string{}
	for _, f := range g.Focus {
		if _, ok := dist[f]; !ok {
			dist[f] = 0
			queue = append(queue, f)
		}
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if dist[p] >= g.Depth {
			continue
		}
		for _, q := range adj[p] {
			if _, ok := dist[q]; !ok {
				dist[q] = dist[p] + 1
				queue = append(queue, q)
			}
		}
	}
	return func(p string) bool { _, ok := dist[p]; return ok }
}

// quote writes s as a DOT string: double-quoted, with quotes,
// backslashes and line breaks escaped.
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`)
	return `"` + r.Replace(s) + `"`
}
