package scope

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// focus.go chooses, inside a neighbour delivered as a skeleton, which
// bodies to show: the definitions whose bodies use the task files'
// symbols (callers, tests that name them) and the definitions the task
// files use, most related first, while the budget allows; every other
// body stays elided behind its line pointer. Each body shown is a Region
// of budget.json.

// Region is a body shown inside a skeleton: its lines, the definition it
// belongs to, why it was chosen and the tokens it added.
type Region struct {
	Path   string `json:"path"`
	Lines  string `json:"lines"` // "A-B" of the file
	Def    string `json:"def"`
	Why    string `json:"why"`
	Tokens int    `json:"tokens"`
}

// focusMaxShare bounds the bodies one skeleton may gain, as a share of
// the room left when focusing starts, so that one large caller does not
// take what the other neighbours' callers need.
const focusMaxShare = 0.2

// focusTotalShare bounds the bodies all skeletons gain together, as a
// share of the room left once every 1-hop skeleton is in.
const focusTotalShare = 0.5

// elided is one elided body of a skeleton line: the line's index in the
// skeleton, the source lines it replaces and the definition it is in.
type elided struct {
	line       int
	from, to   int // source lines the body covers once shown (the line's head through the body's end)
	def        int // index into Facts.Defs
	score      int
	why        string
	cost       int
	replaceTxt string
}

// focusNames are the task files' definition names and the names their
// code uses, each with how often the task files use it.
type focusNames struct {
	defs map[string]bool // names defined by the task files
	used map[string]int  // names the task files' code uses
}

func (s *state) focusNames() focusNames {
	fn := focusNames{defs: map[string]bool{}, used: map[string]int{}}
	for _, i := range s.touched {
		fc := s.factsOf(s.g.Files[i].Path)
		if fc == nil {
			continue
		}
		for _, d := range fc.Defs {
			if len(d.Name) >= 3 {
				fn.defs[d.Name] = true
			}
		}
		for _, r := range fc.Refs {
			if len(r.Name) >= 3 {
				fn.used[r.Name]++
			}
		}
	}
	return fn
}

// focusOnce runs focus the first time it is called.
func (s *state) focusOnce(room *int) {
	if !s.focused {
		s.focused = true
		s.focus(room)
	}
}

// focus shows, in the skeletons delivered, the bodies most related to the
// task files, most relevant file first, within focusTotalShare of *room.
func (s *state) focus(room *int) {
	if len(s.touched) == 0 || *room < minTruncate {
		return
	}
	fn := s.focusNames()
	if len(fn.defs) == 0 && len(fn.used) == 0 {
		return
	}
	var skels []*cand
	for _, c := range s.cands {
		if c.dist == 1 && c.tier == TierSkeleton && c.signals&(sigGraph|sigTests) != 0 {
			skels = append(skels, c)
		}
	}
	sort.SliceStable(skels, func(a, b int) bool {
		if skels[a].dist != skels[b].dist {
			return skels[a].dist < skels[b].dist
		}
		return skels[a].rel > skels[b].rel
	})
	start := *room
	left := int(focusTotalShare * float64(start))
	for _, c := range skels {
		if left < minTruncate {
			break
		}
		before := left
		s.focusFile(c, fn, &left, int(focusMaxShare*float64(start)))
		*room -= before - left
	}
}

