package app

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"
)

// Reporter receives what an operation says besides its result. The command
// line prints it on stderr; the MCP server returns warnings and notes
// beside the tool's result and sends progress as notifications.
type Reporter interface {
	// Warn is a warning: one sentence, without the program's name.
	Warn(msg string)
	// Note is something said beside the result: that a tree was indexed
	// first, which base a reviewer prompt diffs from, a compaction.
	Note(msg string)
	// Progress says how far a long step has come: files parsed of total.
	Progress(done, total int)
	// Trace is a timing line, sent only when tracing is on (GIT_TRACE).
	Trace(msg string)
}

type reporterKey struct{}

// WithReporter returns a context whose operations report to r. The same
// warning is passed on once per context, however many steps give it.
func WithReporter(ctx context.Context, r Reporter) context.Context {
	return context.WithValue(ctx, reporterKey{}, &notes{r: r, seen: map[string]bool{}})
}

// notes is a Reporter that passes each warning on once.
type notes struct {
	r    Reporter
	mu   sync.Mutex
	seen map[string]bool
}

func (n *notes) Warn(msg string) {
	n.mu.Lock()
	seen := n.seen[msg]
	n.seen[msg] = true
	n.mu.Unlock()
	if !seen {
		n.r.Warn(msg)
	}
}

func (n *notes) Note(msg string)          { n.r.Note(msg) }
func (n *notes) Progress(done, total int) { n.r.Progress(done, total) }
func (n *notes) Trace(msg string)         { n.r.Trace(msg) }

// discard is the Reporter of a context that names none.
type discard struct{}

func (discard) Warn(string)       {}
func (discard) Note(string)       {}
func (discard) Progress(int, int) {}
func (discard) Trace(string)      {}
func reporterOf(ctx context.Context) Reporter {
	if r, ok := ctx.Value(reporterKey{}).(*notes); ok {
		return r
	}
	return discard{}
}

// warnf reports a warning on ctx's Reporter.
func warnf(ctx context.Context, format string, args ...any) {
	reporterOf(ctx).Warn(fmt.Sprintf(format, args...))
}

// notef reports a note on ctx's Reporter.
func notef(ctx context.Context, format string, args ...any) {
	reporterOf(ctx).Note(fmt.Sprintf(format, args...))
}

// Tracing reports whether GIT_TRACE (or GIT_SPEED_TRACE) asks for traces.
func Tracing() bool {
	for _, v := range []string{os.Getenv("GIT_SPEED_TRACE"), os.Getenv("GIT_TRACE")} {
		if v != "" && v != "0" && v != "false" {
			return true
		}
	}
	return false
}

// trace reports how long a phase took since start, when tracing is on.
func trace(ctx context.Context, phase string, start time.Time) {
	if Tracing() {
		reporterOf(ctx).Trace(fmt.Sprintf("%s: %.1f ms", phase, float64(time.Since(start).Microseconds())/1000))
	}
}

// tracef reports a trace line, when tracing is on.
func tracef(ctx context.Context, format string, args ...any) {
	if Tracing() {
		reporterOf(ctx).Trace(fmt.Sprintf(format, args...))
	}
}
