package graph

import (
	"bufio"
	"fmt"
	"os"
	"testing"
)

func TestZZDumpGOROOT(t *testing.T) {
	out := os.Getenv("ZZ_DUMP")
	if out == "" {
		t.Skip()
	}
	g := Build(gorootInput(&testing.B{}))
	f, _ := os.Create(out)
	w := bufio.NewWriter(f)
	for _, e := range g.Edges {
		fmt.Fprintf(w, "%s %s %d %v\n", g.Files[e.From].Path, g.Files[e.To].Path, e.Refs, e.Weight)
	}
	for _, c := range Clusters(g) {
		fmt.Fprintf(w, "C %d %s %v\n", c.ID, c.Name, c.Files)
	}
	w.Flush()
	f.Close()
}
