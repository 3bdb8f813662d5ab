package scope

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/zeebo/blake3"

	"github.com/git-speed/git-speed/internal/redact"

	"github.com/git-speed/git-speed/layers/feature"
)

// Names of the artifacts in a task's context folder.
const (
	ManifestFile = "manifest.json"
	BudgetFile   = "budget.json"
	MaterialFile = "material.json"
)

// Manifest is manifest.json: every candidate file, with what was done with
// it. Files are sorted by distance, then path. Files beyond max_hops are
// listed up to 50, most relevant first; Unlisted counts the rest.
type Manifest struct {
	Feature      string      `json:"feature"`
	Task         string      `json:"task"`
	Stage        string      `json:"stage"`
	Tree         string      `json:"tree"`
	Tokenizer    string      `json:"tokenizer"`
	BudgetTokens int         `json:"budget_tokens"`
	Files        []FileEntry `json:"files"`
	Unlisted     int         `json:"unlisted_beyond_max_hops,omitempty"`
}

// FileEntry is one candidate of the manifest. Tokens is what the delivered
// tier costs (0 when dropped).
type FileEntry struct {
	Path      string   `json:"path"`
	Distance  int      `json:"distance"`
	Tier      string   `json:"tier"`
	Tokens    int      `json:"tokens"`
	Reason    string   `json:"reason"`
	Relevance float64  `json:"relevance"`
	Signals   []string `json:"signals,omitempty"` // what made it a candidate (Signals)
	Role      string   `json:"role,omitempty"`    // distance 0: create, modify or read
}

// Budget is budget.json.
type Budget struct {
	Feature         string     `json:"feature"`
	Task            string     `json:"task"`
	Stage           string     `json:"stage"`
	Tree            string     `json:"tree"`
	Total           int        `json:"total"`
	Dimensions      Dimensions `json:"dimensions"`
	Flows           []Flow     `json:"flows"`
	WithinBudget    bool       `json:"within_budget"`
	RemainingTokens int        `json:"remaining_tokens"`
	OverBudget      string     `json:"over_budget,omitempty"`
	// OutsideBudget: tokens of the task's own files given beyond the budget
	// because they alone exceed code_context (their neighbours still fill it).
	OutsideBudget int      `json:"outside_budget,omitempty"`
	Cuts          []Cut    `json:"cuts"`
	Focus         []Region `json:"focus,omitempty"` // bodies shown inside skeletons, and why
	// Places: for each file the task creates, the place it will live in
	// as delivered (create.go).
	Places     []Place           `json:"places,omitempty"`
	Inputs     map[string]string `json:"inputs"` // encoding/json sorts map keys
	Digest     string            `json:"digest"`
	Redactions Redactions        `json:"redactions"`
}

// Redactions counts the secrets material.json shows as ***REDACTED(rule)***.
type Redactions struct {
	Count  int            `json:"count"`
	ByRule map[string]int `json:"by_rule"` // encoding/json sorts map keys
}

// Dimensions are the budget's parts. Code's limit includes what flowed to it.
type Dimensions struct {
	Code    Dimension `json:"code_context"`
	Task    Dimension `json:"task_context"`
	Spec    Dimension `json:"spec_context"`
	Reserve Reserve   `json:"reserve"`
}

// Dimension is one budget dimension.
type Dimension struct {
	Limit int `json:"limit"`
	Used  int `json:"used"`
}

// Reserve is the headroom left for the agent's own tool output.
type Reserve struct {
	Limit int `json:"limit"`
}

// Flow records unused tokens of one dimension given to another.
type Flow struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Tokens int    `json:"tokens"`
}

// Cut is one downgrade or removal, with the tokens it saved. Estimated is
// set when the saved tokens of material never read were estimated from the
// project map rather than counted.
type Cut struct {
	Path        string `json:"path"`
	From        string `json:"from"`
	To          string `json:"to"`
	TokensSaved int    `json:"tokens_saved"`
	Reason      string `json:"reason"`
	Dimension   string `json:"dimension"`
	Estimated   bool   `json:"estimated,omitempty"`
}

// Material is material.json: what Layer 3 renders.
type Material struct {
	Task           TaskInfo        `json:"task"`
	Concerns       []Concern       `json:"concerns"`
	Decisions      []Decision      `json:"decisions"`
	Spec           []SpecItem      `json:"spec"`
	SpecParagraphs []SpecParagraph `json:"spec_paragraphs"`
	Files          []File          `json:"files"`
}

