// Package prompt is git-speed's Layer 3: it turns the Layer 2 artifacts of
// one task (manifest.json, budget.json and material.json under
// .speed/features/<feature>/context/task-<id>/) into the markdown prompt of a
// stage (architect, verifier, developer, reviewer, coherence, debugger), and
// it classifies an agent's failure output against what Layer 2 cut.
//
// Every prompt is rendered in the order Identity → Constraints → Material →
// Traceability ("context before content"). A stage template defines one
// named block per section ({{define "identity"}} … {{end}} and so on); the
// sections are rendered separately so that each one gets its own token count
// in the Umbra-style report (within_budget, remaining_tokens).
//
// The package is pure: it reads files only in Load (the three artifacts) and
// when a repository overrides a template (.speed/templates/<stage>.md.tmpl).
// Everything else the caller supplies in Input (diffs, repo map, clusters,
// tasks, failure log), and the same Input always gives the same bytes. It
// decodes the artifacts with its own structs, tolerant of added fields, so it
// depends on the file contract and not on Layer 2's Go types; it never
// imports gitstore, extract or the graph.
package prompt
