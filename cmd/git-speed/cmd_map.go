package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/build"
	"github.com/git-speed/git-speed/layers/world/graph"
)

var revFlag = &cli.StringFlag{Name: "rev", Value: "HEAD", Usage: "commit or tree whose index to read"}

func cmdMap() *cli.Command {
	return &cli.Command{
		Name:      "map",
		Usage:     "print a ranked markdown repo map that fits a token budget",
		UsageText: "git speed map [--budget N] [--focus PATH]... [--mention WORD]... [--rev R | --worktree]",
		Description: "Files in order of personalised PageRank over the code symbol graph, each with its most\n" +
			"used signatures. The map never exceeds N tokens and fills at least 90 % of N when the\n" +
			"repository has enough to say.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "budget", Usage: "tokens (default map.budget in speed.toml)"},
			&cli.StringSliceFlag{Name: "focus", Usage: "a file the map is about (repeatable)"},
			&cli.StringSliceFlag{Name: "mention", Usage: "an identifier or word the map is about (repeatable)"},
			revFlag, worktreeFlag,
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			e, err := openEnv(c)
			if err != nil {
				return err
			}
			budget := e.cfg.Map.Budget
			if c.IsSet("budget") {
				if budget = c.Int("budget"); budget <= 0 {
					return usagef("--budget must be a positive number of tokens, got %d", budget)
				}
			}
			var focus []string
			for _, f := range c.StringSlice("focus") {
				p, err := e.repoPath(f)
				if err != nil {
					return err
				}
				focus = append(focus, p)
			}
			rev, err := revArg(c)
			if err != nil {
				return err
			}
			tokenizer, err := tokens.CanonicalName(e.cfg.Tokens.Tokenizer)
			if err != nil {
				return err
			}
			mentions := c.StringSlice("mention")
			// A map is a pure function of its recipe: one rendered for the
			// same tree, settings, build, budget, focus and mentions (by
			// map or context) is printed as it was (mapcache.go).
			key := ""
			if rev != worktreeRev {
				if _, tree, err := e.repo.Resolve(rev); err == nil {
					key = mapCacheKey(tree, e.cfg.TreeDigest(), tokenizer, budget, focus, mentions)
				}
			}
			out, cached := "", false
			if key != "" {
				out, cached = e.cachedMap(key)
			}
			if !cached {
				cnt, err := e.counter()
				if err != nil {
					return err
				}
				if out, err = renderMap(e, rev, focus, mentions, budget, cnt.Count); err != nil {
					return err
				}
				if key != "" {
					e.storeMap(key, out)
				}
			}
			if out != "" && !strings.HasSuffix(out, "\n") {
				out += "\n"
			}
			_, err = fmt.Fprint(e.stdout, out)
			return err
		},
	}
}

// renderMap loads rev's index and renders its repo map.
func renderMap(e *env, rev string, focus, mentions []string, budget int, count func(string) int) (string, error) {
	// A computed map allocates about 100 MB on kubernetes (the rows, then
	// the links of the shown files and their users) and keeps most of it
	// to the end.
	defer build.CollectRarely()()
	// The tokenizer's vocabulary loads (a tenth of the map's time) while
	// the index is read; the counts below wait for it.
	go count("# Repository map\n")
	w, err := loadWorld(e, rev)
	if err != nil {
		return "", err
	}
	defer w.Close()
	g := w.Graph()
	for _, p := range focus {
		if g.Index(p) < 0 {
			return "", usagef("--focus %s: not a file of tree %s", p, short(w.Tree()))
		}
	}
	return repoMap(w, focus, mentions, budget, count)
}

func cmdSkeleton() *cli.Command {
	return &cli.Command{
		Name:      "skeleton",
		Usage:     "print the signature-only outline of files",
		UsageText: "git speed skeleton [--rev R | --worktree] PATH...",
		Description: "Declarations, type shapes, members and signatures with first doc lines; bodies are\n" +
			"replaced by a marker naming the elided lines, so exactly those can be read back.",
		Flags: []cli.Flag{revFlag, worktreeFlag},
		Action: func(c *cli.Context) error {
			if !c.Args().Present() {
				return usagef("skeleton needs at least one path")
			}
			e, w, err := openWorld(c, false)
			if err != nil {
				return err
			}
			defer w.Close()
			var b strings.Builder
			for i, arg := range c.Args().Slice() {
				p, err := e.repoPath(arg)
				if err != nil {
					return err
				}
				entry, ok := w.Entry(p)
				if !ok {
					return fmt.Errorf("%s: not a file of tree %s", arg, short(w.Tree()))
				}
				f, err := w.Facts(p)
				if err != nil {
					return err
				}
				if f == nil {
					return fmt.Errorf("%s: no skeleton: %s", arg, whyNoFacts(entry))
				}
				if i > 0 {
					b.WriteString("\n")
				}
				fmt.Fprintf(&b, "%s %s (skeleton of %d lines; ~%d of ~%d tokens)\n%s", commentLeader(f.Lang), p, f.Lines, f.SkelToks, f.Tokens, f.Skeleton)
			}
			_, err = fmt.Fprint(e.stdout, b.String())
			return err
		},
	}
}

