// Package config owns speed.toml: its schema, the default of every key,
// strict decoding (an unknown key is an error naming the key and line) and
// validation, plus the digests of the parts of it that stored artifacts
// depend on.
package config

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/git-speed/git-speed/internal/pathglob"
	"github.com/pelletier/go-toml/v2"
	"github.com/zeebo/blake3"

	"github.com/git-speed/git-speed/internal/redact"
)

// FileName is the name of the config file at the top of the work tree.
const FileName = "speed.toml"

// Stages that have a budget and a template.
var Stages = []string{"architect", "verifier", "developer", "reviewer", "coherence", "debugger"}

// Config is the whole of speed.toml.
type Config struct {
	Index  Index  `toml:"index"`
	Tokens Tokens `toml:"tokens"`
	Budget Budget `toml:"budget"`
	Scope  Scope  `toml:"scope"`
	Rules  Rules  `toml:"rules"`
	Map    Map    `toml:"map"`
	Hooks  Hooks  `toml:"hooks"`
	Store  Store  `toml:"store"`
	Agent  Agent  `toml:"agent"` // the agent's own context (agent.go)
	Redact Redact `toml:"redact"`
}

// Redact configures the redaction of secrets (package redact): patterns
// added to the built-in rules and paths never redacted.
type Redact struct {
	Patterns []RedactPattern `toml:"patterns"` // extra rules
	Allow    []string        `toml:"allow"`    // globs of paths never redacted (fixtures of fake keys)
}

// RedactPattern is one extra redaction rule: what matches Regex (its first
// capture group when it has one) shows as ***REDACTED(Name)***.
type RedactPattern struct {
	Name  string `toml:"name"`
	Regex string `toml:"regex"`
}

// Index configures Layer 1 (the project map and per-file facts).
type Index struct {
	MaxFileBytes int64    `toml:"max_file_bytes"` // larger files are listed, flagged too_large, not read
	Ignore       []string `toml:"ignore"`         // globs (internal/pathglob: "*.pb.go", "gen/**", "a/**/b.go")
	Generated    string   `toml:"generated"`      // "skip" (listed, no facts) or "parse"
	Vendored     string   `toml:"vendored"`       // "skip" or "parse"
	Output       string   `toml:"output"`         // build output, caches, virtualenvs: "skip" (listed, no facts, out of maps and scope) or "parse"
	Languages    []string `toml:"languages"`      // extract only these; empty means every supported language
	ParseTimeout Duration `toml:"parse_timeout"`  // per file
	Workers      int      `toml:"workers"`        // 0 means one per core
}

// Tokens chooses how tokens are counted.
type Tokens struct {
	Tokenizer string `toml:"tokenizer"` // o200k, cl100k or chars4
}

// Budget sets the total tokens per stage and the dimension shares.
type Budget struct {
	Architect int    `toml:"architect"`
	Verifier  int    `toml:"verifier"`
	Developer int    `toml:"developer"`
	Reviewer  int    `toml:"reviewer"`
	Coherence int    `toml:"coherence"`
	Debugger  int    `toml:"debugger"`
	Shares    Shares `toml:"shares"`
}

// Shares split a stage's total across the budget dimensions; they add to 1.
type Shares struct {
	CodeContext float64 `toml:"code_context"`
	TaskContext float64 `toml:"task_context"`
	SpecContext float64 `toml:"spec_context"`
	Reserve     float64 `toml:"reserve"`
}

// Scope configures the Layer 2 graph walk.
type Scope struct {
	MaxHops       int  `toml:"max_hops"`        // distances beyond this are dropped
	FullLineLimit int  `toml:"full_line_limit"` // 1-hop files longer than this come as skeletons
	FlowUnused    bool `toml:"flow_unused"`     // unused task/spec share flows to code_context
	// Policy is the order in which the budget is filled and cut: "value"
	// (the default: 1-hop full text and 2-hop skeletons weighed by
	// relevance per token, budget left over buys more full text) or
	// "seed" (SPEED's order: never cut distance 0, drop 2-hop first,
	// downgrade large 1-hop files to skeletons, truncate the most distant
	// skeletons last; no full text beyond the plan).
	Policy string `toml:"policy"`
	// FallbackToFull: when scoping or alignment fails for a task, render
	// still gives a prompt of the task and its files in full, saying what
	// failed; false makes the failure stop the command.
	FallbackToFull bool `toml:"fallback_to_full"`
}

