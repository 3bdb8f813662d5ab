package scope

import (
	"strings"
	"testing"
)

func TestTestSubject(t *testing.T) {
	for p, want := range map[string]string{
		"tests/test_core.py":         "py:core",
		"tests/models/test_url.py":   "py:url",
		"src/options_test.go":        "go:options",
		"src/a/b.test.tsx":           "js:b",
		"lib/api.spec.js":            "js:api",
		"test/hooks.ts":              "js:hooks",
		"spec/models/user_spec.rb":   "rb:user",
		"src/test/java/FooTest.java": "java:foo",
		"test/index.ts":              "", // names a folder, not a file
		"tests/__init__.py":          "",
		"src/core.py":                "",
		"Makefile":                   "",
		"tests/_test":                "",
	} {
		if got := testSubject(p); got != want {
			t.Errorf("testSubject(%q) = %q, want %q", p, got, want)
		}
	}
}

// A task file's test elsewhere in the tree, with no graph edge to it, is
// found by name: the nearest one only, and only in the same language
// family.
func TestNamedTestFiles(t *testing.T) {
	w := newFakeP("4b825dc642cb6eb9a060e54bf8d69288fbee4904", []fileSpec{
		{"src/pkg/_core.py", 3, 4},
		{"src/pkg/util.py", 2, 3},
		{"src/pkg/tests/test_core.py", 2, 3},
		{"tests/test_core.py", 2, 3},
		{"tests/test_util.py", 2, 3},
		{"other/core_test.go", 2, 3},
	}, []pe{
		{"src/pkg/_core.py", "src/pkg/util.py", 2},
		{"tests/test_util.py", "src/pkg/util.py", 2},
	})
	f := ruleFeature(t, `"src/pkg/_core.py"`)
	_, m := runRule(t, w, f, 1<<20, nil)
	if e, ok := m["src/pkg/tests/test_core.py"]; !ok || e.Distance != 1 || e.Tier != TierFull || !strings.HasPrefix(e.Reason, "test of src/pkg/_core.py") {
		t.Errorf("nearest named test: %+v (in manifest: %v)", e, ok)
	}
	for _, p := range []string{"tests/test_core.py", "other/core_test.go"} {
		if e, ok := m[p]; ok {
			t.Errorf("%s is a candidate (%+v): want only the nearest test of the same language", p, e)
		}
	}
	if e := m["tests/test_util.py"]; e.Distance != 2 {
		t.Errorf("tests/test_util.py: distance %d, want 2 (a caller of a callee)", e.Distance)
	}
}
