package formats

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// Jupyter notebooks (.ipynb, nbformat 4) are read with encoding/json's
// token stream in one pass, recording the file line of every source
// string. The kernel is a definition; markdown cells' headings H1–H4 are
// definitions spanning their sections; code cells are joined into one
// program (IPython magics and shell escapes blanked) that Options.Code
// reads in the notebook's language, so a notebook with many cells costs
// one parse, and every definition, import and reference is moved back to
// the notebook line its source string is on. Outputs are skipped.

func init() {
	Register("jupyter", extractNotebook)
}

// errNBFormat3 stops the read of an nbformat 3 notebook, whose cells sit
// in worksheets with another shape.
var errNBFormat3 = errors.New("nbformat 3")

// nbCell is a cell's type and its source lines with their file lines.
type nbCell struct {
	kind  string
	lines []string
	at    []int
}

type nbMeta struct {
	Kernelspec struct {
		Name        string `json:"name"`
		DisplayName string `json:"display_name"`
		Language    string `json:"language"`
	} `json:"kernelspec"`
	LanguageInfo struct {
		Name string `json:"name"`
	} `json:"language_info"`
}

func extractNotebook(src []byte, opt Options, facts *world.Facts) {
	ls := newLineStarts(src)
	dec := json.NewDecoder(bytes.NewReader(src))
	line := func() int { return ls.line(max(0, int(dec.InputOffset())-1)) }
	var cells []nbCell
	var meta nbMeta
	metaLine := 0
	err := nbRead(dec, line, &cells, &meta, &metaLine)
	switch {
	case errors.Is(err, errNBFormat3):
		facts.Partial = true
		facts.Warning = fmt.Sprintf("nbformat 3 notebook (worksheets at line %d): its cells are not read", line())
	case err != nil:
		facts.Partial = true
		facts.Warning = fmt.Sprintf("malformed notebook at line %d: %v; cells before it read", line(), err)
	}
	lang := strings.ToLower(meta.LanguageInfo.Name)
	if lang == "" {
		lang = strings.ToLower(meta.Kernelspec.Language)
	}
	if lang == "" {
		lang = world.LangPython
	}
	var sk strings.Builder
	if k := meta.Kernelspec.Name; k != "" {
		sig := "kernel " + k
		if meta.Kernelspec.DisplayName != "" {
			sig += " (" + meta.Kernelspec.DisplayName + ")"
		}
		facts.Defs = append(facts.Defs, world.Def{Name: k, Qualified: "kernel." + k, Kind: "kernel", Start: max(metaLine, 1),
			End: max(metaLine, 1), Signature: sig})
		sk.WriteString("# " + sig + "\n")
	}
	// Code cells, joined.
	var code strings.Builder
	var at []int
	var heads []docHeading
	for _, c := range cells {
		switch c.kind {
		case "code":
			for i, l := range c.lines {
				t := strings.TrimLeft(l, " \t")
				if strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!") {
					l = ""
				}
				code.WriteString(l)
				code.WriteByte('\n')
				at = append(at, c.at[i])
			}
			if len(c.at) > 0 {
				code.WriteByte('\n')
				at = append(at, c.at[len(c.at)-1])
			}
		case "markdown":
			fence := false
			for i, l := range c.lines {
				if mdFence.MatchString(l) {
					fence = !fence
				}
				if fence {
					continue
				}
				if m := mdATX.FindStringSubmatch(l); m != nil && len(m[1]) <= 4 {
					if t := mdText(m[2]); t != "" && len(heads) < maxOutlineDefs {
						heads = append(heads, docHeading{level: len(m[1]), text: t, line: c.at[i]})
					}
				}
			}
		}
	}
	var codeSkel string
	if code.Len() > 0 && opt.Code != nil {
		lineOf := func(l int) int {
			if l < 1 {
				return at[0]
			}
			return at[min(l, len(at))-1]
		}
		codeSkel = embedCode(facts, opt.Code(lang, []byte(code.String())), lineOf, "")
	}
	// Headings, after the code so their section ends are known.
	lastCell := 0 // sections end with the last cell, not the metadata
	for _, c := range cells {
		if len(c.at) > 0 {
			lastCell = max(lastCell, c.at[len(c.at)-1])
		}
	}
	var hf world.Facts
	docOutline(&hf, heads, max(lastCell, 1), "line")
	facts.Defs = append(facts.Defs, hf.Defs...)
	sortDefsKeepRefs(facts)
	sk.WriteString(hf.Skeleton)
	if codeSkel != "" {
		if sk.Len() > 0 {
			sk.WriteString("\n")
		}
		sk.WriteString(codeSkel)
	}
	facts.Skeleton = sk.String()
}

