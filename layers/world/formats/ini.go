package formats

import (
	"strings"

	"github.com/git-speed/git-speed/internal/lazyre"
	"github.com/git-speed/git-speed/layers/world"
)

// INI and .cfg files have no tree-sitter grammar in go.mod; this plain
// extractor reads them line by line: [sections] are modules, keys are
// definitions with Parent = section. The skeleton keeps section headers and
// keys with short values; values of keys that look secret are written ***.

func init() {
	Register(world.LangINI, func(src []byte, _ Options, facts *world.Facts) { extractINI(src, facts) })
}

// iniSecret matches key names whose values must never reach a prompt.
var iniSecret = lazyre.New(`(?i)(secret|passw|pwd|token|api[_-]?key|access[_-]?key|private[_-]?key|credential|auth|cookie|session[_-]?key|salt|dsn|connection[_-]?string)`)

// iniValue returns the value to show for a key: *** for secrets, … for long values.
func iniValue(key, value string) string {
	switch {
	case value == "":
		return ""
	case iniSecret.MatchString(key):
		return "***"
	case len(value) > maxValue:
		return "…"
	}
	return value
}

func extractINI(src []byte, facts *world.Facts) {
	lines := strings.Split(string(src), "\n")
	var sk strings.Builder
	section, secIdx := "", -1
	lastContent := 0 // last non-blank, non-comment line
	doc := ""
	docLine := 0
	closeSection := func() {
		if secIdx >= 0 && lastContent >= facts.Defs[secIdx].Start {
			facts.Defs[secIdx].End = lastContent
		}
	}
	inValue := false // continuation lines of a multi-line value may follow
	keyIndent := 0
	for i, raw := range lines {
		ln := i + 1
		l := strings.TrimRight(raw, "\r")
		t := strings.TrimSpace(l)
		if t == "" {
			doc = ""
			inValue = false
			continue
		}
		if t[0] == ';' || t[0] == '#' {
			if doc == "" || docLine != ln-1 {
				doc = strings.TrimSpace(strings.TrimLeft(t, ";#"))
			}
			docLine = ln
			continue
		}
		if inValue && iniIndent(l) > keyIndent && len(facts.Defs) > 0 {
			lastContent = ln
			facts.Defs[len(facts.Defs)-1].End = ln
			continue // continuation: elided with its key
		}
		inValue = false
		d := ""
		if docLine == ln-1 {
			d = doc
		}
		doc = ""
		if t[0] == '[' {
			closeSection()
			name := strings.TrimSpace(strings.Trim(t, "[]"))
			if j := strings.IndexByte(t, ']'); j > 0 {
				name = strings.TrimSpace(t[1:j])
			}
			section = name
			facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: name, Kind: world.KindModule, Start: ln, End: ln,
				Signature: "[" + name + "]", Doc: d})
			secIdx = len(facts.Defs) - 1
			lastContent = ln
			if sk.Len() > 0 {
				sk.WriteString("\n")
			}
			sk.WriteString("[" + name + "]\n")
			continue
		}
		key, value, hasValue := t, "", false
		if j := strings.IndexAny(t, "=:"); j >= 0 {
			key, value, hasValue = strings.TrimSpace(t[:j]), strings.TrimSpace(t[j+1:]), true
		}
		inValue, keyIndent = true, iniIndent(l)
		if key == "" {
			continue
		}
		lastContent = ln
		sig := key
		if hasValue {
			sig = key + " = " + iniValue(key, value)
			sig = strings.TrimSpace(sig)
		}
		facts.Defs = append(facts.Defs, world.Def{Name: key, Qualified: joinQual(section, key), Parent: section, Kind: world.KindKey,
			Start: ln, End: ln, Signature: sig, Doc: d})
		sk.WriteString(sig + "\n")
	}
	closeSection()
	facts.Skeleton = sk.String()
}

// iniIndent returns the width of a line's leading white space.
func iniIndent(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }
