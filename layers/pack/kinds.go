package pack

import (
	"path"
	"regexp"
	"strings"
)

// What a request is and what a file is: a bug report wants the source
// that misbehaves, not the changelog that will record the fix, the
// documentation that describes the feature or the fixture a test feeds
// it; a commit message often names all of them, since a commit changes
// them together. Both kinds are read from text and paths alone, so a
// pack and its evaluation see the same thing.

// reqKind is what a request reads as.
type reqKind uint8

const (
	reqCommit  reqKind = iota // a commit message: a short subject, maybe a body
	reqBug                    // a bug report: an error, a traceback, what was expected
	reqFeature                // a feature request: what should be possible
)

func (k reqKind) String() string {
	return [...]string{"commit message", "bug report", "feature request"}[k]
}

var (
	bugWords     = regexp.MustCompile(`(?i)\b(traceback|exception|error|errors|crash(es|ed)?|fail(s|ed|ing|ure)?|raises?|bug|broken|wrong|incorrect(ly)?|unexpected(ly)?|regression|segfault|panic(s|ked)?|doesn't work|does not work|not working|expected (behaviou?r|result|output)|actual (behaviou?r|result|output)|steps to reproduce|reproduc(e|ible|er))\b`)
	featureWords = regexp.MustCompile(`(?i)\b(feature request|would be (nice|great|useful|good)|it would be|add(ing)? support|support for|allow(s|ing)? (users?|to|the|a)|option to|ability to|proposal|propose|enhancement|could we|can we|please add|new (option|parameter|argument|flag|feature))\b`)
	// A commit subject: "fix: …", "area: …", "feat(x)!: …", or an
	// imperative verb first.
	commitSubject = regexp.MustCompile(`^(\w[\w./-]*(\([^)]*\))?!?: |(?i:(add|adds|fix|fixes|fixed|update|updates|remove|removes|refactor|rename|bump|move|use|make|allow|support|improve|implement|drop|replace|revert|merge|clean|simplify|avoid|handle|ensure|prevent|document|test|tests|chore|docs|build|ci|release|prepare|set|change|correct|deprecate|introduce|enable|disable|extract|split|reduce|speed|optimi[sz]e|upgrade|pin|skip|restore|return|let|don't|do not)\b))`)
	fence         = regexp.MustCompile("(?m)^\\s*```")
	excName       = regexp.MustCompile(`\b[A-Z][A-Za-z]*(Error|Exception|Warning)\b`)
	wantWords     = regexp.MustCompile(`(?i)\b(would be (nice|great|useful|good)|it would be|feature request|please add|could we|can we)\b`)
)

// requestKind reads a request: a traceback, a fenced code block with an
// error, or enough words of failure make a bug report; words of wanting
// make a feature request; a short text with a commit's subject line is a
// commit message. What is none of these is a commit message, the kind
// the default weights were tuned on.
func requestKind(text string) reqKind {
	subject, body, _ := strings.Cut(strings.TrimSpace(text), "\n")
	subject = strings.TrimSpace(subject)
	bugs := len(bugWords.FindAllStringIndex(text, 8)) + len(excName.FindAllStringIndex(text, 8))
	feats := len(featureWords.FindAllStringIndex(text, 8))
	frames := len(frameLine.FindAllStringIndex(text, 2))
	switch {
	case frames > 0:
		return reqBug
	case commitSubject.MatchString(subject) && len(subject) <= 100 && !fence.MatchString(text) && len(body) < 1500 && !wantWords.MatchString(text):
		return reqCommit
	case bugs >= 2 || (bugs == 1 && fence.MatchString(text)):
		if feats > bugs {
			return reqFeature
		}
		return reqBug
	case feats > 0:
		return reqFeature
	}
	return reqCommit
}

// fileKind is what a file is, by its path.
type fileKind uint8

const (
	fileSource fileKind = iota
	fileTest
	fileDocs      // prose: README, docs/, *.md, *.rst, *.txt
	fileChangelog // CHANGES, CHANGELOG.md, HISTORY, NEWS, release notes
	fileFixture   // test data: fixtures, testdata, snapshots, expected outputs
	fileStyle     // stylesheets
	fileBuild     // build and package metadata, lock files, CI configuration
	fileExample   // examples, benchmarks, demos
)

