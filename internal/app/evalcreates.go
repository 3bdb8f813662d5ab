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