// Rules configures the security rules (layers/rules) that developer and
// reviewer prompts carry as constraints.
type Rules struct {
	Enabled bool    `toml:"enabled"`
	Share   float64 `toml:"share"` // of the stage's task_context tokens the rules summary may use
}

// Map configures `git speed map`.
type Map struct {
	Budget int `toml:"budget"` // tokens when --budget is not given
}

// Hooks configures the post-checkout and post-merge hooks.
type Hooks struct {
	Timeout Duration `toml:"timeout"` // an index run by a hook is stopped after this
}

// Store configures refs/speed.
type Store struct {
	Keep int `toml:"keep"` // gc keeps this many most recent trees no branch or tag reaches
}

// Default returns the configuration used for every key speed.toml omits.
func Default() Config {
	return Config{
		Index: Index{
			MaxFileBytes: 1 << 20,
			Ignore:       []string{},
			Generated:    "skip",
			Vendored:     "skip",
			Output:       "skip",
			Languages:    []string{},
			ParseTimeout: Duration(10 * time.Second),
		},
		Tokens: Tokens{Tokenizer: "o200k"},
		Budget: Budget{
			Architect: 48000, Verifier: 24000, Developer: 32000,
			Reviewer: 24000, Coherence: 24000, Debugger: 32000,
			Shares: Shares{CodeContext: 0.60, TaskContext: 0.15, SpecContext: 0.15, Reserve: 0.10},
		},
		Scope:  Scope{MaxHops: 2, FullLineLimit: 2000, FlowUnused: true, FallbackToFull: true, Policy: "value"},
		Rules:  Rules{Enabled: true, Share: 0.30},
		Map:    Map{Budget: 4096},
		Hooks:  Hooks{Timeout: Duration(20 * time.Second)},
		Store:  Store{Keep: 5},
		Agent:  defaultAgent(),
		Redact: Redact{Patterns: []RedactPattern{}, Allow: []string{}},
	}
}

// StageBudget returns the total tokens of stage, or an error naming it.
func (c *Config) StageBudget(stage string) (int, error) {
	switch stage {
	case "architect":
		return c.Budget.Architect, nil
	case "verifier":
		return c.Budget.Verifier, nil
	case "developer":
		return c.Budget.Developer, nil
	case "reviewer":
		return c.Budget.Reviewer, nil
	case "coherence":
		return c.Budget.Coherence, nil
	case "debugger":
		return c.Budget.Debugger, nil
	}
	return 0, fmt.Errorf("unknown stage %q (want one of %s)", stage, strings.Join(Stages, ", "))
}

// Error is a problem in a config file, with the place it was found.
type Error struct {
	File string
	Line int    // 0 when unknown
	Key  string // dotted key, "" when unknown
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		fmt.Fprintf(&b, "key %s: ", e.Key)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Load reads file (a speed.toml) over the defaults. A missing file gives
// the defaults and no error.
func Load(file string) (Config, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return Config{}, &Error{File: file, Msg: err.Error()}
	}
	return Parse(file, data)
}

// Parse decodes data strictly over the defaults and validates the result;
// name is the file name used in errors.
func Parse(name string, data []byte) (Config, error) {
	c := Default()
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		var sm *toml.StrictMissingError
		if errors.As(err, &sm) && len(sm.Errors) > 0 {
			e := sm.Errors[0]
			row, _ := e.Position()
			return Config{}, &Error{File: name, Line: row, Key: strings.Join(e.Key(), "."), Msg: "unknown key"}
		}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, _ := de.Position()
			return Config{}, &Error{File: name, Line: row, Key: strings.Join(de.Key(), "."), Msg: de.Error()}
		}
		return Config{}, &Error{File: name, Msg: err.Error()}
	}
	if err := c.validate(); err != nil {
		err.File = name
		err.Line = lineOf(data, err.Key)
		return Config{}, err
	}
	if _, err := c.Redactor(); err != nil {
		var pe *redact.PatternError
		if errors.As(err, &pe) {
			key := fmt.Sprintf("redact.patterns[%d].%s", pe.Index, pe.Field)
			if pe.Field == "allow" {
				key = "redact.allow"
			}
			return Config{}, &Error{File: name, Line: redactLine(data, pe), Key: key, Msg: pe.Msg}
		}
		return Config{}, &Error{File: name, Key: "redact", Msg: err.Error()}
	}
	return c, nil
}

