package formats

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// XML files are read with encoding/xml's token stream (not strict, HTML
// entities known): elements down to maxOutlineDepth form the outline, each
// a definition qualified by its element path (project.build.plugins), with
// an id, name or key attribute written path[@id=x]. Elements named include
// or import with an href, file, resource or location attribute, and Maven
// dependencies (groupId:artifactId), are imports.

func init() {
	Register("xml", extractXML)
}

func extractXML(src []byte, opt Options, facts *world.Facts) {
	ls := newLineStarts(src)
	dec := xml.NewDecoder(bytes.NewReader(src))
	dec.Strict = false
	dec.AutoClose = xml.HTMLAutoClose
	dec.Entity = xml.HTMLEntity
	dec.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	var out outline
	defer out.free()
	type open struct {
		idx  int // outline entry, -1 when not kept
		path string
		name string
		// Maven dependency parts.
		group, artifact string
		line            int
	}
	var stack []open
	var text strings.Builder
	var err error
	for {
		var tok xml.Token
		tok, err = dec.Token()
		if err != nil {
			break
		}
		line, _ := dec.InputPos()
		switch t := tok.(type) {
		case xml.StartElement:
			text.Reset()
			name := t.Name.Local
			parent := ""
			if len(stack) > 0 {
				parent = stack[len(stack)-1].path
			}
			p := joinPath(parent, name)
			label := name
			attrs := xmlAttrs(t.Attr)
			for _, a := range []string{"id", "name", "key"} {
				if v, ok := attrs[a]; ok && v != "" {
					p += "[@" + a + "=" + v + "]"
					label += "[@" + a + "=" + v + "]"
					break
				}
			}
			if name == "include" || name == "import" {
				for _, a := range []string{"href", "file", "resource", "location", "schemaLocation", "Project"} {
					if v := attrs[a]; v != "" {
						facts.Imports = append(facts.Imports, world.Import{Path: v, Line: line, Kind: name})
						break
					}
				}
			}
			idx := -1
			if len(stack) <= maxOutlineDepth {
				idx = out.add(keyEntry{name: label, path: p, parent: parent, depth: len(stack), start: line, kind: "element"})
			}
			stack = append(stack, open{idx: idx, path: p, name: name, line: line})
		case xml.CharData:
			if len(stack) > 0 && text.Len() < 200 {
				text.Write(t)
			}
		case xml.EndElement:
			if len(stack) == 0 {
				continue
			}
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if top.idx >= 0 {
				e := &out.entries[top.idx]
				e.end = line
				if v := strings.TrimSpace(text.String()); v != "" && e.end == e.start {
					e.value = shownValue(top.name, v)
				}
			}
			if len(stack) > 0 {
				up := &stack[len(stack)-1]
				switch top.name {
				case "groupId":
					up.group = strings.TrimSpace(text.String())
				case "artifactId":
					up.artifact = strings.TrimSpace(text.String())
				}
			}
			if top.name == "dependency" && top.artifact != "" {
				facts.Imports = append(facts.Imports, world.Import{Path: top.group + ":" + top.artifact, Line: top.line, Kind: "maven"})
			}
			text.Reset()
		}
	}
	if !errors.Is(err, io.EOF) {
		line, _ := dec.InputPos()
		facts.Partial = true
		msg := err.Error()
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			msg = se.Msg
		}
		facts.Warning = fmt.Sprintf("malformed XML at line %d: %s; facts are partial", line, msg)
	}
	last := ls.line(max(0, len(src)-1))
	for _, o := range stack {
		if o.idx >= 0 && out.entries[o.idx].end == 0 {
			out.entries[o.idx].end = last
		}
	}
	// Entries whose outline children were cut keep their own ranges.
	for i := range out.entries {
		if out.entries[i].end == 0 {
			out.entries[i].end = out.entries[i].start
		}
	}
	out.emit(facts)
}

func xmlAttrs(as []xml.Attr) map[string]string {
	m := make(map[string]string, len(as))
	for _, a := range as {
		m[a.Name.Local] = a.Value
	}
	return m
}