// whyNoFacts says why a project map row has no facts.
func whyNoFacts(e *world.FileEntry) string {
	for _, f := range e.Flags {
		switch f.Name {
		case world.FlagBinary, world.FlagTooLarge, world.FlagSymlink, world.FlagSubmodule, world.FlagIgnored, world.FlagGenerated, world.FlagVendored:
			return "flagged " + f.Name + " (" + f.Reason + ")"
		}
	}
	if e.Lang == "" {
		return "language not recognised"
	}
	return "no extractor for " + e.Lang + " (or excluded by index.languages)"
}

func commentLeader(lang string) string {
	switch lang {
	case world.LangPython, world.LangBash, world.LangRuby, world.LangPowerShell:
		return "#"
	case world.LangINI:
		return ";"
	case world.LangCSS:
		return "/*"
	}
	return "//"
}

// graphJSON is what `git speed graph --json` prints.
type graphJSON struct {
	Tree    string     `json:"tree"`
	Files   int        `json:"files"`
	Symbols int        `json:"symbols"`
	Edges   []edgeJSON `json:"edges"`
	// WeakEdges are the edges of kind weak (docs/graph-resolution.md):
	// links a reader follows that no declaration binds. They are a list
	// of their own so that a consumer of Edges sees certain edges only.
	WeakEdges []edgeJSON      `json:"weak_edges"`
	Clusters  []world.Cluster `json:"clusters"`
}

type edgeJSON struct {
	From   string  `json:"from"`
	To     string  `json:"to"`
	Refs   int     `json:"refs"`
	Weight float64 `json:"weight"`
	Kind   string  `json:"kind"` // "certain" or "weak"
}

func cmdGraph() *cli.Command {
	return &cli.Command{
		Name:      "graph",
		Usage:     "print the code symbol graph: file-level edges and domain clusters",
		UsageText: "git speed graph [--json] [--rev R | --worktree]",
		Description: "An edge from A to B means A uses what B defines, with the number of references resolved.\n" +
			"Without --json, one edge per line: from<TAB>to<TAB>refs. With --json, weak_edges lists apart the\n" +
			"links a reader follows that no declaration binds (docs/graph-resolution.md, edge kinds).",
		Flags: []cli.Flag{jsonFlag, revFlag, worktreeFlag},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			e, w, err := openWorld(c, true)
			if err != nil {
				return err
			}
			defer w.Close()
			g := w.Graph()
			out := graphJSON{Tree: g.Tree, Files: len(g.Files), Symbols: g.Symbols, Edges: []edgeJSON{}, WeakEdges: []edgeJSON{}}
			for _, ed := range g.Edges {
				out.Edges = append(out.Edges, edgeJSON{From: g.Files[ed.From].Path, To: g.Files[ed.To].Path, Refs: ed.Refs, Weight: ed.Weight, Kind: ed.Kind.String()})
			}
			for _, ed := range g.Weak {
				out.WeakEdges = append(out.WeakEdges, edgeJSON{From: g.Files[ed.From].Path, To: g.Files[ed.To].Path, Refs: ed.Refs, Weight: ed.Weight, Kind: ed.Kind.String()})
			}
			out.Clusters = graph.Clusters(g)
			if out.Clusters == nil {
				out.Clusters = []world.Cluster{}
			}
			if c.Bool("json") {
				return printJSON(e.stdout, out)
			}
			var b strings.Builder
			for _, ed := range out.Edges {
				fmt.Fprintf(&b, "%s\t%s\t%d\n", ed.From, ed.To, ed.Refs)
			}
			for _, cl := range out.Clusters {
				fmt.Fprintf(&b, "# cluster %d %s: %d files\n", cl.ID, cl.Name, len(cl.Files))
			}
			_, err = fmt.Fprint(e.stdout, b.String())
			return err
		},
	}
}

