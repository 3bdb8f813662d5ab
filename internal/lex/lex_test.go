package lex

import (
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	for in, want := range map[string][]string{
		"parseHTTPRequest_v2": {"parse", "http", "request", "v", "2"},
		"snake_case_name":     {"snake", "case", "name"},
		"URL":                 {"url"},
		"__init__":            {"init"},
		"x":                   {"x"},
		"HTTP2Server":         {"http", "2", "server"},
	} {
		if got := Split(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Split(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Whole("parse_HTTP_request"); got != "parsehttprequest" {
		t.Errorf("Whole = %q", got)
	}
}

func TestStemMeets(t *testing.T) {
	for _, group := range [][]string{
		{"cache", "caches", "cached", "caching"},
		{"handler", "handle", "handling", "handles"},
		{"run", "running", "runs"},
		{"entry", "entries"},
		{"recent", "recently"},
	} {
		want := Stem(group[0])
		for _, w := range group[1:] {
			if Stem(w) != want {
				t.Errorf("Stem(%q) = %q, Stem(%q) = %q", w, Stem(w), group[0], want)
			}
		}
	}
}

// StemBytes is Stem.
func FuzzStemBytes(f *testing.F) {
	for _, w := range []string{"entries", "classes", "running", "cached", "buses", "is", "ies", "hopping", "fizzes"} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w string) {
		if got, want := string(StemBytes([]byte(w))), Stem(w); got != want {
			t.Fatalf("StemBytes(%q) = %q, Stem = %q", w, got, want)
		}
	})
}

// Stop words are filler too; filler is not a stop word; both sets hold
// their words' stems.
func TestStopAndFiller(t *testing.T) {
	for _, w := range []string{"the", "func", "return", "err"} {
		if !IsStop(w) || !IsFiller(w) || !IsStop(Stem(w)) {
			t.Errorf("%q: stop %v filler %v", w, IsStop(w), IsFiller(w))
		}
	}
	for _, w := range []string{"user", "shall", "please", "files"} {
		if IsStop(w) || !IsFiller(w) || !IsFiller(Stem(w)) {
			t.Errorf("%q: stop %v filler %v", w, IsStop(w), IsFiller(w))
		}
	}
	for _, w := range []string{"cache", "kubelet", "parser"} {
		if IsFiller(w) {
			t.Errorf("%q is filler", w)
		}
	}
	if len(StopWords()) == 0 || !IsStop(StopWords()[0]) {
		t.Error("StopWords is not what IsStop holds")
	}
}
