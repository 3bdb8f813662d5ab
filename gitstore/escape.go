package gitstore

import (
	"fmt"
	"strings"
)

// Shard keys are arbitrary strings; each slash-separated component becomes a
// tree entry name. escapeName makes a component safe as a git tree entry
// name on every platform and under `transfer.fsckObjects`: bytes outside
// [A-Za-z0-9_.-] become %XX (uppercase hex), a leading '.' is escaped too (so
// no ".", "..", ".git" entries), and the empty component is "%" alone. The
// encoding is reversible and injective, and never produces "@", which marks a
// shard's blob inside its folder.
func escapeName(s string) string {
	if s == "" {
		return "%"
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		safe := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || (c == '.' && i > 0)
		if safe {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// unescapeName reverses escapeName; it rejects names escapeName cannot
// produce.
func unescapeName(s string) (string, error) {
	if s == "%" {
		return "", nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+2 >= len(s) {
			return "", fmt.Errorf("bad escape in %q", s)
		}
		v, ok := unhex2(s[i+1], s[i+2])
		if !ok {
			return "", fmt.Errorf("bad escape in %q", s)
		}
		b.WriteByte(v)
		i += 2
	}
	out := b.String()
	if escapeName(out) != s {
		return "", fmt.Errorf("non-canonical name %q", s)
	}
	return out, nil
}

func unhex2(a, b byte) (byte, bool) {
	x, ok1 := unhex(a)
	y, ok2 := unhex(b)
	return x<<4 | y, ok1 && ok2
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// splitKey turns a shard key into escaped tree entry names.
func splitKey(key string) []string {
	parts := strings.Split(key, "/")
	for i, p := range parts {
		parts[i] = escapeName(p)
	}
	return parts
}