var fileKindNames = [...]string{"source", "test", "docs", "changelog", "fixture", "stylesheet", "build", "example"}

func (k fileKind) String() string { return fileKindNames[k] }

// kindOfFile classifies p by its folders, name and extension.
func kindOfFile(p string) fileKind {
	lp := strings.ToLower(p)
	origStem := strings.TrimSuffix(path.Base(p), path.Ext(p))
	base := path.Base(lp)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch {
	case isChangelog(stem, lp):
		return fileChangelog
	case ext == ".css" || ext == ".scss" || ext == ".sass" || ext == ".less" || ext == ".styl":
		return fileStyle
	}
	dirs := strings.Split(path.Dir(lp), "/")
	for _, d := range dirs {
		switch d {
		case "fixtures", "fixture", "testdata", "test-data", "test_data", "__snapshots__", "snapshots", "snapshot", "__fixtures__", "golden", "goldens", "expected", "cassettes", "baseline_images":
			return fileFixture
		}
	}
	if ext == ".snap" || ext == ".golden" {
		return fileFixture
	}
	code := sourceExt[ext]
	if code && (testDir(p) || isTestName(stem, origStem, ext)) {
		return fileTest
	}
	if !code && testDir(p) {
		return fileFixture
	}
	for _, d := range dirs {
		switch d {
		case "docs", "doc", "documentation", "website", "site", "guide", "guides", "man", "rfcs":
			if !code {
				return fileDocs
			}
		case "examples", "example", "benchmarks", "bench", "benches", "demo", "demos", "samples", "sample", "playground":
			return fileExample
		}
	}
	switch ext {
	case ".md", ".markdown", ".rst", ".txt", ".adoc", ".asciidoc", ".html", ".htm", ".mdx", ".ipynb":
		return fileDocs
	}
	switch base {
	case "package.json", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "cargo.toml", "cargo.lock", "go.mod", "go.sum",
		"pom.xml", "build.gradle", "build.gradle.kts", "setup.py", "setup.cfg", "pyproject.toml", "tox.ini", "makefile",
		"requirements.txt", "tsconfig.json", "manifest.in", ".travis.yml", "appveyor.yml", "dockerfile":
		return fileBuild
	}
	if strings.HasPrefix(lp, ".github/") || strings.HasPrefix(lp, ".circleci/") || strings.HasPrefix(lp, "ci/") {
		return fileBuild
	}
	if !code && ext != "" {
		switch ext {
		case ".json", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".lock", ".xml", ".properties", ".gradle":
			return fileBuild
		}
	}
	return fileSource
}

func isChangelog(stem, lp string) bool {
	switch stem {
	case "changelog", "changes", "history", "news", "releases", "release-notes", "release_notes", "whatsnew", "changelog-unreleased", "unreleased":
		return true
	}
	for _, d := range []string{"changelog/", "changes/", "changelog.d/", "newsfragments/", "release-notes/", "release_notes/", "whatsnew/", "next_whats_new/", "api_changes", "/changelog/", "/whatsnew/"} {
		if strings.HasPrefix(lp, d) || strings.Contains(lp, "/"+strings.TrimPrefix(d, "/")) {
			return true
		}
	}
	return false
}

func isTestName(stem, origStem, ext string) bool {
	return strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "_tests") ||
		strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") || strings.HasSuffix(stem, "_spec") ||
		(ext == ".java" && (strings.HasSuffix(origStem, "Test") || strings.HasSuffix(origStem, "Tests") || strings.HasPrefix(origStem, "Test"))) || stem == "conftest" || stem == "tests"
}

var sourceExt = map[string]bool{
	".go": true, ".py": true, ".pyi": true, ".js": true, ".mjs": true, ".cjs": true, ".jsx": true, ".ts": true, ".tsx": true,
	".mts": true, ".cts": true, ".rs": true, ".java": true, ".kt": true, ".scala": true, ".c": true, ".h": true, ".cc": true,
	".cpp": true, ".hpp": true, ".rb": true, ".php": true, ".cs": true, ".swift": true, ".ex": true, ".exs": true,
	".pyx": true, ".pxd": true, ".vue": true, ".svelte": true, ".sh": true, ".lua": true,
}