// TaskInfo is the task definition as scoped.
type TaskInfo struct {
	ID           string   `json:"id"`
	Title        string   `json:"title"`
	Description  string   `json:"description"`
	Status       string   `json:"status"`
	FilesTouched []string `json:"files_touched"`
	DependsOn    []string `json:"depends_on"`
	Acceptance   []string `json:"acceptance"`
	Requirements []string `json:"requirements"`
	Base         string   `json:"base"`
	Assumptions  []string `json:"assumptions"`
	// The task's files by role, when it names any beyond files_touched:
	// Create includes the files_touched paths absent from the tree.
	Create []string `json:"create,omitempty"`
	Modify []string `json:"modify,omitempty"`
	Read   []string `json:"read,omitempty"`
}

// Concern is a cross-cutting concern the task is given: the feature's
// (Source "feature") or one a task recorded (Source its id).
type Concern struct {
	Source string `json:"source"`
	Text   string `json:"text"`
}

// Decision is a decision of the task or of a done task upstream.
type Decision struct {
	Task    string   `json:"task"`
	Summary string   `json:"summary"`
	Detail  string   `json:"detail"`
	Files   []string `json:"files"`
	path    string
}

// SpecItem is a requirement narrowed to the task, with its alignment.
type SpecItem struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Text     string   `json:"text"`
	Status   string   `json:"status"`
	Evidence []string `json:"evidence"`
	Reason   string   `json:"reason"`
}

// SpecParagraph is design text chosen by keyword.
type SpecParagraph struct {
	Heading string `json:"heading"`
	Text    string `json:"text"`
	line    int
	why     string
}

