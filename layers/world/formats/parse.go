package formats

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"

	"github.com/goccy/go-yaml/parser"
	"github.com/pelletier/go-toml/v2/unstable"
)

// parsers are the parsers the extractors of data formats read a file
// with, run alone: the parse-only baseline of an index run (git speed
// index --parse-only) parses these formats as a build does, so that the
// build's cost over it is the cost of extraction, not of parsing.
// Formats read by a scanner of their own (Markdown, Dockerfile, SQL…)
// have no entry: their scan is their extraction.
var parsers = map[string]func(src []byte) error{
	"yaml":           parseYAMLOnly,
	"github-actions": parseYAMLOnly,
	"gitlab-ci":      parseYAMLOnly,
	"json":           func(src []byte) error { return jsonTokens(jsonStripComments(src)) },
	"jupyter":        jsonTokens,
	"xml":            xmlTokens,
	"toml":           tomlExpressions,
}

// Parse runs on src the parser lang's extractor reads it with, and
// nothing else; ok is false when lang's extractor is not built on a
// parser (the parse's own error is of no interest to the baseline).
func Parse(lang string, src []byte) (ok bool) {
	p, ok := parsers[lang]
	if !ok {
		return false
	}
	defer func() { _ = recover() }() // as Extract: a panicking parser is one file's loss
	_ = p(src)
	return true
}

func parseYAMLOnly(src []byte) error {
	_, err := parser.ParseBytes(src, 0)
	return err
}

func jsonTokens(src []byte) error {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	for {
		if _, err := dec.Token(); err != nil {
			return err
		}
	}
}

func xmlTokens(src []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(src))
	dec.Strict = false
	dec.AutoClose = xml.HTMLAutoClose
	dec.Entity = xml.HTMLEntity
	dec.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	for {
		if _, err := dec.Token(); err != nil {
			return err
		}
	}
}

func tomlExpressions(src []byte) error {
	var p unstable.Parser
	p.Reset(src)
	for p.NextExpression() {
	}
	return p.Error()
}
