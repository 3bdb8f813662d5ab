package app

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/zeebo/blake3"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/world/build"
	"github.com/git-speed/git-speed/layers/world/graph"
)

// MapRequest asks for a ranked repo map.
type MapRequest struct {
	Rev
	// Budget is the map's size in tokens; 0 takes map.budget.
	Budget int
	// Focus are repository paths the map is about.
	Focus []string
	// Mentions are identifiers or words the map is about.
	Mentions []string
}

// Map renders the repo map: files in order of personalised PageRank over
// the code symbol graph, never over the budget. It ends in a line break
// unless empty.
func (s *Session) Map(ctx context.Context, req MapRequest) (string, error) {
	budget := req.Budget
	if budget == 0 {
		budget = s.cfg.Map.Budget
	}
	if budget < 0 {
		return "", Usagef("--budget must be a positive number of tokens, got %d", budget)
	}
	rev, err := s.rev(req.Rev)
	if err != nil {
		return "", err
	}
	tokenizer, err := tokens.CanonicalName(s.cfg.Tokens.Tokenizer)
	if err != nil {
		return "", err
	}
	// A map is a pure function of its recipe: one rendered for the same
	// tree, settings, build, budget, focus and mentions (by map or
	// context) is given as it was.
	key := ""
	if rev != worktreeRev {
		if _, tree, err := s.repo.Resolve(rev); err == nil {
			key = mapCacheKey(tree, s.cfg.TreeDigest(), tokenizer, budget, req.Focus, req.Mentions)
		}
	}
	out, cached := "", false
	if key != "" {
		out, cached = s.cachedMap(key)
	}
	if !cached {
		cnt, err := s.counter()
		if err != nil {
			return "", err
		}
		if out, err = s.renderMap(ctx, rev, req.Focus, req.Mentions, budget, cnt.Count); err != nil {
			return "", err
		}
		if key != "" {
			s.storeMap(key, out)
		}
	}
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	return out, nil
}

// renderMap loads rev's index and renders its repo map.
func (s *Session) renderMap(ctx context.Context, rev string, focus, mentions []string, budget int, count func(string) int) (string, error) {
	// A computed map allocates about 100 MB on kubernetes (the rows, then
	// the links of the shown files and their users) and keeps most of it
	// to the end.
	defer s.collectRarely()()
	// The tokenizer's vocabulary loads (a tenth of the map's time) while
	// the index is read; the counts below wait for it.
	go count("# Repository map\n")
	w, release, err := s.world(ctx, rev, true)
	if err != nil {
		return "", err
	}
	defer release()
	g := w.Graph()
	for _, p := range focus {
		if g.Index(p) < 0 {
			return "", Usagef("--focus %s: not a file of tree %s", p, short(w.Tree()))
		}
	}
	return repoMap(w, focus, mentions, budget, count)
}

// repoMap renders the repo map of w. Without mentions it reads the links
// of only the files the map shows and of their heaviest users; mentions
// are matched against every file's definitions, so they read all links.
func repoMap(w *build.World, focus, mentions []string, budget int, count func(string) int) (string, error) {
	g := w.Graph()
	if len(mentions) == 0 {
		defs := w.Defs()
		return graph.RepoMapOf(g, graph.RankOf(g, defs, focus), defs, w.UsesOf, w.Facts, budget, count)
	}
	if err := w.LoadLinks(); err != nil {
		return "", err
	}
	return graph.RepoMap(g, graph.Rank(g, focus, mentions), w.Facts, budget, count)
}

// The repo map of a context is a pure function of the tree, the settings
// that shape the index, the focus, the mentions, the budget, the tokenizer
// and the git-speed build; map and context keep the last few rendered
// under <git-common-dir>/speed/cache/maps/, keyed by a digest of all of
// these, so an agent asking for its task's context again (the session
// moved on, a memory was added) does not pay for the graph walk again.
const mapCacheKeep = 64

// mapCacheKey digests the recipe of one repo map.
func mapCacheKey(tree, treeDigest, tokenizer string, budget int, focus, mentions []string) string {
	h := blake3.New()
	fmt.Fprintf(h, "map-v1\x00%s\x00%s\x00%s\x00%d\x00%s\x00", tree, treeDigest, tokenizer, budget, buildIdentity())
	for _, list := range [][]string{focus, mentions} {
		fmt.Fprintf(h, "%q\x00", list)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func (s *Session) mapCacheDir() string { return s.agentDir(filepath.Join("cache", "maps")) }

// cachedMap returns a stored map, if any.
func (s *Session) cachedMap(key string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(s.mapCacheDir(), key+".md"))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// storeMap keeps a map and drops the oldest beyond mapCacheKeep. A cache
// that cannot be written only costs the next run its speed.
func (s *Session) storeMap(key, text string) {
	dir := s.mapCacheDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	if writeFileAtomic(filepath.Join(dir, key+".md"), []byte(text)) != nil {
		return
	}
	pruneOldest(dir, ".md", mapCacheKeep)
}
