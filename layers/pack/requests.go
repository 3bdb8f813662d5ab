package pack

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"
)

// EvalRequest is one line of a request file for `git speed eval --pack
// --requests FILE`: a request (an issue's text, a bug report) asked at a
// revision, with the files its fix changed as the target.
type EvalRequest struct {
	ID      string   `json:"id"`
	Rev     string   `json:"rev"`     // the commit the request was asked at (the fix's parent)
	Request string   `json:"request"` // the text of the request
	Target  []string `json:"target"`  // repo-relative files the fix changed
	Kind    string   `json:"kind"`    // what the request is ("issue", "commit" …); "" is "issue"
}

// Request files are bounded so a wrong file is refused, not read for ever.
const (
	maxRequestLine  = 4 << 20
	maxRequestLines = 100000
)

var revPattern = regexp.MustCompile(`^[0-9a-fA-F]{7,64}$|^[A-Za-z0-9][A-Za-z0-9._/~^-]{0,200}$`)

// ReadRequests reads a request file: JSON Lines, one EvalRequest per line;
// blank lines and lines starting with # are skipped. name is the file's
// name for errors, which say its line.
func ReadRequests(name string, r io.Reader) ([]EvalRequest, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxRequestLine)
	var out []EvalRequest
	seen := map[string]int{}
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 || b[0] == '#' {
			continue
		}
		if len(out) >= maxRequestLines {
			return nil, fmt.Errorf("%s:%d: more than %d requests", name, line, maxRequestLines)
		}
		var q EvalRequest
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&q); err != nil {
			return nil, fmt.Errorf("%s:%d: not a request object: %v", name, line, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("%s:%d: more than one JSON value on the line", name, line)
		}
		switch {
		case q.ID == "":
			return nil, fmt.Errorf("%s:%d: the request has no \"id\"", name, line)
		case !revPattern.MatchString(q.Rev) || strings.Contains(q.Rev, ".."):
			return nil, fmt.Errorf("%s:%d: request %s: \"rev\" %q is not a commit", name, line, q.ID, clip(q.Rev, 40))
		case strings.TrimSpace(q.Request) == "" || !utf8.ValidString(q.Request):
			return nil, fmt.Errorf("%s:%d: request %s: \"request\" is empty or not text", name, line, q.ID)
		case len(q.Target) == 0:
			return nil, fmt.Errorf("%s:%d: request %s: \"target\" lists no file", name, line, q.ID)
		}
		for _, t := range q.Target {
			if t == "" || strings.HasPrefix(t, "/") || strings.Contains(t, "\x00") {
				return nil, fmt.Errorf("%s:%d: request %s: target %q is not a repo-relative path", name, line, q.ID, clip(t, 60))
			}
		}
		if prev, ok := seen[q.ID]; ok {
			return nil, fmt.Errorf("%s:%d: request id %q is used on line %d too", name, line, q.ID, prev)
		}
		seen[q.ID] = line
		if q.Kind == "" {
			q.Kind = "issue"
		}
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no requests (JSON Lines of {id, rev, request, target, kind})", name)
	}
	return out, nil
}
