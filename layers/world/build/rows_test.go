package build

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/gittest"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/graph"
)

func TestRowsRoundTrip(t *testing.T) {
	rows := []rowRecord{
		{mapRecord: mapRecord{FileEntry: world.FileEntry{Path: "a/b.go", Lang: "go", Size: 120, Blob: "0123", Lines: 9, Tokens: 40},
			Key: "ffee", Out: []outEdge{{To: "a/c.go", Refs: 3, Weight: 2.5}}}, defs: 4},
		{mapRecord: mapRecord{FileEntry: world.FileEntry{Path: "a/big.bin", Size: -1, Blob: "aa", Flags: []world.Flag{{Name: world.FlagBinary, Reason: "NUL"}}}}, defs: -1},
		{mapRecord: mapRecord{FileEntry: world.FileEntry{Path: "a/empty.go", Lang: "go", Blob: "bb"}, Key: "k"}, defs: 0},
	}
	got, err := decodeRowShard(encodeRowShard(rows))
	if err != nil || !reflect.DeepEqual(got, rows) {
		t.Fatalf("rows round trip: %v\n%+v", err, got)
	}
	if _, err := decodeRowShard(encodeMapShard([]mapRecord{rows[0].mapRecord})); err == nil {
		t.Fatal("a map shard was read as a rows shard")
	}
	// Every folder's rows land in one bucket, named by two hex digits.
	if rowBucket("a/b.go") != rowBucket("a/c.go") || len(rowBucket("x")) != 2 {
		t.Fatalf("buckets %q %q %q", rowBucket("a/b.go"), rowBucket("a/c.go"), rowBucket("x"))
	}
}

