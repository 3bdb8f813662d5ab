package hooks

import (
	"bytes"
	"strconv"
	"testing"
)

func TestParseMarker(t *testing.T) {
	cases := []struct {
		in   string
		v    int
		ours bool
	}{
		{"#!/bin/sh\n# git-speed hook v1\n", 1, true},
		{"#!/bin/sh\r\n# git-speed hook v0\r\necho\r\n", 0, true},
		{"# git-speed hook v12", 12, true},
		{"#!/bin/sh\n# git-speed hook v\n", 0, false},
		{"#!/bin/sh\n# git-speed hook v1x\n", 0, false},
		{"#!/bin/sh\n# git-speed hook v-1\n", 0, false},
		{"#!/bin/sh\n# git-speed hook v+1\n", 0, false},
		{"#!/bin/sh\necho '# git-speed hook v1'\n", 0, false},
		{"#!/bin/sh\n  # git-speed hook v1\n", 0, false},
		{string(bytes.Repeat([]byte("#\n"), 300)) + "# git-speed hook v1\n", 0, false},
		{"", 0, false},
	}
	for _, c := range cases {
		v, ours := ParseMarker([]byte(c.in))
		if v != c.v || ours != c.ours {
			t.Errorf("ParseMarker(%q) = %d,%v; want %d,%v", c.in, v, ours, c.v, c.ours)
		}
	}
}

// FuzzParseMarker: hook files are user input. ParseMarker never panics,
// claims a file only if the marker line is really there, and a marker
// written into any prefix is found.
func FuzzParseMarker(f *testing.F) {
	f.Add([]byte("#!/bin/sh\n# git-speed hook v1\n"), uint8(3))
	f.Add([]byte("#!/bin/bash\r\necho hi\r\n"), uint8(0))
	f.Add(Script("post-merge"), uint8(200))
	f.Fuzz(func(t *testing.T, content []byte, v uint8) {
		n, ours := ParseMarker(content)
		if ours {
			head := content
			if len(head) > markerWindow {
				head = head[:markerWindow]
			}
			if !bytes.Contains(head, []byte(markerPrefix+strconv.Itoa(n))) {
				t.Fatalf("claimed v%d without a marker in %q", n, head)
			}
		}
		if len(content) > 100 || bytes.ContainsAny(content, "\n\r") {
			return
		}
		withMarker := append([]byte("#!/bin/sh\n"+markerPrefix+strconv.Itoa(int(v))+"\n"), content...)
		if n, ours := ParseMarker(withMarker); !ours || n != int(v) {
			t.Fatalf("marker v%d not found in %q: %d %v", v, withMarker, n, ours)
		}
	})
}
