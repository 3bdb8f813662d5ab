package formats

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/git-speed/git-speed/internal/lazyre"
	"github.com/git-speed/git-speed/layers/world"
)

// Log files (.log) are read by a line scanner: lines at level FATAL (also
// PANIC, CRITICAL), ERROR (also SEVERE) or WARN are definitions of kind
// fatal, error or warning, one per distinct message (digits and hex ids
// folded, so a message repeated with other numbers counts once), at the
// line of its first occurrence, with how many times it occurs. A fatal
// line is kept apart from the errors: the same message logged at both
// levels is two definitions. At most maxLogDefs distinct messages are
// kept, fatal ones and errors before warnings.

func init() {
	Register("log", extractLog)
}

const maxLogDefs = 500

type logEntry struct {
	level string
	line  int
	last  int
	count int
	text  string
}

func extractLog(src []byte, opt Options, facts *world.Facts) {
	var entries []*logEntry
	seen := map[string]*logEntry{}
	errs, warns, dropped := 0, 0, 0
	forLines(src, func(ln int, l []byte) bool {
		lv, end := logLevel(l)
		if lv == "" {
			return true
		}
		msg := logMessage(l, end)
		key := lv + "\x00" + logFold(msg)
		if e, ok := seen[key]; ok {
			e.count++
			e.last = ln
			return true
		}
		if lv == "warning" && warns >= maxLogDefs/2 || errs+warns >= maxLogDefs {
			dropped++
			return true
		}
		if lv == "warning" {
			warns++
		} else {
			errs++
		}
		e := &logEntry{level: lv, line: ln, last: ln, count: 1, text: msg}
		seen[key] = e
		entries = append(entries, e)
		return true
	})
	var sk strings.Builder
	for i, e := range entries {
		name := e.text
		if len(name) > 80 {
			name = name[:80] + "…"
		}
		sig := strings.ToUpper(e.level) + " " + name
		if e.count > 1 {
			sig += " (×" + strconv.Itoa(e.count) + ", last line " + strconv.Itoa(e.last) + ")"
		}
		facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: e.level + ": " + name, Kind: e.level,
			Start: e.line, End: e.line, Signature: sig})
		if i < maxSkelLines {
			sk.WriteString(sig + lineMark(e.line, e.line) + "\n")
		}
	}
	if dropped > 0 {
		fmt.Fprintf(&sk, "# … %d more distinct messages\n", dropped)
	}
	facts.Skeleton = sk.String()
}

// logLevel is "fatal", "error" or "warning" for a line logged at such a level, ""
// otherwise. Upper-case level words count anywhere as a word; lower-case
// ones only as level=error, "level":"error", [error] or error: at the start.
func logLevel(l []byte) (level string, end int) {
	if len(l) > 4096 {
		l = l[:4096]
	}
	for _, w := range [...]struct{ word, level string }{
		{"FATAL", "fatal"}, {"PANIC", "fatal"}, {"CRITICAL", "fatal"}, {"ERROR", "error"}, {"SEVERE", "error"},
		{"ERR", "error"}, {"WARNING", "warning"}, {"WARN", "warning"},
	} {
		if i := logWord(l, []byte(w.word)); i >= 0 {
			return w.level, i + len(w.word)
		}
	}
	low := bytes.ToLower(l[:min(len(l), 200)])
	for _, p := range [...]string{"level=error", "level=fatal", `"level":"error"`, `"level":"fatal"`, "[error]", "[fatal]",
		"level=warn", `"level":"warn`, "[warn"} {
		if i := bytes.Index(low, []byte(p)); i >= 0 {
			switch {
			case strings.Contains(p, "warn"):
				return "warning", i + len(p)
			case strings.Contains(p, "fatal"):
				return "fatal", i + len(p)
			}
			return "error", i + len(p)
		}
	}
	if bytes.HasPrefix(low, []byte("fatal:")) {
		return "fatal", 6
	}
	if bytes.HasPrefix(low, []byte("error:")) {
		return "error", 6
	}
	if bytes.HasPrefix(low, []byte("warning:")) {
		return "warning", 8
	}
	return "", 0
}

// logWord is where w occurs in l as a whole word, -1 if it does not.
func logWord(l, w []byte) int {
	for off := 0; ; {
		i := bytes.Index(l[off:], w)
		if i < 0 {
			return -1
		}
		i += off
		j := i + len(w)
		if (i == 0 || !isWordByte(l[i-1])) && (j == len(l) || !isWordByte(l[j])) {
			return i
		}
		off = j
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// logMessage is what a log line says after its level word (the whole
// line when nothing follows it), space runs collapsed, words that look
// like credentials (see secretValue) written ***.
func logMessage(l []byte, end int) string {
	if m := logJSONMsg.FindSubmatch(l); m != nil {
		return strings.ToValidUTF8(string(m[1]), "?")
	}
	rest := bytes.TrimLeft(l[min(end, len(l)):], " \t:]|-=\",")
	if len(bytes.TrimSpace(rest)) == 0 {
		rest = l
	}
	words := strings.Fields(string(rest[:min(len(rest), 400)]))
	for i, w := range words {
		_, v, _ := strings.Cut(w, "=")
		if v == "" {
			v = w
		}
		if secretValue(strings.Trim(v, `"',;()[]{}`)) {
			words[i] = strings.TrimSuffix(w, v) + "***"
		}
	}
	return strings.ToValidUTF8(strings.Join(words, " "), "?")
}

// logJSONMsg finds the message of a structured (JSON) log line.
var logJSONMsg = lazyre.New(`"(?:msg|message)"\s*:\s*"((?:[^"\\]|\\.){1,400})"`)

// logVarying matches the parts of a message that vary between
// occurrences: hex runs of 8 or more (ids, hashes) and digit runs.
var logVarying = lazyre.New(`\b[0-9a-fA-F]{8,}\b|[0-9]+`)

func logFold(s string) string { return logVarying.ReplaceAllString(s, "#") }
