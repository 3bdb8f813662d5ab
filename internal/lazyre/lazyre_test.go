package lazyre

import (
	"fmt"
	"regexp"
	"sync"
	"testing"
)

// Each method gives what the compiled expression's method gives.
func TestSameAsRegexp(t *testing.T) {
	const pat = `([a-z]+)=(\d+)`
	const s = "a=1 bb=22 x ccc=333"
	l, r := New(pat), regexp.MustCompile(pat)
	if l.re != nil {
		t.Fatal("New compiled its pattern before its first use")
	}
	eq := func(name string, got, want any) {
		t.Helper()
		if g, w := sprint(got), sprint(want); g != w {
			t.Errorf("%s: %s, regexp gives %s", name, g, w)
		}
	}
	eq("MatchString", l.MatchString(s), r.MatchString(s))
	eq("FindStringIndex", l.FindStringIndex(s), r.FindStringIndex(s))
	eq("FindStringSubmatch", l.FindStringSubmatch(s), r.FindStringSubmatch(s))
	eq("FindStringSubmatchIndex", l.FindStringSubmatchIndex(s), r.FindStringSubmatchIndex(s))
	eq("FindAllStringSubmatch", l.FindAllStringSubmatch(s, -1), r.FindAllStringSubmatch(s, -1))
	eq("FindSubmatch", l.FindSubmatch([]byte(s)), r.FindSubmatch([]byte(s)))
	eq("FindSubmatchIndex", l.FindSubmatchIndex([]byte(s)), r.FindSubmatchIndex([]byte(s)))
	eq("FindIndex", l.FindIndex([]byte(s)), r.FindIndex([]byte(s)))
	eq("FindAllIndex", l.FindAllIndex([]byte(s), 2), r.FindAllIndex([]byte(s), 2))
	eq("FindAllSubmatchIndex", l.FindAllSubmatchIndex([]byte(s), -1), r.FindAllSubmatchIndex([]byte(s), -1))
	eq("ReplaceAllString", l.ReplaceAllString(s, "$2"), r.ReplaceAllString(s, "$2"))
	eq("ReplaceAllStringFunc", l.ReplaceAllStringFunc(s, func(m string) string { return "<" + m + ">" }),
		r.ReplaceAllStringFunc(s, func(m string) string { return "<" + m + ">" }))
	eq("String", l.String(), r.String())
	if l.Re() != l.Re() {
		t.Error("Re compiled the pattern twice")
	}
}

// Goroutines matching at once share one compiled expression.
func TestConcurrentFirstUse(t *testing.T) {
	l := New(`b+`)
	var wg sync.WaitGroup
	res := make([]*regexp.Regexp, 8)
	for i := range res {
		wg.Add(1)
		go func() { defer wg.Done(); res[i] = l.Re() }()
	}
	wg.Wait()
	for _, r := range res {
		if r != res[0] {
			t.Fatal("two goroutines compiled the pattern each")
		}
	}
}

// A pattern that does not compile panics at its first use, as MustCompile.
func TestBadPatternPanicsOnUse(t *testing.T) {
	l := New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("a bad pattern matched without a panic")
		}
	}()
	l.MatchString("x")
}

func sprint(v any) string { return fmtV(v) }

func fmtV(v any) string { return fmt.Sprintf("%q", v) }