// nbRead reads the top-level object: cells and metadata; everything else
// is skipped.
func nbRead(dec *json.Decoder, line func() int, cells *[]nbCell, meta *nbMeta, metaLine *int) error {
	if err := jsonOpen(dec, '{', "the notebook"); err != nil {
		return err
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		switch kt {
		case "cells":
			if err := nbCells(dec, line, cells); err != nil {
				return err
			}
		case "worksheets":
			return errNBFormat3
		case "metadata":
			*metaLine = line()
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			_ = json.Unmarshal(raw, meta) // odd metadata is no reason to lose the cells
		default:
			if err := jsonSkipValue(dec); err != nil {
				return err
			}
		}
	}
	return nil
}

func nbCells(dec *json.Decoder, line func() int, cells *[]nbCell) error {
	if err := jsonOpen(dec, '[', "cells"); err != nil {
		return err
	}
	for dec.More() {
		if err := jsonOpen(dec, '{', "a cell"); err != nil {
			return err
		}
		var c nbCell
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			switch kt {
			case "cell_type":
				t, err := dec.Token()
				if err != nil {
					return err
				}
				c.kind, _ = t.(string)
			case "source", "input":
				if err := nbSource(dec, line, &c); err != nil {
					return err
				}
			default:
				if err := jsonSkipValue(dec); err != nil {
					return err
				}
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		*cells = append(*cells, c)
	}
	_, err := dec.Token()
	return err
}

// nbSource reads a cell's source: one string or an array of strings, each
// split into lines that keep the string's file line.
func nbSource(dec *json.Decoder, line func() int, c *nbCell) error {
	addString := func(s string) {
		l := line()
		for _, part := range strings.SplitAfter(s, "\n") {
			if part == "" {
				continue
			}
			c.lines = append(c.lines, strings.TrimRight(part, "\r\n"))
			c.at = append(c.at, l)
		}
	}
	t, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := t.(type) {
	case string:
		addString(v)
		return nil
	case json.Delim:
		if v != '[' {
			return jsonSkipRest(dec, v)
		}
	default:
		return nil
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch v := t.(type) {
		case string:
			addString(v)
		case json.Delim:
			if err := jsonSkipRest(dec, v); err != nil {
				return err
			}
		}
	}
	_, err = dec.Token()
	return err
}

// jsonOpen reads the opening delimiter d of what; any other token is an
// error naming it.
func jsonOpen(dec *json.Decoder, d json.Delim, what string) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t != d {
		shape := "an object"
		if d == '[' {
			shape = "an array"
		}
		return fmt.Errorf("%s is not %s", what, shape)
	}
	return nil
}

// jsonSkipValue reads and drops one value.
func jsonSkipValue(dec *json.Decoder) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); ok {
		return jsonSkipRest(dec, d)
	}
	return nil
}

// jsonSkipRest reads the rest of a container whose opening d was read.
func jsonSkipRest(dec *json.Decoder, d json.Delim) error {
	if d != '{' && d != '[' {
		return nil
	}
	for n := 1; n > 0; {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := t.(json.Delim); ok {
			if d == '{' || d == '[' {
				n++
			} else {
				n--
			}
		}
	}
	return nil
}
