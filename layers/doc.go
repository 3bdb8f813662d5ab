// Package layers documents how git-speed's three layers fit together; the
// code lives in its sub-packages, each named for what it provides.
//
//	HEAD^{tree} ─► Layer 1: world model (per tree) ─► Layer 2: scope (per task) ─► Layer 3: prompt (per stage)
//
//	layers/world          Layer 1 types: project map rows, facts, links, graph; pure Go
//	layers/world/extract  tree-sitter extractors (the only cgo): defs, imports, refs, skeletons
//	layers/world/formats  pure-Go extractors of structured formats (data, docs, infra, schemas, lockfiles …)
//	layers/world/graph    the code symbol graph: per-language resolution, clusters, PageRank, repo map
//	layers/world/terms    term vectors of files (split identifiers, fields) and the per-tree inverted term index
//	layers/world/worldtest golden archives of facts and their runner, a real tree's facts digest, for the extractors' tests
//	layers/world/align    spec alignment: requirements to the files and symbols that carry them
//	layers/world/cochange co-change history: files that changed together before a base, decayed and damped; pure
//	layers/world/build    the Layer 1 pipeline over git: incremental, cached per blob in refs/speed
//	layers/feature        a feature's spec.md and task files, strictly loaded
//	layers/scope          Layer 2: the five steps, budget dimensions, manifest/budget/material
//	layers/scope/eval     replays history through Layer 2 and measures what it reaches
//	layers/pack           context packs: files scored against a free-text request, snippets, evidence rendering
//	layers/report         pictures of what was decided: HTML pages of a scope or a pack, DOT of the file graph
//	layers/prompt         Layer 3: stage prompts from templates/, failure classification
//	layers/rules          security rules: the embedded library, .speed/rules, filtering by file kind, summaries to a budget
//	layers/split          long agent command files split into core and details, and loaded back
//	layers/agent          the agent's own context: task context assembly with a per-section report
//	layers/agent/instructions  instruction files (AGENTS.md …) from global to local, cut at headings
//	layers/agent/session  session event logs, deterministic rolling compaction, the session window
//	layers/agent/memory   notes kept across sessions, BM25 or dense-cosine search
//	layers/agent/usage    context usage of a session (exact and the seed heuristic), budget_for_task
//
// Layer 1 runs when HEAD's tree changes and is stored in the repository under
// refs/speed (package gitstore). Layer 2 reads only Layer 1 artifacts and the
// task files; Layer 3 only renders Layer 2 output. deps_test.go in this folder
// checks these rules over transitive imports.
package layers
