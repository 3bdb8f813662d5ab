package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/layers/agent/memory"
)

func cmdMemory() *cli.Command {
	return &cli.Command{
		Name:  "memory",
		Usage: "keep notes across sessions and find the ones similar to a task",
		UsageText: "git speed memory add TEXT [--tag T]... [--session ID]\n" +
			"git speed memory search QUERY [--top N] [--json]\n" +
			"git speed memory list [--json]\n" +
			"git speed memory forget ID",
		Description: "Memories live in <git-common-dir>/speed/memories.jsonl. search ranks them by BM25 over\n" +
			"words and identifier parts (camelCase, snake_case), or by dense cosine when speed.toml's\n" +
			"agent.embed_command names a command that reads a text on stdin and prints a JSON array.",
		Subcommands: []*cli.Command{
			{
				Name: "add", Usage: "store a memory", ArgsUsage: "TEXT",
				Flags: []cli.Flag{&cli.StringSliceFlag{Name: "tag", Usage: "a tag (repeatable)"}, &cli.StringFlag{Name: "session", Usage: "the session it comes from"}, jsonFlag},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usagef("memory add needs TEXT, got %d argument(s)", c.NArg())
					}
					e, s, err := openMemories(c)
					if err != nil {
						return err
					}
					// Memories store no secret.
					text, err := e.redact("", c.Args().First())
					if err != nil {
						return err
					}
					m, err := s.Add(text, c.StringSlice("tag"), c.String("session"))
					if err != nil {
						return err
					}
					if c.Bool("json") {
						return printJSON(e.stdout, m)
					}
					_, err = fmt.Fprintln(e.stdout, m.ID)
					return err
				},
			},
			{
				Name: "search", Usage: "the memories most similar to QUERY, with scores", ArgsUsage: "QUERY",
				Flags: []cli.Flag{&cli.IntFlag{Name: "top", Usage: "how many (default agent.memory_top)"}, jsonFlag},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usagef("memory search needs QUERY, got %d argument(s)", c.NArg())
					}
					e, s, err := openMemories(c)
					if err != nil {
						return err
					}
					top := e.cfg.Agent.MemoryTop
					if c.IsSet("top") {
						if top = c.Int("top"); top <= 0 {
							return usagef("--top must be positive, got %d", top)
						}
					}
					hits, method, err := e.searchMemories(s, c.Args().First(), top)
					if err != nil {
						return err
					}
					if err := e.redactAll(&hits); err != nil {
						return err
					}
					if c.Bool("json") {
						if hits == nil {
							hits = []memory.Hit{}
						}
						return printJSON(e.stdout, map[string]any{"method": method, "hits": hits})
					}
					var b strings.Builder
					for _, h := range hits {
						fmt.Fprintf(&b, "%s\t%.4f\t%s\n", h.ID, h.Score, oneLineText(h.Text))
					}
					_, err = fmt.Fprint(e.stdout, b.String())
					return err
				},
			},
			{
				Name: "list", Usage: "every memory, oldest first",
				Flags: []cli.Flag{jsonFlag},
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					e, s, err := openMemories(c)
					if err != nil {
						return err
					}
					ms, warns, err := s.List()
					if err != nil {
						return err
					}
					if err := e.redactAll(&ms); err != nil {
						return err
					}
					warnAll(e, warns)
					if c.Bool("json") {
						if ms == nil {
							ms = []memory.Memory{}
						}
						return printJSON(e.stdout, ms)
					}
					var b strings.Builder
					for _, m := range ms {
						fmt.Fprintf(&b, "%s\t%s\n", m.ID, oneLineText(m.Text))
					}
					_, err = fmt.Fprint(e.stdout, b.String())
					return err
				},
			},
			{
				Name: "forget", Usage: "remove a memory from lists and searches", ArgsUsage: "ID",
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usagef("memory forget needs ID, got %d argument(s)", c.NArg())
					}
					e, s, err := openMemories(c)
					if err != nil {
						return err
					}
					if err := s.Forget(c.Args().First()); err != nil {
						return err
					}
					fmt.Fprintf(e.stderr, "git-speed: forgot %s\n", c.Args().First())
					return nil
				},
			},
		},
	}
}

func openMemories(c *cli.Context) (*env, *memory.Store, error) {
	e, err := openEnv(c)
	if err != nil {
		return nil, nil, err
	}
	return e, &memory.Store{Dir: e.agentDir(""), Now: now}, nil
}

// searchMemories runs a search with the model speed.toml chooses, warning
// about unreadable lines of the store.
func (e *env) searchMemories(s *memory.Store, query string, top int) ([]memory.Hit, string, error) {
	ms, warns, err := s.List()
	if err != nil {
		return nil, "", err
	}
	warnAll(e, warns)
	o := memory.SearchOptions{Top: top}
	if cmd := e.cfg.Agent.EmbedCommand; len(cmd) > 0 {
		o.Embed = embedder(cmd)
	}
	hits, err := memory.Search(ms, query, o)
	return hits, o.Method(), err
}

// embedder runs cmd with a text on stdin and reads a JSON array of numbers
// from its stdout; the same text is embedded once per run.
func embedder(cmd []string) func(string) ([]float64, error) {
	cache := map[string][]float64{}
	return func(text string) ([]float64, error) {
		if v, ok := cache[text]; ok {
			return v, nil
		}
		x := exec.Command(cmd[0], cmd[1:]...)
		x.Stdin = strings.NewReader(text)
		var out, errb bytes.Buffer
		x.Stdout, x.Stderr = &out, &errb
		if err := x.Run(); err != nil {
			msg := strings.TrimSpace(errb.String())
			if msg != "" {
				msg = ": " + strings.SplitN(msg, "\n", 2)[0]
			}
			return nil, fmt.Errorf("agent.embed_command %s failed (%v)%s", cmd[0], err, msg)
		}
		var v []float64
		if err := json.Unmarshal(out.Bytes(), &v); err != nil || len(v) == 0 {
			return nil, fmt.Errorf("agent.embed_command %s printed no JSON array of numbers", cmd[0])
		}
		cache[text] = v
		return v, nil
	}
}

func oneLineText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		r := []rune(s)
		if len(r) > 120 {
			s = string(r[:120]) + "…"
		}
	}
	return s
}