// symbolsJSON is what `git speed symbols NAME --json` prints.
type symbolsJSON struct {
	Name        string    `json:"name"`
	Definitions []defJSON `json:"definitions"`
	References  []refJSON `json:"references"`
}

type defJSON struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	End       int    `json:"end"`
	Kind      string `json:"kind"`
	Qualified string `json:"qualified"`
	Signature string `json:"signature,omitempty"`
}

type refJSON struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Qual string `json:"qual,omitempty"`
	In   string `json:"in,omitempty"`
}

func cmdSymbols() *cli.Command {
	return &cli.Command{
		Name:      "symbols",
		Usage:     "find the definitions of a name and the references the graph resolves to them",
		UsageText: "git speed symbols NAME [--json] [--rev R | --worktree]",
		Description: "NAME is a plain name (Handle) or a qualified one (Server.Handle). References are listed\n" +
			"from files the code symbol graph links to a defining file, not every use of the word.",
		Flags: []cli.Flag{jsonFlag, revFlag, worktreeFlag},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("symbols needs exactly one NAME")
			}
			name := c.Args().First()
			e, w, err := openWorld(c, true)
			if err != nil {
				return err
			}
			defer w.Close()
			res, err := findSymbol(w.Graph(), w.Facts, name)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return printJSON(e.stdout, res)
			}
			var b strings.Builder
			for _, d := range res.Definitions {
				fmt.Fprintf(&b, "def %s:%d-%d %s %s\n", d.Path, d.Line, d.End, d.Kind, d.Signature)
			}
			for _, r := range res.References {
				in := ""
				if r.In != "" {
					in = " in " + r.In
				}
				fmt.Fprintf(&b, "ref %s:%d%s\n", r.Path, r.Line, in)
			}
			if len(res.Definitions) == 0 {
				return fmt.Errorf("no definition of %s in tree %s", name, short(w.Tree()))
			}
			_, err = fmt.Fprint(e.stdout, b.String())
			return err
		},
	}
}

// findSymbol lists the definitions of name and the references to it from
// files the graph links to a defining file.
func findSymbol(g *world.Graph, facts func(string) (*world.Facts, error), name string) (*symbolsJSON, error) {
	leaf := name
	if i := strings.LastIndexAny(name, ".:"); i >= 0 {
		leaf = name[i+1:]
	}
	res := &symbolsJSON{Name: name, Definitions: []defJSON{}, References: []refJSON{}}
	defining := map[int]bool{}
	for i, l := range g.Links {
		if l == nil {
			continue
		}
		for _, d := range l.Defs {
			if d.Name == leaf {
				defining[i] = true
				break
			}
		}
	}
	var defFiles []int
	for i := range defining {
		f, err := facts(g.Files[i].Path)
		if err != nil {
			return nil, err
		}
		found := false
		for _, d := range f.Defs {
			if d.Name == leaf && (leaf == name || d.Qualified == name || strings.HasSuffix(d.Qualified, "."+name)) {
				res.Definitions = append(res.Definitions, defJSON{Path: g.Files[i].Path, Line: d.Start, End: d.End, Kind: d.Kind, Qualified: d.Qualified, Signature: d.Signature})
				found = true
			}
		}
		if found {
			defFiles = append(defFiles, i)
		}
	}
	targets := map[int]bool{}
	for _, i := range defFiles {
		targets[i] = true
	}
	users := map[int]bool{}
	for i := range targets {
		users[i] = true
	}
	for _, ed := range g.Edges {
		if targets[ed.To] {
			users[ed.From] = true
		}
	}
	for i := range users {
		l := g.Links[i]
		if l == nil {
			continue
		}
		uses := false
		for _, r := range l.Refs {
			if r.Name == leaf {
				uses = true
				break
			}
		}
		if !uses {
			continue
		}
		f, err := facts(g.Files[i].Path)
		if err != nil {
			return nil, err
		}
		for _, r := range f.Refs {
			if r.Name != leaf {
				continue
			}
			ref := refJSON{Path: g.Files[i].Path, Line: r.Line, Qual: r.Qual}
			if r.In > 0 && r.In <= len(f.Defs) {
				ref.In = f.Defs[r.In-1].Qualified
			}
			res.References = append(res.References, ref)
		}
	}
	sort.Slice(res.Definitions, func(a, b int) bool {
		x, y := res.Definitions[a], res.Definitions[b]
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		return x.Line < y.Line
	})
	sort.Slice(res.References, func(a, b int) bool {
		x, y := res.References[a], res.References[b]
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		return x.Line < y.Line
	})
	return res, nil
}
