package scope

import (
	"fmt"
	"github.com/git-speed/git-speed/internal/lex"
	"path"
	"sort"
	"strings"
	"unicode"

	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/align"
)

// collectDecisions is step 3: the task's own decisions, then those of the
// done tasks upstream of it, nearest first.
func (s *state) collectDecisions() {
	add := func(taskID string, ds []decisionIn) {
		for _, d := range ds {
			files := d.Files
			if files == nil {
				files = []string{}
			}
			s.decisions = append(s.decisions, Decision{Task: taskID, Summary: d.Summary, Detail: d.Detail, Files: files, path: d.path})
		}
	}
	add(s.task.ID, decisionsOf(s.task.Path, s.task.Decisions))
	for _, u := range s.f.Upstream(s.task.ID) {
		add(u.ID, decisionsOf(u.Path, u.Decisions))
	}
}

// taskRendering is the text the task section costs, as Layer 3 shows it.
func taskRendering(t TaskInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Task %s: %s\n", t.ID, t.Title)
	if t.Description != "" {
		b.WriteString(t.Description + "\n")
	}
	fmt.Fprintf(&b, "Status: %s\n", t.Status)
	if len(t.Create)+len(t.Modify)+len(t.Read) > 0 {
		for _, r := range []struct {
			name  string
			paths []string
		}{{"Create", t.Create}, {"Modify", t.Modify}, {"Read", t.Read}} {
			if len(r.paths) > 0 {
				fmt.Fprintf(&b, "%s: %s\n", r.name, strings.Join(r.paths, ", "))
			}
		}
	} else if len(t.FilesTouched) > 0 {
		fmt.Fprintf(&b, "Files: %s\n", strings.Join(t.FilesTouched, ", "))
	}
	if len(t.DependsOn) > 0 {
		fmt.Fprintf(&b, "Depends on: %s\n", strings.Join(t.DependsOn, ", "))
	}
	for _, a := range t.Acceptance {
		fmt.Fprintf(&b, "- %s\n", a)
	}
	if len(t.Requirements) > 0 {
		fmt.Fprintf(&b, "Requirements: %s\n", strings.Join(t.Requirements, ", "))
	}
	if t.Base != "" {
		fmt.Fprintf(&b, "Base: %s\n", t.Base)
	}
	for _, a := range t.Assumptions {
		fmt.Fprintf(&b, "Assumption: %s\n", a)
	}
	return b.String()
}

func concernRendering(c feature.Concern) string {
	return fmt.Sprintf("- [%s] %s\n", c.Source, c.Text)
}

func decisionRendering(d Decision) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- [%s] %s\n", d.Task, d.Summary)
	if d.Detail != "" {
		fmt.Fprintf(&b, "  %s\n", d.Detail)
	}
	if len(d.Files) > 0 {
		fmt.Fprintf(&b, "  files: %s\n", strings.Join(d.Files, ", "))
	}
	return b.String()
}

func specRendering(it SpecItem) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (%s)\n%s\n", it.ID, it.Title, it.Status, it.Text)
	for _, e := range it.Evidence {
		fmt.Fprintf(&b, "- %s\n", e)
	}
	return b.String()
}

func paragraphRendering(p SpecParagraph) string {
	if p.Heading == "" {
		return p.Text + "\n"
	}
	return p.Heading + "\n" + p.Text + "\n"
}

// fitTask fills task_context: the task itself with its assumptions (never
// cut), then the cross-cutting concerns and the decisions in order while
// they fit; the rest are cuts.
func (s *state) fitTask(limit int) int {
	s.taskText = taskRendering(s.taskInfo())
	used := s.counter.count(s.taskText)
	s.concerns = fitTaskItems(s, s.concerns, &used, limit, concernRendering, func(c feature.Concern) (string, string) {
		return c.Path, fmt.Sprintf("concern of %s (%q) does not fit task_context (%d tokens)", concernSource(c), c.Text, limit)
	})
	s.decisions = fitTaskItems(s, s.decisions, &used, limit, decisionRendering, func(d Decision) (string, string) {
		return d.path, fmt.Sprintf("decision of task %s (%q) does not fit task_context (%d tokens)", d.Task, d.Summary, limit)
	})
	return used
}

// fitTaskItems keeps the items, in order, whose renderings fit limit with
// *used tokens taken; each that does not is a cut of task_context at the
// path and for the reason cut gives.
func fitTaskItems[T any](s *state, items []T, used *int, limit int, render func(T) string, cut func(T) (path, reason string)) []T {
	var kept []T
	for _, it := range items {
		n := s.counter.count(render(it))
		if *used+n <= limit {
			*used += n
			kept = append(kept, it)
			continue
		}
		p, why := cut(it)
		s.cuts = append(s.cuts, Cut{Path: p, From: TierFull, To: TierDropped, TokensSaved: n, Dimension: DimTask, Reason: why})
	}
	return kept
}

