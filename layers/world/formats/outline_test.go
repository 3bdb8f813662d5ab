package formats

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// secretKeyPlainly is secretKey written the plain way: lower-case, drop -
// and _, look for each word.
func secretKeyPlainly(key string) bool {
	k := strings.ReplaceAll(strings.ReplaceAll(strings.ToLower(key), "-", ""), "_", "")
	for _, w := range secretWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

func FuzzSecretKey(f *testing.F) {
	for _, k := range []string{"", "name", "API_KEY", "apiKey", "db-Password", "client_secret", "x-Auth-Token", "AUTHOR",
		"tok", "ToKeN", "conn_ection_string", "Ünïcode_pass_word", "PASSW", "\xff\xfesalt", strings.Repeat("a", 63) + "dsn",
		strings.Repeat("b", 64) + "dsn", strings.Repeat("c", 200), "K\u212a"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		if got, want := secretKey(key), secretKeyPlainly(key); got != want {
			t.Fatalf("secretKey(%q) = %v, want %v", key, got, want)
		}
	})
}

// lineMark's length and appendLineMark must agree with lineMark, which the
// skeleton of every other extractor writes.
func TestLineMarkForms(t *testing.T) {
	for _, r := range [][2]int{{0, 0}, {1, 1}, {3, 2}, {9, 10}, {99, 100000}, {1234567, 12345678}, {-5, -5}} {
		want := lineMark(r[0], r[1])
		if got := string(appendLineMark(nil, r[0], r[1])); got != want {
			t.Errorf("appendLineMark(%d, %d) = %q, want %q", r[0], r[1], got, want)
		}
		if got := lineMarkLen(r[0], r[1]); got != len(want) {
			t.Errorf("lineMarkLen(%d, %d) = %d, want %d", r[0], r[1], got, len(want))
		}
	}
	for _, n := range []int{0, 9, 10, -1, -10, 1 << 40} {
		if got, want := decimalLen(n), len(strconv.Itoa(n)); got != want {
			t.Errorf("decimalLen(%d) = %d, want %d", n, got, want)
		}
	}
}

// yamlContent must read a line as the split-lines test it replaced did.
func FuzzYAMLContent(f *testing.F) {
	for _, l := range []string{"", "  ", "# c", "  # c", "---", " --- ", "...", "a: b", "\u00a0---\u00a0", "\r", "-- -", "\u2028x"} {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		tr := strings.TrimSpace(line)
		want := tr != "" && tr[0] != '#' && tr != "---" && tr != "..."
		if got := yamlContent([]byte(line)); got != want {
			t.Fatalf("yamlContent(%q) = %v, want %v", line, got, want)
		}
	})
}

// FuzzLineStarts checks newLineStarts against a byte-by-byte scan.
func FuzzLineStarts(f *testing.F) {
	for _, s := range []string{"", "\n", "a", "a\n", "\n\nb\r\nc", strings.Repeat("x\n", 100)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		want := lineStarts{0}
		for i, c := range src {
			if c == '\n' {
				want = append(want, i+1)
			}
		}
		if got := newLineStarts(src); !slices.Equal(got, want) {
			t.Fatalf("newLineStarts(%q) = %v, want %v", src, got, want)
		}
	})
}
