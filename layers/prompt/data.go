package prompt

import (
	"fmt"
	"sort"
	"strings"
	"text/template"
)

// maxBeyond bounds the files a prompt names as too far in the code graph:
// the rest cost tokens and are all in manifest.json.
const maxBeyond = 12

// Data is what a stage template sees as ".". Its fields are the template
// contract: an override may use any of them, and a field that does not
// exist is an execution error naming the template's file and line.
type Data struct {
	Stage     string
	Feature   string
	Tree      string // tree id the context was scoped at ("" when unknown)
	Tokenizer string

	Task           Task
	Assumptions    []string  // the task's (material.json task.assumptions)
	Concerns       []Concern // cross-cutting: the feature's, the task's, its done upstream tasks'
	Decisions      []Decision
	Spec           []SpecItem
	SpecParagraphs []SpecParagraph

	Files     []File // every scoped file, in material.json's order
	Touched   []File // distance 0, full: the files the task changes
	ReadOnly  []File // distance 0, full: the files the task only reads
	Neighbors []File // distance ≥ 1 given in full
	Skeletons []File // skeleton or truncated files

	Dropped      []ManifestFile // candidates the manifest dropped
	Beyond       []ManifestFile // dropped ones with no cut in budget.json: too far in the code graph, at most maxBeyond
	BeyondMore   int            // further such files, listed only in manifest.json
	Cuts         []Cut          // the most relevant cuts, as many as bookkeepingShare of the budget allows
	CutsMore     int            // further cuts, listed only in budget.json
	Budget       Budget         // budget.json as read
	BudgetTokens int            // the total this prompt is measured against
	CutTokens    int            // tokens saved by all cuts
	DroppedCount int

	// reviewer
	DiffBase  string // what the diffs compare, when git-speed chose it (Input.DiffBase)
	Diffs     []RenderedDiff
	DiffAdded int
	DiffRemov int

	// architect
	RepoMap       string
	Clusters      []Cluster
	Alignment     []Alignment
	AlignmentText string

	// verifier, coherence, architect
	Tasks        []TaskSummary
	Requirements []Requirement
	Verification Verification
	Coherence    Coherence

	// developer, reviewer: security rules for the task's files (Input.Rules)
	Rules Rules
	// developer: agent command files the task names (Input.Commands)
	Commands []Command

	// debugger
	Log            string // the failure log, its tail when long
	LogOmitted     int    // lines left out of Log from its start
	LogShown       int    // lines in Log
	Classification *Classification
}

// RenderedDiff is one file's unified diff, ready for a ```diff fence.
type RenderedDiff struct {
	Path    string
	Added   int
	Removed int
	Binary  bool
	Created bool
	Deleted bool
	Text    string
}

// bookkeepingShare bounds the tokens a prompt spends listing cuts: on a
// large tree a task can cut thousands of files (a kubelet.go task listed
// 5,672 cuts in 211k tokens), and budget.json keeps every one of them.
const bookkeepingShare = 0.05

// relevantCuts keeps the cuts nearest the task (by manifest distance, then
// manifest order) whose table rows fit in bookkeepingShare of budget, in
// that order, and says how many more there are.
func relevantCuts(cuts []Cut, files []ManifestFile, budget int, count func(string) int) ([]Cut, int) {
	if len(cuts) == 0 {
		return cuts, 0
	}
	if count == nil {
		count = func(s string) int { return (len(s) + 3) / 4 }
	}
	rank := make(map[string]int, len(files))
	dist := make(map[string]int, len(files))
	for i, f := range files {
		if _, ok := rank[f.Path]; !ok {
			rank[f.Path], dist[f.Path] = i, f.Distance
		}
	}
	order := make([]Cut, len(cuts))
	copy(order, cuts)
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i].Path, order[j].Path
		if dist[a] != dist[b] {
			return dist[a] < dist[b]
		}
		return rank[a] < rank[b]
	})
	room := int(float64(budget) * bookkeepingShare)
	used := 0
	for k, ct := range order {
		used += count(fmt.Sprintf("| `%s` | %s | %s | %d | %s |\n", ct.Path, ct.From, ct.To, ct.TokensSaved, strings.Join(strings.Fields(ct.Reason), " ")))
		if budget > 0 && used > room {
			return order[:k], len(order) - k
		}
	}
	return order, 0
}

// LogTailLines is how much of a failure log the debugger prompt quotes; the
// classification's evidence lines are quoted too when they fall before it.
const LogTailLines = 200

