package report

import (
	"fmt"
	"io"
	"sort"

	"github.com/git-speed/git-speed/layers/scope"
)

// IDs of the JSON documents a page embeds.
const (
	BudgetID   = "budget-json"
	ManifestID = "manifest-json"
	PackID     = "pack-json"
	FailureID  = "failure-json"
)

// ScopeInput is one task's scope as the operations layer read it, its
// texts redacted.
type ScopeInput struct {
	Feature, Task string
	// Title is the task's title ("" when the task could not be read).
	Title    string
	Manifest *scope.Manifest
	Budget   *scope.Budget
	// ManifestJSON and BudgetJSON are manifest.json and budget.json as
	// written into the task's context folder.
	ManifestJSON, BudgetJSON []byte
	// Failure, when set, is why the task could not be scoped: the page
	// says so and shows nothing else.
	Failure string
}

// Scope writes the HTML page of one task's scope.
func Scope(w io.Writer, in ScopeInput) error {
	v := &view{Kind: "scope", Title: fmt.Sprintf("scope %s/%s", in.Feature, in.Task)}
	v.Facts = append(v.Facts, fact{"task", fmt.Sprintf("%s/%s", in.Feature, in.Task)})
	if in.Title != "" {
		v.Facts = append(v.Facts, fact{"title", in.Title})
	}
	if in.Failure != "" || in.Manifest == nil || in.Budget == nil {
		v.Failure = in.Failure
		if v.Failure == "" {
			v.Failure = "the scope has no artifacts"
		}
		data, err := failureJSON(in.Feature, in.Task, v.Failure)
		if err != nil {
			return err
		}
		b, err := newBlob(FailureID, data)
		if err != nil {
			return err
		}
		v.Data = []blob{b}
		return v.write(w)
	}
	m, bud := in.Manifest, in.Budget
	tiers := map[string]int{}
	tierTokens := map[string]int{}
	for _, f := range m.Files {
		tiers[f.Tier]++
		tierTokens[f.Tier] += f.Tokens
	}
	v.Facts = append(v.Facts,
		fact{"stage", m.Stage},
		fact{"tree", short(m.Tree)},
		fact{"tokenizer", m.Tokenizer},
		fact{"budget", thousands(bud.Total) + " tokens"},
		fact{"within budget", yesNo(bud.WithinBudget)},
		fact{"files", fmt.Sprintf("%s full (%s tokens), %s skeleton (%s), %s truncated (%s), %s dropped",
			thousands(tiers[scope.TierFull]), thousands(tierTokens[scope.TierFull]),
			thousands(tiers[scope.TierSkeleton]), thousands(tierTokens[scope.TierSkeleton]),
			thousands(tiers[scope.TierTruncated]), thousands(tierTokens[scope.TierTruncated]),
			thousands(tiers[scope.TierDropped]))},
		fact{"cuts", thousands(len(bud.Cuts))},
		fact{"redactions", thousands(bud.Redactions.Count)},
		fact{"digest", short(bud.Digest)},
	)
	if m.Unlisted > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("%s more candidates beyond max_hops are not listed in manifest.json.", thousands(m.Unlisted)))
	}
	if bud.OverBudget != "" {
		v.Notes = append(v.Notes, "Over budget: "+bud.OverBudget+".")
	}
	if bud.OutsideBudget > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("%s tokens of the task's own files are given beyond the budget.", thousands(bud.OutsideBudget)))
	}
	for _, f := range bud.Flows {
		v.Notes = append(v.Notes, fmt.Sprintf("%s unused %s tokens flowed to %s.", thousands(f.Tokens), f.From, f.To))
	}
	v.Picture, v.Legend = budgetPicture(m, bud)
	bb, err := newBlob(BudgetID, in.BudgetJSON)
	if err != nil {
		return err
	}
	mb, err := newBlob(ManifestID, in.ManifestJSON)
	if err != nil {
		return err
	}
	v.Data = []blob{bb, mb}
	return v.write(w)
}

// Picture geometry, in SVG units.
const (
	picWidth = 960.0
	labelW   = 170.0
	barX     = labelW + 10
	barW     = picWidth - barX - 90
	rowH     = 26.0
	rowGap   = 12.0
)

