// Package graph is part of git-speed's Layer 1: it owns the code symbol
// graph (CSG) of one tree. Build resolves every file's references
// (world.Link) to the files that define them, with each language's own
// import rules (Go, Python, JavaScript/TypeScript, Rust, Java, C#, C/C++,
// PHP, Ruby) and a guarded by-name fallback; Clusters finds domain
// communities; Rank is a personalised PageRank; RepoMap renders a ranked,
// token-budgeted markdown map of the tree.
//
// The package is pure Go and deterministic: the same input gives the same
// bytes. It never imports the tree-sitter boundary (layers/world/extract);
// only its tests do, to measure resolution against go/types.
package graph
