package scope

import (
	"fmt"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// oversize.go gives a task file too large to index (flagged too_large)
// as the head of its text that fits a share of code_context, with a line
// pointer to the rest, rather than nothing: the agent sees how the file
// begins and where to read on. A file of one line longer than that share
// is not shown; its pointer says so.

// oversizeShare is the share of code_context the head of an oversized
// task file may take.
const oversizeShare = 0.5

// tooLarge reports whether e was listed but not read for its size.
func tooLarge(e *world.FileEntry) bool {
	for _, f := range e.Flags {
		if f.Name == world.FlagTooLarge {
			return true
		}
	}
	return false
}

// headOfOversized makes c, a task file too large to index, the head of
// its text within room tokens; false when not even its first line fits.
func (s *state) headOfOversized(c *cand, room int) bool {
	b, err := s.w.Content(c.path)
	if err != nil {
		s.warn("%s: %v", c.path, err)
		return false
	}
	// Tokens are rarely shorter than a byte and seldom longer than
	// eight: the head worth counting is within room·8 bytes.
	text := string(b)
	total := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		total++
	}
	if cap := room * 8; len(text) > cap {
		text = text[:cap]
	}
	text, _ = s.red.Text(c.path, text)
	lines := strings.SplitAfter(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		lines = lines[:len(lines)-1] // a cut line is not shown
	}
	ptr := func(k int) string {
		return fmt.Sprintf("truncated: %s is too large to index (%s); read lines %d-%d of it", c.path, flagNames(c.entry), k+1, total)
	}
	cost := func(k int) int { return s.counter.count(strings.Join(lines[:k], "")) + s.counter.count(ptr(k)) }
	lo, hi := 0, len(lines)
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
	c.content, c.pointer, c.tokens = strings.Join(lines[:lo], ""), ptr(lo), cost(lo)
	c.tier, c.start, c.end = TierTruncated, 1, lo
	c.tierWhy = fmt.Sprintf("files_touched, too large to index (%s): the first %d of its %d lines, within %.0f%% of code_context; the rest by its line pointer", flagNames(c.entry), lo, total, 100*oversizeShare)
	return true
}
