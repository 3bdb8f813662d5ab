package pack_test

import (
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
	"github.com/git-speed/git-speed/layers/pack"
)

// A bug report with a traceback: the file of its frames gains, the
// changelog and the fixture that repeat its words lose their share; a
// commit message is ranked as before.
func TestBugReportSignals(t *testing.T) {
	r := gittest.New(t)
	r.Write("plotlib/stats/regression.py", "import numpy\n\n\ndef _solve(x, y, order):\n    return numpy.lstsq(x, y)\n")
	r.Write("plotlib/core/scales.py", "class Scale:\n    \"\"\"A scale maps data to a visual property.\"\"\"\n")
	r.Write("CHANGES.rst", "PolyFit missing data fixed: PolyFit drops missing data, no LinAlgError in Least Squares, SVD converges.\n")
	r.Write("tests/fixtures/polyfit_missing.json", "{\"polyfit\": \"missing data\", \"data\": \"missing\", \"error\": \"LinAlgError\"}\n")
	r.Commit("one")
	w, _ := indexed(t, r)
	report := "PolyFit is not robust to missing data\n\nso.Plot([1, 2, None]).add(so.Line(), so.PolyFit()) raises:\n\n" +
		"Traceback (most recent call last):\n" +
		"  File \"/home/u/venv/lib/python3.11/site-packages/plotlib/stats/regression.py\", line 5, in _solve\n" +
		"numpy.linalg.LinAlgError: SVD did not converge in Linear Least Squares\n"
	off := pack.DefaultWeights()
	off.Frame, off.Dotted, off.DemoteChangelog, off.DemoteFixture, off.DemoteStyle = 0, 0, 0, 0, 0
	before, err := pack.Rank(w, pack.Request{Query: report, Weights: &off}, 4)
	if err != nil {
		t.Fatal(err)
	}
	after, err := pack.Rank(w, pack.Request{Query: report}, 4)
	if err != nil {
		t.Fatal(err)
	}
	score := func(rs []pack.Scored, p string) float64 {
		for _, r := range rs {
			if r.Path == p {
				return r.Score
			}
		}
		t.Fatalf("%s not ranked: %+v", p, rs)
		return 0
	}
	src := "plotlib/stats/regression.py"
	if after[0].Path != src || score(after, src) <= score(before, src) {
		t.Errorf("the traceback's file gained nothing: %+v, was %+v", after, before)
	}
	dw := pack.DefaultWeights()
	for p, share := range map[string]float64{"CHANGES.rst": dw.DemoteChangelog, "tests/fixtures/polyfit_missing.json": dw.DemoteFixture} {
		want := score(before, p) * (1 - share)
		if got := score(after, p); got > want+0.01 || got < want-0.01 {
			t.Errorf("%s scored %.3f for a bug report, want %.3f (demoted)", p, got, want)
		}
	}
	// A commit message keeps the changelog where its words put it.
	msg := "Drop missing data in PolyFit\n\nPolyFit missing data fixed; CHANGES.rst notes it."
	got, err := pack.Rank(w, pack.Request{Query: msg}, 4)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := pack.Rank(w, pack.Request{Query: msg, Weights: &off}, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if i >= len(ref) || got[i].Path != ref[i].Path {
			t.Fatalf("a commit message was ranked differently: %+v, was %+v", got, ref)
		}
	}
}
