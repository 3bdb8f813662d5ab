package extract

import (
	"sync"
	"testing"

	"github.com/git-speed/git-speed/layers/world"
)

// A language's tables of kinds and fields are built on its first file,
// not at registration, and give what the grammar gives.
func TestTablesBuiltOnFirstUse(t *testing.T) {
	g := registry[world.LangGo].grammar
	l := &language{name: world.LangGo, grammar: g}
	if l.kinds != nil || l.named != nil || l.fields != nil {
		t.Fatal("a language has tables before its first file")
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(l.loadTables)
	}
	wg.Wait()
	if uint32(len(l.kinds)) != g.NodeKindCount() || len(l.named) != len(l.kinds) {
		t.Fatalf("%d kinds, the grammar has %d", len(l.kinds), g.NodeKindCount())
	}
	for id := range l.kinds {
		if l.kinds[id] != g.NodeKindForId(uint16(id)) || l.named[id] != g.NodeKindIsNamed(uint16(id)) {
			t.Fatalf("kind %d: %q named %v, the grammar says %q named %v", id, l.kinds[id], l.named[id],
				g.NodeKindForId(uint16(id)), g.NodeKindIsNamed(uint16(id)))
		}
	}
	for _, name := range []string{"name", "body", "parameters", "type"} {
		if got, want := l.fields[name], g.FieldIdForName(name); got != want || got == 0 {
			t.Errorf("field %q: id %d, the grammar says %d", name, got, want)
		}
	}
	// The registered languages are built lazily too.
	for name, rl := range registry {
		if rl.kinds == nil {
			facts, err := Extract(name, []byte("x\n"), Options{Path: "a"})
			if err != nil || facts == nil {
				continue // a language that needs more than a line to parse
			}
			if rl.kinds == nil {
				t.Errorf("%s: extracting a file did not build its tables", name)
			}
			return
		}
	}
}

// Every kind a language declares as walked as a leaf is a named kind of
// its grammar, and every quiet token an anonymous one: a misspelt name
// would leave nothing out, silently.
func TestDumpFlagsNameKinds(t *testing.T) {
	for name, l := range registry {
		if len(l.leaves) == 0 && len(l.quiet) == 0 {
			continue
		}
		l.loadTables()
		has := func(kind string, named bool) bool {
			for id, k := range l.kinds {
				if k == kind && l.named[id] == named {
					return true
				}
			}
			return false
		}
		for _, k := range l.leaves {
			if !has(k, true) {
				t.Errorf("%s: %q is not a named kind of the grammar", name, k)
			}
		}
		for _, k := range l.quiet {
			if !has(k, false) {
				t.Errorf("%s: %q is not an anonymous token of the grammar", name, k)
			}
		}
	}
}