// concernSource names where a concern comes from in a cut's reason.
func concernSource(c feature.Concern) string {
	if c.Source == "feature" {
		return "the feature"
	}
	return "task " + c.Source
}

// fitSpec fills spec_context with the narrowed requirements, then the
// paragraphs, in order of relevance. An item that does not fit whole is
// truncated at a paragraph or sentence boundary to the room left (marked
// TruncMarker), or dropped when not even its first sentence fits. When the
// requirements were chosen by keywords (the task cites none and alignment
// gives none), they get at most half of spec_context and the design
// paragraphs the rest, as in MAHABHARATHA's spec loader.
func (s *state) fitSpec(limit int) int {
	used := 0
	reqLimit := limit
	if s.specByKeywords {
		reqLimit = limit / 2
	}
	var items []SpecItem
	for _, it := range s.spec {
		why := fmt.Sprintf("requirement %s (%s) does not fit spec_context (%d tokens)", it.ID, it.Reason, limit)
		if s.specByKeywords {
			why = fmt.Sprintf("requirement %s (%s) does not fit the half of spec_context requirements chosen by keyword may take (%d of %d tokens)", it.ID, it.Reason, reqLimit, limit)
		}
		render := func(text string) string { x := it; x.Text = text; return specRendering(x) }
		if text, ok := s.fitText(&used, reqLimit, it.Text, render, s.specPath()+"#"+it.ID, why); ok {
			it.Text = text
			items = append(items, it)
		}
	}
	var paras []SpecParagraph
	for _, p := range s.paras {
		why := fmt.Sprintf("paragraph (%s) does not fit spec_context (%d tokens)", p.why, limit)
		render := func(text string) string { x := p; x.Text = text; return paragraphRendering(x) }
		if text, ok := s.fitText(&used, limit, p.Text, render, fmt.Sprintf("%s:%d", s.specPath(), p.line), why); ok {
			p.Text = text
			paras = append(paras, p)
		}
	}
	s.spec, s.paras = items, paras
	return used
}

// fitText fits one spec text, rendered by render, into limit with *used
// tokens already taken: whole, truncated (a cut to TierTruncated) or not
// at all (a cut to TierDropped). It returns the text to keep and whether
// to keep it.
func (s *state) fitText(used *int, limit int, text string, render func(string) string, cutPath, why string) (string, bool) {
	n := s.counter.count(render(text))
	if *used+n <= limit {
		*used += n
		return text, true
	}
	cut := Cut{Path: cutPath, From: TierFull, To: TierDropped, TokensSaved: n, Dimension: DimSpec, Reason: why}
	t, ok := truncateText(text, func(t string) bool { return *used+s.counter.count(render(t)) <= limit })
	if ok {
		m := s.counter.count(render(t))
		*used += m
		cut.To, cut.TokensSaved = TierTruncated, n-m
	}
	s.cuts = append(s.cuts, cut)
	return t, ok
}

// TruncMarker ends spec text cut to fit its budget.
const TruncMarker = "[... truncated for context limits ...]"

// truncateText returns the longest start of text that ends at a paragraph
// boundary (a blank line) and, with TruncMarker after it, fits; failing
// that, the longest such start of the first paragraph that ends at a
// sentence boundary. ok is false when not even one sentence fits.
func truncateText(text string, fits func(string) bool) (string, bool) {
	text = strings.TrimSpace(text)
	paras := splitParagraphs(text)
	best := ""
	for i := 1; i < len(paras); i++ {
		cand := strings.Join(paras[:i], "\n\n") + "\n\n" + TruncMarker
		if !fits(cand) {
			break
		}
		best = cand
	}
	if best != "" {
		return best, true
	}
	if len(paras) == 0 {
		return "", false
	}
	sent := splitSentences(paras[0])
	for i := 1; i <= len(sent); i++ {
		if i == len(sent) && len(paras) == 1 {
			break // the whole text: it did not fit
		}
		cand := strings.Join(sent[:i], " ") + " " + TruncMarker
		if !fits(cand) {
			break
		}
		best = cand
	}
	return best, best != ""
}

// splitParagraphs splits text at blank lines.
func splitParagraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// splitSentences splits a paragraph after '.', '!' or '?' followed by
// white space, and at line ends that follow one; the pieces keep their
// punctuation and have their white space folded.
func splitSentences(p string) []string {
	var out []string
	start := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		if (c == '.' || c == '!' || c == '?') && i+1 < len(p) && (p[i+1] == ' ' || p[i+1] == '\n' || p[i+1] == '\t') {
			if t := strings.Join(strings.Fields(p[start:i+1]), " "); t != "" {
				out = append(out, t)
			}
			start = i + 1
		}
	}
	if t := strings.Join(strings.Fields(p[start:]), " "); t != "" {
		out = append(out, t)
	}
	return out
}

func (s *state) specPath() string {
	if s.f.SpecPath != "" {
		return s.f.SpecPath
	}
	return path.Join(".speed/features", s.f.Name, "spec.md")
}

