package scope

import (
	"fmt"
	"testing"
)

func TestCoverageOf(t *testing.T) {
	src := "package a\n\nfunc A() {\n\tx()\n\ty()\n}\n\nfunc B() {\n\tz()\n}\n"
	skel := File{Tier: TierSkeleton, Content: "package a\n\nfunc A() {\n\tx()\n\ty()\n}\n\nfunc B() { … }\n"}
	cv := CoverageOf(skel, src)
	if got := fmt.Sprint(cv.Shown); got != "[true true true true true true true true false false]" {
		t.Errorf("shown %s", got)
	}
	if Covers(cv.Pointed, 9, 1) {
		t.Error("a body elided without a line pointer counts as pointed to")
	}
	skel.Content = "package a\n\nfunc A() { … } // lines 3-6\n\nfunc B() { … } // lines 8-10\n"
	cv = CoverageOf(skel, src)
	if !Covers(cv.Shown, 3, 1) || Covers(cv.Shown, 4, 2) || !Covers(cv.Pointed, 4, 2) || !Covers(cv.Pointed, 9, 0) {
		t.Errorf("shown %v pointed %v", cv.Shown, cv.Pointed)
	}
	py := "def f(x):\n    return x\n\ndef g():\n    pass\n"
	cv = CoverageOf(File{Tier: TierSkeleton, Content: "def f(x):\n    ...  # line 2\n\ndef g():\n    ...\n"}, py)
	if !Covers(cv.Pointed, 2, 1) || Covers(cv.Shown, 2, 1) || Covers(cv.Pointed, 5, 1) || !Covers(cv.Shown, 4, 1) {
		t.Errorf("python: shown %v pointed %v", cv.Shown, cv.Pointed)
	}
	tr := File{Tier: TierTruncated, Content: "package a\n\nfunc A() {\n", Pointer: "truncated: read lines 4-10 of a.go"}
	cv = CoverageOf(tr, src)
	if !Covers(cv.Shown, 1, 3) || Covers(cv.Shown, 4, 1) || !Covers(cv.Pointed, 4, 7) {
		t.Errorf("truncated: shown %v pointed %v", cv.Shown, cv.Pointed)
	}
	if cv := CoverageOf(File{Tier: TierFull}, src); !Covers(cv.Shown, 1, 10) {
		t.Error("a full file does not show every line")
	}
}
