// Package templates holds the six embedded stage templates of Layer 3
// (architect, verifier, developer, reviewer, coherence, debugger), written
// for text/template and rendered by package layers/prompt. A repository can
// override any of them with .speed/templates/<stage>.md.tmpl. Each template
// defines four blocks, rendered in this order: "identity", "constraints",
// "material" and "traceability". This package has no logic.
package templates

import "embed"

// FS holds <stage>.md.tmpl for every stage.
//
//go:embed *.md.tmpl
var FS embed.FS