// File is one delivered file. Start and End are the source lines the
// content covers; Pointer says how to read what was left out.
type File struct {
	Path     string `json:"path"`
	Lang     string `json:"lang"`
	Distance int    `json:"distance"`
	Tier     string `json:"tier"`
	Tokens   int    `json:"tokens"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	Content  string `json:"content"`
	Pointer  string `json:"pointer"`
	Role     string `json:"role,omitempty"` // distance 0: create, modify or read
}

type decisionIn struct {
	feature.Decision
	path string
}

func decisionsOf(p string, ds []feature.Decision) []decisionIn {
	out := make([]decisionIn, len(ds))
	for i, d := range ds {
		out[i] = decisionIn{d, fmt.Sprintf("%s#decisions[%d]", p, i)}
	}
	return out
}

func (s *state) taskInfo() TaskInfo {
	t := s.task
	nn := func(x []string) []string {
		if x == nil {
			return []string{}
		}
		return x
	}
	ti := TaskInfo{ID: t.ID, Title: t.Title, Description: t.Description, Status: t.Status,
		FilesTouched: nn(t.FilesTouched), DependsOn: nn(t.DependsOn), Acceptance: nn(t.Acceptance),
		Requirements: nn(t.Requirements), Base: t.Base, Assumptions: nn(t.Assumptions)}
	if len(s.creates) > 0 || len(t.Files.Create)+len(t.Files.Modify)+len(t.Files.Read) > 0 {
		for _, p := range t.Paths() {
			switch s.roles[p] {
			case feature.RoleCreate:
				ti.Create = append(ti.Create, p)
			case feature.RoleModify:
				ti.Modify = append(ti.Modify, p)
			case feature.RoleRead:
				ti.Read = append(ti.Read, p)
			}
		}
	}
	return ti
}

// balance is step 5: limits per dimension, task and spec first, their
// unused share flowing to code, then the code fill and the cuts.
func (s *state) balance() error {
	sh := s.cfg.Budget.Shares
	T := s.total
	codeL := int(float64(T) * sh.CodeContext)
	taskL := int(float64(T) * sh.TaskContext)
	specL := int(float64(T) * sh.SpecContext)
	resL := T - codeL - taskL - specL
	if resL < 0 {
		resL = 0
	}
	taskU := s.fitTask(taskL)
	specU := s.fitSpec(specL)
	codeLimit := codeL
	var flows []Flow
	if s.cfg.Scope.FlowUnused {
		if n := taskL - taskU; n > 0 {
			flows = append(flows, Flow{From: DimTask, To: DimCode, Tokens: n})
			codeLimit += n
		}
		if n := specL - specU; n > 0 {
			flows = append(flows, Flow{From: DimSpec, To: DimCode, Tokens: n})
			codeLimit += n
		}
	}
	codeU := s.fitCode(codeLimit)
	s.fileCuts()
	b := &s.budget
	b.Total = T
	b.Dimensions = Dimensions{
		Code:    Dimension{Limit: codeLimit, Used: codeU},
		Task:    Dimension{Limit: taskL, Used: taskU},
		Spec:    Dimension{Limit: specL, Used: specU},
		Reserve: Reserve{Limit: resL},
	}
	if flows == nil {
		flows = []Flow{}
	}
	b.Flows = flows
	b.WithinBudget = codeU <= codeLimit && taskU <= taskL && specU <= specL
	b.RemainingTokens = T - resL - codeU - taskU - specU
	if taskU > taskL {
		s.warn("over budget: the task's own text needs %d tokens, task_context allows %d", taskU, taskL)
		if b.OverBudget == "" {
			b.OverBudget = fmt.Sprintf("the task's own text needs %d tokens, more than task_context's %d", taskU, taskL)
		}
	}
	return nil
}

// fileCuts records, for every candidate the hop rules planned to deliver,
// the difference between the planned and the delivered tier.
func (s *state) fileCuts() {
	inverted := s.cutUnder2Hop()
	for _, c := range s.cands {
		if c.dist == 0 || c.plan == TierDropped || c.tier == c.plan || c.extra {
			continue
		}
		planned, exact := c.full, c.fullExact
		if c.plan == TierSkeleton {
			planned, exact = c.skel, c.skelExact
			if c.skelExact && c.pointer != "" && c.tier == TierSkeleton {
				planned += s.counter.count(c.pointer)
			}
		}
		saved := planned - c.tokens
		if saved < 0 {
			saved = 0
		}
		why := c.tierWhy
		if why == "" {
			switch {
			case c.tier == TierDropped && c.dist >= 2:
				why = fmt.Sprintf("2-hop file dropped: budget full (relevance %.3g, #%d at its distance)", c.rel, c.rank)
			case c.tier == TierDropped:
				why = fmt.Sprintf("1-hop file dropped: no room even for its skeleton (relevance %.3g, #%d at its distance)", c.rel, c.rank)
			case c.tier == TierSkeleton:
				why = fmt.Sprintf("1-hop file downgraded to its skeleton: budget (relevance %.3g, #%d at its distance)", c.rel, c.rank)
			case c.tier == TierTruncated:
				why = "skeleton truncated as a last resort; " + c.pointer
			}
		}
		if d := inverted[c]; d != nil {
			why += fmt.Sprintf("; cut harder than the 2-hop %s (%s, relevance %.3g ≥ %.3g): the value policy gave its tokens more relevance per token ([scope] policy = \"seed\" drops every 2-hop file first)", d.path, d.tier, d.rel, c.rel)
		}
		s.cuts = append(s.cuts, Cut{Path: c.path, From: c.plan, To: c.tier, TokensSaved: saved, Reason: why, Dimension: DimCode, Estimated: !exact})
	}
}

// result assembles the three artifacts.
// sortStable sorts xs by less keeping the order of equal elements, as
// sort.SliceStable does, by sorting positions: a manifest's thousands of
// entries are large to move as often as a stable merge moves them.
func sortStable[T any](xs []T, less func(x, y *T) bool) {
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		x, y := &xs[order[a]], &xs[order[b]]
		if less(x, y) {
			return true
		}
		if less(y, x) {
			return false
		}
		return order[a] < order[b]
	})
	sorted := make([]T, len(xs))
	for i, k := range order {
		sorted[i] = xs[k]
	}
	copy(xs, sorted)
}

func (s *state) result() *Result {
	tree := s.w.Tree()
	r := &Result{Warnings: s.warnings}
	m := &r.Manifest
	m.Feature, m.Task, m.Stage, m.Tree, m.Tokenizer, m.BudgetTokens = s.f.Name, s.task.ID, s.stage, tree, s.counter.name(), s.total
	m.Files = []FileEntry{}
	m.Unlisted = s.unlisted
	for _, c := range s.cands {
		reason := c.why
		switch {
		case c.dist == 0:
			reason = c.planWhy
			if c.idx >= 0 {
				reason = fmt.Sprintf("%s: full, never cut (%d definitions)", s.roleKey(c), s.defCount(c.path))
			}
			if c.tier == TierTruncated {
				reason = c.tierWhy
			}
		case c.tier == c.plan:
			reason += "; " + c.planWhy
		case c.extra:
			reason += "; " + c.planWhy + "; full text added from budget left over"
		default:
			reason += fmt.Sprintf("; %s; delivered %s (a cut in budget.json)", c.planWhy, c.tier)
		}
		m.Files = append(m.Files, FileEntry{Path: c.path, Distance: c.dist, Tier: c.tier, Tokens: c.tokens, Reason: reason, Relevance: round3(c.rel), Signals: c.signalList(), Role: c.role})
	}
	sortStable(m.Files, func(x, y *FileEntry) bool {
		if x.Distance != y.Distance {
			return x.Distance < y.Distance
		}
		return x.Path < y.Path
	})

	b := s.budget
	b.Feature, b.Task, b.Stage, b.Tree = s.f.Name, s.task.ID, s.stage, tree
	b.Cuts = s.cuts
	b.Focus = s.regionsKept()
	if b.Cuts == nil {
		b.Cuts = []Cut{}
	}
	sortStable(b.Cuts, func(x, y *Cut) bool {
		if x.Dimension != y.Dimension {
			return x.Dimension < y.Dimension
		}
		return x.Path < y.Path
	})
	b.Places = s.placeRecord(b.Dimensions.Code.Limit)
	b.Inputs = s.inputs()
	b.Digest = digestOf(b.Inputs)
	r.Budget = b

	mat := &r.Material
	mat.Task = s.taskInfo()
	mat.Decisions = s.decisions
	if mat.Decisions == nil {
		mat.Decisions = []Decision{}
	}
	mat.Concerns = []Concern{}
	for _, c := range s.concerns {
		mat.Concerns = append(mat.Concerns, Concern{Source: c.Source, Text: c.Text})
	}
	mat.Spec = s.spec
	if mat.Spec == nil {
		mat.Spec = []SpecItem{}
	}
	mat.SpecParagraphs = s.paras
	if mat.SpecParagraphs == nil {
		mat.SpecParagraphs = []SpecParagraph{}
	}
	mat.Files = []File{}
	var kept []*cand
	for _, c := range s.cands {
		if c.tier != TierDropped {
			kept = append(kept, c)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool {
		if kept[i].dist != kept[j].dist {
			return kept[i].dist < kept[j].dist
		}
		if kept[i].dist == 0 {
			return false // files_touched order
		}
		if kept[i].rel != kept[j].rel {
			return kept[i].rel > kept[j].rel
		}
		return kept[i].path < kept[j].path
	})
	for _, c := range kept {
		f := File{Path: c.path, Lang: c.entry.Lang, Distance: c.dist, Tier: c.tier, Tokens: c.tokens, Content: c.content, Pointer: c.pointer, Start: c.start, End: c.end, Role: c.role}
		if c.tier != TierTruncated {
			f.Start, f.End = 1, c.entry.Lines
			if f.End == 0 {
				f.End = strings.Count(c.fullText, "\n")
			}
		}
		mat.Files = append(mat.Files, f)
	}
	r.Budget.Redactions = s.redactMaterial(mat)
	return r
}

// redactMaterial passes every text of mat through the redaction layer
// (file texts were redacted when read; task and spec texts are redacted
// here) and counts the redactions it holds.
func (s *state) redactMaterial(mat *Material) Redactions {
	counts := redact.Counts{}
	clean := func(p string, text *string) {
		*text, _ = s.red.Text(p, *text)
		counts.Add(redact.CountMarks(*text))
	}
	t := &mat.Task
	clean("", &t.Title)
	clean("", &t.Description)
	t.Acceptance = append([]string{}, t.Acceptance...) // the feature's own slice stays as loaded
	for i := range t.Acceptance {
		clean("", &t.Acceptance[i])
	}
	t.Assumptions = append([]string{}, t.Assumptions...)
	for i := range t.Assumptions {
		clean("", &t.Assumptions[i])
	}
	for i := range mat.Concerns {
		clean("", &mat.Concerns[i].Text)
	}
	for i := range mat.Decisions {
		clean("", &mat.Decisions[i].Summary)
		clean("", &mat.Decisions[i].Detail)
	}
	for i := range mat.Spec {
		clean("", &mat.Spec[i].Title)
		clean("", &mat.Spec[i].Text)
	}
	for i := range mat.SpecParagraphs {
		clean("", &mat.SpecParagraphs[i].Heading)
		clean("", &mat.SpecParagraphs[i].Text)
	}
	for i := range mat.Files {
		clean(mat.Files[i].Path, &mat.Files[i].Content)
	}
	return Redactions{Count: counts.Total(), ByRule: counts}
}

func (s *state) defCount(p string) int {
	if fc := s.facts[p]; fc != nil {
		return len(fc.Defs)
	}
	return 0
}

// inputs names every input of the artifacts with its blake3 digest.
func (s *state) inputs() map[string]string {
	h := func(b []byte) string {
		sum := blake3.Sum256(b)
		return fmt.Sprintf("%x", sum[:])
	}
	in := map[string]string{
		"scope_version": h([]byte(strconv.Itoa(Version))),
		"tree":          h([]byte(s.w.Tree())),
		"tokenizer":     h([]byte(s.counter.name())),
		"stage":         h([]byte(s.stage)),
		"budget":        h([]byte(strconv.Itoa(s.total))),
		"spec.md":       h(s.f.SpecRaw),
	}
	if s.f.FileRaw != nil {
		in[feature.FileName] = h(s.f.FileRaw)
	}
	if s.opt.ConfigRaw != nil {
		in["speed.toml"] = h(s.opt.ConfigRaw)
	} else {
		js, _ := json.Marshal(s.cfg)
		in["speed.toml"] = h(js)
	}
	in["task:"+s.task.Path] = h(s.task.Raw)
	for _, u := range s.f.Upstream(s.task.ID) {
		in["upstream:"+u.Path] = h(u.Raw)
	}
	if s.opt.NoExtras {
		in["no_extras"] = h([]byte("true"))
	}
	if s.opt.Policy != "" && s.opt.Policy != PolicyValue {
		in["policy"] = h([]byte(s.opt.Policy))
	}
	if len(s.opt.Rank) > 0 {
		js, _ := json.Marshal(s.opt.Rank)
		in["rank"] = h(js)
	}
	if len(s.coUsed) > 0 {
		in["cochange"] = h([]byte(strings.Join(s.coUsed, "\n")))
	}
	if len(s.opt.Off) > 0 {
		in["signals_off"] = h([]byte(strings.Join(s.opt.Off, ",")))
	}
	if s.opt.Align != nil {
		js, _ := json.Marshal(s.opt.Align)
		in["alignment"] = h(js)
	}
	return in
}

func digestOf(in map[string]string) string {
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	hh := blake3.New()
	for _, k := range keys {
		fmt.Fprintf(hh, "%s\x00%s\n", k, in[k])
	}
	return fmt.Sprintf("%x", hh.Sum(nil))
}

// ContextDir is the task's context folder, relative to the work tree.
func (r *Result) ContextDir() string {
	return path.Join(feature.Dir, r.Manifest.Feature, "context", "task-"+r.Manifest.Task)
}

// Encode returns the artifact called name (ManifestFile, BudgetFile or
// MaterialFile) as written: 2-space indented JSON with a final newline.
func (r *Result) Encode(name string) ([]byte, error) {
	var v any
	switch name {
	case ManifestFile:
		v = r.Manifest
	case BudgetFile:
		v = r.Budget
	case MaterialFile:
		v = r.Material
	default:
		return nil, fmt.Errorf("no artifact %q", name)
	}
	if !r.finite() {
		return encodeJSON(v) // which names the value it cannot encode
	}
	o := &jsonOut{b: make([]byte, 0, r.sizeOf(name))}
	switch name {
	case ManifestFile:
		encodeManifest(o, &r.Manifest)
	case BudgetFile:
		encodeBudget(o, &r.Budget)
	default:
		encodeMaterial(o, &r.Material)
	}
	return append(o.b, '\n'), nil
}

// sizeOf is about the size of an artifact once written, a little more
// rather than less: its buffer is made once, not grown by copies.
func (r *Result) sizeOf(name string) int {
	n := 4 << 10
	switch name {
	case ManifestFile:
		for i := range r.Manifest.Files {
			f := &r.Manifest.Files[i]
			n += len(f.Path) + len(f.Reason) + 24*len(f.Signals) + 192
		}
	case BudgetFile:
		for i := range r.Budget.Cuts {
			c := &r.Budget.Cuts[i]
			n += len(c.Path) + len(c.Reason) + len(c.From) + len(c.To) + 224
		}
		n += 160 * len(r.Budget.Inputs)
	default:
		for i := range r.Material.Files {
			f := &r.Material.Files[i]
			n += len(f.Path) + len(f.Content) + len(f.Content)/8 + len(f.Pointer) + 256
		}
	}
	return n
}

// encodeJSON is what Encode writes, through encoding/json.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// finite reports whether every number of r can be written in JSON.
func (r *Result) finite() bool {
	for i := range r.Manifest.Files {
		if f := r.Manifest.Files[i].Relevance; math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}

// Write stores the three artifacts under root (the top of the work tree) in
// ContextDir. Each file is written to a temporary file and renamed, so a
// reader never sees half an artifact.
func (r *Result) Write(root string) error {
	dir := filepath.Join(root, filepath.FromSlash(r.ContextDir()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, name := range []string{ManifestFile, BudgetFile, MaterialFile} {
		data, err := r.Encode(name)
		if err != nil {
			return err
		}
		if err := writeAtomic(filepath.Join(dir, name), data); err != nil {
			return err
		}
	}
	return nil
}

func writeAtomic(file string, data []byte) error {
	if old, err := os.ReadFile(file); err == nil && bytes.Equal(old, data) {
		return nil // unchanged: keep the file's time stamp
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".tmp*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// Summary is a short plain report for the CLI: files per tier, tokens per
// dimension, cuts.
func (r *Result) Summary() string {
	var b strings.Builder
	bd := r.Budget
	fmt.Fprintf(&b, "scope %s/%s (%s, %s): %d tokens total\n", r.Manifest.Feature, r.Manifest.Task, r.Manifest.Stage, r.Manifest.Tokenizer, bd.Total)
	tiers := map[string]int{}
	toks := map[string]int{}
	for _, f := range r.Manifest.Files {
		tiers[f.Tier]++
		toks[f.Tier] += f.Tokens
	}
	fmt.Fprintf(&b, "files: %d full (%d tokens), %d skeleton (%d), %d truncated (%d), %d dropped",
		tiers[TierFull], toks[TierFull], tiers[TierSkeleton], toks[TierSkeleton], tiers[TierTruncated], toks[TierTruncated], tiers[TierDropped])
	if r.Manifest.Unlisted > 0 {
		fmt.Fprintf(&b, " (+%d beyond max_hops not listed)", r.Manifest.Unlisted)
	}
	b.WriteString("\n")
	d := bd.Dimensions
	fmt.Fprintf(&b, "code_context %d/%d, task_context %d/%d, spec_context %d/%d, reserve %d\n",
		d.Code.Used, d.Code.Limit, d.Task.Used, d.Task.Limit, d.Spec.Used, d.Spec.Limit, d.Reserve.Limit)
	for _, f := range bd.Flows {
		fmt.Fprintf(&b, "flow: %d unused %s tokens to %s\n", f.Tokens, f.From, f.To)
	}
	saved := 0
	for _, c := range bd.Cuts {
		saved += c.TokensSaved
	}
	for _, p := range bd.Places {
		fmt.Fprintf(&b, "place of %s (to create): %d files in or like %s, %d tokens (%.0f%% of code_context)\n", p.Create, len(p.Files), p.Folder+"/", p.Tokens, 100*p.Share)
	}
	fmt.Fprintf(&b, "cuts: %d (%d tokens saved)\n", len(bd.Cuts), saved)
	if bd.WithinBudget {
		fmt.Fprintf(&b, "within budget, %d tokens left before the reserve\n", bd.RemainingTokens)
	} else {
		fmt.Fprintf(&b, "OVER BUDGET: %s\n", bd.OverBudget)
	}
	return b.String()
}

func round3(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 3, 64), 64)
	return v
}
