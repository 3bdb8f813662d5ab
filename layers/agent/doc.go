// Package agent owns the agent's own context, the part that comes from the
// agent's life rather than from the code: instruction files (package
// instructions), the session event log and its compaction (session), notes
// kept across sessions (memory), context usage (usage), and the assembly of
// all of them with a repo map into one task context with a per-section token
// report (this package, Assemble).
//
// Everything here is pure Go: it never imports gitstore, the extractors or
// the graph. The command line (and the MCP server) pass in paths, texts and
// a token counter; the same inputs give the same bytes.
package agent