func newData(stage string, in Input) *Data {
	d := &Data{Stage: stage, Feature: in.Feature, Tokenizer: in.Tokenizer, BudgetTokens: in.Budget}
	d.Tasks = sortedTasks(in.Tasks)
	d.Rules = in.Rules
	d.Commands = in.Commands
	d.DiffBase = in.DiffBase
	d.Requirements = in.Requirements
	if c := in.Context; c != nil {
		if d.Feature == "" {
			d.Feature = firstNonEmpty(c.Manifest.Feature, c.Budget.Feature)
		}
		d.Tree = firstNonEmpty(c.Manifest.Tree, c.Budget.Tree)
		if d.Tokenizer == "" {
			d.Tokenizer = c.Manifest.Tokenizer
		}
		m := c.Material
		d.Task = m.Task
		d.Assumptions = m.Task.Assumptions
		d.Concerns = m.Concerns
		d.Decisions = m.Decisions
		d.Spec = m.Spec
		d.SpecParagraphs = m.SpecParagraphs
		d.Files = m.Files
		for _, f := range m.Files {
			switch {
			case f.Tier == TierFull && f.Distance == 0 && f.Role == "read":
				d.ReadOnly = append(d.ReadOnly, f)
			case f.Tier == TierFull && f.Distance == 0:
				d.Touched = append(d.Touched, f)
			case f.Tier == TierFull:
				d.Neighbors = append(d.Neighbors, f)
			default:
				d.Skeletons = append(d.Skeletons, f)
			}
		}
		for _, f := range c.Manifest.Files {
			if f.Tier == TierDropped {
				d.Dropped = append(d.Dropped, f)
			}
		}
		d.DroppedCount = len(d.Dropped)
		d.Cuts = c.Budget.Cuts
		cut := map[string]bool{}
		for _, ct := range d.Cuts {
			cut[ct.Path] = true
		}
		for _, f := range d.Dropped {
			if !cut[f.Path] {
				d.Beyond = append(d.Beyond, f)
			}
		}
		if len(d.Beyond) > maxBeyond {
			d.BeyondMore = len(d.Beyond) - maxBeyond
			d.Beyond = d.Beyond[:maxBeyond]
		}
		for _, ct := range d.Cuts {
			d.CutTokens += ct.TokensSaved
		}
		d.Cuts, d.CutsMore = relevantCuts(d.Cuts, c.Manifest.Files, d.BudgetTokens, in.Counter)
		d.Budget = c.Budget
		if d.BudgetTokens == 0 {
			d.BudgetTokens = c.Budget.Total
		}
	}
	if d.Budget.Dimensions == nil {
		d.Budget.Dimensions = map[string]Dimension{}
	}
	if in.Decisions != nil && stage == "coherence" {
		d.Decisions = in.Decisions
	}

	switch stage {
	case "reviewer":
		for _, fd := range in.Diffs {
			rd := RenderedDiff{Path: fd.Path, Created: fd.Created, Deleted: fd.Deleted, Binary: isBinary(fd.Old) || isBinary(fd.New)}
			rd.Text = UnifiedDiff(fd)
			if rd.Text == "" {
				continue
			}
			rd.Added, rd.Removed = DiffStat(fd)
			d.DiffAdded += rd.Added
			d.DiffRemov += rd.Removed
			d.Diffs = append(d.Diffs, rd)
		}
		sort.SliceStable(d.Diffs, func(i, j int) bool { return d.Diffs[i].Path < d.Diffs[j].Path })
	case "architect":
		d.RepoMap = strings.TrimSpace(in.RepoMap)
		d.Clusters = sortedClusters(in.Clusters)
		d.Alignment = in.Alignment
		d.AlignmentText = strings.TrimSpace(in.AlignmentText)
		d.Verification = Verify(in.Tasks, in.Requirements)
	case "verifier":
		d.Verification = Verify(in.Tasks, in.Requirements)
	case "coherence":
		d.Coherence = CheckCoherence(in.Tasks, in.Symbols, d.Decisions)
	case "debugger":
		cl := classify(in.FailureLog, in.Context)
		d.Classification = &cl
		d.Log, d.LogOmitted = logTail(in.FailureLog, LogTailLines)
		d.LogShown = strings.Count(d.Log, "\n")
	}
	return d
}

