package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/split"
)

func cmdSplit() *cli.Command {
	return &cli.Command{
		Name:      "split",
		Usage:     "split long agent command files into a core and details",
		UsageText: "git speed split FILE… [--check] [--json]",
		Description: fmt.Sprintf("For agent command files such as .claude/commands/*.md: a file of %d lines or more is split\n"+
			"at the first # or ## heading at or after %d %% of its lines (at least %d lines from either end)\n"+
			"into NAME.core.md and NAME.details.md (with a header saying what it is), and NAME.md is\n"+
			"rewritten to the core plus a <!-- SPLIT: … --> reference. Running it again changes nothing.\n"+
			"--check reports what would split, writes nothing and exits 3 when something would.",
			split.MinLines, int(split.CoreShare*100), split.Margin),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "check", Usage: "report what would split; write nothing"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("split needs at least one FILE")
			}
			cfg := config.Default()
			if e, err := openEnv(c); err == nil {
				cfg = e.cfg // the repository's tokenizer, when there is one
			}
			cnt, err := tokens.New(cfg.Tokens.Tokenizer)
			if err != nil {
				return err
			}
			check := c.Bool("check")
			type result struct {
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
			var results []result
			would := 0
			for _, file := range c.Args().Slice() {
				data, err := os.ReadFile(file)
				if err != nil {
					return fmt.Errorf("%s: %v", file, err)
				}
				p := split.PlanFile(filepath.ToSlash(file), data)
				r := result{File: file, Split: p.Split, Reason: p.Reason, Lines: p.Lines}
				if p.Split {
					if err := refuseOverwrite(p); err != nil {
						return err
					}
					would++
					r.At, r.Heading = p.At, p.Heading
					r.Core, r.Details = filepath.FromSlash(p.CorePath), filepath.FromSlash(p.DetailsPath)
					r.CoreTokens, r.DetailsTokens = cnt.Count(p.Core), cnt.Count(p.Details)
					if !check {
						for _, w := range []struct{ path, text string }{{p.CorePath, p.Core}, {p.DetailsPath, p.Details}, {p.File, p.Main}} {
							if err := writeFileAtomic(filepath.FromSlash(w.path), []byte(w.text)); err != nil {
								return err
							}
						}
					}
				}
				results = append(results, r)
			}
			if c.Bool("json") {
				if err := printJSON(c.App.Writer, map[string]any{"check": check, "files": results}); err != nil {
					return err
				}
			} else {
				for _, r := range results {
					if !r.Split {
						fmt.Fprintf(c.App.Writer, "unchanged\t%s\t%s\n", r.File, r.Reason)
						continue
					}
					verb := "split"
					if check {
						verb = "would split"
					}
					fmt.Fprintf(c.App.Writer, "%s\t%s\tat line %d of %d (%s): core %d tokens in %s, details %d tokens in %s\n",
						verb, r.File, r.At, r.Lines, r.Heading, r.CoreTokens, r.Core, r.DetailsTokens, r.Details)
				}
			}
			if check && would > 0 {
				return &exitError{code: exitMismatch, msg: fmt.Sprintf("%d file(s) would be split", would)}
			}
			return nil
		},
	}
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
