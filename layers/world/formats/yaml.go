package formats

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/git-speed/git-speed/internal/lazyre"
	goyaml "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/git-speed/git-speed/layers/world"
)

// YAML files are parsed with github.com/goccy/go-yaml (pure Go, YAML 1.2,
// positions on every token): every mapping key down to maxOutlineDepth is
// a definition named by its key path (spec.template.spec, jobs.build);
// sequence items that are mappings are walked as path[i]. The parser gives
// start lines only, so a key's value ends where the next key at its depth
// or above begins. A file the parser rejects falls back to a line scan of
// its top-level keys, with a warning naming the line.

func init() {
	Register("yaml", extractYAML)
}

func extractYAML(src []byte, opt Options, facts *world.Facts) {
	_, out := parseYAML(src, facts)
	out.emit(facts)
	out.free()
}

// parseYAML parses src and collects its key outline; docs is nil when the
// parser rejected the file (out then holds the line scan's top-level keys
// and facts a warning).
func parseYAML(src []byte, facts *world.Facts) (docs []*ast.DocumentNode, out *outline) {
	out = &outline{}
	ls := newLineStarts(src)
	content := func(l int) bool {
		if l < 1 || l > len(ls) {
			return false
		}
		end := len(src)
		if l < len(ls) {
			end = ls[l] - 1
		}
		return yamlContent(src[ls[l-1]:end])
	}
	f, err := parser.ParseBytes(src, 0)
	if err != nil || f == nil {
		facts.Partial = true
		line := 0
		var se *goyaml.SyntaxError
		if errors.As(err, &se) && se.Token != nil {
			line = se.Token.Position.Line
		}
		msg := "unknown error"
		if se != nil {
			msg = se.Message
		} else if err != nil {
			msg = firstLine(err.Error())
		}
		facts.Warning = fmt.Sprintf("malformed YAML at line %d: %s; keys read line by line", line, msg)
		yamlScanTop(strings.Split(string(src), "\n"), out)
		out.closeByIndent(content, len(ls))
		return nil, out
	}
	for _, d := range f.Docs {
		if d == nil || d.Body == nil {
			continue
		}
		yamlWalk(out, d.Body, "", 0)
	}
	// The parser breaks lines at a lone CR too (old Mac line ends), where
	// the file's lines are those \n ends everywhere else: a key it puts
	// past the last of them is on the last.
	for i := range out.entries {
		out.entries[i].start = min(out.entries[i].start, len(ls))
	}
	out.closeByIndent(content, len(ls))
	return f.Docs, out
}

// yamlContent reports whether a line holds more than blanks, a comment or
// a document marker.
func yamlContent(line []byte) bool {
	t := bytes.TrimSpace(line)
	return len(t) != 0 && t[0] != '#' && string(t) != "---" && string(t) != "..."
}

// yamlKeyLine is a "key:" line for the fallback scan.
var yamlKeyLine = lazyre.New(`^( *)(?:- +)?([A-Za-z0-9_$.\-/"']+(?: [A-Za-z0-9_$.\-/"']+)*)\s*:(\s|$)`)

// yamlScanTop is the fallback for files the parser rejects: "key:" lines,
// nested by indentation.
func yamlScanTop(lines []string, out *outline) {
	type open struct {
		indent int
		path   string
	}
	var stack []open
	for i, l := range lines {
		m := yamlKeyLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		indent := len(m[1])
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		parent := ""
		if len(stack) > 0 {
			parent = stack[len(stack)-1].path
		}
		k := strings.Trim(m[2], `"'`)
		p := joinPath(parent, k)
		if len(stack) <= maxOutlineDepth && out.add(keyEntry{name: k, path: p, parent: parent, depth: len(stack), start: i + 1}) < 0 {
			return
		}
		stack = append(stack, open{indent: indent, path: p})
	}
}