// budgetPicture draws the budget: a bar of its dimensions, then one bar a
// distance of the files delivered at it, each file a box as wide as its
// tokens and coloured by its tier, all on one scale with the budget's
// total marked.
func budgetPicture(m *scope.Manifest, b *scope.Budget) (*svg, []legend) {
	d := b.Dimensions
	used := d.Code.Used + d.Task.Used + d.Spec.Used + d.Reserve.Limit
	scale := float64(max(b.Total, used, 1))
	unit := barW / scale
	p := &svg{}
	y := 8.0
	row := func(label, right string) {
		p.Texts = append(p.Texts, text{X: num(labelW), Y: num(y + rowH*0.66), Anchor: "end", Class: "label", Text: label})
		if right != "" {
			p.Texts = append(p.Texts, text{X: num(picWidth - 4), Y: num(y + rowH*0.66), Anchor: "end", Class: "value", Text: right})
		}
	}
	x := barX
	seg := func(tokens int, class, title string) {
		if tokens <= 0 {
			return
		}
		w := float64(tokens) * unit
		p.Rects = append(p.Rects, rect{X: num(x), Y: num(y), W: num(w), H: num(rowH), Class: class, Title: title})
		x += w
	}
	row("by dimension", thousands(used+max(b.RemainingTokens, 0)))
	seg(d.Code.Used, "dim-code", fmt.Sprintf("code_context: %s of %s tokens", thousands(d.Code.Used), thousands(d.Code.Limit)))
	seg(d.Task.Used, "dim-task", fmt.Sprintf("task_context: %s of %s tokens", thousands(d.Task.Used), thousands(d.Task.Limit)))
	seg(d.Spec.Used, "dim-spec", fmt.Sprintf("spec_context: %s of %s tokens", thousands(d.Spec.Used), thousands(d.Spec.Limit)))
	seg(d.Reserve.Limit, "dim-reserve", fmt.Sprintf("reserve: %s tokens", thousands(d.Reserve.Limit)))
	seg(b.RemainingTokens, "dim-free", fmt.Sprintf("unused: %s tokens", thousands(b.RemainingTokens)))
	top := y
	y += rowH + rowGap

	byDist := map[int][]scope.FileEntry{}
	var dists []int
	for _, f := range m.Files {
		if f.Tier == scope.TierDropped || f.Tokens <= 0 {
			continue
		}
		if _, ok := byDist[f.Distance]; !ok {
			dists = append(dists, f.Distance)
		}
		byDist[f.Distance] = append(byDist[f.Distance], f)
	}
	sort.Ints(dists)
	for _, dist := range dists {
		fs := byDist[dist]
		sort.SliceStable(fs, func(i, j int) bool {
			if fs[i].Tokens != fs[j].Tokens {
				return fs[i].Tokens > fs[j].Tokens
			}
			return fs[i].Path < fs[j].Path
		})
		sum := 0
		for _, f := range fs {
			sum += f.Tokens
		}
		row(fmt.Sprintf("distance %d · %s %s", dist, thousands(len(fs)), plural(len(fs), "file", "files")), thousands(sum))
		x = barX
		for _, f := range fs {
			seg(f.Tokens, "tier-"+f.Tier, fmt.Sprintf("%s: %s, %s tokens, distance %d", f.Path, f.Tier, thousands(f.Tokens), f.Distance))
		}
		y += rowH + rowGap
	}
	tx := barX + float64(b.Total)*unit
	p.Lines = append(p.Lines, line{X1: num(tx), Y1: num(top - 4), X2: num(tx), Y2: num(y - rowGap + 4), Class: "limit"})
	p.Texts = append(p.Texts, text{X: num(tx), Y: num(y + 8), Anchor: "middle", Class: "limit-label", Text: "budget " + thousands(b.Total)})
	p.Width, p.Height = num(picWidth), num(y+16)
	lg := []legend{
		{"dim-code", "code_context"}, {"dim-task", "task_context"}, {"dim-spec", "spec_context"}, {"dim-reserve", "reserve"}, {"dim-free", "unused"},
		{"tier-full", "full"}, {"tier-skeleton", "skeleton"}, {"tier-truncated", "truncated"},
	}
	return p, lg
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
