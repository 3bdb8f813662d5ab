// Package app is git-speed's operations layer: the one place both front
// ends, the command line (cmd/git-speed) and the MCP server
// (internal/mcpserver), reach the layers through.
//
// A Session is one repository opened once: its configuration, its folder
// of features, and the caches that outlive a single call (the world model
// of HEAD's tree kept warm for a long-lived server, exact token counts of
// blobs, rendered maps and scope records on disk). Every operation the
// front ends offer is a method of Session that takes a context.Context and
// a typed request and returns a typed result:
//
//	Index, Status, Map, Skeleton, Graph, Symbols, Neighbours, Read, Align,
//	Scope, Render, Classify, Verify, Pack, ReportScope, ReportPack,
//	GraphDOT, Context, SessionStart,
//	SessionEvent, SessionCompact, SessionShow, SessionList, MemoryAdd,
//	MemorySearch, MemoryList, MemoryForget, Usage, Eval, EvalPack, GC,
//	Init, Split, Hook
//
// What an operation says besides its result (warnings, notes, progress,
// traces) goes to the Reporter the context carries (WithReporter); the
// command line prints it on stderr, the server returns it beside the
// result and sends progress as MCP notifications. Errors are one sentence;
// a *UsageError is a mistake in the request (exit 2), a config.Error a
// mistake in speed.toml (exit 2), a *MismatchError a verify that found
// differences (exit 3).
//
// Methods of a Session are safe for concurrent use: read-only calls run
// side by side, and a cancelled context stops a call's work at its next
// step. Process-wide settings (GC percent, memory limit) are made only
// when the Session was opened for a one-shot command (Options.OneShot).
package app