// yamlUnwrap looks through tags, anchors and comments to the value.
func yamlUnwrap(n ast.Node) ast.Node {
	for range 16 {
		switch v := n.(type) {
		case *ast.TagNode:
			n = v.Value
		case *ast.AnchorNode:
			n = v.Value
		case *ast.CommentGroupNode:
			return nil
		default:
			return n
		}
	}
	return n
}

// yamlPairs returns the key-value pairs of a mapping node (a one-key
// mapping is a bare MappingValueNode); nil for anything else.
func yamlPairs(n ast.Node) []*ast.MappingValueNode {
	switch v := yamlUnwrap(n).(type) {
	case *ast.MappingNode:
		return v.Values
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{v}
	}
	return nil
}

// yamlShape is how a value unwrapped once shows in a signature: "{…}" for
// a mapping with pairs, "[n]" for a sequence, "" for anything else (as
// yamlPairs and yamlItems see it: an empty flow mapping is not a mapping
// there, and a value is looked through once more).
func yamlShape(v ast.Node) string {
	u := yamlUnwrap(v)
	switch u := u.(type) {
	case *ast.MappingNode:
		if u.Values != nil {
			return "{…}"
		}
	case *ast.MappingValueNode:
		return "{…}"
	case *ast.SequenceNode:
		if u.Values != nil {
			return yamlSeqShape(len(u.Values))
		}
	}
	if _, ok := v.(*ast.SequenceNode); ok {
		return yamlSeqShape(len(yamlItems(v)))
	}
	return ""
}

func yamlSeqShape(n int) string { return "[" + strconv.Itoa(n) + "]" }

// yamlItems returns the items of a sequence node; nil for anything else.
func yamlItems(n ast.Node) []ast.Node {
	if s, ok := yamlUnwrap(n).(*ast.SequenceNode); ok {
		return s.Values
	}
	return nil
}

// yamlKey is a mapping key's text.
func yamlKey(mv *ast.MappingValueNode) string {
	if mv == nil || mv.Key == nil {
		return ""
	}
	k := ast.Node(mv.Key)
	if mk, ok := k.(*ast.MappingKeyNode); ok && mk.Value != nil {
		k = mk.Value
	}
	if tk := k.GetToken(); tk != nil {
		return tk.Value
	}
	return ""
}

// yamlLine is the line of a node's first token.
func yamlLine(n ast.Node) int {
	if n == nil {
		return 0
	}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		return tk.Position.Line
	}
	return 0
}

// yamlScalar is a scalar's text as written ("" for collections, nulls
// and anything multi-line).
func yamlScalar(n ast.Node) string {
	n = yamlUnwrap(n)
	if n == nil {
		return ""
	}
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode, *ast.NullNode:
		return ""
	case *ast.LiteralNode:
		return "|…"
	}
	if tk := n.GetToken(); tk != nil {
		switch tk.Type {
		case token.DoubleQuoteType:
			return strconv.Quote(tk.Value)
		case token.SingleQuoteType:
			return "'" + tk.Value + "'"
		}
		return tk.Value
	}
	return ""
}

func yamlWalk(out *outline, n ast.Node, p string, depth int) {
	if depth > maxOutlineDepth {
		return
	}
	if items := yamlItems(n); items != nil {
		for i, it := range items {
			if i >= 50 {
				break
			}
			if yamlPairs(it) != nil {
				yamlWalk(out, it, p+"["+strconv.Itoa(i)+"]", depth)
			}
		}
		return
	}
	for _, mv := range yamlPairs(n) {
		k := yamlKey(mv)
		if k == "" || k == "<<" {
			continue
		}
		start := yamlLine(mv.Key)
		if start == 0 {
			continue
		}
		e := keyEntry{name: k, path: joinPath(p, k), parent: p, depth: depth, start: start}
		v := yamlUnwrap(mv.Value)
		e.shape = yamlShape(v)
		if e.shape == "" {
			e.value = shownValue(k, yamlScalar(v))
		}
		if out.add(e) < 0 {
			return
		}
		if e.shape != "" {
			yamlWalk(out, v, e.path, depth+1)
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