// focusFile shows the related bodies of one skeleton within min(*room,
// share) tokens and records them.
func (s *state) focusFile(c *cand, fn focusNames, room *int, share int) {
	fc := s.factsOf(c.path)
	if fc == nil || fc.Skeleton == "" || len(fc.Defs) == 0 {
		return
	}
	content := c.content
	if content == "" {
		content = fc.Skeleton
	}
	skel := strings.Split(strings.TrimRight(content, "\n"), "\n")
	bodies := elidedBodies(skel, fc.Defs)
	if len(bodies) == 0 {
		return
	}
	// Score each definition: its body's uses of the task files' names,
	// and the task files' uses of its name.
	calls := make([]int, len(fc.Defs))
	for _, r := range fc.Refs {
		if r.In > 0 && r.In <= len(fc.Defs) && fn.defs[r.Name] {
			calls[r.In-1]++
		}
	}
	var picked []*elided
	for k := range bodies {
		b := &bodies[k]
		d := fc.Defs[b.def]
		switch n, m := calls[b.def], fn.used[d.Name]; {
		case n > 0 && m > 0:
			b.score, b.why = 2*n+m, fmt.Sprintf("uses the task files' symbols (%d references) and is used by them (%d)", n, m)
		case n > 0:
			b.score, b.why = 2*n, fmt.Sprintf("uses the task files' symbols (%d references)", n)
		case m > 0 && len(d.Name) >= 3:
			b.score, b.why = m, fmt.Sprintf("used by the task files (%d references)", m)
		}
		if c.isTestOf != "" && b.score > 0 {
			b.why = "a test naming the task files' symbols: " + b.why
		}
		if b.score > 0 {
			picked = append(picked, b)
		}
	}
	if len(picked) == 0 {
		return
	}
	sort.SliceStable(picked, func(a, b int) bool {
		if picked[a].score != picked[b].score {
			return picked[a].score > picked[b].score
		}
		return picked[a].to-picked[a].from < picked[b].to-picked[b].from
	})
	src, _ := s.readText(c)
	srcLines := strings.Split(src, "\n")
	limit := min(*room, share)
	spent := 0
	var chosen []*elided
	for _, b := range picked {
		if b.to > len(srcLines) || b.from < 1 {
			continue
		}
		b.from = headLine(srcLines, skel[b.line], b.from)
		b.replaceTxt = strings.Join(srcLines[b.from-1:b.to], "\n")
		b.cost = s.counter.count(b.replaceTxt) - s.counter.count(skel[b.line])
		if b.cost < 0 {
			b.cost = 0
		}
		if spent+b.cost > limit {
			continue
		}
		spent += b.cost
		chosen = append(chosen, b)
	}
	// The exact count of the new content; drop the least related bodies
	// while it exceeds what was allowed.
	for len(chosen) > 0 {
		text := renderFocus(skel, chosen)
		n := s.counter.count(text) + s.counter.count(c.pointer)
		if n-c.tokens <= limit {
			*room -= n - c.tokens
			c.content, c.tokens = text, n
			for _, b := range chosen {
				d := fc.Defs[b.def]
				s.regions = append(s.regions, Region{Path: c.path, Lines: strconv.Itoa(b.from) + "-" + strconv.Itoa(b.to),
					Def: d.Qualified, Why: b.why, Tokens: b.cost})
			}
			return
		}
		chosen = chosen[:len(chosen)-1]
	}
}

// headLine is the source line a skeleton line's head comes from: the
// body's first line a, or one of the few lines before it when the body
// starts on the line after its signature.
func headLine(src []string, skelLine string, a int) int {
	head := strings.TrimSpace(skelLine[:max(elision(skelLine), 0)])
	head = strings.TrimSpace(strings.TrimSuffix(head, "{"))
	if head == "" {
		return a
	}
	for k := a; k >= 1 && k >= a-3; k-- {
		if strings.HasPrefix(strings.TrimSpace(src[k-1]), head) {
			return k
		}
	}
	return a
}

// regionsKept are the regions of the files still delivered as skeletons
// (a skeleton upgraded to its full text later shows everything).
func (s *state) regionsKept() []Region {
	skel := map[string]bool{}
	for _, c := range s.cands {
		if c.tier == TierSkeleton {
			skel[c.path] = true
		}
	}
	var out []Region
	for _, r := range s.regions {
		if skel[r.Path] {
			out = append(out, r)
		}
	}
	return out
}

// renderFocus is the skeleton with the chosen bodies' lines in place of
// their elided lines.
func renderFocus(skel []string, chosen []*elided) string {
	by := map[int]*elided{}
	for _, b := range chosen {
		by[b.line] = b
	}
	var out strings.Builder
	for k, l := range skel {
		if b := by[k]; b != nil {
			out.WriteString(b.replaceTxt)
		} else {
			out.WriteString(l)
		}
		out.WriteByte('\n')
	}
	return out.String()
}

// elidedBodies finds the skeleton lines that elide a body behind a line
// pointer, each with the innermost definition holding it and the source
// lines that show it: the line's head is the text of the body's first
// line before the body (or nothing, a marker on a line of its own), so
// source lines a..b, whole, take the skeleton line's place.
func elidedBodies(skel []string, defs []world.Def) []elided {
	var out []elided
	for k, l := range skel {
		at := elision(l)
		if at < 0 {
			continue
		}
		m := linePointer.FindStringSubmatch(l[at:])
		if m == nil {
			continue
		}
		a, _ := strconv.Atoi(m[1])
		b := a
		if m[2] != "" {
			b, _ = strconv.Atoi(m[2])
		}
		best := -1
		for i, d := range defs {
			if d.Start <= a && b <= d.End && (best < 0 || d.End-d.Start < defs[best].End-defs[best].Start) {
				best = i
			}
		}
		if best < 0 {
			continue
		}
		out = append(out, elided{line: k, from: a, to: b, def: best})
	}
	return out
}
