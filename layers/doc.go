// Package layers documents how git-speed's three layers fit together; the
// code lives in its sub-packages, each named for what it provides.
//
//	HEAD^{tree} ──► Layer 1: world model (per tree)  ──► Layer 2: scope (per task) ──► Layer 3: prompt (per stage)
//	                layers/world          types          layers/scope                  layers/prompt
//	                layers/world/extract  tree-sitter    symbol resolution, walk,      text/template rendering,
//	                layers/world/graph    CSG, ranking   decisions, spec, budget       classification
//	                layers/world/build    pipeline
//
// Layer 1 runs when HEAD's tree changes and is stored in the repository under
// refs/speed (see package gitstore). Layer 2 reads only Layer 1 artifacts and
// the task files; Layer 3 only renders Layer 2 output. The import rules that
// keep this shape are checked by deps_test.go in this folder.
package layers