// Spec selection limits.
const (
	maxKeywordItems = 5 // paragraphs (and requirements, as a fallback) chosen by keyword
	maxEvidence     = 6
)

// narrowSpec is step 4.
func (s *state) narrowSpec() {
	sp := s.f.Spec
	if sp == nil {
		return
	}
	a := s.opt.Align
	if a == nil && len(sp.Requirements) > 0 {
		a = align.Align(s.g, func(p string) (*world.Facts, error) { return s.factsOf(p), nil }, s.f)
	}
	touched := map[string]bool{}
	for _, p := range s.task.Paths() {
		touched[p] = true
	}
	chosen := map[string]bool{}
	add := func(id, why string) {
		if chosen[id] {
			return
		}
		r := sp.Requirement(id)
		if r == nil {
			return
		}
		chosen[id] = true
		it := SpecItem{ID: r.ID, Title: r.Title, Text: r.Text, Status: "unknown", Evidence: []string{}, Reason: why}
		if a != nil {
			if c := a.Claim(id); c != nil {
				it.Status = c.Status
				ev := append([]align.Evidence(nil), c.Evidence...)
				sort.SliceStable(ev, func(i, j int) bool { return touched[ev[i].Path] && !touched[ev[j].Path] })
				for _, e := range ev {
					if len(it.Evidence) == maxEvidence {
						break
					}
					it.Evidence = append(it.Evidence, evidenceString(e))
				}
			}
		}
		s.spec = append(s.spec, it)
	}
	for _, id := range s.task.Requirements {
		add(id, "cited by task "+s.task.ID)
	}
	if a != nil {
		claims := a.Touching(s.task.Paths())
		sort.SliceStable(claims, func(i, j int) bool { return claims[i].Score > claims[j].Score })
		for _, c := range claims {
			for _, fh := range c.Files {
				if touched[fh.Path] {
					add(c.ID, fmt.Sprintf("aligned with %s (%s)", fh.Path, strings.Join(fh.Kinds, ", ")))
					break
				}
			}
		}
	}
	kw := s.keywords()
	if len(s.spec) == 0 && len(kw) > 0 {
		s.specByKeywords = true
		texts := make([]string, len(sp.Requirements))
		for i, r := range sp.Requirements {
			texts[i] = r.Title + "\n" + r.Text
		}
		for _, x := range topByKeywords(texts, kw) {
			add(sp.Requirements[x.i].ID, "keywords: "+strings.Join(x.hits, ", "))
		}
	}
	// Design paragraphs by keyword (MAHABHARATHA's spec scoping).
	texts := make([]string, len(sp.Paragraphs))
	for i, p := range sp.Paragraphs {
		texts[i] = p.Heading + "\n" + p.Text
	}
	for _, x := range topByKeywords(texts, kw) {
		p := sp.Paragraphs[x.i]
		s.paras = append(s.paras, SpecParagraph{Heading: p.Heading, Text: p.Text, line: p.Line, why: "keywords: " + strings.Join(x.hits, ", ")})
	}
}

// keywordHit is a text that matched task keywords: its index and the
// keywords found.
type keywordHit struct {
	i     int
	score int
	hits  []string
}

// topByKeywords scores texts by task keywords and returns the best
// maxKeywordItems with at least one hit, best first (ties keep text order).
func topByKeywords(texts []string, kw []string) []keywordHit {
	var sc []keywordHit
	for i, t := range texts {
		if n, hits := keywordScore(t, kw); n > 0 {
			sc = append(sc, keywordHit{i, n, hits})
		}
	}
	sort.SliceStable(sc, func(a, b int) bool { return sc[a].score > sc[b].score })
	if len(sc) > maxKeywordItems {
		sc = sc[:maxKeywordItems]
	}
	return sc
}

func evidenceString(e align.Evidence) string {
	where := e.Path
	if e.Symbol != "" {
		where += " " + e.Symbol
	}
	return fmt.Sprintf("%s %s: %s", e.Kind, where, e.Detail)
}

// keywords are the task's words: title and description words longer than
// three characters, and the parts of files_touched stems longer than two.
func (s *state) keywords() []string {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s.task.Title+" "+s.task.Description), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		if len(w) > 3 && !lex.IsFiller(w) {
			set[w] = true
		}
	}
	for _, p := range s.task.Paths() {
		b := path.Base(p)
		stem := strings.ToLower(strings.TrimSuffix(b, path.Ext(b)))
		for _, part := range strings.FieldsFunc(stem, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
			if len(part) > 2 && !lex.IsFiller(part) {
				set[part] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for w := range set {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// keywordScore counts the keywords text contains and names them.
func keywordScore(text string, kw []string) (int, []string) {
	t := strings.ToLower(text)
	var hits []string
	for _, k := range kw {
		if strings.Contains(t, k) {
			hits = append(hits, k)
		}
	}
	return len(hits), hits
}
