//go:build evalreal

// The real-repository harness: it replays a git repository's history
// through Layer 1 (layers/world/build) and Layer 2. It needs cgo and the
// tree-sitter grammars, so it is behind a build tag:
//
//	go test -tags evalreal -run TestRealRepo ./layers/scope/eval -repo DIR [-commits 100] [-budget 32000] [-out report.json]
//
// The repository is cloned into a temporary folder first, so its own
// refs/speed is never written.
package eval_test

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/gitstore"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/layers/scope"
	"github.com/git-speed/git-speed/layers/scope/eval"
	"github.com/git-speed/git-speed/layers/world/build"
	"github.com/git-speed/git-speed/layers/world/cochange"
)

var (
	repoDir  = flag.String("repo", "", "repository to replay")
	nCommits = flag.Int("commits", 100, "recent commits to look at")
	budget   = flag.Int("budget", 32000, "tokens per task")
	out      = flag.String("out", "", "write the JSON report here")
	cases    = flag.Bool("cases", false, "keep per-commit cases in the JSON report")
	ablate   = flag.Bool("ablate", false, "add one method per signal turned off")
	messages = flag.Bool("messages", false, "commit messages as the tasks' text")
	noCo     = flag.Bool("nocochange", false, "no co-change history")
)

type gitHistory struct {
	t      *testing.T
	dir    string
	repo   *gitstore.Repo
	cfg    config.Config
	worlds map[string]scope.World
}

func (h *gitHistory) git(args ...string) []byte {
	cmd := exec.Command("git", append([]string{"-C", h.dir}, args...)...)
	b, err := cmd.Output()
	if err != nil {
		h.t.Fatalf("git %v: %v", args, err)
	}
	return b
}

func (h *gitHistory) Commits(n int) ([]eval.Commit, error) {
	raw := h.git("log", "--first-parent", "--no-merges", "-n", strconv.Itoa(n), "--format=@%H %P", "--numstat", "--no-renames")
	msgs := map[string]string{}
	for _, rec := range strings.Split(string(h.git("log", "--first-parent", "--no-merges", "-n", strconv.Itoa(n), "--format=%H%n%B%x00")), "\x00") {
		if id, msg, ok := strings.Cut(strings.TrimLeft(rec, "\n"), "\n"); ok {
			msgs[id] = msg
		}
	}
	var out []eval.Commit
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "@") {
			f := strings.Fields(l[1:])
			c := eval.Commit{ID: f[0], Lines: map[string]int{}, Message: msgs[f[0]]}
			if len(f) > 1 {
				c.Parent = f[1]
			}
			out = append(out, c)
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) != 3 || len(out) == 0 {
			continue
		}
		a, _ := strconv.Atoi(f[0])
		d, _ := strconv.Atoi(f[1])
		c := &out[len(out)-1]
		c.Changed = append(c.Changed, f[2])
		c.Lines[f[2]] = a + d
	}
	return out, sc.Err()
}

func (h *gitHistory) WorldAt(commit string) (scope.World, error) {
	if w, ok := h.worlds[commit]; ok {
		return w, nil
	}
	res, err := build.Index(context.Background(), h.repo, commit, build.Options{Config: h.cfg})
	if err != nil {
		return nil, err
	}
	w, err := build.Load(h.repo, res.Tree, h.cfg)
	if err != nil {
		return nil, err
	}
	if err := w.LoadLinks(); err != nil {
		return nil, err
	}
	h.worlds[commit] = w
	return w, nil
}

type coHistory struct{ *gitHistory }

func (h coHistory) CoChangeAt(commit string) (*cochange.Index, error) {
	log, err := h.repo.ChangeLog(commit, cochange.DefaultWindow)
	if err != nil {
		return nil, err
	}
	return cochange.Mine(log, cochange.Options{}), nil
}

func TestRealRepo(t *testing.T) {
	if *repoDir == "" {
		t.Skip("no -repo")
	}
	clone := filepath.Join(t.TempDir(), "r")
	if b, err := exec.Command("git", "clone", "--quiet", "--no-checkout", *repoDir, clone).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, b)
	}
	repo, err := gitstore.Open(clone)
	if err != nil {
		t.Fatal(err)
	}
	h := &gitHistory{t: t, dir: clone, repo: repo, cfg: config.Default(), worlds: map[string]scope.World{}}
	var hist eval.History = h
	if !*noCo {
		hist = coHistory{h}
	}
	rep, err := eval.Run(hist, eval.EvalOptions{Commits: *nCommits, Budget: *budget, Cases: *cases, Ablate: *ablate, Messages: *messages})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + rep.Text())
	if *out != "" {
		if err := os.WriteFile(*out, rep.JSON(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
