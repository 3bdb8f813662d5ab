package eval

import (
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/scope"
)

func TestRunCreates(t *testing.T) {
	w := newWorld("tree1", map[string]int{"pkg/a.go": 30, "pkg/a_test.go": 10, "pkg/b.go": 30, "pkg/old.go": 3, "cmd/main.go": 4, "far/x.go": 50},
		"cmd/main.go>pkg/a.go", "pkg/a_test.go>pkg/a.go", "pkg/a.go>pkg/b.go", "cmd/main.go>far/x.go")
	h := &memHistory{
		commits: []Commit{
			// Adds pkg/c.go and wires it into cmd/main.go: a create task.
			{ID: "c2", Parent: "c1", Changed: []string{"pkg/c.go", "cmd/main.go", "README.md"}},
			// Moves pkg/old.go: not a creation.
			{ID: "c3", Parent: "c1", Changed: []string{"pkg/old.go", "lib/old.go"}},
			// Adds nothing.
			{ID: "c4", Parent: "c1", Changed: []string{"pkg/a.go"}},
		},
		worlds: map[string]*memWorld{"c1": w},
	}
	c4, _ := tokens.New("chars4")
	rep, err := RunCreates(h, EvalOptions{Budget: 2000, Counter: c4, Cases: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cases != 1 || len(rep.Skipped) != 2 || !strings.Contains(rep.Skipped[0].Reason, "moves are not creations") {
		t.Fatalf("cases %d skipped %+v", rep.Cases, rep.Skipped)
	}
	cs := rep.Detail[0]
	if strings.Join(cs.Create, ",") != "pkg/c.go" || strings.Join(cs.Truth, ",") != "cmd/main.go" {
		t.Errorf("create %v truth %v", cs.Create, cs.Truth)
	}
	v, off := cs.Results[scope.PolicyValue], cs.Results["no-place"]
	// With its place the created file reaches cmd/main.go (a user of
	// the folder, 2 hops); without, nothing at all.
	if v.Delivered != 1 || v.Share < PlaceGoal || off.Delivered != 0 || off.PlaceTokens != 0 {
		t.Errorf("value %+v, no-place %+v", v, off)
	}
	if cs.Capacity < PlaceGoal || rep.Methods[0].AtGoal != 1 || rep.Methods[0].Capable != 1 || rep.Methods[1].AtGoal != 0 {
		t.Errorf("capacity %v methods %+v", cs.Capacity, rep.Methods)
	}
	golden(t, "creates.json", rep.JSON())
	golden(t, "creates.txt", []byte(rep.Text()))
}
