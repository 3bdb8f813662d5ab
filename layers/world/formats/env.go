package formats

import (
	"bytes"
	"strings"

	"github.com/git-speed/git-speed/internal/lazyre"
	"github.com/git-speed/git-speed/layers/world"
)

// .env files (.env, .env.local, .env.production …) are read by a line
// scanner: every KEY=value (optionally after export) is a definition of
// kind var. Values are never kept: not in the signature, the doc or the
// skeleton, which show KEY=***REDACTED***; comments are left out too, since
// commented-out lines often hold old values. A quoted value that spans
// lines widens its key's range.

func init() {
	Register("env", extractEnv)
}

// Redacted stands for a value that is never stored or shown.
const Redacted = "***REDACTED***"

var envKey = lazyre.New(`^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.\-]*)\s*=\s*(.?)`)

func extractEnv(src []byte, opt Options, facts *world.Facts) {
	var sk strings.Builder
	quote := byte(0) // the quote of a value still open
	forLines(src, func(ln int, l []byte) bool {
		if quote != 0 {
			facts.Defs[len(facts.Defs)-1].End = ln
			if bytes.IndexByte(l, quote) >= 0 {
				quote = 0
			}
			return true
		}
		m := envKey.FindSubmatchIndex(l)
		if m == nil {
			return true
		}
		key := string(l[m[2]:m[3]])
		if len(facts.Defs) >= maxOutlineDefs {
			return false
		}
		facts.Defs = append(facts.Defs, world.Def{Name: key, Qualified: key, Kind: world.KindVar, Start: ln, End: ln,
			Signature: key + "=" + Redacted, Exported: true})
		if m[4] < m[5] {
			if q := l[m[4]]; q == '"' || q == '\'' || q == '`' {
				if bytes.IndexByte(l[m[5]:], q) < 0 {
					quote = q
				}
			}
		}
		if len(facts.Defs) <= maxSkelLines {
			sk.WriteString(key + "=" + Redacted + "\n")
		}
		return true
	})
	facts.Skeleton = sk.String()
}

// forLines calls fn with each line of src (1-based number, without its
// line ending) until fn returns false; it does not copy src.
func forLines(src []byte, fn func(n int, line []byte) bool) {
	for n := 1; len(src) > 0; n++ {
		i := bytes.IndexByte(src, '\n')
		line := src
		if i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if !fn(n, line) {
			return
		}
	}
}
