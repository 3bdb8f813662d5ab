package formats

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"

	"github.com/git-speed/git-speed/layers/world"
)

// JSON files are read with encoding/json's token stream: every member key
// down to maxOutlineDepth is a definition whose Qualified is its key path
// (scripts.build, compilerOptions.paths), with the lines its value spans.
// Array elements that are objects are walked as path[i]. The dependency
// maps of package.json and composer.json, and tsconfig's extends, are
// imports. Comments and trailing commas (tsconfig, VS Code settings) are
// blanked before reading.

func init() {
	Register("json", extractJSON)
}

func extractJSON(src []byte, opt Options, facts *world.Facts) {
	w := jsonWalk{src: src, ls: newLineStarts(src), base: path.Base(opt.Path)}
	w.dec = json.NewDecoder(bytes.NewReader(jsonStripComments(src)))
	w.dec.UseNumber()
	err := w.value()
	if err == nil {
		if _, err2 := w.dec.Token(); err2 != io.EOF {
			err = errors.New("data after the top-level value")
		}
	}
	if err != nil && !(errors.Is(err, io.EOF) && !w.started && len(bytes.TrimSpace(src)) == 0) {
		facts.Partial = true
		facts.Warning = fmt.Sprintf("malformed JSON at line %d: %v; facts are partial", w.ls.line(int(w.dec.InputOffset())), err)
		last := countLines(src)
		for i := range w.out.entries {
			if w.out.entries[i].end == 0 {
				w.out.entries[i].end = last
			}
		}
	}
	w.out.emit(facts)
	w.out.free()
	facts.Imports = append(facts.Imports, w.imports...)
}

type jsonWalk struct {
	src     []byte
	ls      lineStarts
	dec     *json.Decoder
	base    string
	out     outline
	imports []world.Import
	started bool
}

// jsonDeps are the members of manifests whose keys are packages.
var jsonDeps = map[string]string{
	"dependencies": "dependency", "devDependencies": "dev", "peerDependencies": "peer",
	"optionalDependencies": "optional", "require": "dependency", "require-dev": "dev",
}

// line is the line of the decoder's position (the end of the last token).
func (w *jsonWalk) line() int { return w.ls.line(max(0, int(w.dec.InputOffset())-1)) }

// value reads the top-level value.
func (w *jsonWalk) value() error {
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	w.started = true
	if d, ok := tok.(json.Delim); ok {
		return w.container(d, "", 0)
	}
	return nil
}

// member reads the value of key k whose path is kp (entry idx, -1 when
// over the cap).
func (w *jsonWalk) member(idx int, kp, k string, depth int) error {
	off := w.dec.InputOffset()
	tok, err := w.peekValue()
	if err != nil {
		return err
	}
	// entry is looked up again after nested keys were added (they may
	// move the slice).
	entry := func() *keyEntry {
		if idx < 0 {
			return nil
		}
		return &w.out.entries[idx]
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth == 0 && t == '{' && w.isManifest() {
			if kind, ok := jsonDeps[k]; ok {
				w.depImports(kind)
				if e := entry(); e != nil {
					e.shape, e.end = "{…}", w.line()
				}
				return nil
			}
		}
		if err := w.container(t, kp, depth+1); err != nil {
			return err
		}
		if e := entry(); e != nil {
			e.shape = "{…}"
			if t == '[' {
				e.shape = "[…]"
			}
			e.end = w.line()
		}
	default:
		if e := entry(); e != nil {
			e.value = shownValue(k, jsonScalar(w.src, off, w.dec.InputOffset(), t))
			e.end = w.line()
		}
		if depth == 0 && k == "extends" && w.base != "package.json" {
			if s, ok := t.(string); ok && s != "" {
				w.imports = append(w.imports, world.Import{Path: s, Line: w.line(), Kind: "extends"})
			}
		}
	}
	return nil
}

// element reads array element i of path p.
func (w *jsonWalk) element(p string, i, depth int) error {
	tok, err := w.peekValue()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	if d != '{' || depth > maxOutlineDepth || i >= 50 {
		return jsonSkipRest(w.dec, d)
	}
	return w.container(d, p+"["+strconv.Itoa(i)+"]", depth)
}

// peekValue reads the first token of a value (a scalar or an opening
// delimiter).
func (w *jsonWalk) peekValue() (json.Token, error) { return w.dec.Token() }

// container reads the rest of a value whose opening delimiter d was read.
func (w *jsonWalk) container(d json.Delim, p string, depth int) error {
	if depth > maxOutlineDepth {
		return jsonSkipRest(w.dec, d)
	}
	switch d {
	case '{':
		for w.dec.More() {
			kt, err := w.dec.Token()
			if err != nil {
				return err
			}
			k, _ := kt.(string)
			kp := joinPath(p, k)
			idx := w.out.add(keyEntry{name: k, path: kp, parent: p, depth: depth, start: w.line()})
			if err := w.member(idx, kp, k, depth); err != nil {
				return err
			}
		}
	case '[':
		for i := 0; w.dec.More(); i++ {
			if err := w.element(p, i, depth); err != nil {
				return err
			}
		}
	}
	_, err := w.dec.Token()
	return err
}

// isManifest reports whether the file's dependency maps are imports.
func (w *jsonWalk) isManifest() bool {
	return w.base == "package.json" || w.base == "composer.json" || w.base == "bower.json"
}

// depImports reads a dependency map whose '{' was read: each key is an
// import.
func (w *jsonWalk) depImports(kind string) {
	for w.dec.More() {
		kt, err := w.dec.Token()
		if err != nil {
			return
		}
		name, _ := kt.(string)
		w.imports = append(w.imports, world.Import{Path: name, Line: w.line(), Kind: kind})
		tok, err := w.dec.Token()
		if err != nil {
			return
		}
		if d, ok := tok.(json.Delim); ok {
			if jsonSkipRest(w.dec, d) != nil {
				return
			}
		}
	}
	_, _ = w.dec.Token()
}

// jsonScalar is a scalar as written in the source between two offsets
// (strings keep their quotes), falling back to its decoded form.
func jsonScalar(src []byte, from, to int64, t json.Token) string {
	if from >= 0 && to <= int64(len(src)) && from < to {
		b := bytes.TrimLeft(bytes.TrimSpace(src[from:to]), ":, \t\r\n")
		if len(b) != 0 && bytes.IndexByte(b, '\n') < 0 {
			return string(b)
		}
	}
	switch v := t.(type) {
	case string:
		return strconv.Quote(v)
	case nil:
		return "null"
	}
	return fmt.Sprint(t)
}

// jsonStripComments returns src with // and /* */ comments and trailing
// commas blanked (newlines kept, so offsets and lines do not move); src
// itself when it has none.
func jsonStripComments(src []byte) []byte {
	var out []byte
	set := func(i int, c byte) {
		if out == nil {
			out = bytes.Clone(src)
		}
		out[i] = c
	}
	inStr := false
	lastComma := -1
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inStr {
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr, lastComma = true, -1
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for ; i < len(src) && src[i] != '\n'; i++ {
				set(i, ' ')
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := bytes.Index(src[i+2:], []byte("*/"))
			end := len(src)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			for ; i < end; i++ {
				if src[i] != '\n' {
					set(i, ' ')
				}
			}
			i--
		case c == ',':
			lastComma = i
		case c == '}' || c == ']':
			if lastComma >= 0 {
				set(lastComma, ' ')
			}
			lastComma = -1
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
		default:
			lastComma = -1
		}
	}
	if out == nil {
		return src
	}
	return out
}
