package app

import (
	"bytes"
	"context"
	"fmt"

	"github.com/git-speed/git-speed/layers/report"
	"github.com/git-speed/git-speed/layers/scope"
	"github.com/git-speed/git-speed/layers/world"
)

// PageResult is one HTML report page (layers/report).
type PageResult struct {
	Page []byte
	// Failure, when set, is what the page reports instead of a result (a
	// task whose scope failed): the front end delivers the page and then
	// reports Failure as the call's error.
	Failure error
}

// ReportScope scopes one task in full (writing its context folder as
// Scope does) and draws the result as one self-contained HTML page. A
// scope that fails gives a page saying why, with the error as Failure;
// only a cancelled call gives no page.
func (s *Session) ReportScope(ctx context.Context, req ScopeRequest) (*PageResult, error) {
	req.Full = true
	in := report.ScopeInput{Feature: req.Feature, Task: req.Task}
	res, err := s.Scope(ctx, req)
	if err == nil && res.Result == nil {
		err = fmt.Errorf("scope %s/%s gave no artifacts", req.Feature, req.Task)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		if in.Failure, err = s.redact("", err.Error()); err != nil {
			return nil, err
		}
		var b bytes.Buffer
		if rerr := report.Scope(&b, in); rerr != nil {
			return nil, rerr
		}
		return &PageResult{Page: b.Bytes(), Failure: &pageError{msg: in.Failure, err: err}}, nil
	}
	r := res.Result
	// Every text the page shows passes through the redaction layer.
	if err := s.redactAll(&r.Manifest); err != nil {
		return nil, err
	}
	if err := s.redactAll(&r.Budget); err != nil {
		return nil, err
	}
	if in.Title, err = s.redact("", r.Material.Task.Title); err != nil {
		return nil, err
	}
	in.Manifest, in.Budget = &r.Manifest, &r.Budget
	if in.ManifestJSON, err = r.Encode(scope.ManifestFile); err != nil {
		return nil, err
	}
	if in.BudgetJSON, err = r.Encode(scope.BudgetFile); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := report.Scope(&b, in); err != nil {
		return nil, err
	}
	return &PageResult{Page: b.Bytes()}, nil
}

// pageError is a failure the page reported, worded as the page words it
// (redacted); it unwraps to the scope's error, whose kind sets the exit
// code.
type pageError struct {
	msg string
	err error
}

func (e *pageError) Error() string { return e.msg }
func (e *pageError) Unwrap() error { return e.err }

// ReportPack builds a context pack and draws it as one self-contained
// HTML page: its ranking as a picture, each file's reason, evidence,
// symbols and snippet, the pack's JSON embedded.
func (s *Session) ReportPack(ctx context.Context, req PackRequest) (*PageResult, error) {
	p, err := s.Pack(ctx, req)
	if err != nil {
		return nil, err
	}
	if err := s.redactAll(p); err != nil {
		return nil, err
	}
	var js bytes.Buffer
	if err := EncodeJSON(&js, p); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := report.Pack(&b, report.PackInput{Pack: p, JSON: js.Bytes()}); err != nil {
		return nil, err
	}
	return &PageResult{Page: b.Bytes()}, nil
}

// GraphDOTRequest asks for the file graph in Graphviz DOT.
type GraphDOTRequest struct {
	Rev
	// Focus are repository paths: only files within Depth edges of them
	// (either way) are drawn. None draws every file with an edge.
	Focus []string
	// Depth is how many edges from the focus; 0 with a focus is 1.
	Depth int
}

// GraphDOT renders the code symbol graph's file edges as a Graphviz
// digraph (report.DOT), its domain clusters as boxes.
func (s *Session) GraphDOT(ctx context.Context, req GraphDOTRequest) (string, error) {
	if req.Depth < 0 {
		return "", Usagef("--depth must be 0 or more edges, got %d", req.Depth)
	}
	if req.Depth == 0 {
		req.Depth = 1
	}
	res, err := s.graphOf(ctx, req.Rev, func(g *world.Graph) error {
		for _, p := range req.Focus {
			if g.Index(p) < 0 {
				return Usagef("--focus %s: not a file of tree %s", p, short(g.Tree))
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	g := report.Graph{Tree: res.Tree, Focus: req.Focus, Depth: req.Depth}
	for _, e := range res.Edges {
		g.Edges = append(g.Edges, report.Edge{From: e.From, To: e.To, Refs: e.Refs})
	}
	for _, e := range res.WeakEdges {
		g.Edges = append(g.Edges, report.Edge{From: e.From, To: e.To, Refs: e.Refs, Weak: true})
	}
	for _, c := range res.Clusters {
		g.Groups = append(g.Groups, report.Group{Name: c.Name, Files: c.Files})
	}
	var b bytes.Buffer
	if err := report.DOT(&b, g); err != nil {
		return "", err
	}
	return s.redact("", b.String())
}