func (c *Config) validate() *Error {
	bad := func(key, format string, args ...any) *Error {
		return &Error{Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	if c.Index.MaxFileBytes <= 0 {
		return bad("index.max_file_bytes", "must be positive, got %d", c.Index.MaxFileBytes)
	}
	for _, g := range c.Index.Ignore {
		if err := pathglob.Valid(g); err != nil {
			return bad("index.ignore", "%v", err)
		}
	}
	for key, v := range map[string]string{"index.generated": c.Index.Generated, "index.vendored": c.Index.Vendored, "index.output": c.Index.Output} {
		if v != "skip" && v != "parse" {
			return bad(key, "must be \"skip\" or \"parse\", got %q", v)
		}
	}
	if c.Scope.Policy != "value" && c.Scope.Policy != "seed" {
		return bad("scope.policy", "must be \"value\" or \"seed\", got %q", c.Scope.Policy)
	}
	if c.Index.ParseTimeout <= 0 {
		return bad("index.parse_timeout", "must be positive")
	}
	if c.Index.Workers < 0 {
		return bad("index.workers", "must be 0 (one per core) or more, got %d", c.Index.Workers)
	}
	switch c.Tokens.Tokenizer {
	case "o200k", "cl100k", "chars4":
	default:
		return bad("tokens.tokenizer", "must be o200k, cl100k or chars4, got %q", c.Tokens.Tokenizer)
	}
	for _, s := range Stages {
		if n, _ := c.StageBudget(s); n <= 0 {
			return bad("budget."+s, "must be a positive number of tokens, got %d", n)
		}
	}
	sh := c.Budget.Shares
	for key, v := range map[string]float64{"code_context": sh.CodeContext, "task_context": sh.TaskContext, "spec_context": sh.SpecContext, "reserve": sh.Reserve} {
		if v < 0 || v > 1 {
			return bad("budget.shares."+key, "must be between 0 and 1, got %g", v)
		}
	}
	if sum := sh.CodeContext + sh.TaskContext + sh.SpecContext + sh.Reserve; sum < 0.999 || sum > 1.001 {
		return bad("budget.shares", "shares must add up to 1, they add up to %g", sum)
	}
	if c.Scope.MaxHops < 0 || c.Scope.MaxHops > 2 {
		return bad("scope.max_hops", "must be 0, 1 or 2, got %d", c.Scope.MaxHops)
	}
	if c.Scope.FullLineLimit <= 0 {
		return bad("scope.full_line_limit", "must be positive, got %d", c.Scope.FullLineLimit)
	}
	if c.Rules.Share < 0 || c.Rules.Share > 1 {
		return bad("rules.share", "must be between 0 and 1, got %g", c.Rules.Share)
	}
	if c.Map.Budget <= 0 {
		return bad("map.budget", "must be positive, got %d", c.Map.Budget)
	}
	if c.Hooks.Timeout <= 0 {
		return bad("hooks.timeout", "must be positive")
	}
	if c.Store.Keep < 0 {
		return bad("store.keep", "must be 0 or more, got %d", c.Store.Keep)
	}
	if err := c.Agent.validate(); err != nil {
		return err
	}
	return nil
}

// lineOf finds the line where a dotted key is set, for validation errors.
func lineOf(data []byte, key string) int {
	if key == "" {
		return 0
	}
	parts := strings.Split(key, ".")
	leaf := parts[len(parts)-1]
	table := strings.Join(parts[:len(parts)-1], ".")
	cur := ""
	for i, l := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			cur = strings.Trim(t, "[] ")
			if cur == key {
				return i + 1
			}
			continue
		}
		if cur == table {
			if k, _, ok := strings.Cut(t, "="); ok && strings.TrimSpace(k) == leaf {
				return i + 1
			}
		}
	}
	return 0
}