func sortedClusters(cs []Cluster) []Cluster {
	out := make([]Cluster, 0, len(cs))
	for _, c := range cs {
		out = append(out, Cluster{Name: c.Name, Files: uniqueSorted(c.Files)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func logTail(log string, n int) (string, int) {
	log = strings.TrimRight(strings.ReplaceAll(log, "\r\n", "\n"), "\n")
	if log == "" {
		return "", 0
	}
	lines := strings.Split(log, "\n")
	if len(lines) <= n {
		return log + "\n", 0
	}
	return strings.Join(lines[len(lines)-n:], "\n") + "\n", len(lines) - n
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// funcs are the helpers every template may use.
var funcs = template.FuncMap{
	// fence returns a backtick fence longer than any run inside the texts.
	"fence": func(texts ...string) string {
		n := 3
		for _, t := range texts {
			run := 0
			for i := 0; i < len(t); i++ {
				if t[i] == '`' {
					run++
					n = max(n, run+1)
				} else {
					run = 0
				}
			}
		}
		return strings.Repeat("`", n)
	},
	// langtag is the info string of a fence for a language name.
	"langtag": langTag,
	// short abbreviates an object id to 12 characters.
	"short": func(s string) string {
		if len(s) > 12 {
			return s[:12]
		}
		return s
	},
	"join": func(ss []string, sep string) string { return strings.Join(ss, sep) },
	// code quotes each string as `s` and joins them with ", ".
	"code": func(ss []string) string {
		q := make([]string, len(ss))
		for i, s := range ss {
			q[i] = "`" + s + "`"
		}
		return strings.Join(q, ", ")
	},
	"trim": strings.TrimSpace,
	// nl ends s with exactly one newline (for text inside fences).
	"nl": func(s string) string { return strings.TrimRight(s, "\n") + "\n" },
	// oneline folds whitespace, so a multi-line text fits a list item.
	"oneline": func(s string) string { return strings.Join(strings.Fields(s), " ") },
	// indent prefixes every non-empty line of s with n spaces.
	"indent": func(n int, s string) string {
		pad := strings.Repeat(" ", n)
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		for i, l := range lines {
			if l != "" {
				lines[i] = pad + l
			}
		}
		return strings.Join(lines, "\n")
	},
	"plural": func(n int, one, many string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s", n, one)
		}
		return fmt.Sprintf("%d %s", n, many)
	},
	"add": func(a, b int) int { return a + b },
	// inline quotes s as inline code, with a backtick run longer than any in s.
	"inline": func(s string) string {
		n := 1
		run := 0
		for i := 0; i < len(s); i++ {
			if s[i] == '`' {
				run++
				n = max(n, run+1)
			} else {
				run = 0
			}
		}
		q := strings.Repeat("`", n)
		if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
			return q + " " + s + " " + q
		}
		return q + s + q
	},
	// nest shifts the markdown headings of s (outside code fences) so the
	// shallowest becomes level, nesting supplied markdown under the
	// prompt's own headings.
	"nest": nest,
	"pct": func(part, whole int) string {
		if whole <= 0 {
			return "–"
		}
		return fmt.Sprintf("%d%%", (part*100+whole/2)/whole)
	},
	// dim returns a budget dimension by name, zero when absent.
	"dim": func(b Budget, name string) Dimension { return b.Dimensions[name] },
}

// langTag maps a language name (as Layer 1 spells it) to a fence info string.
func langTag(lang string) string {
	switch l := strings.ToLower(lang); l {
	case "c_sharp", "c-sharp", "csharp", "c#":
		return "csharp"
	case "c++", "cpp":
		return "cpp"
	case "shell", "sh", "bash":
		return "bash"
	case "":
		return ""
	default:
		var sb strings.Builder
		for _, r := range l {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '-' {
				sb.WriteRune(r)
			}
		}
		return sb.String()
	}
}

func nest(level int, s string) string {
	lines := strings.Split(s, "\n")
	type head struct{ line, depth int }
	var heads []head
	fence := ""
	top := 7
	for i, l := range lines {
		if fence != "" {
			if strings.TrimSpace(l) == fence {
				fence = ""
			}
			continue
		}
		if f := fenceOpen(l); f != "" {
			fence = f
			continue
		}
		j := 0
		for j < len(l) && l[j] == '#' {
			j++
		}
		if j > 0 && j <= 6 && (j == len(l) || l[j] == ' ') {
			heads = append(heads, head{i, j})
			top = min(top, j)
		}
	}
	for _, h := range heads {
		d := min(max(h.depth-top+level, 1), 6)
		lines[h.line] = strings.Repeat("#", d) + lines[h.line][h.depth:]
	}
	return strings.Join(lines, "\n")
}
