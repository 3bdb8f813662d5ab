// Package lazyre provides regular expressions compiled on their first use
// instead of at package initialisation. A package-level regexp.MustCompile
// runs in every process, whatever the command: the extractors' and the
// failure classifier's hundred and twenty patterns cost a few milliseconds
// of every `git speed` start, a scope's included, which uses none of them.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a pattern compiled the first time it is matched. It is safe
// for concurrent use, as regexp.Regexp is.
type Regexp struct {
	pattern string
	once    sync.Once
	re      *regexp.Regexp
}

// New returns the pattern to compile on first use. A pattern that does not
// compile panics there, as regexp.MustCompile would at initialisation: the
// patterns are the program's own, and a test that matches each finds it.
func New(pattern string) *Regexp { return &Regexp{pattern: pattern} }

// Re returns the compiled expression.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.pattern) })
	return r.re
}

// String returns the source text of the pattern, without compiling it.
func (r *Regexp) String() string { return r.pattern }

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.Re().MatchString(s) }

// FindStringIndex is regexp.Regexp.FindStringIndex.
func (r *Regexp) FindStringIndex(s string) []int { return r.Re().FindStringIndex(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Re().FindStringSubmatch(s) }

// FindStringSubmatchIndex is regexp.Regexp.FindStringSubmatchIndex.
func (r *Regexp) FindStringSubmatchIndex(s string) []int { return r.Re().FindStringSubmatchIndex(s) }

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Re().FindAllStringSubmatch(s, n)
}

// FindSubmatch is regexp.Regexp.FindSubmatch.
func (r *Regexp) FindSubmatch(b []byte) [][]byte { return r.Re().FindSubmatch(b) }

// FindSubmatchIndex is regexp.Regexp.FindSubmatchIndex.
func (r *Regexp) FindSubmatchIndex(b []byte) []int { return r.Re().FindSubmatchIndex(b) }

// FindAllIndex is regexp.Regexp.FindAllIndex.
func (r *Regexp) FindAllIndex(b []byte, n int) [][]int { return r.Re().FindAllIndex(b, n) }

// FindAllSubmatchIndex is regexp.Regexp.FindAllSubmatchIndex.
func (r *Regexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	return r.Re().FindAllSubmatchIndex(b, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Re().ReplaceAllString(src, repl)
}

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Re().ReplaceAllStringFunc(src, repl)
}

// FindIndex is regexp.Regexp.FindIndex.
func (r *Regexp) FindIndex(b []byte) []int { return r.Re().FindIndex(b) }
