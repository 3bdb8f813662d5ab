// Package cochange owns the co-change signal of Layer 2: which files
// changed together with a given file in the history before a task's base.
// It is pure: the caller reads the history (gitstore.Repo.ChangeLog) and
// hands over the changed paths per commit, newest first; the same history
// gives the same partners.
//
// A commit's weight halves every HalfLife commits of age, and a commit that
// changed n files links each pair with 1/log2(n) of it (a sweep over many
// files says little about any pair); commits over MaxFiles files are
// skipped. A partner's score is the weighted share of the file's own
// changes in which the partner changed too, so it lies in [0, 1].
package cochange

import (
	"math"
	"sort"
)

// Defaults of Options.
const (
	DefaultHalfLife = 150 // commits
	DefaultMaxFiles = 40
	DefaultWindow   = 500 // commits a caller reads before the base
)

// Options tunes Mine. Zero values take the defaults.
type Options struct {
	HalfLife int // commits after which a commit's weight halves
	MaxFiles int // commits changing more files are skipped
}

// Index answers Partners for the commits it was built from.
type Index struct {
	commits [][]string
	weight  []float64        // per commit: age decay
	pair    []float64        // per commit: per-pair damping
	byPath  map[string][]int // path → commits that changed it, newest first
}

// Partner is a file that changed together with the asked one.
type Partner struct {
	Path    string
	Score   float64 // weighted share of the file's changes that changed Path too
	Commits int     // commits that changed both
}

// Mine indexes commits (each the paths one commit changed, newest first).
func Mine(commits [][]string, opt Options) *Index {
	if opt.HalfLife <= 0 {
		opt.HalfLife = DefaultHalfLife
	}
	if opt.MaxFiles <= 0 {
		opt.MaxFiles = DefaultMaxFiles
	}
	x := &Index{byPath: map[string][]int{}}
	for i, files := range commits {
		uniq := dedupe(files)
		if len(uniq) == 0 || len(uniq) > opt.MaxFiles {
			continue
		}
		k := len(x.commits)
		x.commits = append(x.commits, uniq)
		x.weight = append(x.weight, math.Pow(0.5, float64(i)/float64(opt.HalfLife)))
		d := 1.0
		if len(uniq) > 2 {
			d = 1 / math.Log2(float64(len(uniq)))
		}
		x.pair = append(x.pair, d)
		for _, p := range uniq {
			x.byPath[p] = append(x.byPath[p], k)
		}
	}
	return x
}

func dedupe(files []string) []string {
	seen := make(map[string]bool, len(files))
	var out []string
	for _, f := range files {
		if f != "" && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// Changes is how many indexed commits changed path.
func (x *Index) Changes(path string) int {
	if x == nil {
		return 0
	}
	return len(x.byPath[path])
}

// Partners lists the files that changed together with path in at least
// minCommits commits, best score first (then path), at most max of them
// (0: all).
func (x *Index) Partners(path string, minCommits, max int) []Partner {
	if x == nil {
		return nil
	}
	cs := x.byPath[path]
	if len(cs) == 0 {
		return nil
	}
	var total float64
	score := map[string]float64{}
	count := map[string]int{}
	for _, k := range cs {
		total += x.weight[k]
		for _, q := range x.commits[k] {
			if q != path {
				score[q] += x.weight[k] * x.pair[k]
				count[q]++
			}
		}
	}
	var out []Partner
	for q, s := range score {
		if count[q] >= minCommits {
			out = append(out, Partner{Path: q, Score: s / total, Commits: count[q]})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Path < out[j].Path
	})
	if max > 0 && len(out) > max {
		out = out[:max]
	}
	return out
}