// Redactor returns the redaction layer speed.toml configures: the
// built-in rules, [redact] patterns and allow-list.
func (c *Config) Redactor() (*redact.Redactor, error) {
	if len(c.Redact.Patterns) == 0 && len(c.Redact.Allow) == 0 {
		return redact.Default(), nil
	}
	key := fmt.Sprintf("%q\x00%q", c.Redact.Patterns, c.Redact.Allow)
	if r, ok := redactors.Load(key); ok {
		return r.(*redact.Redactor), nil
	}
	ps := make([]redact.Pattern, len(c.Redact.Patterns))
	for i, p := range c.Redact.Patterns {
		ps[i] = redact.Pattern{Name: p.Name, Regex: p.Regex}
	}
	r, err := redact.New(ps, c.Redact.Allow)
	if err != nil {
		return nil, err
	}
	redactors.Store(key, r)
	return r, nil
}

// redactors caches Redactor by its settings: facts keys ask for its digest
// once per file.
var redactors sync.Map

// redactLine finds the line of the pattern or glob pe names: the
// Index-th name or regex key under [redact] / [[redact.patterns]], or the
// allow key.
func redactLine(data []byte, pe *redact.PatternError) int {
	in, seen := false, -1
	for i, l := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			in = strings.HasPrefix(strings.Trim(t, "[] "), "redact")
			continue
		}
		if !in {
			continue
		}
		if pe.Field == "allow" {
			if k, _, ok := strings.Cut(t, "="); ok && strings.TrimSpace(k) == "allow" {
				return i + 1
			}
			continue
		}
		// Count the field's keys, inline tables included.
		for rest := t; ; {
			j := strings.Index(rest, pe.Field)
			if j < 0 {
				break
			}
			after := strings.TrimLeft(rest[j+len(pe.Field):], " \t")
			if strings.HasPrefix(after, "=") && (j == 0 || strings.ContainsRune("{, \t", rune(rest[j-1]))) {
				seen++
				if seen == pe.Index {
					return i + 1
				}
			}
			rest = rest[j+len(pe.Field):]
		}
	}
	return 0
}

// Duration is a time.Duration written as a string such as "10s" in TOML.
type Duration time.Duration

// UnmarshalText parses "10s", "1m30s" and the like.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("bad duration %q (write it like \"10s\" or \"1m\")", b)
	}
	*d = Duration(v)
	return nil
}

// MarshalText writes the duration as Go does ("10s").
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// D returns the value as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// FactsDigest is the digest of every setting that changes per-blob facts.
// It is part of each facts key, so changing one of these settings makes
// files be parsed again, and changing any other setting does not.
func (c *Config) FactsDigest() string {
	// It is asked for once per file indexed: blake3.Sum256 of a short
	// text allocates no hasher.
	b := []byte("facts-v1\x00")
	// Facts store redacted text: other rules give other facts.
	if r, err := c.Redactor(); err == nil {
		b = fmt.Appendf(b, "redact\x00%s\x00", r.Digest())
	} else {
		b = fmt.Appendf(b, "redact-error\x00%s\x00", err)
	}
	sum := blake3.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// TreeDigest is the digest of every setting that changes per-tree
// artifacts (the project map and the CSG), beyond the facts.
func (c *Config) TreeDigest() string {
	h := blake3.New()
	ig := append([]string(nil), c.Index.Ignore...)
	sort.Strings(ig)
	langs := append([]string(nil), c.Index.Languages...)
	sort.Strings(langs)
	fmt.Fprintf(h, "tree-v2\x00%d\x00%q\x00%s\x00%s\x00%s\x00%q\x00", c.Index.MaxFileBytes, ig, c.Index.Generated, c.Index.Vendored, c.Index.Output, langs)
	// A tree's map names the facts keys of its files, so settings that
	// change facts (redaction rules) make it another index: a tree indexed
	// under older rules never serves their facts.
	fmt.Fprintf(h, "facts\x00%s\x00", c.FactsDigest())
	return fmt.Sprintf("%x", h.Sum(nil))[:16]
}
