package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"unicode"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/tokens"
	"github.com/git-speed/git-speed/layers/agent"
	"github.com/git-speed/git-speed/layers/agent/memory"
	"github.com/git-speed/git-speed/layers/agent/session"
)

func cmdContext() *cli.Command {
	return &cli.Command{
		Name:      "context",
		Usage:     "assemble a task's context: instructions, session window, similar memories, repo map",
		UsageText: "git speed context TASK-TEXT [--budget N] [--session ID] [--file PATH]... [--no-map] [--json] [--rev R]",
		Description: "Prints the task, the instruction files (global, above the repository, its root, the\n" +
			"folders of --file paths; nearest last), the session window (--session), the memories\n" +
			"most similar to the task and a repo map focused by the task's words and files, each within\n" +
			"its share of the budget (speed.toml [agent.shares]; the map takes the rest, at most\n" +
			"map.budget). The\n" +
			"per-section token report goes to stderr (with --json, into the JSON). TASK-TEXT - reads\n" +
			"standard input.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "budget", Usage: "total tokens (default agent.context_budget)"},
			sessionFlag,
			&cli.StringSliceFlag{Name: "file", Usage: "a file the task is about (repeatable): its folders' instruction files, the map's focus"},
			&cli.BoolFlag{Name: "no-map", Usage: "leave the repo map out (no index needed)"},
			jsonFlag, revFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("context needs TASK-TEXT (in quotes, or - for stdin), got %d argument(s)", c.NArg())
			}
			task := c.Args().First()
			if task == "-" {
				b, err := io.ReadAll(os.Stdin)
				if err != nil {
					return err
				}
				task = string(b)
			}
			if strings.TrimSpace(task) == "" {
				return usagef("context needs a non-empty TASK-TEXT")
			}
			e, err := openEnv(c)
			if err != nil {
				return err
			}
			o := contextOptions{task: task, budget: e.cfg.Agent.ContextBudget, session: c.String("session"), rev: c.String("rev"), noMap: c.Bool("no-map")}
			if c.IsSet("budget") {
				if o.budget = c.Int("budget"); o.budget <= 0 {
					return usagef("--budget must be a positive number of tokens, got %d", o.budget)
				}
			}
			if o.files, err = repoPaths(e, c.StringSlice("file")); err != nil {
				return err
			}
			res, err := e.buildContext(o)
			if err != nil {
				return err
			}
			// Instruction files, session events and memories are read
			// outside the index: the result goes through the redaction layer.
			if err := e.redactAll(res); err != nil {
				return err
			}
			warnAll(e, res.Warnings)
			if c.Bool("json") {
				return printJSON(e.stdout, res)
			}
			for _, l := range strings.SplitAfter(strings.TrimSuffix(res.Report.Render(), "\n"), "\n") {
				fmt.Fprintf(e.stderr, "git-speed: %s", strings.TrimSuffix(l, "\n")+"\n")
			}
			_, err = fmt.Fprint(e.stdout, res.Text)
			return err
		},
	}
}

type contextOptions struct {
	task    string
	budget  int
	session string
	files   []string
	rev     string
	noMap   bool
}

// buildContext gathers the inputs of agent.Assemble: what needs the git
// dir, the index or the graph is read here. A part that cannot be read
// (no index, no commits) is a warning; the rest is still built.
func (e *env) buildContext(o contextOptions) (*agent.Result, error) {
	s, err := e.sessionStore()
	if err != nil {
		return nil, err
	}
	return e.buildContextIn(o, s, &memory.Store{Dir: e.agentDir(""), Now: now})
}

// buildContextIn is buildContext with the session and memory stores given.
func (e *env) buildContextIn(o contextOptions, s *session.Store, ms *memory.Store) (*agent.Result, error) {
	cnt, err := e.counter()
	if err != nil {
		return nil, err
	}
	a := e.cfg.Agent
	io := e.instructionOptions(o.files, 0, true, cnt.Count)
	ao := agent.Options{
		Task: o.task, Budget: o.budget, Count: cnt.Count, Tokenizer: cnt.Name(),
		Shares:       agent.Shares{Instructions: a.Shares.Instructions, Memories: a.Shares.Memories, Session: a.Shares.Session},
		Instructions: &io,
	}
	var warns []string
	if ao.Memories, ao.MemoryMethod, err = e.searchMemories(ms, o.task, a.MemoryTop); err != nil {
		return nil, err
	}
	if o.session != "" {
		l, err := s.ReadWindow(o.session)
		if err != nil {
			return nil, err
		}
		warns = append(warns, l.Warnings...)
		ao.Window = l.Window(a.WindowEvents)
	}
	if !o.noMap {
		ao.RepoMap, ao.MapBudget = e.contextMap(o, cnt, &warns), e.cfg.Map.Budget
	}
	res, err := agent.Assemble(ao)
	if err != nil {
		return nil, err
	}
	res.Warnings = append(warns, res.Warnings...)
	return res, nil
}

// pathWords are the words of a task text that look like paths.
func pathWords(text string) []string {
	var out []string
	for _, w := range strings.Fields(text) {
		w = strings.Trim(w, "`'\"()[],;:")
		if strings.ContainsAny(w, "/.") && !strings.HasSuffix(w, ".") {
			out = append(out, strings.TrimPrefix(w, "./"))
		}
	}
	return out
}

// mentionWords are the words of a task text the map's ranking looks for:
// identifiers as written, and words of four letters or more.
func mentionWords(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		if len(w) < 4 || seen[w] || commonWords[strings.ToLower(w)] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// commonWords would match paths and names by accident.
var commonWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields("make with that this from into when then than have does should would could every each them they " +
		"what where which their there about after before also only some more most other such like just over under sure used uses using " +
		"file files code change changes need needs keep want work works please") {
		commonWords[w] = true
	}
}

// contextMap returns the repo map section's renderer: a stored map when
// one was rendered for the same recipe, else the map command's code path
// (load the index, rank by the task's files and words, render). A tree
// that cannot be indexed is a warning and an empty map.
func (e *env) contextMap(o contextOptions, cnt tokens.Counter, warns *[]string) func(int) (string, error) {
	focus := append(append([]string(nil), o.files...), pathWords(o.task)...)
	mentions := mentionWords(o.task)
	return func(budget int) (string, error) {
		_, tree, err := e.repo.Resolve(o.rev)
		if err != nil {
			*warns = append(*warns, fmt.Sprintf("no repo map: %v", err))
			return "", nil
		}
		key := mapCacheKey(tree, e.cfg.TreeDigest(), cnt.Name(), budget, focus, mentions)
		if m, ok := e.cachedMap(key); ok {
			return m, nil
		}
		// Loading the index allocates much that lives until the map is
		// rendered: collect less often meanwhile, as index does.
		defer debug.SetGCPercent(debug.SetGCPercent(400))
		w, err := loadWorld(e, o.rev)
		if err == nil {
			defer w.Close()
		}
		if err != nil {
			*warns = append(*warns, fmt.Sprintf("no repo map: %v", err))
			return "", nil
		}
		m, err := repoMap(w, existing(w.Graph().Index, focus), mentions, budget, cnt.Count)
		if err == nil {
			e.storeMap(key, m)
		}
		return m, err
	}
}
