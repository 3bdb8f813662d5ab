package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	gitspeed "github.com/git-speed/git-speed"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/hooks"
	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/prompt"
	"github.com/git-speed/git-speed/layers/split"
	"github.com/git-speed/git-speed/layers/world/align"
)

// Operations on the repository's own files: its features' alignment and
// failure classification, git speed init, and the splitting of agent
// command files.

// AlignRequest asks for a feature's spec alignment.
type AlignRequest struct {
	Rev
	Feature string
}

// Align maps each requirement of a feature to the files and symbols that
// carry it, with evidence and a status.
func (s *Session) Align(ctx context.Context, req AlignRequest) (*align.Alignment, error) {
	rev, err := s.rev(req.Rev)
	if err != nil {
		return nil, err
	}
	w, release, err := s.world(ctx, rev, true)
	if err != nil {
		return nil, err
	}
	defer release()
	o := s.op(ctx)
	f, err := o.loadFeature(req.Feature, w, false)
	if err != nil {
		return nil, err
	}
	return w.Alignment(f, func(msg string) { o.warnf("%s", msg) })
}

// ClassifyRequest asks what an agent's failure output was about.
type ClassifyRequest struct {
	Feature, Task string
	// Log is the failure output; LogName where it was read from.
	Log, LogName string
}

// Classify classifies an agent's failure output against the task's scoped
// context: context_cut when it names a file or symbol budget.json cut,
// otherwise build_error, test_failure, spec_gap, missing_file, timeout or
// unknown, with the evidence lines.
func (s *Session) Classify(ctx context.Context, req ClassifyRequest) (*prompt.Classification, error) {
	pc, err := prompt.Load(s.top + "/" + s.ContextDir(req.Feature, req.Task))
	if err != nil {
		return nil, err
	}
	logText, err := s.redact(req.LogName, req.Log)
	if err != nil {
		return nil, err
	}
	cl := pc.Classify(logText)
	return &cl, nil
}

// InitResult is what init wrote.
type InitResult struct {
	// Hooks is the hooks' installation, nil when not asked.
	Hooks *hooks.Report
}

// Init writes speed.toml (every key with its default) and .speed/ (a
// starter feature whose task names a file of the repository) at the top of the work tree, refusing to overwrite
// either, and installs the hooks unless noHooks.
func Init(ctx context.Context, dir string, noHooks bool) (*InitResult, error) {
	s, err := Open(Options{Dir: dir})
	if err != nil {
		return nil, err
	}
	if s.top == "" {
		return nil, errors.New("init needs a work tree; this is a bare repository")
	}
	cfgFile := filepath.Join(s.top, config.FileName)
	speedDir := filepath.Join(s.top, ".speed")
	for _, p := range []string{cfgFile, speedDir} {
		if _, err := os.Lstat(p); err == nil {
			return nil, fmt.Errorf("%s already exists; not overwriting it (move it away to start afresh)", rel(s.top, p))
		}
	}
	example, err := gitspeed.Examples.ReadFile("speed.toml.example")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(cfgFile, example, 0o644); err != nil {
		return nil, err
	}
	// The starter feature names a file of this repository, never one of
	// git-speed's own (the sample in .speed.example is documentation).
	if err := writeStarter(speedDir, starterFile(ctx, s.top)); err != nil {
		return nil, err
	}
	notef(ctx, "wrote %s and %s/", config.FileName, ".speed")
	if noHooks {
		return &InitResult{}, nil
	}
	rep, err := hooks.Install(s.top, hooks.Options{})
	if err != nil {
		return nil, err
	}
	return &InitResult{Hooks: &rep}, nil
}

func rel(top, p string) string {
	if r, err := filepath.Rel(top, p); err == nil {
		return r
	}
	return p
}

// SplitResult is what splitting one file did, or would do.
type SplitResult struct {
	File          string `json:"file"`
	Split         bool   `json:"split"`
	Reason        string `json:"reason,omitempty"`
	Lines         int    `json:"lines"`
	At            int    `json:"at,omitempty"`
	Heading       string `json:"heading,omitempty"`
	Core          string `json:"core,omitempty"`
	Details       string `json:"details,omitempty"`
	CoreTokens    int    `json:"core_tokens,omitempty"`
	DetailsTokens int    `json:"details_tokens,omitempty"`
}

// Split splits agent command files of split.MinLines lines or more into
// NAME.core.md and NAME.details.md and rewrites NAME.md to the core plus
// a reference; with check it writes nothing. Tokens are counted with the
// tokenizer of the repository the current folder is in, if any. With
// check, a *MismatchError says how many files would split.
func Split(ctx context.Context, files []string, check bool) ([]SplitResult, error) {
	cfg := config.Default()
	if s, err := Open(Options{}); err == nil {
		cfg = s.cfg // the repository's tokenizer, when there is one
	}
	cnt, err := tokens.New(cfg.Tokens.Tokenizer)
	if err != nil {
		return nil, err
	}
	var results []SplitResult
	would := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		p := split.PlanFile(filepath.ToSlash(file), data)
		r := SplitResult{File: file, Split: p.Split, Reason: p.Reason, Lines: p.Lines}
		if p.Split {
			if err := refuseOverwrite(p); err != nil {
				return nil, err
			}
			would++
			r.At, r.Heading = p.At, p.Heading
			r.Core, r.Details = filepath.FromSlash(p.CorePath), filepath.FromSlash(p.DetailsPath)
			r.CoreTokens, r.DetailsTokens = cnt.Count(p.Core), cnt.Count(p.Details)
			if !check {
				for _, w := range []struct{ path, text string }{{p.CorePath, p.Core}, {p.DetailsPath, p.Details}, {p.File, p.Main}} {
					if err := writeFileAtomic(filepath.FromSlash(w.path), []byte(w.text)); err != nil {
						return nil, err
					}
				}
			}
		}
		results = append(results, r)
	}
	if check && would > 0 {
		return results, &MismatchError{fmt.Sprintf("%d file(s) would be split", would)}
	}
	return results, nil
}

// refuseOverwrite stops a split that would replace a core or details file
// that is not what this split would write (a file someone wrote by hand).
func refuseOverwrite(p split.Plan) error {
	for _, w := range []struct{ path, text string }{{p.CorePath, p.Core}, {p.DetailsPath, p.Details}} {
		old, err := os.ReadFile(filepath.FromSlash(w.path))
		if err == nil && !bytes.Equal(old, []byte(w.text)) {
			return fmt.Errorf("%s: %s already exists with other content; move it away before splitting", p.File, w.path)
		}
	}
	return nil
}