// The uses decoder gives exactly what of the full records the roles of
// their paths ask for, and no record for a path without one.
func TestLinkShardUses(t *testing.T) {
	links := []linkRecord{
		{Path: "p/a.py", Link: &world.Link{Lang: "python", Package: "p",
			Defs:    []world.LinkDef{{Name: "f", Kind: "function", Exported: true, Returns: "int"}},
			Imports: []world.Import{{Path: "..a", Names: []string{"b", "c"}, Line: 3}, {Path: "os", Alias: "o", Line: 1, Kind: "k"}},
			Refs:    []world.LinkRef{{Name: "b", Count: 2}, {Name: "path", Qual: "o", Kind: "member", Count: 1}}}},
		{Path: "p/b.py", Link: &world.Link{Lang: "python", Refs: []world.LinkRef{{Name: "f", Count: 1}}}},
		{Path: "p/c.py", Link: &world.Link{Lang: "python", Defs: []world.LinkDef{{Name: "g", Kind: "function", Parent: "C"}}}},
	}
	b := encodeLinkShard(links)
	all, err := decodeLinkShard(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, users := range [][]string{nil, {"p/b.py"}, {"p/a.py", "p/c.py"}, {"p/a.py", "p/b.py", "p/c.py"}} {
		for _, used := range [][]string{nil, {"p/a.py"}, {"p/a.py", "p/b.py", "p/c.py"}} {
			role := func(p string) (bool, bool) { return slices.Contains(users, p), slices.Contains(used, p) }
			got, err := decodeLinkUses(b, role)
			if err != nil {
				t.Fatalf("users %v, used %v: %v", users, used, err)
			}
			var want []linkRecord
			for _, r := range all {
				if user, used := role(r.Path); user || used {
					want = append(want, usesOnly(r, user, used))
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("users %v, used %v: got %+v, want %+v", users, used, got, want)
			}
		}
	}
	defs, err := decodeDefShard(encodeDefShard(all))
	if err != nil || len(defs) != len(all) {
		t.Fatalf("defs shard: %v, %d records", err, len(defs))
	}
	for k := range all {
		if !reflect.DeepEqual(defs[k], defsOnly(all[k])) {
			t.Errorf("defs shard: %+v, want %+v", defs[k].Link, defsOnly(all[k]).Link)
		}
	}
	if _, err := decodeDefShard(b); err == nil {
		t.Error("a links shard was read as a defs shard")
	}
	if _, err := decodeLinkUses(b[:len(b)-1], func(string) (bool, bool) { return false, false }); err == nil {
		t.Error("a truncated shard was skipped through without an error")
	}
}

// usesOnly is r with its link reduced to what decodeLinkUses gives of a
// user, of a used file or of both.
func usesOnly(r linkRecord, user, used bool) linkRecord {
	l := &world.Link{}
	if used {
		for _, d := range r.Link.Defs {
			l.Defs = append(l.Defs, world.LinkDef{Name: d.Name, Parent: d.Parent})
		}
	}
	if user {
		for _, rf := range r.Link.Refs {
			l.Refs = append(l.Refs, world.LinkRef{Name: rf.Name, Count: rf.Count})
		}
	}
	return linkRecord{Path: r.Path, Link: l}
}

// defsOnly is r with its link reduced to what the defs artifact holds.
func defsOnly(r linkRecord) linkRecord {
	l := &world.Link{}
	for _, d := range r.Link.Defs {
		l.Defs = append(l.Defs, world.LinkDef{Name: d.Name, Kind: d.Kind})
	}
	return linkRecord{Path: r.Path, Link: l}
}

func FuzzRowsDecode(f *testing.F) {
	f.Add(encodeDefShard([]linkRecord{{Path: "a", Link: &world.Link{Defs: []world.LinkDef{{Name: "F", Kind: "function"}}}}}))
	f.Add(encodeRowShard([]rowRecord{{mapRecord: mapRecord{FileEntry: world.FileEntry{Path: "a", Blob: "b"}, Out: []outEdge{{To: "c", Refs: 1}}}, defs: 2}}))
	f.Add(encodeLinkShard([]linkRecord{{Path: "a", Link: &world.Link{Lang: "go", Defs: []world.LinkDef{{Name: "F"}},
		Imports: []world.Import{{Path: "x", Names: []string{"y"}}}, Refs: []world.LinkRef{{Name: "x", Count: 1}}}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		if defs, err := decodeDefShardWanted(b, func(n string) bool { return len(n)%2 == 0 }); err == nil {
			for _, r := range defs {
				if r.Link == nil || len(r.Link.Defs) == 0 {
					t.Fatalf("a file without a kept definition: %+v", r)
				}
				for _, d := range r.Link.Defs {
					if len(d.Name)%2 != 0 {
						t.Fatalf("kept %q", d.Name)
					}
				}
			}
		}
		if defs, err := decodeDefShard(b); err == nil {
			if again, err := decodeDefShard(encodeDefShard(defs)); err != nil || !reflect.DeepEqual(again, defs) {
				t.Fatalf("defs shard does not round-trip: %v", err)
			}
		}
		if rows, err := decodeRowShard(b); err == nil {
			if again, err := decodeRowShard(encodeRowShard(rows)); err != nil || !reflect.DeepEqual(again, rows) {
				t.Fatalf("rows shard does not round-trip: %v", err)
			}
		}
		all, err := decodeLinkShard(b)
		role := func(p string) (bool, bool) { return strings.HasPrefix(p, "a"), strings.HasSuffix(p, "b") }
		some, lerr := decodeLinkUses(b, role)
		if err == nil {
			if lerr != nil {
				t.Fatalf("the uses decoder fails where the full one does not: %v", lerr)
			}
			var want []linkRecord
			for _, r := range all {
				if user, used := role(r.Path); user || used {
					want = append(want, usesOnly(r, user, used))
				}
			}
			if !reflect.DeepEqual(some, want) {
				t.Fatalf("the uses decoder gives %+v, want %+v", some, want)
			}
			defs, err := decodeDefShard(encodeDefShard(all))
			if err != nil || len(defs) != len(all) {
				t.Fatalf("defs shard: %v", err)
			}
			for k := range all {
				if !reflect.DeepEqual(defs[k], defsOnly(all[k])) {
					t.Fatalf("defs shard: %+v, want %+v", defs[k].Link, defsOnly(all[k]).Link)
				}
			}
		}
	})
}

// A World's definition counts and partial links (UsesOf) are what the links
// artifact holds, and the repo map drawn from them is the one drawn from
// every link.
func TestUsesOf(t *testing.T) {
	r := gittest.New(t)
	r.Write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.Write("a/a.go", "package a\n\n// T is a thing.\ntype T struct{ N int }\n\nfunc (t *T) M() int { return t.N }\n\nfunc F() *T { return &T{} }\n")
	r.Write("a/b.go", "package a\n\nfunc G() int { return F().M() }\n")
	r.Write("b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nfunc B() int { return a.G() + a.F().M() }\n")
	r.Write("c/c.go", "package c\n\nimport \"example.com/m/b\"\n\nfunc C() int { return b.B() }\n")
	r.Write("README.md", "# m\n")
	r.Write("logo.png", "\x89PNG\x00\x00")
	r.Commit("one")
	repo, cfg, res := indexHead(t, r.Dir)
	lazy, err := Load(repo, res.Tree, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer lazy.Close()
	full, err := Load(repo, res.Tree, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	if err := full.LoadLinks(); err != nil {
		t.Fatal(err)
	}
	g := full.Graph()
	if got, want := lazy.Defs(), graph.LinkDefs(g); !reflect.DeepEqual(got, want) {
		t.Fatalf("Defs %v, want %v", got, want)
	}
	ia, ib, ic := g.Index("a/a.go"), g.Index("b/b.go"), g.Index("c/c.go")
	users, used := []int{ib, ic}, []int{ia, ib}
	ls, err := lazy.UsesOf(users, used)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range ls {
		want := (*world.Link)(nil)
		if user, used := slices.Contains(users, i), slices.Contains(used, i); user || used {
			want = usesOnly(linkRecord{Link: g.Links[i]}, user, used).Link
		}
		if !reflect.DeepEqual(l, want) {
			t.Errorf("UsesOf: %s: %+v, want %+v", g.Files[i].Path, l, want)
		}
	}
	if ls[ib] == nil || len(ls[ib].Defs) == 0 || len(ls[ib].Refs) == 0 {
		t.Errorf("UsesOf: a user and used file's link %+v", ls[ib])
	}
	if lazy.Graph().Links != nil {
		t.Error("UsesOf filled Graph().Links")
	}
	if _, err := lazy.UsesOf(nil, []int{len(g.Files)}); err == nil {
		t.Error("UsesOf accepted a file beyond the tree")
	}
	// The definitions a filter keeps, in order; no link for a file left
	// without one.
	for _, keep := range []func(string) bool{
		func(string) bool { return true },
		func(n string) bool { return n == "M" || n == "G" },
		func(string) bool { return false },
	} {
		dg, err := lazy.defsGraph(keep)
		if err != nil {
			t.Fatal(err)
		}
		kept := 0
		for i := range g.Files {
			want := (*world.Link)(nil)
			if g.Links[i] != nil {
				for _, d := range g.Links[i].Defs {
					if keep(d.Name) {
						if want == nil {
							want = &world.Link{}
						}
						want.Defs = append(want.Defs, world.LinkDef{Name: d.Name, Kind: d.Kind})
						kept++
					}
				}
			}
			if !reflect.DeepEqual(dg.Links[i], want) {
				t.Errorf("defsGraph: %s: %+v, want %+v", g.Files[i].Path, dg.Links[i], want)
			}
		}
		if keep("T") && kept < 4 {
			t.Errorf("defsGraph kept %d definitions of every file's", kept)
		}
	}
	count := func(s string) int { return len(s) / 4 }
	for _, focus := range [][]string{nil, {"c/c.go"}} {
		want, err := graph.RepoMap(g, graph.Rank(g, focus, nil), full.Facts, 200, count)
		if err != nil {
			t.Fatal(err)
		}
		lg := lazy.Graph()
		got, err := graph.RepoMapOf(lg, graph.RankOf(lg, lazy.Defs(), focus), lazy.Defs(), lazy.UsesOf, lazy.Facts, 200, count)
		if err != nil {
			t.Fatal(err)
		}
		if got != want || !strings.Contains(got, "a/a.go") {
			t.Errorf("focus %v: the map from partial links\n%s\nwant\n%s", focus, got, want)
		}
	}
}

// Shards are merged by path, whatever the order of the folders' names,
// and parts out of order are sorted rather than trusted.
func TestMergeByPath(t *testing.T) {
	id := func(s *string) string { return *s }
	got := mergeByPath([][]string{{"a/b.go", "a/b0.go"}, {"a/b/c.go"}, nil, {"a.go", "z"}}, 5, id)
	want := []string{"a.go", "a/b.go", "a/b/c.go", "a/b0.go", "z"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged %v, want %v", got, want)
	}
	got = mergeByPath([][]string{{"b", "a"}, {"c"}}, 3, id)
	if want := []string{"a", "b", "c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("parts out of order: %v, want %v", got, want)
	}
	if got := mergeByPath[string](nil, 0, id); len(got) != 0 {
		t.Errorf("no parts: %v", got)
	}
}
