package feature

import (
	"fmt"
	"regexp"
	"strings"
)

// Spec is a parsed spec.md: requirements carrying ids, and the rest as
// design paragraphs.
type Spec struct {
	Requirements []Requirement `json:"requirements"`
	Paragraphs   []Paragraph   `json:"paragraphs"`
}

// Requirement is a heading or list item that carries an id such as REQ-1,
// R-12 or NFR-3, with its text up to the next requirement or heading.
type Requirement struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Text  string `json:"text"`
	Line  int    `json:"line"`
}

// Paragraph is a block of design text, with the heading it sits under.
type Paragraph struct {
	Heading string `json:"heading,omitempty"`
	Text    string `json:"text"`
	Line    int    `json:"line"`
}

// Requirement returns the requirement with id, or nil.
func (s *Spec) Requirement(id string) *Requirement {
	for i := range s.Requirements {
		if s.Requirements[i].ID == id {
			return &s.Requirements[i]
		}
	}
	return nil
}

// ReqIDPattern is the shape of a requirement id.
const ReqIDPattern = `[A-Z]{1,5}-[0-9]+`

var (
	anyIDRE    = regexp.MustCompile(`(?:^|[^A-Za-z0-9_-])(` + ReqIDPattern + `)(?:$|[^A-Za-z0-9_-])`)
	headingRE  = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$`)
	listItemRE = regexp.MustCompile(`^([ \t]*)(?:[-*+]|[0-9]{1,9}[.)])[ \t]+(.*)$`)
	fenceRE    = regexp.MustCompile("^ {0,3}(```+|~~~+)")
	leadIDRE   = regexp.MustCompile(`^[\s*_\[\(` + "`" + `]*(` + ReqIDPattern + `)[\]\)*_` + "`" + `]*(?:$|[\s:.,;)\]—–-]+)`)
)

// FindIDs returns the requirement ids mentioned in s, in order, once each.
func FindIDs(s string) []string {
	var out []string
	seen := map[string]bool{}
	for i := 0; i < len(s); {
		m := anyIDRE.FindStringSubmatchIndex(s[i:])
		if m == nil {
			break
		}
		id := s[i+m[2] : i+m[3]]
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
		i += m[3]
	}
	return out
}

// ParseSpec splits a spec.md into requirements and design paragraphs; name
// is its path, used in warnings (a repeated id keeps the first).
func ParseSpec(name string, data []byte) (*Spec, []Warning) {
	s := &Spec{Requirements: []Requirement{}, Paragraphs: []Paragraph{}}
	var warns []Warning
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	lines := strings.Split(text, "\n")

	heading := ""
	var req *Requirement // open requirement
	reqIsItem := false   // req started at a list item (ends at a blank line before unindented text)
	itemIndent := 0
	var body []string // lines of the open requirement
	var para []string // lines of the open paragraph
	paraLine := 0
	seen := map[string]int{}

	flushPara := func() {
		t := strings.TrimSpace(strings.Join(para, "\n"))
		if t != "" {
			s.Paragraphs = append(s.Paragraphs, Paragraph{Heading: heading, Text: t, Line: paraLine})
		}
		para = nil
	}
	flushReq := func() {
		if req == nil {
			return
		}
		req.Text = strings.TrimSpace(strings.Join(body, "\n"))
		if first, ok := seen[req.ID]; ok {
			warns = append(warns, Warning{File: name, Line: req.Line, Msg: fmt.Sprintf("requirement %s is defined again (first at line %d); this one is ignored", req.ID, first)})
		} else {
			seen[req.ID] = req.Line
			s.Requirements = append(s.Requirements, *req)
		}
		req, body = nil, nil
	}
	inFence, fence := false, ""
	blankRun := false
	for i, l := range lines {
		n := i + 1
		if inFence {
			if m := fenceRE.FindStringSubmatch(l); m != nil && strings.HasPrefix(m[1], fence[:1]) && len(m[1]) >= len(fence) && strings.TrimSpace(l[strings.Index(l, m[1])+len(m[1]):]) == "" {
				inFence = false
			}
			if req != nil {
				body = append(body, l)
			} else {
				para = append(para, l)
			}
			continue
		}
		if m := fenceRE.FindStringSubmatch(l); m != nil {
			inFence, fence = true, m[1]
			if req != nil {
				body = append(body, l)
			} else {
				if len(para) == 0 {
					paraLine = n
				}
				para = append(para, l)
			}
			blankRun = false
			continue
		}
		if m := headingRE.FindStringSubmatch(l); m != nil {
			flushReq()
			flushPara()
			h := strings.TrimSpace(m[2])
			if id := leadingOrAnyID(h); id != "" {
				req = &Requirement{ID: id, Title: titleWithout(h, id), Line: n}
				reqIsItem = false
				heading = h
			} else {
				heading = h
			}
			blankRun = false
			continue
		}
		if strings.TrimSpace(l) == "" {
			if req == nil {
				flushPara()
			} else {
				body = append(body, "")
			}
			blankRun = true
			continue
		}
		if m := listItemRE.FindStringSubmatch(l); m != nil {
			indent := len(strings.ReplaceAll(m[1], "\t", "    "))
			if lm := leadIDRE.FindStringSubmatch(m[2]); lm != nil {
				flushReq()
				flushPara()
				req = &Requirement{ID: lm[1], Title: titleWithout(m[2], lm[1]), Line: n}
				body = []string{strings.TrimSpace(m[2])}
				reqIsItem, itemIndent = true, indent
				blankRun = false
				continue
			}
			if req != nil && reqIsItem && indent <= itemIndent {
				// a sibling item without an id ends the requirement
				flushReq()
			}
		} else if req != nil && reqIsItem && blankRun {
			indent := len(l) - len(strings.TrimLeft(l, " \t"))
			if indent <= itemIndent {
				flushReq()
			}
		}
		blankRun = false
		if req != nil {
			body = append(body, l)
			continue
		}
		if len(para) == 0 {
			paraLine = n
		}
		para = append(para, l)
	}
	flushReq()
	flushPara()
	return s, warns
}

// leadingOrAnyID returns the id a heading carries: the one it starts with,
// or else the first one in it.
func leadingOrAnyID(h string) string {
	if m := leadIDRE.FindStringSubmatch(h); m != nil {
		return m[1]
	}
	if ids := FindIDs(h); len(ids) > 0 {
		return ids[0]
	}
	return ""
}

// titleWithout returns the first line of s without id and the punctuation
// around it and without markdown emphasis.
func titleWithout(s, id string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = strings.Replace(s, id, "", 1)
	s = strings.NewReplacer("**", "", "__", "", "`", "", "[]", "", "()", "").Replace(s)
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, ":.-—–) ]")
	s = strings.TrimRight(s, " (-—–:[")
	return strings.TrimSpace(s)
}
