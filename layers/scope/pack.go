package scope

import (
	"container/heap"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Packing constants.
const (
	skelEstShare  = 0.3  // skeleton tokens per file token, before the skeleton is read
	upgradeValue  = 1.2  // value of a file's full text beyond its skeleton, per unit of relevance
	extraValue    = 0.5  // … times this for full text beyond the plan (2 hops, long 1-hop files)
	smallFull     = 1.25 // a file whose full text costs at most this times its skeleton comes full
	costExponent  = 0.75 // value per cost^this: relevance matters more than size
	minTruncate   = 64   // tokens below which no truncated skeleton is made
	prefetchMax   = 400  // candidates counted up front, in parallel
	prefetchShare = 1.2  // … until their estimated cost is this share of the room
	leaders       = 2    // most relevant files per distance placed before the fill
	leaderShare   = 0.25 // … each as a skeleton of at most this share of the room
	leaderTrunc   = 0.1  // … or else the head of it, in this share
	skipMargin    = 0.8  // an estimate this much of which exceeds the room is not counted
)

// item is one step of the fill: a skeleton, a full text, or the upgrade of
// a skeleton to the full text.
type item struct {
	c     *cand
	kind  byte // 's' skeleton, 'f' full text outright, 'u' skeleton → full
	phase int  // items of a lower phase go first, whatever their value
	value float64
	cost  int
	exact bool
	prio  float64
	seq   int
}

type itemHeap []*item

func (h itemHeap) Len() int { return len(h) }
func (h itemHeap) Less(i, j int) bool {
	if h[i].phase != h[j].phase {
		return h[i].phase < h[j].phase
	}
	if h[i].prio != h[j].prio {
		return h[i].prio > h[j].prio
	}
	return h[i].seq < h[j].seq
}
func (h itemHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *itemHeap) Push(x any)   { *h = append(*h, x.(*item)) }
func (h *itemHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (it *item) reprice() {
	it.cost, it.exact = it.costNow()
	it.prio = it.value / math.Pow(float64(it.cost)+20, costExponent)
}

// costNow is the item's cost: exact when its forms have been counted.
func (it *item) costNow() (int, bool) {
	c := it.c
	switch it.kind {
	case 's':
		return c.skel, c.skelExact
	case 'f':
		return c.full, c.fullExact
	default:
		return c.full - c.skel, c.fullExact && c.skelExact
	}
}

// estimate fills a candidate's token estimates from the project map.
func (c *cand) estimate() {
	if !c.fullExact {
		c.full = c.entry.Tokens
		if c.full <= 0 {
			c.full = int(c.entry.Size/3) + 1
		}
	}
	if !c.skelExact {
		c.skel = int(float64(c.full)*skelEstShare) + 1
	}
}

// materialize loads what a candidate needs for its items and returns the
// counts to make.
func (s *state) materialize(c *cand, needFull bool) []job {
	var jobs []job
	if !c.skelExact && !c.noSkel {
		if n, ok := s.counter.skeleton(c.entry); ok {
			// Counted before: the skeleton is read from the facts only
			// if it is delivered (fitCode's last loop, truncate).
			c.skel, c.skelExact = n, true
			return append(jobs, s.fullJob(c, needFull)...)
		}
		fc := s.factsOf(c.path)
		if fc == nil || strings.TrimSpace(fc.Skeleton) == "" {
			c.noSkel = true
		} else {
			c.content = fc.Skeleton
			c.skelExact = true
			jobs = append(jobs, job{blob: c.entry.Blob, kind: 's', text: fc.Skeleton, out: &c.skel, skeletonOf: c.entry})
		}
	}
	return append(jobs, s.fullJob(c, needFull)...)
}

// fullJob reads a candidate's text when needFull and it is not counted
// yet, and returns the count to make.
func (s *state) fullJob(c *cand, needFull bool) []job {
	var jobs []job
	if needFull && !c.fullExact {
		text, kind := s.readText(c)
		c.fullExact = true
		jobs = append(jobs, job{blob: c.entry.Blob, kind: kind, text: text, out: &c.full})
	}
	return jobs
}

// readText reads (once) and redacts a candidate's text, without counting it.
func (s *state) readText(c *cand) (string, byte) {
	if !c.read {
		b, err := s.w.Content(c.path)
		if err != nil {
			s.warn("%s: %v", c.path, err)
			b = nil
		}
		// World.Content redacts; a second pass costs little and keeps
		// secrets out whatever World gives.
		c.fullText, _ = s.red.Text(c.path, string(b))
		c.kind = 'f'
		c.read = true
	}
	return c.fullText, c.kind
}

// fitCode is step 5 for code_context: it decides every candidate's tier
// within limit tokens and returns the tokens used.
func (s *state) fitCode(limit int) int {
	var d0, others []*cand
	for _, c := range s.cands {
		if c.dist == 0 {
			d0 = append(d0, c)
		} else {
			others = append(others, c)
		}
	}
	// Distance 0: full, never cut.
	var jobs []job
	for _, c := range d0 {
		if c.idx < 0 {
			c.tier = TierDropped
			continue
		}
		c.tier = TierFull
		if !c.entry.Parsed() {
			c.pointer = fmt.Sprintf("%s is not shown (%s)", c.path, flagNames(c.entry))
			c.fullExact = true
			continue
		}
		jobs = append(jobs, s.materialize(c, true)...)
	}
	s.counter.parallel(jobs)
	used := 0
	for _, c := range d0 {
		if c.tier != TierFull {
			continue
		}
		c.content = c.fullText
		c.tokens = c.full
		if c.pointer != "" {
			c.tokens += s.counter.count(c.pointer)
		}
		used += c.tokens
	}
	for _, c := range d0 {
		if c.tier == TierFull && tooLarge(c.entry) && used < limit {
			n := c.tokens
			if s.headOfOversized(c, int(oversizeShare*float64(limit-used+n))) {
				used += c.tokens - n
			}
		}
	}
	for _, c := range others {
		c.tier = TierDropped
		if c.plan != TierDropped {
			c.estimate()
		}
	}
	// When the task's own files alone exceed code_context they still come
	// whole, beyond the budget; their neighbours then come as skeletons
	// within a code_context of their own, so the agent still sees what the
	// files it changes use and who uses them.
	outside, room := 0, limit-used
	if used > limit {
		s.budget.OverBudget = fmt.Sprintf("the task's own files (distance 0) need %d tokens, more than code_context's %d: they are given in full beyond the budget, their neighbours as skeletons within code_context", used, limit)
		s.budget.OutsideBudget = used
		s.warn("over budget: %s", s.budget.OverBudget)
		s.skelOnly = true
		outside, room = used, limit
	}

	// Tests of the task's files come first: they say what the change must
	// keep true. Each may take up to half of what is left.
	for _, c := range others {
		if c.dist != 1 || c.isTestOf == "" || c.plan == TierDropped || room < minTruncate {
			continue
		}
		limit := room / 2
		s.counter.parallel(s.materialize(c, c.plan == TierFull))
		ptr := ""
		if !c.noSkel {
			ptr = skelPointer(c)
		}
		switch {
		case c.plan == TierFull && c.full <= limit && !s.skelOnly:
			c.tier, c.content, c.tokens = TierFull, c.fullText, c.full
		case !c.noSkel && c.skel+s.counter.count(ptr) <= limit:
			c.tier, c.pointer = TierSkeleton, ptr
			c.tokens = c.skel + s.counter.count(ptr)
		default:
			if !s.truncate(c, limit) {
				continue
			}
		}
		c.tierWhy = ""
		room -= c.tokens
	}

	// With the value policy, the most relevant files of each distance
	// come next, each with a small share of what is left: the fill below
	// takes the most value per token, which many small files of little
	// relevance can win over the one file most of the task's neighbours
	// lead to. (The seed's order keeps its cut rules: every 1-hop file
	// before any 2-hop one.)
	var lead []*cand
	for _, c := range others {
		if s.opt.Policy != PolicySeed && c.plan != TierDropped && c.isTestOf == "" {
			lead = append(lead, c)
		}
	}
	sort.SliceStable(lead, func(a, b int) bool {
		if lead[a].dist != lead[b].dist {
			return lead[a].dist < lead[b].dist
		}
		return lead[a].rank < lead[b].rank
	})
	perDist := map[int]int{}
	var cutLead []*cand // leaders given the head of their skeleton
	for _, c := range lead {
		if perDist[c.dist]++; perDist[c.dist] > leaders || c.tier != TierDropped {
			continue
		}
		limit := int(leaderShare * float64(room))
		if limit < minTruncate {
			break
		}
		s.counter.parallel(s.materialize(c, false))
		if c.noSkel {
			continue // the fill gives its text, or truncates it
		}
		ptr := skelPointer(c)
		if n := c.skel + s.counter.count(ptr); n <= limit {
			c.tier, c.pointer, c.tokens = TierSkeleton, ptr, n
		} else if s.truncate(c, int(leaderTrunc*float64(room))) {
			// Too large for its share: the head of it now, more when
			// the fill leaves room (truncateUnfit).
			cutLead = append(cutLead, c)
		} else {
			continue
		}
		c.tierWhy = ""
		room -= c.tokens
	}

	// The fill, most valuable per token first.
	h := &itemHeap{}
	seq := 0
	seedOrder := s.opt.Policy == PolicySeed
	phaseOf := func(it *item) int {
		switch {
		case it.kind == 'u' && it.c.plan != TierFull:
			return 3 // extras: full text beyond the plan, only with budget left over
		case it.c.dist == 1 && it.kind != 'u':
			return 0 // 1-hop skeletons (or small files in full) before anything else
		case seedOrder && it.c.dist == 1:
			return 1 // seed: 1-hop full text before any 2-hop skeleton
		case seedOrder:
			return 2
		}
		return 1 // value: 1-hop full text and 2-hop skeletons by value per token
	}
	push := func(it *item) {
		it.phase = phaseOf(it)
		it.seq = seq
		seq++
		it.reprice()
		heap.Push(h, it)
	}
	var start []*item
	var later []*item // upgrades of tests already in
	for _, c := range others {
		if c.plan == TierDropped {
			continue
		}
		if c.tier != TierDropped {
			switch {
			case c.tier != TierSkeleton || s.skelOnly:
			case c.plan == TierFull:
				later = append(later, &item{c: c, kind: 'u', value: c.rel * upgradeValue})
			case !s.opt.NoExtras:
				later = append(later, &item{c: c, kind: 'u', value: c.rel * upgradeValue * extraValue})
			}
			continue
		}
		if c.plan == TierFull && float64(c.full) <= smallFull*float64(c.skel)+8 && !s.skelOnly {
			start = append(start, &item{c: c, kind: 'f', value: c.rel * (1 + upgradeValue)})
		} else {
			start = append(start, &item{c: c, kind: 's', value: c.rel})
		}
	}
	for _, it := range start {
		it.phase = phaseOf(it)
		it.reprice()
	}
	// Count the likeliest items up front, in parallel.
	sort.SliceStable(start, func(a, b int) bool {
		if start[a].phase != start[b].phase {
			return start[a].phase < start[b].phase
		}
		return start[a].prio > start[b].prio
	})
	jobs = jobs[:0]
	est := 0
	for i, it := range start {
		if i >= prefetchMax || float64(est) > prefetchShare*float64(room) {
			break
		}
		est += it.cost
		jobs = append(jobs, s.materialize(it.c, it.kind == 'f')...)
	}
	s.counter.parallel(jobs)
	for _, it := range append(start, later...) {
		push(it)
	}
	var unfit []*cand
	truncated := false
	truncateUnfit := func() {
		truncated = true
		// Leaders cut short get their whole skeleton, or their text,
		// when what is left allows; after the other truncations, a
		// longer head when room is still left.
		for _, c := range cutLead {
			if c.tier != TierTruncated {
				continue
			}
			avail := room + c.tokens
			s.counter.parallel(s.materialize(c, !s.skelOnly))
			ptr := skelPointer(c)
			switch {
			case !s.skelOnly && (c.plan == TierFull || !s.opt.NoExtras) && c.full <= avail:
				c.extra = c.plan != TierFull
				c.tier, c.content, c.pointer, c.tokens = TierFull, c.fullText, "", c.full
			case c.skel+s.counter.count(ptr) <= avail:
				c.tier, c.content, c.pointer, c.tokens = TierSkeleton, "", ptr, c.skel+s.counter.count(ptr)
				c.start, c.end = 0, 0
			default:
				continue
			}
			room = avail - c.tokens
		}
		sort.SliceStable(unfit, func(a, b int) bool {
			if unfit[a].dist != unfit[b].dist {
				return unfit[a].dist < unfit[b].dist
			}
			return unfit[a].rel > unfit[b].rel
		})
		for _, c := range unfit {
			if room < minTruncate {
				break
			}
			if c.tier != TierDropped {
				continue
			}
			if s.truncate(c, room) {
				room -= c.tokens
			}
		}
		for _, c := range cutLead {
			if c.tier == TierTruncated && room >= minTruncate {
				avail := room + c.tokens
				s.truncate(c, avail)
				room = avail - c.tokens
			}
		}
	}
	for h.Len() > 0 && room > 0 {
		it := heap.Pop(h).(*item)
		if it.phase >= 1 {
			// Every 1-hop skeleton is in: the bodies in them related to
			// the task files come before any full text or 2-hop file.
			s.focusOnce(&room)
		}
		if !truncated && (it.phase == 3 || seedOrder && it.phase == 2) {
			// Truncated skeletons of what did not fit come before any
			// extra (and, in the seed's order, before any 2-hop file),
			// then the related bodies inside the skeletons.
			truncateUnfit()
		}
		if !it.exact && float64(it.cost)*skipMargin > float64(room) {
			// Clearly too big for what is left: not worth counting.
			if it.kind != 'u' {
				unfit = append(unfit, it.c)
			}
			continue
		}
		if !it.exact {
			s.counter.parallel(s.materialize(it.c, it.kind != 's'))
			if it.c.noSkel && it.kind == 's' {
				if it.c.plan != TierFull {
					unfit = append(unfit, it.c) // no skeleton: a head of the file, when truncating
					continue
				}
				it.kind, it.value = 'f', it.c.rel*(1+upgradeValue)
				s.counter.parallel(s.materialize(it.c, true))
			}
			push(it)
			continue
		}
		c := it.c
		if it.kind == 's' && c.noSkel {
			unfit = append(unfit, c)
			continue
		}
		ptr := 0
		if it.kind == 's' {
			c.pointer = skelPointer(c)
			ptr = s.counter.count(c.pointer)
		}
		if it.cost+ptr > room {
			if it.kind != 'u' {
				unfit = append(unfit, c)
				c.pointer = ""
			}
			continue
		}
		switch it.kind {
		case 's':
			c.tier, c.tokens = TierSkeleton, c.skel+ptr
			room -= c.tokens
			if s.skelOnly {
				// neighbours of oversized task files stay skeletons
			} else if c.plan == TierFull {
				push(&item{c: c, kind: 'u', value: c.rel * upgradeValue})
			} else if !s.opt.NoExtras {
				push(&item{c: c, kind: 'u', value: c.rel * upgradeValue * extraValue})
			}
		case 'f', 'u':
			c.extra = c.plan != TierFull
			c.tier, c.content, c.pointer = TierFull, c.fullText, ""
			room -= c.full - c.tokens
			c.tokens = c.full
		}
	}
	// Last resort: truncate the most relevant skeletons that did not fit.
	if !truncated || len(unfit) > 0 {
		truncateUnfit()
	}
	s.prefetchSkeletons(others)
	s.focusOnce(&room)
	for _, c := range others {
		if c.tier == TierSkeleton && c.content == "" {
			if fc := s.factsOf(c.path); fc != nil {
				c.content = fc.Skeleton
			}
		}
		if c.tier == TierDropped {
			c.content, c.pointer = "", ""
		}
	}
	return outside + limit - room
}

// prefetcher is a World that reads the facts of many files in one batch
// (build.World.Prefetch): cheaper than one by one.
type prefetcher interface{ Prefetch(paths []string) }

// prefetchSkeletons reads in one batch the facts of the skeletons
// delivered whose text was not read yet (their token counts were kept).
func (s *state) prefetchSkeletons(cands []*cand) {
	p, ok := s.w.(prefetcher)
	if !ok {
		return
	}
	var paths []string
	for _, c := range cands {
		if _, read := s.facts[c.path]; !read && c.tier == TierSkeleton && c.content == "" {
			paths = append(paths, c.path)
		}
	}
	if len(paths) > 1 {
		p.Prefetch(paths)
	}
}

// truncate gives c as the head of its skeleton (or of its text, when it has
// no skeleton) that fits room with a pointer to the rest.
func (s *state) truncate(c *cand, room int) bool {
	src, _ := s.readText(c)
	text := ""
	if !c.noSkel {
		if fc := s.factsOf(c.path); fc != nil {
			text = fc.Skeleton
		}
	}
	fromSkel := text != ""
	if !fromSkel {
		text = src
	}
	lines := strings.SplitAfter(strings.TrimRight(text, "\n"), "\n")
	srcLines := strings.Split(src, "\n")
	total := len(srcLines)
	if strings.HasSuffix(src, "\n") {
		total--
	}
	var lineOf []int
	if fromSkel {
		lineOf = mapSkeleton(lines, srcLines)
	}
	firstCut := func(k int) int { // first source line not shown when k lines are kept
		if k >= len(lines) {
			return total + 1
		}
		if !fromSkel {
			return k + 1
		}
		return lineOf[k]
	}
	ptrFor := func(k int) string {
		from := firstCut(k)
		if from < 1 {
			from = 1
		}
		if from > total {
			return ""
		}
		return fmt.Sprintf("truncated: read lines %d-%d of %s", from, total, c.path)
	}
	cost := func(k int) int {
		return s.counter.count(strings.Join(lines[:k], "")) + s.counter.count(ptrFor(k))
	}
	lo, hi := 0, len(lines)-1 // largest k in [1, len-1] with cost(k) <= room
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if cost(mid) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo < 1 {
		return false
	}
	c.content = strings.Join(lines[:lo], "")
	c.pointer = ptrFor(lo)
	c.tokens = cost(lo)
	c.tier = TierTruncated
	c.start, c.end = 1, firstCut(lo)-1
	return true
}

// mapSkeleton finds, for each skeleton line, the source line it comes
// from: skeleton lines are source lines (or their starts, before an elided
// body) in order, so each is matched to the next source line that starts
// with it. Unmatched lines keep the previous line's number.
func mapSkeleton(skel, src []string) []int {
	out := make([]int, len(skel))
	j := 0
	prev := 1
	for i, l := range skel {
		key := strings.TrimRight(l, "\n")
		if k := strings.Index(key, "{ … }"); k >= 0 {
			key = key[:k]
		}
		key = strings.TrimRight(key, " \t")
		found := -1
		if key != "" {
			for t := j; t < len(src); t++ {
				if strings.HasPrefix(strings.TrimRight(src[t], " \t\r"), key) {
					found = t
					break
				}
			}
		}
		if found >= 0 {
			out[i] = found + 1
			j = found + 1
			prev = found + 1
		} else {
			out[i] = prev
		}
	}
	return out
}

func skelPointer(c *cand) string {
	lines := c.entry.Lines
	if lines > 0 {
		return fmt.Sprintf("skeleton: bodies elided; read %s (%d lines) for them", c.path, lines)
	}
	return fmt.Sprintf("skeleton: bodies elided; read %s for them", c.path)
}
