package formats

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/git-speed/git-speed/layers/world"
)

// TOML files are read with go-toml v2's unstable.Parser, expression by
// expression: [tables] and [[array tables]] are modules, keys are
// definitions qualified by their table (package.name, tool.ruff.line-length).
// The dependency tables of Cargo.toml and pyproject.toml are imports.

func init() {
	Register("toml", extractTOML)
}

func extractTOML(src []byte, opt Options, facts *world.Facts) {
	ls := newLineStarts(src)
	lines := strings.Split(string(src), "\n")
	var out outline
	defer out.free()
	var p unstable.Parser
	p.Reset(src)
	table := ""
	arrays := map[string]int{} // [[name]] seen so far
	depKind := ""              // import kind of the current table's keys
	base := path.Base(opt.Path)
	lineOf := func(n *unstable.Node) int { return ls.line(tomlOffset(src, n)) }
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			name := tomlKey(e)
			table = name
			shape := "[" + name + "]"
			if e.Kind == unstable.ArrayTable {
				shape = "[[" + name + "]]"
				table = name + "[" + strconv.Itoa(arrays[name]) + "]"
				arrays[name]++
			}
			depKind = tomlDepTable(base, name)
			kit := e.Key()
			kit.Next()
			line := lineOf(kit.Node())
			out.add(keyEntry{name: name, path: table, depth: 0, start: line, kind: world.KindModule, value: shape})
			if depKind == "" {
				if dep, ok := tomlDepSubtable(base, name); ok {
					facts.Imports = append(facts.Imports, world.Import{Path: dep, Line: line, Kind: "dependency"})
				}
			}
		case unstable.KeyValue:
			k := tomlKey(e)
			it := e.Key()
			it.Next()
			line := lineOf(it.Node())
			depth := 0
			if table != "" {
				depth = 1
			}
			ent := keyEntry{name: k, path: joinPath(table, k), parent: table, depth: depth, start: line}
			v := e.Value()
			switch v.Kind {
			case unstable.Array:
				ent.shape = "[…]"
			case unstable.InlineTable:
				ent.shape = "{…}"
			default:
				ent.value = shownValue(k, tomlScalar(v))
			}
			out.add(ent)
			switch {
			case depKind != "":
				dep := k
				if i := strings.IndexByte(dep, '.'); i > 0 {
					dep = dep[:i]
				}
				if !(depKind == "poetry" && dep == "python") {
					facts.Imports = append(facts.Imports, world.Import{Path: dep, Line: line, Kind: "dependency"})
				}
			case table == "project" && (k == "dependencies" || k == "optional-dependencies") && v.Kind == unstable.Array:
				for c := v.Children(); c.Next(); {
					n := c.Node()
					if n.Kind == unstable.String {
						if name := pyRequirementName(string(n.Data)); name != "" {
							facts.Imports = append(facts.Imports, world.Import{Path: name, Line: lineOf(n), Kind: "dependency"})
						}
					}
				}
			}
		}
	}
	if err := p.Error(); err != nil {
		facts.Partial = true
		line := 0
		if pe, ok := err.(*unstable.ParserError); ok {
			line = ls.line(subsliceOffset(src, pe.Highlight))
			err = fmt.Errorf("%s", pe.Message)
		}
		facts.Warning = fmt.Sprintf("malformed TOML at line %d: %v; facts are partial", line, err)
	}
	content := func(l int) bool {
		if l < 1 || l > len(lines) {
			return false
		}
		t := strings.TrimSpace(lines[l-1])
		return t != "" && t[0] != '#'
	}
	out.closeByIndent(content, len(lines))
	out.emit(facts)
}

// tomlKey is the dotted key of a table or key-value expression.
func tomlKey(e *unstable.Node) string {
	var parts []string
	for it := e.Key(); it.Next(); {
		parts = append(parts, string(it.Node().Data))
	}
	return strings.Join(parts, ".")
}

// tomlScalar is a scalar value's text.
func tomlScalar(v *unstable.Node) string {
	if v == nil {
		return ""
	}
	if v.Kind == unstable.String {
		return strconv.Quote(string(v.Data))
	}
	return string(v.Data)
}

// tomlOffset is the byte offset of a node in src (0 when unknown).
func tomlOffset(src []byte, n *unstable.Node) int {
	if n == nil {
		return 0
	}
	if n.Raw.Length > 0 {
		return int(n.Raw.Offset)
	}
	return subsliceOffset(src, n.Data)
}

// subsliceOffset is where b starts within src when b is a part of it, 0
// otherwise.
func subsliceOffset(src, b []byte) int {
	off := cap(src) - cap(b)
	if len(b) == 0 || off < 0 || off+len(b) > len(src) || &src[off] != &b[0] {
		return 0
	}
	return off
}

// tomlDepTable returns the import kind of keys in table name of a
// manifest, "" when its keys are not packages.
func tomlDepTable(base, name string) string {
	switch base {
	case "Cargo.toml":
		if name == "dependencies" || name == "dev-dependencies" || name == "build-dependencies" || name == "workspace.dependencies" ||
			strings.HasPrefix(name, "target.") && (strings.HasSuffix(name, ".dependencies") || strings.HasSuffix(name, "-dependencies")) {
			return "cargo"
		}
	case "pyproject.toml":
		if name == "tool.poetry.dependencies" || name == "tool.poetry.dev-dependencies" ||
			strings.HasPrefix(name, "tool.poetry.group.") && strings.HasSuffix(name, ".dependencies") {
			return "poetry"
		}
		if name == "project.optional-dependencies" {
			return "" // arrays of requirements, read as keys' values below
		}
	}
	return ""
}

// tomlDepSubtable recognises [dependencies.serde]-style tables of Cargo.toml.
func tomlDepSubtable(base, name string) (string, bool) {
	if base != "Cargo.toml" {
		return "", false
	}
	for _, pre := range []string{"dependencies.", "dev-dependencies.", "build-dependencies.", "workspace.dependencies."} {
		if dep, ok := strings.CutPrefix(name, pre); ok && dep != "" {
			return dep, true
		}
	}
	return "", false
}

// pyRequirementName is the package name of a PEP 508 requirement.
func pyRequirementName(req string) string {
	req = strings.TrimSpace(req)
	if i := strings.IndexAny(req, "<>=!~;[ (@"); i >= 0 {
		req = req[:i]
	}
	return req
}
