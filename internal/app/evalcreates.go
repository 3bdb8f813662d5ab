package app

import (
	"context"

	"github.com/git-speed/git-speed/layers/scope/eval"
)

// EvalCreates replays recent commits that added source files as tasks
// that create them (eval.RunCreates): the added files are files.create,
// the other changed source files the truth. It reports file recall and
// the share of code_context given to the place the files live in, beside
// the place signal off. req.Ablate is not used.
func (s *Session) EvalCreates(ctx context.Context, req EvalRequest) (*eval.CreateReport, error) {
	h, opt, err := s.evalSetup(ctx, req)
	if err != nil {
		return nil, err
	}
	defer h.close()
	opt.Creates, opt.Ablate = true, false
	return eval.RunCreates(h, opt)
}

// Added is the paths c changed that its parent's tree lacks
// (eval.Additions): a look-up per path, not a world.
func (h *history) Added(c eval.Commit) ([]string, error) {
	_, tree, err := h.s.repo.Resolve(c.Parent)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range c.Changed {
		_, ok, err := h.s.repo.BlobAt(tree, p)
		if err != nil {
			return nil, err
		}
		if !ok {
			out = append(out, p)
		}
	}
	return out, nil
}
