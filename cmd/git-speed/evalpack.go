package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/git-speed/git-speed/layers/pack"
	"github.com/git-speed/git-speed/layers/world/build"
)

// evalPack replays the n most recent first-parent commits as pack
// requests: the message is the request, the changed files that existed in
// the parent are the target, the parent's tree (indexed incrementally) is
// the world and the commits before it are the history. Beside them it
// replays up to n problem statements (pack.Statement) found among the
// statementDepth·n most recent commits.
func (h *history) evalPack(n int, weights string, perCase, asJSON bool) error {
	var w *pack.Weights
	if weights != "" {
		dw := pack.DefaultWeights()
		dec := json.NewDecoder(strings.NewReader(weights))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&dw); err != nil {
			return usagef("--weights: %v", err)
		}
		w = &dw
	}
	// Problem statements are rarer than messages: look further back for
	// them, up to n.
	log, err := h.e.repo.RecentChanges(h.rev, statementDepth*n+defaultHistory)
	if err != nil {
		return err
	}
	var cases, stmts []pack.Case
	for i := 0; i < statementDepth*n && i < len(log); i++ {
		l := log[i]
		stmt, isStmt := pack.Statement(l.Message)
		isStmt = isStmt && len(stmts) < n
		if i >= n && !isStmt {
			continue
		}
		parents, err := h.e.repo.FirstParentLog(l.Commit, 2)
		if err != nil || len(parents) < 2 || len(parents[0].Parents) == 0 {
			continue
		}
		parent := parents[0].Parents[0]
		if _, err := runIndex(nil, h.e, parent, false, true); err != nil {
			return err
		}
		_, tree, err := h.e.repo.Resolve(parent)
		if err != nil {
			return err
		}
		w, err := build.Open(h.e.repo, tree, h.e.cfg)
		if err != nil {
			return err
		}
		h.worlds = append(h.worlds, w)
		var target []string
		for _, p := range l.Paths {
			if _, ok := w.Entry(p); ok {
				target = append(target, p)
			}
		}
		var past []pack.Commit
		for _, o := range log[i+1 : min(len(log), i+1+defaultHistory)] {
			past = append(past, pack.Commit{ID: o.Commit, Message: o.Message, Paths: o.Paths})
		}
		c := pack.Case{Commit: l.Commit, Message: request(l.Message), Target: target, Src: w, History: past}
		if i < n {
			cases = append(cases, c)
		}
		if isStmt {
			c.Message = stmt
			stmts = append(stmts, c)
		}
	}
	rep, err := pack.Evaluate(cases, w, perCase)
	if err != nil {
		return err
	}
	if rep.Statements, err = pack.Evaluate(stmts, w, perCase); err != nil {
		return err
	}
	if asJSON {
		return printJSON(h.e.stdout, rep)
	}
	_, err = fmt.Fprint(h.e.stdout, rep.Text())
	return err
}

// statementDepth bounds how far back eval --pack looks for problem
// statements, in multiples of --commits.
const statementDepth = 10

// request is a commit message as a request: without the subject of a
// merge commit ("Merge pull request #12 from a/b", "Merge branch …"),
// which names branches, not the change.
func request(msg string) string {
	subject, body, _ := strings.Cut(msg, "\n")
	if strings.HasPrefix(subject, "Merge pull request ") || strings.HasPrefix(subject, "Merge branch ") {
		if b := strings.TrimSpace(body); b != "" {
			return b
		}
	}
	return msg
}
