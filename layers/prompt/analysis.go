package prompt

import (
	"sort"
	"strings"
)

// TaskSummary is one task of a feature as the verifier, coherence and
// architect stages see it (the caller reads it from tasks/<id>.toml).
type TaskSummary struct {
	ID           string   `json:"id"`
	Title        string   `json:"title"`
	Status       string   `json:"status"`
	Requirements []string `json:"requirements"`
	FilesTouched []string `json:"files_touched"`
}

// Requirement is one requirement of a feature's spec.
type Requirement struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// Cluster is a domain cluster of the code graph.
type Cluster struct {
	Name  string   `json:"name"`
	Files []string `json:"files"`
}

// Alignment is the alignment status of one requirement with the code.
type Alignment struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Status   string   `json:"status"`
	Evidence []string `json:"evidence"`
}

// Verification is the plan check of a feature: which requirements no task
// covers, which tasks cite none, and which citations name no requirement.
type Verification struct {
	Coverage  []CoverageRow  `json:"coverage"`  // every requirement, in spec order, with the tasks citing it
	Uncovered []Requirement  `json:"uncovered"` // requirements no task cites
	Uncited   []TaskSummary  `json:"uncited"`   // tasks citing no requirement
	Unknown   []UnknownCited `json:"unknown"`   // citations of ids the spec does not have
}

// CoverageRow is one requirement and the tasks that cite it, sorted.
type CoverageRow struct {
	Requirement Requirement `json:"requirement"`
	Tasks       []string    `json:"tasks"`
}

// UnknownCited is a task citing a requirement id the spec does not define.
type UnknownCited struct {
	Task        string `json:"task"`
	Requirement string `json:"requirement"`
}

// OK reports whether every requirement is covered, every task cites one and
// no citation is unknown.
func (v Verification) OK() bool {
	return len(v.Uncovered) == 0 && len(v.Uncited) == 0 && len(v.Unknown) == 0
}

// Verify checks a feature's tasks against its requirements. Requirement ids
// are compared case-insensitively; requirements keep the caller's order and
// tasks are sorted by id.
func Verify(tasks []TaskSummary, reqs []Requirement) Verification {
	tasks = sortedTasks(tasks)
	known := map[string]bool{}
	for _, r := range reqs {
		known[normID(r.ID)] = true
	}
	citing := map[string][]string{}
	v := Verification{Coverage: []CoverageRow{}, Uncovered: []Requirement{}, Uncited: []TaskSummary{}, Unknown: []UnknownCited{}}
	for _, t := range tasks {
		cited := false
		for _, id := range uniqueSorted(t.Requirements) {
			if strings.TrimSpace(id) == "" {
				continue
			}
			cited = true
			if !known[normID(id)] {
				v.Unknown = append(v.Unknown, UnknownCited{Task: t.ID, Requirement: id})
				continue
			}
			citing[normID(id)] = append(citing[normID(id)], t.ID)
		}
		if !cited {
			v.Uncited = append(v.Uncited, t)
		}
	}
	for _, r := range reqs {
		ts := uniqueIDs(citing[normID(r.ID)])
		v.Coverage = append(v.Coverage, CoverageRow{Requirement: r, Tasks: ts})
		if len(ts) == 0 {
			v.Uncovered = append(v.Uncovered, r)
		}
	}
	return v
}

// Coherence is the cross-task consistency report of a feature: places where
// tasks may step on each other. It lists; the agent judges.
type Coherence struct {
	SharedFiles   []Shared   `json:"shared_files"`   // files two or more tasks touch
	SharedSymbols []Shared   `json:"shared_symbols"` // symbols two or more tasks touch
	Conflicts     []Conflict `json:"conflicts"`      // decisions of different tasks on the same files with different summaries
}

// Shared is a file or symbol and the tasks that touch it, sorted.
type Shared struct {
	Name  string   `json:"name"`
	Tasks []string `json:"tasks"`
}

// Conflict is a pair of decisions of different tasks that concern the same
// files and say different things.
type Conflict struct {
	Files []string `json:"files"`
	A     Decision `json:"a"`
	B     Decision `json:"b"`
}

// CheckCoherence finds files and symbols shared by tasks (symbols is task
// id → symbols it touches, optional) and decisions that may conflict.
func CheckCoherence(tasks []TaskSummary, symbols map[string][]string, decisions []Decision) Coherence {
	c := Coherence{SharedFiles: []Shared{}, SharedSymbols: []Shared{}, Conflicts: []Conflict{}}
	files := map[string][]string{}
	for _, t := range tasks {
		for _, f := range uniqueSorted(t.FilesTouched) {
			files[f] = append(files[f], t.ID)
		}
	}
	c.SharedFiles = shared(files)
	syms := map[string][]string{}
	for task, ss := range symbols {
		for _, s := range uniqueSorted(ss) {
			syms[s] = append(syms[s], task)
		}
	}
	c.SharedSymbols = shared(syms)

	ds := append([]Decision(nil), decisions...)
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].Task != ds[j].Task {
			return ds[i].Task < ds[j].Task
		}
		return ds[i].Summary < ds[j].Summary
	})
	for i := range ds {
		for j := i + 1; j < len(ds); j++ {
			a, b := ds[i], ds[j]
			if a.Task == b.Task || normText(a.Summary) == normText(b.Summary) {
				continue
			}
			if common := intersect(a.Files, b.Files); len(common) > 0 {
				c.Conflicts = append(c.Conflicts, Conflict{Files: common, A: a, B: b})
			}
		}
	}
	return c
}

func shared(m map[string][]string) []Shared {
	out := []Shared{}
	for name, ts := range m {
		ts = uniqueIDs(ts)
		if len(ts) > 1 {
			out = append(out, Shared{Name: name, Tasks: ts})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func sortedTasks(ts []TaskSummary) []TaskSummary {
	out := append([]TaskSummary(nil), ts...)
	sort.SliceStable(out, func(i, j int) bool { return lessID(out[i].ID, out[j].ID) })
	return out
}

// lessID orders ids naturally: "T2" before "T10".
func lessID(a, b string) bool {
	for a != "" && b != "" {
		ad, bd := leadingDigits(a), leadingDigits(b)
		if ad != "" && bd != "" {
			an, bn := strings.TrimLeft(ad, "0"), strings.TrimLeft(bd, "0")
			if len(an) != len(bn) {
				return len(an) < len(bn)
			}
			if an != bn {
				return an < bn
			}
			a, b = a[len(ad):], b[len(bd):]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

func normID(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

func normText(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

func uniqueSorted(ss []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// uniqueIDs is uniqueSorted in natural id order.
func uniqueIDs(ss []string) []string {
	out := uniqueSorted(ss)
	sort.SliceStable(out, func(i, j int) bool { return lessID(out[i], out[j]) })
	return out
}

func intersect(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range a {
		in[x] = true
	}
	var out []string
	for _, x := range b {
		if in[x] {
			out = append(out, x)
		}
	}
	return uniqueSorted(out)
}
