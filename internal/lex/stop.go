package lex

import (
	"sort"
	"strings"
)

// stopList holds the words too common in prose and code to tell files
// apart: function words and the keywords and builtin names most languages
// share.
const stopList = `a an and are as at be but by for from has have if in into is it its
	no not of on or so such that the their then there these they this to was were will with
	we you i me my our can could should would may might must do does did done been being
	when where which who what why how all any some each other more most also only than too very
	just via per see let var const func fn def return
	if else elif for while break continue case switch default try catch except finally
	true false nil null none self this import package from public private protected static
	void int string bool str err ok`

// fillerList holds the words of requests, tasks and specs that name
// nothing in code: what a requirement is made of ("the user shall be able
// to…"), the words of asking ("please make it work"), and names of things
// every repository has (file, code, test, value). Spec alignment and the
// words a context's map is focused by leave them out beside the stop words.
const fillerList = `about above after again against also am any because before below between both
	cannot could during either etc every few further get gets given had having he her here hers him his
	however itself least less like made make makes many most need needs nor now off once one own same
	shall she since than those through thus under until up upon us use used uses using well whether
	while whom within without yet your them doing down ours out returns theirs
	new file files code function method type value test tests
	go py js ts md txt json toml yaml yml src lib pkg internal cmd main util utils req nfr
	able allow allows always user users system support supports provide provides data
	change changes keep want work works please sure over task`

var stop, filler = func() (stop, filler map[string]bool) {
	stop, filler = map[string]bool{}, map[string]bool{}
	for _, w := range strings.Fields(stopList) {
		stop[w], stop[Stem(w)] = true, true
	}
	for _, w := range strings.Fields(fillerList) {
		if !stop[w] {
			filler[w], filler[Stem(w)] = true, true
		}
	}
	return stop, filler
}()

// IsStop reports whether w, a lower-case word or its stem, is a stop word.
func IsStop(w string) bool { return stop[w] }

// IsFiller reports whether w, a lower-case word or its stem, is a stop word
// or filler (fillerList): a word of a request or a spec that names nothing
// in code.
func IsFiller(w string) bool { return stop[w] || filler[w] }

// StopWords lists the stop words and their stems, sorted: what IsStop
// holds, for a caller building a faster look-up of its own.
func StopWords() []string {
	out := make([]string, 0, len(stop))
	for w := range stop {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}
